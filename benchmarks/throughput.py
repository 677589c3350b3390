"""Crawl throughput: topiccrawler beside a plain Scrapy + trafilatura spider on the crawl testbed
(../shared/bench/crawl), rounds alternated; fetches/s, CPU per fetched page, and where the CPU
goes, by component.

    .venv/bin/python benchmarks/throughput.py [--web testbed|sandbox] [--seed 2 [3 4]]
        [--homophily 0.8 [0.5]] [--pages 300] [--rounds 2] [--profile] [--workdir DIR]
        [--also NAME=VALUE ...] [--templates benchmarks/testbed_templates.json]

Several seeds and homophilies: every web of the combinations in turn (the six dev webs:
`--seed 2 3 4 --homophily 0.5 0.8`), each reported, then every crawler's ratio to the plain
spider by web, its lowest and its mean.

`--web sandbox`: the project's large sandbox web instead (served in this process; every content
site's home page as an entrance, as benchmarks/harvest.py does), fetches/s from each crawler's
own stats (responses over its elapsed time).

The plain spider (below, `PlainSpider`) is what a user would otherwise write: start at the home
pages of the twelve sites, follow every link on the host, extract every page with trafilatura
(comments on); no focus, no storage. topiccrawler runs as benchmarks/harvest.py runs it on the
testbed (its defaults, the testbed's politeness overrides, a fresh SQLite database). Both stop
after --pages pages (CLOSESPIDER_PAGECOUNT / CRAWL_MAX_PAGES) and run through run_crawl.py,
which serves the web on a free port; rounds alternate the two crawlers (A B A B ...).

- fetches/s: the crawler's requests in the server's access log over the span from the first
  to the last (the harness's own `/stop`, sent after the crawler has ended, left out: it
  would count the crawler's shut-down as crawling);
- busy: the share of that span the crawl's process spent on a CPU (sampled from /proc on
  Linux), and its CPU per fetch within the span: near 100 % the crawl is CPU-bound and its
  rate is the inverse of its CPU per fetch; well under, it waits (for its extraction workers,
  for responses) and less CPU per fetch does not make it faster;
- listen drops: connections the kernel refused while the server's accept queue was full
  (Linux's TcpExtListenDrops, counted over the crawl; the machine's, so quiet it otherwise).
  The testbed's server (Python's ThreadingHTTPServer) listens with a queue of 5: a crawler
  that opens more connections at once than that loses the rest's first SYN, and the kernel
  sends it again after one second, a second in which those requests wait. Both crawlers
  meet it (the testbed's politeness overrides allow 8 requests per host); topiccrawler opens
  its connections in a burst at its start (robots.txt, the entrances, then 16 requests at
  once), where an idle second shows in its access log. (With the project's default of 2
  requests per host this server drops more, not fewer: docs/benchmarks.md, round 7.)
- CPU per fetched page: the crawler process's user + system CPU (resource usage of its process,
  measured by a wrapper around it, not the server's) over the fetches;
- with --profile, one more round each under cProfile on a CPU clock: self time summed by
  component (by the file a function lives in; built-ins and libraries count for their callers'),
  shown as a share and as ms per fetched page (the shares applied to the CPU per page of the
  unprofiled rounds: cProfile's own overhead is not counted). Start-up (imports, dictionaries)
  is a fixed cost per crawl, large in a short one.

`--also EXTRACT_PROCESSES=0` (testbed): a third crawler in every round, topiccrawler with those
settings, so that a setting's effect is measured under the same load. With extraction workers
(EXTRACT_PROCESSES) the CPU per page counts theirs too (they are the crawl's children); their
share, and the crawl's process's own CPU per page, are printed apart.

The machine is shared: quote the ratios of one run.
"""

from __future__ import annotations

import argparse
import json
import os
import pstats
import resource
import shlex
import statistics
import subprocess
import sys
import threading
import time
from pathlib import Path
from urllib.parse import urlsplit

import scrapy

