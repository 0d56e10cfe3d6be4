"""Property-based tests: on any input, ``extract`` returns a sound result or a ``DeclutterError``.

Inputs: arbitrary bytes and text, tag soup generated from HTML's awkward
corners, and mutations (cuts, splices, byte flips) of a real page. A sound
result has white-space-collapsed, non-empty block texts free of control
characters, every block labelled, and the text made of the good blocks.
"""

import re

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scrapy_declutter import DeclutterError, Label, extract
from tests.site import ARTICLE_DE, ARTICLE_EN

PIPELINES = [
    "declutter",
    "justext+tree",
    "boilerpipe-article+tree",
    "boilerpipe-default",
    "density",
]
FUZZ = settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
CONTROL = re.compile("[\x00-\x08\x0b\x0e-\x1f]")


def check(html, pipeline="justext+tree"):
    try:
        result = extract(html, pipeline=pipeline)
    except DeclutterError:
        return None
    for block in result.blocks:
        assert block.text and block.text == " ".join(block.text.split())
        assert not CONTROL.search(block.text)
        assert block.label in (Label.GOOD, Label.BAD)
        assert 0 <= block.link_density <= 1
    assert result.text == "\n\n".join(b.text for b in result.blocks if b.label is Label.GOOD)
    result.to_dict()  # every block has an XPath and JSON-safe values
    return result


TAGS = """html head body title meta p div span a b i br hr table tr td th tbody ul ol li
h1 h3 pre button select option textarea script style template iframe noscript noframes
frameset frame form input img svg math plaintext xmp font center blockquote dl dt dd""".split()
WORDS = [
    "the",
    "river",
    "people",
    "\u0645\u0631\u062d\u0628\u0627",
    "\u6cb3\u6d41",
    "&amp;",
    "&nbsp;",
    "&#0;",
    "&#x110000;",
    "&bogus",
    "<",
    ">",
    "]]>",
    "\x00",
    "\x0c",
    "\u200f",
    "\ud7ff",
    "\ufffe",
    "\U0001f600",
]


@st.composite
def tag_soup(draw):
    parts = []
    for _ in range(draw(st.integers(0, 60))):
        kind = draw(st.integers(0, 9))
        tag = draw(st.sampled_from(TAGS))
        if kind <= 2:
            attrs = draw(
                st.sampled_from(
                    [
                        "",
                        ' class="x"',
                        " href='/a'",
                        ' lang="de"',
                        ' xmlns="http://www.w3.org/1999/xhtml"',
                        ' a="<b>"',
                        " x=",
                        ' "',
                    ]
                )
            )
            parts.append(f"<{tag}{attrs}>")
        elif kind <= 4:
            parts.append(f"</{tag}>")
        elif kind <= 7:
            parts.append(" ".join(draw(st.lists(st.sampled_from(WORDS), max_size=30))))
        else:
            parts.append(
                draw(
                    st.sampled_from(
                        [
                            "<!-- c -->",
                            "<!--",
                            "-->",
                            "<![CDATA[x]]>",
                            "<?pi x?>",
                            "<?xml version='1.0'?>",
                            "<!DOCTYPE html>",
                            '<!DOCTYPE x [<!ENTITY e "E">]>',
                            "&e;",
                            "<br/>",
                            "<p/>",
                            "</html>",
                            "<meta charset='utf-16'>",
                            "<meta http-equiv='Content-Type' content='text/html; charset=rot13'>",
                        ]
                    )
                )
            )
    return "".join(parts)


@FUZZ
@given(st.binary(max_size=3000))
def test_arbitrary_bytes(data):
    check(data)


@FUZZ
@given(st.text(max_size=2000))
def test_arbitrary_text(text):
    check(text)


@FUZZ
@given(tag_soup(), st.sampled_from(PIPELINES), st.sampled_from(["utf-8", "utf-16", "cp1252"]))
def test_generated_tag_soup(html, pipeline, codec):
    assert check(html, pipeline) is not None  # text never is binary
    check(html.encode(codec, "surrogatepass" if codec == "utf-8" else "replace"), pipeline)


@st.composite
def mutated_page(draw):
    data = bytearray(draw(st.sampled_from([ARTICLE_EN, ARTICLE_DE])))
    for _ in range(draw(st.integers(1, 8))):
        op = draw(st.sampled_from(["cut", "splice", "flip", "insert", "truncate"]))
        i = draw(st.integers(0, len(data)))
        j = draw(st.integers(i, min(len(data), i + 400)))
        if op == "cut":
            del data[i:j]
        elif op == "splice":  # a copy of another stretch: duplicated, misnested tags
            k = draw(st.integers(0, len(data)))
            data[k:k] = data[i:j]
        elif op == "flip" and i < len(data):
            data[i] = draw(st.integers(0, 255))
        elif op == "insert":
            data[i:i] = draw(st.binary(max_size=20))
        else:
            del data[j:]
    return bytes(data)


@FUZZ
@given(mutated_page(), st.sampled_from(PIPELINES))
def test_mutated_pages(data, pipeline):
    check(data, pipeline)


@pytest.mark.parametrize("pipeline", PIPELINES)
def test_the_unmutated_pages_pass_the_check(pipeline):
    assert check(ARTICLE_EN, pipeline).text
