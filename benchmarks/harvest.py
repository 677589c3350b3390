"""Harvest-rate benchmarks of the topic spider, in two modes.

    .venv/bin/python benchmarks/harvest.py [sandbox] [--size large] [--pages 2000]
    .venv/bin/python benchmarks/harvest.py testbed [--seeds 2 3 4] [--homophily 0.5 0.8]
                                                   [--thresholds 0.04 none] [--runs 3]
                                                   [--ablation] [--jobs 1] [--json OUT]
                                                   [--workdir DIR]

`sandbox` (the default, also without a mode): the topic spider on the project's own sandbox web,
four ways, side by side:

- breadth-first: a plain crawler: first in, first out, every link followed (no relevance
  gating, no priorities);
- best-first: links ordered by parent relevance, anchor text, URL words and link block, links of
  irrelevant pages followed only through RELEVANCE_TUNNEL_DEPTH irrelevant pages;
- best-first + learning: and each site's and section's yield of relevant pages, learnt while
  crawling, with an exploration bonus;
- defaults: and the online link classifier (frontier/classifier.py), learnt from the pages
  judged so far.

Entrances (--entrances): `sites` (the default) starts from the home page of every content site of
the sandbox, with no search engines, so what is measured is the order links are followed in;
`seeds` uses the demo's seed file (three authority sites and both search engines), where search
hits, fetched first in every mode, dominate the first thousands of pages.

Each crawl stops after --pages judged pages (CRAWL_MAX_PAGES). The harvest rate at N is the
share of pages the sandbox's ground truth calls relevant among the first N pages fetched (in
fetch order); recall is relevant pages fetched over those the web holds. Pages/s is judged pages
over the crawl's wall time. Everything runs on loopback; nothing touches the real web.

`testbed`: the crawler on the independent crawl testbed in ../shared/bench/crawl (a 12-site
Chinese news web built from real articles; topic 财经; see its README section "crawl/"), against
its two reference crawlers. For every --seeds S and --homophily H it generates a web with

    make_web.py --seed S --homophily H --out TMP/web-S-H

and runs each crawler through `run_crawl.py --web TMP/web-S-H --log LOG --timeout 900 -- CMD`,
which serves the web on a free port and scores the crawl from the server's access log alone:

- breadth-first:     baseline_bfs.py --topic {topic} --strategy bfs --queries subjects
- naive best-first:  baseline_bfs.py --topic {topic} --strategy best --queries subjects
- topiccrawler:      sh -c 'to_topiccrawler.py {topic} OUT && cd PROJECT && .venv/bin/scrapy crawl
                     topic -a keywords=OUT/keywords.toml -a seeds=OUT/seeds.toml
                     -s DATABASE_URL=sqlite:///OUT/crawl.db -s DOWNLOAD_DELAY=0
                     -s AUTOTHROTTLE_ENABLED=False -s CONCURRENT_REQUESTS_PER_DOMAIN=8
                     -s LOG_FILE=OUT/scrapy.log -s LOG_LEVEL=INFO'

that is the project's defaults, the topic's full query set, a fresh database per run, and the
politeness overrides the testbed requires: one host (127.0.0.1) serves all twelve sites, so the
default per-host delay and concurrency would measure the wait, not the order. With --ablation the
topiccrawler crawl also runs once per entry of ABLATIONS, with that entry's settings added (lists
and dicts as JSON; a setting the crawler does not know is ignored by Scrapy).

Figures, per web and crawler, from run_crawl.py's LOG.harvest.json: h@N, the first fetches of
target articles among the first N article fetches, over N (a repeated fetch costs one and earns
nothing); recall@100, distinct target articles found in the first 100 article fetches over all;
far_recall@100, the same for target articles with no page on the authority sites; recall, target
articles found by the end; duplicate fetches, article fetches, search queries, and seconds from
the first to the last request in the server log. Then the means over all webs, topiccrawler's mean
differences from the naive best-first, and its targets: h@50 and h@100 at least 0.05 above the
naive best-first, far_recall@100 no lower, no duplicate fetch on any web, mean recall >= 0.95.
--thresholds writes each η into the topic file in turn (`none`: no η line, so η sets itself as
for a user who leaves it out) and runs one topiccrawler crawl each, side by side; --runs repeats
every crawl on every web (a crawl's order varies with timing: the means are over webs and runs).
--templates and other --seeds generate webs the defaults were not tuned on: page templates
beside the generator's own (benchmarks/testbed_templates.json: two written here), other site
plans and link graphs (the articles are the same: the testbed holds only its dev half).
--workdir keeps the webs, logs and databases (by default a temporary folder, removed).
--jobs N runs up to N crawls at once (each with its own server and port, so they don't collide),
which makes the seconds noisier: on a two-core machine crawls compete for the CPU.
"""

