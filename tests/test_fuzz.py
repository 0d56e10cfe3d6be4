"""Property-based tests: on any input, ``extract`` returns a sound result or a ``DeclutterError``.

Inputs: arbitrary bytes and text, tag soup generated from HTML's awkward
corners, and mutations (cuts, splices, byte flips) of a real page. A sound
result has white-space-collapsed, non-empty block texts free of control
characters, every block labelled, and the text made of the good blocks.
Malformed JSON-LD (any JSON, nested deep, cut short) and microdata shapes
(nested a thousand deep) give metadata without an exception: one-line values,
bounded, without control characters, URLs http(s).
"""

import json
import re

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scrapy_declutter import DeclutterError, Label, extract
from tests.site import ARTICLE_DE, ARTICLE_EN

# Left out of the README's quick run (setup.cfg); .ci/run runs it.
pytestmark = pytest.mark.slow

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


# -- the metadata over malformed structured data ------------------------------

LD_KEYS = """@type @id @graph @value @context name headline author publisher datePublished
dateCreated dateModified description image url contentUrl inLanguage""".split()
LD_STRINGS = [
    "NewsArticle",
    "BlogPosting",
    "Person",
    "Organization",
    "WebSite",
    "WebPage",
    "#a",
    "#b",
    "Ann Lee",
    "2024-03-05T10:00:00Z",
    "5 March 2024",
    "javascript:alert(1)",
    " JaVaScRiPt:alert(1)",
    "data:text/html,x",
    "vbscript:x",
    "http://[x",
    "/relative/path",
    "https://example.org/a",
    "\u0001\u001b",
    "&amp;#1;",
    "",
]
ld_scalars = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(),
    st.floats(),
    st.sampled_from(LD_STRINGS),
    st.text(max_size=20),
)
ld_values = st.recursive(
    ld_scalars,
    lambda children: st.one_of(
        st.lists(children, max_size=4),
        st.dictionaries(st.sampled_from(LD_KEYS), children, max_size=6),
    ),
    max_leaves=40,
)


@st.composite
def json_ld_script(draw):
    text = json.dumps(draw(ld_values))
    depth = draw(st.sampled_from([0, 0, 1, 3, 498, 1200]))  # past what json reads, at 1200
    start, end = draw(st.sampled_from([("[", "]"), ('{"author": ', "}"), ('{"@graph": [', "]}")]))
    text = start * depth + text + end * depth
    if draw(st.booleans()):  # cut short: broken JSON
        text = text[: draw(st.integers(0, len(text)))]
    return f'<script type="application/ld+json">{text}</script>'


ITEM_ATTRIBUTES = [
    *(f'itemprop="{p}"' for p in ("author", "headline", "datePublished", "name", "author name")),
    "itemscope",
    'content="2024-03-05"',
    'content="javascript:x"',
    'datetime="&#1;2023-01-02"',
    'href="vbscript:x"',
]


@st.composite
def microdata(draw):
    parts = []
    for _ in range(draw(st.integers(0, 12))):
        tag = draw(st.sampled_from(["div", "span", "meta", "time", "a", "h1", "p"]))
        attributes = " ".join(draw(st.lists(st.sampled_from(ITEM_ATTRIBUTES), max_size=3)))
        text = draw(st.sampled_from(["", "Kim Park", "5 March 2024", "&#1;&#x1b;", "x " * 30]))
        parts.append(f"<{tag} {attributes}>{text}")
    depth = draw(st.sampled_from([1, 1, 50, 1000]))  # the same shape nested this deep
    return "".join(parts) * depth


def check_metadata(html: str, url: str | None) -> None:
    from scrapy_declutter.outputs.metadata import MAX_VALUE_CHARS

    try:
        result = extract(html, url)
    except DeclutterError:
        return
    found = result.metadata
    for value in found.to_dict().values():
        assert value is None or (isinstance(value, str) and value == " ".join(value.split()))
        assert value is None or (len(value) <= MAX_VALUE_CHARS and not CONTROL.search(value))
    for link in (found.url, found.image):
        assert link is None or re.match(r"https?://", link, re.IGNORECASE)
    assert found.date is None or re.fullmatch(r"\d{4}-\d\d-\d\d", found.date)


PAGE_URLS = st.sampled_from([None, "https://news.example/a/story.html", "javascript:x"])


@FUZZ
@given(st.lists(json_ld_script(), min_size=1, max_size=3), PAGE_URLS)
def test_metadata_of_malformed_json_ld(scripts, url):
    check_metadata(f"<html><head>{''.join(scripts)}</head><body><p>Text.</p></body></html>", url)


@FUZZ
@given(microdata(), PAGE_URLS)
def test_metadata_of_malformed_microdata(body, url):
    check_metadata(f"<html><body>{body}<p>Text.</p></body></html>", url)
