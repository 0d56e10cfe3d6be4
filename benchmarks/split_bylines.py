"""What a decision for a byline split in two blocks ("By" / the name) would change.

Usage (from the repository root)::

    python benchmarks/split_bylines.py --from-scores FILE [CORPUS ...] [--save FILE]

A split byline is a block whose whole text is a byline's word ("By",
"By:", "Written by", "Von", "Par", ...: ``BYLINE_WORDS``) and the block
right after it, of at most ``NAME_WORDS`` words (the name). Each page goes
through the default pipeline with the models' held-out scores (FILE, as
``rule_tests.py``); then, for each decision on the pair, the script prints
each corpus's word F1, the blocks the decision takes out or puts in, and how
many of them are content by the page's reference (``block_targets``). The
pairs are also counted by what the default keeps of them and what the
reference holds.
"""

import sys
from collections import Counter
from collections.abc import Callable
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))
from benchmarks.block_targets import block_targets  # noqa: E402
from benchmarks.corpus import aggregate, score  # noqa: E402
from benchmarks.edge_labels import NoStage  # noqa: E402
from benchmarks.rule_tests import replay_arguments, without_rule  # noqa: E402
from benchmarks.train_content_model import KeptScores  # noqa: E402
from scrapy_declutter.stages.article_end import taken_for_article  # noqa: E402
from scrapy_declutter.stages.content_region import KEEPING  # noqa: E402

# A byline's word in English, German, French, Spanish, Dutch, Italian,
# Swedish and Danish.
BYLINE_WORDS = frozenset(
    (
        *("by", "written by", "posted by", "words by", "story by", "reported by", "author"),
        *("von", "par", "por", "door", "di", "av", "af", "autor", "auteur"),
    )
)
NAME_WORDS = 8

# A decision: (article page, "By" kept, name kept) -> ("By" kept, name kept).
Decision = Callable[[bool, bool, bool], tuple[bool, bool]]
DECISIONS: dict[str, Decision] = {
    "both go": lambda article, by, name: (False, False),
    "both go (article pages)": lambda article, by, name: (False, False) if article else (by, name),
    '"By" follows the name': lambda article, by, name: (name, name),
    '"By" follows the name (article pages)': lambda article, by, name: (
        (name, name) if article else (by, name)
    ),
    '"By" goes when the name goes': lambda article, by, name: (by and name, name),
    '"By" stays when the name stays': lambda article, by, name: (by or name, name),
    'the name follows "By"': lambda article, by, name: (by, by),
}


def split_bylines(texts: list[str], words: list[int]) -> list[int]:
    """The index of each split byline's "By" block (its name is the next block)."""
    return [
        i
        for i in range(len(texts) - 1)
        if texts[i].strip().rstrip(":").strip().lower() in BYLINE_WORDS
        and 0 < words[i + 1] <= NAME_WORDS
    ]


def main() -> None:
    _, pages, kept_scores = replay_arguments(__doc__.split("\n\n")[0])
    for title, (keys, final, first, probabilities) in kept_scores.items():
        print(title, flush=True)
        for corpus in dict.fromkeys(corpus for corpus, _ in keys):
            scores: dict[str, list] = {"as today": [], **{name: [] for name in DECISIONS}}
            out = Counter[str]()
            out_content = Counter[str]()
            put_in = Counter[str]()
            put_in_content = Counter[str]()
            pairs = Counter[tuple[str, str]]()
            for i, key in enumerate(keys):
                if key[0] != corpus:
                    continue
                page = pages[key]
                document = without_rule(
                    page, KeptScores(final[i], first[i], probabilities[i]), NoStage
                )
                blocks = document.blocks if document else []
                texts = [b.text for b in blocks]
                kept = [b.reason in KEEPING for b in blocks]
                scores["as today"].append(score(_joined(texts, kept), page))
                found = split_bylines(texts, [b.words for b in blocks])
                targets = block_targets(texts, page.main_content or "") if found else []
                article = document is not None and taken_for_article(document)
                for j in found:
                    pairs[
                        (
                            f"kept {int(kept[j])}{int(kept[j + 1])}",
                            f"content {targets[j]}{targets[j + 1]}",
                        )
                    ] += 1
                for name, decide in DECISIONS.items():
                    decided = list(kept)
                    for j in found:
                        decided[j], decided[j + 1] = decide(article, kept[j], kept[j + 1])
                    for j in range(len(blocks)):
                        if decided[j] != kept[j]:
                            (out if kept[j] else put_in)[name] += 1
                            (out_content if kept[j] else put_in_content)[name] += targets[j]
                    scores[name].append(score(_joined(texts, decided), page))
            print(f"  {corpus} ({len(scores['as today'])} pages):")
            print("    pairs: " + ", ".join(f"{k} {c} {n}" for (k, c), n in sorted(pairs.items())))
            for name, corpus_scores in scores.items():
                o = aggregate(corpus_scores).overall
                line = f"    {name}: F1 {o.f1:.4f} P {o.precision:.4f} R {o.recall:.4f}"
                if name in DECISIONS:
                    line += (
                        f"; takes out {out[name]} ({out_content[name]} content),"
                        f" puts in {put_in[name]} ({put_in_content[name]} content)"
                    )
                print(line, flush=True)


def _joined(texts: list[str], kept: list[bool]) -> str:
    return "\n\n".join(text for text, is_kept in zip(texts, kept) if is_kept)


if __name__ == "__main__":
    main()