from __future__ import annotations

import argparse
import json
import os
import shlex
import shutil
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

from sqlalchemy import create_engine, select
from sqlalchemy.orm import Session

from topiccrawler.sandbox.demo import (
    crawl_command,
    sandbox_crawl_settings,
    sandbox_login_env,
    sandbox_seed_file,
)
from topiccrawler.sandbox.server import SandboxServer
from topiccrawler.sandbox.truth import truth_for
from topiccrawler.sandbox.web import build_web
from topiccrawler.storage.models import Page

ROOT = Path(__file__).resolve().parents[1]
CHECKPOINTS = (100, 500, 1000, 2000)
MODES = {
    "breadth-first": {
        "FRONTIER_ENABLED": False,
        "RELEVANCE_TUNNEL_DEPTH": 1_000_000,
        "DEPTH_PRIORITY": 1,
        "SCHEDULER_PRIORITY_QUEUE": "scrapy.pqueues.DownloaderAwarePriorityQueue",
        "SCHEDULER_DISK_QUEUE": "scrapy.squeues.PickleFifoDiskQueue",
        "SCHEDULER_MEMORY_QUEUE": "scrapy.squeues.FifoMemoryQueue",
    },
    "best-first": {"FRONTIER_LEARNING": False, "FRONTIER_CLASSIFIER": False},
    "best-first + learning": {"FRONTIER_LEARNING": True, "FRONTIER_CLASSIFIER": False},
    "defaults (+ link classifier)": {},
}

TESTBED = ROOT.parent / "shared" / "bench" / "crawl"
TIMEOUT = 900  # seconds run_crawl.py gives one crawl before stopping it
REFERENCES = {"breadth-first": "bfs", "naive best-first": "best"}  # baseline_bfs.py --strategy
TOPICCRAWLER = "topiccrawler"
TESTBED_SETTINGS = {
    "DOWNLOAD_DELAY": 0,
    "AUTOTHROTTLE_ENABLED": False,
    "CONCURRENT_REQUESTS_PER_DOMAIN": 8,
    "LOG_LEVEL": "INFO",
}
ABLATIONS = {
    "hits not scored": {"FRONTIER_SCORE_HITS": False},
    "no canonical URLs": {"URL_TRACKING_PARAMETERS": [], "URL_CANONICAL_LINKS": False},
    "no learning": {"FRONTIER_LEARNING": False},
    "no link classifier": {"FRONTIER_CLASSIFIER": False},
    "hubs learnt as worth fetching": {"FRONTIER_HUB_LINKS": 5},
    "no rediscovery": {"FRONTIER_REDISCOVERY_GAIN": 0},
}
# (figure, column header, is a rate); rates print with three decimals, counts without
COLUMNS = (
    ("h@50", "h@50", True),
    ("h@100", "h@100", True),
    ("h@200", "h@200", True),
    ("recall@100", "rec@100", True),
    ("far_recall@100", "far@100", True),
    ("recall", "recall", True),
    ("duplicate_fetches", "dup", False),
    ("article_fetches", "articles", False),
    ("search_queries", "queries", False),
    ("seconds", "s", False),
)
COMPARED = ("h@50", "h@100", "far_recall@100")  # topiccrawler minus naive best-first


