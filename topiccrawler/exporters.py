"""Feed exporters for crawled text that a person opens in a spreadsheet.

A cell that starts with `=`, `+`, `-` or `@` is a formula to Excel, LibreOffice and Google
Sheets (`=HYPERLINK(...)`, `=cmd|' /C calc'!A0`): a page title chosen by a stranger would run
when the export is opened. Such a cell is written with a leading apostrophe, which spreadsheets
show as text (OWASP's advice for CSV injection); numbers stay numbers.
"""

from __future__ import annotations

from typing import Any

from scrapy.exporters import CsvItemExporter

# Fullwidth forms too: spreadsheets in CJK locales read them as the ASCII ones.
FORMULA_STARTS = frozenset("=+-@\uff1d\uff0b\uff0d\uff20")


def neutralise_formula(value: str) -> str:
    """`=1+1` → `'=1+1`; text that cannot start a formula is returned unchanged."""
    if value[:1] in ("\t", "\r") or value.lstrip()[:1] in FORMULA_STARTS:
        return "'" + value
    return value


class FormulaSafeCsvItemExporter(CsvItemExporter):
    """Scrapy's CSV exporter (FEEDS format `csv`), with no cell able to start a formula."""

    def serialize_field(self, field: Any, name: str, value: Any) -> Any:
        serialized = super().serialize_field(field, name, value)
        return neutralise_formula(serialized) if isinstance(serialized, str) else serialized
