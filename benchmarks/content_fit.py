"""The fits of ``train_content_model.py``: the two stages of a content model,
the article gate and its mix, held out by site folds and with a corpus left
out. Pages are the dicts ``train_content_model.prepare`` makes.

A model is two logistic regressions: the first on the block features,
weighted so that every page counts the same and long blocks more than short
ones (as the corpus's metric does), no class or id token weighing more than
``CLASS_TOKEN_BOUND`` either way; the second on the first one's out-of-fold
scores in context. Only ``id``/``class`` and short-text tokens seen on at
least ``MIN_SITES`` training sites become features, so the model cannot
learn one site's markup.
"""

import hashlib
import sys
from collections import defaultdict
from dataclasses import replace

import numpy as np
from scipy import optimize, sparse
from sklearn.linear_model import LogisticRegression

from scrapy_declutter.stages.article_gate import (
    EVIDENCE,
    MIX_TERMS,
    ArticleGate,
    guarded_first,
    page_evidence,
)
from scrapy_declutter.stages.content_features import (
    TOKENS,
    WORDS,
    PageFeatures,
    context_features,
    logits,
)
from scrapy_declutter.stages.content_model import ContentModel

MIN_SITES = 5
# A corpus's weight multiplies its pages' in both stages (1 when not named).
# Held out by site at 0.43, wcxb-dev weighted 3 gave F1 0.802 / 0.898 (P
# 0.927) / 0.936 (P 0.957) on wcxb-dev / dragnet / l3s-gn1, against 0.790 /
# 0.901 (P 0.944) / 0.941 (P 0.965) with the three alike: a little more of
# wcxb-dev's listings for much of the articles' precision. They weigh alike.
CORPUS_WEIGHTS: dict[str, float] = {}
# The general model is fitted on these corpora's pages, of every kind; the
# article model on all; the gate learns the page types they give.
GENERAL_CORPORA = ("wcxb-dev",)
GATE_C = 1.0
# The mix's fit weighs wcxb-dev's pages 3 times: a third corpus of articles
# would otherwise outvote its six other kinds of page. Held out by site at
# 0.43, in the experiment that chose it (first stages mixed by the earlier
# fixed share), weights 1 / 2 / 3 gave F1 0.831 / 0.835 / 0.837 on wcxb-dev,
# 0.908 / 0.909 / 0.907 on dragnet, 0.939 / 0.936 / 0.934 on l3s-gn1.
MIX_CORPUS_WEIGHTS = {"wcxb-dev": 3.0}
MIX_C = 1.0
# Both stages' regularisation. Held out by site at 0.43, F1 on wcxb-dev /
# dragnet / l3s-gn1 with C = 0.1: 0.836 / 0.921 / 0.940; 0.03: 0.841 / 0.923 /
# 0.940; 0.01: 0.840 / 0.925 / 0.941 (the fit leans less on one site's
# tokens: wcxb-dev's products 0.619 to 0.626). Earlier, 0.826 against 0.814
# with C = 1.0 on wcxb-dev.
C = 0.03
# No class or id token weighs more than this in the first stage: a token
# means one thing on the sites it was learnt from and may mean another on a
# new one (a legal news site's "legal" weighed -4.24 and sank its articles).
# Left out of the fit at 0.4, dragnet rose from 0.896 to 0.907 with the bound
# at 1, l3s-gn1 stayed 0.931; held out by site, wcxb-dev 0.852 to 0.851,
# dragnet 0.941 to 0.942, l3s-gn1 0.949 to 0.948. On saved held-out scores,
# 1.5 gave dragnet left out 0.900.
CLASS_TOKEN_BOUND = 1.0


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
    sites left out and each class token's weight within ``CLASS_TOKEN_BOUND``.

    The objective is scikit-learn's logistic regression's (``C`` times the
    weighted log-loss plus half the squared weights, the intercept free),
    minimised by L-BFGS-B so that the bounds hold during the fit."""
    sites_of = defaultdict(set)
    for p in pages:
        for column in p["token_columns"]:
            sites_of[column].add(p["site"])
    rare = {column for column, sites in sites_of.items() if len(sites) < MIN_SITES}
    # By name, not by column: columns follow the order features were first
    # met, which follows string hashing, and the fit's last digits follow the
    # order of its columns.
    names = [name for name in sorted(COLUMNS) if COLUMNS[name] not in rare]
    kept = [COLUMNS[name] for name in names]
    matrix = sparse.vstack([p["matrix"] for p in pages], format="csr")[:, kept]
    signs = np.array([2.0 * y - 1 for p in pages for y in p["targets"]])
    weights = C * np.array(  # every page of a corpus weighs the same
        [
            1000 * p["weight"] * length / (sum(p["lengths"]) or 1)
            for p in pages
            for length in p["lengths"]
        ]
    )
    transposed = matrix.T.tocsr()

    def objective(coefficients: np.ndarray) -> tuple[float, np.ndarray]:
        w, intercept = coefficients[:-1], coefficients[-1]
        margins = signs * (matrix @ w + intercept)
        slopes = -signs * weights / (1 + np.exp(np.clip(margins, -500, 500)))
        value = np.dot(weights, np.logaddexp(0, -margins)) + 0.5 * np.dot(w, w)
        return value, np.append(transposed @ slopes + w, slopes.sum())

    is_class_token = [n.startswith(TOKENS.prefix) and not n.startswith(WORDS.prefix) for n in names]
    bounds = [
        (-CLASS_TOKEN_BOUND, CLASS_TOKEN_BOUND) if t else (None, None) for t in is_class_token
    ]
    fit = optimize.minimize(
        objective,
        np.zeros(len(names) + 1),
        jac=True,
        method="L-BFGS-B",
        bounds=[*bounds, (None, None)],
        options={"maxiter": 3000},
    )
    if not fit.success:
        print(f"warning: the first stage's fit did not converge: {fit.message}", file=sys.stderr)
    # "bias" is a feature, so the intercept folds into it.
    weights_by_name = dict(zip(names, fit.x[:-1].tolist()))
    weights_by_name["bias"] = weights_by_name.get("bias", 0.0) + float(fit.x[-1])
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


def fit_model(pages: list[dict], first: list[list[float]]) -> ContentModel:
    """Both stages on ``pages``: the second on their out-of-fold first-stage
    scores ``first``, as it will meet scores of pages the first has not seen."""
    weights, bias = fit_context(pages, first)
    return ContentModel(fit_blocks(pages), tuple(weights), bias)


def model_scores(model: ContentModel, p: dict) -> tuple[list[float], list[float]]:
    return model.scores(p["features"], p["lengths"], p["short_links"])


def gate_rows(pages: list[dict], general_final: list[list[float]]) -> np.ndarray:
    return np.array(
        [
            [page_evidence(p["shape"], scores)[name] for name in EVIDENCE]
            for p, scores in zip(pages, general_final)
        ]
    )


def fit_gate(pages: list[dict], general_final: list[list[float]]) -> ArticleGate:
    """The gate on ``pages``' evidence (the general model's scores of them),
    each kind of page weighing the same; its mix is fitted after
    (``fit_mix``)."""
    model = LogisticRegression(C=GATE_C, max_iter=3000, class_weight="balanced")
    model.fit(gate_rows(pages, general_final), [p["is_article"] for p in pages])
    weights = dict(zip(EVIDENCE, (round(w, 5) for w in model.coef_[0].tolist())))
    no_mix = dict.fromkeys(MIX_TERMS, 0.0)
    return ArticleGate(weights, round(float(model.intercept_[0]), 5), no_mix)


def fit_mix(
    gate: ArticleGate,
    pages: list[dict],
    general: list[list[float]],
    article: list[list[float]],
    probabilities: list[float],
) -> ArticleGate:
    """``gate`` with its mix (``MIX_TERMS``) fitted on both models' held-out
    final scores of ``pages`` and the gate's probabilities for them, blocks
    weighted as in the first stage (``MIX_CORPUS_WEIGHTS`` for corpora)."""
    rows, targets, weights = [], [], []
    for p, g, a, q in zip(pages, general, article, probabilities):
        total = sum(p["lengths"]) or 1
        scale = 1000 * MIX_CORPUS_WEIGHTS.get(p["corpus"], 1.0) / total
        for x, y, target, length in zip(logits(g), logits(a), p["targets"], p["lengths"]):
            rows.append((q, x, y, x * q, y * q))
            targets.append(target)
            weights.append(scale * length)
    model = LogisticRegression(C=MIX_C, max_iter=3000)
    model.fit(np.array(rows), targets, sample_weight=weights)
    fitted = dict(zip(MIX_TERMS[1:], model.coef_[0].tolist()))
    fitted["bias"] = float(model.intercept_[0])
    return replace(gate, mix_weights={name: round(fitted[name], 5) for name in MIX_TERMS})


class HeldOut:
    """Every page's held-out scores, by site folds: the general model's (its
    corpora's pages by folds, the others' from a model of all of them), the
    article model's (all pages by folds), the gate's probability, and the mix
    the pipeline uses (the gate and its mix fitted on the other folds'
    held-out scores). ``first``/``final`` are the mix's two stages."""

    def __init__(self, pages: list[dict], folds: int) -> None:
        self.pages = pages
        general = [i for i, p in enumerate(pages) if p["corpus"] in GENERAL_CORPORA]
        general_pages = [pages[i] for i in general]
        self.general_oof = out_of_fold_scores(general_pages, folds)
        general_final = cross_validate(general_pages, self.general_oof, folds)
        self.general_model = fit_model(general_pages, self.general_oof)
        self.general_first: list = [None] * len(pages)
        self.general_final: list = [None] * len(pages)
        for i, p in enumerate(pages):
            self.general_first[i], self.general_final[i] = model_scores(self.general_model, p)
        for i, first, final in zip(general, self.general_oof, general_final):
            self.general_first[i], self.general_final[i] = first, final
        self.article_oof = out_of_fold_scores(pages, folds)
        self.article_final = cross_validate(pages, self.article_oof, folds)
        self.probabilities = [0.0] * len(pages)
        fold_of = folds_of(pages, folds)
        gates = []
        for k in range(folds):
            train = [i for i in range(len(pages)) if fold_of[i] != k]
            gates.append(
                fit_gate([pages[i] for i in train], [self.general_final[i] for i in train])
            )
            for i, p in enumerate(pages):
                if fold_of[i] == k:
                    evidence = page_evidence(p["shape"], self.general_final[i])
                    self.probabilities[i] = gates[k].probability(evidence)
        self.first, self.final = [None] * len(pages), [None] * len(pages)
        for k in range(folds):
            train = [i for i in range(len(pages)) if fold_of[i] != k]
            gate = self.fit_mix(gates[k], train)
            for i in range(len(pages)):
                if fold_of[i] == k:
                    mix = gate.mix_for(self.probabilities[i])
                    mixed = mix(self.general_first[i], self.article_oof[i])
                    self.first[i] = guarded_first(mixed, self.general_first[i])
                    self.final[i] = mix(self.general_final[i], self.article_final[i])

    def fit_mix(self, gate: ArticleGate, chosen: list[int]) -> ArticleGate:
        """``gate`` with its mix fitted on the held-out scores of ``chosen`` pages."""
        return fit_mix(
            gate,
            [self.pages[i] for i in chosen],
            [self.general_final[i] for i in chosen],
            [self.article_final[i] for i in chosen],
            [self.probabilities[i] for i in chosen],
        )


