"""`topiccrawler topics new NAME`: a keyword file and a seed file to edit, commented, that load
and validate as written (one placeholder term, Bing as the search engine), so the first crawl of
a new topic runs before the user has written a word."""

from __future__ import annotations

from pathlib import Path

KEYWORDS_TEMPLATE = """\
# Keyword library of the topic '{name}': the words a relevant page uses.
# Edit the terms, then check the files with `topiccrawler topics`.
# Format: "term" = ["synonym", ...]. A word may appear only once in the whole file.
# Every term is also a search query (see seeds/{name}.toml).

[topic]
title = "{title}"                # shown in reports
language = "{language}"                  # zh, en or mixed
threshold = "auto"               # η: pages scoring below are stored without their text and their
                                 # links wait; "auto" estimates it from the crawl's own scores
                                 # (write a number, e.g. 0.04, to fix it)

# Who: the authorities, organisations and people the topic is about.
[subjects]
"{term}" = []                    # a placeholder: replace it with the topic's own words

# What: the things, procedures and instruments of the topic.
[domain_terms]
# {domain_example}

# What makes a page worth keeping: events, decisions, changes.
[judgement_words]
# {judgement_example}
"""

SEEDS_TEMPLATE = """\
# Seeds of the topic '{name}': where the crawl starts.
# Check with `topiccrawler topics`; crawl with `scrapy crawl topic -a topic={name}`.

# Authority sites are crawled deeply (same-site links, a depth limit, a page budget).
# Add one [[authority]] table per site:
# [[authority]]
# name = "An authority site"
# start_urls = ["https://www.example.org/"]
# allowed_domains = ["example.org"]  # default: the hosts of start_urls
# depth_limit = 3
# max_pages = 1000

[search]
engines = ["bing"]                   # every term of keywords/{name}.toml is searched on each
# target_sites = ["gov.cn"]          # every query again as "… site:gov.cn"
pages_per_query = 1

[engines.bing]                       # Bing's result pages: needs no server of yours
type = "bing"
{bing_options}
# A SearXNG of your own is the robust choice for long crawls; add "searxng" to engines above.
# [engines.searxng]
# type = "searxng"
# url = "http://127.0.0.1:8888/search"
"""

SCRAPY_CFG = """\
# Scrapy project file: `scrapy crawl topic -a topic=NAME` from this folder.
[settings]
default = topiccrawler.settings
"""


# The commented examples of each term class, in the topic's language.
EXAMPLES = {
    "zh": ('"增值税" = ["增值税专用发票", "进项税额"]', '"处罚" = ["罚款", "行政处罚"]'),
    "en": ('"value added tax" = ["VAT", "sales tax"]', '"penalty" = ["fine", "sanction"]'),
    "mixed": ('"增值税" = ["VAT", "增值税专用发票"]', '"处罚" = ["罚款", "penalty"]'),
}


class StarterExists(FileExistsError):
    """A file the starter would write is there already; nothing was written."""


def write_starter(
    name: str, keywords_dir: Path, seeds_dir: Path, language: str = "zh"
) -> list[Path]:
    """Write keywords/<name>.toml and seeds/<name>.toml (and a scrapy.cfg beside them when the
    folder has none, so `scrapy crawl` finds the project); returns the files written."""
    keywords = keywords_dir / f"{name}.toml"
    seeds = seeds_dir / f"{name}.toml"
    existing = [str(p) for p in (keywords, seeds) if p.exists()]
    if existing:
        raise StarterExists(f"not overwriting {', '.join(existing)}")
    term = name.replace("-", " ").replace("_", " ").strip() or name
    bing_options = (
        'url = "https://cn.bing.com/search"   # Bing\'s Chinese front end\nmarket = "zh-CN"\n'
        if language != "en"
        else ""
    )
    keywords_dir.mkdir(parents=True, exist_ok=True)
    seeds_dir.mkdir(parents=True, exist_ok=True)
    domain_example, judgement_example = EXAMPLES[language]
    keywords.write_text(
        KEYWORDS_TEMPLATE.format(
            name=name,
            title=term,
            language=language,
            term=term,
            domain_example=domain_example,
            judgement_example=judgement_example,
        ),
        encoding="utf-8",
    )
    seeds.write_text(SEEDS_TEMPLATE.format(name=name, bing_options=bing_options), encoding="utf-8")
    written = [keywords, seeds]
    cfg = keywords_dir.parent / "scrapy.cfg"
    if keywords_dir.parent == seeds_dir.parent and not _in_project(keywords_dir.parent):
        cfg.write_text(SCRAPY_CFG, encoding="utf-8")
        written.append(cfg)
    return written


def _in_project(folder: Path) -> bool:
    return any((p / "scrapy.cfg").is_file() for p in (folder, *folder.parents))
