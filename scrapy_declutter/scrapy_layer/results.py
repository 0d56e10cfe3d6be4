"""Each response's extraction, started when it is first needed and run once.

The downloader middleware registers every response a callback will see with a
``PageExtraction``: the page to extract and its config, or why it is skipped
(decided then, as it costs nothing). Nothing runs yet. The extraction starts
the first time its result is asked for: by the spider middleware, when the
callback yields an item to fill from the response; by the callback itself,
through ``declutter_result(response)``; or at once by the downloader
middleware with ``DECLUTTER_EAGER``. However often it is asked for, it runs
once, and a skip, a timeout or an error is counted and logged once, as the
page's: a response no item comes from costs nothing and is no page lost.

The registry is keyed weakly by the response, outside ``request.meta``, which
must stay picklable (users copy it into new requests; scrapy-redis pickles
requests). A ``PageExtraction`` holds no reference to its response.
"""

from collections.abc import Callable
from typing import Any
from weakref import WeakKeyDictionary

from scrapy.http import Response
from scrapy.utils.defer import maybe_deferred_to_future
from twisted.internet.defer import Deferred, succeed
from twisted.python.failure import Failure

from scrapy_declutter.core.errors import BinaryInputError, PageLimitError
from scrapy_declutter.scrapy_layer.config import META_RESULT, Config
from scrapy_declutter.scrapy_layer.page import Page, extract_page
from scrapy_declutter.scrapy_layer.processes import WorkerTimeout
from scrapy_declutter.scrapy_layer.state import CrawlerState

_extractions: "WeakKeyDictionary[Response, PageExtraction]" = WeakKeyDictionary()


class PageExtraction:
    """One response's extraction: ``config`` and ``page`` when it is to be
    decluttered; when it is not, ``skipped`` counts and logs why (called once,
    if the result is asked for) and returns the reason it counted. Once done
    without a result, ``reason`` is why: the skip's reason as counted
    (``declutter/pages_skipped/<reason>``), or ``"error"``; the page's own,
    whatever other pages are skipped meanwhile."""

    def __init__(
        self,
        state: CrawlerState,
        url: str,
        config: Config | None,
        page: Page | None,
        skipped: Callable[[], str] | None = None,
    ) -> None:
        self.state = state
        self.url = url
        self.config = config
        self.page = page
        self.skipped = skipped
        self.started = False
        self.done = False
        self.data: dict[str, Any] | None = None
        self.reason: str | None = None
        self._waiting: list[Deferred[dict[str, Any] | None]] = []

    def register(self, response: Response) -> None:
        _extractions[response] = self

    def result(self) -> "Deferred[dict[str, Any] | None]":
        """The page's result (``None`` when skipped or failed, counted once);
        the extraction starts on the first call. Never fails."""
        if self.done:
            return succeed(self.data)
        waiting: Deferred[dict[str, Any] | None] = Deferred()
        self._waiting.append(waiting)
        self.start()
        return waiting

    def start(self) -> None:
        """Start the extraction, unless it has started already."""
        if not self.started:
            self.started = True
            self._start()

    def _start(self) -> None:
        if self.page is None or self.config is None:
            if self.skipped is not None:
                self.reason = self.skipped()
            self._finish(None)
            return
        timeout = self.config.timeout or None
        running = self.state.workers.run(extract_page, self.page, timeout, len(self.page.html))
        self.page = None  # the body is no longer needed here
        running.addCallback(self._extracted).addErrback(self._failed)

    def _extracted(self, outcome: tuple[dict[str, Any], float, dict[str, str]]) -> None:
        data, seconds, failed = outcome
        self.state.recorder.page(seconds)
        self.state.recorder.outputs_failed(failed, self.url)
        self._finish(data)

    def _failed(self, failure: Failure) -> None:
        recorder, error = self.state.recorder, failure.value
        assert error is not None  # a Failure always holds its exception
        if isinstance(error, BinaryInputError):
            self.reason = recorder.page_skipped("binary", self.url, str(error))
        elif isinstance(error, PageLimitError):
            self.reason = recorder.over_limit(error, self.url)
        elif isinstance(error, WorkerTimeout):
            self.reason = recorder.timeout(error, self.url)
        else:
            recorder.error(error, self.url)
            self.reason = "error"
        self._finish(None)

    def _finish(self, data: dict[str, Any] | None) -> None:
        if self.done:
            return
        self.done, self.data = True, data
        waiting, self._waiting = self._waiting, []
        for deferred in waiting:
            deferred.callback(data)


def extraction_of(response: Response) -> PageExtraction | None:
    """The response's registered extraction; ``None`` for a response the
    downloader middleware has not seen (or no response at all)."""
    try:
        return _extractions.get(response)
    except TypeError:  # not weakly referable: None, say
        return None


async def declutter_result(response: Response) -> dict[str, Any] | None:
    """The declutter result of ``response``, as its items get it: ``{"text",
    "language", "pipeline", "blocks"}`` and the other outputs asked for; or
    ``None`` for a page not decluttered (skipped, failed or timed out: counted
    and logged as for its items).

    Await it in an ``async def`` callback (``data = await
    declutter_result(response)``). The first call starts the extraction, off
    the reactor thread; any later call, and the items the callback yields
    from the response, share it. A response the add-on has not seen (built
    by hand, or the add-on is off) gives its ``meta["declutter_result"]``,
    or ``None``.
    """
    extraction = extraction_of(response)
    if extraction is None:
        try:
            return response.meta.get(META_RESULT)
        except AttributeError:  # a response built without a request has no meta
            return None
    return await maybe_deferred_to_future(extraction.result())
