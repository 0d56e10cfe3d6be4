"""The scrapy-redis profile: any number of workers share one Redis.

Select it with ``SCRAPY_PROJECT=redis`` (``scrapy.cfg``) and run the
``news_redis`` spider in as many processes, on as many machines, as you like::

    SCRAPY_PROJECT=redis scrapy crawl news_redis -s REDIS_URL=redis://HOST:6379

Start URLs go to the Redis list ``news_redis:start_urls`` (``LPUSH`` a URL,
or a JSON object ``{"url": ...}``). The workers share the request queue, the
duplicate filter and the item list (``news_redis:items``). scrapy-declutter
needs nothing here: the add-on line in ``settings.py`` is all.
Needs the ``redis`` extra: ``python -m pip install -e ".[redis]"`` in the checkout.
"""

from newsroom.settings import *  # noqa: F403  (the add-on line comes from here)

# The worker spider imports scrapy-redis, so only this profile loads its module.
SPIDER_MODULES = ["newsroom.spiders", "newsroom.spiders_redis"]

# One request queue and one duplicate filter in Redis, shared by every worker.
SCHEDULER = "newsroom.distributed.RedisScheduler"  # scrapy_redis.scheduler.Scheduler
DUPEFILTER_CLASS = "scrapy_redis.dupefilter.RFPDupeFilter"
# Keep the queue and the duplicate filter when a worker stops: with several
# workers, the first to finish must not delete what the others still use,
# and a restarted worker resumes the queue. Delete the keys (news_redis:*)
# yourself before a new crawl.
SCHEDULER_PERSIST = True
# Items go to the Redis list news_redis:items, as JSON.
ITEM_PIPELINES = {"newsroom.distributed.RedisItemsPipeline": 300}
# Every worker's stats add up in the Redis hash news_redis:stats.
STATS_CLASS = "newsroom.distributed.RedisStats"
REDIS_URL = "redis://127.0.0.1:6379"
# A worker that has found nothing to do for this many seconds stops
# (0: wait for new start URLs for ever).
MAX_IDLE_TIME_BEFORE_CLOSE = 30
