"""Parity with the reference implementations: our ``justext`` pipeline block by
block with the jusText package, our ``boilerpipe-article`` with BoilerPy3.

Usage (from the repository root)::

    python -m benchmarks.parity [CORPUS] [--language English|auto] [--limit N] [--as-is]
    python -m benchmarks.parity --boilerpipe [CORPUS] [--limit N] [--sample N] [--worst K]

For every page, both extractors run with the same stoplist (with ``auto``, the
one we picked; jusText's empty stoplist and zero thresholds where we went
language-independent). Blocks are aligned by their text; a block agrees when
both sides have it with the same final label. It prints the share of agreeing
blocks over the corpus (out of the larger of the two block counts, page by
page) and the share of pages whose kept text is identical.

White space is ignored when comparing text (see ``_squash``), and jusText's
empty paragraphs (it emits one for a stray ``<br>``; we emit no empty blocks)
are removed before comparing. README.rst lists every known difference.

``--boilerpipe``: on the corpus's article pages (``page_type == "article"``),
both extract the text of every page; the agreement of a page is the word-level
F1 of our text against BoilerPy3's (``corpus.word_prf``: lower-cased ``\\w+``
bags). It prints the mean over the pages, the share of pages at or above 0.95,
and the pages that agree least. Pages BoilerPy3 fails on are counted and left
out. BoilerPy3 gets the page decoded as UTF-8 (what the corpus is); we get the
bytes.
"""

import argparse
import logging
import statistics
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from difflib import SequenceMatcher
from pathlib import Path

from benchmarks.corpus import (
    SAVE_HELP,
    Page,
    default_corpus_path,
    load_pages,
    save_output,
    word_prf,
)
from scrapy_declutter import extract


@dataclass
class PageParity:
    agreeing_blocks: int
    compared_blocks: int
    same_text: bool


def _squash(text: str) -> str:
    # White space is not compared: jusText drops white-space-only text nodes,
    # so "<a>Home</a> <a>News</a>" is "HomeNews" there and "Home News" here.
    return "".join(text.split())


def reference_paragraphs(html: bytes, language: str | None, fix_headings: bool = True) -> list:
    """jusText's paragraphs, with the stoplist (or language-independent mode).

    jusText's heading pre-processing looks at the class of the paragraphs
    after a heading before it has copied their context-free class, so it never
    fires. With ``fix_headings`` the classes are copied first, which is what
    its algorithm.rst describes and what our ``PreprocessHeadings`` does.
    """
    import justext

    stoplist = justext.get_stoplist(language) if language else frozenset()
    thresholds = {} if language else {"stopwords_low": 0, "stopwords_high": 0}
    dom = justext.core.preprocessor(justext.core.html_to_dom(html))
    paragraphs = justext.core.ParagraphMaker.make_paragraphs(dom)
    justext.core.classify_paragraphs(paragraphs, stoplist, **thresholds)
    if fix_headings:
        for paragraph in paragraphs:
            paragraph.class_type = paragraph.cf_class
    justext.core.revise_paragraph_classification(paragraphs)
    return [p for p in paragraphs if p.text.strip()]


def compare_page(html: bytes, language: str, fix_headings: bool = True) -> PageParity:
    """Run both on one page; ``language`` is a stoplist name or ``auto``."""
    ours = extract(html, language=language, pipeline="justext")
    reference = reference_paragraphs(html, ours.stoplist, fix_headings)
    ours_items = [(_squash(b.text), str(b.label)) for b in ours.blocks]
    ref_items = [(_squash(p.text), "bad" if p.is_boilerplate else "good") for p in reference]
    matcher = SequenceMatcher(None, ours_items, ref_items, autojunk=False)
    agreeing = sum(size for _, _, size in matcher.get_matching_blocks())
    ours_text = _squash(" ".join(text for text, label in ours_items if label == "good"))
    ref_text = _squash(" ".join(text for text, label in ref_items if label == "good"))
    return PageParity(agreeing, max(len(ours_items), len(ref_items)), ours_text == ref_text)


# -- boilerpipe-article against BoilerPy3 -------------------------------------------


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


def justext_parity(args: argparse.Namespace) -> None:
    agreeing = compared = same = pages = failed = 0
    worst = []
    for page in load_pages(Path(args.corpus), limit=args.limit):
        try:
            result = compare_page(page.html, args.language, fix_headings=not args.as_is)
        except Exception as exc:  # the reference fails on some pages (deep nesting, ...)
            failed += 1
            print(f"{page.file_id}: reference failed: {type(exc).__name__}: {exc}"[:200])
            continue
        pages += 1
        agreeing += result.agreeing_blocks
        compared += result.compared_blocks
        same += result.same_text
        worst.append((result.agreeing_blocks / max(result.compared_blocks, 1), page.file_id))
    print(
        f"language={args.language} heading-fix={not args.as_is} pages={pages}",
        f"reference-failures={failed}",
    )
    print(f"blocks agreeing: {agreeing}/{compared} = {agreeing / max(compared, 1):.4f}")
    print(f"pages with identical kept text: {same}/{pages} = {same / max(pages, 1):.4f}")
    print("least agreeing pages:", ", ".join(f"{fid} ({r:.2f})" for r, fid in sorted(worst)[:10]))


def boilerpipe_parity(args: argparse.Namespace) -> None:
    pages: Iterator[Page] = article_pages(load_pages(Path(args.corpus), sample=args.sample))
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


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("corpus", nargs="?", default=str(default_corpus_path()))
    parser.add_argument(
        "--boilerpipe", action="store_true", help="boilerpipe-article against BoilerPy3"
    )
    parser.add_argument("--language", default="English", help="jusText: the stoplist, or auto")
    parser.add_argument("--limit", type=int, help="first N pages (with --boilerpipe: articles)")
    parser.add_argument(
        "--as-is", action="store_true", help="compare with jusText's heading stage unfixed"
    )
    parser.add_argument(
        "--sample", type=int, help="--boilerpipe: N corpus pages at random (seed 0), then articles"
    )
    parser.add_argument("--worst", type=int, default=10, help="--boilerpipe: the K least agreeing")
    parser.add_argument("--save", type=Path, help=SAVE_HELP)
    args = parser.parse_args()
    save_output(args.save)
    (boilerpipe_parity if args.boilerpipe else justext_parity)(args)


if __name__ == "__main__":
    main()
