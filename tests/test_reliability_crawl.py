"""The Scrapy layer under hostile pages, failing extractions, dying workers and early closes.

A local server generates the pages; every test checks that items out = items
in, and that the stats count exactly what was injected.
"""

import gzip
import os
import re
import signal
import time
from collections import Counter
from pathlib import Path

import pytest
import pytest_twisted
import scrapy
from scrapy import signals
from scrapy.crawler import CrawlerRunner
from scrapy.exceptions import CloseSpider
from twisted.internet import reactor
from twisted.web.resource import Resource

from scrapy_declutter.extraction.presets import PIPELINES
from scrapy_declutter.scrapy_layer.page import extract_page
from tests import hostile
from tests.crawling import ADDON, BASE_SETTINGS
from tests.site import ARTICLE_EN, ARTICLE_EN_SENTENCE, Data, Server

# Left out of the README's quick run (setup.cfg); .ci/run runs it.
pytestmark = pytest.mark.slow

MAX_BODY = 16_000


def _kind(n: int) -> str:
    return KINDS[n % len(KINDS)]


# (kind, body, content type, what the layer does with it)
_HOSTILE = {
    "too_large": (ARTICLE_EN + b"<!--" + b"x" * MAX_BODY + b"-->", "text/html", "too_large"),
    "binary": (gzip.compress(ARTICLE_EN), "text/html", "binary"),
    "empty": (b"", "text/html", "empty"),
    "image": (hostile.png(), "image/png", "not_html"),
    "error": (ARTICLE_EN, "text/html", "error"),
    "nested": (hostile.nested(3000, "div", closed=False).encode(), "text/html", "page"),
    "breaks": (hostile.breaks(3000).encode(), "text/html", "page"),
    "bad_utf8": (
        ARTICLE_EN.replace(b"planned", b"plan\xff\xfened"),
        "text/html; charset=utf-8",
        "page",
    ),
    "lying_charset": (ARTICLE_EN, "text/html; charset=utf-16", "page"),
    "utf16": (ARTICLE_EN.decode().encode("utf-16"), "text/html", "page"),
    "button": (ARTICLE_EN.replace(b"<h1>", b"<button><div>Menu</button><h1>"), "text/html", "page"),
    "frameset": (
        b"<frameset><frame src=a><noframes><p>no</p></noframes></frameset>",
        "text/html",
        "page",
    ),
    "script": (b"<script>document.write('<p>x</p>')</script>", "text/html", "page"),
    "controls": (ARTICLE_EN.replace(b"planned", b"plan\x00ne\x01d"), "text/html", "page"),
    "after_html": (
        ARTICLE_EN.replace(b"</body></html>", b"</body></html><p>late</p>"),
        "text/html",
        "page",
    ),
}
KINDS = list(_HOSTILE) + ["article"] * 5  # a quarter of the pages are plain articles


class Pages(Resource):
    """``/<n>``: page ``n``, of kind ``KINDS[n % len(KINDS)]``."""

    def getChild(self, path, request):
        kind = _kind(int(path))
        body, content_type, _ = _HOSTILE.get(kind, (ARTICLE_EN, "text/html", "page"))
        return Data(body, content_type)


class CountingSpider(scrapy.Spider):
    """Requests ``count`` pages, yields one item per response, counts what it yields."""

    name = "counting"

    def __init__(
        self, base="", count=0, meta_for=None, close_after=None, with_html=False, **kwargs
    ):
        super().__init__(**kwargs)
        self.base, self.count = base, count
        self.meta_for = meta_for or (lambda n: {})
        self.close_after = close_after
        self.with_html = with_html
        self.yielded = []

    async def start(self):
        for n in range(self.count):
            yield scrapy.Request(f"{self.base}/{n}", meta=self.meta_for(n), dont_filter=True)

    def parse(self, response):
        item = {"url": response.url}
        if self.with_html and int(response.url.rsplit("/", 1)[1]) % 2:
            item["html"] = response.body  # the item pipeline declutters this one
        self.yielded.append(response.url)
        yield item
        if self.close_after is not None and len(self.yielded) == self.close_after:
            raise CloseSpider("enough")


async def run(settings, timeout=600, receivers=(), **spider_kwargs):
    """Crawl to the end (failing after ``timeout`` s rather than hanging);
    ``receivers``: (signal, function) pairs to connect first."""
    runner = CrawlerRunner({**BASE_SETTINGS, **ADDON, **settings})
    crawler = runner.create_crawler(CountingSpider)
    items = []

    def collect(item):
        items.append(item)

    crawler.signals.connect(collect, signal=signals.item_scraped)
    for sent, receiver in receivers:
        crawler.signals.connect(receiver, signal=sent)
    await runner.crawl(crawler, **spider_kwargs).addTimeout(timeout, reactor)
    return items, crawler.stats.get_stats(), crawler.spider


@pytest.fixture
def pages_server():
    server = Server(Pages())
    yield server.url("").rstrip("/")
    server.port.stopListening()


def raises(options):
    def stage(document):
        raise RuntimeError("injected failure")

    return (stage,)