def every_site_seed_file(server: SandboxServer) -> str:
    """Every content site of the sandbox as an authority site, from its home page."""
    hosts = sorted({host for host, _, _ in server.web.pages_with_truth()})
    return "".join(
        f'[[authority]]\nname = "{host}"\nstart_urls = ["{server.url(host)}"]\n'
        f"depth_limit = 8\nmax_pages = 5000\n\n"
        for host in hosts
    )


def crawl(
    server: SandboxServer, folder: Path, pages: int, mode: dict, entrances: str
) -> tuple[str, float]:
    seeds = folder / "seeds.toml"
    text = every_site_seed_file(server) if entrances == "sites" else sandbox_seed_file(server)
    seeds.write_text(text, encoding="utf-8")
    url = f"sqlite:///{folder / 'crawl.db'}"
    settings = {
        **sandbox_crawl_settings(server),
        "DATABASE_URL": url,
        "CRAWL_MAX_PAGES": pages,
        "DOWNLOAD_DELAY": 0,
        "AUTOTHROTTLE_ENABLED": False,
        "CONCURRENT_REQUESTS": 16,
        "CONCURRENT_REQUESTS_PER_DOMAIN": 4,
        "RETRY_TIMES": 0,
        "DOWNLOAD_TIMEOUT": 2,
        "LOG_LEVEL": "WARNING",
        **mode,
    }
    command = crawl_command(seeds, settings)
    started = time.monotonic()
    result = subprocess.run(
        command, cwd=ROOT, capture_output=True, text=True, env={**os.environ, **sandbox_login_env()}
    )
    elapsed = time.monotonic() - started
    if result.returncode:
        raise SystemExit(f"crawl failed:\n{result.stderr[-3000:]}")
    return url, elapsed


def measure(url: str, web, elapsed: float) -> dict:
    engine = create_engine(url)
    with Session(engine) as session:
        rows = session.execute(select(Page.url).order_by(Page.fetched_at, Page.id)).all()
    engine.dispose()
    flags = [bool((t := truth_for(web, u)) and t.relevant) for (u,) in rows]
    relevant_in_web = sum(t.relevant for _, _, t in web.pages_with_truth())
    return {
        "harvest": {n: sum(flags[:n]) / n for n in CHECKPOINTS if len(flags) >= n},
        "recall": sum(flags) / relevant_in_web,
        "pages": len(flags),
        "pages_per_s": len(flags) / elapsed,
    }


def sandbox(args: argparse.Namespace) -> int:
    web = build_web(args.seed, args.size)
    results = {}
    with SandboxServer(web, slow_seconds=3) as server, tempfile.TemporaryDirectory() as tmp:
        modes = {name: MODES[name] for name in args.modes}
        if args.also:
            modes[f"defaults, {' '.join(args.also)}"] = dict(a.split("=", 1) for a in args.also)
        for name, mode in modes.items():
            folder = Path(tmp) / "".join(c if c.isalnum() else "-" for c in name)
            folder.mkdir()
            url, elapsed = crawl(server, folder, args.pages, mode, args.entrances)
            results[name] = measure(url, web, elapsed)
            print(f"done: {name} in {elapsed:.0f} s", file=sys.stderr)
    head = (
        f"{'crawl':24}| "
        + " | ".join(f"harvest@{n:<5}" for n in CHECKPOINTS)
        + " | recall | pages | pages/s"
    )
    print(
        f"sandbox web: {args.size}, seed {args.seed}, {len(list(web.pages_with_truth()))} pages; "
        f"entrances: {args.entrances}"
    )
    print(head)
    print("-" * len(head))
    for name, r in results.items():
        cells = " | ".join(
            f"{r['harvest'][n]:<13.3f}" if n in r["harvest"] else f"{'-':13}" for n in CHECKPOINTS
        )
        print(f"{name:24}| {cells} | {r['recall']:.3f}  | {r['pages']:5} | {r['pages_per_s']:.1f}")
    base = results.get("breadth-first")
    if base is None:
        return 0
    print("\nrelative to breadth-first:")
    for name, r in results.items():
        ratios = ", ".join(
            f"harvest@{n} {r['harvest'][n] / base['harvest'][n]:.2f}x"
            for n in CHECKPOINTS
            if n in r["harvest"] and n in base["harvest"] and base["harvest"][n]
        )
        print(
            f"  {name:24} {ratios}; recall {r['recall'] / base['recall']:.2f}x; "
            f"pages/s {r['pages_per_s'] / base['pages_per_s']:.2f}x"
        )
    return 0


