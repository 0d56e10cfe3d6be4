"""One page to extract, the function a worker runs on it, and a worker process's loop.

``Page`` holds everything a worker needs, in picklable values (bytes, strings,
``Options``); ``extract_page`` returns a JSON-safe result. This module imports
only the core (and w3lib), so a worker process never imports Scrapy.
"""

import signal
import time
from collections.abc import Callable
from dataclasses import dataclass
from multiprocessing.connection import Connection
from typing import TYPE_CHECKING, Any

from w3lib.encoding import http_content_type_encoding

from scrapy_declutter.core.deadline import Deadline
from scrapy_declutter.core.gc_pause import paused_gc
from scrapy_declutter.core.options import Options
from scrapy_declutter.extraction.extract import ExtractionResult, extract

if TYPE_CHECKING:
    from scrapy.http import Response


@dataclass(frozen=True)
class Page:
    """A page and how to extract it.

    ``encoding`` and ``content_language`` come from the HTTP headers (``None``
    when absent). ``blocks`` is which blocks ``extract_page`` returns:
    ``"all"``, ``"kept"`` or ``"none"``; ``markdown``, ``metadata`` and
    ``article_probability`` whether it returns those too (the comments come
    with ``options.comments``; the probability is the page object's).
    ``timeout`` is the seconds ``extract_page`` may take from when a worker
    starts it (``None``: no limit); past them it raises ``DeadlineExceeded``.
    """

    html: bytes | str
    url: str | None
    options: Options
    blocks: str
    encoding: str | None = None
    content_language: str | None = None
    markdown: bool = False
    metadata: bool = False
    timeout: float | None = None
    # the page object's (poet.py): how sure the extraction is that the page is an article
    article_probability: bool = False

    @classmethod
    def from_response(
        cls,
        response: "Response",
        options: Options,
        blocks: str,
        markdown: bool = False,
        metadata: bool = False,
        timeout: float | None = None,
    ) -> "Page":
        """The response's body and URL, with the encoding and language its headers declare."""
        content_type = _header(response, b"Content-Type")
        return cls(
            html=response.body,
            url=response.url,
            options=options,
            blocks=blocks,
            encoding=http_content_type_encoding(content_type) if content_type else None,
            content_language=_header(response, b"Content-Language"),
            markdown=markdown,
            metadata=metadata,
            timeout=timeout,
        )

    def extract(self, deadline: Deadline | None = None) -> ExtractionResult:
        return extract(
            self.html,
            self.url,
            encoding=self.encoding,
            content_language=self.content_language,
            options=self.options,
            deadline=deadline,
        )


# The outputs a page may be asked for beside its text and blocks, each
# computed from the extraction's result on its own: one that raises costs the
# page only itself (``extract_page``).
OPTIONAL_OUTPUTS: dict[str, Callable[[ExtractionResult], Any]] = {
    "markdown": lambda result: result.markdown,
    "metadata": lambda result: result.metadata.to_dict(),
    "comments": lambda result: result.comments,
    "article_probability": lambda result: _article_probability(result),
}


def _article_probability(result: ExtractionResult) -> float:
    """How sure the extraction is that the page is an article: the gate's
    probability (``ExtractionResult.article_probability``), 0 for a page
    with no text kept, 1 for one with text from a pipeline without a gate."""
    if not result.text:
        return 0.0
    if result.article_probability is None:
        return 1.0
    return round(result.article_probability, 4)


def extract_page(page: Page) -> tuple[dict[str, Any], float, dict[str, str]]:
    """Extract one page; return its JSON-safe result, the seconds it took, and
    the optional outputs that failed (``OPTIONAL_OUTPUTS``), each with its
    exception (``"IndexError: ..."``): the result holds the text, the blocks
    and every output that succeeded. Past ``page.timeout`` seconds it raises
    ``DeadlineExceeded``, the clock started here: a page waiting for a worker
    does not spend its time. The cyclic garbage collector is paused
    meanwhile (see ``gc_pause.py``): in thread mode, its passes over the
    page's objects stopped the reactor."""
    start = time.perf_counter()
    deadline = Deadline(page.timeout) if page.timeout else None
    asked = {
        "markdown": page.markdown,
        "metadata": page.metadata,
        "comments": page.options.comments,
        "article_probability": page.article_probability,
    }
    failed: dict[str, str] = {}
    with paused_gc():
        result = page.extract(deadline)
        data = result.to_dict(blocks=page.blocks != "none", comments=False)
        for name, compute in OPTIONAL_OUTPUTS.items():
            if asked[name]:
                if deadline is not None:
                    deadline.check(f"the {name}")
                try:
                    data[name] = compute(result)
                except Exception as error:  # a bug in one output; counted by the caller
                    failed[name] = f"{type(error).__name__}: {error}"
    if page.blocks == "kept":
        data["blocks"] = [block for block in data["blocks"] if block["label"] == "good"]
    return data, time.perf_counter() - start, failed


def _header(response: "Response", name: bytes) -> str | None:
    value = response.headers.get(name)
    return value.decode("latin-1") if value else None


def serve(connection: Connection) -> None:
    """A worker process (``processes.py``): say it is ready, then run each call
    received, ``(function, argument)``, and send back ``("ok", result)`` or
    ``("error", exception)``; end on ``None`` or when the crawl process is gone.

    Ctrl-C in a terminal reaches every process of the group: the crawl process
    stops the workers when it closes, so a worker ignores it rather than dying
    with a traceback and being started again."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    connection.send("ready")
    while True:
        try:
            message = connection.recv()
        except EOFError:
            return
        if message is None:
            return
        function, argument = message
        try:
            reply = ("ok", function(argument))
        except Exception as error:
            reply = ("error", error)
        try:
            connection.send(reply)
        except Exception as error:  # a result or an error that does not pickle
            connection.send(("error", RuntimeError(f"could not send back the result: {error!r}")))