@pytest_twisted.ensureDeferred
async def test_5000_pages_items_out_equal_items_in(pages_server, monkeypatch, caplog):
    monkeypatch.setitem(PIPELINES, "raises", raises)
    count = 5000
    items, stats, spider = await run(
        {
            "DECLUTTER_MAX_BODY_SIZE": MAX_BODY,
            "CONCURRENT_REQUESTS": 32,
            "DECLUTTER_BLOCKS": "none",
        },
        base=pages_server,
        count=count,
        meta_for=lambda n: {"declutter": {"pipeline": "raises"}} if _kind(n) == "error" else {},
    )
    expected = Counter(_HOSTILE.get(_kind(n), (None, None, "page"))[2] for n in range(count))

    # items out = items in: one per response, none lost, none twice
    assert len(spider.yielded) == count
    assert sorted(item["url"] for item in items) == sorted(spider.yielded)
    for reason in ("too_large", "binary", "empty", "not_html"):
        assert stats.get(f"declutter/pages_skipped/{reason}") == expected[reason], reason
    assert stats["declutter/errors"] == stats["declutter/errors/RuntimeError"] == expected["error"]
    assert stats["declutter/pages"] == stats["declutter/items"] == expected["page"]
    by_kind = {}
    for item in items:
        by_kind.setdefault(_kind(int(item["url"].rsplit("/", 1)[1])), []).append(item)
    assert all(
        "text" not in item for kind in ("error", "binary", "too_large") for item in by_kind[kind]
    )
    for kind in ("article", "bad_utf8", "utf16", "button", "controls", "after_html"):
        assert all(ARTICLE_EN_SENTENCE in item["text"] for item in by_kind[kind]), kind
    assert all(item["text"] == "" for kind in ("frameset", "script") for item in by_kind[kind])
    # each failure is logged once, with its URL
    failures = [r.getMessage() for r in caplog.records if "injected failure" in r.getMessage()]
    assert len(failures) == expected["error"]
    urls = {re.search(r" on (\S+): injected", message).group(1) for message in failures}
    assert urls == {url for url in spider.yielded if _kind(int(url.rsplit("/", 1)[1])) == "error"}


def dying_extract_page(page):
    """``extract_page``, but the worker process kills itself on some pages."""
    url = page.url
    marker = Path(os.environ["DECLUTTER_TEST_MARKERS"]) / url.rsplit("/", 1)[1]
    if url.endswith(("/3", "/7")) and not marker.exists():  # once
        marker.touch()
        os.kill(os.getpid(), signal.SIGKILL)
    if url.endswith("/5"):  # every time
        os.kill(os.getpid(), signal.SIGKILL)
    return extract_page(page)


@pytest_twisted.ensureDeferred
async def test_a_killed_worker_process_is_replaced_and_the_crawl_goes_on(
    server_for_articles, monkeypatch, tmp_path
):
    monkeypatch.setenv("DECLUTTER_TEST_MARKERS", str(tmp_path))
    monkeypatch.setattr("scrapy_declutter.scrapy_layer.results.extract_page", dying_extract_page)
    items, stats, spider = await run(
        {"DECLUTTER_WORKERS": 1, "CONCURRENT_REQUESTS": 1},
        timeout=300,
        base=server_for_articles,
        count=10,
    )
    assert len(items) == len(spider.yielded) == 10
    texts = {item["url"].rsplit("/", 1)[1]: item.get("text") for item in items}
    assert all(ARTICLE_EN_SENTENCE in texts[n] for n in texts if n != "5")
    assert texts["5"] is None  # killed its worker twice: an error, the item goes on
    assert stats["declutter/errors"] == stats["declutter/errors/BrokenProcessPool"] == 1
    assert stats["declutter/pages"] == 9


def hanging_extract_page(page):
    """``extract_page``, but page 3 never finishes."""
    if page.url.endswith("/3"):
        time.sleep(3600)
    return extract_page(page)


@pytest_twisted.ensureDeferred
async def test_a_page_past_its_time_budget_is_given_up_and_the_crawl_goes_on(
    server_for_articles, monkeypatch, caplog
):
    monkeypatch.setattr("scrapy_declutter.scrapy_layer.results.extract_page", hanging_extract_page)
    items, stats, spider = await run(
        {"DECLUTTER_WORKERS": 1, "DECLUTTER_TIMEOUT": 5, "CONCURRENT_REQUESTS": 2},
        timeout=300,
        base=server_for_articles,
        count=8,
    )
    assert len(items) == len(spider.yielded) == 8
    texts = {item["url"].rsplit("/", 1)[1]: item.get("text") for item in items}
    assert texts.pop("3") is None  # given up: the item goes on without text
    assert all(ARTICLE_EN_SENTENCE in text for text in texts.values())  # a new worker took over
    assert stats["declutter/pages_skipped/timeout"] == 1
    assert stats["declutter/pages"] == 7
    assert "declutter/errors" not in stats
    assert any("/3: timeout (gave up after 5 s" in record.getMessage() for record in caplog.records)


class Articles(Resource):
    def getChild(self, path, request):
        return Data(ARTICLE_EN, "text/html")


@pytest.fixture
def server_for_articles():
    server = Server(Articles())
    yield server.url("").rstrip("/")
    server.port.stopListening()


def slow(options):
    import time

    from scrapy_declutter.extraction.presets import justext_stages

    def stage(document):
        time.sleep(0.01)

    return (stage, *justext_stages(options))


@pytest.mark.parametrize("workers", [0, 2])
@pytest_twisted.ensureDeferred
async def test_closing_the_spider_mid_crawl_neither_hangs_nor_drops_items(
    server_for_articles, monkeypatch, workers
):
    monkeypatch.setitem(PIPELINES, "slow", slow)
    settings = {"DECLUTTER_WORKERS": workers, "CONCURRENT_REQUESTS": 16}
    if workers == 0:
        settings["DECLUTTER_PIPELINE"] = "slow"
    items, stats, spider = await run(
        settings,
        timeout=300,
        base=server_for_articles,
        count=400,
        close_after=40,
        with_html=True,
    )
    assert stats["finish_reason"] == "enough"
    assert 40 <= len(spider.yielded) < 400
    assert sorted(item["url"] for item in items) == sorted(spider.yielded)
    filled = [item for item in items if "text" in item]
    assert stats["declutter/items"] == len(filled) >= 40
    assert stats.get("declutter/errors", 0) == 0
