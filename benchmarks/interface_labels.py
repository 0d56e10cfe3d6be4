"""What the controls rule (``stages/interface_labels.py``) takes from the default's text.

Usage (from the repository root)::

    python benchmarks/interface_labels.py --from-scores FILE [CORPUS ...] [--save FILE]

FILE holds the models' held-out scores of every block (``train_content_model.py
--scores``). Each page goes through the default pipeline with those scores
and without ``KeepOutInterfaceLabels``; then, for the rule as shipped and
for variants not shipped, the script prints each corpus's word F1
(``corpus.score``) with the kept blocks the rule takes out and how many of
them are content by the page's reference (``block_targets``).
"""

import argparse
import pickle
import sys
from collections.abc import Callable
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))
from benchmarks.block_targets import block_targets  # noqa: E402
from benchmarks.corpus import aggregate, default_corpora, load_pages, score  # noqa: E402
from benchmarks.saved_output import SAVE_HELP, save_output  # noqa: E402
from benchmarks.train_content_model import KeptScores  # noqa: E402
from scrapy_declutter.core.blocks import Block  # noqa: E402
from scrapy_declutter.core.document import build_document  # noqa: E402
from scrapy_declutter.core.errors import DeclutterError  # noqa: E402
from scrapy_declutter.core.options import Options  # noqa: E402
from scrapy_declutter.extraction.presets import Pipeline, declutter_stages  # noqa: E402
from scrapy_declutter.stages import interface_labels  # noqa: E402
from scrapy_declutter.stages.article_end import ARTICLE  # noqa: E402
from scrapy_declutter.stages.content_model import ScoreContent  # noqa: E402
from scrapy_declutter.stages.content_region import KEEPING  # noqa: E402

# Each test: (whether the page is an article, the block's text, whether it
# is a heading) -> taken out.
TESTS: dict[str, Callable[[bool, str, bool], bool]] = {
    "shipped (article pages)": lambda article, text, heading: (
        article and interface_labels.is_interface_label(text, heading)
    ),
    "not shipped: headings of networks too": lambda article, text, heading: (
        article and interface_labels.is_interface_label(text)
    ),
    "not shipped: any page": lambda article, text, heading: interface_labels.is_interface_label(
        text, heading
    ),
}


def kept_blocks(page, final, first, probability) -> tuple[list[str], list[Block], bool]:
    """The page's block texts, the kept blocks without the rule, and whether
    the gate takes the page for an article."""
    try:
        document = build_document(page.html, language="auto")
    except DeclutterError:
        return [], [], False
    scores = KeptScores(final, first, probability)
    Pipeline(
        "without the controls rule",
        tuple(
            scores if isinstance(s, ScoreContent) else s
            for s in declutter_stages(Options())
            if not isinstance(s, interface_labels.KeepOutInterfaceLabels)
        ),
    )(document)
    kept = [b for b in document.blocks if b.reason in KEEPING]
    gate = document.article_probability
    return [b.text for b in document.blocks], kept, gate is not None and gate > ARTICLE


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("corpora", nargs="*", type=Path)
    parser.add_argument("--from-scores", type=Path, required=True)
    parser.add_argument("--save", type=Path, help=SAVE_HELP)
    args = parser.parse_args()
    save_output(args.save)
    corpora = args.corpora or default_corpora()
    pages = {(c.name, page.file_id): page for c in corpora for page in load_pages(c)}
    for title, (keys, final, first, probabilities) in pickle.loads(
        args.from_scores.read_bytes()
    ).items():
        print(title, flush=True)
        for corpus in dict.fromkeys(corpus for corpus, _ in keys):
            scores: dict[str, list] = {"without the rule": [], **{name: [] for name in TESTS}}
            hit = dict.fromkeys(TESTS, 0)
            content = dict.fromkeys(TESTS, 0)
            for i, key in enumerate(keys):
                if key[0] != corpus:
                    continue
                page = pages[key]
                texts, kept, article = kept_blocks(page, final[i], first[i], probabilities[i])
                scores["without the rule"].append(score("\n\n".join(b.text for b in kept), page))
                targets: dict[str, int] | None = None
                for name, test in TESTS.items():
                    out = [test(article, b.text, b.heading) for b in kept]
                    if any(out) and targets is None:
                        targets = dict(zip(texts, block_targets(texts, page.main_content or "")))
                    taken = [b.text for b, is_out in zip(kept, out) if is_out]
                    hit[name] += len(taken)
                    content[name] += sum(bool(targets and targets[text]) for text in taken)
                    rest = [b.text for b, is_out in zip(kept, out) if not is_out]
                    scores[name].append(score("\n\n".join(rest), page))
            print(f"  {corpus} ({len(scores['without the rule'])} pages):")
            for name, corpus_scores in scores.items():
                o = aggregate(corpus_scores).overall
                line = f"    {name}: F1 {o.f1:.4f} P {o.precision:.4f} R {o.recall:.4f}"
                if name in hit:
                    line += f"; takes {hit[name]} kept blocks, {content[name]} content"
                print(line, flush=True)


if __name__ == "__main__":
    main()
