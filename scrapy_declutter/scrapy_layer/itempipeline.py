"""The item pipeline: declutter items that carry raw HTML of their own.

An item whose ``DECLUTTER_HTML_FIELD`` (default ``html``) holds a non-empty
``str`` or ``bytes`` is decluttered in a worker with the settings' options, and
receives the text and blocks like an item filled from a response (the HTML
field is left as it is). Items without HTML, and items that already have text
(unless ``DECLUTTER_OVERWRITE``), pass through untouched; so do items whose
HTML is binary data (counted as ``items_skipped/binary``). An extraction error is
logged and counted, and the item goes on unchanged: no item is ever dropped.
"""

from itemadapter import ItemAdapter, is_item
from scrapy.exceptions import NotConfigured
from scrapy.utils.defer import maybe_deferred_to_future

from scrapy_declutter.core.errors import BinaryInputError
from scrapy_declutter.scrapy_layer.config import Config
from scrapy_declutter.scrapy_layer.item_output import fill_item, has_own_html
from scrapy_declutter.scrapy_layer.stats import Recorder
from scrapy_declutter.scrapy_layer.worker_task import extract_page
from scrapy_declutter.scrapy_layer.workers import Workers


class DeclutterPipeline:
    """Item pipeline: declutter the raw HTML an item carries."""

    def __init__(self, config: Config, workers: Workers, recorder: Recorder) -> None:
        self.config = config
        self.workers = workers
        self.recorder = recorder

    @classmethod
    def from_crawler(cls, crawler):
        config = Config.for_crawler(crawler)
        if not config.enabled or config.html_field is None:
            raise NotConfigured
        workers = Workers.for_crawler(crawler, config.workers)
        return cls(config, workers, Recorder.for_crawler(crawler))

    async def process_item(self, item):
        if not is_item(item):
            return item
        adapter = ItemAdapter(item)
        if not has_own_html(adapter, self.config):
            return item
        if adapter.get(self.config.text_field) and not self.config.overwrite:
            self.recorder.item_skipped("has_text")
            return item
        url = adapter.get("url")
        try:
            data, seconds = await maybe_deferred_to_future(
                self.workers.run(
                    extract_page,
                    adapter[self.config.html_field],
                    url if isinstance(url, str) else None,
                    None,
                    None,
                    self.config.options,
                    self.config.blocks,
                )
            )
        except BinaryInputError:
            self.recorder.item_skipped("binary")
            return item
        except Exception as error:
            self.recorder.error(error, f"item {type(item).__qualname__}")
            return item
        self.recorder.page(seconds)
        fill_item(adapter, data, self.config, self.recorder)
        return item
