"""``scrapy declutter <url or file>``: one page's clean text, Markdown, metadata,
comments, blocks or HTML report.

A URL is fetched through Scrapy with the project's settings (user agent,
proxies, ...); a local file is read as is. A page that is not HTML (judged as
in a crawl), empty, or that cannot be extracted is named on standard error
with the reason, and the command exits with status 1; so does a URL that cannot
be fetched, in one line that says why. Options that do not combine, an unknown
option or a bad setting are usage errors (status 2). The ``DECLUTTER_*`` settings
(and ``-s DECLUTTER_LANGUAGE=de`` on the command line) choose the options.
"""

import argparse
import json
import logging
import os
import sys
from collections.abc import AsyncIterator
from dataclasses import fields, replace
from pathlib import Path
from typing import Any, ClassVar

from scrapy import Request, Spider
from scrapy.commands import ScrapyCommand
from scrapy.downloadermiddlewares.retry import RetryMiddleware
from scrapy.downloadermiddlewares.robotstxt import RobotsTxtMiddleware
from scrapy.exceptions import UsageError
from scrapy.http import HtmlResponse, Response
from scrapy.responsetypes import responsetypes
from twisted.python.failure import Failure
from w3lib.url import is_url

from scrapy_declutter.core.errors import DeclutterError
from scrapy_declutter.core.options import Options
from scrapy_declutter.extraction.explain import BlockExplanation, explain
from scrapy_declutter.extraction.extract import ExtractionResult
from scrapy_declutter.outputs.report import format_blocks, render_report
from scrapy_declutter.scrapy_layer.config import Config
from scrapy_declutter.scrapy_layer.page import Page


class Command(ScrapyCommand):
    requires_project = False
    default_settings: ClassVar[dict[str, Any]] = {"LOG_LEVEL": "WARNING"}

    def syntax(self) -> str:
        return "[options] <url or file>"

    def short_desc(self) -> str:
        return (
            "Print a page's clean text, Markdown, metadata, comments, labelled blocks, "
            "or an HTML report"
        )

    def add_options(self, parser: argparse.ArgumentParser) -> None:
        super().add_options(parser)
        parser.add_argument(
            "--blocks",
            action="store_true",
            help="print every block: label, context-free class, heading, length, "
            "link and stopword density, content score, start of the text",
        )
        parser.add_argument(
            "--markdown",
            action="store_true",
            help="print the kept text as Markdown (headings, lists, tables, code, links)",
        )
        parser.add_argument(
            "--metadata",
            action="store_true",
            help="print the page's metadata as JSON (title, author, date, site_name, "
            "description, language, url, image); with --markdown, before it",
        )
        parser.add_argument(
            "--comments",
            action="store_true",
            help="print the page's user comments instead of its text, a paragraph a block "
            "(nothing when it has none; the text never holds them)",
        )
        parser.add_argument(
            "--html",
            metavar="FILE",
            help="write an HTML report (why each block was kept or removed, and the page "
            "with its blocks outlined) to FILE, and print only where it went",
        )

    def run(self, args: list[str], opts: argparse.Namespace) -> None:
        # Scrapy hands options it does not know over as arguments
        unknown = [arg for arg in args if arg.startswith("-") and not Path(arg).is_file()]
        if unknown:
            raise UsageError(f"unknown option: {unknown[0]}", print_help=False)
        clash = _clash(opts)
        if clash:
            raise UsageError(clash, print_help=False)
        if len(args) != 1:
            raise UsageError("give one URL or file", print_help=False)
        try:
            assert self.settings is not None  # set by scrapy before run()
            config = Config.from_settings(self.settings)
        except DeclutterError as error:
            raise UsageError(str(error), print_help=False) from None
        options = replace(config.options, comments=True) if opts.comments else config.options
        target = args[0]
        page: Page | None
        if Path(target).is_file():
            page = _read(Path(target), options)
        elif is_url(target):
            page = self._fetch(target, options)
        else:
            raise UsageError(f"no such file, and not a URL: {target}", print_help=False)
        if page is None:
            self.exitcode = 1
            return
        try:
            result = page.extract()
        except DeclutterError as error:  # binary data, a page over a limit, ...
            print(f"cannot extract {target}: {error}", file=sys.stderr)
            self.exitcode = 1
            return
        try:
            _print(result, page, options, opts, target)
            sys.stdout.flush()  # a short output is still buffered: a closed pipe shows here
        except BrokenPipeError:
            # The reader went away (``| head``): end quietly, as Unix tools do, and
            # point stdout at nothing so that the flush at exit cannot fail again.
            os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
            self.exitcode = 1

    def _fetch(self, url: str, options: Options) -> Page | None:
        """Download ``url`` with Scrapy; ``None`` (reported) unless it is an HTML page."""
        responses: list[Response] = []
        failures: list[Failure] = []

        class FetchSpider(Spider):
            name = "declutter"

            async def start(self) -> AsyncIterator[Request]:
                yield Request(
                    url,
                    callback=self.keep,
                    errback=failures.append,
                    dont_filter=True,
                    meta={"declutter": False, "handle_httpstatus_all": True},
                )

            def keep(self, response: Response) -> None:
                responses.append(response)

        assert self.crawler_process is not None
        # The one line printed below says why a page could not be fetched:
        # Scrapy's give-up line (ERROR, whatever RETRY_GIVE_UP_LOG_LEVEL before
        # Scrapy 2.16) and, with ROBOTSTXT_OBEY (a new project's setting), the
        # robots.txt failure's two tracebacks would repeat it.
        quieted = [logging.getLogger(m.__module__) for m in (RetryMiddleware, RobotsTxtMiddleware)]
        for logger in quieted:
            logger.addFilter(_below_error)
        try:
            self.crawler_process.crawl(FetchSpider)
            self.crawler_process.start()
        finally:
            for logger in quieted:
                logger.removeFilter(_below_error)
        if not responses:
            why = f": {failures[0].getErrorMessage()}" if failures else ""
            print(f"could not fetch {url}{why}", file=sys.stderr)
            return None
        response = responses[0]
        if not isinstance(response, HtmlResponse):
            print(f"not an HTML page: {url}", file=sys.stderr)
            return None
        if response.status >= 400:
            print(f"HTTP {response.status} for {url}", file=sys.stderr)
            return None
        if not response.body:
            print(f"an empty page: {url}", file=sys.stderr)
            return None
        return Page.from_response(response, options, "all")


