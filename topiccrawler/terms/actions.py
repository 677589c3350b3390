"""What `topiccrawler terms …` does (the command line: cli/terms.py): grow a topic's library
(SPEC §6), always through a person's review.

terms list TOPIC                 the library: terms, synonyms, accepted expansions
terms expand TOPIC               propose candidates: Cilin synonyms, words of each term's
                                 stored search results, words of the most relevant pages
terms bootstrap TOPIC --site URL crawl a site and propose its most frequent content words
terms review TOPIC               decide at the terminal
terms review TOPIC --export F    write the queue to a file for an editor
terms review TOPIC --apply F     merge the edited file back
"""

from __future__ import annotations

import sys
from collections import Counter

from scrapy.crawler import CrawlerProcess
from scrapy.settings import Settings

from topiccrawler.relevance.expansion import mined_candidates, thesaurus_candidates
from topiccrawler.relevance.library import ConceptLibrary
from topiccrawler.storage.terms import accepted_expansions, propose
from topiccrawler.terms.collect import (
    bootstrap_candidates,
    kept_page_texts,
    search_result_texts,
)
from topiccrawler.terms.review import (
    apply_file,
    export_queue,
    review_interactively,
)
from topiccrawler.terms.site_crawl import BootstrapSpider

FEEDBACK_PAGES = 50  # most relevant stored pages mined by `terms expand`


def _library(topic, session) -> ConceptLibrary:
    return ConceptLibrary.extended(topic.keywords, accepted_expansions(session, topic.name))


def _report(topic: str, proposed: list, added: int) -> None:
    by_source = Counter(c.provenance.split(":", 1)[0] for c in proposed)
    sources = ", ".join(f"{n} from {s}" for s, n in sorted(by_source.items())) or "none"
    print(f"{added} new candidates for '{topic}' ({sources}; {len(proposed) - added} seen before)")
    if added:
        print(f"review them: topiccrawler terms review {topic}")


def do_list(args, settings, topic, session) -> int:
    library = _library(topic, session)
    by_concept: dict[str, list[str]] = {}
    for word, concept in library.words.items():
        if word != concept:
            by_concept.setdefault(concept, []).append(f"{word} ({library.provenance[word]})")
    for concept, term_class in library.concept_class.items():
        origin = library.provenance[concept]
        print(
            f"{term_class:16} {concept} [{origin}]: {', '.join(by_concept.get(concept, [])) or '-'}"
        )
    print(f"{len(library.concept_class)} concepts, {len(library)} words")
    return 0


def do_expand(args, settings, topic, session) -> int:
    library = _library(topic, session)
    proposed = [] if args.no_thesaurus else thesaurus_candidates(library)
    searched = 0
    for term in topic.keywords.terms:
        texts = search_result_texts(session, topic.name, term.text, args.top_l)
        searched += bool(texts)
        proposed += mined_candidates(library, term.text, texts, top_n=args.top_n)
    feedback = kept_page_texts(session, topic.name, FEEDBACK_PAGES)
    proposed += bootstrap_candidates(library, feedback, "crawl", top_n=args.top_n)
    if not searched:
        print(
            f"note: no stored search results for '{topic.name}' terms yet: crawl first "
            f"(scrapy crawl topic -a topic={topic.name}) to mine them",
            file=sys.stderr,
        )
    _report(topic.name, proposed, propose(session, topic.name, proposed))
    return 0


def do_bootstrap(args, settings, topic, session) -> int:
    if not args.site:
        print("terms bootstrap needs --site URL", file=sys.stderr)
        return 2
    texts = crawl_site(settings, args.site, args.max_pages)
    print(f"crawled {len(texts)} pages of {args.site}")
    proposed = bootstrap_candidates(
        _library(topic, session), texts, f"bootstrap:{args.site}", top_n=args.top_n * 5
    )
    _report(topic.name, proposed, propose(session, topic.name, proposed))
    return 0 if texts else 1


def crawl_site(settings: Settings, site: str, max_pages: int) -> list[str]:
    """Run the bootstrap spider to the end and return its page texts."""
    process = CrawlerProcess(settings, install_root_handler=False)
    crawler = process.create_crawler(BootstrapSpider)
    process.crawl(crawler, site=site, max_pages=max_pages)
    process.start()
    return crawler.spider.texts if crawler.spider else []


def do_review(args, settings, topic, session) -> int:
    if args.export:
        with args.export.open("w", encoding="utf-8") as out:
            n = export_queue(session, topic.name, out)
        print(f"wrote {n} candidates to {args.export}; mark them, then --apply {args.export}")
        return 0
    if args.apply:
        counts = apply_file(session, topic.name, args.apply)
    else:
        counts = review_interactively(session, topic.name, input, print)
    print(", ".join(f"{n} {what}" for what, n in counts.items()))
    return 0


ACTIONS = {"list": do_list, "expand": do_expand, "bootstrap": do_bootstrap, "review": do_review}
