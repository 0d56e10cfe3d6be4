"""The downloader middleware: prepare each HTML response's extraction, run off the reactor.

``DeclutterMiddleware`` registers every response a callback will see with its
``PageExtraction`` (``results.py``): the page and its config, or why it is
skipped. The extraction runs in a worker (see ``workers.py``) when the
callback yields an item to fill from the response (the spider middleware) or
awaits ``declutter_result(response)``; with ``DECLUTTER_EAGER``, at once,
before the callback, and the JSON-safe result is written into
``response.meta["declutter_result"]``: ``{"text", "language", "pipeline",
"blocks"}``, and ``"markdown"``, ``"metadata"``, ``"comments"`` when asked
for. A page whose result is wanted but not given is counted in
``declutter/pages_skipped/<reason>``: ``disabled`` (``meta["declutter"]`` is
False), ``not_html``, ``http_status`` (not 2xx), ``empty``, ``too_large``
(over ``DECLUTTER_MAX_BODY_SIZE``), ``binary`` (binary data served as HTML),
``timeout`` (past ``DECLUTTER_TIMEOUT``),
``over_memory_limit`` (over ``DECLUTTER_PAGE_MEMORY_LIMIT_MB``) and
``too_many_attributes`` (an element libxml2 would take seconds to parse). Each
skipped page is logged with its URL, at DEBUG (the last three at WARNING).
An extraction error is logged and counted; the response always goes on
unchanged, so its items are still yielded, without text. A response no
callback sees (``callback=NO_CALLBACK``: robots.txt, the files and images
pipelines' downloads) is left alone and not counted. A crawl whose
responses never reached the middleware (another middleware dropped them) ends
with an error saying so.

``meta["declutter"]`` may also be a dict overriding, for this request, any
setting that can differ per page (see ``Config.for_page``): ``{"language":
"fr", "blocks": "all"}``. A bad key (unknown, not per page, or a bad value) is
left out and the page is decluttered with the other keys applied: one wrong
key should not cost the page its text. Each bad key is counted in
``declutter/meta_ignored/<key>`` and logged with its name and the setting's
message (once per key, not per page). Any other value than False, None, True or
a dict is ignored the same way (counted under the key ``declutter``).
"""

from scrapy import signals
from scrapy.crawler import Crawler
from scrapy.http import HtmlResponse, Request, Response
from scrapy.http.request import NO_CALLBACK
from scrapy.utils.defer import maybe_deferred_to_future

from scrapy_declutter.scrapy_layer.config import META_OVERRIDE, META_RESULT, Config
from scrapy_declutter.scrapy_layer.page import Page
from scrapy_declutter.scrapy_layer.results import PageExtraction, extraction_of
from scrapy_declutter.scrapy_layer.state import CrawlerState


class DeclutterMiddleware:
    """Downloader middleware: prepare each HTML response's extraction (run at
    once with ``DECLUTTER_EAGER``)."""

    def __init__(self, state: CrawlerState) -> None:
        self.state = state
        self.config = state.config
        self.workers = state.workers
        self.recorder = state.recorder
        self.responses = 0

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> "DeclutterMiddleware":
        middleware = cls(CrawlerState.enabled_for(crawler))
        crawler.signals.connect(middleware.spider_closed, signal=signals.spider_closed)
        return middleware

    def spider_closed(self) -> None:
        self.recorder.error_if_no_response_reached(self.responses)

    async def process_response(self, request: Request, response: Response) -> Response:
        self.responses += 1
        if request.callback is NO_CALLBACK:
            # robots.txt, a FilesPipeline download: no callback sees it, so it is no
            # page the spider lost, and is neither decluttered nor counted as skipped
            return response
        extraction = extraction_of(response)  # the page object's provider may have made it
        if extraction is None:
            extraction = self.extraction_for(request, response)
            extraction.register(response)
        if self.config.eager:
            data = await maybe_deferred_to_future(extraction.result())
            if data is not None:
                request.meta[META_RESULT] = data
        return response

    def extraction_for(self, request: Request, response: Response) -> PageExtraction:
        """The response's extraction, not started: its page and config, or why
        it is skipped (counted only if its result is asked for)."""
        override = request.meta.get(META_OVERRIDE)
        url, detail = response.url, ""  # the URL, not the response: it must not outlive it
        if override is False:
            reason, detail = "disabled", f'meta["{META_OVERRIDE}"] is False'
        elif not isinstance(response, HtmlResponse):
            reason, detail = "not_html", f"a {type(response).__name__}"
        elif not 200 <= response.status < 300:
            reason, detail = "http_status", f"HTTP {response.status}"
        elif not response.body:
            reason = "empty"
        else:
            config = self._overridden(override, response.url)
            too_large = config.over_size_limit(len(response.body))
            if too_large is None:
                page = Page.from_response(
                    response,
                    options=config.options,
                    blocks=config.blocks,
                    markdown=config.markdown,
                    metadata=bool(config.metadata_fields),
                    timeout=config.timeout or None,
                )
                return PageExtraction(self.state, url, config, page)
            reason, detail = "too_large", too_large
        skipped = lambda: self.recorder.page_skipped(reason, url, detail)  # noqa: E731
        return PageExtraction(self.state, url, None, None, skipped)

    def _overridden(self, override: object, url: str) -> Config:
        """The settings' config with ``meta["declutter"]`` applied; bad keys logged and left out."""
        if override is None or override is True:
            return self.config
        if not isinstance(override, dict):
            self._ignore(None, f"expected False, True, None or a dict, got {override!r}", url)
            return self.config
        config, errors = self.config.for_page(override)
        for error in errors:
            self._ignore(error.key, error.reason, url)
        return config

    def _ignore(self, key: str | None, reason: str, url: str) -> None:
        """Count and log (once per key) a ``meta["declutter"]`` key, or value, left out."""
        where = f"meta[{META_OVERRIDE!r}]" + (f"[{key!r}]" if key is not None else "")
        self.recorder.meta_ignored(key or META_OVERRIDE)
        self.recorder.warn_once(where, "declutter: %s ignored on %s: %s", where, url, reason)
