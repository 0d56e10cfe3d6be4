"""The item pipeline: declutter items that carry raw HTML of their own.

An item whose ``DECLUTTER_HTML_FIELD`` (default ``html``) holds a non-empty
``str`` or ``bytes`` is decluttered in a worker with the settings' options, and
receives the text and blocks like an item filled from a response (the HTML
field is left as it is). Items without HTML, and items that already have text
(unless ``DECLUTTER_OVERWRITE``), pass through untouched; so do items whose
HTML is binary data (counted as ``items_skipped/binary``), items whose HTML
is over ``DECLUTTER_MAX_BODY_SIZE`` in UTF-8 (``pages_skipped/too_large``), and
items whose HTML runs past ``DECLUTTER_TIMEOUT`` in a worker process (``pages_skipped/timeout``)
or over a limit (``pages_skipped/over_memory_limit``, ``too_many_attributes``:
one WARNING line each, naming the setting).
An extraction error is logged and counted, and the item goes on unchanged: no
item is ever dropped.
"""

from typing import Any

from itemadapter import ItemAdapter, is_item
from scrapy.crawler import Crawler
from scrapy.exceptions import NotConfigured
from scrapy.utils.defer import maybe_deferred_to_future

from scrapy_declutter.core.errors import BinaryInputError, PageLimitError
from scrapy_declutter.scrapy_layer.item_output import fill_item, has_own_html
from scrapy_declutter.scrapy_layer.page import Page, extract_page
from scrapy_declutter.scrapy_layer.processes import WorkerTimeout
from scrapy_declutter.scrapy_layer.state import CrawlerState


class DeclutterPipeline:
    """Item pipeline: declutter the raw HTML an item carries."""

    def __init__(self, state: CrawlerState, html_field: str) -> None:
        self.config = state.config
        self.workers = state.workers
        self.recorder = state.recorder
        self.html_field = html_field

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> "DeclutterPipeline":
        state = CrawlerState.enabled_for(crawler)
        if state.config.html_field is None:
            raise NotConfigured
        return cls(state, state.config.html_field)

    async def process_item(self, item: Any) -> Any:
        if not is_item(item):
            return item
        adapter = ItemAdapter(item)
        if not has_own_html(adapter, self.config):
            return item
        if adapter.get(self.config.text_field) and not self.config.overwrite:
            self.recorder.item_skipped("has_text")
            return item
        html = adapter[self.html_field]
        size = len(html) if isinstance(html, bytes) else len(html.encode("utf-8", "replace"))
        too_large = self.config.over_size_limit(size)
        if too_large is not None:
            self.recorder.page_skipped("too_large", f"item {type(item).__qualname__}", too_large)
            return item
        url = adapter.get("url")
        page = Page(
            html=html,
            url=url if isinstance(url, str) else None,
            options=self.config.options,
            blocks=self.config.blocks,
            markdown=self.config.markdown,
            metadata=bool(self.config.metadata_fields),
        )
        try:
            data, seconds, failed = await maybe_deferred_to_future(
                self.workers.run(extract_page, page, self.config.timeout or None)
            )
        except BinaryInputError:
            self.recorder.item_skipped("binary")
            return item
        except PageLimitError as error:
            self.recorder.over_limit(error, f"item {type(item).__qualname__}")
            return item
        except WorkerTimeout as timeout:
            self.recorder.timeout(timeout, f"item {type(item).__qualname__}")
            return item
        except Exception as error:
            self.recorder.error(error, f"item {type(item).__qualname__}")
            return item
        self.recorder.page(seconds)
        self.recorder.outputs_failed(failed, f"item {type(item).__qualname__}")
        return fill_item(adapter, data, self.config, self.recorder)
