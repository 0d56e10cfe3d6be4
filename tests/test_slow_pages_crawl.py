"""Thread mode under large, slow pages (issue 44): they neither hold every
thread nor keep theirs past ``DECLUTTER_TIMEOUT``.

Four one-row tables of 2 MB (``tests/hostile.py``) are requested first and
60 articles after them; every item must reach the end of the crawl.
"""

import logging

import pytest_twisted
from scrapy import signals
from twisted.internet.defer import Deferred
from twisted.web.resource import Resource
from twisted.web.server import NOT_DONE_YET

from tests import hostile
from tests.site import ARTICLE_EN, ARTICLE_EN_SENTENCE, Data, Server
from tests.test_reliability_crawl import run

LARGE = 4  # as many as DECLUTTER_THREADS
SMALL = 60
TABLE = hostile.FAMILIES["one-row table of numbered cells"](1_800_000).encode()
TABLE_TEXT = "value 1234 of the one row"


class LargeThenSmall(Resource):
    """``/<n>``: the table for the first ``LARGE`` n, else an article, served
    once ``articles_served`` has fired."""

    def __init__(self) -> None:
        super().__init__()
        self.articles_served: Deferred[None] = Deferred()

    def getChild(self, path, request):
        if int(path) < LARGE:
            return Data(TABLE, "text/html")
        return Held(self.articles_served)


class Held(Data):
    def __init__(self, until: Deferred) -> None:
        super().__init__(ARTICLE_EN, "text/html")
        self.until = until

    def render_GET(self, request):
        def write(_):
            request.write(super(Held, self).render_GET(request))
            request.finish()

        self.until.addCallback(write)
        return NOT_DONE_YET


async def crawl(site, settings, meta_for=lambda n: {}, receivers=()):
    server = Server(site)
    try:
        return await run(
            {"DECLUTTER_WORKERS": 0, **settings},
            timeout=300,  # a hang fails here, not after the test run's own limit
            receivers=receivers,
            base=server.url("").rstrip("/"),
            count=LARGE + SMALL,
            meta_for=meta_for,
        )
    finally:
        server.port.stopListening()


def number(item) -> int:
    return int(item["url"].rsplit("/", 1)[1])


@pytest_twisted.ensureDeferred
async def test_large_pages_leave_a_thread_to_the_articles_behind_them():
    site = LargeThenSmall()
    downloaded = []

    def on_download(response, request, spider):
        downloaded.append(response.url)
        if len(downloaded) == LARGE:  # the tables are in the middleware: now the articles
            site.articles_served.callback(None)

    items, stats, spider = await crawl(
        site, {}, receivers=[(signals.response_downloaded, on_download)]
    )
    assert len(items) == len(spider.yielded) == LARGE + SMALL
    order = [number(item) for item in items]
    first_table = min(order.index(n) for n in range(LARGE))
    assert first_table > 0  # an article's item came before every table's
    texts = {number(item): item.get("text") for item in items}
    assert all(TABLE_TEXT in texts[n] for n in range(LARGE))  # under every limit: extracted
    assert all(ARTICLE_EN_SENTENCE in texts[n] for n in range(LARGE, LARGE + SMALL))
    assert stats["declutter/pages"] == LARGE + SMALL
    assert "declutter/pages_skipped/timeout" not in stats


class Slow(Resource):
    def getChild(self, path, request):
        return Data(TABLE if int(path) < LARGE else ARTICLE_EN, "text/html")


def tiny_budget_for_tables(n):
    # 0.1 s for 2 MB: the block walk alone takes longer; the articles keep 60 s
    return {"declutter": {"timeout": 0.1}} if n < LARGE else {}


@pytest_twisted.ensureDeferred
async def test_pages_past_their_timeout_are_given_up_in_threads_and_every_item_goes_on(caplog):
    with caplog.at_level(logging.WARNING):
        items, stats, spider = await crawl(Slow(), {}, meta_for=tiny_budget_for_tables)
    assert len(items) == len(spider.yielded) == LARGE + SMALL
    texts = {number(item): item.get("text") for item in items}
    assert all(texts[n] is None for n in range(LARGE))  # given up: items without text
    assert all(ARTICLE_EN_SENTENCE in texts[n] for n in range(LARGE, LARGE + SMALL))
    assert stats["declutter/pages_skipped/timeout"] == LARGE
    assert stats["declutter/pages"] == SMALL
    assert "declutter/errors" not in stats
    warnings = [r.getMessage() for r in caplog.records if r.levelno == logging.WARNING]
    assert sum("timeout (gave up after 0.1 s" in message for message in warnings) == LARGE
