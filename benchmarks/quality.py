"""Corpus benchmark: extraction quality and speed of our extractor and the anchors.

Usage (from the repository root)::

    python -m benchmarks.quality                       # every extractor, every corpus
    python -m benchmarks.quality --limit 50            # first 50 pages of each
    python -m benchmarks.quality CORPUS ... --extractors trafilatura,declutter,declutter:NAME
    python -m benchmarks.quality --json results.json   # also write every figure, per page too
    python -m benchmarks.quality --rst                 # tables as RST (for the README)
    python -m benchmarks.quality --list                # list the extractor names

CORPUS defaults to every corpus found in ``<repo>/../shared/corpora/`` (wcxb-dev,
dragnet, l3s-gn1, magic-forum, news-2017, zh-articles); each is reported on
its own, with the snippet rates and page types where it has them, and its
Chinese and Japanese pages apart where it has them (see ``corpus.is_cjk``).
The metric is described in ``benchmarks/corpus.py``.
Everything runs in one process and one pass over each corpus's pages: for each
page, a bare ``lxml.html.document_fromstring(html_bytes)`` parse, told the
bytes are UTF-8 (which every corpus page is), is timed, then every extractor
is timed on it (``time.perf_counter``), so the "x lxml" column (median
extractor time / median bare-parse time) compares runs made under the same
machine load. An extractor that raises on a page counts as
an empty output there, and the exception is counted in "errors".

Extractors (name -> callable(html_bytes, url) -> str); a package that is missing
is reported as skipped:

* ``declutter`` / ``declutter:<pipeline>``: ``scrapy_declutter.extraction.extract(html_bytes,
  url=url[, pipeline=<pipeline>]).text``, the installed package (``pip install -e .``:
  this working tree).
* ``trafilatura``: ``trafilatura.extract(text, url=url, include_comments=False,
  include_tables=True)``, the usual "main text only" setting; other options at
  their defaults (``trafilatura-comments`` keeps comments, the library default).
* ``resiliparse``: ``extract_plain_text(HTMLTree.parse(text), main_content=True)``.
* ``boilerpy3-default`` / ``boilerpy3-article``: boilerpy3's DefaultExtractor and
  ArticleExtractor ``get_content(text)``.
* ``readability``: readability-lxml ``Document(text, url=url).summary()``, whose
  HTML is turned into text with a line break around each block element.
* ``justext-en``: jusText with the English stoplist, the non-boilerplate
  paragraphs joined by blank lines.

Anchors that need ``str`` get the bytes decoded as UTF-8 (errors="replace"),
which is what the corpus is; jusText gets the bytes with ``encoding="utf-8"``.
"""

from __future__ import annotations

import argparse
import importlib.metadata
import json
import logging
import platform
import statistics
import sys
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from pathlib import Path

import lxml.html

from benchmarks.corpus import (
    SAVE_HELP,
    Aggregate,
    Page,
    Score,
    aggregate,
    bare_parse,
    default_corpora,
    load_pages,
    save_output,
    score,
    summarise,
)

Extractor = Callable[[bytes, str | None], str]


def _decode(html: bytes) -> str:
    return html.decode("utf-8", errors="replace")


# Every factory imports its package and does one-off set-up, so that neither is timed.
def _trafilatura(include_comments: bool) -> Extractor:
    import trafilatura

    def run(html: bytes, url: str | None) -> str:
        return (
            trafilatura.extract(
                _decode(html), url=url, include_comments=include_comments, include_tables=True
            )
            or ""
        )

    return run


def _resiliparse() -> Extractor:
    from resiliparse.extract.html2text import extract_plain_text
    from resiliparse.parse.html import HTMLTree

    return lambda html, url: extract_plain_text(HTMLTree.parse(_decode(html)), main_content=True)


def _boilerpy3(kind: str) -> Extractor:
    from boilerpy3 import extractors

    # It logs warnings and tracebacks for the pages it fails on: noise here (failures are counted).
    logging.getLogger("boilerpy3").setLevel(logging.CRITICAL)
    extractor = getattr(extractors, kind)()
    return lambda html, url: extractor.get_content(_decode(html))


BLOCK_TAGS = frozenset(
    "address article aside blockquote br dd div dl dt figcaption figure footer h1 h2 h3 h4 h5 h6 "
    "header hr li main nav ol p pre section table td th tr ul".split()
)


