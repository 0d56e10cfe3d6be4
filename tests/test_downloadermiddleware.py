"""The downloader middleware: what gets decluttered, per-request overrides, the reactor."""

import logging
import threading

import pytest
import pytest_twisted
from scrapy.exceptions import IgnoreRequest
from scrapy.http import HtmlResponse, Request, TextResponse
from scrapy.utils.defer import deferred_from_coro
from scrapy.utils.test import get_crawler

from scrapy_declutter import DeclutterMiddleware, declutter_result
from scrapy_declutter.extraction.presets import PIPELINES, justext_stages
from scrapy_declutter.scrapy_layer.page import OPTIONAL_OUTPUTS
from tests.crawling import ADDON, PagesSpider, ResultSpider, crawl
from tests.site import ARTICLE_DE, ARTICLE_EN, ARTICLE_EN_SENTENCE


def middleware(**settings) -> DeclutterMiddleware:
    return DeclutterMiddleware.from_crawler(get_crawler(settings_dict=settings))


def process(mw, request, response):
    """Run ``process_response`` as Scrapy runs it (an asyncio task)."""
    return deferred_from_coro(mw.process_response(request, response))


def result_of(response):
    """``declutter_result(response)`` as an ``async def`` callback runs it (an asyncio task)."""
    return deferred_from_coro(declutter_result(response))


@pytest_twisted.ensureDeferred
async def test_eager_mode_writes_the_result_to_meta():
    request = Request("https://example.org/a")
    response = HtmlResponse(request.url, body=ARTICLE_EN, request=request)
    mw = middleware(DECLUTTER_EAGER=True)
    returned = await process(mw, request, response)
    assert returned is response
    assert ARTICLE_EN_SENTENCE in response.meta["declutter_result"]["text"]
    assert response.meta["declutter_result"]["language"] == "en"
    assert mw.recorder.stats.get_value("declutter/pages") == 1
    # the documented call gives the same result, computed once
    assert await result_of(response) == response.meta["declutter_result"]
    assert mw.recorder.stats.get_value("declutter/pages") == 1


@pytest_twisted.ensureDeferred
async def test_lazy_mode_declutters_when_asked_and_once():
    request = Request("https://example.org/a")
    response = HtmlResponse(request.url, body=ARTICLE_EN, request=request)
    mw = middleware()
    assert await process(mw, request, response) is response
    assert "declutter_result" not in request.meta
    assert mw.recorder.stats.get_value("declutter/pages") is None
    first = await result_of(response)
    assert ARTICLE_EN_SENTENCE in first["text"]
    assert await result_of(response) is first
    assert mw.recorder.stats.get_value("declutter/pages") == 1
    assert "declutter_result" not in request.meta


@pytest_twisted.ensureDeferred
async def test_content_language_header_is_used_when_the_page_declares_none():
    page = ARTICLE_DE.replace(b'<html lang="de">', b"<html>")
    request = Request("https://example.org/a")
    response = HtmlResponse(
        request.url, body=page, request=request, headers={"Content-Language": "fr"}
    )
    await process(middleware(), request, response)
    assert (await result_of(response))["language"] == "fr"


