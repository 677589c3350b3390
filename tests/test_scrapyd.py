"""The project is a standard Scrapy project that Scrapyd runs: a test starts Scrapyd on
loopback, deploys the project with scrapyd-client (`scrapyd-deploy`, the egg built from this
checkout), schedules a sandbox crawl through Scrapyd's HTTP API and finds the pages in the
database. Topic files are found at a configured path ($TOPICCRAWLER_TOPICS_DIR)."""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import time
import urllib.parse
import urllib.request
from pathlib import Path

from sqlalchemy import create_engine, func, select
from sqlalchemy.orm import Session

from tests.conftest import ROOT
from topiccrawler.sandbox.demo import sandbox_crawl_settings, sandbox_seed_file
from topiccrawler.sandbox.server import SandboxServer
from topiccrawler.sandbox.web import build_web
from topiccrawler.storage.models import CrawlRun, Page

BIN = Path(sys.executable).parent


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def api(port: int, path: str, data: list[tuple[str, str]] | None = None) -> dict:
    body = urllib.parse.urlencode(data).encode() if data is not None else None
    with urllib.request.urlopen(f"http://127.0.0.1:{port}/{path}", body, timeout=10) as answer:
        return json.load(answer)


def test_scrapyd_runs_a_deployed_sandbox_crawl(tmp_path):
    port = free_port()
    (tmp_path / "scrapyd.conf").write_text(
        f"[scrapyd]\nbind_address = 127.0.0.1\nhttp_port = {port}\neggs_dir = eggs\n"
        "logs_dir = logs\nitems_dir =\ndbs_dir = dbs\nmax_proc = 1\npoll_interval = 0.5\n"
    )
    home = tmp_path / "home"
    home.mkdir()
    (home / ".scrapy.cfg").write_text(
        f"[deploy:sandbox]\nurl = http://127.0.0.1:{port}/\nproject = topiccrawler\n"
    )
    env = {**os.environ, "HOME": str(home), "TOPICCRAWLER_TOPICS_DIR": str(ROOT)}
    scrapyd = subprocess.Popen(
        [str(BIN / "scrapyd")], cwd=tmp_path, env=env,
        stdout=subprocess.DEVNULL, stderr=open(tmp_path / "scrapyd.err", "w"),
    )  # fmt: skip
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                assert api(port, "daemonstatus.json")["status"] == "ok"
                break
            except OSError:
                assert time.monotonic() < deadline, (tmp_path / "scrapyd.err").read_text()[-2000:]
                time.sleep(0.3)
        deployed = subprocess.run(
            [str(BIN / "scrapyd-deploy"), "sandbox", "-p", "topiccrawler", "-v", "1"],
            cwd=ROOT, env=env, capture_output=True, text=True, timeout=180,
        )  # fmt: skip
        assert deployed.returncode == 0, deployed.stderr[-2000:]
        assert '"status": "ok"' in deployed.stdout + deployed.stderr
        assert api(port, "listspiders.json?project=topiccrawler")["spiders"] == ["topic"]

        database = f"sqlite:///{tmp_path / 'crawl.db'}"
        with SandboxServer(build_web(1, "small"), slow_seconds=4) as server:
            seeds = tmp_path / "seeds.toml"
            seeds.write_text(sandbox_seed_file(server), encoding="utf-8")
            settings = {**sandbox_crawl_settings(server), "DATABASE_URL": database,
                        "DOWNLOAD_DELAY": 0, "AUTOTHROTTLE_ENABLED": False, "RETRY_TIMES": 0}  # fmt: skip
            form = [("project", "topiccrawler"), ("spider", "topic"), ("topic", "tax"),
                    ("seeds", str(seeds))]  # fmt: skip
            form += [
                ("setting", f"{k}={','.join(v) if isinstance(v, list) else v}")
                for k, v in settings.items()
            ]
            job = api(port, "schedule.json", form)["jobid"]
            deadline = time.monotonic() + 240
            while not any(j["id"] == job for j in api(port, "listjobs.json")["finished"]):
                assert time.monotonic() < deadline, "the crawl did not finish under Scrapyd"
                time.sleep(1)
        log = next((tmp_path / "logs").rglob(f"{job}.log")).read_text(encoding="utf-8")
        assert "Spider closed (finished)" in log, log[-3000:]
        engine = create_engine(database)
        with Session(engine) as session:
            pages = session.scalar(select(func.count()).select_from(Page))
            runs = session.scalars(select(CrawlRun)).all()
        engine.dispose()
        assert pages > 150
        assert len(runs) == 1 and runs[0].stats["topiccrawler/outcome"] == "ok"
    finally:
        scrapyd.terminate()
        scrapyd.wait(timeout=30)
