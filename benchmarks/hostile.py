"""Hostile pages: big ones, families that must scale linearly, memory, stalls.

Usage::

    python -m benchmarks.hostile big [--case NAME ...] [--pipeline NAME] [--save FILE]
    python -m benchmarks.hostile peaks [--shape NAME ...] [--mb MB] [--save FILE]
    python -m benchmarks.hostile scaling [--size N] [--repeat R] [--family NAME ...]
        [--output NAME ...] [--pipeline NAME ...] [--save FILE]
    python -m benchmarks.hostile memory [--pages N] [--save FILE]
    python -m benchmarks.hostile stall [--size N] [--save FILE]
    python -m benchmarks.hostile report [--size N] [--repeat R] [--family NAME ...] [--save FILE]
    python -m benchmarks.hostile slow [--size N] [--slow S] [--pages P] [--family NAME]
        [--workers threads:T|processes:N ...] [--set NAME=VALUE ...] [--save FILE]

``big``: each big page runs twice, each time in a fresh process (so one case's
peak does not hide the next's): once for the seconds, the blocks and the
process's peak resident memory (``ru_maxrss``, which includes lxml's tree in C)
above its resident memory before the call, with the page already in memory;
once under ``tracemalloc`` (which slows Python down several times) for the
peak of Python's own allocations during ``extract``.

``peaks``: for pages of one shape each (``SHAPES``, ``--mb`` MB of HTML),
each in a fresh process, the peak resident memory of ``extract(...).to_dict()``
with the default pipeline above the process's before the call (the page
already in memory), per byte and per start tag of the page, and the estimate
``limits.peak_memory_estimate`` makes of it before parsing: the ratio must
stay under 1.

``scaling``: for every family of ``FAMILIES``, a row
``extract``: the time of ``extract(..., comments=True).to_dict()`` at n
characters and at 4n, summed over every pipeline (or those named with
``--pipeline``; the fastest of R runs each), their ratio (linear is 4; pages
this small have fixed costs, so less), the pipeline with the highest ratio,
and the longest time a ticker thread waited for the GIL while the 4N page
went through each pipeline as the Scrapy layer runs it in thread mode
(``extract_page``, every block asked for): how long one call held it, the
reactor's stall in thread mode. Then a row for each of ``OUTPUTS``
(``--output``: the Markdown, the metadata, the HTML report): the time of
that output alone at n and 4n, on the default pipeline's result, their ratio
(``-`` under 5 ms at 4n), and its size: its characters a character of the 4n
page, and how much that grew from n (1 is linear). A page refused before
parsing shows its ``PageLimitError`` reason.
A family is a line of ``FAMILIES``; an output, a line of ``OUTPUTS``.

``memory``: extracts N distinct pages (unique texts, classes and ids) with
the default pipeline and prints the resident memory every tenth, and the
content model's key caches: flat once the caches are full.

``stall``: a real crawl (Scrapy, the add-on in thread mode, no memory limit
so that every page is extracted) of every family at 4N, served by a
``twisted.web`` server on the same reactor, with a 10 ms ``LoopingCall``
ticker from when the reactor runs; prints the longest and the
99th-percentile gap between ticks, and how the add-on counted the pages;
then the same crawl without the add-on (each in a fresh process), the
baseline.

``report``: for pages of ``REPORT_FAMILIES`` (and of the ``scaling``
families named with ``--family``), the time of ``render_report`` (the
extraction before it not counted; the fastest of R runs) at n characters and at 4n, their ratio,
and the report's size in characters over the page's at n and at 4n
(``report.size_limit`` bounds it).

``slow``: a real crawl (the add-on, as ``stall``'s) of S slow pages (one by
default), a family of ``FAMILIES`` at N characters (``table rows``, 1 MB:
some 10 s) requested first, then P ordinary articles, in each worker mode (by
default one thread, as the thread mode was, ``DECLUTTER_THREADS = 4``, and
two processes), each in a fresh process: the crawl's time, the slowest slow
page's, how long the others waited from their download to their item
(median and longest): what slow pages cost the pages behind them; and how
many pages were extracted or given up (``timeout``). ``--set`` adds a crawl
setting (a JSON value, or a string): ``DECLUTTER_TIMEOUT=60``.

``scaling``, ``report``, ``stall`` and ``slow`` set no memory limit (``page_memory_limit_mb=0``):
what they measure is time, on every page.

The pages are generated in memory (``FAMILIES``, ``article``, ``nested``, ...);
the reliability tests use them too (``tests/py``). Each generator
returns the page and the marker text a correct extraction must still find in
it (or ``None`` when the page holds no content).
"""

