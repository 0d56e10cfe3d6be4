"""Fit the content model of the ``declutter`` pipeline, with cross-validation by site.

Usage::

    python benchmarks/train_content_model.py [CORPUS ...] [--folds 5] [--thresholds 0.4,0.43]
        [--loco [--loco-folds 3]] [--save FILE] [--write]

CORPUS defaults to every corpus found beside the repository
(``../shared/corpora/{wcxb-dev,dragnet,l3s-gn1}``). Every page goes through
jusText's stages; each block is a training example, labelled content when its
text is part of the page's ``main_content`` (see ``block_targets``). Pages are
split into folds by web site (``page_site``: the host of the page's URL, or of
its canonical or ``og:url`` link, else the page is a site of its own), so no
site is in both the training and the held-out part of a fold; the held-out
figures are printed for each corpus. ``--loco`` also fits on all corpora but
one and scores the one left out, for each (the second stage learns there from
out-of-fold scores of ``--loco-folds`` folds of the two). Two logistic
regressions are fitted (scikit-learn, a benchmark extra): the first on the
block features, weighted so that every page counts the same and long blocks
more than short ones (as the corpus's metric does); the second on the first
one's out-of-fold scores in context. The script prints the corpus metric on the
held-out folds, which is the figure to quote (``--save`` writes the same to a
file); with ``--write`` it then fits both on every page and writes
``scrapy_declutter/stages/models/content.json`` with a record of the fit.

Only ``id``/``class`` and short-text tokens seen on at least ``MIN_SITES``
training sites become features, so the model cannot learn one site's markup.
"""

import argparse
import hashlib
import json
import re
import subprocess
import sys
from collections import defaultdict
from dataclasses import replace
from pathlib import Path
from urllib.parse import urlparse

import numpy as np
from scipy import sparse
from sklearn.linear_model import LogisticRegression

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))
from benchmarks.corpus import aggregate, default_corpus_path, load_pages, score  # noqa: E402
from benchmarks.saved_output import SAVE_HELP, save_output  # noqa: E402
from scrapy_declutter.core.document import Document, build_document  # noqa: E402
from scrapy_declutter.core.errors import DeclutterError  # noqa: E402
from scrapy_declutter.core.options import Options  # noqa: E402
from scrapy_declutter.core.presets import build_pipeline  # noqa: E402
from scrapy_declutter.stages.content_features import (  # noqa: E402
    TOKENS,
    WORDS,
    PageFeatures,
    context_features,
    page_features,
    short_links,
)
from scrapy_declutter.stages.content_model import MODEL, ContentModel  # noqa: E402
from scrapy_declutter.stages.content_region import (  # noqa: E402
    KeepContentRegion,
    fallback,
    ruled_out,
)

MIN_SITES = 5
CORPORA = ("wcxb-dev", "dragnet", "l3s-gn1")
# A corpus's weight multiplies its pages' in both stages (1 when not named).
# Held out by site at 0.43, wcxb-dev weighted 3 gave F1 0.802 / 0.898 (P
# 0.927) / 0.936 (P 0.957) on wcxb-dev / dragnet / l3s-gn1, against 0.790 /
# 0.901 (P 0.944) / 0.941 (P 0.965) with the three alike: a little more of
# wcxb-dev's listings for much of the articles' precision. They weigh alike.
CORPUS_WEIGHTS: dict[str, float] = {}
C = 0.1  # held out, F1 0.826 against 0.814 with C = 1.0 (same features, threshold 0.4)
_NON_WORD = re.compile(r"\W+")


def _words(text: str) -> str:
    return " ".join(_NON_WORD.sub(" ", text.lower()).split())


def block_targets(texts: list[str], main_content: str) -> list[int]:
    """1 for a block whose words appear, in order, in the reference; long
    blocks (8+ words) also count when 90% of their words are in it."""
    reference = f" {_words(main_content)} "
    vocabulary = set(reference.split())
    targets = []
    for text in texts:
        words = _words(text)
        if words and f" {words} " in reference:
            targets.append(1)
            continue
        tokens = words.split()
        covered = sum(t in vocabulary for t in tokens) / len(tokens) if tokens else 0
        targets.append(int(len(tokens) >= 8 and covered >= 0.9))
    return targets


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
                "tree": tree,
                "lengths": [len(text) for text in texts],
                "short_links": short_links(document.blocks),
                "fallback": fallback(document.blocks, document.tree()),
                "ruled_out": ruled_out(document.blocks, document.tree()),
            }
        )
    return pages


# Every first-stage feature name met in training, by column.
COLUMNS: dict[str, int] = {}


