"""Block-by-block parity of our ``justext`` pipeline with the jusText package.

Usage::

    python benchmarks/parity.py [CORPUS] [--language English|auto] [--limit N]

For every page, both extractors run with the same stoplist (with ``auto``, the
one we picked; jusText's empty stoplist and zero thresholds where we went
language-independent). Blocks are aligned by their text; a block agrees when
both sides have it with the same final label. It prints the share of agreeing
blocks over the corpus (out of the larger of the two block counts, page by
page) and the share of pages whose kept text is identical.

White space is ignored when comparing text (see ``_squash``), and jusText's
empty paragraphs (it emits one for a stray ``<br>``; we emit no empty blocks)
are removed before comparing. README.rst lists every known difference.
"""

import argparse
import sys
from dataclasses import dataclass
from difflib import SequenceMatcher
from pathlib import Path

import justext

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from benchmarks.corpus import default_corpus_path, load_pages
from benchmarks.saved_output import SAVE_HELP, save_output
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
    reference = reference_paragraphs(html, ours.language, fix_headings)
    ours_items = [(_squash(b.text), str(b.label)) for b in ours.blocks]
    ref_items = [(_squash(p.text), "bad" if p.is_boilerplate else "good") for p in reference]
    matcher = SequenceMatcher(None, ours_items, ref_items, autojunk=False)
    agreeing = sum(size for _, _, size in matcher.get_matching_blocks())
    ours_text = _squash(" ".join(text for text, label in ours_items if label == "good"))
    ref_text = _squash(" ".join(text for text, label in ref_items if label == "good"))
    return PageParity(agreeing, max(len(ours_items), len(ref_items)), ours_text == ref_text)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("corpus", nargs="?", default=str(default_corpus_path()))
    parser.add_argument("--language", default="English")
    parser.add_argument("--limit", type=int)
    parser.add_argument(
        "--as-is", action="store_true", help="compare with jusText's heading stage unfixed"
    )
    parser.add_argument("--save", type=Path, help=SAVE_HELP)
    args = parser.parse_args()
    save_output(args.save)
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


if __name__ == "__main__":
    main()
