"""The item pipeline: items carrying raw HTML of their own."""

import dataclasses

import pytest
import pytest_twisted
import scrapy
from scrapy.exceptions import NotConfigured
from scrapy.utils.defer import deferred_from_coro
from scrapy.utils.test import get_crawler

from scrapy_declutter import DeclutterPipeline
from tests.crawling import ADDON, crawl
from tests.site import ARTICLE_DE, ARTICLE_DE_SENTENCE, ARTICLE_EN_SENTENCE


def pipeline(**settings) -> DeclutterPipeline:
    return DeclutterPipeline.from_crawler(get_crawler(settings_dict=settings))


def process(pipe, item):
    return deferred_from_coro(pipe.process_item(item))


@pytest.mark.parametrize("html", [ARTICLE_DE, ARTICLE_DE.decode()])
@pytest_twisted.ensureDeferred
async def test_item_html_is_decluttered(html):
    item = {"html": html}
    assert await process(pipeline(), item) is item
    assert ARTICLE_DE_SENTENCE in item["text"]
    assert item["html"] == html
    assert set(item) == {"html", "text"}
    labelled = {"html": html}
    await process(pipeline(DECLUTTER_BLOCKS="all"), labelled)
    assert {block["label"] for block in labelled["blocks"]} == {"good", "bad"}


@pytest.mark.parametrize("item", [{"title": "no html"}, {"html": ""}, {"html": 42}, "not an item"])
@pytest_twisted.ensureDeferred
async def test_items_without_html_pass_untouched(item):
    before = dict(item) if isinstance(item, dict) else item
    assert await process(pipeline(), item) == before


@pytest_twisted.ensureDeferred
async def test_existing_text_is_kept_unless_overwrite():
    kept = {"html": ARTICLE_DE, "text": "mine"}
    await process(pipeline(), kept)
    assert kept["text"] == "mine"
    overwritten = {"html": ARTICLE_DE, "text": "mine"}
    await process(pipeline(DECLUTTER_OVERWRITE=True), overwritten)
    assert ARTICLE_DE_SENTENCE in overwritten["text"]


@pytest_twisted.ensureDeferred
async def test_configured_html_field():
    item = {"raw": ARTICLE_DE, "html": "<p>not this one</p>"}
    await process(pipeline(DECLUTTER_HTML_FIELD="raw"), item)
    assert ARTICLE_DE_SENTENCE in item["text"]


def test_no_html_field_disables_the_pipeline():
    with pytest.raises(NotConfigured):
        pipeline(DECLUTTER_HTML_FIELD=None)


class Post(scrapy.Item):
    url = scrapy.Field()
    html = scrapy.Field()
    text = scrapy.Field()
    blocks = scrapy.Field()


@dataclasses.dataclass(frozen=True)
class FrozenPost:
    url: str
    html: str
    text: str = ""


class ItemsSpider(scrapy.Spider):
    """Yields items that are tied to no response, and one from a response
    that carries a different page's HTML."""

    name = "items"

    def __init__(self, url="", **kwargs):
        super().__init__(**kwargs)
        self.url = url

    async def start(self):
        yield Post(url="https://example.org/de", html=ARTICLE_DE)
        yield FrozenPost(url="https://example.org/frozen", html=ARTICLE_DE.decode())
        yield {"url": "https://example.org/none"}
        yield scrapy.Request(self.url)

    def parse(self, response):
        yield {"url": "https://example.org/embedded", "html": ARTICLE_DE}


@pytest_twisted.ensureDeferred
async def test_items_with_html_in_a_crawl(server):
    result = await crawl(ItemsSpider, settings=ADDON, url=server.url("article-en"))
    assert len(result.items) == 4
    assert ARTICLE_DE_SENTENCE in result.by_url("https://example.org/de")["text"]
    # a frozen item is filled in a copy of itself
    assert ARTICLE_DE_SENTENCE in result.by_url("https://example.org/frozen").text
    assert result.by_url("https://example.org/none") == {"url": "https://example.org/none"}
    # an item's own HTML wins over the response it was yielded from
    embedded = result.by_url("https://example.org/embedded")["text"]
    assert ARTICLE_DE_SENTENCE in embedded and ARTICLE_EN_SENTENCE not in embedded
    assert result.stats["declutter/items"] == 3
    assert result.stats["declutter/items_copied"] == 1


@pytest.mark.parametrize("html", [ARTICLE_DE, ARTICLE_DE.decode()])
@pytest_twisted.ensureDeferred
async def test_an_items_html_over_the_body_size_limit_is_skipped(html):
    size = len(ARTICLE_DE)  # its UTF-8 bytes, as a str's HTML is counted too
    at_limit = {"html": html}
    await process(pipeline(DECLUTTER_MAX_BODY_SIZE=size), at_limit)
    assert ARTICLE_DE_SENTENCE in at_limit["text"]
    over = {"html": html}
    pipe = pipeline(DECLUTTER_MAX_BODY_SIZE=size - 1)
    assert await process(pipe, over) is over
    assert over == {"html": html}
    assert pipe.recorder.stats.get_value("declutter/pages_skipped/too_large") == 1