@pytest.mark.parametrize(
    ("response_kwargs", "settings", "reason", "why"),
    [
        (dict(cls=TextResponse, body=b'{"a": 1}'), {}, "not_html", "not_html (a TextResponse)"),
        (
            dict(cls=HtmlResponse, body=ARTICLE_EN, status=404),
            {},
            "http_status",
            "http_status (HTTP 404)",
        ),
        (dict(cls=HtmlResponse, body=b""), {}, "empty", "empty"),
        (
            dict(cls=HtmlResponse, body=ARTICLE_EN),
            {"DECLUTTER_MAX_BODY_SIZE": 100},
            "too_large",
            f"too_large ({len(ARTICLE_EN):,} bytes, over DECLUTTER_MAX_BODY_SIZE (100))",
        ),
        (
            dict(cls=HtmlResponse, body=b"\x89PNG\r\n\x1a\n" + bytes(range(256)) * 4),
            {},
            "binary",
            "binary",
        ),
    ],
)
@pytest_twisted.ensureDeferred
async def test_skipped_responses_pass_through_and_are_counted_and_logged(
    response_kwargs, settings, reason, why, caplog
):
    kwargs = dict(response_kwargs)
    cls = kwargs.pop("cls")
    request = Request("https://example.org/a")
    response = cls(request.url, request=request, **kwargs)
    mw = middleware(**settings)
    with caplog.at_level(logging.DEBUG, logger="scrapy_declutter"):
        assert await process(mw, request, response) is response
        # counted only once the page is wanted: a response no item comes from is no loss
        assert mw.recorder.stats.get_value(f"declutter/pages_skipped/{reason}") is None
        assert await result_of(response) is None
        assert await result_of(response) is None
    assert "declutter_result" not in request.meta
    assert mw.recorder.stats.get_value(f"declutter/pages_skipped/{reason}") == 1
    [record] = [r for r in caplog.records if r.name.startswith("scrapy_declutter")]
    assert record.levelno == logging.DEBUG
    assert record.getMessage().startswith(f"declutter: skipped https://example.org/a: {why}")


@pytest_twisted.ensureDeferred
async def test_non_html_responses_pass_through_a_crawl(server):
    urls = [server.url("image.png"), server.url("data.json")]
    result = await crawl(settings=ADDON, urls=urls)
    for url in urls:
        assert result.by_url(url) == {"url": url}
        assert "declutter_result" not in result.spider.seen_meta[url]
    assert result.stats["declutter/pages_skipped/not_html"] == 2
    assert "declutter/pages" not in result.stats


@pytest_twisted.ensureDeferred
async def test_robots_txt_is_no_page_skipped(server, caplog):
    # Scrapy's project template obeys robots.txt; the site has none (a 404)
    caplog.set_level(logging.INFO, logger="scrapy_declutter")
    url = server.url("article-en")
    result = await crawl(settings={**ADDON, "ROBOTSTXT_OBEY": True}, urls=[url])
    assert result.stats["robotstxt/response_status_count/404"] == 1  # it was fetched
    assert ARTICLE_EN_SENTENCE in result.by_url(url)["text"]
    assert result.stats["declutter/pages"] == 1
    assert not [key for key in result.stats if key.startswith("declutter/pages_skipped/")]
    [summary] = [r.getMessage() for r in caplog.records if "decluttered in" in r.getMessage()]
    assert "0 pages skipped" in summary


@pytest_twisted.ensureDeferred
async def test_per_request_meta_skips_or_overrides(server, caplog):
    skipped, overridden, tiny, output, bad = (
        server.url(f"article-en?{n}") for n in ("skip", "override", "tiny", "output", "bad")
    )
    meta = {
        skipped: {"declutter": False},
        overridden: {"declutter": {"language": "German"}},
        tiny: {"declutter": {"pipeline": "justext", "length_low": 5000, "length_high": 5000}},
        output: {"declutter": {"blocks": "kept", "text_field": "body", "blocks_field": "parts"}},
        bad: {"declutter": {"lenght_low": 10, "language": "German", "blocks": "some"}},
    }
    result = await crawl(ResultSpider, settings=ADDON, urls=list(meta), meta=meta)

    assert result.by_url(skipped) == {"url": skipped}
    assert result.spider.results[skipped] is None
    assert result.spider.results[overridden]["language"] == "de"
    # no block reaches 5000 characters, so jusText keeps nothing
    assert result.by_url(tiny)["text"] == ""
    item = result.by_url(output)
    assert set(item) == {"url", "body", "parts"}
    assert ARTICLE_EN_SENTENCE in item["body"]
    assert {block["label"] for block in item["parts"]} == {"good"}
    # the bad keys are left out, logged by name and counted; the valid one applies
    assert set(result.by_url(bad)) == {"url", "text"}
    assert ARTICLE_EN_SENTENCE in result.by_url(bad)["text"]
    assert result.spider.results[bad]["language"] == "de"
    assert result.stats["declutter/meta_ignored/lenght_low"] == 1
    assert result.stats["declutter/meta_ignored/blocks"] == 1
    warnings = [r.getMessage() for r in caplog.records if "ignored" in r.getMessage()]
    assert len(warnings) == 2
    assert f"meta['declutter']['lenght_low'] ignored on {bad}: unknown key" in warnings[0]
    assert "meta['declutter']['blocks'] ignored" in warnings[1]
    assert "expected one of all, kept, none, got 'some'" in warnings[1]
    assert result.stats["declutter/pages_skipped/disabled"] == 1
    assert result.stats["declutter/pages"] == 4


