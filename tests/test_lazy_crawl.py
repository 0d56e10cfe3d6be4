"""Lazy decluttering: a crawl declutters the pages that become items, and only those.

A site shaped like a real crawl: index pages that link to articles. The
callback follows the links of an index page and yields an item from each
article; only the articles are decluttered, unless ``DECLUTTER_EAGER``.
"""

import pickle
import threading
import time

import pytest
import pytest_twisted
import scrapy

from scrapy_declutter import declutter_result
from scrapy_declutter.extraction.presets import PIPELINES, justext_stages
from tests.crawling import ADDON, crawl
from tests.site import ARTICLE_EN, ARTICLE_EN_SENTENCE, Data

ARTICLES = 6


def index_page(target: str) -> bytes:
    """An HTML page (a whole page, menus and all, as an index is) linking to ``target``."""
    link = f'<p class="teaser"><a class="next" href="{target}">Read on</a></p>'.encode()
    return ARTICLE_EN.replace(b"</body>", link + b"</body>")


@pytest.fixture
def index_site(server):
    """``/index-<n>`` links to ``/article-en?<n>``; the start URLs are the index pages."""
    for n in range(ARTICLES):
        page = index_page(f"/article-en?{n}")
        server.root.putChild(f"index-{n}".encode(), Data(page, "text/html; charset=utf-8"))
    return [server.url(f"index-{n}") for n in range(ARTICLES)]


class IndexSpider(scrapy.Spider):
    """Follows each index page's link; yields one item per article. Each
    callback pickles ``response.meta``, as scrapy-redis pickles requests."""

    name = "index"

    def __init__(self, urls=(), **kwargs):
        super().__init__(**kwargs)
        self.start_urls = list(urls)
        self.pickled = 0

    def parse(self, response):
        pickle.dumps(response.meta)
        self.pickled += 1
        for href in response.css("a.next::attr(href)").getall():
            yield response.follow(href, callback=self.parse_article, meta=dict(response.meta))

    def parse_article(self, response):
        pickle.dumps(response.meta)
        self.pickled += 1
        yield {"url": response.url}


@pytest.mark.parametrize("workers", [0, pytest.param(1, marks=pytest.mark.slow)])
@pytest_twisted.ensureDeferred
async def test_only_the_pages_that_become_items_are_decluttered(index_site, workers):
    settings = {**ADDON, "DECLUTTER_WORKERS": workers}
    result = await crawl(IndexSpider, settings=settings, urls=index_site)
    assert len(result.items) == ARTICLES
    assert all(ARTICLE_EN_SENTENCE in item["text"] for item in result.items)
    assert result.stats["declutter/pages"] == ARTICLES
    assert result.stats["declutter/items"] == ARTICLES
    assert not [key for key in result.stats if key.startswith("declutter/pages_skipped")]
    assert result.spider.pickled == 2 * ARTICLES


@pytest_twisted.ensureDeferred
async def test_eager_mode_declutters_every_page_into_meta(index_site):
    seen = {}

    class MetaSpider(IndexSpider):
        def parse(self, response):
            seen[response.url] = response.meta.get("declutter_result")
            yield from super().parse(response)

    settings = {**ADDON, "DECLUTTER_EAGER": True}
    result = await crawl(MetaSpider, settings=settings, urls=index_site)
    assert len(result.items) == ARTICLES
    assert all(ARTICLE_EN_SENTENCE in item["text"] for item in result.items)
    assert result.stats["declutter/pages"] == 2 * ARTICLES
    assert all(ARTICLE_EN_SENTENCE in seen[url]["text"] for url in index_site)
    assert result.spider.pickled == 2 * ARTICLES


class AskingSpider(IndexSpider):
    """Asks for the index pages' results (to decide what to follow) and,
    twice, for the articles'."""

    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        self.asked = {}

    async def parse(self, response):
        data = await declutter_result(response)
        if ARTICLE_EN_SENTENCE in data["text"]:
            for output in super().parse(response):
                yield output

    async def parse_article(self, response):
        first = await declutter_result(response)
        self.asked[response.url] = (first, await declutter_result(response))
        yield {"url": response.url}


