"""The spider middleware: items of every kind yielded from a decluttered response."""

import dataclasses
import logging
from typing import Any, ClassVar

import attrs
import pydantic
import pytest
import pytest_twisted
import scrapy

from tests.crawling import ADDON, crawl
from tests.site import ARTICLE_EN_SENTENCE


class ScrapyItem(scrapy.Item):
    url = scrapy.Field()
    text = scrapy.Field()
    blocks = scrapy.Field()


@dataclasses.dataclass
class DataclassItem:
    url: str
    text: str = ""
    blocks: list = dataclasses.field(default_factory=list)


@attrs.define
class AttrsItem:
    url: str
    text: str = ""
    blocks: list = attrs.Factory(list)


@dataclasses.dataclass
class NoTextField:
    url: str


class TextOnly(scrapy.Item):
    url = scrapy.Field()
    text = scrapy.Field()


@dataclasses.dataclass
class BlocksOnly:
    url: str
    blocks: list = dataclasses.field(default_factory=list)


@dataclasses.dataclass(frozen=True)
class FrozenDataclass:
    url: str
    text: str = ""


@attrs.frozen
class FrozenAttrs:
    url: str
    text: str = ""


class PydanticItem(pydantic.BaseModel):
    url: str
    text: str = ""


class FrozenPydantic(pydantic.BaseModel):
    model_config = pydantic.ConfigDict(frozen=True)
    url: str
    text: str = ""


@dataclasses.dataclass(frozen=True)
class FrozenUncopiable:
    """Frozen, and its text is no argument of its constructor: no copy can carry it."""

    url: str
    text: str = dataclasses.field(default="", init=False)


class ThenADict(scrapy.Spider):
    """Yields ``item_factory(url=...)`` and then a dict from each response."""

    name = "then_a_dict"

    def __init__(self, urls=(), item_factory=dict, **kwargs):
        super().__init__(**kwargs)
        self.start_urls = list(urls)
        self.item_factory = item_factory

    def parse(self, response):
        yield self.item_factory(url=response.url)
        yield {"url": response.url, "second": True}


def read(item, field):
    return item[field] if isinstance(item, (dict, scrapy.Item)) else getattr(item, field)


@pytest.mark.parametrize("item_factory", [dict, ScrapyItem, DataclassItem, AttrsItem])
@pytest_twisted.ensureDeferred
async def test_every_item_type_is_filled(server, item_factory):
    url = server.url("article-en")
    settings = {**ADDON, "DECLUTTER_BLOCKS": "all"}
    result = await crawl(settings=settings, urls=[url], item_factory=item_factory)
    (item,) = result.items
    assert type(item) is item_factory
    assert ARTICLE_EN_SENTENCE in read(item, "text")
    blocks = read(item, "blocks")
    assert any(
        block["label"] == "good" and ARTICLE_EN_SENTENCE in block["text"] for block in blocks
    )
    assert any(block["label"] == "bad" for block in blocks)


@pytest.mark.parametrize("item_factory", [dict, ScrapyItem, DataclassItem, AttrsItem, PydanticItem])
@pytest_twisted.ensureDeferred
async def test_a_mutable_item_is_filled_in_place(server, item_factory):
    url = server.url("article-en")
    result = await crawl(ThenADict, settings=ADDON, urls=[url], item_factory=item_factory)
    item, second = result.items
    assert type(item) is item_factory
    assert ARTICLE_EN_SENTENCE in read(item, "text")
    assert second == {"url": url, "second": True, "text": read(item, "text")}
    assert result.stats["declutter/items"] == 2
    assert "declutter/items_copied" not in result.stats


@pytest.mark.parametrize("item_factory", [FrozenDataclass, FrozenAttrs, FrozenPydantic])
@pytest_twisted.ensureDeferred
async def test_a_frozen_item_is_filled_in_a_copy_and_the_rest_goes_on(server, caplog, item_factory):
    caplog.set_level(logging.INFO, logger="scrapy_declutter")
    urls = [server.url(f"article-en?{n}") for n in range(2)]
    result = await crawl(ThenADict, settings=ADDON, urls=urls, item_factory=item_factory)
    assert len(result.items) == 4  # each response's frozen item, and the dict after it
    frozen = [item for item in result.items if type(item) is item_factory]
    assert sorted(item.url for item in frozen) == sorted(urls)
    assert all(ARTICLE_EN_SENTENCE in item.text for item in frozen)
    assert sum(isinstance(item, dict) and item["second"] for item in result.items) == 2
    assert result.stats["declutter/items"] == 4
    assert result.stats["declutter/items_copied"] == 2
    assert "spider_exceptions" not in " ".join(result.stats)
    (line,) = [r.getMessage() for r in caplog.records if "in a copy" in r.getMessage()]
    assert item_factory.__qualname__ in line


