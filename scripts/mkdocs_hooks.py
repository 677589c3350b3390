"""MkDocs hooks (mkdocs.yml `hooks:`): the settings reference is read from
topiccrawler/settings.py at every build (`topiccrawler.settings_reference`), so it lists every
setting with its default and comment as they are now."""

from __future__ import annotations

MARKER = "<!-- settings reference: generated from topiccrawler/settings.py -->"


def on_page_markdown(markdown: str, page, config, files) -> str:
    if MARKER not in markdown:
        return markdown
    from topiccrawler.settings_reference import markdown as settings_markdown

    return markdown.replace(MARKER, settings_markdown())
