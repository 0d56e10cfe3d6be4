"""What the value rule (``stages/value_blocks.py``) takes from the default's text, rule by rule.

Usage (from the repository root)::

    python benchmarks/value_blocks.py --from-scores FILE [CORPUS ...] [--save FILE]

FILE holds the models' held-out scores of every block (``train_content_model.py
--scores``). Each page goes through the default pipeline with those scores
and without ``KeepOutValues``; then, for each of the rule's tests alone, for
the three together (``is_value``, as shipped) and for tests not shipped,
the script prints each corpus's word F1 (``corpus.score``) with the blocks
that test takes out of what is kept, and how many of them are content by
the page's reference (``block_targets``).
"""

import argparse
import pickle
import re
import sys
from collections.abc import Callable
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))
from benchmarks.block_targets import block_targets  # noqa: E402
from benchmarks.corpus import aggregate, default_corpora, load_pages, score  # noqa: E402
from benchmarks.saved_output import SAVE_HELP, save_output  # noqa: E402
from benchmarks.train_content_model import KeptScores  # noqa: E402
from scrapy_declutter.core.document import build_document  # noqa: E402
from scrapy_declutter.core.errors import DeclutterError  # noqa: E402
from scrapy_declutter.core.options import Options  # noqa: E402
from scrapy_declutter.core.reasons import DATA_TABLE  # noqa: E402
from scrapy_declutter.extraction.presets import Pipeline, declutter_stages  # noqa: E402
from scrapy_declutter.stages import value_blocks  # noqa: E402
from scrapy_declutter.stages.content_model import ScoreContent  # noqa: E402


def whole(pattern: re.Pattern[str]) -> Callable[[str], bool]:
    """Whether all of a text (no white space in it) is ``pattern``."""

    def test(text: str) -> bool:
        text = text.strip()
        return bool(text) and " " not in text and pattern.fullmatch(text) is not None

    return test


def markup(text: str) -> bool:
    return "<" in text and value_blocks.is_value(text)


def comma_list(text: str) -> bool:
    """Three or more items of at most three words joined by commas, no other punctuation."""
    if text.count(",") < 2 or re.search(r"[.!?;:]", text):
        return False
    return all(item.strip() and len(item.split()) <= 3 for item in text.split(","))


TESTS: dict[str, Callable[[str], bool]] = {
    "timestamp": whole(value_blocks.TIMESTAMP),
    "image URL": whole(value_blocks.IMAGE_URL),
    "markup": markup,
    "the three (shipped)": value_blocks.is_value,
    "not shipped: any URL": whole(re.compile(r"(?:https?://|www\.)\S+", re.IGNORECASE)),
    "not shipped: a date": whole(re.compile(r"\d{4}-\d{2}-\d{2}")),
    "not shipped: one word": whole(re.compile(r"\w+")),
    "not shipped: comma list": comma_list,
}


def kept_blocks(page, final, first, probability) -> tuple[list[str], list[str], list[bool]]:
    """The page's block texts, the kept ones, and whether each kept one may be
    tested (``kept_out_as_value`` but for the text), without the value rule."""
    try:
        document = build_document(page.html, language="auto")
    except DeclutterError:
        return [], [], []
    stages = declutter_stages(Options())
    scores = KeptScores(final, first, probability)
    Pipeline(
        "without the value rule",
        tuple(
            scores if isinstance(s, ScoreContent) else s
            for s in stages
            if not isinstance(s, value_blocks.KeepOutValues)
        ),
    )(document)
    kept = [b for b in document.blocks if b.is_good]
    testable = [b.reason != DATA_TABLE and not value_blocks.in_code(b.element) for b in kept]
    return [b.text for b in document.blocks], [b.text for b in kept], testable


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
                texts, kept, testable = kept_blocks(page, final[i], first[i], probabilities[i])
                scores["without the rule"].append(score("\n\n".join(kept), page))
                targets: dict[str, int] | None = None
                for name, test in TESTS.items():
                    out = [test(text) and ok for text, ok in zip(kept, testable)]
                    if any(out) and targets is None:
                        targets = dict(zip(texts, block_targets(texts, page.main_content or "")))
                    taken = [text for text, is_out in zip(kept, out) if is_out]
                    hit[name] += len(taken)
                    content[name] += sum(bool(targets and targets[text]) for text in taken)
                    rest = [text for text, is_out in zip(kept, out) if not is_out]
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
