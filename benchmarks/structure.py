"""Markdown structure and metadata against trafilatura, on wcxb-dev's ground truth;
dates against htmldate; the metadata's hand-set limits chosen again by site.

Usage (from the repository root)::

    python -m benchmarks.structure [CORPUS] [--sample N] [--limit N] [--repeat R]
    python -m benchmarks.structure --dates [CORPUS] [--limit N]
    python -m benchmarks.structure --folds [N] [CORPUS] [--score all|present]

For every page that has the field in its ground truth (``main_content_markdown``,
``title``, ``author``, ``publish_date``), in one run:

* ours: ``extract(html, url)``, then ``result.markdown`` and ``result.metadata``;
* trafilatura: ``extract(text, url=url, output_format="markdown",
  include_links=True, include_formatting=True, include_tables=True)`` and
  ``extract_metadata(text, default_url=url)``.

Structure: each Markdown (ours, trafilatura's and the reference) is read into
bags of elements of five kinds: headings (ATX lines), list items, table rows
(pipe rows but the delimiter row), code lines (lines inside fences) and links
(link text plus the URL, lower-cased, without scheme, ``www.``, fragment or
trailing slash; GFM's autolinks, ``<https://...>`` and bare ``https://`` or
``www.`` URLs, are links whose text is the URL). An element is its lower-cased
``\\w+`` words; link and image syntax is reduced to the text, and backslash
escapes outside code spans to the character, before words are taken (the
same text written ``a_b`` or ``a\\_b`` is the same words). Per page and kind, F1 of
the extraction's bag against the reference's, averaged over the pages whose
reference has that kind (an extraction without any scores 0 there). Markdown
word F1 is the corpus's word metric on the Markdown's text (link targets and
fence lines left out, on both sides).

Metadata: the title is right when its words equal the reference's; the
author when the words of one occur in sequence in the other's; the date when
it is the same ``YYYY-MM-DD``. Accuracy over the pages whose reference has the
field; "given when absent" is the share of the other pages where a value was
returned anyway. Two looser title rules are printed too, as they read the
issue's "right when their words match" differently: the author's rule (one
contains the other), and a word F1 (lower-cased ``\\w+`` bags) of at least
0.75, the rule that comes closest to the trafilatura title figure first
quoted for a 500-page sample (0.742; see docs/structured-output.rst).

Cost: per page, the best of ``--repeat`` times of a bare
``lxml.html.document_fromstring`` parse, of ``extract``, and of reading
``markdown`` and then ``metadata`` off its result (a fresh result each time,
so both are computed); medians over the pages, also in bare parses.

``--dates``: for every page whose ground truth has a ``publish_date``: the date of
``extract(html, url).metadata`` and that of ``htmldate.find_date`` (the
library trafilatura uses), given the page as text, with ``original_date=True``
and ``extensive_search`` off and on. A date is right when it is the same
``YYYY-MM-DD``. Time per page: ours is reading ``metadata`` off a fresh
result (the extraction is not counted: it is made anyway); htmldate's includes
its own parse of the page, as it would run. Medians over the pages.

``--folds N`` (5 without N): four numbers in ``outputs/metadata.py`` were set by
looking at pages: the longest title (``_MAX_TITLE_WORDS``), the longest author
name (``_MAX_AUTHOR_WORDS``), the longest date line (``_MAX_DATE_LINE``) and
how many blocks past the first kept one a bare date line may sit
(``_DATE_LINE_LEAD``). (How far up a class or id may mark a byline or a date,
a fifth once, is the block's element and its two nearest ancestors: the code
that finds them reads no number.) They were chosen on the even-numbered
wcxb-dev pages and checked on the odd ones, two halves that share their sites.
Here the pages are split into folds by site (the host of the page's URL; a
site is in one fold only). In each fold, every number is chosen again from a
grid, one at a time with the others at their shipped values, as the value with
the most right answers, on the other folds' pages, in the fields it touches
(ties go to the shipped value); the fold's pages are then read with the four
values chosen for it. A value is right on a page whose reference has the field
when it matches (scored as above), and on a page whose reference has none when
it is ``None``; the right answers counted to choose are those on all pages (a
larger limit finds more bylines and dates, and gives more where there are
none), or with ``--score present`` only those on pages with the field. Printed
per field, held out and with the shipped values: the accuracy on the pages
that have the field, and how often a value is given on those that do not.
"""

