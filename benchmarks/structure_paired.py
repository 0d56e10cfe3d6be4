"""Markdown and metadata cost, paired: this code against another git revision's.

Usage (from the repository root)::

    python benchmarks/structure_paired.py REVISION [CORPUS] [--step N] [--repeat R]

``benchmarks/structure.py`` times reading ``markdown`` and ``metadata`` in
wall-clock time, which other work on a shared machine moves from run to run.
This benchmark compares two versions of ``core/markdown.py`` and
``core/metadata.py``, with the modules they are made of (``asides.py``, ``urls.py``,
``dates.py``, ``declared.py``, ``markdown_text.py``), side by side instead: REVISION's copies are
loaded from git beside this checkout's (the rest of the package is this
checkout's, so the two must share its interfaces). For every ``--step``-th
page, ``--repeat`` times: extract the page once, then read the Markdown and
the metadata of that fresh result with each version, in alternating order
(from the other version on every other page: the first reader pays for a
cold tree, and with an odd
``--repeat`` one version would go first more often), timing each in CPU time
(``time.process_time``: the time others take is not counted). Each page keeps
each version's best; the medians over the pages are printed in bare parses
(each page's best bare parse, CPU time too), with the median of the pages'
new-to-old ratios. A page whose output differs between the two versions is
counted and named: a change meant only for speed must leave none.
"""

import argparse
import importlib.util
import inspect
import statistics
import subprocess
import sys
import tempfile
import time
from itertools import islice
from pathlib import Path

import lxml.html

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from benchmarks.corpus import default_corpus_path, load_pages
from benchmarks.saved_output import SAVE_HELP, save_output
from scrapy_declutter import DeclutterError, extract

REPO = Path(__file__).resolve().parents[1]
# The modules the Markdown and the metadata are made of, each after those it
# imports; a revision from before ``urls``, ``dates``, ``declared`` and
# ``markdown_text`` were split off has that code in ``markdown`` and ``metadata``.
MODULES = ("asides", "urls", "dates", "declared", "markdown_text", "markdown", "metadata")


def load_revision(revision: str, folder: Path) -> dict:
    """REVISION's modules (``MODULES``), loaded under other names. While they
    load, each stands in ``sys.modules`` for this checkout's, so that the
    revision's modules import one another, not this checkout's."""
    modules = {}
    replaced: dict = {}
    try:
        for name in MODULES:
            shown = subprocess.run(
                ["git", "show", f"{revision}:scrapy_declutter/core/{name}.py"],
                cwd=REPO,
                capture_output=True,
                text=True,
            )
            if shown.returncode != 0:  # not at that revision
                continue
            path = folder / f"old_{name}.py"
            path.write_text(shown.stdout, encoding="utf-8")
            spec = importlib.util.spec_from_file_location(f"old_{name}", path)
            module = importlib.util.module_from_spec(spec)
            spec.loader.exec_module(module)
            modules[name] = module
            full_name = f"scrapy_declutter.core.{name}"
            replaced.setdefault(full_name, sys.modules.get(full_name))
            sys.modules[full_name] = module
    finally:
        for full_name, module in replaced.items():
            if module is None:
                sys.modules.pop(full_name, None)
            else:
                sys.modules[full_name] = module
    return modules


def read_with(modules: dict, result) -> tuple[float, float, tuple]:
    """CPU seconds of the Markdown and of the metadata, and both outputs."""
    options = result.options
    markdown_args = (result.blocks, result.root, result.url)
    metadata_args = [result.root, result.blocks, result.url, result.language]
    metadata_args.append(result.content_language)
    # a revision from before the block tree (or the elements the stages
    # found) was passed reads without it
    parameters = inspect.signature(modules["metadata"].read_metadata).parameters
    if "tree" in parameters:
        metadata_args.append(result.tree)
    if "found" in parameters:
        metadata_args.append(result.found)
    start = time.process_time()
    markdown = modules["markdown"].to_markdown(
        *markdown_args,
        links=options.markdown_links,
        images=options.markdown_images,
        all_buttons=result.all_buttons,
    )
    middle = time.process_time()
    metadata = modules["metadata"].read_metadata(*metadata_args)
    end = time.process_time()
    return middle - start, end - middle, (markdown, metadata.to_dict())


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("revision", help="the git revision to compare with (e.g. main)")
    parser.add_argument("corpus", nargs="?", default=str(default_corpus_path()))
    parser.add_argument("--step", type=int, default=1, help="every N-th page")
    parser.add_argument("--repeat", type=int, default=3, help="best of R")
    parser.add_argument("--save", type=Path, help=SAVE_HELP)
    args = parser.parse_args()
    save_output(args.save)
    from scrapy_declutter.core import markdown, metadata

    new = {"markdown": markdown, "metadata": metadata}
    with tempfile.TemporaryDirectory() as folder:
        old = load_revision(args.revision, Path(folder))
    rows = []  # per page: parse, old markdown, old metadata, new markdown, new metadata
    differing = []
    pages = 0
    for page in islice(load_pages(Path(args.corpus)), 0, None, args.step):
        pages += 1
        best = [float("inf")] * 5
        try:
            for repeat in range(args.repeat):
                start = time.process_time()
                lxml.html.document_fromstring(page.html)
                parse = time.process_time() - start
                result = extract(page.html, page.url)
                versions = (old, new) if (repeat + pages) % 2 == 0 else (new, old)
                runs = {id(modules): read_with(modules, result) for modules in versions}
                old_run, new_run = runs[id(old)], runs[id(new)]
                if repeat == 0 and old_run[2] != new_run[2]:
                    differing.append(page.file_id)
                times = (parse, old_run[0], old_run[1], new_run[0], new_run[1])
                best = [min(b, t) for b, t in zip(best, times)]
        except DeclutterError:  # a page the limits refuse is not timed
            continue
        rows.append(best)
    report(args.revision, pages, rows, differing)


def report(revision: str, pages: int, rows: list[list[float]], differing: list[str]) -> None:
    parse = statistics.median(row[0] for row in rows)

    def median(value) -> float:
        return statistics.median(value(row) for row in rows) / parse

    def ratio(new, old) -> float:
        return statistics.median(new(row) / old(row) for row in rows if old(row) > 0)

    print(f"{len(rows)} of {pages} pages timed; bare parse {parse * 1000:.2f} ms CPU (median)")
    print(f"output differing from {revision}'s on {len(differing)} pages {differing[:10]}")
    print(f"{'bare parses (median)':24}{revision:>12}{'this code':>12}{'ratio':>8}")
    parts = {
        "markdown": (lambda r: r[1], lambda r: r[3]),
        "metadata": (lambda r: r[2], lambda r: r[4]),
        "both": (lambda r: r[1] + r[2], lambda r: r[3] + r[4]),
    }
    for label, (old, new) in parts.items():
        print(f"{label:24}{median(old):12.2f}{median(new):12.2f}{ratio(new, old):8.2f}")


if __name__ == "__main__":
    main()
