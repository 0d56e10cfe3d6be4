"""The add-on path: one line in the settings turns everything on."""

import json
import pickle

import pytest_twisted

from tests.crawling import ADDON, crawl
from tests.site import ARTICLE_DE_SENTENCE, ARTICLE_EN_SENTENCE, BOILERPLATE, server  # noqa: F401


@pytest_twisted.ensureDeferred
async def test_addon_fills_items_and_meta(server):
    urls = [server.url("article-en"), server.url("article-de")]
    result = await crawl(settings=ADDON, urls=urls)

    english, german = (result.by_url(url) for url in urls)
    assert ARTICLE_EN_SENTENCE in english["text"]
    assert ARTICLE_DE_SENTENCE in german["text"]
    for item in (english, german):
        for boilerplate in BOILERPLATE:
            assert boilerplate not in item["text"]
        labels = {block["label"] for block in item["blocks"]}
        assert labels == {"good", "bad"}
        assert json.loads(json.dumps(item)) == item
        assert pickle.loads(pickle.dumps(item)) == item
    meta = result.spider.seen_meta[urls[1]]["declutter_result"]
    assert meta["language"] == "German"
    assert json.loads(json.dumps(meta)) == meta
    assert pickle.loads(pickle.dumps(meta)) == meta
    assert meta["text"] == german["text"]
    assert result.stats["declutter/pages"] == 2
    assert result.stats["declutter/items"] == 2
    assert result.stats["declutter/seconds"] > 0


@pytest_twisted.ensureDeferred
async def test_disabled_setting_switches_everything_off(server):
    url = server.url("article-en")
    result = await crawl(settings={**ADDON, "DECLUTTER_ENABLED": False}, urls=[url])
    assert result.by_url(url) == {"url": url}
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