import argparse
import gzip
import hashlib
import json
import re
import statistics
import time
from collections import Counter
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from urllib.parse import urlparse, urlsplit

import lxml.html

from benchmarks.corpus import SAVE_HELP, default_corpus_path, page_ids, save_output, word_prf
from scrapy_declutter import DeclutterError, extract
from scrapy_declutter.outputs import metadata as metadata_module

KINDS = ("headings", "list items", "table rows", "code lines", "links")
_IMAGE = re.compile(r"!\[([^\]]*)\]\([^)]*\)")
_LINK = re.compile(r"(?<!\\)\[((?:[^\[\]]|\\[\[\]])*)\]\(\s*<?([^)\s>]*)>?(?:\s[^)]*)?\)")
_FENCE = re.compile(r"^\s*(```|~~~)")
_HEADING = re.compile(r"^\s{0,3}#{1,6}\s+(.*?)(?:\s+#+\s*)?$")
_ITEM = re.compile(r"^\s*(?:>\s*)*(?:[-*+]|\d{1,9}[.)])\s+(.*)$")
_DELIMITER_ROW = re.compile(r"^\|?\s*:?-{2,}:?\s*(\|\s*:?-{2,}:?\s*)*\|?$")
_WORD = re.compile(r"\w+")
# GFM's autolinks: <scheme://...>, and extended ones (a bare http(s):// or www.
# URL after white space or ``*_~(``, without trailing punctuation).
_AUTOLINK = re.compile(
    r"<(https?://[^\s<>]*)>|(?<![^\s*_~(])((?:https?://|www\.)[^\s<]*[^\s<?!.,:*_~)'\"])"
)
# A code span (left as it is) or a backslash escape of ASCII punctuation.
_CODE_SPAN_OR_ESCAPE = re.compile(r"(`+)[^`].*?\1(?!`)|\\([!-/:-@\[-`{-~])")


def plain(markdown: str) -> str:
    """Markdown reduced to its text: images to their alt text, links to
    theirs, backslash escapes (outside code spans) to the character."""
    return _unescaped(_LINK.sub(r"\1", _IMAGE.sub(r"\1", markdown)))


def _unescaped(markdown: str) -> str:
    return _CODE_SPAN_OR_ESCAPE.sub(lambda m: m.group(2) or m.group(0), markdown)


def _words(text: str) -> str:
    return " ".join(_WORD.findall(plain(text).lower()))


def _url(url: str) -> str:
    url = url.strip().lower()
    parts = urlsplit(url if not url.startswith("www.") else f"http://{url}")
    host = parts.netloc.removeprefix("www.")
    query = f"?{parts.query}" if parts.query else ""
    return f"{host}{parts.path.rstrip('/')}{query}"


def elements(markdown: str) -> dict[str, Counter]:
    """The bags of headings, list items, table rows, code lines and links."""
    bags: dict[str, Counter] = {kind: Counter() for kind in KINDS}
    in_code = False
    for line in markdown.splitlines():
        if _FENCE.match(line):
            in_code = not in_code
            continue
        if in_code:
            if words := _words(line):
                bags["code lines"][words] += 1
            continue
        without_images = _IMAGE.sub(r"\1", line)
        for text, url in _LINK.findall(without_images):
            if url:
                bags["links"][f"{_words(text)} {_url(url)}"] += 1
        for bracketed, bare in _AUTOLINK.findall(_LINK.sub(" ", without_images)):
            url = bracketed or bare
            bags["links"][f"{_words(url)} {_url(url)}"] += 1
        stripped = line.strip()
        if match := _HEADING.match(line):
            kind, text = "headings", match.group(1)
        elif stripped.startswith("|"):
            if _DELIMITER_ROW.match(stripped):
                continue
            kind, text = "table rows", stripped
        elif match := _ITEM.match(line):
            kind, text = "list items", match.group(1)
        else:
            continue
        if words := _words(text):
            bags[kind][words] += 1
    return bags