@pytest_twisted.ensureDeferred
async def test_a_bad_key_is_logged_once_and_counted_on_every_page(server, caplog):
    urls = [server.url(f"article-en?{n}") for n in range(3)]
    meta = {url: {"declutter": {"blocks": "some"}} for url in urls}
    meta[urls[2]] = {"declutter": "yes"}
    result = await crawl(settings=ADDON, urls=urls, meta=meta)
    assert all(ARTICLE_EN_SENTENCE in result.by_url(url)["text"] for url in urls)
    assert result.stats["declutter/meta_ignored/blocks"] == 2
    assert result.stats["declutter/meta_ignored/declutter"] == 1
    warnings = [r.getMessage() for r in caplog.records if "ignored" in r.getMessage()]
    assert len(warnings) == 2  # the pages are crawled in any order: one warning per bad key
    [bad_meta] = [w for w in warnings if "meta['declutter'] ignored" in w]
    assert "expected False, True, None or a dict, got 'yes'" in bad_meta


@pytest_twisted.ensureDeferred
async def test_max_body_size_per_request():
    request = Request("https://example.org/a", meta={"declutter": {"max_body_size": 100}})
    response = HtmlResponse(request.url, body=ARTICLE_EN, request=request)
    mw = middleware(DECLUTTER_EAGER=True)
    await process(mw, request, response)
    assert "declutter_result" not in request.meta
    assert mw.recorder.stats.get_value("declutter/pages_skipped/too_large") == 1


@pytest.mark.parametrize(
    ("limit", "decluttered"),
    [
        (len(ARTICLE_EN), True),  # a body of exactly the limit
        (len(ARTICLE_EN) - 1, False),  # one byte over it
        (0, True),  # no limit
    ],
)
@pytest_twisted.ensureDeferred
async def test_max_body_size_is_the_largest_body_decluttered(server, limit, decluttered):
    url = server.url("article-en")
    result = await crawl(settings={**ADDON, "DECLUTTER_MAX_BODY_SIZE": limit}, urls=[url])
    assert (ARTICLE_EN_SENTENCE in result.by_url(url).get("text", "")) is decluttered
    assert result.stats.get("declutter/pages_skipped/too_large", 0) == (not decluttered)


@pytest_twisted.ensureDeferred
async def test_a_timeout_of_0_gives_worker_processes_no_time_limit(server):
    url = server.url("article-en")
    settings = {**ADDON, "DECLUTTER_WORKERS": 1, "DECLUTTER_TIMEOUT": 0}
    result = await crawl(settings=settings, urls=[url])
    assert ARTICLE_EN_SENTENCE in result.by_url(url)["text"]
    assert "declutter/pages_skipped/timeout" not in result.stats


class WaitForEvent:
    """A stage that blocks its worker until ``event`` is set (or 10 s pass)."""

    def __init__(self, event: threading.Event, outcome: list) -> None:
        self.event = event
        self.outcome = outcome

    def __call__(self, document) -> None:
        self.outcome.append(self.event.wait(10))


class OrderSpider(PagesSpider):
    def parse(self, response):
        if response.url.endswith("image.png"):
            self.event.set()
        yield {"url": response.url}


@pytest_twisted.ensureDeferred
async def test_reactor_serves_other_requests_while_a_page_is_extracted(server, monkeypatch):
    # The big page's extraction cannot finish before the image's callback has
    # run; only a reactor left free during the extraction can run it.
    event, outcome = threading.Event(), []
    monkeypatch.setitem(
        PIPELINES,
        "wait-for-event",
        lambda options: (WaitForEvent(event, outcome), *justext_stages(options)),
    )
    OrderSpider.event = event
    big, image = server.url("article-en"), server.url("image.png")
    meta = {big: {"declutter": {"pipeline": "wait-for-event"}}}
    result = await crawl(OrderSpider, settings=ADDON, urls=[big, image], meta=meta)

    assert outcome == [True]
    assert [item["url"] for item in result.items] == [image, big]
    assert ARTICLE_EN_SENTENCE in result.items[1]["text"]


