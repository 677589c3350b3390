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
