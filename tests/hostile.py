"""Hostile pages, generated in memory: for the reliability tests and ``benchmarks/hostile.py``.

Each generator returns the page and the marker text a correct extraction must
still find in it (or ``None`` when the page holds no content).
"""

import gzip
import random
import threading

# A paragraph jusText keeps: long, full of English stopwords. ``{n}`` numbers it.
PARAGRAPH = (
    "Paragraph {n}: the people who live along the river said that the water was warmer "
    "this summer than it had ever been, and that they had seen fewer fish in it than in "
    "any of the years before, which is why the council has asked the university to study "
    "it over the next three years and to report on what can be done about it."
)
END = "The end marker sentence of the page."
# A list item or table cell most pipelines keep.
SENTENCE = "the people who live along the river said that the water was warmer than ever"


def _english_page(body: str) -> str:
    return f'<html lang="en"><head><title>Big</title></head><body>{body}</body></html>'


def article(paragraphs: int, wrapper: str = "div") -> str:
    body = "".join(f"<p>{PARAGRAPH.format(n=n)}</p>\n" for n in range(paragraphs))
    return _english_page(f"<{wrapper}>{body}</{wrapper}>")


def big_page(megabytes: float = 50) -> str:
    """An article of ``megabytes`` MB: paragraphs of about 3 kB, then ``END``."""
    paragraph = " ".join([PARAGRAPH] * 10)
    count = int(megabytes * 1_000_000) // (len(paragraph) + 8)
    body = "".join(f"<p>{paragraph.format(n=n)}</p>\n" for n in range(count))
    return _english_page(f"<div>{body}<p>{END} {PARAGRAPH.format(n='last')}</p></div>")


def nested(depth: int = 100_000, tag: str = "div", closed: bool = True) -> str:
    return (
        f"<html><body>{f'<{tag}>' * depth}<p>{END}</p>"
        + (f"</{tag}>" * depth if closed else "")
        + "</body></html>"
    )


def siblings(count: int = 1_000_000) -> str:
    return "<html><body>" + "<p>x</p>" * count + "</body></html>"


def breaks(count: int = 100_000) -> str:
    return f"<html><body><p>before{'<br>' * count}after</p></body></html>"


