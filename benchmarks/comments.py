"""What setting comments apart does to the text: word F1 with and without it.

Usage (from the repository root)::

    python benchmarks/comments.py [CORPORA_DIR] [--corpora wcxb-dev,dragnet,l3s-gn1]

CORPORA_DIR defaults to ``<repo>/../shared/corpora``. For every page, the
default ``declutter`` pipeline runs without its last stage
(``SeparateComments``), the text is scored, then the stage runs and the text
is scored again: the same labels but for the comment sections. Prints, per
corpus, the pages whose text changed and the mean word F1 of both (the
corpus metric, ``benchmarks/corpus.py``). dragnet's reference leaves user
comments out; wcxb-dev keeps forum posts as content.
"""

import argparse
import statistics
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from benchmarks.corpus import default_corpus_path, load_pages, word_prf
from benchmarks.saved_output import SAVE_HELP, save_output
from scrapy_declutter.core.document import build_document
from scrapy_declutter.core.errors import DeclutterError
from scrapy_declutter.core.options import Options
from scrapy_declutter.core.presets import build_pipeline
from scrapy_declutter.stages.comments import SeparateComments


def kept_text(document) -> str:
    return "\n\n".join(block.text for block in document.blocks if block.is_good)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("corpora", nargs="?", default=str(default_corpus_path().parent))
    parser.add_argument("--corpora", dest="names", default="wcxb-dev,dragnet,l3s-gn1")
    parser.add_argument("--save", type=Path, help=SAVE_HELP)
    args = parser.parse_args()
    save_output(args.save)
    options = Options()
    pipeline = build_pipeline(options)
    before = [s for s in pipeline.stages if not isinstance(s, SeparateComments)]
    separate = SeparateComments()
    print(f"{'corpus':10}{'pages':>7}{'changed':>9}{'F1 without':>12}{'F1 with':>10}")
    for name in args.names.split(","):
        without, with_comments_apart, changed = [], [], 0
        for page in load_pages(Path(args.corpora) / name):
            if page.main_content is None:
                continue
            try:
                document = build_document(page.html, language=options.language)
            except DeclutterError:  # refused by the page limits: not scored
                continue
            for stage in before:
                stage(document)
            text = kept_text(document)
            separate(document)
            separated = kept_text(document)
            changed += text != separated
            without.append(word_prf(text, page.main_content)[2])
            with_comments_apart.append(word_prf(separated, page.main_content)[2])
        print(
            f"{name:10}{len(without):7d}{changed:9d}"
            f"{statistics.fmean(without):12.4f}{statistics.fmean(with_comments_apart):10.4f}"
        )


if __name__ == "__main__":
    main()