@pytest_twisted.ensureDeferred
async def test_the_documented_call_gives_the_items_result_computed_once(index_site):
    result = await crawl(AskingSpider, settings=ADDON, urls=index_site)
    assert len(result.items) == ARTICLES
    for item in result.items:
        first, second = result.spider.asked[item["url"]]
        assert first is second
        assert first["text"] == item["text"]
        assert ARTICLE_EN_SENTENCE in item["text"]
    # every index page and every article, each once
    assert result.stats["declutter/pages"] == 2 * ARTICLES


class WaitForEvent:
    """A stage that blocks its worker until ``event`` is set (or ``seconds`` pass)."""

    def __init__(self, event: threading.Event, outcome: list, seconds: float = 10) -> None:
        self.event, self.outcome, self.seconds = event, outcome, seconds

    def __call__(self, document) -> None:
        self.outcome.append(self.event.wait(self.seconds))


class ItemThenRequest(scrapy.Spider):
    """From the first page: an item, then a request for the second page, whose
    callback sets ``event``."""

    name = "item_then_request"

    def __init__(self, first="", second="", event=None, **kwargs):
        super().__init__(**kwargs)
        self.start_urls = [first]
        self.second = second
        self.event = event

    def parse(self, response):
        yield {"url": response.url}
        yield scrapy.Request(self.second, callback=self.parse_second)

    def parse_second(self, response):
        self.event.set()
        yield {"url": response.url}


@pytest_twisted.ensureDeferred
async def test_requests_are_not_held_behind_an_items_extraction(server, monkeypatch):
    # The first page's extraction waits for the second page's callback: only a
    # request passed on while the extraction runs can get there.
    event, outcome = threading.Event(), []
    monkeypatch.setitem(
        PIPELINES,
        "wait-for-the-second-page",
        lambda options: (WaitForEvent(event, outcome), *justext_stages(options)),
    )
    settings = {**ADDON, "DECLUTTER_PIPELINE": "wait-for-the-second-page"}
    first, second = server.url("article-en?first"), server.url("image.png")
    result = await crawl(
        ItemThenRequest, settings=settings, first=first, second=second, event=event
    )
    assert outcome == [True]
    # the second page's item went on first, the first page's with its text
    assert [item["url"] for item in result.items] == [second, first]
    assert ARTICLE_EN_SENTENCE in result.items[1]["text"]
    assert result.stats["declutter/pages"] == 1


class Slow:
    """A stage that takes a while, for ``DECLUTTER_TIMEOUT`` to catch it at the next stage."""

    def __call__(self, document) -> None:
        time.sleep(0.3)


class ItemsThenRaise(IndexSpider):
    """Yields two items from each article, then raises."""

    def parse_article(self, response):
        yield {"url": response.url}
        yield {"url": response.url, "second": True}
        raise ValueError("the callback failed after its items")


@pytest.mark.parametrize("failure", ["error", "timeout"])
@pytest.mark.parametrize("spidercls", [IndexSpider, ItemsThenRaise])
@pytest_twisted.ensureDeferred
async def test_every_item_reaches_the_feed_when_its_extraction_fails(
    index_site, monkeypatch, failure, spidercls
):
    def broken(options):
        def stage(document):
            raise RuntimeError("stage failed")

        return (stage,)

    def slow(options):
        return (Slow(), *justext_stages(options))

    name = f"failing-{failure}"  # a name of its own: a pipeline's stages are kept by name
    monkeypatch.setitem(PIPELINES, name, broken if failure == "error" else slow)
    settings = {**ADDON, "DECLUTTER_PIPELINE": name, "DECLUTTER_TIMEOUT": 0.1}
    result = await crawl(spidercls, settings=settings, urls=index_site)
    per_page = 2 if spidercls is ItemsThenRaise else 1
    assert len(result.items) == per_page * ARTICLES
    assert all("text" not in item for item in result.items)
    if failure == "error":
        assert result.stats["declutter/errors/RuntimeError"] == ARTICLES
    else:
        assert result.stats["declutter/pages_skipped/timeout"] == ARTICLES
    assert "declutter/pages" not in result.stats
    if spidercls is ItemsThenRaise:
        assert result.stats["spider_exceptions/ValueError"] == ARTICLES