ROOT = Path(__file__).resolve().parents[1]
TESTBED = ROOT.parent / "shared" / "bench" / "crawl"
PY = sys.executable
SCRAPY = str(Path(PY).parent / "scrapy")
TESTBED_SETTINGS = {
    "DOWNLOAD_DELAY": 0,
    "AUTOTHROTTLE_ENABLED": False,
    "CONCURRENT_REQUESTS_PER_DOMAIN": 8,
    "LOG_LEVEL": "INFO",
}

# Component of a profiled function, by the first pattern its file (or name) contains.
COMPONENTS = (
    ("start-up (imports, dictionaries)", ("<frozen importlib", " <module>", "_find_and_load",
                                          "dictionary_frequencies", "initialize")),
    ("relevance middleware", ("topiccrawler/middlewares/relevance",)),
    ("relevance scoring", ("topiccrawler/relevance/", "topiccrawler/pipelines/relevance")),
    ("tokenizing (jieba)", ("rjieba", "jieba")),
    ("link classifier (refits, scoring)", ("topiccrawler/frontier/classifier",)),
    ("frontier queue (rescoring)", ("topiccrawler/frontier/queue",)),
    ("link scoring", ("topiccrawler/frontier/",)),
    ("extraction", ("topiccrawler/extract/", "trafilatura", "justext", "readability", "courlan",
                    "htmldate", "charset_normalizer")),
    ("dedup", ("topiccrawler/dedup/", "topiccrawler/pipelines/dedup")),
    ("briefing", ("topiccrawler/briefing",)),
    ("SQL writes", ("topiccrawler/storage", "topiccrawler/pipelines/storage", "sqlalchemy",
                    "sqlite3")),
    ("spider (links, pages)", ("topiccrawler/spiders/", "scrapy/linkextractors", "parsel",
                               "w3lib", "lxml", "throughput.py")),
    ("topiccrawler, other", ("topiccrawler/",)),
    ("Scrapy and Twisted", ("scrapy/", "twisted/", "zope/")),
)  # fmt: skip


class PlainSpider(scrapy.Spider):
    """Every page of the host, extracted with trafilatura (comments on)."""

    name = "plain"
    custom_settings = {
        **TESTBED_SETTINGS,
        "ROBOTSTXT_OBEY": False,
        "CONCURRENT_REQUESTS": 16,
        "TELNETCONSOLE_ENABLED": False,
        "REQUEST_FINGERPRINTER_IMPLEMENTATION": "2.7",
    }

    def __init__(self, base: str = "", start: str = "", hosts: str = "", **kwargs):
        super().__init__(**kwargs)
        if start:  # the sandbox: its sites' home pages, links followed on its hosts only
            self.start_urls = start.split(",")
            self.hosts = tuple(hosts.split(","))
        else:  # the testbed: twelve sites on one host
            self.start_urls = [f"{base}/s{n}/" for n in range(1, 13)]
            self.hosts = (urlsplit(base).hostname,)

    def parse(self, response):
        import trafilatura
        from scrapy.linkextractors import LinkExtractor

        if not isinstance(response, scrapy.http.TextResponse):
            return
        text = trafilatura.extract(response.text, url=response.url, include_comments=True)
        yield {"url": response.url, "chars": len(text or "")}
        for link in LinkExtractor().extract_links(response):
            if urlsplit(link.url).hostname in self.hosts:  # never off the bench
                yield response.follow(link.url, callback=self.parse)


def timed(out: str, command: list[str]) -> int:
    """Run a command; write its CPU (user + system, its process tree) and wall time."""
    started = time.monotonic()
    code = subprocess.call(command)
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    Path(out).write_text(
        json.dumps({"cpu": usage.ru_utime + usage.ru_stime, "wall": time.monotonic() - started})
    )
    return code


