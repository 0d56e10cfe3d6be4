"""Thread mode: pages past ``DECLUTTER_TIMEOUT`` give their threads back (issue 44).

Four big one-row tables, each with a timeout its extraction cannot meet (a
tenth of a second for 1.8 MB: the block walk alone takes longer), are
requested first and take the four threads; 60 articles come after them.
"""

import logging

import pytest_twisted
from twisted.web.resource import Resource

from tests import hostile
from tests.site import ARTICLE_EN, ARTICLE_EN_SENTENCE, Data, Server
from tests.test_reliability_crawl import run

SLOW = 4
SMALL = 60
TABLE = hostile.FAMILIES["one-row table of numbered cells"](1_800_000).encode()


class SlowThenSmall(Resource):
    """``/<n>``: a 1.8 MB one-row table for the first ``SLOW`` n, else an article."""

    def getChild(self, path, request):
        return Data(TABLE if int(path) < SLOW else ARTICLE_EN, "text/html")


def meta_for(n):
    # the slow pages alone get a tiny budget: the articles keep the default 60 s
    return {"declutter": {"timeout": 0.1}} if n < SLOW else {}


@pytest_twisted.ensureDeferred
async def test_slow_pages_are_given_up_in_threads_and_every_item_goes_on(caplog):
    server = Server(SlowThenSmall())
    try:
        with caplog.at_level(logging.WARNING):
            items, stats, spider = await run(
                {"DECLUTTER_WORKERS": 0, "DECLUTTER_PAGE_MEMORY_LIMIT_MB": 0},
                timeout=300,  # a hang fails here, not after the test run's own limit
                base=server.url("").rstrip("/"),
                count=SLOW + SMALL,
                meta_for=meta_for,
            )
    finally:
        server.port.stopListening()
    assert len(items) == len(spider.yielded) == SLOW + SMALL
    texts = {int(item["url"].rsplit("/", 1)[1]): item.get("text") for item in items}
    assert all(texts[n] is None for n in range(SLOW))  # given up: items without text
    assert all(ARTICLE_EN_SENTENCE in texts[n] for n in range(SLOW, SLOW + SMALL))
    assert stats["declutter/pages_skipped/timeout"] == SLOW
    assert stats["declutter/pages"] == SMALL
    assert "declutter/errors" not in stats
    warnings = [r.getMessage() for r in caplog.records if r.levelno == logging.WARNING]
    assert sum("timeout (gave up after 0.1 s" in message for message in warnings) == SLOW
