"""The layer's stats, and the summary line logged when the spider closes.

``STATS`` names every stat and says what it counts, ``PAGES_SKIPPED`` and
``ITEMS_SKIPPED`` every reason a page or an item is skipped for (the docs'
stats reference is made from them; ``tests/test_docs.py`` checks that the code
counts no other).

Each page skipped is logged at DEBUG with its URL and the reason; a page
over a limit (``PageLimitError``) at WARNING, naming the setting that sets it.
"""

import logging
from typing import Any

from scrapy.crawler import Crawler

from scrapy_declutter.core.errors import PageLimitError
from scrapy_declutter.scrapy_layer.config import setting_name

# The ``pages_skipped`` reason of a page over each limit (``PageLimitError.reason``).
LIMIT_SKIPS = {"memory": "over_memory_limit", "attributes": "too_many_attributes"}

logger = logging.getLogger(__name__)

STATS = {
    "declutter/pages": "pages decluttered",
    "declutter/seconds": "the seconds their extraction took, in all (a float)",
    "declutter/pages_skipped/<reason>": (
        "pages wanted (an item was yielded from them, or their result asked for) and not "
        "decluttered, by reason (``PAGES_SKIPPED``)"
    ),
    "declutter/items": "items filled",
    "declutter/items_copied": (
        "items filled in a copy of themselves, as their type cannot be written in place "
        "(a frozen dataclass, attrs class or pydantic model); in ``declutter/items`` too"
    ),
    "declutter/items_skipped/<reason>": "items not filled, by reason (``ITEMS_SKIPPED``)",
    "declutter/meta_ignored/<key>": (
        'a bad key of ``meta["declutter"]``, left out (``declutter``: a value that is not a dict)'
    ),
    "declutter/errors": "extraction errors: the response, or item, goes on without text",
    "declutter/errors/<exception>": "the same, by the exception's class name",
    "declutter/errors/output/<output>": (
        "an optional output (``markdown``, ``metadata``, ``comments``) that failed on a page "
        "whose items still get their text and the other outputs; in ``declutter/errors`` too"
    ),
}
PAGES_SKIPPED = {
    "disabled": '``meta["declutter"]`` is ``False``',
    "not_html": "not an HTML response",
    "http_status": "a status other than 2xx",
    "empty": "an empty body",
    "too_large": "a body, or an item's HTML, over ``DECLUTTER_MAX_BODY_SIZE``",
    "binary": "binary data served as HTML",
    "timeout": "over ``DECLUTTER_TIMEOUT`` (also logged)",
    "over_memory_limit": "over ``DECLUTTER_PAGE_MEMORY_LIMIT_MB`` (also logged)",
    "too_many_attributes": "an element with so many attributes that parsing would take seconds",
}
ITEMS_SKIPPED = {
    "has_text": "the item has text already (``DECLUTTER_OVERWRITE`` is off)",
    "missing_field": "its class declares none of the fields the outputs go to (logged once)",
    "binary": "the item pipeline's HTML field holds binary data",
    "read_only": "its type can be neither written in place nor copied (logged once)",
}


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

    def page_skipped(
        self, reason: str, where: str, detail: str = "", level: int = logging.DEBUG
    ) -> str:
        """Count a page left without text; log ``where`` (its URL) and why, at DEBUG
        unless ``level`` says otherwise. Returns ``reason``, as counted."""
        self.stats.inc_value(f"declutter/pages_skipped/{reason}")
        because = f"{reason} ({detail})" if detail else reason
        logger.log(level, "declutter: skipped %s: %s", where, because, extra=self._extra())
        return reason

    def over_limit(self, error: PageLimitError, where: str) -> str:
        """Count a page refused for its cost, and log it in one line naming the
        setting. Returns the skip's reason, as counted."""
        message = str(error)
        if error.option is not None:
            message = message.replace(error.option, setting_name(error.option))
        return self.page_skipped(LIMIT_SKIPS[error.reason], where, message, logging.WARNING)

    def item(self, copied: bool = False) -> None:
        self.stats.inc_value("declutter/items")
        if copied:
            self.stats.inc_value("declutter/items_copied")

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
            extra=self._extra(),
        )

    def outputs_failed(self, failed: dict[str, str], where: str) -> None:
        """Optional outputs (``page.OPTIONAL_OUTPUTS``) that raised on a page
        whose text was extracted: each counted, each output logged the first
        time only."""
        for output, error in failed.items():
            self.stats.inc_value("declutter/errors")
            self.stats.inc_value(f"declutter/errors/output/{output}")
            self.warn_once(
                f"output:{output}",
                "declutter: the %s failed on %s (%s); its items get their text and the "
                "other outputs, and each such failure is counted in declutter/errors/output/%s",
                output,
                where,
                error,
                output,
                level=logging.ERROR,
            )

    def timeout(self, error: BaseException, where: str) -> str:
        """A page given up past its time budget: counted as skipped, and logged.
        Returns the skip's reason, as counted."""
        return self.page_skipped("timeout", where, str(error), logging.WARNING)

    def warn_once(self, key: str, message: str, *args: Any, level: int = logging.WARNING) -> None:
        """Log ``message`` the first time ``key`` is seen (one line per cause, not per page)."""
        if key not in self._warned:
            self._warned.add(key)
            logger.log(level, message, *args, extra=self._extra())

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
        logger.info(self.summary(), extra=self._extra())

    def warn_if_no_item_filled(self, text_field: str) -> None:
        """Warn when every item met already had a value in the text field, so
        none was filled: the field is most likely one the spider sets (``url``)."""
        stats = self.stats.get_stats()
        had_text = stats.get("declutter/items_skipped/has_text", 0)
        if had_text and not stats.get("declutter/items", 0):
            logger.warning(
                "declutter: no item filled, as every item (%d) already had a value in %r "
                "(%s): an item's own value is kept unless %s = True; set %s to a field the "
                "spider leaves empty",
                had_text,
                text_field,
                setting_name("text_field"),
                setting_name("overwrite"),
                setting_name("text_field"),
                extra=self._extra(),
            )

    def error_if_no_response_reached(self, reached: int) -> None:
        """Log an error when the crawl received responses and none of them
        (``reached``) reached the downloader middleware: every item then lacks
        its text, and the crawl must not end as if all were well. Another
        middleware may drop responses before ours, or a Scrapy release may call
        it in a way it does not take."""
        # counted by Scrapy's DownloaderStats, which sits nearer the downloader than ours
        received = self.stats.get_value("downloader/response_count", 0)
        if received and not reached:
            logger.error(
                "declutter: none of the %d responses received reached DeclutterMiddleware, "
                "so no item got its text: a downloader middleware after it (priority above "
                "its own) dropped them, or this Scrapy release is not supported",
                received,
                extra=self._extra(),
            )

    def _extra(self) -> dict[str, Any]:
        return {"spider": self.crawler.spider}


def _count(n: int, noun: str) -> str:
    """``1 page``, ``2 pages``."""
    return f"{n} {noun}{'' if n == 1 else 's'}"
