"""No network call but the crawl's own.

Scrapy's cookie middleware asks tldextract whether a cookie's domain is a public suffix, and
tldextract's default downloads the Public Suffix List from publicsuffix.org on first use: a
request nobody configured, made outside Scrapy's downloader, and a traceback on a machine
without internet. This extension points the cookie middleware at the snapshot of the list that
ships inside tldextract (no fetch, no cache file). PUBLIC_SUFFIX_LIST_FETCH = True restores
tldextract's default.
"""

from __future__ import annotations

from scrapy.crawler import Crawler
from scrapy.downloadermiddlewares import cookies
from scrapy.exceptions import NotConfigured
from tldextract import TLDExtract


class BundledSuffixList:
    @classmethod
    def from_crawler(cls, crawler: Crawler) -> BundledSuffixList:
        if crawler.settings.getbool("PUBLIC_SUFFIX_LIST_FETCH"):
            raise NotConfigured("tldextract may fetch the Public Suffix List")
        use_bundled_suffix_list()
        return cls()


def use_bundled_suffix_list() -> None:
    """Replace the cookie middleware's TLDExtract with one that never fetches. Scrapy keeps it in
    a private module global (scrapy.http.cookies._split_domain) and has no setting for it."""
    cookies._split_domain = TLDExtract(
        cache_dir=None, suffix_list_urls=(), include_psl_private_domains=True
    )
