"""The layer's stats, and the summary line logged when the spider closes.

Keys: ``declutter/pages`` (pages decluttered), ``declutter/seconds`` (total
extraction seconds), ``declutter/pages_skipped/<reason>``, ``declutter/items``
(items filled), ``declutter/items_skipped/<reason>``, ``declutter/errors`` and
``declutter/errors/<exception name>``.
"""

import logging
from weakref import WeakKeyDictionary

from scrapy import signals

logger = logging.getLogger(__name__)
_recorders: "WeakKeyDictionary[object, Recorder]" = WeakKeyDictionary()


class Recorder:
    """Counts into the crawler's stats; one per crawler, shared by components."""

    def __init__(self, crawler) -> None:
        self.crawler = crawler
        self.stats = crawler.stats
        self._warned: set[str] = set()

    @classmethod
    def for_crawler(cls, crawler) -> "Recorder":
        recorder = _recorders.get(crawler)
        if recorder is None:
            recorder = _recorders[crawler] = cls(crawler)
            crawler.signals.connect(recorder.log_summary, signal=signals.spider_closed)
        return recorder

    def page(self, seconds: float) -> None:
        self.stats.inc_value("declutter/pages")
        self.stats.inc_value("declutter/seconds", seconds, start=0.0)

    def page_skipped(self, reason: str) -> None:
        self.stats.inc_value(f"declutter/pages_skipped/{reason}")

    def item(self) -> None:
        self.stats.inc_value("declutter/items")

    def item_skipped(self, reason: str) -> None:
        self.stats.inc_value(f"declutter/items_skipped/{reason}")

    def error(self, error: BaseException, where: str) -> None:
        name = type(error).__name__
        self.stats.inc_value("declutter/errors")
        self.stats.inc_value(f"declutter/errors/{name}")
        logger.error(
            "declutter: %s on %s: %s",
            name,
            where,
            error,
            exc_info=error,
            extra={"spider": self.crawler.spider},
        )

    def warn_once(self, key: str, message: str, *args) -> None:
        if key not in self._warned:
            self._warned.add(key)
            logger.warning(message, *args, extra={"spider": self.crawler.spider})

    def summary(self) -> str:
        stats = self.stats.get_stats()
        pages = stats.get("declutter/pages", 0)
        seconds = stats.get("declutter/seconds", 0.0)
        per_page = f" ({1000 * seconds / pages:.1f} ms/page)" if pages else ""
        skipped = {
            k.rsplit("/", 1)[1]: v
            for k, v in stats.items()
            if k.startswith("declutter/pages_skipped/")
        }
        reasons = ", ".join(f"{k}: {v}" for k, v in sorted(skipped.items()))
        return (
            f"declutter: {pages} pages decluttered in {seconds:.2f} s{per_page}, "
            f"{stats.get('declutter/items', 0)} items filled, "
            f"{sum(skipped.values())} pages skipped"
            + (f" ({reasons})" if reasons else "")
            + f", {stats.get('declutter/errors', 0)} errors"
        )

    def log_summary(self, spider) -> None:
        logger.info(self.summary(), extra={"spider": spider})
