"""Crawls the Harbour Times, a small bilingual news site shipped with the project.

The site lives in ``newsroom/site/`` and is read through ``file://`` URLs, so
the crawl needs no network and no server. The spider follows the front page's
teasers and every article's related links, and yields one item per article;
the spider writes no extraction code: the scrapy-declutter add-on fills in
``text`` and ``blocks``.
"""

from pathlib import Path

import scrapy

SITE = Path(__file__).resolve().parents[1] / "site"


class NewsSpider(scrapy.Spider):
    name = "news"

    async def start(self):
        yield scrapy.Request((SITE / "index.html").as_uri(), callback=self.parse)

    def parse(self, response):
        for link in response.css("article.teaser a.headline"):
            yield response.follow(link, callback=self.parse_article)

    def parse_article(self, response):
        title = response.css("h1::text").get()
        if title is not None:  # a related link may lead back to a front page
            yield {
                "url": response.url,
                "title": title,
                "language": response.meta.get("declutter_result", {}).get("language"),
            }
        for link in response.css("aside.related a"):
            yield response.follow(link, callback=self.parse_article)
