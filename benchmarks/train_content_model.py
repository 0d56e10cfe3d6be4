"""Fit the content models of the ``declutter`` pipeline, with cross-validation by site.

Usage::

    python -m benchmarks.train_content_model [CORPUS ...] [--folds 5] [--thresholds 0.4,0.43]
        [--loco [--loco-folds 3]] [--save FILE] [--write] [--scores FILE]
    python -m benchmarks.train_content_model [CORPUS ...] --from-scores FILE [--thresholds 0.4]
        [--save FILE]

CORPUS defaults to every corpus found beside the repository
(``../shared/corpora/{wcxb-dev,dragnet,l3s-gn1,magic-forum}``; the shipped
models were fitted on the first three, named). Every page goes through
jusText's stages; each block is a training example, labelled content when its
text is part of the page's ``main_content`` (see ``block_targets``). Three
things are fitted (scikit-learn, a benchmark extra; see ``article_gate``): the
general model on the pages of ``GENERAL_CORPORA``, the article model on all,
and the gate on all pages' types, from the general model's scores, with its
mix of the two models' scores on their held-out scores of every block. The
fits, and what a model is, are in ``content_fit.py``.

Pages are split into folds by web site (``page_site``: the host of the page's
URL, or of its canonical or ``og:url`` link, else the page is a site of its
own), so no site is in both the training and the held-out part of a fold. The
script prints the corpus metric of each corpus on held-out pages (``HeldOut``)
for the pipeline's mix and for each model alone, which are the figures to
quote, with a corpus's Chinese and Japanese pages apart (``corpus.is_cjk``;
``--save`` writes the same to a file). ``--loco`` also fits on all
corpora but one and scores the one left out, for each (the second stages
learn there from out-of-fold scores of ``--loco-folds`` folds). With
``--write`` it writes the three fitted on every page to
``scrapy_declutter/stages/models/``, each with a record of the fit.
``--scores`` keeps every held-out score of the run in a file;
``--from-scores`` fits nothing and replays those scores through the working
tree's default pipeline after the models (``replay``): a change there is
measured held out, by site and left out, in minutes.
"""

import argparse
import json
import pickle
import subprocess
from dataclasses import replace
from pathlib import Path
from urllib.parse import urlparse

from lxml import etree

from benchmarks.block_targets import block_targets
from benchmarks.content_fit import (
    CLASS_TOKEN_BOUND,
    CORPUS_WEIGHTS,
    GATE_C,
    GENERAL_CORPORA,
    MIN_SITES,
    MIX_C,
    MIX_CORPUS_WEIGHTS,
    C,
    HeldOut,
    block_matrix,
    fit_gate,
    fit_model,
    leave_one_corpus_out,
)
from benchmarks.corpus import (
    SAVE_HELP,
    KeptScores,
    aggregate,
    default_corpora,
    load_pages,
    save_output,
    score,
    summarise,
)
from scrapy_declutter.core.blocks import Block
from scrapy_declutter.core.document import Document, build_document
from scrapy_declutter.core.errors import DeclutterError
from scrapy_declutter.core.options import Options
from scrapy_declutter.extraction.presets import (
    Pipeline,
    build_pipeline,
    declutter_stages,
    rules,
)
from scrapy_declutter.stages.article_gate import GATE, ArticleGate, PageShape
from scrapy_declutter.stages.content_features import page_features
from scrapy_declutter.stages.content_model import (
    ARTICLE_MODEL,
    MODEL,
    ContentModel,
    ScoreContent,
)
from scrapy_declutter.stages.evidence import (
    PageEvidence,
    StartDecision,
    evidence_of,
)

REPO = Path(__file__).resolve().parents[1]

# Stands for the blocks' elements in a replayed page: the rules to the
# headline read the page's tree from its evidence, not from the blocks.
_NO_ELEMENT = etree.Element("p")


def host(url: str | None) -> str:
    return urlparse(url or "").netloc.lower().removeprefix("www.")


def page_site(page_url: str | None, root, corpus: str, file_id: str) -> str:
    """The web site a page is from: the host of its URL, else of its
    canonical or ``og:url`` link, else the page is a site of its own."""
    found = host(page_url)
    if not found and root is not None:
        for link in root.iterfind(".//head/link[@rel]"):
            if link.get("rel", "").lower() == "canonical" and (found := host(link.get("href"))):
                break
        else:
            for meta in root.iterfind(".//head/meta[@property]"):
                if meta.get("property") == "og:url" and (found := host(meta.get("content"))):
                    break
    return found or f"{corpus}/{file_id}"


