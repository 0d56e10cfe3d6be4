"""What the layer keeps per crawler: its config, its workers, its stats recorder.

The downloader middleware, the spider middleware and the item pipeline of one
crawler share one ``CrawlerState``, made by the first of them to start: the
settings are read and checked once, one set of workers serves all three, and
one summary line is logged when the spider closes.
"""

from dataclasses import dataclass
from weakref import WeakKeyDictionary

from scrapy import signals
from scrapy.crawler import Crawler
from scrapy.exceptions import NotConfigured

from scrapy_declutter.scrapy_layer.config import Config
from scrapy_declutter.scrapy_layer.stats import Recorder
from scrapy_declutter.scrapy_layer.workers import Workers

_states: "WeakKeyDictionary[Crawler, CrawlerState]" = WeakKeyDictionary()


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
            config = Config.from_settings(crawler.settings)
            state = _states[crawler] = cls(
                config, Workers(config.workers, config.threads), Recorder(crawler)
            )
            crawler.signals.connect(state.close, signal=signals.spider_closed)
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
        self.workers.close()
