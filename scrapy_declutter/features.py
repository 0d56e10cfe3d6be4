"""What the content model knows of a block: features read off the block model.

A block is described by named features (a sparse ``dict``): its own size, link
and stopword densities and jusText classes; its tag and the tags around it
(``<nav>``, ``<article>``, ``<li>``, ...); the ``id``/``class`` tokens of its
nearest ancestors (Dragnet's evidence, seed 004); its neighbours' jusText
classes; how much of the page's good text and links sit under its parent,
grandparent and further ancestors (the grandparent filter's idea, seed 002,
made a feature); a match with the page title and end-of-text cues such as
"Leave a comment" (Boilerpipe's, seed 001). The weights live in the model
(``content.py``); these functions only describe.

The second stage sees a block through its first-stage score and its
neighbours' and ancestors' scores (``context_features``): jusText's
context-sensitive idea with learned weights.
"""

import math
import re
from collections.abc import Hashable, Sequence

from .document import Document
from .labels import Label

TOKEN = re.compile(r"[a-z]{3,20}")
# Ancestors whose tag says something about the blocks inside them.
CONTEXT_TAGS = frozenset(
    """nav footer aside header main article form li table figure blockquote pre
    section dl address menu label h1 h2 h3 h4 h5 h6 a ul ol code time strong em
    span button small""".split()
)
OWN_TAGS = frozenset(
    """p li td th div h1 h2 h3 h4 h5 h6 pre blockquote dd dt body tr ul table form
    option caption center fieldset legend""".split()
)
# Boilerpipe's end-of-text idea, for the usual English cues.
END_CUE = re.compile(
    r"^(comments?|\d+ comments?|leave a (reply|comment)|related( posts| articles| stories)?"
    r"|you (may|might) also like|share this|more from|recommended|read more|latest (news|posts)"
    r"|popular)\b",
    re.IGNORECASE,
)
TOKEN_DEPTH = 5  # ancestors whose id/class tokens count, the block's element included
REGION_LEVELS = (1, 2, 3, 4)
CONTEXT_LEVELS = (1, 2, 3, 4, 5)
SHORT_TEXT_WORDS = 6  # the words of shorter blocks are features ("Add to cart")


def _tokens(element, memo: dict) -> frozenset[str]:
    tokens = memo.get(element)
    if tokens is None:
        names = f"{element.get('class') or ''} {element.get('id') or ''}".lower()
        tokens = memo[element] = frozenset(TOKEN.findall(names))
    return tokens