@pytest_twisted.ensureDeferred
async def test_an_item_that_can_be_neither_written_nor_copied_goes_on_unchanged(server, caplog):
    urls = [server.url(f"article-en?{n}") for n in range(2)]
    result = await crawl(ThenADict, settings=ADDON, urls=urls, item_factory=FrozenUncopiable)
    frozen = [item for item in result.items if type(item) is FrozenUncopiable]
    assert sorted(frozen, key=lambda item: item.url) == [FrozenUncopiable(url) for url in urls]
    assert sum(isinstance(item, dict) for item in result.items) == 2
    assert result.stats["declutter/items_skipped/read_only"] == 2
    assert result.stats["declutter/items"] == 2  # the dicts
    (line,) = [r.getMessage() for r in caplog.records if "cannot be written" in r.getMessage()]
    assert "FrozenUncopiable items cannot be written" in line


@pytest_twisted.ensureDeferred
async def test_an_item_type_without_the_field_is_kept_unfilled(server, caplog):
    url = server.url("article-en")
    result = await crawl(settings=ADDON, urls=[url], item_factory=NoTextField)
    assert result.items == [NoTextField(url)]
    assert result.stats["declutter/items_skipped/missing_field"] == 1
    assert "declutter/items" not in result.stats
    (warning,) = [r.getMessage() for r in caplog.records if "declares no field" in r.getMessage()]
    assert "NoTextField declares no field 'text'" in warning
    assert "DECLUTTER_TEXT_FIELD" in warning


@pytest_twisted.ensureDeferred
async def test_an_item_gets_the_outputs_it_declares(server, caplog):
    urls = [server.url(f"article-en?{n}") for n in range(3)]
    settings = {**ADDON, "DECLUTTER_BLOCKS": "all"}
    result = await crawl(settings=settings, urls=urls, item_factory=TextOnly)
    assert len(result.items) == 3
    for item in result.items:
        assert set(item) == {"url", "text"}
        assert ARTICLE_EN_SENTENCE in item["text"]
    assert result.stats["declutter/items"] == 3
    assert "declutter/items_skipped/missing_field" not in result.stats
    # once per item type, naming the type, the field, and the setting that turns it off
    (warning,) = [r.getMessage() for r in caplog.records if "declares no field" in r.getMessage()]
    assert "TextOnly declares no field 'blocks'" in warning
    assert 'DECLUTTER_BLOCKS = "none"' in warning


@pytest_twisted.ensureDeferred
async def test_an_item_with_blocks_but_no_text_field_gets_the_blocks(server):
    url = server.url("article-en")
    settings = {**ADDON, "DECLUTTER_BLOCKS": "kept"}
    result = await crawl(settings=settings, urls=[url], item_factory=BlocksOnly)
    (item,) = result.items
    assert any(ARTICLE_EN_SENTENCE in block["text"] for block in item.blocks)
    assert result.stats["declutter/items"] == 1


@pytest_twisted.ensureDeferred
async def test_item_with_text_is_kept_unless_overwrite(server):
    url = server.url("article-en")

    def with_text(url):
        return {"url": url, "text": "written by the spider"}

    kept = await crawl(settings=ADDON, urls=[url], item_factory=with_text)
    assert kept.items == [{"url": url, "text": "written by the spider"}]
    assert kept.stats["declutter/items_skipped/has_text"] == 1

    overwritten = await crawl(
        settings={**ADDON, "DECLUTTER_OVERWRITE": True}, urls=[url], item_factory=with_text
    )
    assert ARTICLE_EN_SENTENCE in overwritten.items[0]["text"]


@pytest.mark.parametrize(
    ("blocks", "expected_labels"), [("all", {"good", "bad"}), ("kept", {"good"}), ("none", None)]
)
@pytest_twisted.ensureDeferred
async def test_blocks_setting_and_field_names(server, blocks, expected_labels):
    url = server.url("article-en")
    settings = {
        **ADDON,
        "DECLUTTER_BLOCKS": blocks,
        "DECLUTTER_TEXT_FIELD": "body",
        "DECLUTTER_BLOCKS_FIELD": "parts",
    }
    (item,) = (await crawl(settings=settings, urls=[url])).items
    assert ARTICLE_EN_SENTENCE in item["body"]
    assert "text" not in item and "blocks" not in item
    if expected_labels is None:
        assert "parts" not in item
    else:
        assert {block["label"] for block in item["parts"]} == expected_labels


class CustomSettingsSpider(scrapy.Spider):
    name = "custom"
    custom_settings: ClassVar[dict[str, Any]] = {"DECLUTTER_ENABLED": False}

    def __init__(self, urls=(), **kwargs):
        super().__init__(**kwargs)
        self.start_urls = list(urls)

    def parse(self, response):
        yield {"url": response.url}