def huge_text(megabytes: int = 20) -> str:
    words = "word " * (megabytes * 1_000_000 // 5)
    return f"<html><body><p>{words}</p><p>{END}</p></body></html>"


def _repeat(unit: str, size: int, head: str = "", tail: str = "") -> str:
    return head + unit * max(size // len(unit), 1) + tail


def _numbered(unit: str, size: int, head: str = "", tail: str = "") -> str:
    """As ``_repeat``, each copy of ``unit`` with its number as ``{i}``."""
    count = max(size // len(unit.format(i=0)), 1)
    return head + "".join(unit.format(i=i) for i in range(count)) + tail


# Families of hostile pages: each makes a page of about ``size`` characters
# whose cost must grow linearly with ``size`` (``benchmarks/hostile.py
# scaling``). Where a page must still give a block, ``END`` is in it.
FAMILIES = {
    "long link word": lambda n: f"<p><a href='/x'>{'_' * n}</a></p><p>{END}</p>",
    "run of dots": lambda n: f"<p>{'.' * n}</p><p>{END}</p>",
    "run of white space": lambda n: _repeat(" \n\t", n, "<p>a", f"b</p><p>{END}</p>"),
    "run of no-break spaces": lambda n: _repeat("\u00a0 ", n, "<p>a", f"b</p><p>{END}</p>"),
    "long word": lambda n: f"<p>{'w' * n}</p><p>{END}</p>",
    "long word, punctuated": lambda n: _repeat("w.-", n, "<p>", f"</p><p>{END}</p>"),
    "table rows": lambda n: _repeat("<tr><td>a</td><td>b</td></tr>", n, "<table>", "</table>"),
    "table cells in one row": lambda n: _repeat("<td>a b</td>", n, "<table><tr>", "</table>"),
    # issue 44's page: one <tr> of cells of some 35 characters (58,000 cells: 2 MB at 1.8M)
    "one-row table of numbered cells": lambda n: _numbered(
        "<td>value {i} of the one row</td>", n, "<table><tr>", "</tr></table>"
    ),
    "sibling blocks": lambda n: _repeat("<p>x</p>", n),
    "deep nesting": lambda n: _repeat("<div>x", n, tail=f"<p>{END}</p>"),
    "unclosed inline tags": lambda n: _repeat("<b>x", n, tail=f"<p>{END}</p>"),
    "nested buttons": lambda n: _repeat("<button><div>", n, tail=f"<p>{END}</p>"),
    "stray end tags": lambda n: _repeat("</div>", n, "<span>" * 3000, f"<p>{END}</p>"),
    "many <br>": lambda n: _repeat("<br>", n, "<p>a", f"b</p><p>{END}</p>"),
    "many links": lambda n: _repeat("<a href=/>x</a> ", n, "<p>", f"</p><p>{END}</p>"),
    "many headings": lambda n: _repeat("<h2>title</h2><p>text</p>", n),
    # a forum thread: a named anchor before each reply, all in one container
    "comment anchors": lambda n: _numbered(
        '<a name="comment-{i}"></a><span>Reader {i} wrote a short reply</span>', n, "<div>"
    ),
    "headings nested 1,000 deep": lambda n: _repeat(
        "<p>a line of text</p>", n, "<h2><div>" * 1000, f"<p>{END}</p>"
    ),
    "list items": lambda n: _repeat("<li>a b c", n, "<ul>", "</ul>"),
    # the Markdown climbs from every kept row or item to its table or list
    "table body rows of text": lambda n: _repeat(
        f"<tr><td>{SENTENCE}</td></tr>", n, "<table><tbody>", "</tbody></table>"
    ),
    "ordered list items": lambda n: _repeat(f"<li>{SENTENCE}</li>", n, "<ol>", "</ol>"),
    "references list": lambda n: _repeat(
        f'<li id="cite-1"><a href="#ref-1">^</a> {SENTENCE}, <i>The river</i>.'
        ' <a href="https://news.example/river">River News</a>.</li>',
        n,
        '<ol class="references">',
        "</ol>",
    ),
    "huge class string": lambda n: _repeat("ab ", n, "<div class='", f"'><p>{END}</p></div>"),
    "unique classes": lambda n: "".join(
        f"<p class=c{i} id=i{i}>x</p>" for i in range(max(n // 26, 1))
    ),
    "unique tag names": lambda n: "".join(f"<t{i}>x</t{i}>" for i in range(max(n // 14, 1))),
    "400 attributes an element": lambda n: _repeat(
        "<p " + " ".join(f"a{i}=1" for i in range(400)) + ">x</p>", n
    ),
    "many attributes on one element": lambda n: (
        "<p " + " ".join(f"a{i}=1" for i in range(max(n // 8, 1))) + f">{END}</p>"
    ),
    # for the metadata: a class naming a date or a byline over every block, and
    # microdata nested ever deeper (up to libxml2's limit) over a wide subtree
    "class naming a date over blocks": lambda n: _repeat(
        "<p>x</p>", n // 2, f"<div class='{'a' * (n // 2)} date'>", f"<p>{END}</p></div>"
    ),
    "class ending in author over blocks": lambda n: _repeat(
        "<p>not a name but a line of nine words</p>",
        n // 2,
        f"<div class='{'a' * (n // 2)}author'>",
        f"<p>{END}</p></div>",
    ),
    "itemprop nested over a wide subtree": lambda n: _repeat(
        "<p>Kim Park</p>",
        n // 2,
        '<div itemprop="author headline datePublished">' * (n // 400),
        f"<p>{END}</p>",
    ),
    # issue 44: code spans that must stay apart, lists whose items must stay
    # items, and a paragraph cut by <br> into runs each holding a character
    # the report's copy of the page drops
    "code elements side by side": lambda n: _repeat(
        "<code>x</code><code>y`&lt;i&gt;</code>", n, "<p>", f"</p><p>{END}</p>"
    ),
    "text between <ol start=0> items": lambda n: _repeat(
        "text <li>an item</li>", n, "<ol start='0'>", "</ol>"
    ),
    "<ol start=999999999> items": lambda n: _repeat(
        f"<li>{SENTENCE}</li>", n, "<ol start='999999999'>", "</ol>"
    ),
    "<br>-cut paragraph, U+FFFF runs": lambda n: _repeat(
        "a run of words \uffff here<br>", n, "<p>", f"</p><p>{END}</p>"
    ),
    # a thread of comments each inside the one before, with its byline and
    # time: the metadata asks of each whether it is in a comment section
    "comments nested deep, a byline in each": lambda n: _repeat(
        '<div class="comment"><p class="comment-author">By Reader</p>'
        '<time datetime="2024-06-01T10:00:00Z">June 1</time>',
        n,
        f"<h1>Thread</h1><p>{PARAGRAPH.format(n=0)}</p>",
        f"<p>{END}</p>",
    ),
}


def gzip_stream() -> bytes:
    return gzip.compress(article(20).encode())


def png() -> bytes:
    rng = random.Random(6)
    return b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\x00\x00\x01\x00\x00\x00\x01\x00\x08\x06" + bytes(
        rng.randrange(256) for _ in range(4000)
    )


def within(seconds: float, function, *args):
    """``function(*args)``, run in a daemon thread: a hang fails the test instead of blocking it."""
    outcome = {}

    def run():
        try:
            outcome["value"] = function(*args)
        except BaseException as error:  # handed to the test below
            outcome["error"] = error

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    thread.join(seconds)
    assert not thread.is_alive(), f"{getattr(function, '__name__', function)} ran over {seconds} s"
    if "error" in outcome:
        raise outcome["error"]
    return outcome["value"]
