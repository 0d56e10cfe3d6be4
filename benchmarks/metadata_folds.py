"""The metadata's hand-set limits, chosen again with whole sites held out.

Usage (from the repository root)::

    python benchmarks/metadata_folds.py [CORPUS] [--folds 5] [--save FILE]

Four numbers in ``core/metadata.py`` were set by looking at pages: the longest
title (``_MAX_TITLE_WORDS``), the longest author name (``_MAX_AUTHOR_WORDS``),
the longest date line (``_MAX_DATE_LINE``) and how many blocks past the first
kept one a bare date line may sit (``_DATE_LINE_LEAD``). (How far up a class
or id may mark a byline or a date, a fifth once, is the block's element and
its two nearest ancestors: the code that finds them reads no number.) They were
chosen on the even-numbered wcxb-dev pages and checked on the odd ones, two
halves that share their sites. Here the pages are split into folds by site
(the host of the page's URL; a site is in one fold only). In each fold, every
number is chosen again from a grid, one at a time with the others at their
shipped values, as the value with the most right answers, on the other folds'
pages, in the fields it touches (ties go to the shipped value); the fold's
pages are then read with the four values chosen for it. A value is right on
a page whose reference has the field when it matches (scored as in
``benchmarks/structure.py``), and on a page whose reference has none when it
is ``None``; the right answers counted to choose are those on all pages (a
larger limit finds more bylines and dates, and gives more where there are
none), or with ``--score present`` only those on pages with the field.
Printed per field, held out and with the shipped values: the accuracy on the
pages that have the field, and how often a value is given on those that do
not.
"""

import argparse
import gzip
import hashlib
import json
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from urllib.parse import urlparse

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from benchmarks.corpus import default_corpus_path, page_ids
from benchmarks.saved_output import SAVE_HELP, save_output
from benchmarks.structure import author_right, date_right, title_right
from scrapy_declutter import extract
from scrapy_declutter.core import metadata
from scrapy_declutter.stages.comment_section import COMMENTS
from scrapy_declutter.stages.rules.headline import HEADLINE

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
    """``core.metadata`` read with these values of its limits."""
    shipped = {name: getattr(metadata, name) for name in values}
    for name, value in values.items():
        setattr(metadata, name, value)
    try:
        yield
    finally:
        for name, value in shipped.items():
            setattr(metadata, name, value)


def site_of(url: str | None) -> str:
    return urlparse(url or "").netloc.lower().removeprefix("www.")


def site_fold(url: str | None, folds: int) -> int:
    return int(hashlib.md5(site_of(url).encode()).hexdigest(), 16) % folds


def page_rights(result, reference: dict, values: dict[str, int]) -> dict[str, bool]:
    """Which fields the page's metadata gets right, read with ``values``: a
    match where the reference has the field, ``None`` where it has not."""
    with limits(values):
        found = metadata.read_metadata(
            result.root,
            result.blocks,
            result.url,
            result.language,
            result.content_language,
            comments=(COMMENTS,),
            headlines=(HEADLINE,),
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


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("corpus", nargs="?", default=str(default_corpus_path()))
    parser.add_argument("--folds", type=int, default=5)
    parser.add_argument(
        "--score",
        choices=("all", "present"),
        default="all",
        help="choose by the right answers on all pages (default), or only on those with the field",
    )
    parser.add_argument("--save", type=Path, help=SAVE_HELP)
    args = parser.parse_args()
    corpus = Path(args.corpus)
    if not page_ids(corpus):
        parser.error(f"no pages with a reference in {corpus}")
    save_output(args.save)
    shipped = {name: getattr(metadata, name) for name in GRIDS}
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


if __name__ == "__main__":
    main()