@pytest_twisted.ensureDeferred
async def test_extraction_errors_are_logged_and_counted_and_the_crawl_goes_on(
    server, monkeypatch, caplog
):
    def broken(options):
        def stage(document):
            raise RuntimeError("stage failed")

        return (stage,)

    monkeypatch.setitem(PIPELINES, "broken", broken)
    bad, good = server.url("article-en?bad"), server.url("article-en?good")
    meta = {bad: {"declutter": {"pipeline": "broken"}}}
    result = await crawl(settings=ADDON, urls=[bad, good], meta=meta)

    assert result.by_url(bad) == {"url": bad}
    assert ARTICLE_EN_SENTENCE in result.by_url(good)["text"]
    assert result.stats["declutter/errors"] == 1
    assert result.stats["declutter/errors/RuntimeError"] == 1
    assert "stage failed" in caplog.text


@pytest_twisted.ensureDeferred
async def test_worker_processes_give_the_same_result_as_the_thread(server):
    urls = [server.url("article-en"), server.url("article-de")]
    thread = await crawl(settings=ADDON, urls=urls)
    processes = await crawl(settings={**ADDON, "DECLUTTER_WORKERS": 2}, urls=urls)
    for url in urls:
        assert processes.by_url(url)["text"]
        assert processes.by_url(url) == thread.by_url(url)
    assert processes.stats["declutter/pages"] == 2


class DropEveryResponse:
    """A downloader middleware after ours (a higher priority) that drops every response."""

    def process_response(self, request, response):
        raise IgnoreRequest("dropped by the test")


@pytest.mark.parametrize("dropped", [False, True])
@pytest_twisted.ensureDeferred
async def test_a_crawl_whose_responses_never_reach_the_middleware_ends_with_an_error(
    server, caplog, dropped
):
    dropper = {f"{__name__}.DropEveryResponse": 600} if dropped else {}
    with caplog.at_level(logging.ERROR, logger="scrapy_declutter"):
        result = await crawl(
            settings={**ADDON, "DOWNLOADER_MIDDLEWARES": dropper},
            urls=[server.url("article-en")],
        )
    errors = [r.getMessage() for r in caplog.records if r.name.startswith("scrapy_declutter")]
    if dropped:
        assert result.stats["downloader/response_count"] == 1
        assert errors == [
            "declutter: none of the 1 responses received reached DeclutterMiddleware, so no "
            "item got its text: a downloader middleware after it (priority above its own) "
            "dropped them, or this Scrapy release is not supported"
        ]
    else:
        assert errors == []


@pytest_twisted.ensureDeferred
async def test_a_failing_output_costs_the_page_only_itself(server, monkeypatch, caplog):
    # the Markdown raises on every page (a bug in it, as an IndexError on some
    # nesting was): the items get their text, metadata and comments, the
    # failures are counted, and logged once
    def markdown_bug(result):
        raise IndexError("list index out of range")

    monkeypatch.setitem(OPTIONAL_OUTPUTS, "markdown", markdown_bug)
    urls = [server.url("article-en?a"), server.url("article-en?b")]
    settings = {
        **ADDON,
        "DECLUTTER_MARKDOWN": True,
        "DECLUTTER_METADATA_FIELDS": {"title": "title"},
        "DECLUTTER_COMMENTS": True,
    }
    result = await crawl(settings=settings, urls=urls)

    for url in urls:
        item = result.by_url(url)
        assert ARTICLE_EN_SENTENCE in item["text"]
        assert "markdown" not in item
        assert item["title"] and "comments" in item
    assert result.stats["declutter/pages"] == 2
    assert result.stats["declutter/errors/output/markdown"] == 2
    assert result.stats["declutter/errors"] == 2
    logged = [r.getMessage() for r in caplog.records if "the markdown failed" in r.getMessage()]
    assert len(logged) == 1 and "IndexError: list index out of range" in logged[0]
