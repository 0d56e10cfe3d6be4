"""The page a worker gets: built from a response, picklable, extracted as asked."""

import pickle

import pytest
from scrapy.http import HtmlResponse

from scrapy_declutter.core.options import Options
from scrapy_declutter.scrapy_layer.page import Page, extract_page
from tests.site import ARTICLE_DE, ARTICLE_EN, ARTICLE_EN_SENTENCE


@pytest.mark.parametrize("blocks", ["all", "kept", "none"])
def test_extract_page_shapes_the_blocks(blocks):
    data, seconds, _ = extract_page(Page(ARTICLE_EN, None, Options(), blocks))
    assert ARTICLE_EN_SENTENCE in data["text"]
    assert isinstance(seconds, float)
    labels = {block["label"] for block in data["blocks"]}
    assert labels == {"all": {"good", "bad"}, "kept": {"good"}, "none": set()}[blocks]


def test_a_page_from_a_response_has_the_encoding_and_language_its_headers_declare():
    headers = {"Content-Type": "text/html; charset=iso-8859-1", "Content-Language": "fr"}
    response = HtmlResponse("https://example.org/a", body=b"<p>x</p>", headers=headers)
    page = Page.from_response(response, Options(language="de"), "kept")
    assert (page.encoding, page.content_language) == ("cp1252", "fr")
    assert (page.html, page.url, page.options, page.blocks) == (
        b"<p>x</p>",
        "https://example.org/a",
        Options(language="de"),
        "kept",
    )
    bare = Page.from_response(
        HtmlResponse("https://example.org/b", body=b"<p>x</p>"), Options(), "all"
    )
    assert (bare.encoding, bare.content_language) == (None, None)


def test_the_content_language_header_decides_when_the_page_declares_none():
    page = ARTICLE_DE.replace(b'<html lang="de">', b"<html>")
    response = HtmlResponse("https://example.org/a", body=page, headers={"Content-Language": "fr"})
    data, _, _ = extract_page(Page.from_response(response, Options(), "none"))
    assert data["language"] == "fr"


def test_a_page_survives_pickling():
    page = Page(ARTICLE_EN, "https://example.org/a", Options(language=None), "all", "utf-8", "en")
    assert pickle.loads(pickle.dumps(page)) == page
