"""What each rule of the default's decision earns: word F1 per corpus with
the rule switched off, against the full chain in the same run.

Usage (from the repository root)::

    python -m benchmarks.ablation [CORPUS ...] [--rule NAME ...] [--limit N]
        [--from-scores FILE [--by-site]] [--save FILE]

CORPUS defaults to every corpus found beside the repository
(``../shared/corpora/``; see ``corpus.default_corpora``). ``--rule`` names a
rule to switch off (``Options.rules_off``; repeat it for several, each
measured alone); by default every rule of ``presets.RULE_NAMES``, in turn.
Each page is parsed, classified by jusText and scored by the content models
once; then the decision (``presets.decision_stages``) and the comments'
stage run once for the full chain and once for each rule left out, so the
rows differ by the rule alone. The metric is ``corpus.score``'s (word F1
averaged over pages, as ``quality.py`` scores); a page the limits refuse
scores as an empty extraction, as in ``quality.py``.

With ``--from-scores FILE`` (``train_content_model.py --loco --scores
FILE``) the models' scores are not the shipped models' but those the file
kept, held out: each page scored by the models fitted with its corpus left
out, or (``--by-site``) by those of the folds by site. A rule is then
measured on pages its models never saw, which the shipped models, fitted on
most of the corpora, cannot show.
"""

import argparse
import pickle
import sys
from pathlib import Path

from benchmarks.corpus import (
    SAVE_HELP,
    KeptScores,
    aggregate,
    default_corpora,
    held_out_scores,
    load_pages,
    save_output,
    score,
)
from scrapy_declutter import DeclutterError
from scrapy_declutter.core.document import Document, build_document
from scrapy_declutter.core.options import Options
from scrapy_declutter.extraction.presets import (
    RULE_NAMES,
    check_rule_names,
    decision_stages,
    justext_stages,
)
from scrapy_declutter.stages.comments import SeparateComments
from scrapy_declutter.stages.content_model import ScoreContent

FULL = "(full chain)"


def variants(rules: list[str]) -> dict[str, tuple]:
    """The stages after the models for the full chain and each rule left out."""
    after = (SeparateComments(after_region=True),)
    chains = {FULL: (*decision_stages(Options()), *after)}
    for rule in rules:
        options = Options(rules_off=frozenset((rule,)))
        chains[rule] = (*decision_stages(options), *after)
    return chains


def texts(
    html: bytes, chains: dict[str, tuple], scores: KeptScores | None = None
) -> dict[str, str]:
    """The page's text under each chain, the models' scores ``scores`` when
    given; empty where the limits refuse the page."""
    options = Options()
    try:
        document = build_document(
            html, language=options.language, memory_limit_mb=options.page_memory_limit_mb
        )
    except DeclutterError:
        return dict.fromkeys(chains, "")
    for stage in (*justext_stages(options), scores or ScoreContent()):
        stage(document)
    return {name: decided(document, chain) for name, chain in chains.items()}


def decided(document: Document, chain: tuple) -> str:
    for stage in chain:
        stage(document)
    return "\n\n".join(block.text for block in document.blocks if block.is_good)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("corpora", nargs="*", type=Path)
    parser.add_argument("--rule", action="append", help="a rule to switch off (repeatable)")
    parser.add_argument("--limit", type=int, help="the first N pages of each corpus")
    parser.add_argument(
        "--from-scores", type=Path, help="held-out scores kept by train_content_model --scores"
    )
    parser.add_argument(
        "--by-site", action="store_true", help="with --from-scores: the folds by site's"
    )
    parser.add_argument("--save", type=Path, help=SAVE_HELP)
    args = parser.parse_args()
    save_output(args.save)
    kept = {}
    if args.from_scores:
        kept = held_out_scores(pickle.loads(args.from_scores.read_bytes()), not args.by_site)
    rules = args.rule or list(RULE_NAMES)
    check_rule_names(frozenset(rules))
    chains = variants(rules)
    corpora = args.corpora or default_corpora()
    results: dict[str, dict[str, float]] = {name: {} for name in chains}
    for corpus in corpora:
        scores: dict[str, list] = {name: [] for name in chains}
        for page in load_pages(corpus, limit=args.limit):
            if kept and (corpus.name, page.file_id) not in kept:
                continue  # a corpus the fit did not score
            page_scores = kept.get((corpus.name, page.file_id))
            for name, text in texts(page.html, chains, page_scores).items():
                scores[name].append(score(text, page))
        for name, page_scores in scores.items():
            results[name][corpus.name] = aggregate(page_scores).overall.f1 or 0.0
        print(f"{corpus.name}: {len(scores[FULL])} pages", file=sys.stderr, flush=True)
    names = [corpus.name for corpus in corpora]
    width = max(map(len, chains)) + 2
    held_out = ""
    if args.from_scores:
        held_out = ", held out by site" if args.by_site else ", each corpus left out"
    print(f"word F1{held_out}; with a rule off, the change against the full chain")
    print("rule off".ljust(width) + "".join(f"{n:>16}" for n in names))
    full = results[FULL]
    print(FULL.ljust(width) + "".join(f"{full[n]:>16.4f}" for n in names))
    for name in rules:
        row = results[name]
        cells = "".join(f"{row[n]:>9.4f} {row[n] - full[n]:+.4f}"[-16:].rjust(16) for n in names)
        print(name.ljust(width) + cells)


if __name__ == "__main__":
    main()
