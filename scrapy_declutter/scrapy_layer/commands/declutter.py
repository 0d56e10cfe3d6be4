"""``scrapy declutter <url or file>``: one page's clean text, blocks or HTML report.

A URL is fetched through Scrapy with the project's settings (user agent,
proxies, ...); a local file is read as is. The ``DECLUTTER_*`` settings (and
``-s DECLUTTER_LANGUAGE=de`` on the command line) choose the options.
"""

import sys
from pathlib import Path

from scrapy import Request, Spider
from scrapy.commands import ScrapyCommand
from scrapy.exceptions import UsageError
from scrapy.http import HtmlResponse
from w3lib.encoding import http_content_type_encoding
from w3lib.url import is_url

from scrapy_declutter.core.errors import DeclutterError
from scrapy_declutter.core.extraction import extract
from scrapy_declutter.core.report import format_blocks, render_report
from scrapy_declutter.scrapy_layer.config import Config


class Command(ScrapyCommand):
    requires_project = False
    default_settings = {"LOG_LEVEL": "WARNING"}

    def syntax(self) -> str:
        return "[options] <url or file>"

    def short_desc(self) -> str:
        return "Print a page's clean text, its labelled blocks, or an HTML report"

    def add_options(self, parser) -> None:
        super().add_options(parser)
        parser.add_argument(
            "--blocks",
            action="store_true",
            help="print every block: label, context-free class, heading, length, "
            "link and stopword density, content score, start of the text",
        )
        parser.add_argument(
            "--html",
            metavar="FILE",
            help="write an HTML report (why each block was kept or removed, and the page "
            "with its blocks outlined) to FILE, and print only where it went",
        )

    def run(self, args, opts) -> None:
        if len(args) != 1:
            raise UsageError("give one URL or file")
        try:
            config = Config.from_settings(self.settings)
        except DeclutterError as error:
            raise UsageError(str(error), print_help=False) from None
        target = args[0]
        if Path(target).is_file():
            page = (Path(target).read_bytes(), Path(target).resolve().as_uri(), None, None)
        elif is_url(target):
            page = self._fetch(target)
        else:
            raise UsageError(f"no such file, and not a URL: {target}", print_help=False)
        if page is None:
            self.exitcode = 1
            return
        body, url, encoding, content_language = page
        result = extract(
            body, url, encoding=encoding, content_language=content_language, options=config.options
        )
        if opts.html:  # the report alone: the text is in it
            Path(opts.html).write_text(render_report(result, config.options), encoding="utf-8")
            print(f"report written to {opts.html}")
        else:
            print(format_blocks(result) if opts.blocks else result.text)

    def _fetch(self, url: str):
        """Download ``url`` with Scrapy; ``None`` (reported) unless it is an HTML page."""
        responses = []

        class FetchSpider(Spider):
            name = "declutter"

            async def start(self):
                yield Request(
                    url,
                    callback=self.keep,
                    dont_filter=True,
                    meta={"declutter": False, "handle_httpstatus_all": True},
                )

            def keep(self, response):
                responses.append(response)

        assert self.crawler_process is not None
        self.crawler_process.crawl(FetchSpider)
        self.crawler_process.start()
        if not responses:
            print(f"could not fetch {url}", file=sys.stderr)
            return None
        response = responses[0]
        if not isinstance(response, HtmlResponse):
            print(f"not an HTML page: {url}", file=sys.stderr)
            return None
        if response.status >= 400:
            print(f"HTTP {response.status} for {url}", file=sys.stderr)
            return None
        content_type = response.headers.get("Content-Type")
        language = response.headers.get("Content-Language")
        return (
            response.body,
            response.url,
            http_content_type_encoding(content_type.decode("latin-1")) if content_type else None,
            language.decode("latin-1") if language else None,
        )
