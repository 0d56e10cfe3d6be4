"""Running real crawls in the test reactor with ``CrawlerRunner``."""

import scrapy
from scrapy import signals
from scrapy.crawler import CrawlerRunner

BASE_SETTINGS = {
    "LOG_LEVEL": "WARNING",
    "TELNETCONSOLE_ENABLED": False,
    "ROBOTSTXT_OBEY": False,
}
ADDON = {"ADDONS": {"scrapy_declutter.Addon": 100}}


class PagesSpider(scrapy.Spider):
    """Requests ``urls`` and yields one ``item_factory(url=...)`` per response."""

    name = "pages"

    def __init__(self, urls=(), item_factory=dict, meta=None, **kwargs):
        super().__init__(**kwargs)
        self.urls = list(urls)
        self.item_factory = item_factory
        self.meta = meta or {}
        self.seen_meta = {}

    async def start(self):
        for url in self.urls:
            yield scrapy.Request(url, meta=dict(self.meta.get(url, {})), dont_filter=True)

    def parse(self, response):
        self.seen_meta[response.url] = dict(response.meta)
        yield self.item_factory(url=response.url)


class ResultSpider(PagesSpider):
    """A ``PagesSpider`` whose callback awaits ``declutter_result(response)``
    (kept in ``results``) before it yields the item."""

    name = "results"

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.results = {}

    async def parse(self, response):
        from scrapy_declutter import declutter_result

        self.seen_meta[response.url] = dict(response.meta)
        self.results[response.url] = await declutter_result(response)
        yield self.item_factory(url=response.url)


class Crawl:
    """The outcome of one crawl: scraped items, stats, the spider."""

    def __init__(self, items, stats, spider):
        self.items = items
        self.stats = stats
        self.spider = spider

    def by_url(self, url):
        adapter_items = [item for item in self.items if _url(item) == url]
        assert len(adapter_items) == 1, adapter_items
        return adapter_items[0]


def _url(item):
    from itemadapter import ItemAdapter

    return ItemAdapter(item).get("url")


async def crawl(spidercls=PagesSpider, settings=None, **spider_kwargs) -> Crawl:
    """Run one crawl to its end; collect every scraped item."""
    runner = CrawlerRunner({**BASE_SETTINGS, **(settings or {})})
    crawler = runner.create_crawler(spidercls)
    items = []

    def collect(item):  # a named function: signal receivers are weak references
        items.append(item)

    crawler.signals.connect(collect, signal=signals.item_scraped)
    await runner.crawl(crawler, **spider_kwargs)
    return Crawl(items, crawler.stats.get_stats(), crawler.spider)