def block_matrix(features: PageFeatures, blocks: int) -> tuple[sparse.csr_matrix, set[int]]:
    """A page's first-stage features as one row per block (columns by
    ``COLUMNS``), and the columns of its id/class and short-text tokens."""
    data, columns, starts = [], [], [0]
    for i in range(blocks):
        for name, value in features.of_block(i).items():
            data.append(value)
            columns.append(COLUMNS.setdefault(name, len(COLUMNS)))
        starts.append(len(data))
    tokens = {
        COLUMNS.setdefault(name, len(COLUMNS))
        for part in (
            *map(WORDS.features, set(features.short_texts)),
            *map(TOKENS.features, set(features.names)),
        )
        for name in part
    }
    return sparse.csr_matrix((data, columns, starts), shape=(blocks, 1 << 24)), tokens


def fit_blocks(pages: list[dict]) -> dict[str, float]:
    """First stage: block weights, with the tokens of fewer than ``MIN_SITES``
    sites left out."""
    sites_of = defaultdict(set)
    for p in pages:
        for column in p["token_columns"]:
            sites_of[column].add(p["site"])
    rare = {column for column, sites in sites_of.items() if len(sites) < MIN_SITES}
    names = sorted(COLUMNS, key=COLUMNS.__getitem__)
    kept = [COLUMNS[name] for name in names if COLUMNS[name] not in rare]
    matrix = sparse.vstack([p["matrix"] for p in pages], format="csr")[:, kept]
    targets = [y for p in pages for y in p["targets"]]
    weights = [  # every page of a corpus weighs the same
        1000 * p["weight"] * length / (sum(p["lengths"]) or 1)
        for p in pages
        for length in p["lengths"]
    ]
    model = LogisticRegression(C=C, max_iter=3000)
    model.fit(matrix, targets, sample_weight=weights)
    # "bias" is a feature, so the intercept folds into it.
    weights_by_name = {names[column]: w for column, w in zip(kept, model.coef_[0].tolist())}
    weights_by_name["bias"] = weights_by_name.get("bias", 0.0) + float(model.intercept_[0])
    return {k: round(v, 5) for k, v in weights_by_name.items() if abs(v) > 1e-5}


def fit_context(pages: list[dict], scores: list[list[float]]) -> tuple[list[float], float]:
    """Second stage: context weights over (out-of-fold) first-stage scores."""
    rows, targets, weights = [], [], []
    for p, s in zip(pages, scores):
        rows += context_features(s, p["tree"], p["lengths"], p["short_links"]).rows()
        targets += p["targets"]
        weights += [p["weight"]] * len(p["targets"])
    model = LogisticRegression(C=C, max_iter=3000)
    model.fit(np.array(rows), targets, sample_weight=weights)
    return [round(w, 5) for w in model.coef_[0].tolist()], round(float(model.intercept_[0]), 5)


def kept_text(p: dict, scores: list[float], first: list[float], threshold: float) -> str:
    """What ``KeepContentRegion`` keeps, over the prepared page."""
    keep = KeepContentRegion(threshold).keep
    kept = keep(
        scores,
        first,
        p["tree"],
        p["lengths"],
        p["short_links"],
        p["ruled_out"],
        lambda: p["fallback"],
        p["texts"],
    )
    return "\n\n".join(text for text, keep in zip(p["texts"], kept) if keep)


def folds_of(pages: list[dict], folds: int) -> list[int]:
    return [int(hashlib.md5(p["site"].encode()).hexdigest(), 16) % folds for p in pages]


def out_of_fold_scores(pages: list[dict], folds: int) -> list[list[float]]:
    """Each page's first-stage scores from a model fitted on the other folds."""
    fold_of = folds_of(pages, folds)
    first: list = [None] * len(pages)
    for k in range(folds):
        model = ContentModel(fit_blocks([p for p, f in zip(pages, fold_of) if f != k]), (), 0.0)
        for i, p in enumerate(pages):
            if fold_of[i] == k:
                first[i] = model.block_scores(p["features"])
    return first


def final_scores(model: ContentModel, p: dict, first: list[float]) -> list[float]:
    return model.context_scores(context_features(first, p["tree"], p["lengths"], p["short_links"]))


def cross_validate(pages: list[dict], first: list[list[float]], folds: int) -> list[list[float]]:
    """Both stages' held-out scores of each page, from models fitted on the
    other folds (``first`` are the first stage's)."""
    fold_of = folds_of(pages, folds)
    final: list = [None] * len(pages)
    for k in range(folds):
        train = [i for i in range(len(pages)) if fold_of[i] != k]
        weights, bias = fit_context([pages[i] for i in train], [first[i] for i in train])
        model = ContentModel({}, tuple(weights), bias)
        for i, p in enumerate(pages):
            if fold_of[i] == k:
                final[i] = final_scores(model, p, first[i])
    return final


