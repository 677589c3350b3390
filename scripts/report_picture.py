"""Draw docs/report.png from a demo crawl, and record what it shows in docs/report.png.json.

    .venv/bin/python scripts/report_picture.py [--out docs/report.png] [--keep DIR]

Runs `topiccrawler demo` (the console script beside this Python) on a database in a temporary
folder, takes the report the demo writes beside it, screenshots it with Debian's Chromium
(headless) and keeps the top of the page, scaled to 720 × 900, as the picture. The sidecar JSON
holds the counts the picture shows (pages stored and kept) and the report's structure: its
section headings, the kinds of figure (each plot's alt text) and the summary cards' labels, with
a digest of these. A test compares a fresh demo report's structure with
the sidecar (`tests/sandbox/test_demo.py`): when they differ, run this script again.

Needs no import of topiccrawler: the report is read as HTML, the crawl is run as a command.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import shutil
import subprocess
import sys
import tempfile
from html.parser import HTMLParser
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PICTURE = ROOT / "docs" / "report.png"
CHROMIUM_FLAGS = (
    "--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
    "--disable-component-update", "--no-first-run", "--disable-extensions", "--hide-scrollbars",
)  # fmt: skip
SHOT = (1200, 1500)  # the top of the report, as the browser draws it at this width
SIZE = (720, 900)  # the picture, scaled down


class _Outline(HTMLParser):
    """Headings, plots and summary cards of a report, in page order."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.headings: list[str] = []
        self.figures: list[str] = []
        self.cards: dict[str, str] = {}
        self._text: list[str] | None = None  # the text of the element being read
        self._in = ""  # h2, b (a card's value), span (a card's label)
        self._card_value = ""
        self._in_card = False

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        attributes = dict(attrs)
        if tag == "img" and attributes.get("class") == "plot":
            self.figures.append(attributes.get("alt") or "")
        elif tag == "div" and attributes.get("class") == "card":
            self._in_card = True
        elif tag == "h2" or (tag in ("b", "span") and self._in_card):
            self._in, self._text = tag, []

    def handle_data(self, data: str) -> None:
        if self._text is not None:
            self._text.append(data)

    def handle_endtag(self, tag: str) -> None:
        if tag != self._in or self._text is None:
            return
        text = " ".join("".join(self._text).split())
        if tag == "h2":
            self.headings.append(text)
        elif tag == "b":
            self._card_value = text
        elif tag == "span":
            self.cards[text] = self._card_value
            self._card_value, self._in_card = "", False
        self._in, self._text = "", None


def structure(report_html: str) -> dict:
    """What stays the same from one demo crawl to the next: the section headings, the figure
    kinds and the cards' labels, and a digest of them (tables are left out: a section shows a
    table or a line saying it has nothing, by what the crawl met)."""
    outline = _Outline()
    outline.feed(report_html)
    shape = {
        "headings": outline.headings,
        "figures": outline.figures,
        "cards": list(outline.cards),
    }
    return {**shape, "digest": digest(shape)}


def digest(shape: dict) -> str:
    """A short hash of the structure (headings, figures, cards), to compare at a glance."""
    return hashlib.sha256(json.dumps(shape, ensure_ascii=False).encode()).hexdigest()[:16]


def counts(report_html: str) -> dict[str, int]:
    """The summary cards' pages stored and kept (these vary from crawl to crawl)."""
    outline = _Outline()
    outline.feed(report_html)
    return {
        "stored": int(outline.cards["pages stored"]),
        "kept": int(outline.cards["pages kept (relevant)"]),
    }


def sidecar(picture: Path) -> Path:
    return picture.with_name(picture.name + ".json")


def demo_report(folder: Path) -> Path:
    """Crawl the sandbox with `topiccrawler demo` into FOLDER/demo.db; the report it wrote."""
    command = shutil.which("topiccrawler", path=str(Path(sys.executable).parent))
    if command is None:
        sys.exit("topiccrawler is not installed beside this Python: run bash scripts/setup.sh")
    env = {k: v for k, v in os.environ.items() if not k.startswith("TOPICCRAWLER_")}
    env.pop("SCRAPY_SETTINGS_MODULE", None)
    done = subprocess.run(
        [command, "demo", "--db", str(folder / "demo.db"), "--port", "0"],
        cwd=ROOT, env=env, capture_output=True, text=True, timeout=900,
    )  # fmt: skip
    report = folder / "demo-report.html"
    if done.returncode != 0 or not report.is_file():
        sys.exit(f"the demo failed (exit {done.returncode}):\n{done.stdout}\n{done.stderr[-3000:]}")
    return report


def screenshot(report: Path, png: Path) -> None:
    browser = os.environ.get("CHROMIUM", "/usr/bin/chromium")
    if not Path(browser).is_file() and shutil.which(browser) is None:
        sys.exit(f"no Chromium at {browser}: apt-get install chromium fonts-noto-cjk")
    subprocess.run(
        [browser, *CHROMIUM_FLAGS, f"--screenshot={png}", f"--window-size={SHOT[0]},{SHOT[1]}",
         report.resolve().as_uri()],
        check=True, capture_output=True, timeout=120,
    )  # fmt: skip


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--out", type=Path, default=PICTURE, help="the picture (default docs/)")
    parser.add_argument("--keep", type=Path, help="also keep the demo's report and database here")
    args = parser.parse_args()

    from PIL import Image  # Pillow, in the project's dev extra

    with tempfile.TemporaryDirectory(prefix="report-picture-") as work:
        folder = Path(work)
        report = demo_report(folder)
        page = report.read_text(encoding="utf-8")
        shot = folder / "shot.png"
        screenshot(report, shot)
        with Image.open(shot) as image:
            small = image.convert("RGB").resize(SIZE, Image.Resampling.LANCZOS)
            small.convert("P", palette=Image.Palette.ADAPTIVE, colors=64).save(
                args.out, optimize=True
            )
        if args.keep:
            args.keep.mkdir(parents=True, exist_ok=True)
            for name in ("demo-report.html", "demo.db"):
                shutil.copy(folder / name, args.keep / name)
    record = {
        "picture": args.out.name,
        "made_by": "scripts/report_picture.py (topiccrawler demo, the small sandbox web)",
        **counts(page),
        **structure(page),
    }
    sidecar(args.out).write_text(
        json.dumps(record, ensure_ascii=False, indent=2) + "\n", encoding="utf-8"
    )
    print(f"{args.out}: {record['stored']} pages stored, {record['kept']} kept;"
          f" {len(record['headings'])} sections, {len(record['figures'])} figures;"
          f" structure {record['digest']}")  # fmt: skip
    return 0


if __name__ == "__main__":
    sys.exit(main())