import argparse
import functools
import json
import resource
import subprocess
import sys
import threading
import time
import tracemalloc
from collections.abc import Sequence
from pathlib import Path

from benchmarks.corpus import SAVE_HELP, save_output
from scrapy_declutter import PageLimitError, extract, pipeline_names
from scrapy_declutter.core.options import Options
from scrapy_declutter.outputs.report import render_report
from scrapy_declutter.scrapy_layer.page import Page, extract_page

REPO = Path(__file__).resolve().parents[1]
# this module run again in a fresh process, from the repository root
SELF = [sys.executable, "-m", "benchmarks.hostile"]

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
# whose cost must grow linearly with ``size`` (``benchmarks/py
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
    # the rest of issue 44's attack: shapes each output writes its own way
    "headings h1 to h6 in turn": lambda n: _repeat(
        "".join(
            f"<h{level}>a heading {level}</h{level}><p>{SENTENCE}</p>" for level in range(1, 7)
        ),
        n,
        tail=f"<p>{END}</p>",
    ),
    "dl, dt and dd lists": lambda n: _repeat(
        f"<dt>a term</dt><dd>{SENTENCE}</dd>", n, "<dl>", f"</dl><p>{END}</p>"
    ),
    "links under a <base>": lambda n: _repeat(
        f"<p><a href='page/../x?y=1#z'>{SENTENCE}</a></p>",
        n,
        "<base href='https://example.org/a/b/'>",
        f"<p>{END}</p>",
    ),
    "code inside bold": lambda n: _repeat(
        "<b>bold <code>x`y</code> and <code>z</code></b> ", n, "<p>", f"</p><p>{END}</p>"
    ),
    "many <pre> blocks": lambda n: _repeat(
        "<pre>line one\n    indented &lt;i&gt;\n```</pre>", n, tail=f"<p>{END}</p>"
    ),
    "right-to-left text": lambda n: _repeat(
        "<p dir='rtl'>\u0642\u0627\u0644 \u0627\u0644\u0646\u0627\u0633 \u200f\u202b"
        "\u0625\u0646 \u0627\u0644\u0645\u0627\u0621 \u202c</p>",
        n,
        tail=f"<p>{END}</p>",
    ),
}


CASES = {
    "50 MB article": lambda: big_page(50),
    "100,000 nested <div>": lambda: nested(100_000),
    "100,000 unclosed <span>": lambda: nested(100_000, "span", closed=False),
    "1,000,000 sibling <p>": lambda: siblings(1_000_000),
    "100,000 <br>": lambda: breaks(100_000),
    "20 MB text node": lambda: huge_text(20),
}


