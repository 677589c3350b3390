"""Extraction in worker processes: the same fields as in the crawl's process, a bounded number
of pages handed out, workers that end with the pool."""

from __future__ import annotations

import multiprocessing
import pickle
from datetime import UTC, datetime
from pathlib import Path

import pytest

from topiccrawler.briefing import BriefingOptions
from topiccrawler.extract.links import page_links, rebuilt_response
from topiccrawler.extract.records.comments import RecordOptions
from topiccrawler.extraction_workers import ExtractionPool, LaterStages, read_page
from topiccrawler.guard.text import drop_html_controls
from topiccrawler.read_ahead import BRIEFING, LINKS, SCORE, SCRIPT_NEED, take
from topiccrawler.relevance.judge import blocks_texts, judged_blocks
from topiccrawler.relevance.library import ConceptLibrary
from topiccrawler.relevance.scorer import BLOCK_IMPACT

FIXTURES = Path(__file__).resolve().parent / "fixtures"
NOW = datetime(2026, 3, 10, 12, tzinfo=UTC)


def saved_pages() -> list[tuple[str, str]]:
    """(URL, source) of every page we wrote under tests/fixtures."""
    return [
        (f"http://fixture.example/{path.relative_to(FIXTURES)}",
         drop_html_controls(path.read_text(encoding="utf-8", errors="replace")))
        for path in sorted(FIXTURES.rglob("*.html"))
    ]  # fmt: skip


def test_a_worker_reads_saved_pages_as_the_crawl_process_does():
    pages = saved_pages()
    assert len(pages) >= 10
    pool = ExtractionPool(1, RecordOptions(), in_flight=len(pages))
    try:
        futures = [pool.submit(html, url, NOW) for url, html in pages]
        assert all(future is not None for future in futures)
        in_worker = [future.result(timeout=60) for future in futures]
    finally:
        pool.close()
    here = [read_page(html, url, NOW, RecordOptions()) for url, html in pages]
    assert in_worker == here
    assert any(fields.comments or fields.posts or fields.threads for fields in here)


def test_what_a_worker_sends_back_is_small():
    """The answer holds text and records, not trees: a fraction of the page's source."""
    for url, html in saved_pages():
        answer = pickle.dumps(read_page(html, url, NOW, RecordOptions()))
        assert len(answer) < len(html.encode("utf-8")) + 1000


def test_pages_past_the_bound_are_left_to_the_caller():
    url, html = saved_pages()[0]
    pool = ExtractionPool(1, None, in_flight=1)
    try:
        first = pool.submit(html, url, NOW)  # the worker is still starting: not back yet
        assert pool.submit(html, url, NOW) is None
        first.result(timeout=60)
        assert pool.pending == 0
        assert pool.submit(html, url, NOW).result(timeout=60) == read_page(html, url, NOW, None)
    finally:
        pool.close()


def test_closing_ends_the_workers_and_refuses_pages():
    before = set(multiprocessing.active_children())
    pool = ExtractionPool(1, None, in_flight=2)
    url, html = saved_pages()[0]
    pool.submit(html, url, NOW).result(timeout=60)
    workers = set(multiprocessing.active_children()) - before
    assert workers
    pool.close()
    assert not any(worker.is_alive() for worker in workers)
    assert pool.submit(html, url, NOW) is None
    pool.close()  # again: nothing happens


def test_a_pool_needs_a_process_and_room():
    with pytest.raises(ValueError):
        ExtractionPool(0, None, in_flight=1)


def test_workers_are_forked_only_from_a_process_without_other_threads():
    import threading

    from topiccrawler.extraction_workers import start_method

    started = threading.Event()
    stop = threading.Event()
    thread = threading.Thread(target=lambda: (started.set(), stop.wait(30)))
    thread.start()
    started.wait(10)
    try:
        assert start_method() == "spawn"
    finally:
        stop.set()
        thread.join()
    if threading.active_count() == 1:  # (pytest's own threads, if any, keep it at spawn)
        assert start_method() == "fork"


def test_a_forked_worker_reads_pages_as_a_spawned_one(monkeypatch):
    from topiccrawler import extraction_workers as pool_module

    url, html = saved_pages()[-1]
    answers = []
    for method in ("fork", "spawn"):
        monkeypatch.setattr(pool_module, "start_method", lambda m=method: m)
        pool = ExtractionPool(1, RecordOptions(), in_flight=1)
        try:
            assert pool.start_method == method
            answers.append(pool.submit(html, url, NOW).result(timeout=60))
        finally:
            pool.close()
    assert answers[0] == answers[1] == read_page(html, url, NOW, RecordOptions())


WORKER_OF_A_KILLED_CRAWL = """
import multiprocessing, os, signal, sys
from topiccrawler import extraction_workers
if __name__ == "__main__":
    started = sys.argv[1] == "started"
    if not started:  # a spawned worker, still importing when the crawl is killed
        extraction_workers.start_method = lambda: "spawn"
    before = set(multiprocessing.active_children())
    pool = extraction_workers.ExtractionPool(1, None, in_flight=1)
    if started:
        pool.submit("<p>x</p>", "http://x.example/", None).result(timeout=60)
    print(*(p.pid for p in set(multiprocessing.active_children()) - before), flush=True)
    os.kill(os.getpid(), signal.SIGKILL)  # a crawl killed: nothing closes the pool
"""


