"""The two middlewares: one declutters responses, one fills the items they yield.

``DeclutterMiddleware`` (downloader middleware) declutters every 2xx HTML
response once, in a worker (see ``workers.py``), and writes the JSON-safe
result into ``response.meta["declutter_result"]``: ``{"text", "language",
"pipeline", "blocks"}``. It skips, counting the reason in
``declutter/pages_skipped/<reason>``: ``disabled`` (``meta["declutter"]`` is
False), ``not_html``, ``http_status`` (not 2xx), ``empty``, ``too_large``
(over ``DECLUTTER_MAX_BODY_SIZE``), ``invalid_meta`` (a bad
``meta["declutter"]`` value, also logged) and ``binary`` (binary data served
as HTML). An extraction error is logged and counted; the response always goes
on unchanged, so its items are still yielded, without text.

``DeclutterSpiderMiddleware`` writes that result into every item the callback
yields from the response, except items that carry HTML of their own in
``DECLUTTER_HTML_FIELD`` (the item pipeline declutters those).
"""

from itemadapter import ItemAdapter, is_item
from scrapy.exceptions import NotConfigured
from scrapy.http import HtmlResponse
from scrapy.utils.defer import maybe_deferred_to_future
from w3lib.encoding import http_content_type_encoding

from scrapy_declutter.core.errors import BinaryInputError, InvalidOptionError
from scrapy_declutter.scrapy_layer.config import META_OVERRIDE, META_RESULT, Config
from scrapy_declutter.scrapy_layer.item_output import fill_item, has_own_html
from scrapy_declutter.scrapy_layer.stats import Recorder
from scrapy_declutter.scrapy_layer.worker_task import extract_page
from scrapy_declutter.scrapy_layer.workers import Workers


class DeclutterMiddleware:
    """Downloader middleware: declutter each HTML response once, off the reactor thread."""

    def __init__(self, config: Config, workers: Workers, recorder: Recorder) -> None:
        self.config = config
        self.workers = workers
        self.recorder = recorder

    @classmethod
    def from_crawler(cls, crawler):
        config = Config.for_crawler(crawler)
        if not config.enabled:
            raise NotConfigured
        workers = Workers.for_crawler(crawler, config.workers)
        return cls(config, workers, Recorder.for_crawler(crawler))

    async def process_response(self, request, response):
        options = self._options(request, response)
        if options is None:
            return response
        header = response.headers.get("Content-Type")
        language = response.headers.get("Content-Language")
        try:
            data, seconds = await maybe_deferred_to_future(
                self.workers.run(
                    extract_page,
                    response.body,
                    response.url,
                    http_content_type_encoding(header.decode("latin-1")) if header else None,
                    language.decode("latin-1") if language else None,
                    options,
                    self.config.blocks,
                )
            )
        except BinaryInputError:
            self.recorder.page_skipped("binary")
            return response
        except Exception as error:
            self.recorder.error(error, response.url)
            return response
        request.meta[META_RESULT] = data
        self.recorder.page(seconds)
        return response

    def _options(self, request, response):
        """The options for this response, or ``None`` (counted) to skip it."""
        override = request.meta.get(META_OVERRIDE, True)
        reason = None
        if override is False:
            reason = "disabled"
        elif not isinstance(response, HtmlResponse):
            reason = "not_html"
        elif not 200 <= response.status < 300:
            reason = "http_status"
        elif not response.body:
            reason = "empty"
        elif len(response.body) > self.config.max_body_size > 0:
            reason = "too_large"
        if reason is not None:
            self.recorder.page_skipped(reason)
            return None
        if override is True or override is None:
            return self.config.options
        try:
            return self.config.with_overrides(override)
        except InvalidOptionError as error:
            self.recorder.page_skipped("invalid_meta")
            self.recorder.warn_once(
                f"meta:{error}",
                "declutter: bad meta[%r] on %s: %s",
                META_OVERRIDE,
                response.url,
                error,
            )
            return None


class DeclutterSpiderMiddleware:
    """Spider middleware: fill the items a callback yields with its response's result."""

    def __init__(self, config: Config, recorder: Recorder) -> None:
        self.config = config
        self.recorder = recorder

    @classmethod
    def from_crawler(cls, crawler):
        config = Config.for_crawler(crawler)
        if not config.enabled:
            raise NotConfigured
        return cls(config, Recorder.for_crawler(crawler))

    async def process_spider_output(self, response, result):
        try:
            data = response.meta.get(META_RESULT)
        except AttributeError:  # a response built without a request has no meta
            data = None
        async for output in result:
            if data is not None and is_item(output):
                adapter = ItemAdapter(output)
                if not has_own_html(adapter, self.config):
                    fill_item(adapter, data, self.config, self.recorder)
            yield output