@dataclass(frozen=True)
class Run:
    """One crawler on one testbed web."""

    web: str  # "seed 2, H=0.8"
    web_dir: Path
    crawler: str
    folder: Path  # this run's log, scores, topic files, database and output
    command: list[str]  # the crawler command, with run_crawl.py's {topic} placeholder


def make_web(seed: int, homophily: float, folder: Path, templates: Path | None = None) -> Path:
    """A testbed web; `templates`: page templates beside the generator's three (make_web.py
    --templates)."""
    out = folder / f"web-{seed}-{homophily}"
    command = [sys.executable, str(TESTBED / "make_web.py"), "--seed", str(seed)]
    command += ["--homophily", str(homophily), "--out", str(out)]
    if templates is not None:
        command += ["--templates", str(templates.resolve())]
    subprocess.run(command, check=True, capture_output=True)
    return out


def setting_arguments(settings: dict) -> list[str]:
    """`-s NAME=VALUE` for scrapy; lists and dicts as JSON."""
    arguments = []
    for name, value in settings.items():
        text = json.dumps(value) if isinstance(value, list | dict) else str(value)
        arguments += ["-s", f"{name}={text}"]
    return arguments


def crawler_command(spec: str | dict, folder: Path, threshold: str = "0.04") -> list[str]:
    """A reference crawler's command (`spec`: its strategy), or topiccrawler's (`spec`: settings
    added to TESTBED_SETTINGS): the topic files from the served topic (η `threshold` written in,
    or "none": no η line, what a user gets who leaves it out), then `scrapy crawl topic` from the
    project root. `{topic}` is run_crawl.py's placeholder for the served topic."""
    if isinstance(spec, str):
        baseline = [sys.executable, str(TESTBED / "baseline_bfs.py"), "--topic", "{topic}"]
        return [*baseline, "--strategy", spec, "--queries", "subjects"]
    convert = [sys.executable, str(TESTBED / "to_topiccrawler.py"), "{topic}", str(folder)]
    convert += ["--threshold", threshold]
    settings = {
        "DATABASE_URL": f"sqlite:///{folder / 'crawl.db'}",
        **TESTBED_SETTINGS,
        "LOG_FILE": str(folder / "scrapy.log"),
        "ALLOWED_ADDRESSES": "127.0.0.1:{port}",  # loopback: exactly the testbed's server
        **spec,
    }
    scrapy = [".venv/bin/scrapy", "crawl", "topic", "-a", f"keywords={folder / 'keywords.toml'}"]
    scrapy += ["-a", f"seeds={folder / 'seeds.toml'}", *setting_arguments(settings)]
    return [
        "sh",
        "-c",
        f"{shlex.join(convert)} && cd {shlex.quote(str(ROOT))} && {shlex.join(scrapy)}",
    ]


def topiccrawler_names(thresholds: list[str]) -> dict[str, str]:
    """topiccrawler's name in the tables for each η its topic file is written with: plain
    `topiccrawler` when there is one, else `topiccrawler η=0.04`, `topiccrawler η=none`."""
    if len(thresholds) == 1:
        return {TOPICCRAWLER: thresholds[0]}
    return {f"{TOPICCRAWLER} η={threshold}": threshold for threshold in thresholds}