def prepare(corpus: Path, limit: int | None = None) -> list[dict]:
    """Run jusText on every page and keep what training needs."""
    justext = build_pipeline(Options(pipeline="justext"))
    pages = []
    for page in load_pages(corpus, limit=limit):
        try:
            document = build_document(page.html, language="auto")
        except DeclutterError:  # a page over the limits: extract() refuses it, nothing is kept
            document = Document()
        justext(document)
        features = page_features(document)
        tree = replace(features.tree, elements=[])  # the numbers alone: no lxml in memory
        texts = [b.text for b in document.blocks]
        matrix, token_columns = block_matrix(features, len(texts))
        evidence = evidence_of(document)  # jusText's labels, as the decision reads them
        pages.append(
            {
                "page": page,
                "corpus": corpus.name,
                "weight": CORPUS_WEIGHTS.get(corpus.name, 1.0),
                "site": page_site(page.url, document.root, corpus.name, page.file_id),
                "features": replace(features, tree=tree),
                "matrix": matrix,
                "token_columns": token_columns,
                "targets": block_targets(texts, page.main_content or ""),
                "texts": texts,
                "title": document.title,
                "tree": tree,
                "lengths": evidence.lengths,
                "short_links": evidence.short_links,
                "evidence": {
                    "tree": tree,
                    "lengths": evidence.lengths,
                    "short_links": evidence.short_links,
                    "fallback": evidence.fallback,
                    "verdicts": evidence.verdicts,
                    "navigation": evidence.navigation,
                    "prose": evidence.prose,
                    "tables": evidence.tables.settled(),
                },
                "shape": PageShape.of(document),
                "is_article": page.page_type == "article",
            }
        )
    return pages


def kept_text(
    p: dict, scores: list[float], first: list[float], threshold: float, probability: float
) -> str:
    """What the decision's rules to the headline keep at ``threshold`` (what
    the region and the rules that run with it keep), over the prepared page
    (``probability``: the article gate's)."""
    blocks = [Block(text, _NO_ELEMENT) for text in p["texts"]]
    for block, final, block_score in zip(blocks, scores, first):
        block.score, block.block_score = final, block_score
    document = Document(blocks, title=p["title"])
    PageEvidence.given(document, **p["evidence"]).article_probability = probability
    for stage in (StartDecision(), *REGION_RULES[threshold]):
        stage(document)
    return "\n\n".join(b.text for b in blocks if b.is_good)


class _RegionRules(dict):
    """The decision's rules to the headline, by threshold."""

    def __missing__(self, threshold: float) -> tuple:
        chain = rules(Options(content_threshold=threshold))
        self[threshold] = chain[: [rule.name for rule in chain].index("headline") + 1]
        return self[threshold]


REGION_RULES = _RegionRules()


def report(title: str, pages, final, first, probabilities, thresholds: list[float]) -> list[str]:
    """The corpus metric for each corpus among ``pages`` and each threshold
    (``probabilities``: the article gate's, by page)."""
    lines = [title]
    for corpus in dict.fromkeys(p["corpus"] for p in pages):
        chosen = [i for i, p in enumerate(pages) if p["corpus"] == corpus]
        sites = len({pages[i]["site"] for i in chosen})
        lines.append(f"  {corpus} ({len(chosen)} pages, {sites} sites):")
        for threshold in thresholds:
            scores = [
                score(
                    kept_text(pages[i], final[i], first[i], threshold, probabilities[i]),
                    pages[i]["page"],
                )
                for i in chosen
            ]
            lines += score_lines(f"threshold {threshold:.2f}", scores)
    return lines


def score_lines(name: str, scores: list) -> list[str]:
    """The corpus metric of one corpus's ``scores``: overall, by page type, and
    its Chinese and Japanese pages apart (magic-forum's)."""
    result = aggregate(scores)
    o = result.overall
    line = f"    {name}: F1 {o.f1:.3f} P {o.precision:.3f} R {o.recall:.3f}"
    if o.with_rate is not None:
        line += f" with {o.with_rate:.3f} without {o.without_rate:.3f}"
    lines = [f"{line} empty {o.empty}"]
    if len(result.by_type) > 1:
        lines.append("      " + "  ".join(f"{t} {a.f1:.3f}" for t, a in result.by_type.items()))
    if cjk := [s for s in scores if s.cjk]:
        c = summarise(cjk)
        lines.append(
            f"      Chinese and Japanese pages ({c.scored}): F1 {c.f1:.3f}"
            f" P {c.precision:.3f} R {c.recall:.3f}"
        )
    return lines


def page_key(p: dict) -> tuple[str, str]:
    return p["corpus"], p["page"].file_id


def replayed_text(
    page, final: list[float], first: list[float], probability: float, threshold: float
) -> str:
    """The default pipeline's text of ``page`` at ``threshold``, its models'
    scores replaced by kept ones."""
    try:
        document = build_document(page.html, language="auto")
    except DeclutterError:
        return ""
    stages = declutter_stages(Options(content_threshold=threshold))
    kept = KeptScores(final, first, probability)
    Pipeline("replay", tuple(kept if isinstance(s, ScoreContent) else s for s in stages))(document)
    return "\n\n".join(block.text for block in document.blocks if block.is_good)