def block_features(document: Document) -> list[dict[str, float]]:
    """The first-stage features of every block, in document order."""
    blocks = document.blocks
    if not blocks:
        return []
    chains = document.ancestor_chains()
    good_under: dict = {}
    text_under: dict = {}
    links_under: dict = {}
    count_under: dict = {}
    for block, chain in zip(blocks, chains):
        good = block.length if block.label is Label.GOOD else 0
        for element in chain:
            text_under[element] = text_under.get(element, 0) + block.length
            links_under[element] = links_under.get(element, 0) + block.link_chars
            count_under[element] = count_under.get(element, 0) + 1
            if good:
                good_under[element] = good_under.get(element, 0) + good
    total_good = sum(b.length for b in blocks if b.label is Label.GOOD) or 1
    total = sum(b.length for b in blocks)
    title = set((document.title or "").lower().split())
    memo: dict = {}
    features = []
    after_end = False
    n = len(blocks)
    for i, (block, chain) in enumerate(zip(blocks, chains)):
        text = block.text
        f = {
            "bias": 1.0,
            "len": math.log1p(block.length) / 6,
            "words": math.log1p(block.words) / 5,
            "ld": block.link_density,
            "sd": block.stopword_density,
            f"cf:{block.cf_label}": 1.0,
            f"jt:{block.label}": 1.0,
            "pos": i / n,
            "digits": sum(map(str.isdigit, text)) / len(text),
        }
        tag = block.element.tag
        f[f"tag:{tag if tag in OWN_TAGS else 'other'}"] = 1.0
        if block.heading:
            f["heading"] = 1.0
        for depth, element in enumerate(chain):
            if element.tag in CONTEXT_TAGS:
                f[f"in:{element.tag}"] = 1.0
            if depth < TOKEN_DEPTH and element.tag not in ("html", "body"):
                for token in _tokens(element, memo):
                    f[f"tok:{token}"] = 1.0
        for level in REGION_LEVELS:
            if level < len(chain):
                element = chain[level]
                f[f"gshare{level}"] = good_under.get(element, 0) / total_good
                f[f"ashare{level}"] = text_under[element] / total
                f[f"rld{level}"] = min(links_under[element] / text_under[element], 1.0)
                f[f"rcount{level}"] = math.log1p(count_under[element]) / 5
                f[f"ravg{level}"] = math.log1p(text_under[element] / count_under[element]) / 6
        f[f"prev:{blocks[i - 1].cf_label}" if i else "prev:edge"] = 1.0
        if i:
            f[f"prevjt:{blocks[i - 1].label}"] = 1.0
        f[f"next:{blocks[i + 1].cf_label}" if i + 1 < n else "next:edge"] = 1.0
        if i + 1 < n:
            f[f"nextjt:{blocks[i + 1].label}"] = 1.0
        if text[-1] in ".!?:;":
            f["endpunct"] = 1.0
        if title:
            words = set(text.lower().split())
            if len(words & title) / len(words | title) > 0.5:
                f["title"] = 1.0
        if block.words <= SHORT_TEXT_WORDS:
            for word in TOKEN.findall(text.lower()):
                f[f"tok:w:{word}"] = 1.0
        if after_end:
            f["after_end"] = 1.0
        if block.words < 8 and END_CUE.match(text):
            after_end = True
            f["endcue"] = 1.0
        features.append(f)
    return features


def logit(p: float) -> float:
    p = min(max(p, 1e-4), 1 - 1e-4)
    return math.log(p / (1 - p))


def context_features(
    scores: Sequence[float], chains: Sequence[Sequence[Hashable]], lengths: Sequence[int]
) -> list[list[float]]:
    """Second-stage features: each block's first-stage score, its two
    neighbours' on each side, and the length-weighted mean score and text
    share of its ancestors. ``chains[i]`` lists block i's element and its
    ancestors (any hashable stands for an element)."""
    n = len(scores)
    total = sum(lengths) or 1
    mass: dict = {}
    for score, chain, length in zip(scores, chains, lengths):
        for level in CONTEXT_LEVELS:
            if level < len(chain):
                key = (level, chain[level])
                weighted, size = mass.get(key, (0.0, 0))
                mass[key] = (weighted + score * length, size + length)
    page_mean = sum(s * length for s, length in zip(scores, lengths)) / total
    logits = [logit(s) for s in scores]  # each score is read by five rows
    rows = []
    for i in range(n):
        row = [logits[i]]
        for step in (-2, -1, 1, 2):
            j = i + step
            row.append(logits[j] if 0 <= j < n else -5.0)
        for level in CONTEXT_LEVELS:
            if level < len(chains[i]):
                weighted, size = mass[(level, chains[i][level])]
                row += [logit(weighted / size) if size else 0.0, size / total]
            else:
                row += [0.0, 1.0]
        row.append(logit(page_mean))
        rows.append(row)
    return rows


def content_region(
    scores: Sequence[float],
    chains: Sequence[Sequence[Hashable]],
    lengths: Sequence[int],
    threshold: float,
) -> Hashable | None:
    """The element whose subtree holds the most content by score: each block
    adds ``(score - threshold) * length`` to every ancestor, and the largest
    sum wins. Unlike the grandparent filter's single group, it can span many
    sibling groups when the content is spread over them."""
    sums: dict = {}
    for score, chain, length in zip(scores, chains, lengths):
        value = (score - threshold) * length
        for element in chain:
            sums[element] = sums.get(element, 0.0) + value
    return max(sums, key=sums.__getitem__) if sums else None