@pytest.mark.parametrize("worker", ["started", "starting"])
def test_a_worker_ends_when_the_crawls_process_is_killed(tmp_path, worker):
    """Also a worker still starting when the crawl is killed: it had another parent by the
    time it could look for its own, and lived on, a spawned crawl's imports in memory."""
    import subprocess
    import sys
    import time

    script = tmp_path / "killed_crawl.py"
    script.write_text(WORKER_OF_A_KILLED_CRAWL)
    done = subprocess.run(
        [sys.executable, str(script), worker], capture_output=True, text=True, timeout=120
    )
    workers = [int(pid) for pid in done.stdout.split()]
    assert workers, done.stderr[-2000:]

    def running(pid: int) -> bool:
        try:
            state = Path(f"/proc/{pid}/stat").read_text().split(")")[-1].split()[0]
        except FileNotFoundError:
            return False
        return state != "Z"  # (a zombie has ended; its new parent reaps it)

    deadline = time.monotonic() + 30
    while any(running(pid) for pid in workers) and time.monotonic() < deadline:
        time.sleep(0.2)
    assert not any(running(pid) for pid in workers)


def later_stages() -> LaterStages:
    from tests.relevance.test_scorer import KEYWORDS

    return LaterStages(
        library=ConceptLibrary.extended(KEYWORDS, []),
        impact=dict(BLOCK_IMPACT),
        features=True,
        script_check=True,
        briefing=BriefingOptions(topic_words=tuple(KEYWORDS.all_words)),
        links=True,
    )


def comparable(fields):
    """The fields with the page classifier's feature indices (a numpy array) as a list."""
    score = fields.ahead.get(SCORE)
    if score is not None:
        score.value.indices = score.value.indices.tolist()
    return fields


def test_a_worker_does_the_later_stages_work_as_they_would_do_it():
    """What a worker sends back for the relevance judge, the scripted-page check, the briefing
    and the spider's links (read_ahead.py) is what they compute themselves, keyed by the same
    text."""
    pages = saved_pages()
    stages = later_stages()
    pool = ExtractionPool(1, RecordOptions(), in_flight=len(pages), stages=stages)
    try:
        futures = [pool.submit(html, url, NOW) for url, html in pages]
        in_worker = [comparable(future.result(timeout=60)) for future in futures]
    finally:
        pool.close()
    work = stages.work()
    here = [comparable(read_page(html, url, NOW, RecordOptions(), work)) for url, html in pages]
    assert in_worker == here
    for (url, html), fields in zip(pages, here, strict=True):
        # (the briefing only for pages with a word of the library: the others are seldom kept)
        briefed = fields.body.strip() and fields.ahead[SCORE].value.relevance.score > 0
        assert set(fields.ahead) == ({SCORE, SCRIPT_NEED, BRIEFING, LINKS} if briefed
                                     else {SCORE, SCRIPT_NEED, LINKS})  # fmt: skip
        links = take(dict(fields.ahead), LINKS, html, url, None)
        assert links.value == page_links(rebuilt_response(html, url, None))
        blocks = judged_blocks(fields.title, fields.body, fields.blocks,
                               (t.title for t in fields.threads))  # fmt: skip
        assert take(dict(fields.ahead), SCORE, *blocks_texts(blocks)) is not None
        assert fields.ahead[SCORE].value.relevance == work.scorer.score(blocks)
    assert any(f.ahead[SCORE].value.relevance.score > 0 for f in here)
    assert any(f.ahead[LINKS].value for f in here)
    assert any(BRIEFING in f.ahead for f in here) and any(
        f.body.strip() and BRIEFING not in f.ahead for f in here
    )


def test_with_a_fixed_threshold_a_worker_briefs_only_pages_whose_text_is_stored():
    """With η a number, a page scored under it is stored without its text, so it is not briefed
    (briefing it was a sixth of a worker's CPU on the testbed, for pages never stored with it);
    one at η or over it is, as without a bound."""
    pages = saved_pages()
    unbound = later_stages().work()
    fields = [read_page(html, url, NOW, RecordOptions(), unbound) for url, html in pages]
    scores = sorted(f.ahead[SCORE].value.relevance.score for f in fields if BRIEFING in f.ahead)
    assert len(scores) >= 2
    eta = scores[len(scores) // 2]  # half the briefed pages under it
    stages = later_stages()
    stages.stored_from = eta
    bound = stages.work()
    for (url, html), before in zip(pages, fields, strict=True):
        after = read_page(html, url, NOW, RecordOptions(), bound)
        stored = BRIEFING in before.ahead and before.ahead[SCORE].value.relevance.score >= eta
        assert (BRIEFING in after.ahead) == stored
        if stored:
            assert after.ahead[BRIEFING] == before.ahead[BRIEFING]
    assert any(BRIEFING in f.ahead and f.ahead[SCORE].value.relevance.score < eta for f in fields)
