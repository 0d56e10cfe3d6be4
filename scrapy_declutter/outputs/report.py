"""An HTML report of a page's blocks, for a person to see why each was kept or removed.

Two views in one self-contained file, with no script and no network access:

* **the page**: the page itself, its blocks outlined, kept ones green and
  removed ones red, the rule that decided each on hover (``highlight.py``);
* **the blocks**: every block in page order with its verdict, the rule that
  decided it (``Block.reason``, explained in the legend), what weighed most
  (the scores against their thresholds, the features that moved them, each
  described on hover and in the legend, jusText's class and why), and its
  text. Runs of ``FOLD_RUN`` or more removed blocks fold away in ``<details>``.

The report's size is bounded by the page's (``size_limit``): a page view
that would take more than half of the limit is left out, and the list of
blocks stops where the limit is reached (the counts still cover every
block). The corpora's reports are 2-3 times their page's size in the median
and all far under the limit.
"""

from collections import Counter
from collections.abc import Sequence
from html import escape
from typing import Protocol

from lxml import html

from scrapy_declutter.core.blocks import Block, element_paths
from scrapy_declutter.core.gc_pause import paused_gc
from scrapy_declutter.core.labels import BAD, GOOD, NEAR_GOOD, SHORT, Label
from scrapy_declutter.core.options import Options
from scrapy_declutter.core.reasons import Reason
from scrapy_declutter.outputs.highlight import CONTENT_SECURITY_POLICY, highlighted_page
from scrapy_declutter.stages.evidence import SURE_BOILERPLATE
from scrapy_declutter.stages.feature_descriptions import describe
from scrapy_declutter.stages.rules.short_links import ShortLinks

# A run of this many removed blocks or more is folded.
FOLD_RUN = 3
# The report's size limit in characters: a fixed allowance, and a multiple of
# the page's size (its parsed tree written out). On hostile pages a block of
# one short tag takes some 600 characters in the list, and its outline 100.
SIZE_LIMIT_BASE = 1_000_000
SIZE_LIMIT_PER_PAGE_CHAR = 10
# The page's title and URL are cut to this many characters in the report.
TITLE_CHARS = 300

_STYLE = """
body { font: 15px/1.45 system-ui, sans-serif; max-width: 64rem; margin: 1.5rem auto;
  padding: 0 1rem; color: #222; }
h1 { font-size: 1.4rem; margin-bottom: .2rem; } h2 { margin-top: 2rem; }
nav a { margin-right: 1rem; }
.meta, .evidence, .counts { font: 12px/1.5 ui-monospace, monospace; color: #555; }
.threshold { padding: .5rem .8rem; background: #fff8e1; border-left: .3rem solid #e0a800; }
.swatch { display: inline-block; width: 1.6em; height: .9em; vertical-align: middle;
  margin-right: .3em; }
.swatch.kept { background: #eef8f0; outline: 3px solid #2a8c3c; }
.swatch.removed { background: #fbeceb; outline: 2px dashed #c0392b; }
dl.reasons dt { font-weight: bold; margin-top: .4rem; }
dl.reasons dd { margin-left: 1.2rem; }
iframe.page { width: 100%; height: 80vh; border: 1px solid #999; background: #fff; }
.block { margin: .5rem 0; padding: .35rem .7rem; border-left: .4rem solid; }
.block.kept { border-color: #2a8c3c; background: #eef8f0; }
.block.removed { border-color: #c0392b; background: #f7f7f7; color: #666; }
.block.heading .text { font-weight: bold; }
.verdict { font-size: 13px; }
.verdict .label { font-weight: bold; text-transform: uppercase; margin-right: .5rem; }
.kept .label { color: #2a8c3c; } .removed .label { color: #c0392b; }
.verdict .reason { font-weight: bold; }
.up { color: #1e7a32; } .down { color: #b03022; }
.verdict .index { color: #888; margin-right: .5rem; font-size: 12px; }
.bar { position: relative; display: inline-block; width: 8rem; height: .7rem;
  background: #ddd; vertical-align: middle; margin: 0 .3rem; }
.bar .fill { position: absolute; left: 0; top: 0; bottom: 0; background: #6a8caf; }
.bar .tick { position: absolute; top: -.2rem; bottom: -.2rem; width: 2px; background: #e0a800; }
details.fold { margin: .5rem 0; border-left: .4rem solid #c0392b; background: #f7f7f7;
  padding: .3rem .7rem; }
details.fold summary { cursor: pointer; color: #a03020; font-size: 13px; }
"""


