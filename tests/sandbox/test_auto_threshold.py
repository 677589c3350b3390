"""End to end: a topic without η on the sandbox web. η is estimated from the crawl's own scores,
the page classifier joins the verdict, provisional verdicts are settled in the database at the
end, and `topiccrawler rejudge` / `-a refetch=yes` change verdicts after the crawl."""

from __future__ import annotations

import os
import subprocess

import pytest
from sqlalchemy import select

from tests.conftest import ROOT
from tests.sandbox.test_crawl import run_crawl
from topiccrawler.cli import main
from topiccrawler.sandbox.demo import crawl_command, sandbox_crawl_settings, sandbox_login_env
from topiccrawler.sandbox.server import SandboxServer
from topiccrawler.sandbox.truth import score_crawl
from topiccrawler.sandbox.web import build_web
from topiccrawler.storage.models import CrawlRun, Page, TopicTerm
from topiccrawler.storage.verdicts import REFETCH, marked_for_refetch


@pytest.fixture(scope="module")
def crawl(tmp_path_factory):
    with SandboxServer(build_web(1, "small"), slow_seconds=4) as server:
        directory = tmp_path_factory.mktemp("sandbox-auto")
        crawl = run_crawl(server, directory, RELEVANCE_THRESHOLD="auto", LOG_LEVEL="INFO")
        crawl.directory = directory
        yield crawl


def test_eta_sets_itself_and_keeps_the_topic(crawl):
    with crawl.session() as session:
        score = score_crawl(session, crawl.server.web, "tax")
        run = session.scalars(select(CrawlRun)).one()
        pages = session.scalars(select(Page)).all()
    state = run.stats["topiccrawler/relevance/threshold"]
    assert state["mode"] == "auto" and state["stable"] and state["classifier_fits"] > 0
    eta = state["threshold"]
    assert 0.01 < eta < 0.2  # between the sandbox's off-topic finance pages and its tax pages
    assert score.kept_relevant >= 0.95 * score.kept  # precision (measured 0.97)
    assert score.kept_relevant >= 0.9 * score.relevant_fetched  # recall (measured 0.96-0.98)
    # Every verdict is final, stored with the η it was made with; dropped pages lost their text.
    assert all(p.relevance_detail["verdict"] == "final" for p in pages if p.is_relevant is not None)
    assert all(p.body is None for p in pages if p.is_relevant is False)
    assert f"η {eta:.4f} (auto)" in crawl.log  # the end-of-crawl summary says it
    assert "provisional verdicts made final" in crawl.log


def test_the_summary_counts_the_settled_verdicts(crawl):
    with crawl.session() as session:
        kept = session.scalar(select(CrawlRun.stats).where(CrawlRun.id == 1))[
            "topiccrawler/summary"
        ]["pages_kept"]
        stored_kept = len(session.scalars(select(Page).where(Page.is_relevant.is_(True))).all())
    assert kept == stored_kept


def test_the_classifier_proposes_words_for_the_library(crawl):
    with crawl.session() as session:
        proposed = session.scalars(
            select(TopicTerm).where(TopicTerm.provenance == "classifier")
        ).all()
    assert proposed and all(t.status == "candidate" and t.score > 0 for t in proposed)
    words = {t.term for t in proposed}
    assert words & {"纳税", "税收", "税款", "纳税人", "申报", "税率", "发票"}, words


def test_rejudge_then_refetch_gives_pages_their_text_back(crawl, capsys):
    url = crawl.url
    # A fixed η far below every score: every page dropped without text becomes relevant.
    assert main(["-s", f"DATABASE_URL={url}", "rejudge", "tax", "--threshold", "0.0001"]) == 0
    out = capsys.readouterr().out
    assert "verdicts changed" in out and "refetch=yes" in out
    with crawl.session() as session:
        marked = marked_for_refetch(session, "tax")
    assert marked
    # The next crawl fetches them again first (politely, through the downloader), text and all.
    seeds = crawl.directory / "seeds.toml"
    settings = {
        **sandbox_crawl_settings(crawl.server),
        "DATABASE_URL": url,
        "DOWNLOAD_DELAY": 0,
        "RELEVANCE_THRESHOLD": "0.0001",
        "CRAWL_MAX_PAGES": len(marked) + 40,
    }
    command = crawl_command(seeds, settings) + ["-a", "refetch=yes"]
    result = subprocess.run(
        command, cwd=ROOT, capture_output=True, text=True, timeout=300,
        env={**os.environ, **sandbox_login_env()},
    )  # fmt: skip
    assert result.returncode == 0, result.stderr[-3000:]
    assert f"Fetching again {len(marked)} pages" in result.stderr
    with crawl.session() as session:
        again = {
            p.url: p
            for p in session.scalars(select(Page).where(Page.url.in_([u for u, _ in marked])))
        }
    refetched = [p for p in again.values() if p.body]
    assert len(refetched) >= 0.9 * len(marked)
    assert not any((p.relevance_detail or {}).get(REFETCH) for p in refetched)
