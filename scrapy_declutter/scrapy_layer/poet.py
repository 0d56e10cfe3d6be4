"""Page objects: a zyte-common-items ``Article`` for every page, on web-poet's terms.

``DeclutterArticlePage`` is a web-poet ``WebPage`` (zyte-common-items'
``ArticlePage``) whose fields are web-poet fields, each read from the
extraction the add-on runs: a subclass overrides one with a selector of its
own. ``DeclutterResultProvider`` is the scrapy-poet provider of its input,
``DeclutterResult``: the page extracted once, in the add-on's workers, with
its limits, skips and stats. This module is the only one that imports
web-poet, scrapy-poet and zyte-common-items (the ``poet`` extra): nothing
else of the package imports it.

Settings for a project (``docs/page-objects.rst``)::

    ADDONS = {"scrapy_poet.Addon": 300}
    SCRAPY_POET_PROVIDERS = {DeclutterResultProvider: 1000}
    # to fill a callback's ``Article`` with it:
    SCRAPY_POET_RULES = [ApplyRule("", use=DeclutterArticlePage, to_return=Article)]
"""

import logging
from collections.abc import Callable
from dataclasses import dataclass, replace
from dataclasses import field as dataclass_field
from html import escape
from typing import Any

import attrs
from scrapy.crawler import Crawler
from scrapy.http import Request, Response
from scrapy.utils.defer import maybe_deferred_to_future
from scrapy_poet import PageObjectInputProvider
from web_poet import field
from zyte_common_items import (
    ArticleMetadata,
    ArticlePage,
    Author,
    Image,
)

from scrapy_declutter.scrapy_layer.downloadermiddleware import DeclutterMiddleware
from scrapy_declutter.scrapy_layer.page import Page
from scrapy_declutter.scrapy_layer.results import extraction_of
from scrapy_declutter.scrapy_layer.state import CrawlerState

logger = logging.getLogger(__name__)

# How ``metadata.author`` joins several authors (``outputs/metadata.py``).
AUTHOR_SEPARATOR = "; "


@dataclass(frozen=True)
class DeclutterResult:
    """A response's extraction, the input of ``DeclutterArticlePage``.

    ``data`` is the JSON-safe result ``extract_page`` gives (``text``, the
    kept ``blocks``, ``metadata``, ``article_probability``); empty when the
    page was not extracted, and then ``skipped`` says why (``"not_html"``,
    ``"http_status"``, ``"timeout"``, ...: the add-on's reasons, also
    counted in ``declutter/pages_skipped/<reason>``)."""

    data: dict[str, Any] = dataclass_field(default_factory=dict)
    skipped: str | None = None

    @property
    def metadata(self) -> dict[str, Any]:
        return self.data.get("metadata") or {}

    @property
    def probability(self) -> float:
        return float(self.data.get("article_probability") or 0.0)


class DeclutterResultProvider(PageObjectInputProvider):
    """scrapy-poet's provider of ``DeclutterResult``: list it in
    ``SCRAPY_POET_PROVIDERS``. It extracts the response as the add-on's
    downloader middleware does (``DECLUTTER_*`` settings, ``meta["declutter"]``,
    the same skips, limits, workers and stats), with the metadata and the
    article probability; a response skipped or failed gives an empty
    ``DeclutterResult`` and a log line, never an exception."""

    provided_classes = {DeclutterResult}
    name = "declutter_result"

    async def __call__(
        self, to_provide: set[Callable], request: Request, response: Response, crawler: Crawler
    ) -> list[DeclutterResult]:
        return [await declutter_result(crawler, request, response)]


async def declutter_result(
    crawler: Crawler, request: Request, response: Response
) -> DeclutterResult:
    """Extract ``response`` to ``request`` in the crawler's workers, or say why not."""
    state = CrawlerState.for_crawler(crawler)
    if not state.config.enabled:
        return _skipped("disabled", response, "DECLUTTER_ENABLED is False")
    # The add-on's own extraction: its checks (meta["declutter"], HTML, 2xx,
    # empty, too large), workers, limits, stats and log lines. It is the
    # response's one extraction: the add-on's middlewares, when on, find it
    # and fill their items from it.
    extraction = extraction_of(response)
    if extraction is None:
        extraction = DeclutterMiddleware(state).extraction_for(request, response)
        extraction.register(response)
    if not extraction.started and extraction.page is not None:
        extraction.page = _with_article_outputs(extraction.page)
    data = await maybe_deferred_to_future(extraction.result())
    if data is not None and not ARTICLE_OUTPUTS <= data.keys():
        # extracted before the provider ran (DECLUTTER_EAGER) without them: once more
        extraction = DeclutterMiddleware(state).extraction_for(request, response)
        if extraction.page is not None:
            extraction.page = _with_article_outputs(extraction.page)
        data = await maybe_deferred_to_future(extraction.result())
    if data is None:  # skipped or failed: counted and logged by the extraction
        return _skipped(extraction.reason or "error", response)
    return DeclutterResult(data)


