"""What the hostile-input guards cost, beside the extraction they sit next to.

    nice .venv/bin/python benchmarks/guard.py [--sizes small medium]

Pages: ../shared/bench/body (zh-dev, en-dev), ../shared/bench/records and the sandbox web.
Per page, one process: `extract_page` (what the item path does anyway) against
`drop_html_controls` on the source plus `make_inert` on the extracted fields (what the guard
adds), as medians and the ratio. Per URL: the address classification of every link of those
pages (host normalised in all its forms, then classified; no resolution, which the crawl pins
once per name).
"""

from __future__ import annotations

import argparse
import statistics
import time
from pathlib import Path

from lxml import html as lxml_html

from topiccrawler.extract.encoding import decode_html
from topiccrawler.extract.page import extract_page
from topiccrawler.guard.addresses import InvalidHost, parse_host, refusal
from topiccrawler.guard.text import drop_html_controls, make_inert

SHARED = Path(__file__).resolve().parents[2] / "shared" / "bench"


def pages(sizes: list[str]) -> dict[str, list[str]]:
    found: dict[str, list[str]] = {}
    for folder in ("body/zh-dev", "body/en-dev", "records"):
        files = sorted((SHARED / folder).rglob("*.html"))
        if files:
            found[folder] = [decode_html(f.read_bytes())[1] for f in files]
    from topiccrawler.sandbox.web import build_web

    for size in sizes:
        web = build_web(1, size)
        texts = []
        for resource in web.resources.values():
            body = getattr(resource, "body", None)
            if isinstance(body, bytes) and b"<html" in body[:2000].lower():
                texts.append(decode_html(body)[1])
        found[f"sandbox {size}"] = texts
    return found


def timed(function, *args) -> tuple[float, object]:
    started = time.perf_counter()
    result = function(*args)
    return time.perf_counter() - started, result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--sizes", nargs="*", default=["small"], help="sandbox web sizes")
    args = parser.parse_args()
    print("| pages | n | extract_page ms (median) | guard ms (median) | guard / extract |")
    print("|---|---|---|---|---|")
    links: list[str] = []
    for name, texts in pages(args.sizes).items():
        extract_ms, guard_ms = [], []
        for text in texts:
            cost, clean = timed(drop_html_controls, text)
            spent, content = timed(extract_page, clean)
            inert, _ = timed(make_inert, content)
            extract_ms.append(spent * 1000)
            guard_ms.append((cost + inert) * 1000)
            try:
                links += lxml_html.fromstring(text).xpath("//a/@href")
            except Exception:  # noqa: BLE001 (an unparsable page has no links to count)
                pass
        e, g = statistics.median(extract_ms), statistics.median(guard_ms)
        total = sum(guard_ms) / sum(extract_ms)
        print(f"| {name} | {len(texts)} | {e:.2f} | {g:.3f} | {g / e:.4f} (total {total:.4f}) |")

    hosts = [h for h in (_host(u) for u in links) if h]
    started = time.perf_counter()
    refused = 0
    for host in hosts:
        try:
            parsed = parse_host(host)
        except InvalidHost:
            refused += 1
            continue
        refused += parsed.address is not None and refusal(parsed.address) is not None
    seconds = time.perf_counter() - started
    print(
        f"\naddress classification: {len(hosts)} link hosts, "
        f"{seconds / max(len(hosts), 1) * 1e6:.2f} µs each ({refused} internal literals)"
    )


def _host(url: str) -> str | None:
    from urllib.parse import urlsplit

    try:
        return urlsplit(url).hostname
    except ValueError:
        return None


if __name__ == "__main__":
    main()
