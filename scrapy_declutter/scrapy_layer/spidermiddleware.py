"""The spider middleware: fill the items a callback yields with its response's result.

``DeclutterSpiderMiddleware`` writes ``response.meta["declutter_result"]`` (set
by the downloader middleware) into every item the callback yields from that
response, except items that carry HTML of their own in
``DECLUTTER_HTML_FIELD`` (the item pipeline declutters those). The fields
written follow the request's ``meta["declutter"]`` overrides, as the result does.
An item that cannot be written in place is passed on as a filled copy
(``item_output.fill_item``).
"""

from collections.abc import AsyncIterator
from typing import Any

from itemadapter import ItemAdapter, is_item
from scrapy.crawler import Crawler
from scrapy.http import Response

from scrapy_declutter.scrapy_layer.config import META_OVERRIDE, META_RESULT, Config
from scrapy_declutter.scrapy_layer.item_output import fill_item, has_own_html
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