def profiled(out: str, arguments: list[str]) -> int:
    """`scrapy ARGUMENTS` in this process under cProfile with a CPU clock (time waiting for
    the network is not counted)."""
    import cProfile

    from scrapy.cmdline import execute

    sys.argv = ["scrapy", *arguments]
    profile = cProfile.Profile(time.process_time)
    code = 0
    try:
        profile.runcall(execute)
    except SystemExit as exc:
        code = exc.code if isinstance(exc.code, int) else 0
    profile.dump_stats(out)
    return code


def crawl_command(
    crawler: str, folder: Path, pages: int, profile: Path | None, extra: dict | None = None
) -> list[str]:
    """The command run_crawl.py runs ({base}, {topic} are its placeholders); `extra`: settings
    of a topiccrawler variant (--also)."""
    here = str(Path(__file__).resolve())
    runner = [PY, here, "_profile", str(profile), "--"] if profile else [SCRAPY]
    wrap = [PY, str(Path(__file__).resolve()), "_timed", str(folder / "cpu.json"), "--"]
    if crawler == "plain":
        settings = [
            "-s",
            f"CLOSESPIDER_PAGECOUNT={pages}",
            "-s",
            f"LOG_FILE={folder / 'scrapy.log'}",
        ]
        command = [*wrap, *runner, "runspider", str(Path(__file__).resolve()), "-a", "base={base}"]
        return ["sh", "-c", f"cd {shlex.quote(str(folder))} && {shlex.join(command + settings)}"]
    convert = [PY, str(TESTBED / "to_topiccrawler.py"), "{topic}", str(folder)]
    settings = {
        "DATABASE_URL": f"sqlite:///{folder / 'crawl.db'}",
        **TESTBED_SETTINGS,
        "LOG_FILE": str(folder / "scrapy.log"),
        "ALLOWED_ADDRESSES": "127.0.0.1:{port}",
        "CRAWL_MAX_PAGES": pages,
        **(extra or {}),
    }
    arguments = [a for name, value in settings.items() for a in ("-s", f"{name}={value}")]
    scrapy_command = [
        *wrap,
        *runner,
        "crawl",
        "topic",
        "-a",
        f"keywords={folder / 'keywords.toml'}",
    ]
    scrapy_command += ["-a", f"seeds={folder / 'seeds.toml'}", *arguments]
    return [
        "sh", "-c",
        f"{shlex.join(convert)} && cd {shlex.quote(str(ROOT))} && {shlex.join(scrapy_command)}",
    ]  # fmt: skip


# Requests the harness itself makes of the server (run_crawl.py stops it after the crawl).
HARNESS_PATHS = frozenset(("/stop",))
NETSTAT = Path("/proc/net/netstat")


def listen_drops() -> int | None:
    """Connections the kernel has dropped at full accept queues since boot (Linux), or None."""
    try:
        lines = NETSTAT.read_text().splitlines()
    except OSError:
        return None
    for names, values in zip(lines[::2], lines[1::2], strict=False):
        if names.startswith("TcpExt:"):
            fields = dict(zip(names.split(), values.split(), strict=False))
            return int(fields["ListenDrops"]) if "ListenDrops" in fields else None
    return None