class Extracted(Protocol):
    """What the report reads of an extraction (``extract.ExtractionResult``,
    which the extraction above this layer makes): the blocks, labelled, and
    the page's URL, title and pipeline."""

    @property
    def blocks(self) -> list[Block]: ...

    @property
    def pipeline(self) -> str: ...

    @property
    def url(self) -> str | None: ...

    @property
    def title(self) -> str | None: ...

    @property
    def stoplist(self) -> str | None: ...

    @property
    def all_buttons(self) -> bool: ...


class PageMix(Protocol):
    """How a page's two content models make its scores (``article_gate.Mix``)."""

    @property
    def gate(self) -> float: ...

    @property
    def general(self) -> float: ...

    @property
    def article(self) -> float: ...

    @property
    def bias(self) -> float: ...


class Weighed(Protocol):
    """What weighed most in a block's scores, as ``(feature, contribution to the
    log-odds)`` pairs, largest first: the block's own features (``features``)
    and its context's (``context``); and the page's mix of the two models
    (``mix``). ``explain.explain`` gives them."""

    @property
    def features(self) -> Sequence[tuple[str, float]]: ...

    @property
    def context(self) -> Sequence[tuple[str, float]]: ...

    @property
    def mix(self) -> PageMix: ...


def render_report(
    result: Extracted,
    options: Options | None = None,
    weighed: Sequence[Weighed] | None = None,
) -> str:
    """The report of ``result``, extracted with ``options`` (the defaults if
    None), with what weighed most in each block's scores if ``weighed`` (one
    per block) is given. The cyclic garbage collector is paused meanwhile, as
    in ``extract`` (``gc_pause.py``): its passes over the page's outlines grew
    with the page."""
    with paused_gc():
        return _render(result, options or Options(), weighed)


def _render(result: Extracted, options: Options, weighed: Sequence[Weighed] | None) -> str:
    reasons = [block_reason(block) for block in result.blocks]
    titles = [
        f"block {i} {'kept' if block.is_good else 'removed'}: {reason}{_score_note(block)}"
        for i, (block, reason) in enumerate(zip(result.blocks, reasons))
    ]
    limit = size_limit(result)
    kept = sum(block.is_good for block in result.blocks)
    title = escape(_cut(result.title or result.url or "a page"))
    page = highlighted_page(result.blocks, titles, result.all_buttons)
    page_view = (
        f'<iframe class="page" sandbox="" title="the page, blocks outlined" '
        f'srcdoc="{escape(page, quote=True)}"></iframe>'
        if page
        else "<p>No blocks: the page has no text.</p>"
    )
    if len(page_view) > limit // 2:
        page_view = (
            f"<p>The page view is left out: it would take {len(page_view):,} characters, "
            f"over half of the report's limit ({limit:,} characters).</p>"
        )
    head = [
        "<!DOCTYPE html>",
        '<html><head><meta charset="utf-8">',
        f'<meta http-equiv="Content-Security-Policy" content="{CONTENT_SECURITY_POLICY}">',
        f"<title>declutter report: {title}</title><style>{_STYLE}</style></head><body>",
        f"<h1>{title}</h1>",
        f'<p class="meta">url: {escape(_cut(result.url or "-"))} | pipeline: '
        f"{escape(result.pipeline)} | stoplist: {escape(str(result.stoplist))} | "
        f"{kept} kept, {len(result.blocks) - kept} removed of {len(result.blocks)} blocks</p>",
        '<nav><a href="#page">The page</a><a href="#blocks">The blocks</a>'
        '<a href="#legend">Legend</a></nav>',
        f'<p class="threshold">{_threshold(result.pipeline, options)}{_mix(weighed)}</p>',
        _counts(result.blocks, reasons),
        '<h2 id="page">The page</h2>',
        '<p class="meta">Its own markup and styles, without scripts or anything fetched '
        "(images show as empty boxes or their text). Hover over a block for its number in "
        "the list below and the rule that decided it.</p>",
        page_view,
        '<h2 id="blocks">The blocks</h2>',
    ]
    tail = [
        '<h2 id="legend">Legend</h2>',
        _legend({b.reason.name: b.reason for b in result.blocks if b.reason}, weighed),
        "</body></html>",
    ]
    left = limit - sum(len(part) + 1 for part in head + tail)
    blocks = "".join(_blocks_view(result, reasons, options, weighed, left - 1))
    return "\n".join([*head, blocks, *tail]) + "\n"