def crawlers(
    ablation: bool, also: list[str] = (), thresholds: list[str] = ("0.04",)
) -> dict[str, tuple[str | dict, str]]:
    """The crawlers by name: a reference crawler's strategy, or topiccrawler's extra settings
    (`also`: NAME=VALUE settings of one more topiccrawler crawl), each with the η its topic
    file is written with (the first of `thresholds` for the ablations and `also`)."""
    specs: dict[str, tuple[str | dict, str]] = {name: (s, "") for name, s in REFERENCES.items()}
    specs |= {name: ({}, eta) for name, eta in topiccrawler_names(list(thresholds)).items()}
    if ablation:
        specs |= {f"{TOPICCRAWLER}: {n}": (e, thresholds[0]) for n, e in ABLATIONS.items()}
    if also:
        specs[f"{TOPICCRAWLER}: {' '.join(also)}"] = (
            dict(a.split("=", 1) for a in also),
            thresholds[0],
        )
    return specs


def plan(args: argparse.Namespace, workdir: Path) -> list[Run]:
    """Every crawler on every web, --runs times (a crawl's order varies from run to run),
    generating the webs on the way."""
    runs = []
    for seed in args.seeds:
        for homophily in args.homophily:
            web_dir = make_web(seed, homophily, workdir, args.templates)
            for repeat in range(1, args.runs + 1):
                web = f"seed {seed}, H={homophily}" + (f" #{repeat}" if args.runs > 1 else "")
                specs = crawlers(args.ablation, args.also, args.thresholds)
                for crawler, (spec, threshold) in specs.items():
                    if repeat > 1 and crawler in REFERENCES:
                        continue  # the reference crawlers' order does not vary: run once
                    slug = "".join(c if c.isalnum() else "-" for c in crawler)
                    folder = workdir / f"runs-{seed}-{homophily}-{repeat}" / slug
                    command = crawler_command(spec, folder, threshold)
                    runs.append(Run(web, web_dir, crawler, folder, command))
    return runs


def execute(run: Run) -> dict:
    """One crawl through run_crawl.py, in a fresh folder: its figures and run_crawl.py's scores."""
    shutil.rmtree(run.folder, ignore_errors=True)
    run.folder.mkdir(parents=True)
    log, output = run.folder / "access.jsonl", run.folder / "run_crawl.out"
    command = [sys.executable, str(TESTBED / "run_crawl.py"), "--web", str(run.web_dir)]
    command += ["--log", str(log), "--timeout", str(TIMEOUT), "--", *run.command]
    started = time.monotonic()
    with output.open("w", encoding="utf-8") as out:
        result = subprocess.run(command, cwd=ROOT, stdout=out, stderr=subprocess.STDOUT)
    wall = time.monotonic() - started
    tail = output.read_text(encoding="utf-8")[-2000:]
    if result.returncode:
        raise SystemExit(f"run_crawl.py failed: {run.crawler} on {run.web}:\n{tail}")
    scores = json.loads(log.with_suffix(".harvest.json").read_text(encoding="utf-8"))
    if scores["crawler_exit"]:
        print(f"! {run.crawler} on {run.web} exited with {scores['crawler_exit']}:\n{tail}")
    print(f"done: {run.web}, {run.crawler} in {wall:.0f} s", file=sys.stderr)
    return {"figures": figures(scores), "wall_seconds": round(wall, 1), "scores": scores}


def figures(scores: dict) -> dict:
    """The figures the tables show, from one LOG.harvest.json (its JSON keys are strings)."""
    return {
        "h@50": next((h for n, h, _, _ in scores["curve"] if n == 50), None),
        "h@100": scores["harvest"]["100"],
        "h@200": scores["harvest"]["200"],
        "recall@100": scores["recall"]["100"],
        "far_recall@100": scores["far_recall"]["100"],
        "recall": round(scores["target_docs_found"] / scores["target_docs"], 4),
        "duplicate_fetches": scores["duplicate_fetches"],
        "article_fetches": scores["article_fetches"],
        "search_queries": scores["search_queries"],
        "seconds": scores["seconds"],
    }


