"""The scheduler queue: best-first across sites that have room, fewest active downloads else."""

from __future__ import annotations

from types import SimpleNamespace
from urllib.parse import urlsplit

from scrapy import Request
from scrapy.settings import Settings
from scrapy.signalmanager import SignalManager
from scrapy.squeues import FifoMemoryQueue

from topiccrawler.frontier.queue import BestFirstPriorityQueue


class Downloader:
    def __init__(self):
        self.slots: dict[str, SimpleNamespace] = {}

    def get_slot_key(self, request: Request) -> str:
        return urlsplit(request.url).hostname

    def busy(self, slot: str, active: int, concurrency: int = 2) -> None:
        self.slots[slot] = SimpleNamespace(active=set(range(active)), concurrency=concurrency)


def make_queue() -> tuple[BestFirstPriorityQueue, Downloader]:
    downloader = Downloader()
    crawler = SimpleNamespace(
        engine=SimpleNamespace(downloader=downloader),
        settings=Settings({"CONCURRENT_REQUESTS_PER_DOMAIN": 2, "CONCURRENT_REQUESTS_PER_IP": 0}),
        signals=SignalManager(),
    )
    return BestFirstPriorityQueue(crawler, FifoMemoryQueue, ""), downloader


def test_the_best_request_of_any_site_with_room_goes_first():
    queue, downloader = make_queue()
    for site, priority in [("shop.test", 5), ("tax.test", 90), ("tax.test", 80), ("news.test", 60)]:
        queue.push(Request(f"http://{site}/{priority}", priority=priority))
    assert queue.peek().url == "http://tax.test/90"
    assert [queue.pop().priority for _ in range(2)] == [90, 80]
    downloader.busy("news.test", 2)  # full: its 60 waits although it beats the shop's 5
    assert queue.pop().url == "http://shop.test/5"
    assert queue.pop().url == "http://news.test/60"  # every site full or empty: fewest active
    assert queue.pop() is None and len(queue) == 0


def test_rescore_moves_queued_requests_up_and_down():
    queue, _ = make_queue()
    for site, priority in [("a.test", 50), ("a.test", 40), ("b.test", 30), ("b.test", 10)]:
        queue.push(Request(f"http://{site}/{priority}", priority=priority))
    new = {"http://a.test/50": 5, "http://b.test/10": 90}  # what a refitted model now says

    moved = queue.rescore(lambda request: new.get(request.url))
    assert moved == 2 and len(queue) == 4
    assert [queue.pop().url for _ in range(4)] == [
        "http://b.test/10",
        "http://a.test/40",
        "http://b.test/30",
        "http://a.test/50",
    ]
    assert queue.rescore(lambda request: 1) == 0  # an empty queue stays empty


def test_rescore_works_on_the_disk_queue_of_a_resumable_crawl(tmp_path):
    from scrapy.squeues import PickleFifoDiskQueue

    downloader = Downloader()
    crawler = SimpleNamespace(
        engine=SimpleNamespace(downloader=downloader),
        spider=None,
        settings=Settings({"CONCURRENT_REQUESTS_PER_DOMAIN": 2, "CONCURRENT_REQUESTS_PER_IP": 0}),
        signals=SignalManager(),
    )
    queue = BestFirstPriorityQueue(crawler, PickleFifoDiskQueue, str(tmp_path / "queue"))
    for site, priority in [("a.test", 50), ("a.test", 40), ("b.test", 30)]:
        queue.push(Request(f"http://{site}/{priority}", priority=priority))
    assert queue.rescore(lambda request: 100 if request.url.endswith("30") else None) == 1
    assert [queue.pop().url for _ in range(3)] == [
        "http://b.test/30",
        "http://a.test/50",
        "http://a.test/40",
    ]
    assert queue.close() == {}


def test_drop_worst_keeps_the_best_requests_of_every_site():
    queue, _ = make_queue()
    for site, priority in [("a.test", 50), ("a.test", 5), ("b.test", 30), ("b.test", 10)]:
        queue.push(Request(f"http://{site}/{priority}", priority=priority))
    queue.push(Request("http://c.test/1", priority=1))  # a site all of whose requests go
    dropped = queue.drop_worst(3)
    assert sorted(r.priority for r in dropped) == [1, 5] and len(queue) == 3
    assert "c.test" not in queue.pqueues  # an emptied site leaves no queue behind
    assert [queue.pop().priority for _ in range(3)] == [50, 30, 10]
    assert queue.drop_worst(3) == []  # within the cap: nothing to drop


def test_the_scheduler_forgets_what_it_dropped(tmp_path):
    """Past FRONTIER_MAX_QUEUED the worst requests are dropped and leave the seen filter: a
    link to one of them found later is queued again."""
    from scrapy.utils.test import get_crawler

    from topiccrawler.frontier import scheduler as module
    from topiccrawler.frontier.scheduler import FrontierScheduler

    queue = "topiccrawler.frontier.queue.BestFirstPriorityQueue"

    def crawl(seen_filter: str):
        crawler = get_crawler(
            settings_dict={"FRONTIER_MAX_QUEUED": 2, "SCHEDULER_PRIORITY_QUEUE": queue,
                           "DUPEFILTER_CLASS": seen_filter}
        )  # fmt: skip
        crawler.engine = SimpleNamespace(downloader=Downloader())
        scheduler = FrontierScheduler.from_crawler(crawler)
        scheduler.open(SimpleNamespace(name="test", crawler=crawler))
        every, module.TRIM_EVERY = module.TRIM_EVERY, 1
        try:
            for priority in (30, 20, 10):
                assert scheduler.enqueue_request(
                    Request(f"http://a.test/{priority}", priority=priority)
                )
        finally:
            module.TRIM_EVERY = every
        assert len(scheduler) == 2
        assert crawler.stats.get_value("topiccrawler/frontier/dropped_worst") == 1
        return scheduler

    scheduler = crawl("topiccrawler.frontier.seen.ForgettingDupeFilter")  # the project's
    assert scheduler.enqueue_request(Request("http://a.test/10", priority=10))  # not seen any more
    assert not scheduler.enqueue_request(Request("http://a.test/30", priority=30))  # still seen
    # A seen filter of another kind is never looked inside: what it saw stays seen.
    scheduler = crawl("scrapy.dupefilters.RFPDupeFilter")
    assert not scheduler.enqueue_request(Request("http://a.test/10", priority=10))