def size_limit(result: Extracted) -> int:
    """The most characters the report of ``result`` takes: ``SIZE_LIMIT_BASE``
    and ``SIZE_LIMIT_PER_PAGE_CHAR`` for each character of the page."""
    if not result.blocks:
        return SIZE_LIMIT_BASE
    root = result.blocks[0].element.getroottree().getroot()
    page_chars = len(html.tostring(root, encoding="unicode"))
    return SIZE_LIMIT_BASE + SIZE_LIMIT_PER_PAGE_CHAR * page_chars


def _cut(text: str) -> str:
    return text if len(text) <= TITLE_CHARS else text[: TITLE_CHARS - 1] + "…"


def block_reason(block: Block) -> str:
    """The name of the rule that decided the block, as its stage recorded it."""
    return block.reason.name if block.reason else "no rule recorded"


def context_free_class(
    block: Block, options: Options, language_independent: bool
) -> tuple[Label, str]:
    """jusText's context-free class of ``block`` and why, in words: the rules of
    ``ClassifyContextFree.classify`` in the same order (a test checks they agree)."""
    length, links, stops = block.length, block.link_density, block.stopword_density
    if links > options.max_link_density:
        return BAD, f"link density {links:.3f} > {options.max_link_density}"
    if "\xa9" in block.text or "&copy" in block.text:
        return BAD, "a copyright sign"
    if length < options.length_low:
        if block.link_chars:
            return BAD, f"short ({length} < {options.length_low} characters) with a link"
        return SHORT, f"short ({length} < {options.length_low} characters)"
    low, high = (0, 0) if language_independent else (options.stopwords_low, options.stopwords_high)
    if stops >= high:
        if length > options.length_high:
            return (
                GOOD,
                f"stopword density {stops:.3f} >= {high}, {length} > {options.length_high} chars",
            )
        return NEAR_GOOD, f"stopword density {stops:.3f} >= {high}, but only {length} characters"
    if stops >= low:
        return NEAR_GOOD, f"stopword density {stops:.3f} between {low} and {high}"
    return BAD, f"stopword density {stops:.3f} < {low}"


def _score_note(block: Block) -> str:
    if block.score is None:
        return ""
    own = "" if block.block_score is None else f", own features {block.block_score:.2f}"
    return f" (score {block.score:.2f}{own})"


def _threshold(pipeline: str, options: Options) -> str:
    if pipeline == "declutter":
        return (
            f"<b>Threshold:</b> a block is kept when its content score is above "
            f"<b>{options.content_threshold}</b> and it lies in the content region; a short "
            f"link needs {ShortLinks.link_threshold}, and a block whose own "
            f"features score {SURE_BOILERPLATE} or less is never kept."
        )
    return (
        f"<b>Thresholds</b> (jusText's context-free classes): link density above "
        f"{options.max_link_density} is bad; under {options.length_low} characters is short; "
        f"stopword density from {options.stopwords_high} (over {options.length_high} "
        f"characters) is good, from {options.stopwords_low} near-good."
    )


