"""`topiccrawler report`: one self-contained HTML briefing of a topic's crawl (专题简报)."""

from topiccrawler.report.data import ReportData, gather
from topiccrawler.report.html import render

__all__ = ["ReportData", "gather", "render"]