def replay(corpora: list[Path], kept: dict[str, tuple], thresholds: list[float]) -> None:
    """Each part of ``--scores``'s file through today's pipeline after the
    models (the region, the comments and whatever follows them), at each of
    ``thresholds``: such a change measured held out without fitting again,
    valid while the blocks and the models' features are those the scores were
    kept with."""
    pages = {(c.name, page.file_id): page for c in corpora for page in load_pages(c)}
    for title, (keys, final, first, probabilities) in kept.items():
        print(title, flush=True)
        for corpus in dict.fromkeys(corpus for corpus, _ in keys):
            chosen = [i for i, key in enumerate(keys) if key[0] == corpus]
            print(f"  {corpus} ({len(chosen)} pages):", flush=True)
            for threshold in thresholds:
                scores = [
                    score(
                        replayed_text(
                            pages[keys[i]], final[i], first[i], probabilities[i], threshold
                        ),
                        pages[keys[i]],
                    )
                    for i in chosen
                ]
                lines = score_lines(f"threshold {threshold:.2f}", scores)
                print("\n".join(lines), flush=True)


def commit() -> str:
    try:
        return subprocess.run(
            ["git", "rev-parse", "--short", "HEAD"], cwd=REPO, capture_output=True, text=True
        ).stdout.strip()
    except OSError:
        return "unknown"


def write_model(model: ContentModel | ArticleGate, name: str, fitted: dict) -> None:
    model = replace(model, fitted=fitted)
    path = REPO / "scrapy_declutter" / "stages" / "models" / name
    path.write_text(json.dumps(model.to_json(), sort_keys=True, indent=0) + "\n")
    print(f"wrote {path.relative_to(REPO)}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("corpora", nargs="*", type=Path)
    parser.add_argument("--folds", type=int, default=5)
    parser.add_argument("--thresholds", default=str(Options.content_threshold))
    parser.add_argument("--limit", type=int, help="the first N pages of each corpus")
    parser.add_argument("--loco", action="store_true", help="also leave each corpus out")
    parser.add_argument(
        "--loco-folds", type=int, default=3, help="folds for the second stage's training there"
    )
    parser.add_argument("--save", type=Path, help=SAVE_HELP)
    parser.add_argument(
        "--write", action="store_true", help="fit on all pages and write the models"
    )
    parser.add_argument(
        "--scores", type=Path, help="also keep every held-out score in this file (pickle)"
    )
    parser.add_argument(
        "--from-scores",
        type=Path,
        help="fit nothing: the held-out scores kept by --scores through today's pipeline",
    )
    args = parser.parse_args()
    save_output(args.save)
    corpora = args.corpora or default_corpora()
    if not corpora:
        parser.error("no corpus found beside the repository: give their paths")
    if not any(c.name in GENERAL_CORPORA for c in corpora):
        parser.error(f"the general model needs one of {', '.join(GENERAL_CORPORA)}")
    thresholds = [float(t) for t in args.thresholds.split(",")]
    if args.from_scores:
        replay(corpora, pickle.loads(args.from_scores.read_bytes()), thresholds)
        return
    pages = [p for corpus in corpora for p in prepare(corpus, args.limit)]
    kept: dict[str, tuple] = {}
    held_out = HeldOut(pages, args.folds)
    lines: list[str] = []
    for title, final, first in (
        ("the pipeline's mix", held_out.final, held_out.first),
        ("the general model alone", held_out.general_final, held_out.general_first),
        ("the article model alone", held_out.article_final, held_out.article_oof),
    ):
        title = f"held out by site ({args.folds} folds, {len(pages)} pages, C {C}), {title}:"
        more = report(title, pages, final, first, held_out.probabilities, thresholds)
        print("\n".join(more), flush=True)
        lines += more
    kept[f"held out by site ({args.folds} folds), the pipeline's mix:"] = (
        [page_key(p) for p in pages],
        held_out.final,
        held_out.first,
        held_out.probabilities,
    )
    if args.loco and len(corpora) > 1:
        for corpus in corpora:
            test, test_first, test_final, probabilities = leave_one_corpus_out(
                pages, corpus.name, args.loco_folds
            )
            others = ", ".join(c.name for c in corpora if c != corpus)
            title = f"fitted on {others}:"
            more = report(title, test, test_final, test_first, probabilities, thresholds)
            print("\n".join(more), flush=True)
            lines += more
            kept[title] = ([page_key(p) for p in test], test_final, test_first, probabilities)
    if args.scores:
        args.scores.write_bytes(pickle.dumps(kept))
    if args.write:
        fitted = {
            "corpora": [c.name for c in corpora],
            "general_corpora": list(GENERAL_CORPORA),
            "pages": len(pages),
            "folds": f"{args.folds} by site (the page's URL, canonical or og:url host)",
            "C": C,
            "class_token_bound": CLASS_TOKEN_BOUND,
            "gate_C": GATE_C,
            "mix_C": MIX_C,
            "mix_corpus_weights": MIX_CORPUS_WEIGHTS,
            "corpus_weights": CORPUS_WEIGHTS,
            "min_sites": MIN_SITES,
            "threshold": Options.content_threshold,
            "held_out": lines,
            "commit": commit(),
        }
        write_model(held_out.general_model, MODEL, fitted)
        write_model(fit_model(pages, held_out.article_oof), ARTICLE_MODEL, fitted)
        gate = fit_gate(pages, held_out.general_final)
        write_model(held_out.fit_mix(gate, list(range(len(pages)))), GATE, fitted)


if __name__ == "__main__":
    main()
