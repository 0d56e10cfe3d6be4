"""The layer's stats, and the summary line logged when the spider closes.

Keys: ``declutter/pages`` (pages decluttered), ``declutter/seconds`` (total
extraction seconds), ``declutter/pages_skipped/<reason>``, ``declutter/items``
(items filled), ``declutter/items_skipped/<reason>``,
``declutter/meta_ignored/<key>`` (a bad key of ``meta["declutter"]``, left out),
``declutter/errors`` and ``declutter/errors/<exception name>`` (a page that
gave no text), ``declutter/errors/output/<output>`` (an optional output, the
Markdown, the metadata or the comments, that failed on a page whose text the
items still get; counted in ``declutter/errors`` too).
"""

import logging
from typing import Any

from scrapy.crawler import Crawler

logger = logging.getLogger(__name__)


class Recorder:
    """Counts into the crawler's stats and logs; one per crawler (``CrawlerState``)."""

    def __init__(self, crawler: Crawler) -> None:
        self.crawler = crawler
        assert crawler.stats is not None  # set when the crawler is made
        self.stats = crawler.stats
        self._warned: set[str] = set()

    def page(self, seconds: float) -> None:
        self.stats.inc_value("declutter/pages")
        total = self.stats.get_value("declutter/seconds", 0.0)
        self.stats.set_value("declutter/seconds", total + seconds)

    def page_skipped(self, reason: str) -> None:
        self.stats.inc_value(f"declutter/pages_skipped/{reason}")

    def item(self) -> None:
        self.stats.inc_value("declutter/items")

    def item_skipped(self, reason: str) -> None:
        self.stats.inc_value(f"declutter/items_skipped/{reason}")

    def meta_ignored(self, key: str) -> None:
        self.stats.inc_value(f"declutter/meta_ignored/{key}")

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

    def outputs_failed(self, failed: dict[str, str], where: str) -> None:
        """Optional outputs (``page.OPTIONAL_OUTPUTS``) that raised on a page
        whose text was extracted: each counted, each output logged the first
        time only."""
        for output, error in failed.items():
            self.stats.inc_value("declutter/errors")
            self.stats.inc_value(f"declutter/errors/output/{output}")
            if f"output:{output}" not in self._warned:
                self._warned.add(f"output:{output}")
                logger.error(
                    "declutter: the %s failed on %s (%s); its items get their text and the "
                    "other outputs, and each such failure is counted in declutter/errors/output/%s",
                    output,
                    where,
                    error,
                    output,
                    extra={"spider": self.crawler.spider},
                )

    def timeout(self, error: BaseException, where: str) -> None:
        """A page given up past its time budget: counted as skipped, and logged."""
        self.page_skipped("timeout")
        logger.warning("declutter: %s: %s", where, error, extra={"spider": self.crawler.spider})

    def warn_once(self, key: str, message: str, *args: Any) -> None:
        """Log ``message`` the first time ``key`` is seen (one line per cause, not per page)."""
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
            f"declutter: {_count(pages, 'page')} decluttered in {seconds:.2f} s{per_page}, "
            f"{_count(stats.get('declutter/items', 0), 'item')} filled, "
            f"{_count(sum(skipped.values()), 'page')} skipped"
            + (f" ({reasons})" if reasons else "")
            + f", {_count(stats.get('declutter/errors', 0), 'error')}"
        )

    def log_summary(self) -> None:
        logger.info(self.summary(), extra={"spider": self.crawler.spider})


def _count(n: int, noun: str) -> str:
    """``1 page``, ``2 pages``."""
    return f"{n} {noun}{'' if n == 1 else 's'}"