def bag_f1(got: Counter, want: Counter) -> float:
    overlap = sum((got & want).values())
    if not overlap:
        return 0.0
    precision, recall = overlap / sum(got.values()), overlap / sum(want.values())
    return 2 * precision * recall / (precision + recall)


def markdown_text(markdown: str) -> str:
    """The words of a Markdown for the word metric: fence lines left out."""
    return plain("\n".join(line for line in markdown.splitlines() if not _FENCE.match(line)))


def title_right(got: str | None, want: str) -> bool:
    return bool(got) and _WORD.findall(got.lower()) == _WORD.findall(want.lower())


def author_right(got: str | None, want: str) -> bool:
    """The words of one occur, in order, in the other's."""
    a, b = (f" {' '.join(_WORD.findall(s.lower()))} " for s in (got or "", want))
    return a.strip() != "" and b.strip() != "" and (a in b or b in a)


def words_f1_right(got: str | None, want: str) -> bool:
    """The F1 of the two bags of words is at least 0.75."""
    return (
        bool(got)
        and bag_f1(Counter(_WORD.findall(got.lower())), Counter(_WORD.findall(want.lower())))
        >= 0.75 - 1e-9
    )


def date_right(got: str | None, want: str) -> bool:
    return bool(got) and got[:10] == want[:10]


def ours(html: bytes, url: str | None) -> tuple[str, dict]:
    result = extract(html, url)
    metadata = result.metadata
    return result.markdown, {
        "title": metadata.title,
        "author": metadata.author,
        "date": metadata.date,
    }


def trafilatura_run(html: bytes, url: str | None) -> tuple[str, dict]:
    import trafilatura

    text = html.decode("utf-8", "replace")
    markdown = trafilatura.extract(
        text,
        url=url,
        output_format="markdown",
        include_links=True,
        include_formatting=True,
        include_tables=True,
    )
    metadata = trafilatura.extract_metadata(text, default_url=url)
    fields = {"title": None, "author": None, "date": None}
    if metadata is not None:
        fields = {"title": metadata.title, "author": metadata.author, "date": metadata.date}
    return markdown or "", fields


def best_time(run: Callable[[], object], repeat: int) -> float:
    best = float("inf")
    for _ in range(repeat):
        start = time.perf_counter()
        run()
        best = min(best, time.perf_counter() - start)
    return best


def structured_times(html: bytes, url: str | None, repeat: int) -> tuple[float, float]:
    """Best times of reading ``markdown`` and ``metadata`` off a fresh result."""
    markdown = metadata = float("inf")
    for _ in range(repeat):
        result = extract(html, url)
        start = time.perf_counter()
        result.markdown  # noqa: B018 -- computed on first read
        middle = time.perf_counter()
        result.metadata  # noqa: B018
        end = time.perf_counter()
        markdown, metadata = min(markdown, middle - start), min(metadata, end - middle)
    return markdown, metadata