class CpuSampler:
    """CPU seconds (user + system) of a process tree, sampled from /proc while it runs: the
    crawl's process (the timing wrapper's child) and its children (extraction workers), by
    time, so that their CPU within the fetch window can be told apart from start-up and
    shut-down. Pids are looked for every `FIND_EVERY` seconds, read every `EVERY` seconds
    (a read of one /proc/PID/stat costs microseconds; a walk of /proc, milliseconds)."""

    EVERY = 0.05
    FIND_EVERY = 0.5
    TICK = os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") else 100

    def __init__(self, root: int):
        self.root = root
        self.samples: list[tuple[float, float, float]] = []  # time, crawl's CPU, its children's
        self.crawl: int | None = None
        self.children: set[int] = set()
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)

    @classmethod
    def available(cls) -> bool:
        return Path("/proc/self/stat").exists()

    def __enter__(self) -> CpuSampler:
        self._thread.start()
        return self

    def __exit__(self, *_) -> None:
        self._stop.set()
        self._thread.join()

    def _stat(self, pid: int) -> tuple[int, float] | None:
        """(parent pid, CPU seconds) of a process; None once it is gone."""
        try:
            fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        except (OSError, IndexError):
            return None
        return int(fields[1]), (int(fields[11]) + int(fields[12])) / self.TICK

    def _find(self) -> None:
        """The crawl's process: the child of the timing wrapper (`_timed`) below the
        harness's process; the crawl's children."""
        parents: dict[int, int] = {}
        for entry in Path("/proc").iterdir():
            if entry.name.isdigit() and (found := self._stat(int(entry.name))) is not None:
                parents[int(entry.name)] = found[0]
        if self.crawl is None:
            below, added = {self.root}, True  # the harness's descendants (another run's apart)
            while added:
                grown = below | {c for c, p in parents.items() if p in below}
                below, added = grown, len(grown) > len(below)
            for pid in below:
                try:
                    command = Path(f"/proc/{pid}/cmdline").read_bytes().split(b"\0")
                except OSError:
                    continue
                if b"_timed" in command:
                    self.crawl = next((c for c, p in parents.items() if p == pid), None)
        if self.crawl is not None:
            self.children |= {c for c, p in parents.items() if p == self.crawl}

    def _run(self) -> None:
        found_at = 0.0
        last = {}  # CPU of each process when last read (kept when it has ended)
        while not self._stop.wait(self.EVERY):
            now = time.time()
            if now - found_at >= self.FIND_EVERY:
                self._find()
                found_at = now
            if self.crawl is None:
                continue
            for pid in (self.crawl, *self.children):
                if (found := self._stat(pid)) is not None:
                    last[pid] = found[1]
            children = sum(last.get(c, 0.0) for c in self.children)
            self.samples.append((now, last.get(self.crawl, 0.0), children))

    def within(self, start: float, end: float) -> tuple[float, float] | None:
        """CPU seconds of the crawl's process and of its children between two times (the
        samples nearest them); None without samples on both sides."""
        before = [s for s in self.samples if s[0] <= start]
        after = [s for s in self.samples if s[0] >= end]
        if not before or not after:
            return None
        (_, crawl_a, kids_a), (_, crawl_b, kids_b) = before[-1], after[0]
        return crawl_b - crawl_a, kids_b - kids_a


def run(
    crawler: str, web: Path, folder: Path, pages: int, profile: bool, extra: dict | None = None
) -> dict:
    folder.mkdir(parents=True, exist_ok=True)
    for old in folder.glob("*"):
        if old.is_file():
            old.unlink()
    log = folder / "access.jsonl"
    prof = folder / "profile.out" if profile else None
    command = [PY, str(TESTBED / "run_crawl.py"), "--web", str(web), "--log", str(log)]
    command += ["--timeout", "900", "--", *crawl_command(crawler, folder, pages, prof, extra)]
    env = {k: v for k, v in os.environ.items() if k != "SCRAPY_SETTINGS_MODULE"}
    drops = listen_drops()
    with (folder / "run_crawl.out").open("w") as out:
        process = subprocess.Popen(command, cwd=ROOT, stdout=out, stderr=subprocess.STDOUT, env=env)
        if CpuSampler.available():
            with CpuSampler(process.pid) as sampler:
                code = process.wait()
        else:
            sampler, code = None, process.wait()
    if code:
        raise subprocess.CalledProcessError(code, command)
    after = listen_drops()
    requests = [json.loads(line) for line in log.read_text().splitlines() if line.strip()]
    times = [r["t"] for r in requests if r.get("path") not in HARNESS_PATHS]
    cpu = json.loads((folder / "cpu.json").read_text())
    span = max(times) - min(times) if len(times) > 1 else float("nan")
    window = sampler.within(min(times), max(times)) if sampler and len(times) > 1 else None
    scores = json.loads(log.with_suffix(".harvest.json").read_text())
    result = {
        "crawler": crawler, "fetches": len(times), "fetches_s": len(times) / span,
        "cpu_ms_page": cpu["cpu"] * 1000 / len(times), "wall": cpu["wall"],
        "h@100": scores.get("harvest@100", scores.get("h@100")),
        **workers_cpu(folder / "scrapy.log", len(times)),
    }  # fmt: skip
    if drops is not None and after is not None:
        result["listen_drops"] = after - drops
    if window is not None and not profile:
        result["busy"] = window[0] / span
        result["window_ms_fetch"] = window[0] * 1000 / len(times)
        result["window_children_ms_fetch"] = window[1] * 1000 / len(times)
    if prof is not None:
        result["components"] = components(prof)
    return result


