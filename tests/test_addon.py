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