@pytest_twisted.ensureDeferred
async def test_custom_settings_apply_per_spider(server):
    url = server.url("article-en")
    result = await crawl(CustomSettingsSpider, settings=ADDON, urls=[url])
    assert result.items == [{"url": url}]


class ArticleItem(scrapy.Item):
    url = scrapy.Field()
    text = scrapy.Field()
    body_markdown = scrapy.Field()
    headline = scrapy.Field()
    published = scrapy.Field()
    language = scrapy.Field()
    canonical_url = scrapy.Field()


@pytest_twisted.ensureDeferred
async def test_markdown_and_metadata_fields_go_into_the_fields_named(server):
    url = server.url("article-en")
    settings = {
        **ADDON,
        "DECLUTTER_MARKDOWN": True,
        "DECLUTTER_MARKDOWN_FIELD": "body_markdown",
        "DECLUTTER_METADATA_FIELDS": {
            "title": "headline",
            "date": "published",
            "language": "language",
            "url": "canonical_url",
        },
    }
    result = await crawl(settings=settings, urls=[url], item_factory=ArticleItem)
    (item,) = result.items
    assert set(item) == {
        "url",
        "text",
        "body_markdown",
        "headline",
        "published",
        "language",
        "canonical_url",
    }
    assert item["body_markdown"].startswith("# New ferry terminal opens next spring\n\n")
    assert ARTICLE_EN_SENTENCE in item["body_markdown"]
    assert item["headline"] == "New ferry terminal opens"  # its <title>
    assert item["published"] is None  # the page gives no date: the field is there, empty
    assert (item["language"], item["canonical_url"]) == ("en", url)
    assert result.stats["declutter/items"] == 1


@pytest_twisted.ensureDeferred
async def test_metadata_fields_from_the_command_line_keep_their_names(server):
    url = server.url("article-de")
    settings = {**ADDON, "DECLUTTER_METADATA_FIELDS": "title,language"}  # -s NAME=title,language
    result = await crawl(settings=settings, urls=[url])
    (item,) = result.items
    assert set(item) == {"url", "text", "title", "language"}
    assert item["language"] == "de"
    assert item["title"] == "Neue Brücke"  # its <title>


@pytest_twisted.ensureDeferred
async def test_outputs_are_chosen_per_request(server, caplog):
    plain, structured = server.url("article-en"), server.url("article-de")
    overrides = {"markdown": True, "metadata_fields": {"language": "lang"}, "comments": True}
    meta = {structured: {"declutter": overrides}}
    result = await crawl(settings=ADDON, urls=[plain, structured], meta=meta)
    assert set(result.by_url(plain)) == {"url", "text"}
    item = result.by_url(structured)
    assert set(item) == {"url", "text", "markdown", "lang", "comments"}
    assert item["markdown"].startswith("# Neue Brücke")
    assert item["comments"] == ""  # asked for; the page has none
    assert item["lang"] == "de"


class ArticleWithoutDate(scrapy.Item):
    url = scrapy.Field()
    text = scrapy.Field()
    title = scrapy.Field()


@pytest_twisted.ensureDeferred
async def test_an_item_type_gets_the_metadata_fields_it_declares(server, caplog):
    urls = [server.url("article-en"), server.url("article-de")]
    settings = {**ADDON, "DECLUTTER_METADATA_FIELDS": ["title", "date"]}
    result = await crawl(settings=settings, urls=urls, item_factory=ArticleWithoutDate)
    assert sorted(set(item) for item in result.items) == [{"url", "text", "title"}] * 2
    assert all(item["title"] for item in result.items)
    warnings = [r.getMessage() for r in caplog.records if "declares no field" in r.getMessage()]
    assert warnings == [  # once per item type
        "declutter: ArticleWithoutDate declares no field 'date', so its items get no metadata"
        " date; declare it, or leave 'date' out of DECLUTTER_METADATA_FIELDS"
    ]
    assert result.stats["declutter/items"] == 2


@pytest_twisted.ensureDeferred
async def test_an_item_type_without_an_output_field_gets_the_others(server, caplog):
    url = server.url("article-en")
    settings = {**ADDON, "DECLUTTER_MARKDOWN": True}
    result = await crawl(settings=settings, urls=[url], item_factory=TextOnly)
    (item,) = result.items
    assert ARTICLE_EN_SENTENCE in item["text"]
    (warning,) = [r.getMessage() for r in caplog.records if "declares no field" in r.getMessage()]
    assert "TextOnly declares no field 'markdown', so its items get no markdown" in warning
    assert "DECLUTTER_MARKDOWN = False" in warning
