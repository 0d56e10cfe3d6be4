"""What the layer keeps per crawler: its config, its workers, its stats recorder.

The downloader middleware, the spider middleware and the item pipeline of one
crawler share one ``CrawlerState``, made by the first of them to start: the
settings are read and checked once, one set of workers serves all three, and
one summary line is logged when the spider closes.

A bad setting stops the crawl before its first request, reported in one
ERROR line that names the setting (see ``checked_settings``).
"""

import asyncio
import logging
import os
from collections.abc import Callable
from dataclasses import dataclass
from typing import TypeVar
from weakref import WeakKeyDictionary

from scrapy import signals
from scrapy.crawler import Crawler
from scrapy.exceptions import NotConfigured

from scrapy_declutter.scrapy_layer.config import Config, InvalidSettingError, setting_name
from scrapy_declutter.scrapy_layer.stats import Recorder
from scrapy_declutter.scrapy_layer.workers import Workers

logger = logging.getLogger(__name__)
_states: "WeakKeyDictionary[Crawler, CrawlerState]" = WeakKeyDictionary()
Value = TypeVar("Value")


@dataclass(frozen=True)
class CrawlerState:
    config: Config
    workers: Workers
    recorder: Recorder

    @classmethod
    def for_crawler(cls, crawler: Crawler) -> "CrawlerState":
        """The crawler's state, made (and its settings checked) on first use."""
        state = _states.get(crawler)
        if state is None:
            config = checked_settings(lambda: Config.from_settings(crawler.settings))
            state = _states[crawler] = cls(
                config,
                Workers(config.workers, config.threads, large_size=config.large_page_size),
                Recorder(crawler),
            )
            crawler.signals.connect(state.close, signal=signals.spider_closed)
            _warn_about_workers(config.workers)
        return state

    @classmethod
    def enabled_for(cls, crawler: Crawler) -> "CrawlerState":
        """The crawler's state; ``NotConfigured`` when ``DECLUTTER_ENABLED`` is false,
        so that a component built from it switches itself off."""
        state = cls.for_crawler(crawler)
        if not state.config.enabled:
            raise NotConfigured
        return state

    def close(self) -> None:
        """Log the summary and stop the workers, when the spider closes."""
        self.recorder.log_summary()
        self.recorder.warn_if_no_item_filled(self.config.text_field)
        self.workers.close()


def checked_settings(read: Callable[[], Value]) -> Value:
    """``read()``, which reads settings; an ``InvalidSettingError`` it raises is
    logged in one ERROR line, then raised on to stop the crawl.

    Scrapy reports an error raised while a crawl starts with its traceback,
    some 40 lines under ``Task exception was never retrieved`` for the task
    ``AsyncCrawlerProcess`` (``scrapy crawl``) runs the crawl in: that task is
    told the error was seen, since this line says all of it. The crawl's
    Deferred or task still fails with it, so ``scrapy crawl`` exits with 1
    and a script that awaits the crawl gets the error. (``CrawlerProcess``'s
    Deferred has no such hook: Twisted reports its failure after the line.)
    """
    try:
        return read()
    except InvalidSettingError as error:
        logger.error("declutter: %s; the crawl does not start", error)
        _mark_retrieved(error)
        raise


def _mark_retrieved(error: BaseException) -> None:
    try:
        task = asyncio.current_task()
    except RuntimeError:  # no event loop running: a Deferred-based crawl
        return
    if task is not None:
        task.add_done_callback(lambda done: done.cancelled() or done.exception())


def _warn_about_workers(workers: int) -> None:
    cores = _usable_cores()
    if workers > cores:
        logger.warning(
            "declutter: %s = %d is more than the %d CPU cores this process may use: "
            "the worker processes take turns on them, which is slower than %d",
            setting_name("workers"),
            workers,
            cores,
            cores,
        )


def _usable_cores() -> int:
    """The cores this process may run on (its affinity where the system tells it)."""
    if hasattr(os, "sched_getaffinity"):
        return len(os.sched_getaffinity(0))
    return os.cpu_count() or 1