def leave_one_corpus_out(pages: list[dict], corpus: str, folds: int):
    """Scores of ``corpus``'s pages from a model fitted on the other corpora
    (its second stage on out-of-fold first-stage scores, as ``--write`` does)."""
    train = [p for p in pages if p["corpus"] != corpus]
    test = [p for p in pages if p["corpus"] == corpus]
    weights, bias = fit_context(train, out_of_fold_scores(train, folds))
    model = ContentModel(fit_blocks(train), tuple(weights), bias)
    first = [model.block_scores(p["features"]) for p in test]
    return test, first, [final_scores(model, p, f) for p, f in zip(test, first)]


def report(title: str, pages, final, first, thresholds: list[float]) -> list[str]:
    """The corpus metric for each corpus among ``pages`` and each threshold."""
    lines = [title]
    for corpus in dict.fromkeys(p["corpus"] for p in pages):
        chosen = [i for i, p in enumerate(pages) if p["corpus"] == corpus]
        sites = len({pages[i]["site"] for i in chosen})
        lines.append(f"  {corpus} ({len(chosen)} pages, {sites} sites):")
        for threshold in thresholds:
            scores = [
                score(kept_text(pages[i], final[i], first[i], threshold), pages[i]["page"])
                for i in chosen
            ]
            result = aggregate(scores)
            o = result.overall
            line = (
                f"    threshold {threshold:.2f}: F1 {o.f1:.3f} P {o.precision:.3f} R {o.recall:.3f}"
            )
            if o.with_rate is not None:
                line += f" with {o.with_rate:.3f} without {o.without_rate:.3f}"
            lines.append(f"{line} empty {o.empty}")
            if len(result.by_type) > 1:
                lines.append(
                    "      " + "  ".join(f"{t} {a.f1:.3f}" for t, a in result.by_type.items())
                )
    return lines


def default_corpora() -> list[Path]:
    base = default_corpus_path().parent
    return [base / name for name in CORPORA if (base / name / "ground-truth").is_dir()]


def commit() -> str:
    try:
        return subprocess.run(
            ["git", "rev-parse", "--short", "HEAD"], cwd=REPO, capture_output=True, text=True
        ).stdout.strip()
    except OSError:
        return "unknown"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("corpora", nargs="*", type=Path)
    parser.add_argument("--folds", type=int, default=5)
    parser.add_argument("--thresholds", default=str(KeepContentRegion.threshold))
    parser.add_argument("--limit", type=int, help="the first N pages of each corpus")
    parser.add_argument("--loco", action="store_true", help="also leave each corpus out")
    parser.add_argument(
        "--loco-folds", type=int, default=3, help="folds for the second stage's training there"
    )
    parser.add_argument("--save", type=Path, help=SAVE_HELP)
    parser.add_argument("--write", action="store_true", help="fit on all pages and write the model")
    args = parser.parse_args()
    save_output(args.save)
    corpora = args.corpora or default_corpora()
    if not corpora:
        parser.error("no corpus found beside the repository: give their paths")
    thresholds = [float(t) for t in args.thresholds.split(",")]
    pages = [p for corpus in corpora for p in prepare(corpus, args.limit)]
    first = out_of_fold_scores(pages, args.folds)
    final = cross_validate(pages, first, args.folds)
    title = f"held out by site ({args.folds} folds, {len(pages)} pages, C {C}):"
    lines = report(title, pages, final, first, thresholds)
    print("\n".join(lines), flush=True)
    if args.loco and len(corpora) > 1:
        for corpus in corpora:
            test, test_first, test_final = leave_one_corpus_out(pages, corpus.name, args.loco_folds)
            others = ", ".join(c.name for c in corpora if c != corpus)
            more = report(f"fitted on {others}:", test, test_final, test_first, thresholds)
            print("\n".join(more), flush=True)
            lines += more
    if args.write:
        # The context stage learns from out-of-fold scores, as it will meet
        # scores of pages the first stage has not seen.
        weights, bias = fit_context(pages, first)
        fitted = {
            "corpora": [c.name for c in corpora],
            "pages": len(pages),
            "folds": f"{args.folds} by site (the page's URL, canonical or og:url host)",
            "C": C,
            "corpus_weights": CORPUS_WEIGHTS,
            "min_sites": MIN_SITES,
            "threshold": KeepContentRegion.threshold,
            "held_out": lines,
            "commit": commit(),
        }
        model = ContentModel(fit_blocks(pages), tuple(weights), bias, fitted)
        path = REPO / "scrapy_declutter" / "stages" / "models" / MODEL
        path.write_text(json.dumps(model.to_json(), sort_keys=True, indent=0) + "\n")
        print(f"wrote {path.relative_to(REPO)} ({len(model.block_weights)} block weights)")


if __name__ == "__main__":
    main()
