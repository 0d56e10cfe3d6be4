"""The metadata's hand-set limits, chosen again with whole sites held out.

Usage (from the repository root)::

    python benchmarks/metadata_folds.py [CORPUS] [--folds 5] [--save FILE]

Five numbers in ``core/metadata.py`` were set by looking at pages: the longest
title (``_MAX_TITLE_WORDS``), the longest author name (``_MAX_AUTHOR_WORDS``),
the longest date line (``_MAX_DATE_LINE``), how many blocks past the first
kept one a bare date line may sit (``_DATE_LINE_LEAD``) and how many levels up
a class or id may mark a byline or a date (``_MARK_LEVELS``). They were
chosen on the even-numbered wcxb-dev pages and checked on the odd ones, two
halves that share their sites. Here the pages are split into folds by site
(the host of the page's URL; a site is in one fold only). In each fold, every
number is chosen again from a grid, one at a time with the others at their
shipped values, as the value with the most right answers, on the other folds'
pages, in the fields it touches (ties go to the shipped value); the fold's
pages are then read with the five values chosen for it. The held-out
accuracies, over all pages, are the figures to quote; beside them, the shipped
values' accuracy on the same pages. Fields are scored as in
``benchmarks/structure.py``.
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

# Each number: its grid and the fields it touches.
GRIDS = {
    "_MAX_TITLE_WORDS": ([10, 15, 20, 30, 40, 60, 100], ("title",)),
    "_MAX_AUTHOR_WORDS": ([3, 4, 5, 6, 8, 10, 12], ("author",)),
    "_MAX_DATE_LINE": ([40, 60, 80, 120, 160, 240], ("date",)),
    "_DATE_LINE_LEAD": ([0, 2, 5, 10, 20, 40], ("date",)),
    "_MARK_LEVELS": ([1, 2, 3, 4, 5], ("author", "date")),
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
    """Which fields the page's metadata gets right, read with ``values``."""
    with limits(values):
        found = metadata.read_metadata(
            result.root, result.blocks, result.url, result.language, result.content_language
        )
    return {
        field: check(getattr(found, field), reference[REFERENCE_KEYS[field]])
        for field, check in CHECKS.items()
        if reference.get(REFERENCE_KEYS[field])
    }


def choose(training: list[dict], name: str, shipped: int) -> int:
    """The value of ``name`` with the most right answers on the training pages
    in the fields it touches; the shipped value on a tie."""
    grid, fields = GRIDS[name]

    def right_answers(value: int) -> int:
        return sum(rights[(name, value)].get(field, 0) for rights in training for field in fields)

    return max(grid, key=lambda value: (right_answers(value), value == shipped))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("corpus", nargs="?", default=str(default_corpus_path()))
    parser.add_argument("--folds", type=int, default=5)
    parser.add_argument("--save", type=Path, help=SAVE_HELP)
    args = parser.parse_args()
    save_output(args.save)
    corpus = Path(args.corpus)
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
        training = [rights for (_, _, _, rights, _), f in zip(pages, fold_of) if f != fold]
        chosen.append({name: choose(training, name, shipped[name]) for name in GRIDS})
    # the held-out pages, read with their fold's values (a second extraction)
    held_out: dict[str, list[bool]] = {field: [] for field in CHECKS}
    shipped_right: dict[str, list[bool]] = {field: [] for field in CHECKS}
    for (file_id, url, reference, _, at_shipped), fold in zip(pages, fold_of):
        html = gzip.decompress((corpus / "html" / f"{file_id}.html.gz").read_bytes())
        for field, right in page_rights(extract(html, url), reference, chosen[fold]).items():
            held_out[field].append(right)
            shipped_right[field].append(at_shipped[field])
    sites = len({site_of(url) for _, url, *_ in pages})
    print(f"{corpus.name}, {len(pages)} pages from {sites} sites, {args.folds} folds by site")
    report_limits(shipped, chosen)
    report_fields(held_out, shipped_right)


def report_limits(shipped: dict[str, int], chosen: list[dict[str, int]]) -> None:
    print(f"{'limit':20}{'shipped':>8}   chosen in each fold")
    for limit in GRIDS:
        print(f"{limit:20}{shipped[limit]:8d}   " + " ".join(f"{c[limit]:4d}" for c in chosen))


def report_fields(held_out: dict[str, list[bool]], shipped: dict[str, list[bool]]) -> None:
    print(f"\n{'field':10}{'pages':>7}{'shipped values':>16}{'held out by site':>18}")
    for field in CHECKS:
        shipped_accuracy = sum(shipped[field]) / len(shipped[field])
        held_accuracy = sum(held_out[field]) / len(held_out[field])
        print(f"{field:10}{len(held_out[field]):7d}{shipped_accuracy:16.3f}{held_accuracy:18.3f}")


if __name__ == "__main__":
    main()
