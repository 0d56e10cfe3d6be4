"""What a CommonMark renderer would make of our Markdown, counted over the corpora.

Usage (from the repository root)::

    python benchmarks/markdown_safety.py [CORPUS ...] [--step N] [--all-kept] [--save FILE]

For every ``--step``-th page of each corpus (by default those beside the
repository: wcxb-dev, dragnet, l3s-gn1 and magic-forum), ``extract(html, url)``
then ``result.markdown`` (with ``--all-kept``, every block kept: the longest
walk), read back by ``tests/commonmark.py``: per kind of problem (raw HTML, an
unsafe link, an accidental heading, table, thematic break, indented code or
strikethrough, and ``**`` that did not parse as bold: the rendered text's
``**`` beyond the kept text's), how many times and on how many pages. An
exception reading the Markdown is counted by its type.
"""

import argparse
import sys
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from benchmarks.corpus import default_corpus_path, load_pages
from benchmarks.saved_output import SAVE_HELP, save_output
from scrapy_declutter import DeclutterError, Label, extract
from tests.commonmark import extra_marks, problems

CORPORA = ("wcxb-dev", "dragnet", "l3s-gn1", "magic-forum")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    base = default_corpus_path().parent
    parser.add_argument("corpus", nargs="*", type=Path, default=[base / c for c in CORPORA])
    parser.add_argument("--step", type=int, default=1)
    parser.add_argument("--all-kept", action="store_true")
    parser.add_argument("--save", type=Path, help=SAVE_HELP)
    args = parser.parse_args()
    save_output(args.save)
    times: Counter = Counter()
    pages: Counter = Counter()
    read = 0
    for corpus in args.corpus:
        if not corpus.is_dir():
            continue
        for number, page in enumerate(load_pages(corpus)):
            if number % args.step:
                continue
            try:
                result = extract(page.html, page.url)
            except DeclutterError:
                continue
            read += 1
            if args.all_kept:
                for block in result.blocks:
                    block.label = Label.GOOD
            try:
                markdown = result.markdown
            except Exception as error:  # counted: the point is to find them
                found = Counter({f"exception {type(error).__name__}": 1})
            else:
                found = problems(markdown, result.root)
                found["literal **"] += extra_marks(markdown, result.text)
            for kind, count in (+found).items():
                times[kind] += count
                pages[kind] += 1
    kept = "every block kept" if args.all_kept else "as extracted"
    print(f"{read:,} pages ({kept}, every {args.step}); problems, times and pages:")
    for kind in sorted(times) or ["none"]:
        print(f"{kind:28} {times[kind]:7,} {pages[kind]:7,}")


if __name__ == "__main__":
    main()
