"""The news spider as a scrapy-redis worker: start URLs come from Redis.

    SCRAPY_PROJECT=redis scrapy crawl news_redis

Same callbacks as ``news``; the start URLs are read from the Redis list
``news_redis:start_urls``, and the requests it finds go to the shared queue,
so every worker crawls a share of the site and no page twice.
"""

from scrapy import Spider

from ..distributed import RedisWorkerMixin
from ..spiders.news import NewsSpider


class NewsRedisSpider(RedisWorkerMixin, Spider):
    name = "news_redis"
    parse_article = NewsSpider.parse_article

    async def parse(self, response):
        """A start URL is a front page, or an article pushed again to recover
        it after a worker was lost (see the README's "Scaling out")."""
        for request in NewsSpider.parse(self, response):
            yield request
        async for output in self.parse_article(response):
            yield output