def describe(web: str, web_dir: Path, scores: dict) -> str:
    meta = json.loads((web_dir / "meta.json").read_text(encoding="utf-8"))
    return (
        f"{web}: {meta['article_pages']} article pages, {scores['target_pages']} target pages "
        f"({scores['target_docs']} target articles, {scores['far_docs']} far), "
        f"oracle h@100 {scores['oracle']['100']:.2f}"
    )


def mean(values: list) -> float | None:
    """The mean, rounded; None when any value is None (a crawl too short to reach that N)."""
    return None if None in values else round(sum(values) / len(values), 4)


def means(results: dict[str, dict[str, dict]]) -> dict[str, dict]:
    """Per crawler, each figure's mean over the webs."""
    names = next(iter(results.values()))
    return {
        name: {
            key: mean([web[name]["figures"][key] for web in results.values()])
            for key, *_ in COLUMNS
        }
        for name in names
    }


def differences(results: dict[str, dict[str, dict]], name: str = TOPICCRAWLER) -> dict[str, list]:
    """Per compared figure, topiccrawler's (`name`) minus the naive best-first's, web by web."""
    pairs = [(web[name]["figures"], web["naive best-first"]["figures"]) for web in results.values()]
    return {
        key: [None if None in (a[key], b[key]) else round(a[key] - b[key], 4) for a, b in pairs]
        for key in COMPARED
    }


def targets(
    results: dict[str, dict[str, dict]], mean_diff: dict[str, float | None], name: str
) -> dict:
    def at_least(value: float | None, bound: float) -> bool:
        return value is not None and value >= bound

    own = [web[name]["figures"] for web in results.values()]
    return {
        "h@50 ≥ naive + 0.05": at_least(mean_diff["h@50"], 0.05),
        "h@100 ≥ naive + 0.05": at_least(mean_diff["h@100"], 0.05),
        "far_recall@100 ≥ naive": at_least(mean_diff["far_recall@100"], 0),
        "no duplicate fetches": all(f["duplicate_fetches"] == 0 for f in own),
        "mean recall ≥ 0.95": at_least(mean([f["recall"] for f in own]), 0.95),
    }


def cell(value: float | None, rate: bool, averaged: bool) -> str:
    if value is None:
        return "-"
    return f"{value:.3f}" if rate else f"{value:.1f}" if averaged else f"{value:.0f}"


def signed(value: float | None) -> str:
    return "-" if value is None else f"{value:+.3f}"


def print_table(title: str, rows: dict[str, dict], averaged: bool = False) -> None:
    width = max(map(len, [*rows, "crawler"])) + 2
    head = f"{'crawler':{width}}" + "".join(f"{header:>9}" for _, header, _ in COLUMNS)
    print(f"\n{title}\n{head}\n{'-' * len(head)}")
    for name, row in rows.items():
        cells = "".join(f"{cell(row[key], rate, averaged):>9}" for key, _, rate in COLUMNS)
        print(f"{name:{width}}{cells}")


def testbed(args: argparse.Namespace) -> int:
    if not (TESTBED / "run_crawl.py").is_file():
        raise SystemExit(f"testbed mode: the crawl testbed is not at {TESTBED}")
    started = time.monotonic()
    results: dict[str, dict[str, dict]] = {}
    titles = {}
    with tempfile.TemporaryDirectory() as tmp:
        runs = plan(args, args.workdir.resolve() if args.workdir else Path(tmp))
        with ThreadPoolExecutor(args.jobs) as pool:
            for run, outcome in zip(runs, pool.map(execute, runs), strict=True):
                results.setdefault(run.web, {})[run.crawler] = outcome
                titles.setdefault(run.web, describe(run.web, run.web_dir, outcome["scores"]))
    for web, outcomes in results.items():  # the reference crawlers' one run, in every repeat
        first = results[web.rsplit(" #", 1)[0] + " #1"] if " #" in web else outcomes
        results[web] = {name: first[name] for name in REFERENCES} | outcomes
    for web, outcomes in results.items():
        print_table(titles[web], {name: o["figures"] for name, o in outcomes.items()})
    mean_figures = means(results)
    print_table(f"mean over {len(results)} web(s)", mean_figures, averaged=True)
    diffs, checks = {}, {}
    for name in topiccrawler_names(args.thresholds):
        diffs[name] = differences(results, name)
        mean_diff = {key: mean(values) for key, values in diffs[name].items()}
        print(f"\n{name} minus naive best-first, mean (per web):")
        for key, values in diffs[name].items():
            per_web = " ".join(signed(v) for v in values)
            print(f"  {key:15} {signed(mean_diff[key]):>7}  ({per_web})")
        checks[name] = targets(results, mean_diff, name)
        print(
            "targets vs naive best-first: "
            + "   ".join(f"{'✓' if ok else '✗'} {check}" for check, ok in checks[name].items())
        )
    elapsed = time.monotonic() - started
    print(f"\n{len(runs)} crawls on {len(results)} web(s) in {elapsed:.0f} s (--jobs {args.jobs})")
    if args.json:
        summary = {"webs": results, "means": mean_figures, "differences": diffs, "targets": checks}
        args.json.write_text(json.dumps(summary, ensure_ascii=False, indent=1), encoding="utf-8")
    return 0


