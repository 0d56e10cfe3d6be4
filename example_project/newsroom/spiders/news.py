"""Crawls the Harbour Times, a small bilingual news site shipped with the project.

The site lives in ``newsroom/site/`` and is read through ``file://`` URLs, so
the crawl needs no network and no server. The spider follows the front page's
teasers and every article's related links, and yields one item per article;
the spider writes no extraction code: the scrapy-declutter add-on fills in
``text`` and ``blocks``, and ``declutter_result`` gives the callback the
language the page was read in. Only the articles are decluttered: the front
page yields no item.
"""

from pathlib import Path

import scrapy

from scrapy_declutter import declutter_result

SITE = Path(__file__).resolve().parents[1] / "site"


class NewsSpider(scrapy.Spider):
    name = "news"

    async def start(self):
        yield scrapy.Request((SITE / "index.html").as_uri(), callback=self.parse)

    def parse(self, response):
        for link in response.css("article.teaser a.headline"):
            yield response.follow(link, callback=self.parse_article)

    async def parse_article(self, response):
        title = response.css("h1::text").get()
        if title is not None:  # a related link may lead back to a front page
            result = await declutter_result(response)  # the item's own, computed once
            yield {
                "url": response.url,
                "title": title,
                "language": result["language"] if result else None,
            }
        for link in response.css("aside.related a"):
            yield response.follow(link, callback=self.parse_article)