def compare(args: argparse.Namespace) -> None:
    corpus = Path(args.corpus)
    ids = page_ids(corpus)
    if args.sample:
        import random

        ids = sorted(random.Random(0).sample(ids, args.sample))
    ids = ids[: args.limit]
    runs = {"trafilatura 2.3.1": trafilatura_run, "declutter": ours}
    structure: dict[str, dict[str, list[float]]] = {n: {k: [] for k in KINDS} for n in runs}
    text_f1: dict[str, list[float]] = {n: [] for n in runs}
    meta_right: dict[str, dict[str, list[bool]]] = {n: {} for n in runs}
    meta_extra: dict[str, dict[str, list[bool]]] = {n: {} for n in runs}
    timings: dict[str, list[float]] = {"parse": [], "extract": [], "markdown": [], "metadata": []}
    checks = {"title": title_right, "author": author_right, "date": date_right}
    title_rules = {
        "title, one contains other": author_right,
        "title, word F1 >= 0.75": words_f1_right,
    }
    refused = 0
    for file_id in ids:
        truth = json.loads((corpus / "ground-truth" / f"{file_id}.json").read_text("utf-8"))
        html = gzip.decompress((corpus / "html" / f"{file_id}.html.gz").read_bytes())
        url = truth.get("url")
        reference = truth["ground_truth"]
        wanted_markdown = reference.get("main_content_markdown")
        want_bags = elements(wanted_markdown) if wanted_markdown else None
        for name, run in runs.items():
            try:
                markdown, metadata = run(html, url)
            except Exception:  # an extractor that fails (or refuses) a page scores nothing there
                markdown, metadata = "", {"title": None, "author": None, "date": None}
            if want_bags is not None:
                got_bags = elements(markdown)
                for kind in KINDS:
                    if want_bags[kind]:
                        structure[name][kind].append(bag_f1(got_bags[kind], want_bags[kind]))
                text_f1[name].append(
                    word_prf(markdown_text(markdown), markdown_text(wanted_markdown))[2]
                )
            field_of = {"title": "title", "author": "author", "date": "publish_date"}
            for key, check in checks.items():
                want = reference.get(field_of[key])
                if want:
                    meta_right[name].setdefault(key, []).append(check(metadata[key], want))
                else:
                    meta_extra[name].setdefault(key, []).append(bool(metadata[key]))
            if reference.get("title"):
                for key, check in title_rules.items():
                    right = check(metadata["title"], reference["title"])
                    meta_right[name].setdefault(key, []).append(right)
        try:
            markdown_time, metadata_time = structured_times(html, url, args.repeat)
        except DeclutterError:  # a page the limits refuse is not timed
            refused += 1
            continue
        timings["parse"].append(
            best_time(lambda h=html: lxml.html.document_fromstring(h), args.repeat)
        )
        timings["extract"].append(best_time(lambda h=html, u=url: extract(h, u), args.repeat))
        timings["markdown"].append(markdown_time)
        timings["metadata"].append(metadata_time)
    report(ids, runs, structure, text_f1, meta_right, meta_extra, timings, args.repeat)
    print(f"  ({refused} pages refused by the page limits: scored empty, not timed)")


def report(ids, runs, structure, text_f1, meta_right, meta_extra, timings, repeat) -> None:
    names = list(runs)
    print(f"wcxb-dev, {len(ids)} pages")
    print(f"{'':30}{'pages':>7}" + "".join(f"{n:>20}" for n in names))

    def row(label: str, values: dict[str, list]) -> None:
        count = len(values[names[0]])
        cells = "".join(
            f"{statistics.fmean(values[n]) if values[n] else float('nan'):20.3f}" for n in names
        )
        print(f"{label:30}{count:7d}{cells}")

    row("Markdown word F1", text_f1)
    for kind in KINDS:
        row(f"structure F1: {kind}", {n: structure[n][kind] for n in names})
    for key in ("title", "author", "date"):
        row(f"{key} accuracy", {n: meta_right[n].get(key, []) for n in names})
    for key in ("title, one contains other", "title, word F1 >= 0.75"):
        row(key, {n: meta_right[n].get(key, []) for n in names})
    for key in ("title", "author", "date"):
        row(f"{key} given when absent", {n: meta_extra[n].get(key, []) for n in names})
    parse = statistics.median(timings["parse"])
    both = [m + d for m, d in zip(timings["markdown"], timings["metadata"])]
    print(f"\ntime per page (median over pages of the best of {repeat}):")
    for label, values in (
        ("bare lxml parse", timings["parse"]),
        ("extract()", timings["extract"]),
        ("then markdown", timings["markdown"]),
        ("then metadata", timings["metadata"]),
        ("then both", both),
    ):
        median = statistics.median(values)
        print(f"  {label:18}{median * 1000:8.2f} ms  {median / parse:6.2f} bare parses")


# -- dates against htmldate ---------------------------------------------------------


