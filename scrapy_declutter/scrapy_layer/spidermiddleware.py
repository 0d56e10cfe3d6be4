"""The spider middleware: fill the items a callback yields with its response's result.

``DeclutterSpiderMiddleware`` writes the result of the response's extraction
(``results.py``) into every item the callback yields from it, except items
that carry HTML of their own in ``DECLUTTER_HTML_FIELD`` (the item pipeline
declutters those). The fields written follow the request's
``meta["declutter"]`` overrides, as the result does. An item that cannot be
written in place is passed on as a filled copy (``item_output.fill_item``).

The first item to fill starts the response's extraction (unless the callback,
or ``DECLUTTER_EAGER``, has). Until it ends, the items wait here; everything
else the callback yields (requests above all) goes on at once, so an item may
follow requests yielded after it. An item is passed on as soon as its page's
result is there; when the callback's output ends, the items still waiting are
passed on when it is, and so are they when the callback raises, before its
error: a page that failed or timed out gives its items without text.
"""

from collections.abc import AsyncIterator
from typing import Any

from itemadapter import ItemAdapter, is_item
from scrapy.crawler import Crawler
from scrapy.http import Response
from scrapy.utils.defer import maybe_deferred_to_future

from scrapy_declutter.scrapy_layer.config import META_OVERRIDE, META_RESULT, Config
from scrapy_declutter.scrapy_layer.item_output import fill_item, has_own_html
from scrapy_declutter.scrapy_layer.results import PageExtraction, extraction_of
from scrapy_declutter.scrapy_layer.state import CrawlerState


class DeclutterSpiderMiddleware:
    """Spider middleware: fill the items a callback yields with its response's result."""

    def __init__(self, state: CrawlerState) -> None:
        self.config = state.config
        self.recorder = state.recorder

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> "DeclutterSpiderMiddleware":
        return cls(CrawlerState.enabled_for(crawler))

    async def process_spider_output(
        self, response: Response, result: AsyncIterator[Any]
    ) -> AsyncIterator[Any]:
        extraction = extraction_of(response)
        if extraction is None:  # a response the downloader middleware did not see
            async for output in self._filled_from_meta(response, result):
                yield output
            return
        config = extraction.config or self.config
        waiting: list[ItemAdapter] = []  # items to fill, until the result is there
        try:
            async for output in result:
                adapter = ItemAdapter(output) if is_item(output) else None
                held = adapter is not None and not has_own_html(adapter, config)
                if adapter is not None and held:
                    waiting.append(adapter)
                    extraction.start()  # once, however many items
                if waiting and extraction.done:
                    for item in self._filled(waiting, extraction, config):
                        yield item
                if not held:
                    yield output
        except Exception:
            # the callback failed: the items it yielded still go on, before its error
            for item in await self._when_done(waiting, extraction, config):
                yield item
            raise
        for item in await self._when_done(waiting, extraction, config):
            yield item

    async def _when_done(
        self, waiting: list[ItemAdapter], extraction: PageExtraction, config: Config
    ) -> list[Any]:
        """The waiting items, filled once the extraction has ended."""
        if waiting:
            await maybe_deferred_to_future(extraction.result())
        return self._filled(waiting, extraction, config)

    def _filled(
        self, waiting: list[ItemAdapter], extraction: PageExtraction, config: Config
    ) -> list[Any]:
        """The waiting items, filled with the ended extraction's result; empties ``waiting``."""
        items = [
            fill_item(adapter, extraction.data, config, self.recorder)
            if extraction.data is not None
            else adapter.item
            for adapter in waiting
        ]
        waiting.clear()
        return items

    async def _filled_from_meta(
        self, response: Response, result: AsyncIterator[Any]
    ) -> AsyncIterator[Any]:
        """Items filled from ``meta["declutter_result"]``, where someone set it."""
        try:
            meta = response.meta
        except AttributeError:  # a response built without a request has no meta
            meta = {}
        data = meta.get(META_RESULT)
        config = self._page_config(meta.get(META_OVERRIDE)) if data is not None else self.config
        async for output in result:
            if data is not None and is_item(output):
                adapter = ItemAdapter(output)
                if not has_own_html(adapter, config):
                    output = fill_item(adapter, data, config, self.recorder)
            yield output

    def _page_config(self, override: object) -> Config:
        # The downloader middleware has counted and logged the bad keys already.
        if isinstance(override, dict):
            return self.config.for_page(override)[0]
        return self.config