# Pages of one shape each, ``megabytes`` MB of HTML, for ``peaks``.
def _fill(unit: str, megabytes: float, head: str = "", tail: str = "") -> str:
    return head + unit * int(megabytes * 1_000_000 // len(unit)) + tail


SHAPES = {
    "an article (long paragraphs)": lambda mb: big_page(mb),
    "one text node": lambda mb: _fill("word ", mb, "<p>", "</p>"),
    "<p>x</p>": lambda mb: _fill("<p>x</p>", mb),
    "<li>a b c d unclosed": lambda mb: _fill("<li>a b c d", mb, "<ul>"),
    "<p> with 6 attributes": lambda mb: _fill(
        '<p class="c" id="i" title="t" lang="en" dir="ltr" data-x="1">x</p>', mb
    ),
    "<p>x</p> 1,000 <div> deep": lambda mb: _fill("<p>x</p>", mb, "<div>" * 1000),
    "<p>x 1,000 <section> deep": lambda mb: _fill("<p>x", mb, "<section>" * 1000),
    # paths just short enough to be written in full (limits.MAX_PATH_CHARS)
    "<p>x 240 <div> deep": lambda mb: _fill("<p>x", mb, "<div>" * 240),
    "<div>x 250 deep, repeated": lambda mb: _fill("<div>x" * 250 + "</div>" * 250, mb),
}


def rss_mb() -> float:
    with open("/proc/self/status") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    return 0.0


# -- big ------------------------------------------------------------------------


def measure_big(case: str, pipeline: str, traced: bool) -> dict:
    html = CASES[case]()
    extract("<p>warm up: imports and stoplists</p>", pipeline=pipeline)
    if traced:
        tracemalloc.start()
        extract(html, pipeline=pipeline, page_memory_limit_mb=0)
        return {"traced_mb": tracemalloc.get_traced_memory()[1] / 2**20}
    before = rss_mb()
    start = time.perf_counter()
    result = extract(html, pipeline=pipeline, page_memory_limit_mb=0)
    seconds = time.perf_counter() - start
    peak_rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    return {
        "case": case,
        "mb": len(html.encode()) / 1e6,
        "seconds": seconds,
        "blocks": len(result.blocks),
        "rss_mb": peak_rss - before,
    }


def child(case: str, pipeline: str, traced: bool) -> dict:
    command = [*SELF, "big", "--child", case, "--pipeline", pipeline]
    out = subprocess.run(
        command + ["--traced"] * traced, check=True, cwd=REPO, capture_output=True, text=True
    ).stdout
    return json.loads(out)


def big(args: argparse.Namespace) -> None:
    if args.child:
        print(json.dumps(measure_big(args.child, args.pipeline, args.traced)))
        return
    print(f"pipeline {args.pipeline}")
    columns = ("input MB", 9), ("seconds", 8), ("blocks", 9), ("py peak MB", 11), ("RSS +MB", 8)
    print(f"{'case':26}" + "".join(f" {name:>{width}}" for name, width in columns))
    for case in args.case or CASES:
        r = {**child(case, args.pipeline, False), **child(case, args.pipeline, True)}
        print(
            f"{r['case']:26} {r['mb']:9.1f} {r['seconds']:8.2f} {r['blocks']:9,} "
            f"{r['traced_mb']:11.0f} {r['rss_mb']:8.0f}",
            flush=True,
        )


# -- peaks ----------------------------------------------------------------------


def measure_peak(shape: str, megabytes: float) -> dict:
    from scrapy_declutter.core.limits import peak_memory_estimate

    data = SHAPES[shape](megabytes).encode()
    extract("<p>warm up: imports and stoplists</p>").to_dict()
    before = rss_mb()
    extract(data, page_memory_limit_mb=0).to_dict()
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024 - before * 2**20
    return {
        "bytes": len(data),
        "start tags": data.count(b"<") - data.count(b"</"),
        "peak": peak,
        "estimate": peak_memory_estimate(data),
    }


def peaks(args: argparse.Namespace) -> None:
    if args.child:
        print(json.dumps(measure_peak(args.child, args.mb)))
        return
    print(
        f"default pipeline, extract + to_dict, {args.mb} MB pages, each in a fresh process: "
        "peak resident memory above the page's, and the pre-parse estimate (limits.py)"
    )
    print(
        f"{'shape':30} {'start tags':>10} {'peak MB':>8} {'a byte':>7} {'a tag':>7} "
        f"{'estimate MB':>12} {'peak/estimate':>14}"
    )
    for shape in args.shape or SHAPES:
        command = [*SELF, "peaks", "--child", shape, "--mb", str(args.mb)]
        out = subprocess.run(command, check=True, cwd=REPO, capture_output=True, text=True).stdout
        r = json.loads(out)
        print(
            f"{shape:30} {r['start tags']:10,} {r['peak'] / 2**20:8.0f} "
            f"{r['peak'] / r['bytes']:7.0f} {r['peak'] / max(r['start tags'], 1):7,.0f} "
            f"{r['estimate'] / 2**20:12.0f} "
            f"{r['peak'] / r['estimate']:14.2f}",
            flush=True,
        )


# -- scaling --------------------------------------------------------------------


def fastest(html: str, pipeline: str, repeat: int) -> float:
    best = float("inf")
    for _ in range(repeat):
        start = time.perf_counter()
        extract(html, pipeline=pipeline, page_memory_limit_mb=0, comments=True).to_dict()
        best = min(best, time.perf_counter() - start)
    return best


def longest_gil_wait(function) -> float:
    """Run ``function`` in a thread; the longest a 1 ms ticker here waited."""
    worker = threading.Thread(target=function)
    longest = 0.0
    last = time.perf_counter()
    worker.start()
    while worker.is_alive():
        time.sleep(0.001)
        now = time.perf_counter()
        longest = max(longest, now - last - 0.001)
        last = now
    worker.join()
    return longest


def thread_page(html: str, pipeline: str) -> Page:
    """The page as the Scrapy layer extracts it in thread mode, every block and the Markdown
    asked for."""
    return Page(
        html.encode(), None, Options(pipeline, page_memory_limit_mb=0), "all", markdown=True
    )


def busy_python(seconds: float = 1.0) -> None:
    end = time.perf_counter() + seconds
    while time.perf_counter() < end:
        pass


# The outputs ``scaling`` times beside ``extract()``, each on a result of the
# default pipeline that already holds the page's blocks: what a caller pays
# when it asks for it. Each returns text, whose size is compared too.
OUTPUTS = {
    "markdown": lambda result: result.markdown,
    "metadata": lambda result: json.dumps(result.metadata.to_dict()),
    "report": lambda result: render_report(result, result.options),
}


def output_time(html: str, output: str, repeat: int) -> tuple[float, int]:
    """The fastest of ``repeat`` runs of ``OUTPUTS[output]`` on a fresh result, and its size."""
    best, size = float("inf"), 0
    for _ in range(repeat):
        result = extract(html, page_memory_limit_mb=0, comments=True)
        start = time.perf_counter()
        size = len(OUTPUTS[output](result))
        best = min(best, time.perf_counter() - start)
    return best, size


def scaling(args: argparse.Namespace) -> None:
    pipelines = args.pipeline or sorted(pipeline_names())
    outputs = args.output or list(OUTPUTS)
    extract("<p>warm up: imports and stoplists</p>")
    print(
        f"extract: {len(pipelines)} pipelines, comments asked for, to_dict, summed; "
        f"{', '.join(outputs)}: the output alone, from the default pipeline's result; "
        f"fastest of {args.repeat}; n from {args.size:,}, times 4 while the justext pipeline "
        "takes under 10 ms"
    )
    alone = longest_gil_wait(busy_python) * 1000
    print(
        "GIL ms: the longest wait of a 1 ms ticker thread; on a pure-Python loop "
        f"(the switch interval and the machine's load alone): {alone:.0f} ms"
    )
    print("size: the output's characters at 4n a character of the page, and that ratio's growth")
    print(
        f"{'family':32} {'output':9} {'n':>9} {'n s':>7} {'4n s':>7} {'ratio':>6}  "
        f"{'worst pipeline / size':28} {'GIL ms':>7}"
    )
    for family in args.family or FAMILIES:
        make = FAMILIES[family]
        n = args.size
        try:
            # below some 10 ms a page, caches and the allocator, not the page, set the time
            while n < 64 * args.size and fastest(make(n), "justext", 1) < 0.01:
                n *= 4
        except PageLimitError as error:
            print(f"{family:32} refused before parsing: {error.reason}", flush=True)
            continue
        small, large = make(n), make(4 * n)
        times = {
            p: (fastest(small, p, args.repeat), fastest(large, p, args.repeat)) for p in pipelines
        }
        worst = max(pipelines, key=lambda p: times[p][1] / times[p][0])
        total_n, total_4n = (sum(t[i] for t in times.values()) for i in (0, 1))
        pages = [thread_page(large, p) for p in pipelines]
        held = max(longest_gil_wait(functools.partial(extract_page, page)) for page in pages)
        print(
            f"{family:32} {'extract':9} {n:9,} {total_n:7.3f} {total_4n:7.3f} "
            f"{total_4n / total_n:6.1f}  "
            f"{worst:20} x{times[worst][1] / times[worst][0]:<6.1f} {held * 1000:7.0f}",
            flush=True,
        )
        for output in outputs:
            (at_n, size_n), (at_4n, size_4n) = (
                output_time(page, output, args.repeat) for page in (small, large)
            )
            growth = size_4n / len(large) / max(size_n / len(small), 1e-9)
            # a few milliseconds are the output's fixed costs and the machine's noise
            ratio = f"{at_4n / at_n:6.1f}" if at_4n >= 0.005 else f"{'-':>6}"
            print(
                f"{family:32} {output:9} {n:9,} {at_n:7.3f} {at_4n:7.3f} {ratio}  "
                f"{size_4n / len(large):6.2f}/char x{growth:.1f}",
                flush=True,
            )


# -- report -------------------------------------------------------------------

# Pages of many short blocks: the most outlines and list entries a character.
REPORT_FAMILIES = {
    "<h1> headings": lambda n: _repeat("<h1>x</h1>", n),
    "unclosed <tr>": lambda n: _repeat("<tr>x", n, "<table>"),
    "text split by <br>": lambda n: _repeat("x<br>", n, "<p>"),
    "ampersands and quotes": lambda n: _repeat('&"', n, "<p>", f"</p><p>{END}</p>"),
}


def report_scaling(args: argparse.Namespace) -> None:
    from scrapy_declutter.outputs.report import render_report

    families = {**REPORT_FAMILIES, **{f: FAMILIES[f] for f in args.family or ()}}
    print(
        f"render_report, fastest of {args.repeat} (the extraction before it not counted); "
        "size: report / page characters"
    )
    print(f"{'family':32} {'n':>9} {'n s':>7} {'4n s':>7} {'ratio':>6} {'size n':>7} {'4n':>5}")
    for family, make in families.items():
        row = []
        for size in (args.size, 4 * args.size):
            page = make(size)
            result = extract(page, page_memory_limit_mb=0)
            seconds = float("inf")
            for _ in range(args.repeat):
                start = time.perf_counter()
                report = render_report(result)
                seconds = min(seconds, time.perf_counter() - start)
            row.append((seconds, len(report) / len(page)))
        (small, small_size), (large, large_size) = row
        print(
            f"{family:32} {args.size:9,} {small:7.2f} {large:7.2f} {large / small:6.1f} "
            f"{small_size:7.1f} {large_size:5.1f}",
            flush=True,
        )


# -- memory ---------------------------------------------------------------------


def distinct_page(i: int) -> str:
    words = " ".join(f"w{i}x{k}" for k in range(40))
    return (
        f'<html><head><title>Page {i}</title></head><body><div class="nav n{i}" id="m{i}">'
        f"<a href=/>Home {i}</a> <a href=/a>About u{i}</a></div>"
        f'<article class="story s{i} {"k" * (i % 300)}"><h1>Title t{i}</h1>'
        f"<p>The people of place p{i} said that {words}, and that it was so.</p>"
        f"<p>{'z' * (i % 5000)}{i}</p><p>short q{i}</p></article></body></html>"
    )


def memory(args: argparse.Namespace) -> None:
    from scrapy_declutter.stages.content_model import ScoreContent, load_models

    extract(distinct_page(0))
    every = max(args.pages // 10, 1)
    print(
        f"{args.pages:,} distinct pages, default pipeline; RSS MB, cached keys (kind: keys/chars)"
    )
    before = rss_mb()
    print(f"{0:>9,} {before:8.1f}")
    for i in range(1, args.pages + 1):
        extract(distinct_page(i))
        if i % every == 0:
            stage = ScoreContent()
            caches = load_models((stage.model, stage.article_model)).cached_keys()
            keys = ", ".join(f"{k or 'kinds'}: {n:,}/{c:,}" for k, (n, c) in caches.items())
            print(f"{i:>9,} {rss_mb():8.1f}  {keys}", flush=True)
    print(f"RSS +{rss_mb() - before:.1f} MB over {args.pages:,} pages")


# -- stall ----------------------------------------------------------------------


def in_children(command: list[str], modes: Sequence[str]) -> None:
    """Run ``command --child MODE`` for each mode, each in a fresh process (a
    reactor is installed once a process), printing what each prints."""
    for mode in modes:
        out = subprocess.run(
            [*command, "--child", mode], check=True, cwd=REPO, capture_output=True, text=True
        ).stdout
        print(out, end="", flush=True)  # through --save's copy


def stall(args: argparse.Namespace) -> None:
    if args.child is None:
        in_children([*SELF, "stall", "--size", str(args.size)], ("on", "off"))
        return
    import scrapy
    from scrapy.crawler import CrawlerRunner
    from scrapy.utils.reactor import install_reactor

    install_reactor("twisted.internet.asyncioreactor.AsyncioSelectorReactor")
    from twisted.internet import reactor, task
    from twisted.web.resource import Resource
    from twisted.web.server import Site

    pages = {str(i): make(4 * args.size).encode() for i, make in enumerate(FAMILIES.values())}

    class Pages(Resource):
        isLeaf = True

        def render_GET(self, request):
            request.setHeader("Content-Type", "text/html; charset=utf-8")
            return pages[request.postpath[-1].decode()]

    port = reactor.listenTCP(0, Site(Pages()), interface="127.0.0.1")
    base = f"http://127.0.0.1:{port.getHost().port}/page/"

    class Hostile(scrapy.Spider):
        name = "hostile"

        async def start(self):
            for key in pages:
                yield scrapy.Request(base + key)

        def parse(self, response):
            yield {"url": response.url}

    gaps: list[float] = []
    last: list[float] = []

    def tick() -> None:
        now = time.perf_counter()
        if last:
            gaps.append(now - last[0])
        last[:] = [now]

    # from when the reactor runs: before, the crawl is being set up (imports, components)
    reactor.callWhenRunning(task.LoopingCall(tick).start, 0.01)
    settings = {"LOG_LEVEL": "ERROR", "TELNETCONSOLE_ENABLED": False, "ROBOTSTXT_OBEY": False}
    if args.child == "on":
        settings.update(
            {
                "ADDONS": {"scrapy_declutter.Addon": 100},
                "DECLUTTER_WORKERS": 0,
                "DECLUTTER_PAGE_MEMORY_LIMIT_MB": 0,  # every page extracted, none refused
            }
        )
    runner = CrawlerRunner(settings)
    crawler = runner.create_crawler(Hostile)
    started = time.perf_counter()
    deferred = runner.crawl(crawler)
    deferred.addErrback(lambda failure: print(failure.getTraceback()))
    deferred.addBoth(lambda _: reactor.stop())
    reactor.run()
    gaps.sort()
    stats = crawler.stats.get_stats()
    declutter = {k: v for k, v in stats.items() if k.startswith("declutter/")}
    print(
        f"declutter {args.child}: {len(pages)} hostile pages of ~{4 * args.size:,} characters, "
        f"crawled in {time.perf_counter() - started:.1f} s; "
        f"items {stats.get('item_scraped_count', 0)}"
    )
    print(
        f"reactor ticker (10 ms): longest gap {gaps[-1] * 1000:.0f} ms, "
        f"99th percentile {gaps[int(0.99 * (len(gaps) - 1))] * 1000:.0f} ms"
    )
    print("stats:", json.dumps(declutter, default=str))


# -- slow -----------------------------------------------------------------------


def slow(args: argparse.Namespace) -> None:
    if args.child is None:
        command = [*SELF, "slow", "--size", str(args.size)]
        command += ["--pages", str(args.pages), "--family", args.family, "--slow", str(args.slow)]
        command += [f"--set={setting}" for setting in args.set or ()]
        in_children(command, args.mode_of_workers or ("threads:1", "threads:4", "processes:2"))
        return
    import scrapy
    from scrapy import signals
    from scrapy.crawler import CrawlerRunner
    from scrapy.utils.reactor import install_reactor

    install_reactor("twisted.internet.asyncioreactor.AsyncioSelectorReactor")
    from twisted.internet import reactor
    from twisted.web.resource import Resource
    from twisted.web.server import Site

    slow_page = FAMILIES[args.family](args.size).encode()
    ordinary = article(5).encode()  # an English article of some 1,700 characters

    class Pages(Resource):
        isLeaf = True

        def render_GET(self, request):
            request.setHeader("Content-Type", "text/html; charset=utf-8")
            return slow_page if request.postpath[-1].startswith(b"slow") else ordinary

    port = reactor.listenTCP(0, Site(Pages()), interface="127.0.0.1")
    base = f"http://127.0.0.1:{port.getHost().port}/page/"

    class Slow(scrapy.Spider):
        name = "slow"

        async def start(self):
            for n in range(args.slow):  # first: the others arrive while they are extracted
                yield scrapy.Request(f"{base}slow{n}")
            for n in range(args.pages):
                yield scrapy.Request(base + str(n))

        def parse(self, response):
            yield {"url": response.url}

    downloaded: dict[str, float] = {}
    waits: dict[str, float] = {}

    def on_download(response, request, spider):
        downloaded[request.url] = time.perf_counter()

    def on_item(item, response, spider):
        waits[response.url] = time.perf_counter() - downloaded[response.url]

    kind, _, count = args.child.partition(":")
    settings = {
        "LOG_LEVEL": "ERROR",
        "TELNETCONSOLE_ENABLED": False,
        "ROBOTSTXT_OBEY": False,
        "ADDONS": {"scrapy_declutter.Addon": 100},
        "DECLUTTER_PAGE_MEMORY_LIMIT_MB": 0,
        "DECLUTTER_TIMEOUT": 0,
    }
    for setting in args.set or ():
        name, _, value = setting.partition("=")
        try:
            settings[name] = json.loads(value)
        except ValueError:
            settings[name] = value
    if kind == "threads":
        settings.update({"DECLUTTER_WORKERS": 0, "DECLUTTER_THREADS": int(count)})
    else:
        settings["DECLUTTER_WORKERS"] = int(count)
    runner = CrawlerRunner(settings)
    crawler = runner.create_crawler(Slow)
    crawler.signals.connect(on_download, signal=signals.response_downloaded)
    crawler.signals.connect(on_item, signal=signals.item_scraped)
    started = time.perf_counter()
    deferred = runner.crawl(crawler)
    deferred.addErrback(lambda failure: print(failure.getTraceback()))
    deferred.addBoth(lambda _: reactor.stop())
    reactor.run()
    slow_wait = max(waits.pop(f"{base}slow{n}") for n in range(args.slow))
    others = sorted(waits.values())
    pages = "page" if args.slow == 1 else f"pages (x{args.slow})"
    stats = crawler.stats.get_stats()
    print(
        f"{args.child:12} {len(others) + args.slow} pages in "
        f"{time.perf_counter() - started:5.1f} s; "
        f"the {len(slow_page) / 1e6:.1f} MB {pages} ({args.family}) {slow_wait:5.1f} s; "
        f"the {len(others)} others from download to item: median "
        f"{others[len(others) // 2]:5.2f} s, longest {others[-1]:5.2f} s; "
        f"extracted {stats.get('declutter/pages', 0)}, "
        f"timeout {stats.get('declutter/pages_skipped/timeout', 0)}",
        flush=True,
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    modes = parser.add_subparsers(dest="mode", required=True)
    big_parser = modes.add_parser("big")
    big_parser.add_argument("--case", action="append", choices=list(CASES))
    big_parser.add_argument("--pipeline", default="justext+tree")
    big_parser.add_argument("--child", help=argparse.SUPPRESS)
    big_parser.add_argument("--traced", action="store_true", help=argparse.SUPPRESS)
    scaling_parser = modes.add_parser("scaling")
    scaling_parser.add_argument("--size", type=int, default=100_000)
    scaling_parser.add_argument("--repeat", type=int, default=3)
    scaling_parser.add_argument("--family", action="append", choices=list(FAMILIES))
    scaling_parser.add_argument("--output", action="append", choices=list(OUTPUTS))
    scaling_parser.add_argument("--pipeline", action="append", choices=sorted(pipeline_names()))
    peaks_parser = modes.add_parser("peaks")
    peaks_parser.add_argument("--shape", action="append", choices=list(SHAPES))
    peaks_parser.add_argument("--mb", type=float, default=4)
    peaks_parser.add_argument("--child", help=argparse.SUPPRESS)
    memory_parser = modes.add_parser("memory")
    memory_parser.add_argument("--pages", type=int, default=100_000)
    stall_parser = modes.add_parser("stall")
    stall_parser.add_argument("--size", type=int, default=250_000)
    stall_parser.add_argument("--child", choices=("on", "off"), help=argparse.SUPPRESS)
    slow_parser = modes.add_parser("slow")
    slow_parser.add_argument("--size", type=int, default=1_000_000)
    slow_parser.add_argument("--pages", type=int, default=50)
    slow_parser.add_argument("--family", default="table rows", choices=list(FAMILIES))
    slow_parser.add_argument("--slow", type=int, default=1)
    slow_parser.add_argument("--workers", dest="mode_of_workers", action="append")
    slow_parser.add_argument("--set", action="append", metavar="NAME=VALUE")
    slow_parser.add_argument("--child", help=argparse.SUPPRESS)
    report_parser = modes.add_parser("report")
    report_parser.add_argument("--size", type=int, default=250_000)
    report_parser.add_argument("--repeat", type=int, default=2)
    report_parser.add_argument("--family", action="append", choices=list(FAMILIES))
    parsers = (
        big_parser,
        peaks_parser,
        scaling_parser,
        memory_parser,
        stall_parser,
        report_parser,
        slow_parser,
    )
    for mode in parsers:
        mode.add_argument("--save", type=Path, help=SAVE_HELP)
    args = parser.parse_args()
    save_output(args.save)
    modes = {
        "big": big,
        "peaks": peaks,
        "scaling": scaling,
        "memory": memory,
        "stall": stall,
        "report": report_scaling,
        "slow": slow,
    }
    modes[args.mode](args)


if __name__ == "__main__":
    main()