def dates(args: argparse.Namespace) -> None:
    from htmldate import find_date

    corpus = Path(args.corpus)
    right: dict[str, list[bool]] = {}
    seconds: dict[str, list[float]] = {}
    for file_id in page_ids(corpus)[: args.limit]:
        truth = json.loads((corpus / "ground-truth" / f"{file_id}.json").read_text("utf-8"))
        want = truth["ground_truth"].get("publish_date")
        if not want:
            continue
        html = gzip.decompress((corpus / "html" / f"{file_id}.html.gz").read_bytes())
        try:
            result = extract(html, truth.get("url"))
        except DeclutterError:  # refused by the page limits: no date, not timed
            found = {"declutter metadata": None}
        else:
            start = time.perf_counter()
            found = {"declutter metadata": result.metadata.date}
            seconds.setdefault("declutter metadata", []).append(time.perf_counter() - start)
        text = html.decode("utf-8", "replace")
        for name, extensive in (("htmldate", False), ("htmldate, extensive", True)):
            start = time.perf_counter()
            try:
                found[name] = find_date(text, original_date=True, extensive_search=extensive)
            except Exception:  # a page it cannot read counts as no date
                found[name] = None
            seconds.setdefault(name, []).append(time.perf_counter() - start)
        for name, date in found.items():
            right.setdefault(name, []).append(bool(date) and date[:10] == want[:10])
    pages = len(next(iter(right.values())))
    print(f"wcxb-dev pages with a publish_date: {pages}")
    print(f"{'':24}{'accuracy':>10}{'median ms':>11}")
    for name in right:
        accuracy = sum(right[name]) / pages
        print(f"{name:24}{accuracy:10.3f}{statistics.median(seconds[name]) * 1000:11.2f}")


# -- the metadata's limits, held out by site ------------------------------------------

# Each number: its grid and the fields it touches.
GRIDS = {
    "_MAX_TITLE_WORDS": ([10, 15, 20, 30, 40, 60, 100], ("title",)),
    "_MAX_AUTHOR_WORDS": ([3, 4, 5, 6, 8, 10, 12], ("author",)),
    "_MAX_DATE_LINE": ([40, 60, 80, 120, 160, 240], ("date",)),
    "_DATE_LINE_LEAD": ([0, 2, 5, 10, 20, 40], ("date",)),
}
CHECKS = {"title": title_right, "author": author_right, "date": date_right}
REFERENCE_KEYS = {"title": "title", "author": "author", "date": "publish_date"}


@contextmanager
def limits(values: dict[str, int]) -> Iterator[None]:
    """``outputs.metadata`` read with these values of its limits."""
    shipped = {name: getattr(metadata_module, name) for name in values}
    for name, value in values.items():
        setattr(metadata_module, name, value)
    try:
        yield
    finally:
        for name, value in shipped.items():
            setattr(metadata_module, name, value)


def site_of(url: str | None) -> str:
    return urlparse(url or "").netloc.lower().removeprefix("www.")


def site_fold(url: str | None, folds: int) -> int:
    return int(hashlib.md5(site_of(url).encode()).hexdigest(), 16) % folds


def page_rights(result, reference: dict, values: dict[str, int]) -> dict[str, bool]:
    """Which fields the page's metadata gets right, read with ``values``: a
    match where the reference has the field, ``None`` where it has not."""
    with limits(values):
        found = metadata_module.read_metadata(
            result.root, result.blocks, result.url, result.stoplist, result.content_language
        )
    rights = {}
    for field, check in CHECKS.items():
        want, got = reference.get(REFERENCE_KEYS[field]), getattr(found, field)
        rights[field] = check(got, want) if want else got is None
    return rights


def choose(training: list[tuple[dict, set]], name: str, shipped: int, absent: bool) -> int:
    """The value of ``name`` with the most right answers on the training pages
    in the fields it touches (with ``absent``, on the pages without the field
    too); the shipped value on a tie."""
    grid, fields = GRIDS[name]

    def right_answers(value: int) -> int:
        return sum(
            rights[(name, value)][field]
            for rights, present in training
            for field in fields
            if absent or field in present
        )

    return max(grid, key=lambda value: (right_answers(value), value == shipped))


