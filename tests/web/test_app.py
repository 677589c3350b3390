"""The web view over a store of our own pages, through Starlette's test client: what each
view shows, that crawled text stays text, and the token beyond loopback."""

from __future__ import annotations

import re

import pytest
from starlette.testclient import TestClient

from tests.web.conftest import HOSTILE
from topiccrawler.web.app import SECURITY_HEADERS, create_app


@pytest.fixture
def client(store):
    return TestClient(create_app(store.database))


def marks(html: str) -> list[str]:
    return re.findall(r"<mark>([^<]*)</mark>", html)


def test_search_lists_hits_with_their_words_marked(client, store):
    answer = client.get("/search", params={"q": "增值税 发票"})
    assert answer.status_code == 200
    assert "增值税发票新规出台" in answer.text
    assert {"增值税", "发票"} <= set(marks(answer.text))
    assert f'href="/pages/{store.article}"' in answer.text


def test_search_filters_and_pages(client):
    answer = client.get("/api/search", params={"q": "发票", "kind": "comment"})
    hits = answer.json()["hits"]
    assert {h["kind"] for h in hits} == {"comment"} and len(hits) == 3
    assert all(h["page_url"] for h in hits)
    answer = client.get("/api/search", params={"q": "发票", "site": "bbs.test"})
    assert [h["kind"] for h in answer.json()["hits"]] == ["post"]
    assert (
        client.get("/api/search", params={"q": "发票", "since": "2030-01-01"}).json()["total"] == 0
    )


def test_a_query_that_cannot_be_searched_says_why(client):
    answer = client.get("/search", params={"q": "-发票"})
    assert answer.status_code == 400 and "only excludes words" in answer.text
    answer = client.get("/api/search", params={"q": "发票", "since": "monday"})
    assert answer.status_code == 400
    assert answer.json() == {"error": "since must be a date as YYYY-MM-DD, not 'monday'"}


def test_a_page_shows_its_comments_with_replies_under_them_posts_and_story(client, store):
    html = client.get(f"/pages/{store.article}").text
    # 老李 answers 小王, and 小王 answers 老李 under that.
    first = html.index("电子发票怎么开？")
    reply = html.index("在电子税务局开。")
    second = html.index("谢谢，发票开好了")
    assert first < reply < second
    assert html.count('<ol class="replies">') == 2
    assert "Its story: 2 pages" in html and f'href="/pages/{store.repost}"' in html
    thread = client.get(f"/pages/{store.thread}").text
    assert thread.index("个人所得税汇算在哪里办？") < thread.index("手机上就能办")
    assert "accepted answer" in thread and "12 votes" in thread
    assert client.get("/pages/999999").status_code == 404


def test_crawled_markup_is_shown_as_text_everywhere(client, store):
    escaped = "&lt;script&gt;alert(&#34;title&#34;)&lt;/script&gt;"
    for path in (f"/pages/{store.hostile}", "/search?q=发票&kind=page&kind=comment&kind=post"):
        answer = client.get(path)
        assert "<script>alert" not in answer.text and "<img src=x" not in answer.text
        assert escaped in answer.text
        for name, value in SECURITY_HEADERS.items():
            assert answer.headers[name] == value
    api = client.get("/api/search", params={"q": "发票评论"}).json()
    assert api["hits"][0]["author"] == HOSTILE  # JSON carries it as a string, for the reader


def test_stories_and_crawls(client, store):
    assert "增值税发票新规出台" in client.get("/stories").text
    crawls = client.get("/crawls").text
    assert crawls.count('<tr class="state-') == 2
    finished = client.get(f"/api/crawls/{store.finished_run}").json()
    assert finished["state"] == "finished" and finished["stored"] == 4
    assert finished["fetched"] == 4 and finished["failures"] == {"HTTP 404": 2}
    running = client.get(f"/api/crawls/{store.running_run}").json()
    assert running["running"] and running["fetched"] == 9 and running["threshold"] == 0.05
    assert 'data-running="yes"' in client.get(f"/crawls/{store.running_run}").text


def test_a_token_is_asked_for_and_kept_in_a_cookie(store):
    client = TestClient(create_app(store.database, token="s3cret"))
    assert client.get("/search").status_code == 401
    answer = client.get("/search?q=发票&token=s3cret", follow_redirects=False)
    assert answer.status_code == 303 and "token" not in answer.headers["location"]
    assert client.get("/search?q=发票").status_code == 200  # the cookie
    other = TestClient(create_app(store.database, token="s3cret"))
    assert (
        other.get("/api/search?q=发票", headers={"Authorization": "Bearer s3cret"}).status_code
        == 200
    )
    assert (
        other.get("/api/search?q=发票", headers={"Authorization": "Bearer nope"}).status_code == 401
    )