def html_text(markup: str) -> str:
    """Text of an HTML fragment with a line break around block elements, so words of
    adjacent blocks do not run together (``text_content()`` alone would glue them)."""
    root = lxml.html.fromstring(markup)
    for el in root.iter():
        if el.tag in BLOCK_TAGS:
            el.text = "\n" + (el.text or "")
            el.tail = "\n" + (el.tail or "")
    return "\n".join(line.strip() for line in root.text_content().splitlines() if line.strip())


def _readability() -> Extractor:
    from readability import Document

    return lambda html, url: html_text(Document(_decode(html), url=url).summary())


def _justext() -> Extractor:
    import justext

    stoplist = justext.get_stoplist("English")

    def run(html: bytes, url: str | None) -> str:
        paragraphs = justext.justext(html, stoplist, encoding="utf-8")
        return "\n\n".join(p.text for p in paragraphs if not p.is_boilerplate)

    return run


def _declutter(pipeline: str | None = None) -> Extractor:
    from scrapy_declutter import extract

    kwargs = {} if pipeline is None else {"pipeline": pipeline}
    return lambda html, url: extract(html, url=url, **kwargs).text


ANCHORS: dict[str, Callable[[], Extractor]] = {
    "trafilatura": lambda: _trafilatura(include_comments=False),
    "trafilatura-comments": lambda: _trafilatura(include_comments=True),
    "resiliparse": _resiliparse,
    "boilerpy3-default": lambda: _boilerpy3("DefaultExtractor"),
    "boilerpy3-article": lambda: _boilerpy3("ArticleExtractor"),
    "readability": _readability,
    "justext-en": _justext,
}
DEFAULT_EXTRACTORS = [
    "declutter",
    "trafilatura",
    "resiliparse",
    "boilerpy3-default",
    "boilerpy3-article",
    "readability",
    "justext-en",
]
PACKAGES = [
    "scrapy-declutter",
    "lxml",
    "trafilatura",
    "resiliparse",
    "boilerpy3",
    "readability-lxml",
    "jusText",
]


def declutter_names() -> list[str]:
    """``declutter:<pipeline>`` for each pipeline the package has (if it imports)."""
    try:
        from scrapy_declutter import pipeline_names
    except ImportError:
        return ["declutter:<pipeline>"]
    return [f"declutter:{name}" for name in sorted(pipeline_names())]


def make_extractor(name: str) -> Extractor:
    """Build an extractor by name; raises ImportError if its package is missing."""
    if name == "declutter":
        return _declutter()
    if name.startswith("declutter:"):
        return _declutter(name.partition(":")[2])
    if name in ANCHORS:
        return ANCHORS[name]()
    raise ValueError(
        f"unknown extractor {name!r} (known: declutter, declutter:<pipeline>, {', '.join(ANCHORS)})"
    )


@dataclass
class Run:
    """What one extractor did over the corpus."""

    name: str
    scores: list[Score] = field(default_factory=list)
    seconds: list[float] = field(default_factory=list)
    errors: dict[str, str] = field(default_factory=dict)  # file id -> exception


def run_one(run: Run, extractor: Extractor, page: Page) -> None:
    start = time.perf_counter()
    try:
        text = extractor(page.html, page.url) or ""
    except Exception as exc:  # the anchors raise on some pages; count, don't stop
        text = ""
        run.errors[page.file_id] = f"{type(exc).__name__}: {exc}"[:200]
    run.seconds.append(time.perf_counter() - start)
    run.scores.append(score(text, page))


def time_parse(page: Page) -> float:
    start = time.perf_counter()
    try:
        bare_parse(page.html)
    except Exception:  # e.g. an empty document; the time still counts
        pass
    return time.perf_counter() - start


def benchmark(
    pages, extractors: dict[str, Extractor], progress: bool = True
) -> tuple[list[float], list[Run]]:
    """Run every extractor on every page, page by page (so drift in machine load
    hits all of them alike). Returns bare-parse times and one Run per extractor."""
    parse_seconds: list[float] = []
    runs = [Run(name) for name in extractors]
    started = time.perf_counter()
    for i, page in enumerate(pages, 1):
        parse_seconds.append(time_parse(page))
        for run, extractor in zip(runs, extractors.values()):
            run_one(run, extractor, page)
        if progress and i % 100 == 0:
            print(f"  {i} pages, {time.perf_counter() - started:.0f} s", file=sys.stderr)
    return parse_seconds, runs