def parse_args(argv: list[str]) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        description=__doc__.split("\n")[0], epilog="Without a mode: sandbox, with its options."
    )
    modes = parser.add_subparsers(title="modes", dest="mode")
    box = modes.add_parser("sandbox", help="the project's sandbox web, three crawl modes")
    box.add_argument("--size", choices=("small", "medium", "large"), default="large")
    box.add_argument("--pages", type=int, default=2000)
    box.add_argument("--seed", type=int, default=1)
    box.add_argument("--entrances", choices=("sites", "seeds"), default="sites")
    box.add_argument(
        "--modes", nargs="+", choices=list(MODES), default=list(MODES), metavar="MODE",
        help=f"crawl modes to run (default: all of {', '.join(MODES)})",
    )  # fmt: skip
    box.add_argument(
        "--also", nargs="+", default=[], metavar="NAME=VALUE",
        help="also the defaults with these settings (e.g. EXTRACT_PROCESSES=1)",
    )  # fmt: skip
    box.set_defaults(run=sandbox)
    bed = modes.add_parser("testbed", help="the crawl testbed in ../shared/bench/crawl")
    bed.add_argument("--seeds", type=int, nargs="+", default=[2, 3, 4], metavar="S")
    bed.add_argument("--homophily", type=float, nargs="+", default=[0.5, 0.8], metavar="H")
    bed.add_argument(
        "--thresholds", nargs="+", default=["0.04"], metavar="ETA",
        help="η written into the topic file, or 'none' (η sets itself); one topiccrawler crawl "
        "each (default: 0.04)",
    )  # fmt: skip
    bed.add_argument("--runs", type=int, default=1, help="every crawl this many times")
    bed.add_argument(
        "--templates", type=Path, metavar="JSON",
        help="make_web.py --templates: more page templates (benchmarks/testbed_templates.json "
        "holds two of ours)",
    )  # fmt: skip
    bed.add_argument("--ablation", action="store_true", help="also each variant of ABLATIONS")
    bed.add_argument(
        "--also", nargs="+", default=[], metavar="NAME=VALUE",
        help="also topiccrawler with these settings (e.g. EXTRACT_PROCESSES=1)",
    )  # fmt: skip
    bed.add_argument("--jobs", type=int, default=1, help="crawls at once (default: 1)")
    bed.add_argument("--json", type=Path, metavar="OUT", help="write all figures here")
    bed.add_argument(
        "--workdir", type=Path, help="keep webs, logs and databases here (default: a temp folder)"
    )
    bed.set_defaults(run=testbed)
    if not argv or argv[0] not in {"sandbox", "testbed", "-h", "--help"}:
        argv = ["sandbox", *argv]
    return parser.parse_args(argv)


def main() -> int:
    args = parse_args(sys.argv[1:])
    return args.run(args)


if __name__ == "__main__":
    sys.exit(main())