def sandbox_run(crawler: str, server, folder: Path, pages: int, profile: bool) -> dict:
    """One crawl of the project's sandbox web (served in this process); fetches/s from the
    crawler's own stats (responses over its elapsed time)."""
    import re

    sys.path.insert(0, str(ROOT / "benchmarks"))
    from harvest import every_site_seed_file

    from topiccrawler.sandbox.demo import crawl_command as sandbox_command
    from topiccrawler.sandbox.demo import sandbox_crawl_settings, sandbox_login_env

    folder.mkdir(parents=True, exist_ok=True)
    for old in folder.glob("*"):
        if old.is_file():
            old.unlink()
    prof = folder / "profile.out" if profile else None
    here = str(Path(__file__).resolve())
    wrap = [PY, here, "_timed", str(folder / "cpu.json"), "--"]
    runner = [PY, here, "_profile", str(prof), "--"] if prof else [PY, "-m", "scrapy"]
    hosts = sorted({host for host, _, _ in server.web.pages_with_truth()})
    base = {
        **sandbox_crawl_settings(server), "DOWNLOAD_DELAY": 0, "AUTOTHROTTLE_ENABLED": False,
        "CONCURRENT_REQUESTS": 16, "CONCURRENT_REQUESTS_PER_DOMAIN": 4, "RETRY_TIMES": 0,
        "DOWNLOAD_TIMEOUT": 2, "LOG_LEVEL": "INFO", "LOG_FILE": str(folder / "scrapy.log"),
    }  # fmt: skip
    if crawler == "plain":
        settings = {k: base[k] for k in base if k != "ALLOWED_ADDRESSES"}
        settings["CLOSESPIDER_PAGECOUNT"] = pages
        arguments = [
            a
            for name, value in settings.items()
            for a in ("-s", f"{name}={','.join(value) if isinstance(value, list) else value}")
        ]
        starts = ",".join(server.url(host) for host in hosts)
        command = [*wrap, *runner, "runspider", here, "-a", f"start={starts}"]
        command += ["-a", f"hosts={','.join(hosts)}", *arguments]
        subprocess.run(command, cwd=folder, check=True, capture_output=True)
    else:
        seeds = folder / "seeds.toml"
        seeds.write_text(every_site_seed_file(server), encoding="utf-8")
        settings = {**base, "DATABASE_URL": f"sqlite:///{folder / 'crawl.db'}"}
        settings["CRAWL_MAX_PAGES"] = pages
        command = sandbox_command(seeds, settings)
        command = [*wrap, *runner, *command[3:]]
        env = {**os.environ, **sandbox_login_env()}
        subprocess.run(command, cwd=ROOT, check=True, capture_output=True, env=env)
    log = (folder / "scrapy.log").read_text(encoding="utf-8", errors="replace")
    responses = int(re.findall(r"'downloader/response_count': (\d+)", log)[-1])
    elapsed = float(re.findall(r"'elapsed_time_seconds': ([\d.]+)", log)[-1])
    cpu = json.loads((folder / "cpu.json").read_text())
    result = {
        "crawler": crawler, "fetches": responses, "fetches_s": responses / elapsed,
        "cpu_ms_page": cpu["cpu"] * 1000 / responses, "wall": cpu["wall"],
        **workers_cpu(folder / "scrapy.log", responses),
    }  # fmt: skip
    if prof is not None:
        result["components"] = components(prof)
    return result


