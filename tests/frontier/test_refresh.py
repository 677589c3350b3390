"""Rescoring on pop (frontier/refresh.py): the one implementation both schedulers use."""

from __future__ import annotations

from types import SimpleNamespace

from scrapy import Request
from scrapy.settings import Settings
from scrapy.signalmanager import SignalManager
from scrapy.statscollectors import MemoryStatsCollector

from topiccrawler.frontier.refresh import REFRESH_LIMIT, REFRESH_MARGIN, PopRefresh
from topiccrawler.signals import frontier_opened


class Frontier:
    def __init__(self, now: dict[str, int], superseded: set[str] = frozenset()):
        self.now, self.gone, self.taken = now, superseded, []

    def refresh_priority(self, request: Request) -> int | None:
        return self.now.get(request.url)

    def superseded(self, request: Request) -> bool:
        return request.url in self.gone

    def taken_up(self, request: Request) -> None:
        self.taken.append(request.url)


def refresher(frontier: Frontier | None) -> PopRefresh:
    crawler = SimpleNamespace(signals=SignalManager(), stats=None, settings=Settings())
    crawler.stats = MemoryStatsCollector(crawler)
    refresh = PopRefresh(crawler)
    if frontier is not None:
        crawler.signals.send_catch_log(frontier_opened, frontier=frontier)
    return refresh


def queue_of(*requests: Request):
    queue = sorted(requests, key=lambda r: -r.priority)

    def take():
        return (queue.pop(0), "lease") if queue else None

    def requeue(request, token):
        queue.append(request)
        queue.sort(key=lambda r: -r.priority)

    return queue, take, requeue


def test_a_request_whose_priority_fell_goes_back_and_the_next_best_comes_out():
    frontier = Frontier({"http://a.test/": 10, "http://b.test/": 70 - REFRESH_MARGIN})
    refresh = refresher(frontier)
    _, take, requeue = queue_of(
        Request("http://a.test/", priority=90), Request("http://b.test/", priority=70)
    )
    dropped = []
    request, lease = refresh.pop(take, requeue, lambda r, t: dropped.append(r))
    assert request.url == "http://b.test/" and lease == "lease"  # fell by the margin only: out
    assert frontier.taken == ["http://b.test/"]
    request, _ = refresh.pop(take, requeue)
    assert request.url == "http://a.test/" and request.priority == 10  # requeued, then alone
    assert refresh.crawler.stats.get_value("topiccrawler/frontier/requeued") == 1
    assert refresh.pop(take, requeue) is None and dropped == []


def test_a_superseded_request_is_dropped_and_without_a_frontier_nothing_changes():
    frontier = Frontier({}, superseded={"http://a.test/"})
    _, take, requeue = queue_of(
        Request("http://a.test/", priority=90), Request("http://b.test/", priority=70)
    )
    dropped = []
    request, _ = refresher(frontier).pop(take, requeue, lambda r, t: dropped.append(r.url))
    assert request.url == "http://b.test/" and dropped == ["http://a.test/"]

    _, take, requeue = queue_of(Request("http://a.test/", priority=90))
    assert refresher(None).pop(take, requeue)[0].priority == 90


def test_at_most_refresh_limit_requests_go_back_per_pop():
    urls = [f"http://s{i}.test/" for i in range(REFRESH_LIMIT + 5)]
    frontier = Frontier({url: 0 for url in urls})
    queue, take, requeue = queue_of(*(Request(url, priority=100) for url in urls))
    request, _ = refresher(frontier).pop(take, requeue)
    assert request.priority == 100  # handed out as it is, past the limit
    assert len(queue) == REFRESH_LIMIT + 4
    assert sum(r.priority == 0 for r in queue) == REFRESH_LIMIT


def test_a_request_that_cannot_be_scored_again_is_handed_out_as_it_is(caplog):
    class Failing(Frontier):
        def refresh_priority(self, request):
            raise KeyError("topiccrawler_query")

    frontier = Failing({})
    queue, take, requeue = queue_of(Request("http://a.test/", priority=90))
    refresh = refresher(frontier)
    request, lease = refresh.pop(take, requeue)
    assert request.url == "http://a.test/" and request.priority == 90 and lease == "lease"
    assert frontier.taken == ["http://a.test/"] and not queue
    assert refresh.crawler.stats.get_value("topiccrawler/frontier/refresh_errors") == 1
    assert "Could not score http://a.test/ again" in caplog.text