def _mix(weighed: Sequence[Weighed] | None) -> str:
    if not weighed:
        return ""
    mix = weighed[0].mix
    return (
        f" The article gate reads this page as an article with probability "
        f"<b>{mix.gate:.2f}</b>: each score's log-odds is {mix.general:.2f} times the general "
        f"model's plus {mix.article:.2f} times the article model's, plus {mix.bias:.2f}."
    )


def _counts(blocks: list[Block], reasons: list[str]) -> str:
    counts = Counter((block.is_good, reason) for block, reason in zip(blocks, reasons))
    rows = [
        f"<tr><td>{'kept' if good else 'removed'}</td><td>{escape(reason)}</td><td>{n}</td></tr>"
        for (good, reason), n in sorted(counts.items(), key=lambda item: (not item[0][0], -item[1]))
    ]
    header = "<tr><th>verdict</th><th>rule</th><th>blocks</th></tr>"
    return f'<table class="counts">{header}{"".join(rows)}</table>'


def _blocks_view(
    result: Extracted,
    reasons: list[str],
    options: Options,
    weighed: Sequence[Weighed] | None,
    budget: int,
) -> list[str]:
    """Every block in page order, in ``budget`` characters at most (then a
    note says where the list stops); runs of ``FOLD_RUN`` removed blocks or
    more folded."""
    language_independent = result.stoplist is None
    paths = element_paths(block.element for block in result.blocks)  # linear, unlike Block.xpath
    # room for the fold a block may close and for the note: a fold's summary
    # names each rule at most once
    reserve = 500 + sum(len(escape(reason)) + 20 for reason in set(reasons))
    parts: list[str] = []
    run: list[tuple[str, str]] = []  # removed blocks not yet placed: (rule, rendered)
    size = 0
    for i, (block, path, reason) in enumerate(zip(result.blocks, paths, reasons)):
        evidence = _evidence(block, options, language_independent, weighed[i] if weighed else None)
        rendered = _block(i, block, path, reason, evidence)
        if size + len(rendered) + reserve > budget:
            size += _place_run(run, parts)
            parts.append(
                f'<p class="cut">The blocks from block {i} on ({len(result.blocks) - i:,} '
                f"blocks) are not listed: the report would be over its limit. The counts "
                "above cover every block.</p>"
            )
            return parts
        size += len(rendered)
        if block.is_good:
            size += _place_run(run, parts)
            parts.append(rendered)
        else:
            run.append((reason, rendered))
    _place_run(run, parts)
    return parts


def _place_run(run: list[tuple[str, str]], parts: list[str]) -> int:
    """Append the removed blocks of ``run`` to ``parts``, folded if there are
    ``FOLD_RUN`` or more, and empty ``run``; the characters the fold added."""
    if len(run) < FOLD_RUN:
        parts.extend(rendered for _, rendered in run)
        run.clear()
        return 0
    summary = ", ".join(
        f"{escape(reason)} ({n})" for reason, n in Counter(r for r, _ in run).most_common()
    )
    opening = f'<details class="fold"><summary>{len(run)} removed blocks: {summary}</summary>'
    parts.append(opening + "".join(rendered for _, rendered in run) + "</details>")
    run.clear()
    return len(opening) + len("</details>")


def _block(i: int, block: Block, path: str, reason: str, evidence: str) -> str:
    state = "kept" if block.is_good else "removed"
    heading = " heading" if block.heading else ""
    return (
        f'<div class="block {state}{heading}" id="block-{i}" title="{escape(path)}">'
        f'<div class="verdict"><span class="index">{i}</span><span class="label">{state}</span>'
        f'<span class="reason">{escape(reason)}</span></div>'
        f'<div class="evidence">{evidence}</div>'
        f'<div class="text">{escape(block.text)}</div></div>'
    )