def workers_cpu(log: Path, fetches: int) -> dict[str, float]:
    """The extraction workers' CPU per fetched page (EXTRACT_PROCESSES), from the crawl's
    stats; {} when it had none. It is part of the CPU per page, spent on another core."""
    import re

    text = log.read_text(encoding="utf-8", errors="replace") if log.exists() else ""
    found = re.findall(r"'topiccrawler/extraction/workers_cpu_s': ([\d.]+)", text)
    return {"workers_ms_page": float(found[-1]) * 1000 / fetches} if found else {}


def components(profile: Path) -> dict[str, float]:
    """Self time by component, as shares of the profile's total. A function of no component
    (the standard library, built-ins, C extensions) counts for its callers' components, each
    call edge for its own caller (up the chain until one has a component)."""
    stats = pstats.Stats(str(profile)).stats  # type: ignore[attr-defined]
    own: dict[tuple, str | None] = {}

    def direct(key: tuple) -> str | None:
        if key not in own:
            filename, _, function = key
            where = f"{filename} {function}"
            own[key] = next(
                (n for n, patterns in COMPONENTS if any(p in where for p in patterns)), None
            )
        return own[key]

    resolved: dict[tuple, str] = {}

    def component(key: tuple, depth: int = 0) -> str:
        """A function's component, or its heaviest caller's (memoised)."""
        if key in resolved:
            return resolved[key]
        name = direct(key)
        if name is None:
            callers = stats.get(key, (0, 0, 0, 0, {}))[4]
            if callers and depth < 40:
                heaviest = max(callers, key=lambda c: callers[c][3])
                name = component(heaviest, depth + 1)
            else:
                name = "Python and libraries, other"
        resolved[key] = name
        return name

    totals: dict[str, float] = {}
    for key, (_, _, self_time, _, callers) in stats.items():
        if direct(key) is not None or not callers:
            name = component(key)
            totals[name] = totals.get(name, 0.0) + self_time
            continue
        for caller, edge in callers.items():  # this function's time per caller
            name = component(caller)
            totals[name] = totals.get(name, 0.0) + edge[2]
    total = sum(totals.values()) or 1.0
    return {name: value / total for name, value in sorted(totals.items(), key=lambda x: -x[1])}


def report(results: dict[str, list[dict]], profiles: dict[str, dict], title: str) -> None:
    print(title)
    print(f"{'crawler':14} | fetches | fetches/s (rounds) | CPU ms/page (rounds)")
    mean = {}
    for crawler, rounds in results.items():
        rates = [r["fetches_s"] for r in rounds]
        cpus = [r["cpu_ms_page"] for r in rounds]
        mean[crawler] = (statistics.mean(rates), statistics.mean(cpus))
        print(
            f"{crawler:14} | {rounds[0]['fetches']:7} | "
            f"{' '.join(f'{x:.1f}' for x in rates):18} | {' '.join(f'{x:.1f}' for x in cpus)}"
        )
    for crawler in (c for c in results if c != "plain"):
        print(
            f"{crawler} / plain: fetches/s {mean[crawler][0] / mean['plain'][0]:.2f}x, "
            f"CPU per page {mean[crawler][1] / mean['plain'][1]:.2f}x"
        )
    if all("busy" in r for rounds in results.values() for r in rounds):
        print("within the fetch window, the crawl's process: busy share | CPU ms per fetch "
              "(| its children's)")  # fmt: skip
        for crawler, rounds in results.items():
            busy = " ".join(f"{r['busy']:.0%}" for r in rounds)
            own = " ".join(f"{r['window_ms_fetch']:.1f}" for r in rounds)
            children = [r["window_children_ms_fetch"] for r in rounds]
            more = f" | {' '.join(f'{x:.1f}' for x in children)}" if any(children) else ""
            print(f"  {crawler:12} | {busy:16} | {own}{more}")
    if all("listen_drops" in r for rounds in results.values() for r in rounds):
        print("connections dropped at the server's full accept queue (each waits 1 s): " + "; ".join(
            f"{crawler} {' '.join(str(r['listen_drops']) for r in rounds)}"
            for crawler, rounds in results.items()
        ))  # fmt: skip
    workers = [r["workers_ms_page"] for r in results["topiccrawler"] if "workers_ms_page" in r]
    if workers:
        own = [r["cpu_ms_page"] - r.get("workers_ms_page", 0.0) for r in results["topiccrawler"]]
        print(
            f"topiccrawler CPU ms/page in its extraction workers: {' '.join(f'{x:.1f}' for x in workers)}; "
            f"in the crawl's process: {' '.join(f'{x:.1f}' for x in own)} "
            f"({statistics.mean(own) / mean['plain'][1]:.2f}x the plain spider's)"
        )
    for crawler, shares in profiles.items():
        print(f"\n{crawler}, CPU by component (profiled round; ms/page from unprofiled CPU):")
        for name, share in shares.items():
            if share >= 0.005:
                print(f"  {name:36} {share:6.1%}  {share * mean[crawler][1]:6.1f} ms/page")


