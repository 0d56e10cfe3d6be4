"""What a rule after the models takes from the default's text, test by test.

Shared by the benchmarks of one rule each (``value_blocks.py``,
``interface_labels.py``). Their usage (from the repository root)::

    python benchmarks/RULE.py --from-scores FILE [CORPUS ...] [--save FILE]

FILE holds the models' held-out scores of every block (``train_content_model.py
--scores``). Each page goes through the default pipeline with those scores
and without the rule's stage; then, for each test (the rule as shipped, its
parts, variants not shipped), the script prints each corpus's word F1
(``corpus.score``) with the kept blocks the test takes out and how many of
them are content by the page's reference (``block_targets``); with
``--samples N``, N of the blocks each test takes (picked at random, the same
on each run), marked + when content and - when not.
"""

import argparse
import pickle
import random
import sys
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))
from benchmarks.block_targets import block_targets  # noqa: E402
from benchmarks.corpus import aggregate, default_corpora, load_pages, score  # noqa: E402
from benchmarks.saved_output import SAVE_HELP, save_output  # noqa: E402
from benchmarks.train_content_model import KeptScores  # noqa: E402
from scrapy_declutter.core.document import Document, build_document  # noqa: E402
from scrapy_declutter.core.errors import DeclutterError  # noqa: E402
from scrapy_declutter.core.options import Options  # noqa: E402
from scrapy_declutter.extraction.presets import Pipeline, declutter_stages  # noqa: E402
from scrapy_declutter.stages.content_model import ScoreContent  # noqa: E402

# The kept blocks of a page the rule may test: each one's text and what its
# tests read of it.
Candidates = Callable[[Document], list[tuple[str, Any]]]


def without_rule(page, kept: KeptScores, rule: type) -> Document | None:
    """``page`` through the default pipeline, its models' scores ``kept``,
    without the stage of type ``rule`` (None: over a limit)."""
    try:
        document = build_document(page.html, language="auto")
    except DeclutterError:
        return None
    stages = declutter_stages(Options())
    replaced = (kept if isinstance(s, ScoreContent) else s for s in stages)
    Pipeline("without the rule", tuple(s for s in replaced if not isinstance(s, rule)))(document)
    return document


def replay_arguments(
    description: str, samples: bool = False
) -> tuple[argparse.Namespace, dict[tuple[str, str], Any], dict[str, tuple]]:
    """The command line of a benchmark over kept held-out scores (``CORPUS
    ...``, ``--from-scores``, ``--save``, and ``--samples`` if asked): the
    arguments, the corpora's pages by (corpus, file id), and the scores."""
    parser = argparse.ArgumentParser(description=description)
    parser.add_argument("corpora", nargs="*", type=Path)
    parser.add_argument("--from-scores", type=Path, required=True)
    parser.add_argument("--save", type=Path, help=SAVE_HELP)
    if samples:
        parser.add_argument("--samples", type=int, default=0, help="blocks to print per test")
    args = parser.parse_args()
    save_output(args.save)
    corpora = args.corpora or default_corpora()
    pages = {(c.name, page.file_id): page for c in corpora for page in load_pages(c)}
    return args, pages, pickle.loads(args.from_scores.read_bytes())


def compare(
    description: str, rule: type, tests: Mapping[str, Callable[[Any], bool]], candidates: Candidates
) -> None:
    """Parse the command line and print each corpus's figures for each test."""
    args, pages, kept_scores = replay_arguments(description, samples=True)
    for title, (keys, final, first, probabilities) in kept_scores.items():
        print(title, flush=True)
        for corpus in dict.fromkeys(corpus for corpus, _ in keys):
            scores: dict[str, list] = {"without the rule": [], **{name: [] for name in tests}}
            hit = dict.fromkeys(tests, 0)
            content = dict.fromkeys(tests, 0)
            samples: dict[str, list[str]] = {name: [] for name in tests}
            for i, key in enumerate(keys):
                if key[0] != corpus:
                    continue
                page = pages[key]
                kept = KeptScores(final[i], first[i], probabilities[i])
                document = without_rule(page, kept, rule)
                texts = [b.text for b in document.blocks] if document else []
                tested = candidates(document) if document else []
                scores["without the rule"].append(score("\n\n".join(t for t, _ in tested), page))
                targets: dict[str, int] | None = None
                for name, test in tests.items():
                    out = [test(candidate) for _, candidate in tested]
                    if any(out) and targets is None:
                        targets = dict(zip(texts, block_targets(texts, page.main_content or "")))
                    taken = [text for (text, _), is_out in zip(tested, out) if is_out]
                    hit[name] += len(taken)
                    content[name] += sum(bool(targets and targets[text]) for text in taken)
                    samples[name] += (
                        f"{'+' if targets and targets[text] else '-'} {text[:70]!r}"
                        for text in taken
                    )
                    rest = [text for (text, _), is_out in zip(tested, out) if not is_out]
                    scores[name].append(score("\n\n".join(rest), page))
            print(f"  {corpus} ({len(scores['without the rule'])} pages):")
            for name, corpus_scores in scores.items():
                o = aggregate(corpus_scores).overall
                line = f"    {name}: F1 {o.f1:.4f} P {o.precision:.4f} R {o.recall:.4f}"
                if name in hit:
                    line += f"; takes {hit[name]} kept blocks, {content[name]} content"
                print(line, flush=True)
                if name in samples and args.samples:
                    picked = random.Random(0).sample(
                        samples[name], min(args.samples, len(samples[name]))
                    )
                    print("".join(f"      {sample}\n" for sample in picked), end="")
