"""The Harbour Times as zyte-common-items ``Article`` items, through page objects.

The callback declares the ``Article`` it needs; scrapy-poet and
scrapy-declutter's page object (``settings_poet.py``) fill it: headline,
body, authors, date, language, and ``metadata.probability``, how sure the
extraction is that the page is an article. Pages that are not (the front
page a related link leads back to) are left out by that number.
"""

from pathlib import Path

import scrapy
from zyte_common_items import Article

SITE = Path(__file__).resolve().parents[1] / "site"
# Pages the extraction reads as less likely an article than this are dropped.
MIN_PROBABILITY = 0.5


class NewsArticlesSpider(scrapy.Spider):
    name = "news_articles"

    async def start(self):
        yield scrapy.Request((SITE / "index.html").as_uri(), callback=self.parse)

    def parse(self, response):
        for link in response.css("article.teaser a.headline"):
            yield response.follow(link, callback=self.parse_article)

    def parse_article(self, response, article: Article):
        if article.metadata is not None and article.metadata.probability >= MIN_PROBABILITY:
            yield article
        for link in response.css("aside.related a"):
            yield response.follow(link, callback=self.parse_article)
