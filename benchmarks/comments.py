"""What setting comments apart does to the text: word F1 with and without it.

Usage (from the repository root)::

    python benchmarks/comments.py [CORPORA_DIR] [--corpora wcxb-dev,dragnet,l3s-gn1]

CORPORA_DIR defaults to ``<repo>/../shared/corpora``. Every page goes through
the default ``declutter`` pipeline twice: as if no page had a comment section
(``comments.comment_section`` finds none, so the content region may take a
thread for the content and nothing is set apart), then as shipped. Prints,
per corpus, the pages whose text changed and the mean word F1 of both (the
corpus metric, ``benchmarks/corpus.py``). dragnet's reference leaves user
comments out; wcxb-dev keeps forum posts as content.
"""

import argparse
import statistics
import sys
from pathlib import Path
from unittest import mock

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from benchmarks.corpus import default_corpus_path, load_pages, word_prf
from benchmarks.saved_output import SAVE_HELP, save_output
from scrapy_declutter.core.errors import DeclutterError
from scrapy_declutter.extraction.extract import extract

# Both modules that call it: the content region's hard rules and the last stage.
NO_SECTION = (
    "scrapy_declutter.stages.evidence.comment_section",
    "scrapy_declutter.stages.comments.comment_section",
)


def text_without_sections(html: bytes) -> str:
    with mock.patch(NO_SECTION[0], return_value=None), mock.patch(NO_SECTION[1], return_value=None):
        return extract(html).text


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("corpora", nargs="?", default=str(default_corpus_path().parent))
    parser.add_argument("--corpora", dest="names", default="wcxb-dev,dragnet,l3s-gn1")
    parser.add_argument("--save", type=Path, help=SAVE_HELP)
    args = parser.parse_args()
    save_output(args.save)
    print(f"{'corpus':10}{'pages':>7}{'changed':>9}{'F1 without':>12}{'F1 with':>10}")
    for name in args.names.split(","):
        without, with_comments_apart, changed = [], [], 0
        for page in load_pages(Path(args.corpora) / name):
            if page.main_content is None:
                continue
            try:
                text, separated = text_without_sections(page.html), extract(page.html).text
            except DeclutterError:  # refused by the page limits: not scored
                continue
            changed += text != separated
            without.append(word_prf(text, page.main_content)[2])
            with_comments_apart.append(word_prf(separated, page.main_content)[2])
        print(
            f"{name:10}{len(without):7d}{changed:9d}"
            f"{statistics.fmean(without):12.4f}{statistics.fmean(with_comments_apart):10.4f}"
        )


if __name__ == "__main__":
    main()
