"""Briefing benchmark: crawl the sandbox, brief its pages, build the report, and draw it.

    .venv/bin/python benchmarks/report.py [--size small|medium|large] [--out benchmarks/out]

Prints the cost of the briefing per page (keywords, summary and entities over the stored pages,
beside the extraction of the same pages for scale), the time to gather and render the report,
its size, and writes OUT/report.html and OUT/report.png (Debian's Chromium, headless) so the
report can be looked at. `--readme PNG` also writes a small crop of the screenshot for the README.
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from sqlalchemy import select

ROOT = Path(__file__).resolve().parents[1]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--size", choices=("small", "medium", "large"), default="small")
    parser.add_argument("--out", type=Path, default=ROOT / "benchmarks" / "out")
    parser.add_argument("--readme", type=Path, help="also write a small PNG crop here")
    args = parser.parse_args()
    args.out.mkdir(parents=True, exist_ok=True)

    from scrapy.utils.project import get_project_settings

    from topiccrawler.briefing import brief
    from topiccrawler.extract.page import extract_page
    from topiccrawler.relevance.tokenizer import Tokenizer
    from topiccrawler.render.handler import browser_path
    from topiccrawler.report import gather, render
    from topiccrawler.storage import Database
    from topiccrawler.storage.models import Page
    from topiccrawler.topics.registry import load_topic_from_settings

    with tempfile.TemporaryDirectory() as work:
        db_path = Path(work) / "demo.db"
        started = time.perf_counter()
        subprocess.run(
            [sys.executable, "-m", "topiccrawler.cli", "demo", "--size", args.size,
             "--db", str(db_path), "--port", "0"],
            check=True, cwd=ROOT, capture_output=True, text=True,
        )  # fmt: skip
        print(f"sandbox crawl ({args.size}): {time.perf_counter() - started:.1f} s")
        database = Database(f"sqlite:///{db_path}")
        topic = load_topic_from_settings(get_project_settings(), "tax")
        terms = topic.keywords.all_words
        tokenizer = Tokenizer(terms)
        with database.session() as session:
            pages = session.scalars(select(Page).where(Page.body.is_not(None))).all()
            brief_ms, extract_ms = [], []
            for page in pages:
                t = time.perf_counter()
                brief(page.title, page.body, tokenizer, terms)
                brief_ms.append(1000 * (time.perf_counter() - t))
                html = f"<html><head><title>{page.title}</title></head><body><p>" + (
                    page.body.replace("\n", "</p><p>") + "</p></body></html>"
                )
                t = time.perf_counter()
                extract_page(html)
                extract_ms.append(1000 * (time.perf_counter() - t))
            print(
                f"briefing of {len(pages)} stored pages: median {statistics.median(brief_ms):.2f} ms"
                f" (mean {statistics.mean(brief_ms):.2f}); extract_page of the same text"
                f" {statistics.median(extract_ms):.2f} ms"
                f" ({statistics.median(brief_ms) / statistics.median(extract_ms):.2f}x)"
            )
            t = time.perf_counter()
            data = gather(session, "tax")
            gathered = time.perf_counter() - t
            t = time.perf_counter()
            page_html = render(data)
            rendered = time.perf_counter() - t
        database.dispose()
    html_path = args.out / "report.html"
    html_path.write_text(page_html, encoding="utf-8")
    print(
        f"report: gathered in {gathered:.2f} s, rendered (6 plots) in {rendered:.2f} s,"
        f" {len(page_html.encode()) // 1024} KB; {data.pages} pages, {len(data.stories)} stories"
    )
    browser = browser_path()
    if not browser:
        print("chromium not found (apt-get install -y chromium): no screenshot")
        return 0
    png = args.out / "report.png"
    subprocess.run(
        [browser, "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars",
         f"--screenshot={png}", "--window-size=1200,3000", html_path.resolve().as_uri()],
        check=True, capture_output=True,
    )  # fmt: skip
    print(f"screenshot: {png}")
    if args.readme:
        from PIL import Image

        with Image.open(png) as image:
            crop = image.crop((0, 0, 1200, 1500)).resize((720, 900))
            crop.convert("P", palette=Image.Palette.ADAPTIVE, colors=64).save(
                args.readme, optimize=True
            )
        print(f"README crop: {args.readme} ({args.readme.stat().st_size // 1024} KB)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