def _evidence(
    block: Block, options: Options, language_independent: bool, weighed: Weighed | None
) -> str:
    """What weighed most: the scores against their thresholds, the features that
    moved them most, jusText's class and why, the block's counts."""
    lines = []
    if block.score is not None:
        scores = f"score {block.score:.2f} {_bar(block.score, options.content_threshold)}"
        if block.block_score is not None:
            own = block.block_score
            scores += f" · own features {own:.2f} {_bar(own, SURE_BOILERPLATE)}"
        lines.append(scores)
    if weighed is not None:
        lines.append(
            f"weighed most: {_contributions(weighed.features)} · in context: "
            f"{_contributions(weighed.context)}"
        )
    cf_label, why = context_free_class(block, options, language_independent)
    lines.append(f"jusText: {escape(str(block.cf_label or cf_label))} ({escape(why)})")
    lines.append(
        f"{block.length} chars, {block.words} words, link density {block.link_density:.2f}, "
        f"stopword density {block.stopword_density:.2f}{', heading' if block.heading else ''}"
    )
    return "".join(f"<div>{line}</div>" for line in lines)


def _contributions(pairs: Sequence[tuple[str, float]]) -> str:
    return ", ".join(
        f'<span class="{"up" if weight > 0 else "down"}" title="{escape(describe(name))}">'
        f"{escape(name)} {weight:+.2f}</span>"
        for name, weight in pairs
    )


def _bar(value: float, threshold: float) -> str:
    return (
        f'<span class="bar"><span class="fill" style="width: {value:.0%}"></span>'
        f'<span class="tick" style="left: {threshold:.0%}"></span></span>'
    )


def _legend(reasons: dict[str, Reason], weighed: Sequence[Weighed] | None) -> str:
    entries = "".join(
        f"<dt>{escape(name)}</dt><dd>{escape(reasons[name].explain())}</dd>"
        for name in sorted(reasons)
    )
    shown = {name for block in weighed or () for name, _ in (*block.features, *block.context)}
    features = "".join(
        f"<dt>{escape(name)}</dt><dd>{escape(describe(name))}</dd>" for name in sorted(shown)
    )
    return (
        '<div class="legend">'
        '<p><span class="swatch kept"></span>kept: its text is in the result. '
        '<span class="swatch removed"></span>removed: it is not. A run of '
        f"{FOLD_RUN} or more removed blocks is folded: click to open it.</p>"
        "<p><b>score</b>: the content model's probability that the block is main content, "
        "read with its neighbours and ancestors; <b>own features</b>: the same from the "
        "block alone. A bar's yellow tick is its threshold: the content threshold for the "
        "score, the sure-boilerplate guard for the own features. <b>jusText</b>: the block's "
        "context-free class (good, near-good, short, bad) and why.</p>"
        + (
            "<p><b>weighed most</b>: the features that moved the block's scores most, with "
            "what each added to the log-odds: <span class='up'>positive</span> towards "
            "content, <span class='down'>negative</span> towards boilerplate; first the "
            "block's own features, then its context's (its neighbours' and ancestors' "
            "scores). Hover over one for its meaning; every feature named on this page:</p>"
            f'<dl class="reasons features">{features}</dl>'
            if weighed is not None
            else ""
        )
        + f'<p>The rules that decided this page\'s blocks:</p><dl class="reasons">{entries}</dl>'
        "</div>"
    )


def format_blocks(result: Extracted, width: int = 60) -> str:
    """One line per block: label, context-free class, heading, length,
    densities, the content model's score (``-`` without one), text."""
    lines = [
        f"{'label':<6}{'cf':<10}{'h':<2}{'length':>7}{'links':>7}{'stops':>7}{'score':>7}  text"
    ]
    for block in result.blocks:
        text = block.text if len(block.text) <= width else block.text[: width - 1] + "…"
        score = "-" if block.score is None else f"{block.score:.2f}"
        lines.append(
            f"{block.label or '-':<6}{block.cf_label or '-':<10}{'h' if block.heading else '':<2}"
            f"{block.length:>7}{block.link_density:>7.2f}{block.stopword_density:>7.2f}{score:>7}"
            f"  {text}"
        )
    return "\n".join(lines)