def folds(args: argparse.Namespace) -> None:
    corpus = Path(args.corpus)
    if not page_ids(corpus):
        raise SystemExit(f"no pages with a reference in {corpus}")
    shipped = {name: getattr(metadata_module, name) for name in GRIDS}
    pages = []
    for file_id in page_ids(corpus):
        record = json.loads((corpus / "ground-truth" / f"{file_id}.json").read_text("utf-8"))
        html = gzip.decompress((corpus / "html" / f"{file_id}.html.gz").read_bytes())
        result = extract(html, record.get("url"))
        reference = record["ground_truth"]
        # rights[(name, value)]: the fields right with that one value changed
        rights = {
            (name, value): page_rights(result, reference, {**shipped, name: value})
            for name, (grid, _) in GRIDS.items()
            for value in grid
        }
        at_shipped = page_rights(result, reference, shipped)
        pages.append((file_id, record.get("url"), reference, rights, at_shipped))
    fold_of = [site_fold(url, args.folds) for _, url, *_ in pages]
    chosen = []
    for fold in range(args.folds):
        training = [
            (rights, {f for f in CHECKS if reference.get(REFERENCE_KEYS[f])})
            for (_, _, reference, rights, _), f in zip(pages, fold_of)
            if f != fold
        ]
        absent = args.score == "all"
        chosen.append({name: choose(training, name, shipped[name], absent) for name in GRIDS})
    # the held-out pages, read with their fold's values (a second extraction)
    # (field, whether the reference has it): the rights of the pages
    held_out: dict[tuple[str, bool], list[bool]] = {}
    shipped_right: dict[tuple[str, bool], list[bool]] = {}
    for (file_id, url, reference, _, at_shipped), fold in zip(pages, fold_of):
        html = gzip.decompress((corpus / "html" / f"{file_id}.html.gz").read_bytes())
        for field, right in page_rights(extract(html, url), reference, chosen[fold]).items():
            key = (field, bool(reference.get(REFERENCE_KEYS[field])))
            held_out.setdefault(key, []).append(right)
            shipped_right.setdefault(key, []).append(at_shipped[field])
    sites = len({site_of(url) for _, url, *_ in pages})
    print(f"{corpus.name}, {len(pages)} pages from {sites} sites, {args.folds} folds by site")
    report_limits(shipped, chosen)
    report_fields(held_out, shipped_right)


def report_limits(shipped: dict[str, int], chosen: list[dict[str, int]]) -> None:
    print(f"{'limit':20}{'shipped':>8}   chosen in each fold")
    for limit in GRIDS:
        print(f"{limit:20}{shipped[limit]:8d}   " + " ".join(f"{c[limit]:4d}" for c in chosen))


def report_fields(held_out: dict, shipped: dict) -> None:
    print(f"\n{'':26}{'pages':>7}{'shipped values':>16}{'held out by site':>18}")
    for has_field, label in ((True, "accuracy"), (False, "given when absent")):
        for field in CHECKS:
            key = (field, has_field)
            if key not in held_out:
                continue
            rates = [sum(rights) / len(rights) for rights in (shipped[key], held_out[key])]
            if not has_field:  # right there is None: the rate given is the others
                rates = [1 - rate for rate in rates]
            cells = f"{len(held_out[key]):7d}{rates[0]:16.3f}{rates[1]:18.3f}"
            print(f"{f'{field} {label}':26}{cells}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("corpus", nargs="?", default=str(default_corpus_path()))
    mode = parser.add_mutually_exclusive_group()
    mode.add_argument("--dates", action="store_true", help="dates against htmldate")
    mode.add_argument(
        "--folds", type=int, nargs="?", const=5, help="the metadata's limits, N folds by site"
    )
    parser.add_argument("--sample", type=int, help="that many pages at random (seed 0)")
    parser.add_argument("--limit", type=int)
    parser.add_argument("--repeat", type=int, default=3, help="timing: best of R")
    parser.add_argument(
        "--score",
        choices=("all", "present"),
        default="all",
        help="--folds: choose by the right answers on all pages (default), or only on those "
        "with the field",
    )
    parser.add_argument("--save", type=Path, help=SAVE_HELP)
    args = parser.parse_args()
    save_output(args.save)
    if args.dates:
        dates(args)
    elif args.folds:
        folds(args)
    else:
        compare(args)


if __name__ == "__main__":
    main()
