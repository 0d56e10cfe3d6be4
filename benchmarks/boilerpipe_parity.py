"""Agreement of our ``boilerpipe-article`` with BoilerPy3's ArticleExtractor.

Usage::

    python benchmarks/boilerpipe_parity.py [CORPUS] [--limit N] [--sample N] [--worst K]

On the corpus's article pages (``page_type == "article"``), both extract the
text of every page; the agreement of a page is the word-level F1 of our text
against BoilerPy3's (``corpus.word_prf``: lower-cased ``\\w+`` bags). It prints
the mean over the pages, the share of pages at or above 0.95, and the pages
that agree least. Pages BoilerPy3 fails on are counted and left out.

BoilerPy3 gets the page decoded as UTF-8 (what the corpus is); we get the bytes.
"""

import argparse
import logging
import statistics
import sys
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from benchmarks.corpus import Page, default_corpus_path, load_pages, word_prf
from benchmarks.saved_output import SAVE_HELP, save_output
from scrapy_declutter import extract


@dataclass(frozen=True)
class PageAgreement:
    file_id: str
    f1: float
    our_words: int
    reference_words: int


def article_pages(pages: Iterable[Page]) -> Iterator[Page]:
    return (page for page in pages if page.page_type == "article")


def agreements(pages: Iterable[Page]) -> tuple[list[PageAgreement], int]:
    """Agreement per page, and the number of pages BoilerPy3 failed on."""
    from boilerpy3.extractors import ArticleExtractor

    logging.getLogger("boilerpy3").setLevel(
        logging.CRITICAL
    )  # it logs its parse errors and nested <a>
    reference = ArticleExtractor()
    results, failures = [], 0
    for page in pages:
        try:
            expected = reference.get_content(page.html.decode("utf-8", errors="replace"))
        except Exception:  # BoilerPy3's own parse errors; not ours to judge
            failures += 1
            continue
        ours = extract(page.html, pipeline="boilerpipe-article").text
        _, _, f1 = word_prf(ours, expected)
        results.append(PageAgreement(page.file_id, f1, len(ours.split()), len(expected.split())))
    return results, failures


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("corpus", nargs="?", default=str(default_corpus_path()))
    parser.add_argument("--limit", type=int, help="first N article pages")
    parser.add_argument(
        "--sample", type=int, help="N corpus pages at random (seed 0), then their articles"
    )
    parser.add_argument("--worst", type=int, default=10, help="list the K pages that agree least")
    parser.add_argument("--save", type=Path, help=SAVE_HELP)
    args = parser.parse_args()
    save_output(args.save)
    pages = article_pages(load_pages(Path(args.corpus), sample=args.sample))
    if args.limit:
        pages = (page for _, page in zip(range(args.limit), pages))
    results, failures = agreements(pages)
    f1s = [r.f1 for r in results]
    print(f"{len(results)} article pages ({failures} BoilerPy3 could not parse)")
    print(f"mean word F1 against BoilerPy3: {statistics.fmean(f1s):.4f}")
    close = sum(f >= 0.95 for f in f1s) / len(f1s)
    print(f"median: {statistics.median(f1s):.4f}; pages >= 0.95: {close:.1%}")
    print("least agreement (page, F1, our words, BoilerPy3 words):")
    for r in sorted(results, key=lambda r: r.f1)[: args.worst]:
        print(f"  {r.file_id}  {r.f1:.3f}  {r.our_words:6d}  {r.reference_words:6d}")


if __name__ == "__main__":
    main()
