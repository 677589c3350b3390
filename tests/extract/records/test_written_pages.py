"""The pages the team wrote in the manner of software outside the records bench
(benchmarks/written/, scored by benchmarks/written_records.py) stay right: every record found,
its author and time right, and nothing taken for records beyond the truth on the article pages."""

from __future__ import annotations

import sys

import pytest

from tests.conftest import ROOT

sys.path.insert(0, str(ROOT / "benchmarks"))

import written_records  # noqa: E402


@pytest.mark.parametrize(
    "batch, name, page, url, truth", written_records.cases(), ids=lambda v: v if isinstance(v, str) and len(v) < 30 else None
)
def test_every_written_page_gives_its_records_with_authors_and_times(batch, name, page, url, truth):
    result = written_records.score(page, url, truth)
    assert result["found"] == result["records"], name
    assert result["authors"] == result["records"], name
    assert result["right_times"] == result["times"], name
    if not truth:  # an article page: no records at all
        assert result["other"] == 0, [r.__dict__ for r in result["found_records"]]