def fmt(value: float | None, percent: bool = False) -> str:
    if value is None:
        return "-"
    return f"{100 * value:.1f}%" if percent else f"{value:.3f}"


def render(headers: list[str], rows: list[list[str]], style: str = "text") -> str:
    """A fixed-width table: plain text, RST simple table, or Markdown."""
    widths = [max(len(str(c)) for c in col) for col in zip(headers, *rows)]

    def line(cells: list[str]) -> str:
        # First column left-aligned (names), the rest right-aligned (numbers).
        return "  ".join(
            c.ljust(w) if i == 0 else c.rjust(w) for i, (c, w) in enumerate(zip(cells, widths))
        ).rstrip()

    if style == "markdown":
        sep = (
            "|"
            + "|".join(
                ":" + "-" * (w + 1) if i == 0 else "-" * (w + 1) + ":" for i, w in enumerate(widths)
            )
            + "|"
        )
        body = [
            "| "
            + " | ".join(
                c.ljust(w) if i == 0 else c.rjust(w) for i, (c, w) in enumerate(zip(r, widths))
            )
            + " |"
            for r in [headers, *rows]
        ]
        return "\n".join([body[0], sep, *body[1:]])
    rule = "  ".join(("=" if style == "rst" else "-") * w for w in widths)
    if style == "rst":
        return "\n".join([rule, line(headers), rule, *map(line, rows), rule])
    return "\n".join([line(headers), rule, *map(line, rows)])


def summary_row(run: Run, agg: Aggregate, parse_median: float) -> dict:
    o = agg.overall
    median = statistics.median(run.seconds)
    return {
        "extractor": run.name,
        "f1": o.f1,
        "precision": o.precision,
        "recall": o.recall,
        "with_rate": o.with_rate,
        "without_rate": o.without_rate,
        "empty": o.empty,
        "errors": len(run.errors),
        "median_ms": 1000 * median,
        "total_s": sum(run.seconds),
        "x_lxml": median / parse_median if parse_median else None,
    }


def main_table(rows: list[dict], style: str) -> str:
    headers = [
        "extractor",
        "F1",
        "P",
        "R",
        "with",
        "without",
        "empty",
        "errors",
        "median ms",
        "total s",
        "x lxml",
    ]
    cells = [
        [
            r["extractor"],
            fmt(r["f1"]),
            fmt(r["precision"]),
            fmt(r["recall"]),
            fmt(r["with_rate"], True),
            fmt(r["without_rate"], True),
            str(r["empty"]),
            str(r["errors"]),
            f"{r['median_ms']:.1f}",
            f"{r['total_s']:.1f}",
            f"{r['x_lxml']:.1f}x" if r["x_lxml"] else "-",
        ]
        for r in rows
    ]
    return render(headers, cells, style)


def type_table(aggs: dict[str, Aggregate], style: str) -> str:
    first = next(iter(aggs.values()))
    types = list(first.by_type)
    headers = ["F1 by type"] + [f"{t} ({first.by_type[t].scored})" for t in types]
    cells = [[name] + [fmt(agg.by_type[t].f1) for t in types] for name, agg in aggs.items()]
    return render(headers, cells, style)


def versions() -> dict[str, str]:
    found = {"python": platform.python_version()}
    for pkg in PACKAGES:
        try:
            found[pkg] = importlib.metadata.version(pkg)
        except importlib.metadata.PackageNotFoundError:
            pass
    return found


