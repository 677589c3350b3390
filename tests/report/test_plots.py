"""The report's plots draw Chinese: with a matplotlib font cache built before the CJK font was
installed (the font is then found by its file), and with no CJK font at all (the text is left
as SVG text for the browser). One log line at most, no warning per missing glyph."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

from tests.conftest import ROOT, need_service
from topiccrawler.report.plots import cjk_font_files

LABELS = ["增值税发票", "个人所得税", "Tax 2026"]

# Draws one plot of Chinese labels with the report's code and prints its SVG; the logging of
# topiccrawler goes to stderr, as the CLI's does.
DRAW = """
import base64, logging, sys
logging.basicConfig(level=logging.INFO, stream=sys.stderr, format="LOG %(levelname)s %(message)s")
from topiccrawler.report import plots
if sys.argv[1] == "no-cjk-font":
    plots.cjk_font_files = lambda: []
uri = plots.bars(sys.argv[2:], {"pages": [3, 2, 1]}, "pages")
sys.stdout.write(base64.b64decode(uri.split(",", 1)[1]).decode("utf-8"))
"""


def run(script: str, mplconfig: Path, *args: str, **env: str) -> subprocess.CompletedProcess:
    environment = {**os.environ, "MPLCONFIGDIR": str(mplconfig)}
    environment.pop("MPL_IGNORE_SYSTEM_FONTS", None)
    environment.update(env)
    return subprocess.run(
        [sys.executable, "-W", "default", "-c", script, *args],
        cwd=ROOT, env=environment, capture_output=True, text=True, timeout=300, check=True,
    )  # fmt: skip


def stale_cache(mplconfig: Path) -> list[str]:
    """Build matplotlib's font cache as it was before any system font was installed (only the
    fonts matplotlib ships); the family names it lists."""
    run("import matplotlib.font_manager", mplconfig, MPL_IGNORE_SYSTEM_FONTS="1")
    (cache,) = mplconfig.glob("fontlist-v*.json")
    return [entry["name"] for entry in json.loads(cache.read_text())["ttflist"]]


def glyphs(svg: str) -> dict[str, set[str]]:
    """The glyphs the SVG draws, by font: matplotlib names each glyph's path
    `<font's PostScript name>-<glyph index in hex>`, index 0 being the font's box for "no glyph"."""
    found: dict[str, set[str]] = {}
    for ident in re.findall(r'<path id="([^"]+)-([0-9a-f]+)"', svg):
        found.setdefault(ident[0], set()).add(ident[1])
    return found


def test_a_font_cache_older_than_the_cjk_font(tmp_path):
    if not cjk_font_files():
        need_service("a CJK font", "apt-get install -y fonts-noto-cjk")
    names = stale_cache(tmp_path)
    assert names and not any("CJK" in name or "Hei" in name for name in names)
    drawn = run(DRAW, tmp_path, "cache-without-cjk", *LABELS)
    assert "missing from font" not in drawn.stderr and "Glyph" not in drawn.stderr
    logged = [line for line in drawn.stderr.splitlines() if line.startswith("LOG")]
    assert len(logged) == 1 and "lists no CJK font: added" in logged[0], drawn.stderr
    drawn_glyphs = glyphs(drawn.stdout)
    cjk = {font: found for font, found in drawn_glyphs.items() if "DejaVu" not in font}
    chinese = {char for text in LABELS for char in text if ord(char) > 0x2E80}
    assert len(cjk) == 1 and len(next(iter(cjk.values()))) == len(chinese), drawn_glyphs
    assert "0" not in drawn_glyphs["DejaVuSans"]  # no box drawn
    assert "<text" not in drawn.stdout  # glyphs drawn as paths


def test_no_cjk_font_at_all_leaves_the_text_to_the_browser(tmp_path):
    stale_cache(tmp_path)
    drawn = run(DRAW, tmp_path, "no-cjk-font", *LABELS)
    assert "missing from font" not in drawn.stderr and "Glyph" not in drawn.stderr
    logged = [line for line in drawn.stderr.splitlines() if line.startswith("LOG")]
    assert len(logged) == 1 and "No CJK font found" in logged[0], drawn.stderr
    svg = drawn.stdout
    for text in LABELS:
        assert f">{text}</text>" in svg
    assert "font-family: 'DejaVu Sans', 'Noto Sans CJK SC'" in svg
    assert "sans-serif" in svg.split("font-family:", 1)[1].split(";", 1)[0]


def test_hostile_labels_stay_text_in_svg_text(tmp_path):
    """Left as SVG text, a label is still text: escaped, never markup."""
    stale_cache(tmp_path)
    drawn = run(DRAW, tmp_path, "no-cjk-font", "<script>alert(1)</script>", "a&b", "税")
    assert "<script>" not in drawn.stdout
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in drawn.stdout and "a&amp;b" in drawn.stdout