# What the Article is made of, beside the text: the outputs a page asks for.
ARTICLE_OUTPUTS = {"blocks", "metadata", "article_probability"}


def _with_article_outputs(page: Page) -> Page:
    """``page`` asking for the Article's outputs too (the blocks, kept or all,
    the metadata, the article probability); an item gets only those its
    settings ask for, whatever the page computed."""
    blocks = "all" if page.blocks == "all" else "kept"
    return replace(page, blocks=blocks, metadata=True, article_probability=True)


def _skipped(reason: str, response: Response, detail: str = "") -> DeclutterResult:
    logger.info(
        "declutter: no article from %s: the page was not extracted (%s%s); "
        "its Article has metadata.probability 0",
        response.url,
        reason,
        f": {detail}" if detail else "",
    )
    return DeclutterResult(skipped=reason)


def article_body_html(blocks: list[dict[str, Any]]) -> str | None:
    """The kept blocks (``label`` good) as HTML: each heading an ``<h2>``, each other block a
    ``<p>``, inside one ``<article>``. Only the blocks' text is written, every
    character escaped: no markup of the page reaches it (no script, no event
    handler, no remote load), safe by construction."""
    parts = [
        f"<h2>{escape(block['text'])}</h2>"
        if block.get("heading")
        else f"<p>{escape(block['text'])}</p>"
        for block in blocks
        if block.get("text") and block.get("label") == "good"
    ]
    if not parts:
        return None
    return "<article>" + "".join(parts) + "</article>"


def iso_datetime(date: str | None) -> str | None:
    """A ``YYYY-MM-DD`` date as zyte-common-items' ISO 8601 date and time
    (``YYYY-MM-DDT00:00:00Z``): the metadata gives the day only."""
    return f"{date}T00:00:00Z" if date else None


@attrs.define
class DeclutterArticlePage(ArticlePage):
    """An ``Article`` from scrapy-declutter's extraction of the page.

    Each field is a web-poet field: a subclass overrides one (``@field def
    headline(self): return self.css("h1::text").get()``) and keeps the
    others. A page the extraction skipped gives an ``Article`` with the
    page's URL and ``metadata.probability`` 0."""

    declutter: DeclutterResult

    async def to_item(self) -> Any:
        if self.declutter.skipped is not None:
            return self.no_item_found()
        return await super().to_item()

    @field
    def headline(self) -> str | None:
        return self.declutter.metadata.get("title")

    @field
    def articleBody(self) -> str | None:
        return self.declutter.data.get("text") or None

    @field
    def articleBodyHtml(self) -> str | None:
        return article_body_html(self.declutter.data.get("blocks") or [])

    @field
    def authors(self) -> list[Author] | None:
        author = self.declutter.metadata.get("author")
        if not author:
            return None
        # the metadata's names: a byline is already cut to its name there
        names = [name.strip() for name in author.split(AUTHOR_SEPARATOR) if name.strip()]
        return [Author(name=name, nameRaw=name) for name in names] or None

    @field
    def datePublished(self) -> str | None:
        return iso_datetime(self.declutter.metadata.get("date"))

    @field
    def datePublishedRaw(self) -> str | None:
        return self.declutter.metadata.get("date_raw")

    @field
    def inLanguage(self) -> str | None:
        return self.declutter.metadata.get("language") or self.declutter.data.get("language")

    @field
    def description(self) -> str | None:
        return self.declutter.metadata.get("description")

    @field
    def mainImage(self) -> Image | None:
        image = self.declutter.metadata.get("image")
        return Image(url=image) if image else None

    @field
    def images(self) -> list[Image] | None:
        image = self.mainImage
        return [image] if image is not None else None

    @field
    def canonicalUrl(self) -> str | None:
        return self.declutter.metadata.get("url")

    @field
    def metadata(self) -> ArticleMetadata:
        value = super().metadata
        value.probability = self.declutter.probability
        return value
