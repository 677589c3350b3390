"""The pages the team wrote in the manner of forum, Q&A and comment software (in-sample, some
imitating bench software; tests/fixtures/records/written/, scored by
benchmarks/written_records.py) stay right: every record found, its author and time right, and
nothing taken for records beyond the truth on the article pages. Each page goes through
`extract_page`, as `topiccrawler extract` reads a page. A page the extractor does not read yet
has its `gap` in the manifest, with why (strict: the test says when it starts to pass)."""

from __future__ import annotations

import tomllib

import pytest

from tests.conftest import ROOT
from topiccrawler.extract.page import extract_page

WRITTEN = ROOT / "tests" / "fixtures" / "records" / "written"
with open(WRITTEN / "manifest.toml", "rb") as manifest:
    PAGES = tomllib.load(manifest)["page"]


def found_for(truth: dict, found: list, used: set) -> int | None:
    """The first record found, not yet paired, whose text holds the start of the truth's."""
    start = " ".join(truth["text"].split())[:12]
    texts = [" ".join((getattr(r, "text", None) or getattr(r, "title", "")).split()) for r in found]
    return next((i for i, t in enumerate(texts) if start in t and i not in used), None)


@pytest.mark.parametrize(
    "page",
    [
        pytest.param(
            page,
            id=page["name"],
            marks=[pytest.mark.xfail(strict=True, reason=page["gap"])] if "gap" in page else [],
        )
        for page in PAGES
    ],
)
def test_every_written_page_gives_its_records_with_authors_and_times(page):
    html = (WRITTEN / page["file"]).read_text(encoding="utf-8")
    records = extract_page(html, url=page["url"]).records
    found = [*records.posts, *records.comments, *records.threads]
    used: set[int] = set()
    for truth in page["records"]:
        match = found_for(truth, found, used)
        assert match is not None, truth["text"][:40]
        used.add(match)
        assert found[match].author == truth["author"], truth["text"][:40]
        if "time" in truth:
            shown = found[match].time or ""
            assert shown and (truth["time"] in shown or shown in truth["time"]), truth
    if not page["records"]:  # an article page: no records at all
        assert found == [], [r.__dict__ for r in found]


def test_the_manifest_names_each_page_once_with_its_kind_and_provenance():
    assert len({p["file"] for p in PAGES}) == len(PAGES)
    assert all(p["kind"] in ("forum", "qa", "comments", "article") for p in PAGES)
    assert all(p["provenance"].endswith("in-sample") for p in PAGES)
    assert all((WRITTEN / p["file"]).is_file() for p in PAGES)