def leave_one_corpus_out(pages: list[dict], corpus: str, folds: int):
    """Scores of ``corpus``'s pages from models fitted on the other corpora,
    and the gate's probabilities for them
    (second stages on out-of-fold first-stage scores of ``folds`` folds).
    Without a general corpus among them, the article model alone; the gate is
    fitted on the general model's scores of the pages it was fitted on, its
    mix on both models' out-of-fold scores of them."""
    train = [p for p in pages if p["corpus"] != corpus]
    test = [p for p in pages if p["corpus"] == corpus]
    article_oof = out_of_fold_scores(train, folds)
    article = fit_model(train, article_oof)
    article_scores = [model_scores(article, p) for p in test]
    general_train = [p for p in train if p["corpus"] in GENERAL_CORPORA]
    if not general_train:  # no gate: every page is taken for an article
        first = [s[0] for s in article_scores]
        return test, first, [s[1] for s in article_scores], [1.0] * len(test)
    general_oof = out_of_fold_scores(general_train, folds)
    general = fit_model(general_train, general_oof)
    general_held_out = iter(cross_validate(general_train, general_oof, folds))
    general_final = [
        next(general_held_out) if p["corpus"] in GENERAL_CORPORA else model_scores(general, p)[1]
        for p in train
    ]
    gate = fit_gate(train, general_final)
    probabilities = [
        gate.probability(page_evidence(p["shape"], scores))
        for p, scores in zip(train, general_final)
    ]
    article_final = cross_validate(train, article_oof, folds)
    gate = fit_mix(gate, train, general_final, article_final, probabilities)
    first, final, test_probabilities = [], [], []
    for p, (article_first, article_last) in zip(test, article_scores):
        general_first, general_last = model_scores(general, p)
        mix = gate.mix(page_evidence(p["shape"], general_last))
        first.append(guarded_first(mix(general_first, article_first), general_first))
        final.append(mix(general_last, article_last))
        test_probabilities.append(mix.gate)
    return test, first, final, test_probabilities
