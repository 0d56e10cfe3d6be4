"""The add-on path: one line in the settings turns everything on."""

import json
import logging
import pickle

import pytest
import pytest_twisted

from scrapy_declutter import InvalidSettingError
from tests.crawling import ADDON, ResultSpider, crawl
from tests.site import ARTICLE_DE_SENTENCE, ARTICLE_EN_SENTENCE, BOILERPLATE


@pytest_twisted.ensureDeferred
async def test_addon_fills_items_and_gives_the_result(server):
    urls = [server.url("article-en"), server.url("article-de")]
    result = await crawl(ResultSpider, settings=ADDON, urls=urls)

    english, german = (result.by_url(url) for url in urls)
    assert ARTICLE_EN_SENTENCE in english["text"]
    assert ARTICLE_DE_SENTENCE in german["text"]
    for item in (english, german):
        for boilerplate in BOILERPLATE:
            assert boilerplate not in item["text"]
        # by default an item gets the text only: its size is the text's
        assert set(item) == {"url", "text"}
        assert json.loads(json.dumps(item)) == item
        assert pickle.loads(pickle.dumps(item)) == item
    assert "declutter_result" not in result.spider.seen_meta[urls[1]]  # not eager
    meta = result.spider.results[urls[1]]
    assert meta["language"] == "de"
    assert meta["blocks"] == []
    assert json.loads(json.dumps(meta)) == meta
    assert pickle.loads(pickle.dumps(meta)) == meta
    assert meta["text"] == german["text"]
    assert result.stats["declutter/pages"] == 2
    assert result.stats["declutter/items"] == 2
    assert result.stats["declutter/seconds"] > 0


@pytest_twisted.ensureDeferred
async def test_the_labelled_blocks_are_one_setting_away(server):
    url = server.url("article-en")
    settings = {**ADDON, "DECLUTTER_BLOCKS": "all"}
    result = await crawl(ResultSpider, settings=settings, urls=[url])
    item = result.by_url(url)
    assert {block["label"] for block in item["blocks"]} == {"good", "bad"}
    kept = [block["text"] for block in item["blocks"] if block["label"] == "good"]
    assert "\n\n".join(kept) == item["text"]
    assert result.spider.results[url]["blocks"] == item["blocks"]


@pytest_twisted.ensureDeferred
async def test_disabled_setting_switches_everything_off(server):
    url = server.url("article-en")
    settings = {**ADDON, "DECLUTTER_ENABLED": False}
    result = await crawl(ResultSpider, settings=settings, urls=[url])
    assert result.by_url(url) == {"url": url}
    assert result.spider.results[url] is None
    assert "declutter_result" not in result.spider.seen_meta[url]
    assert not any(key.startswith("declutter/") for key in result.stats)


MANUAL = {
    "DOWNLOADER_MIDDLEWARES": {"scrapy_declutter.DeclutterMiddleware": 540},
    "SPIDER_MIDDLEWARES": {"scrapy_declutter.DeclutterSpiderMiddleware": 950},
    "ITEM_PIPELINES": {"scrapy_declutter.DeclutterPipeline": 100},
}


@pytest_twisted.ensureDeferred
async def test_listing_components_by_hand_works_like_the_addon(server):
    url = server.url("article-en")
    manual = await crawl(settings=MANUAL, urls=[url])
    addon = await crawl(settings=ADDON, urls=[url])
    assert ARTICLE_EN_SENTENCE in manual.by_url(url)["text"]
    assert manual.by_url(url) == addon.by_url(url)


@pytest_twisted.ensureDeferred
async def test_addon_keeps_a_priority_the_project_chose(server):
    url = server.url("article-en")
    settings = {**ADDON, "DOWNLOADER_MIDDLEWARES": {"scrapy_declutter.DeclutterMiddleware": 300}}
    runner_result = await crawl(settings=settings, urls=[url])
    assert ARTICLE_EN_SENTENCE in runner_result.by_url(url)["text"]
    assert runner_result.stats["declutter/pages"] == 1  # listed once, not twice


@pytest.mark.parametrize("settings", [ADDON, MANUAL])
@pytest_twisted.ensureDeferred
async def test_a_bad_enabled_value_is_an_error_naming_the_setting(server, settings):
    with pytest.raises(InvalidSettingError) as error:
        await crawl(
            settings={**settings, "DECLUTTER_ENABLED": "maybe"}, urls=[server.url("article-en")]
        )
    assert error.value.setting == "DECLUTTER_ENABLED"
    assert str(error.value) == "DECLUTTER_ENABLED: expected True or False, got 'maybe'"


@pytest_twisted.ensureDeferred
async def test_a_text_field_every_item_already_fills_is_warned_about(server, caplog):
    url = server.url("article-en")
    result = await crawl(settings={**ADDON, "DECLUTTER_TEXT_FIELD": "url"}, urls=[url])
    assert result.by_url(url) == {"url": url}  # the spider's own value is kept
    assert result.stats["declutter/items_skipped/has_text"] == 1
    [warning] = [r for r in caplog.records if r.levelno == logging.WARNING]
    assert warning.getMessage().startswith(
        "declutter: no item filled, as every item (1) already had a value in 'url' "
        "(DECLUTTER_TEXT_FIELD)"
    )


@pytest_twisted.ensureDeferred
async def test_no_warning_when_some_items_are_filled(server, caplog):
    urls = [server.url("article-en"), server.url("article-de")]
    meta = {urls[0]: {"declutter": {"text_field": "url"}}}
    result = await crawl(settings=ADDON, urls=urls, meta=meta)
    assert result.stats["declutter/items_skipped/has_text"] == 1
    assert result.stats["declutter/items"] == 1
    assert [r for r in caplog.records if r.levelno >= logging.WARNING] == []
