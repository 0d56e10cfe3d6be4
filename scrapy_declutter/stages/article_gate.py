"""How much a page reads as an article, and so which content model speaks.

The ``declutter`` pipeline ships two content models of the same shape
(``content_model.ContentModel``): the general one, fitted on wcxb-dev's pages
of every kind, and the article one, fitted on the three corpora together,
most of whose pages are news and blog articles. Held out, the article model
is the more precise on articles (it has seen many more teaser lists, comment
threads and sidebars beside an article), and the general one keeps what
listings, collections and shops are made of: lists of links.

``ArticleGate`` reads what a page shows of its kind (``page_evidence``): what
it declares (OpenGraph's ``og:type``; a schema.org type in JSON-LD or
microdata: an article, or a list, a product, a forum thread), how many
``<article>`` elements and headings it has, the shape of its text (the share in jusText's good
blocks, the longest block, the stopwords of long blocks, link density, short
links, size) and what the general model would keep of it. Its probability
sets the page's ``Mix``: each block's log-odds is a weighted sum of the two
models' log-odds plus a bias, and each of these three numbers moves with the
probability (``MIX_TERMS``): a listing stays mostly with the general model,
an article goes to the article one. The gate's weights and the mix's are
named, in ``models/article-gate.json``, with a record of their fit
(``benchmarks/train_content_model.py``).
"""

import json
import math
import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import cache
from importlib import resources

from scrapy_declutter.core.document import Document, ld_types
from scrapy_declutter.core.labels import GOOD
from scrapy_declutter.core.options import Options
from scrapy_declutter.stages.content_features import logits, short_links

GATE = "article-gate.json"
# The mix's weights are fitted held out, after the gate, on both models'
# held-out scores of every block: a page's log-odds for a block is
# bias + gate * p + (general + general_by_gate * p) * general model's
# + (article + article_by_gate * p) * article model's, p the gate's probability.
MIX_TERMS = ("bias", "gate", "general", "article", "general_by_gate", "article_by_gate")
LONG_BLOCK_WORDS = 30  # a block of prose, not a teaser or a caption
EVIDENCE = (
    "og_article",
    "ld_article",
    "good_share",
    "good_blocks",
    "longest_block",
    "link_density",
    "page_size",
    "short_link_share",
    "blocks",
    "long_stopwords",
    "kept_prose",
    "kept_link_density",
    "kept_blocks",
    "kept_share",
    "kept_short",
    "other_declared",
    "articles",
    "headings",
)
_ARTICLE_TYPE = re.compile(
    r"\b(?:\w*NewsArticle|Article|BlogPosting|LiveBlogPosting|TechArticle|Report)\b"
)
# Types and og:types of pages that are not one article: lists, shops, forums, a site's home.
_OTHER_TYPE = re.compile(
    r"ItemList|CollectionPage|Product|Offer|SearchResultsPage|QAPage|DiscussionForumPosting"
    r"|FAQPage|WebSite"
)
_OTHER_OG_TYPES = frozenset(("product", "website"))
_HEADINGS = ("h1", "h2", "h3", "h4", "h5", "h6")


@dataclass(frozen=True)
class PageShape:
    """What ``page_evidence`` reads of a page before any model scores it."""

    og_article: bool
    ld_article: bool
    other_declared: bool
    articles: int  # <article> elements
    headings: int  # <h1> ... <h6> elements
    lengths: list[int]
    words: list[int]
    link_chars: list[int]
    stopwords: list[int]
    good: list[bool]
    short_links: list[bool]

    @classmethod
    def of(cls, document: Document) -> "PageShape":
        blocks = document.blocks
        found = document.found_elements()
        og_article, ld_article, other_declared = declared_kind(document)
        return cls(
            og_article,
            ld_article,
            other_declared,
            len(found["article"]),
            sum(len(found[tag]) for tag in _HEADINGS),
            [len(b.text) for b in blocks],
            [b.words for b in blocks],
            [b.link_chars for b in blocks],
            [b.stopwords for b in blocks],
            [b.cf_label is GOOD for b in blocks],
            short_links(blocks),
        )


def declared_kind(document: Document) -> tuple[bool, bool, bool]:
    """What the page says it is: an article in OpenGraph's ``og:type``; an
    article in a schema.org type in JSON-LD or in microdata around a block;
    something else (a list, a product, a forum thread, a site: ``_OTHER_TYPE``,
    ``_OTHER_OG_TYPES``) in either."""
    root = document.root
    if root is None:
        return False, False, False
    og = ld = other = False
    head = root.find("head")
    for meta in head.iterfind("meta") if head is not None else ():
        key = meta.get("property") or meta.get("name") or ""
        if key.lower() == "og:type":
            og_type = (meta.get("content") or "").strip().lower()
            og = og or og_type == "article"
            other = other or og_type in _OTHER_OG_TYPES
    for ld_type in ld_types(document.found_elements()["script"]):
        ld = ld or _ARTICLE_TYPE.fullmatch(ld_type) is not None
        other = other or _OTHER_TYPE.fullmatch(ld_type) is not None
    if not ld:
        ld = any(
            _ARTICLE_TYPE.search(item_type) for item_type in document.tree().item_types if item_type
        )
    return og, ld, other


