"""URL identity: tracking parameters removed, canonical form, hosts within domains."""

from __future__ import annotations

from topiccrawler.urls import canonical_url, host_in_domains, strip_tracking, url_hash


def test_tracking_parameters_are_removed_and_the_rest_kept_in_order():
    url = "http://news.test/a.shtml?id=7&from=related&spm=a1.b2&utm_source=wx&page=2#top"
    assert strip_tracking(url) == "http://news.test/a.shtml?id=7&page=2"
    assert strip_tracking("http://news.test/a.shtml?UTM_Medium=x") == "http://news.test/a.shtml"


def test_a_url_without_tracking_is_left_as_it_is():
    assert strip_tracking("http://news.test/a.shtml") == "http://news.test/a.shtml"
    assert strip_tracking("http://news.test/a?q=税") == "http://news.test/a?q=%E7%A8%8E"


def test_the_parameter_list_is_the_callers():
    url = "http://news.test/a?from=home&ref=x"
    assert strip_tracking(url, ["ref"]) == "http://news.test/a?from=home"
    assert strip_tracking(url, []) == url


def test_one_page_one_hash_however_it_was_linked():
    plain = "http://news.test/a.shtml?b=2&a=1"
    linked = strip_tracking("http://News.test/a.shtml?a=1&from=list&b=2")
    assert url_hash(linked) == url_hash(plain)
    assert canonical_url(linked) == "http://news.test/a.shtml?a=1&b=2"


def test_hosts_within_domains_ignore_ports():
    assert host_in_domains("http://127.0.0.1:8080/s3/", ["127.0.0.1"])
    assert not host_in_domains("http://evil-example.com/", ["example.com"])