def _below_error(record: logging.LogRecord) -> bool:
    return record.levelno < logging.ERROR


def _print(
    result: ExtractionResult,
    page: Page,
    options: Options,
    opts: argparse.Namespace,
    target: str,
) -> None:
    if opts.html:  # the report alone: the text is in it
        weighed = _explained(page) if result.pipeline == "declutter" else None
        report = render_report(result, options, weighed)
        Path(opts.html).write_text(report, encoding="utf-8")
        print(f"report written to {opts.html}")
        return
    if opts.metadata:
        print(json.dumps(result.metadata.to_dict(), ensure_ascii=False, indent=2))
    if opts.blocks:
        print(format_blocks(result))
    elif opts.comments:
        if result.comments:
            print(result.comments)
    elif opts.markdown:
        print(result.markdown)
    elif not opts.metadata:
        print(result.text)
        if not result.text:
            print(f"no block of {target} was kept: --blocks shows why", file=sys.stderr)


def _clash(opts: argparse.Namespace) -> str | None:
    """Why the options given cannot be honoured together, or ``None``: each of
    them chooses what is printed, and only ``--metadata`` goes before another."""
    given = [f"--{name}" for name in ("blocks", "comments", "markdown") if getattr(opts, name)]
    if opts.html:  # the report alone is printed
        given = ["--html", *given, *(["--metadata"] if opts.metadata else [])]
    if len(given) < 2:
        return None
    return f"{given[0]} and {given[1]} do not combine: give one of them"


def _read(path: Path, options: Options) -> Page | None:
    """A local file as a page; ``None`` (reported) unless it is HTML, judged
    as Scrapy judges a ``file://`` download: by its name, then its bytes."""
    data = path.read_bytes()
    if not data:
        print(f"an empty file: {path}", file=sys.stderr)
        return None
    kind = responsetypes.from_args(filename=str(path), body=data)
    if not issubclass(kind, HtmlResponse):
        print(f"not an HTML page: {path} (read as a {kind.__name__})", file=sys.stderr)
        return None
    return Page(data, path.resolve().as_uri(), options, "all")


def _explained(page: Page) -> list[BlockExplanation]:
    """What weighed most in each block's scores: the content model's ``explain``."""
    options = {field.name: getattr(page.options, field.name) for field in fields(page.options)}
    return explain(
        page.html, encoding=page.encoding, content_language=page.content_language, **options
    )
