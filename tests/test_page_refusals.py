"""A page over a limit is a counted skip in one log line naming the setting, not an error."""

import logging

import pytest
import pytest_twisted

from scrapy_declutter.core.limits import BYTES_PER_BYTE, BYTES_PER_TAG
from tests.crawling import ADDON, crawl
from tests.site import ARTICLE_EN_SENTENCE, Data

LIMIT_MB = 1
# Enough paragraphs for the estimate (BYTES_PER_TAG a start tag) to pass 1 MB.
PARAGRAPHS = 2**20 // BYTES_PER_TAG + 100
COSTLY = ("<html><body>" + "<p>a short paragraph</p>" * PARAGRAPHS + "</body></html>").encode()


def declutter_records(caplog):
    return [r for r in caplog.records if r.name.startswith("scrapy_declutter")]


@pytest.mark.parametrize("workers", [0, 1], ids=["thread", "process"])
@pytest_twisted.ensureDeferred
async def test_a_page_over_the_memory_limit_is_a_counted_skip_in_one_line(server, caplog, workers):
    server.root.putChild(b"costly", Data(COSTLY, "text/html; charset=utf-8"))
    costly, article = server.url("costly"), server.url("article-en")
    settings = {
        **ADDON,
        "DECLUTTER_PAGE_MEMORY_LIMIT_MB": LIMIT_MB,
        "DECLUTTER_WORKERS": workers,
    }
    result = await crawl(settings=settings, urls=[costly, article])

    assert result.by_url(costly) == {"url": costly}  # the item goes on, without text
    assert ARTICLE_EN_SENTENCE in result.by_url(article)["text"]
    assert result.stats["declutter/pages_skipped/over_memory_limit"] == 1
    assert "declutter/errors" not in result.stats
    [line] = [r for r in declutter_records(caplog) if r.levelno >= logging.WARNING]
    assert line.levelno == logging.WARNING and line.exc_info is None
    message = line.getMessage()
    assert message.startswith(f"declutter: skipped {costly}: over_memory_limit (the page (")
    assert message.endswith(f"over DECLUTTER_PAGE_MEMORY_LIMIT_MB ({LIMIT_MB}))")
    assert "page_memory_limit_mb" not in message  # the option's name means nothing in Scrapy
    assert len(COSTLY) * BYTES_PER_BYTE < 2**20  # the tags, not the bytes, are over


@pytest.mark.slow
@pytest_twisted.ensureDeferred
async def test_an_items_html_over_the_limit_is_skipped_the_same_way(caplog):
    import scrapy

    class HtmlItemsSpider(scrapy.Spider):
        name = "html_items"

        async def start(self):
            yield {"url": "https://example.org/costly", "html": COSTLY}

    settings = {**ADDON, "DECLUTTER_PAGE_MEMORY_LIMIT_MB": LIMIT_MB}
    result = await crawl(HtmlItemsSpider, settings=settings)
    [item] = result.items
    assert "text" not in item
    assert result.stats["declutter/pages_skipped/over_memory_limit"] == 1
    assert "declutter/errors" not in result.stats
    [line] = [r for r in declutter_records(caplog) if r.levelno >= logging.WARNING]
    assert "skipped item dict: " in line.getMessage()
    assert "DECLUTTER_PAGE_MEMORY_LIMIT_MB" in line.getMessage()