def page_evidence(shape: PageShape, scores: Sequence[float]) -> dict[str, float]:
    """The gate's features, by name (``EVIDENCE``), from the page's shape and
    the general model's scores (a block above the content threshold is "kept")."""
    lengths, words = shape.lengths, shape.words
    total = sum(lengths) or 1
    blocks = len(lengths) or 1
    kept = [i for i, score in enumerate(scores) if score > Options.content_threshold]
    kept_chars = sum(lengths[i] for i in kept) or 1
    long_stopwords = [s / w for s, w in zip(shape.stopwords, words) if w >= LONG_BLOCK_WORDS]
    good = [n for n, is_good in zip(lengths, shape.good) if is_good]
    return {
        "og_article": float(shape.og_article),
        "ld_article": float(shape.ld_article),
        "good_share": sum(good) / total,
        "good_blocks": math.log1p(len(good)) / 5,
        "longest_block": math.log1p(max(words, default=0)) / 7,
        "link_density": sum(shape.link_chars) / total,
        "page_size": math.log1p(total) / 12,
        "short_link_share": sum(shape.short_links) / blocks,
        "blocks": math.log1p(len(lengths)) / 7,
        "long_stopwords": sum(long_stopwords) / len(long_stopwords) if long_stopwords else 0.0,
        "kept_prose": sum(lengths[i] for i in kept if words[i] >= LONG_BLOCK_WORDS) / kept_chars,
        "kept_link_density": sum(shape.link_chars[i] for i in kept) / kept_chars,
        "kept_blocks": math.log1p(len(kept)) / 6,
        "kept_share": kept_chars / total if kept else 0.0,
        "kept_short": sum(words[i] < 8 for i in kept) / len(kept) if kept else 0.0,
        "other_declared": float(shape.other_declared),
        "articles": math.log1p(shape.articles) / 3,
        "headings": min(shape.headings / blocks, 1.0),
    }


@dataclass(frozen=True)
class Mix:
    """How one page's two model scores make its scores: each block's log-odds
    is ``bias + general * g + article * a``, ``g`` and ``a`` the general and
    the article model's log-odds; ``gate`` is the gate's probability that set
    them (for people)."""

    gate: float
    general: float
    article: float
    bias: float

    def __call__(self, general: Sequence[float], article: Sequence[float]) -> list[float]:
        """Each block's probability from the two models' probabilities."""
        return self.of_logits(logits(general), logits(article))

    def of_logits(self, general: Sequence[float], article: Sequence[float]) -> list[float]:
        """Each block's probability from the two models' log-odds
        (``content_features.logits``), for a caller that has them."""
        exp, bias, g, a = math.exp, self.bias, self.general, self.article
        mixed = (bias + g * x + a * y for x, y in zip(general, article, strict=True))
        # exp(-max(x, -500.0)) without a call of max() for each block (it would
        # double the time of the line)
        return [1 / (1 + exp(500.0 if x < -500.0 else -x)) for x in mixed]


@dataclass(frozen=True)
class ArticleGate:
    """A logistic model of "this page is an article" over ``page_evidence``:
    ``weights`` by evidence name, ``bias``; ``mix_weights`` by ``MIX_TERMS``,
    how its probability mixes the two models; and ``fitted``, the record of
    the fit (for people: scoring never reads it)."""

    weights: dict[str, float]
    bias: float
    mix_weights: dict[str, float]
    fitted: dict = field(default_factory=dict, compare=False)

    def probability(self, evidence: dict[str, float]) -> float:
        total = self.bias + sum(self.weights.get(name, 0.0) * v for name, v in evidence.items())
        return 1 / (1 + math.exp(-max(total, -500.0)))

    def mix(self, evidence: dict[str, float]) -> Mix:
        """The page's mix of the two models."""
        return self.mix_for(self.probability(evidence))

    def mix_for(self, probability: float) -> Mix:
        """The mix of a page the gate gives ``probability``."""
        w = self.mix_weights
        return Mix(
            probability,
            w["general"] + w["general_by_gate"] * probability,
            w["article"] + w["article_by_gate"] * probability,
            w["bias"] + w["gate"] * probability,
        )

    def to_json(self) -> dict:
        return {
            "fitted": self.fitted,
            "weights": self.weights,
            "bias": self.bias,
            "mix": self.mix_weights,
        }

    @classmethod
    def from_json(cls, data: dict) -> "ArticleGate":
        unknown = set(data["weights"]) - set(EVIDENCE)
        if unknown:
            raise ValueError(f"unknown page evidence in the gate: {sorted(unknown)}")
        if set(data["mix"]) != set(MIX_TERMS):
            raise ValueError(f"the gate's mix needs exactly {', '.join(MIX_TERMS)}")
        return cls(data["weights"], data["bias"], data["mix"], data.get("fitted", {}))


def guarded_first(mixed: Sequence[float], general: Sequence[float]) -> list[float]:
    """The first-stage probabilities the content region's guard reads
    (``Block.block_score``): the mix's, or the general model's where higher.
    A block is sure boilerplate only when both say so: the article model
    alone calls a headline's words boilerplate, and the general model's alone
    costs the article collections (the figures: the guard's
    paragraph in ``docs/algorithms/content-model.rst``)."""
    # max() of each pair, without a call for each (four times slower)
    return [
        by_general if by_general > by_mix else by_mix for by_mix, by_general in zip(mixed, general)
    ]


@cache
def load_gate(name: str = GATE) -> ArticleGate:
    """The shipped gate, read once per process."""
    data = json.loads((resources.files(__package__) / "models" / name).read_text("utf-8"))
    return ArticleGate.from_json(data)
