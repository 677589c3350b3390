"""No network call but the crawl's: the cookie middleware's public-suffix test uses the list
bundled with tldextract. (The demo test checks the whole crawl with a socket guard.)"""

from __future__ import annotations

import socket

import pytest
from scrapy.downloadermiddlewares import cookies
from scrapy.exceptions import NotConfigured
from scrapy.utils.test import get_crawler

from topiccrawler.extensions.offline import BundledSuffixList


def test_public_suffixes_are_known_without_a_download(monkeypatch):
    BundledSuffixList.from_crawler(get_crawler(settings_dict={"PUBLIC_SUFFIX_LIST_FETCH": False}))

    def no_network(*args, **kwargs):
        raise AssertionError("a network call")

    monkeypatch.setattr(socket, "getaddrinfo", no_network)
    monkeypatch.setattr(socket.socket, "connect", no_network)
    assert cookies._split_domain.suffix_list_urls == ()
    assert cookies._is_public_domain("gov.cn") and cookies._is_public_domain("com.cn")
    assert not cookies._is_public_domain("www.chinatax.gov.cn")
    assert cookies._is_public_domain("github.io")  # the list's private part too, as Scrapy asks


def test_fetching_the_list_can_be_allowed():
    with pytest.raises(NotConfigured):
        BundledSuffixList.from_crawler(
            get_crawler(settings_dict={"PUBLIC_SUFFIX_LIST_FETCH": True})
        )
