"""`topiccrawler demo` as a new user runs it: from a folder outside the checkout, with no
network but the sandbox's (a socket guard refuses anything else and logs every attempt), again
with --keep (the same pages are recognised: the sandbox's port is stable), and into the
PostgreSQL database that TOPICCRAWLER_DATABASE_URL names."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest
from sqlalchemy import create_engine, func, select
from sqlalchemy.orm import Session

from tests.conftest import ROOT
from tests.servers import closed_port
from topiccrawler.storage.models import Page

GUARDED_MAIN = (
    "import sys; sys.path.insert(0, {tests!r}); import socket_guard; "
    "socket_guard.install({log!r}); from topiccrawler.cli import main; sys.exit(main(sys.argv[1:]))"
)


def user_env(**extra: str) -> dict[str, str]:
    """The environment of a user who configured nothing of ours."""
    env = {
        k: v
        for k, v in os.environ.items()
        if not k.startswith("TOPICCRAWLER_") and k != "SCRAPY_SETTINGS_MODULE"
    }
    return {**env, "PYTHONUNBUFFERED": "1", **extra}


def demo(folder, *args: str, env: dict[str, str], guard_log=None) -> tuple[int, str]:
    code = (
        GUARDED_MAIN.format(tests=str(ROOT / "tests"), log=str(guard_log))
        if guard_log
        else ("import sys; from topiccrawler.cli import main; sys.exit(main(sys.argv[1:]))")
    )
    result = subprocess.run(
        [sys.executable, "-c", code, "demo", *args],
        cwd=folder, env=env, text=True, capture_output=True, timeout=300,
    )  # fmt: skip
    return result.returncode, result.stdout + result.stderr


def figure(output: str, label: str) -> tuple[int, int]:
    match = re.search(rf"{label}\s+(\d+)/(\d+)", output)
    assert match, f"no '{label}' line in:\n{output}"
    return int(match.group(1)), int(match.group(2))


@dataclass
class FirstRun:
    folder: Path
    port: int
    guard_log: Path
    code: int
    output: str


@pytest.fixture(scope="module")
def first_run(tmp_path_factory) -> FirstRun:
    """The demo as a new user first runs it: from a folder outside the checkout."""
    tmp_path = tmp_path_factory.mktemp("demo")
    folder = tmp_path / "elsewhere"
    folder.mkdir()
    port = closed_port()
    guard_log = tmp_path / "sockets.log"
    code, output = demo(folder, "--port", str(port), env=user_env(), guard_log=guard_log)
    return FirstRun(folder, port, guard_log, code, output)


def test_demo_outside_the_checkout_touches_only_the_sandbox(first_run):
    folder, port, guard_log = first_run.folder, first_run.port, first_run.guard_log
    code, output = first_run.code, first_run.output

    assert code == 0, output
    assert "Traceback" not in output and "unknown topic" not in output
    assert f"{folder / 'data' / 'demo.db'}" in output  # says where it stored
    attempts = guard_log.read_text(encoding="utf-8").splitlines()
    connects = {line for line in attempts if line.startswith("connect")}
    lookups = {line for line in attempts if line.startswith("resolve")}
    assert connects == {f"connect 127.0.0.1 {port}"}  # the sandbox, and nothing else
    assert lookups <= {"resolve 127.0.0.1 ", "resolve localhost "}
    relevant, in_web = figure(output, "recall of relevant")
    assert 0 < relevant <= in_web

    # Again, keeping the database: the same URLs, so the same pages, not twice as many.
    code, again = demo(folder, "--port", str(port), "--keep", env=user_env())
    assert code == 0, again
    assert figure(again, "recall of relevant") == (relevant, in_web)
    stored = re.search(r"pages stored\s+(\d+)", output).group(1)
    assert re.search(r"pages stored\s+(\d+)", again).group(1) == stored


def test_demo_writes_its_report_beside_its_database(first_run):
    """The summary names the report it wrote next to data/demo.db; Chromium shows it: not
    blank, every plot drawn, its script allowed by its Content-Security-Policy."""
    from PIL import Image, ImageStat

    from tests.report.chromium import rendered_dom, screenshot

    assert first_run.code == 0, first_run.output
    report = first_run.folder / "data" / "demo-report.html"
    assert re.search(rf"report\s+{re.escape(str(report))} ", first_run.output), first_run.output
    assert report.stat().st_size > 10_000
    image = Image.open(screenshot(report, report.with_suffix(".png"))).convert("L")
    assert ImageStat.Stat(image).stddev[0] > 20 and image.getextrema()[0] < 60  # text drawn
    dom, console = rendered_dom(report)
    assert len(re.findall(r'<img class="plot" src="data:image/svg\+xml;base64,', dom)) == 6
    assert "Content Security Policy" not in console


def report_picture_script():
    """scripts/report_picture.py as a module (it draws docs/report.png and reads a report's
    structure)."""
    import importlib.util

    spec = importlib.util.spec_from_file_location(
        "report_picture", ROOT / "scripts" / "report_picture.py"
    )
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_docs_picture_shows_the_report_as_it_is(first_run):
    """docs/report.png (README, docs home, Briefing and report) was drawn from a report with the
    sections, figures and summary cards of the one this demo wrote; the counts may differ from
    crawl to crawl, the structure may not."""
    from PIL import Image

    script = report_picture_script()
    assert first_run.code == 0, first_run.output
    report = (first_run.folder / "data" / "demo-report.html").read_text(encoding="utf-8")
    shown = json.loads(script.sidecar(script.PICTURE).read_text(encoding="utf-8"))
    rerun = "docs/report.png no longer shows the report as it is: run scripts/report_picture.py"
    recorded = {key: shown[key] for key in ("headings", "figures", "cards")}
    assert shown["digest"] == script.digest(recorded), f"the sidecar was edited by hand; {rerun}"
    now = script.structure(report)
    for key in ("headings", "figures", "cards"):
        assert now[key] == shown[key], f"{key} differ; {rerun}"
    assert now["digest"] == shown["digest"], rerun
    assert len(now["figures"]) == 6 and len(now["headings"]) >= 8  # a whole report, not a stub
    assert shown["stored"] >= shown["kept"] > 0
    with Image.open(script.PICTURE) as picture:
        assert picture.size == script.SIZE


@pytest.mark.postgres
def test_demo_stores_into_the_configured_postgresql(tmp_path, postgres_url):
    code, output = demo(
        tmp_path, "--port", str(closed_port()), env=user_env(TOPICCRAWLER_DATABASE_URL=postgres_url)
    )
    assert code == 0, output
    assert "the configured database postgresql" in output and "Traceback" not in output
    engine = create_engine(postgres_url)
    with Session(engine) as session:
        pages = session.scalar(
            select(func.count()).select_from(Page).where(Page.url.like("http://%.test:%"))
        )
    engine.dispose()
    assert pages == int(re.search(r"pages stored\s+(\d+)", output).group(1)) > 100
    assert_search_agrees_with_a_scan(postgres_url)


def sampled_queries(connection, seed: int = 7) -> tuple[list[str], list[str]]:
    """One-word and two-word queries: Chinese words the kept pages use (the segmenter's, two
    characters or more, on two pages or more), drawn at random."""
    import random
    from collections import Counter

    from topiccrawler.relevance.tokenizer import Tokenizer

    tokenizer = Tokenizer()
    counts: Counter[str] = Counter()
    for title, body in connection.execute(
        select(Page.title, Page.body).where(Page.is_relevant.is_(True))
    ):
        counts.update({w for w in tokenizer.tokens(f"{title} {body}") if len(w) >= 2 and
                       "\u4e00" <= w[0] <= "\u9fff"})  # fmt: skip
    words = sorted(word for word, n in counts.items() if n >= 2)
    rng = random.Random(seed)
    return rng.sample(words, 60), [" ".join(rng.sample(words, 2)) for _ in range(60)]


def assert_search_agrees_with_a_scan(url: str) -> None:
    """`topiccrawler search` finds at least 95 % of the kept pages whose title or body holds
    the query's words, and at least 95 % of what it finds holds them."""
    from topiccrawler.storage.search import SearchFilters, agreement

    engine = create_engine(url)
    with engine.connect() as connection:
        for queries in sampled_queries(connection):
            found = agreement(connection, queries, SearchFilters(kinds=("page",)))
            assert found.exact > 200, "too few pages hold the sampled words to measure"
            assert found.recall >= 0.95 and found.precision >= 0.95, (
                found.recall, found.precision, found.missed,
            )  # fmt: skip
    engine.dispose()


def test_search_after_the_demo_finds_the_kept_pages_with_the_words(first_run):
    assert first_run.code == 0, first_run.output
    url = f"sqlite:///{first_run.folder / 'data' / 'demo.db'}"
    assert_search_agrees_with_a_scan(url)
    code = subprocess.run(
        [sys.executable, "-c", "import sys; from topiccrawler.cli import main; "
         "sys.exit(main(sys.argv[1:]))", "-s", f"DATABASE_URL={url}", "search", "增值税",
         "--json", "--limit", "3"],
        cwd=first_run.folder, env=user_env(), capture_output=True, text=True, timeout=60,
    )  # fmt: skip
    hits = [json.loads(line) for line in code.stdout.splitlines()]
    assert code.returncode == 0 and len(hits) == 3, code.stderr
    assert all("增值税" in hit["snippet"] and hit["kind"] in ("page", "comment", "post")
               for hit in hits)  # fmt: skip