def sandbox_main(args: argparse.Namespace) -> int:
    from topiccrawler.sandbox.server import SandboxServer
    from topiccrawler.sandbox.web import build_web

    seed = args.seed[0]
    web = build_web(seed, "large")
    workdir = Path(args.workdir)
    results: dict[str, list[dict]] = {"plain": [], "topiccrawler": []}
    profiles = {}
    with SandboxServer(web, slow_seconds=3) as server:
        for round_ in range(args.rounds):
            for crawler in ("plain", "topiccrawler"):
                folder = workdir / f"sandbox-{crawler}-{round_}"
                r = sandbox_run(crawler, server, folder, args.pages, False)
                results[crawler].append(r)
                print(f"round {round_ + 1}: {crawler}: {r['fetches']} fetches, "
                      f"{r['fetches_s']:.1f}/s, {r['cpu_ms_page']:.1f} ms CPU/page", file=sys.stderr)  # fmt: skip
        if args.profile:
            for crawler in ("plain", "topiccrawler"):
                folder = workdir / f"sandbox-{crawler}-profile"
                profiles[crawler] = sandbox_run(crawler, server, folder, args.pages, True)[
                    "components"
                ]
    title = f"web: the large sandbox, seed {seed}; --pages {args.pages}; {args.rounds} rounds"
    report(results, profiles, title)
    return 0


