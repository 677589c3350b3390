"""The report's plots: matplotlib to SVG, each embedded as an <img> data URI (an SVG shown as an
image runs no script and loads nothing, whatever text it carries). Glyphs are drawn as paths, so
Chinese shows without a CJK font on the reader's machine; drawing it needs one here (Debian's
fonts-noto-cjk), found by name, else the text falls back to DejaVu and a warning is logged."""

from __future__ import annotations

import base64
import io
import logging
import re
from collections.abc import Sequence
from datetime import date, datetime
from functools import cache

import matplotlib

matplotlib.use("Agg")  # no display: files only

from matplotlib import font_manager, pyplot  # noqa: E402

from topiccrawler.guard.text import drop_controls  # noqa: E402

logger = logging.getLogger(__name__)

CJK_FAMILIES = ("Noto Sans CJK SC", "Noto Sans CJK JP", "Noto Serif CJK SC", "WenQuanYi Zen Hei",
                "Droid Sans Fallback", "AR PL UMing CN")  # fmt: skip
LABEL_CHARS = 28  # labels longer than this are cut with an ellipsis
COLOURS = ("#2b6cb0", "#c05621", "#2f855a", "#6b46c1", "#b7791f")
_COMMENT = re.compile(rb"<!--.*?-->", re.S)


@cache
def font_families() -> tuple[str, ...]:
    """DejaVu first (Latin and digits), then the first CJK family installed, for Chinese."""
    installed = {f.name for f in font_manager.fontManager.ttflist}
    cjk = next((name for name in CJK_FAMILIES if name in installed), None)
    if cjk is None:
        logger.warning(
            "No CJK font found (install fonts-noto-cjk): Chinese in plots shows as boxes"
        )
        return ("DejaVu Sans",)
    return ("DejaVu Sans", cjk)


def label(text: str | None) -> str:
    """Crawled text as a plot label: controls out, dollar signs literal (matplotlib would read
    them as TeX), cut to LABEL_CHARS."""
    text = " ".join(drop_controls(text or "").split()).replace("$", r"\$")
    return text if len(text) <= LABEL_CHARS else text[: LABEL_CHARS - 1] + "…"


class Figure:
    """A figure drawn in a context of its own (no global matplotlib state is changed)."""

    def __init__(self, width: float = 7.0, height: float = 3.2):
        self.context = matplotlib.rc_context(
            {"font.family": list(font_families()), "svg.fonttype": "path", "font.size": 9,
             "axes.spines.top": False, "axes.spines.right": False, "svg.hashsalt": "topiccrawler"}
        )  # fmt: skip
        self.size = (width, height)

    def __enter__(self):
        self.context.__enter__()
        self.figure, self.axes = pyplot.subplots(figsize=self.size)
        return self.figure, self.axes

    def __exit__(self, *exc) -> None:
        try:
            if exc[0] is None:
                self.figure.tight_layout()
                buffer = io.BytesIO()
                self.figure.savefig(buffer, format="svg")
                self.svg = _COMMENT.sub(b"", buffer.getvalue())
        finally:
            pyplot.close(self.figure)
            self.context.__exit__(*exc)

    @property
    def data_uri(self) -> str:
        return "data:image/svg+xml;base64," + base64.b64encode(self.svg).decode("ascii")


def harvest(points: Sequence[tuple[int, float]]) -> str:
    plot = Figure()
    with plot as (_, axes):
        axes.plot([n for n, _ in points], [rate for _, rate in points], color=COLOURS[0])
        axes.set_xlabel("pages judged")
        axes.set_ylabel("harvest rate so far")
        axes.set_ylim(0, 1)
        axes.grid(alpha=0.3)
    return plot.data_uri


def scores(
    kept: Sequence[float], dropped: Sequence[float], threshold: float | None, how: str = ""
) -> str:
    """The scores of kept and dropped pages, stacked on a log scale (the two groups lie an
    order of magnitude apart), with η; pages scoring zero are left out (they are counted in the
    text beside the plot)."""
    import numpy as np

    plot = Figure()
    with plot as (_, axes):
        positive = [s for s in (*kept, *dropped) if s > 0]
        if positive:
            low, high = min(positive), max(positive)
            bins = np.geomspace(low, high * 1.0001, 31) if high > low else 10
            axes.hist(
                [[s for s in kept if s > 0], [s for s in dropped if s > 0]],
                bins=bins, stacked=True, color=[COLOURS[0], COLOURS[2]],
                label=["kept", "dropped"],
            )  # fmt: skip
            if high > low:
                axes.set_xscale("log")
        if threshold:
            label = f"η = {threshold:.4f}" + (f" ({how})" if how else "")
            axes.axvline(threshold, color=COLOURS[1], linestyle="--", label=label)
        axes.legend()
        axes.set_xlabel("relevance score")
        axes.set_ylabel("pages")
    return plot.data_uri


def bars(names: Sequence[str], series: dict[str, Sequence[float]], xlabel: str) -> str:
    """Horizontal bars, one row per name (first at the top), one colour per series."""
    plot = Figure(height=max(2.2, 0.28 * len(names) + 0.9))
    with plot as (_, axes):
        rows = range(len(names))
        height = 0.8 / max(1, len(series))
        for index, (name, values) in enumerate(series.items()):
            axes.barh([r + index * height for r in rows], values, height=height,
                      color=COLOURS[index % len(COLOURS)], label=name)  # fmt: skip
        axes.set_yticks([r + height * (len(series) - 1) / 2 for r in rows])
        axes.set_yticklabels([label(n) for n in names])
        axes.invert_yaxis()
        axes.set_xlabel(xlabel)
        if len(series) > 1:
            axes.legend()
    return plot.data_uri


def per_day(days: dict[date, tuple[int, int]]) -> str:
    plot = Figure()
    with plot as (figure, axes):
        when = list(days)
        axes.bar(when, [c for c, _ in days.values()], color=COLOURS[0], label="comments")
        axes.bar(when, [p for _, p in days.values()], bottom=[c for c, _ in days.values()],
                 color=COLOURS[1], label="forum posts")  # fmt: skip
        axes.set_ylabel("per day")
        axes.legend()
        figure.autofmt_xdate()
    return plot.data_uri


def spread(stories: Sequence[tuple[str, Sequence[tuple[datetime, str, bool]]]]) -> str:
    """Each story a row; each of its pages a point at its time, the first publisher filled."""
    plot = Figure(height=max(2.2, 0.4 * len(stories) + 1.0))
    with plot as (figure, axes):
        for row, (_, pages) in enumerate(stories):
            for when, _, first in pages:
                axes.plot([when], [row], marker="o", markersize=7 if first else 5,
                          color=COLOURS[1] if first else COLOURS[0],
                          fillstyle="full" if first else "none", linestyle="")  # fmt: skip
        axes.set_yticks(range(len(stories)))
        axes.set_yticklabels([label(title) for title, _ in stories])
        axes.invert_yaxis()
        axes.set_xlabel("published (first publisher filled, reposts open)")
        figure.autofmt_xdate()
    return plot.data_uri