def to_json(
    corpus: Path,
    parse_seconds: list[float],
    runs: list[Run],
    rows: list[dict],
    aggs: dict[str, Aggregate],
) -> dict:
    return {
        "corpus": corpus.name,  # the name only: results files must not carry local paths
        "pages": len(parse_seconds),
        "versions": versions(),
        "lxml_parse": {
            "median_ms": 1000 * statistics.median(parse_seconds),
            "total_s": sum(parse_seconds),
        },
        "extractors": {
            run.name: {
                "summary": row,
                "by_type": {t: asdict(s) for t, s in aggs[run.name].by_type.items()},
                "errors": run.errors,
                "pages": [{**asdict(s), "ms": 1000 * t} for s, t in zip(run.scores, run.seconds)],
            }
            for run, row in zip(runs, rows)
        },
    }


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument(
        "corpora",
        nargs="*",
        type=Path,
        help="corpus folders (default: those of <repo>/../shared/corpora/ that exist)",
    )
    p.add_argument(
        "--extractors",
        default=",".join(DEFAULT_EXTRACTORS),
        help="comma-separated names (default: %(default)s)",
    )
    p.add_argument("--limit", type=int, help="only the first N pages")
    p.add_argument("--sample", type=int, help="N pages drawn at random (seeded by --seed)")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument(
        "--json", type=Path, help="write all figures (and per-page scores) here, by corpus"
    )
    style = p.add_mutually_exclusive_group()
    style.add_argument(
        "--rst",
        dest="style",
        action="store_const",
        const="rst",
        help="print the tables as RST simple tables",
    )
    style.add_argument(
        "--markdown",
        dest="style",
        action="store_const",
        const="markdown",
        help="print the tables as Markdown",
    )
    p.add_argument("--save", type=Path, help=SAVE_HELP)
    p.add_argument("--list", action="store_true", help="list extractor names and exit")
    p.add_argument("--quiet", action="store_true", help="no progress on stderr")
    return p.parse_args(argv)


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    save_output(args.save)
    if args.list:
        print("\n".join(["declutter", *declutter_names(), *ANCHORS]))
        return 0
    corpora = args.corpora or default_corpora()
    missing = [c for c in corpora if not (c / "ground-truth").is_dir()]
    if missing or not corpora:
        print(
            f"corpus not found: {missing[0] if missing else 'none beside the repo'}",
            file=sys.stderr,
        )
        return 2
    extractors: dict[str, Extractor] = {}
    for name in filter(None, (n.strip() for n in args.extractors.split(","))):
        try:
            extractors[name] = make_extractor(name)
        except ImportError as exc:  # a package that is missing (or not written yet)
            print(f"skipped {name}: {exc}", file=sys.stderr)
        except ValueError as exc:  # a typo must not quietly drop an extractor
            print(exc, file=sys.stderr)
            return 2
    if not extractors:
        print("no extractor to run", file=sys.stderr)
        return 2
    reports = {}
    for corpus in corpora:
        reports[corpus.name] = run_corpus(corpus, extractors, args)
    if args.json:
        args.json.write_text(json.dumps(reports, indent=1), encoding="utf-8")
    return 0


def run_corpus(corpus: Path, extractors: dict[str, Extractor], args: argparse.Namespace) -> dict:
    """Run every extractor on one corpus, print its tables, return its figures."""
    pages = load_pages(corpus, limit=args.limit, sample=args.sample, seed=args.seed)
    parse_seconds, runs = benchmark(pages, extractors, progress=not args.quiet)
    parse_median = statistics.median(parse_seconds)
    aggs = {run.name: aggregate(run.scores) for run in runs}
    rows = [summary_row(run, aggs[run.name], parse_median) for run in runs]
    style = args.style or "text"
    print(
        f"{corpus.name}: {len(parse_seconds)} pages, "
        f"{aggs[runs[0].name].overall.scored} with a reference; bare lxml parse "
        f"median {1000 * parse_median:.2f} ms, total {sum(parse_seconds):.1f} s\n"
    )
    print(main_table(rows, style) + "\n")
    if len(aggs[runs[0].name].by_type) > 1:
        print(type_table(aggs, style) + "\n")
    cjk = {run.name: summarise([s for s in run.scores if s.cjk]) for run in runs}
    if cjk[runs[0].name].scored:
        headers = [f"Chinese and Japanese pages ({cjk[runs[0].name].scored})", "F1", "P", "R"]
        cells = [[name, fmt(c.f1), fmt(c.precision), fmt(c.recall)] for name, c in cjk.items()]
        print(render(headers, cells, style) + "\n")
    sys.stdout.flush()
    report = to_json(corpus, parse_seconds, runs, rows, aggs)
    for name, summary in cjk.items():
        report["extractors"][name]["cjk"] = asdict(summary)
    return report


if __name__ == "__main__":
    sys.exit(main())
