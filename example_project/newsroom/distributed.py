"""What the scrapy-redis profile needs beyond scrapy-redis 0.9.1's own classes.

scrapy-redis 0.9.1 predates Scrapy 2.13: its item pipeline takes the
``spider`` argument Scrapy 2.19 deprecates, and its spiders read their first
start URLs in ``start_requests()``, which Scrapy 2.13+ no longer calls, and
its scheduler passes ``spider`` to the stats collector (deprecated too); its
Redis stats collector adds up integers only (Redis ``HINCRBY``), so a float
counter such as ``declutter/seconds`` fails, and it reads every value back
as a string. These are the small shims; scrapy-declutter needs none of them.
"""

import time
from datetime import UTC, datetime

from scrapy import signals
from scrapy.exceptions import DontCloseSpider
from scrapy.utils.defer import maybe_deferred_to_future
from scrapy_redis.pipelines import RedisPipeline
from scrapy_redis.scheduler import Scheduler
from scrapy_redis.spiders import RedisMixin
from scrapy_redis.stats import RedisStatsCollector
from twisted.internet.threads import deferToThread


class RedisItemsPipeline(RedisPipeline):
    """scrapy-redis's pipeline (items pushed to ``<spider>:items`` as JSON),
    without the deprecated ``spider`` argument."""

    @classmethod
    def from_crawler(cls, crawler):
        pipeline = cls.from_settings(crawler.settings)
        pipeline.crawler = crawler
        return pipeline

    async def process_item(self, item):
        spider = self.crawler.spider
        return await maybe_deferred_to_future(deferToThread(self._process_item, item, spider))


class RedisScheduler(Scheduler):
    """scrapy-redis's scheduler, counting its stats without the ``spider`` argument."""

    def open(self, spider):
        super().open(_QuietSpider(spider))
        self.spider = spider
        self.queue.spider = spider

    def enqueue_request(self, request):
        if not request.dont_filter and self.df.request_seen(request):
            self.df.log(request, self.spider)
            return False
        if self.stats:
            self.stats.inc_value("scheduler/enqueued/redis")
        self.queue.push(request)
        return True

    def next_request(self):
        request = self.queue.pop(self.idle_before_close)
        if request and self.stats:
            self.stats.inc_value("scheduler/dequeued/redis")
        return request


class _QuietSpider:
    """The spider, with ``log()`` (deprecated, used by ``Scheduler.open``) sent to its logger."""

    def __init__(self, spider):
        self._spider = spider

    def __getattr__(self, name):
        return getattr(self._spider, name)

    def log(self, message, level=20):
        self._spider.logger.log(level, message)


class RedisStats(RedisStatsCollector):
    """Every worker's stats in one Redis hash, ``<spider>:stats``: counters
    add up over all workers (floats too), and values read back as numbers.
    Values that are set rather than added (``start_time``, ``finish_reason``)
    are the last worker's. Kept when a worker stops if ``SCHEDULER_PERSIST``."""

    def inc_value(self, key, count=1, start=0, spider=None):
        name = self._get_key(spider)
        if start and not self.server.hexists(name, key):
            self.server.hset(name, key, start)
        if isinstance(count, float) or isinstance(start, float):
            self.server.hincrbyfloat(name, key, count)
        else:
            self.server.hincrby(name, key, count)

    def get_value(self, key, default=None, spider=None):
        value = self.server.hget(self._get_key(spider), key)
        return default if value is None else _value(key, value)

    def get_stats(self, spider=None):
        stats = self.server.hgetall(self._get_key(spider))
        return {_text(k): _value(_text(k), v) for k, v in stats.items()}

    def open_spider(self, spider=None):
        super().open_spider(spider)

    def close_spider(self, spider=None, reason=None):
        super().close_spider(spider, reason)


def _text(value):
    return value.decode() if isinstance(value, bytes) else value


def _value(key, value):
    """A stored value as a number, or a datetime for ``*_time`` keys (written as timestamps)."""
    value = _text(value)
    for kind in (int, float):
        try:
            value = kind(value)
            break
        except (TypeError, ValueError):
            pass
    if key.endswith("_time") and isinstance(value, (int, float)):
        return datetime.fromtimestamp(value, UTC)
    return value


class RedisWorkerMixin(RedisMixin):
    """scrapy-redis's ``RedisMixin`` for Scrapy 2.13+.

    * ``start()`` reads the first batch of start URLs (``start_requests()``
      is not called any more); later batches come on ``spider_idle`` as before.
    * ``MAX_IDLE_TIME_BEFORE_CLOSE`` counts from the moment the worker went
      idle; scrapy-redis counts from the moment the class was imported, so a
      worker that was busy longer than that stopped at its first idle moment,
      even while other workers were still feeding the queue.
    """

    idle_since = None

    @classmethod
    def from_crawler(cls, crawler, *args, **kwargs):
        spider = super().from_crawler(crawler, *args, **kwargs)
        spider.setup_redis(crawler)
        crawler.signals.connect(spider._busy, signal=signals.response_received)
        return spider

    async def start(self):
        for request in self.next_requests():
            yield request

    def _busy(self):
        self.idle_since = None

    def spider_idle(self):
        requests = list(self.next_requests())
        for request in requests:
            self.crawler.engine.crawl(request)
        now = time.monotonic()
        if requests or self.idle_since is None:
            self.idle_since = now
        if not self.max_idle_time or now - self.idle_since < self.max_idle_time:
            raise DontCloseSpider