def main() -> int:
    if len(sys.argv) > 2 and sys.argv[1] in ("_timed", "_profile"):
        rest = sys.argv[4:] if sys.argv[3] == "--" else sys.argv[3:]
        return (timed if sys.argv[1] == "_timed" else profiled)(sys.argv[2], rest)
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument(
        "--seed", type=int, nargs="+", default=[2],
        help="testbed webs' seeds (with every --homophily; the dev webs: 2 3 4); sandbox: one",
    )  # fmt: skip
    parser.add_argument("--homophily", type=float, nargs="+", default=[0.8], metavar="H")
    parser.add_argument("--pages", type=int, default=300)
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--profile", action="store_true")
    parser.add_argument("--workdir", default="/tmp/topiccrawler-throughput")
    parser.add_argument(
        "--also", nargs="+", metavar="NAME=VALUE", default=[],
        help="testbed: also topiccrawler with these settings, a third crawler in every round "
        "(e.g. EXTRACT_PROCESSES=0)",
    )  # fmt: skip
    parser.add_argument(
        "--templates", type=Path, metavar="JSON",
        help="testbed: make_web.py --templates, page templates beside the generator's own "
        "(benchmarks/testbed_templates.json: ours; with seeds 5 6, webs nobody tuned on)",
    )  # fmt: skip
    parser.add_argument(
        "--web", choices=("testbed", "sandbox"), default="testbed",
        help="the crawl testbed (../shared/bench/crawl) or the project's large sandbox web",
    )  # fmt: skip
    args = parser.parse_args()
    try:  # the plain spider's extractor: without it every page fails and the ratio is nonsense
        import trafilatura  # noqa: F401
    except ImportError:
        print("trafilatura is missing: .venv/bin/python -m pip install -e '.[dev,bench]'")
        return 1
    if args.web == "sandbox":
        return sandbox_main(args)
    if not TESTBED.is_dir():
        print(f"testbed not found at {TESTBED} (it lives in ../shared beside the checkout)")
        return 1
    ratios = {}
    for seed in args.seed:
        for homophily in args.homophily:
            ratios[f"seed {seed}, H={homophily}"] = testbed_web(args, seed, homophily)
    if len(ratios) > 1:
        print("\nfetches/s against the plain spider's, by web (means of the rounds):")
        for web, by_crawler in ratios.items():
            print(f"  {web:16} " + "; ".join(f"{c} {r:.2f}x" for c, r in by_crawler.items()))
        for crawler in next(iter(ratios.values())):
            values = [by_crawler[crawler] for by_crawler in ratios.values()]
            print(f"  {crawler}: lowest {min(values):.2f}x, mean {statistics.mean(values):.2f}x")
    return 0


def testbed_web(args: argparse.Namespace, seed: int, homophily: float) -> dict[str, float]:
    """The crawlers' rounds on one testbed web, reported; each crawler's fetches/s over the
    plain spider's (means of the rounds)."""
    workdir = Path(args.workdir)
    workdir.mkdir(parents=True, exist_ok=True)
    web = workdir / f"web-{seed}-{homophily}{'-templates' if args.templates else ''}"
    make = [PY, str(TESTBED / "make_web.py"), "--seed", str(seed)]
    if args.templates is not None:
        make += ["--templates", str(args.templates.resolve())]
    subprocess.run([*make, "--homophily", str(homophily), "--out", str(web)], check=True,
                   capture_output=True)  # fmt: skip
    extra = dict(setting.split("=", 1) for setting in args.also)
    variant = "topiccrawler, " + " ".join(args.also)
    crawlers = ("plain", "topiccrawler", variant) if extra else ("plain", "topiccrawler")
    results: dict[str, list[dict]] = {crawler: [] for crawler in crawlers}
    for round_ in range(args.rounds):
        for crawler in crawlers:
            folder = workdir / f"{'variant' if crawler == variant else crawler}-{round_}"
            r = run(crawler, web, folder, args.pages, False, extra if crawler == variant else None)
            results[crawler].append(r)
            workers = (
                f", {r['workers_ms_page']:.1f} of it in workers" if "workers_ms_page" in r else ""
            )
            print(f"round {round_ + 1}: {crawler}: {r['fetches']} fetches, "
                  f"{r['fetches_s']:.1f}/s, {r['cpu_ms_page']:.1f} ms CPU/page{workers}", file=sys.stderr)  # fmt: skip
    profiles = {}
    if args.profile:
        for crawler in ("plain", "topiccrawler"):
            folder = workdir / f"{crawler}-profile"
            profiles[crawler] = run(crawler, web, folder, args.pages, True)["components"]
    title = (
        f"web: testbed seed {seed}, H={homophily}{', --templates' if args.templates else ''};"
        f" --pages {args.pages}; {args.rounds} rounds"
    )
    report(results, profiles, title)
    plain = statistics.mean(r["fetches_s"] for r in results["plain"])
    return {
        crawler: statistics.mean(r["fetches_s"] for r in rounds) / plain
        for crawler, rounds in results.items()
        if crawler != "plain"
    }


if __name__ == "__main__":
    sys.exit(main())
