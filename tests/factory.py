"""Hand-built documents for stage tests: a few blocks with chosen features, a
small news page labelled by jusText, and a small numbered block tree."""

from collections.abc import Callable
from dataclasses import replace

from lxml import etree

from scrapy_declutter.core.blocks import Block, WordWrap
from scrapy_declutter.core.document import BlockTree, Document, build_document
from scrapy_declutter.core.labels import BoilerpipeLabel, Label
from scrapy_declutter.core.options import Options
from scrapy_declutter.extraction.presets import build_pipeline, rules
from scrapy_declutter.stages.evidence import StartDecision, evidence_of

_ELEMENT = etree.Element("p")
L = Label
BL = BoilerpipeLabel


def block(
    label: Label | None = None,
    *,
    length: int = 100,
    words: int = 20,
    stopwords: int = 0,
    link_chars: int = 0,
    heading: bool = False,
    text: str | None = None,
) -> Block:
    """A block with the given features; ``label`` sets cf_label and label."""
    text = text if text is not None else ("x" * length)
    return Block(
        text=text,
        element=_ELEMENT,
        link_chars=link_chars,
        heading=heading,
        words=words,
        stopwords=stopwords,
        cf_label=label,
        label=label,
    )


def bp_block(
    words: int = 10,
    *,
    link_words: int = 0,
    density: int | None = None,
    label: Label | None = None,
    labels: BoilerpipeLabel = BoilerpipeLabel(0),
    text: str | None = None,
) -> Block:
    """A block with Boilerpipe's features: ``words`` words, ``link_words`` of
    them in links, text density ``density`` (default: all words on one line)."""
    return Block(
        text=text if text is not None else f"w{words}",
        element=_ELEMENT,
        link_words=link_words,
        label=label,
        boilerpipe_labels=labels,
        _word_wrap=WordWrap(words, words if density is None else density, 1),
    )


def document(*blocks: Block, title: str | None = None) -> Document:
    """The blocks in a document, with their offsets set to their positions."""
    for offset, b in enumerate(blocks):
        b.offset = offset
    return Document(blocks=list(blocks), title=title, language="English")


def labels(doc: Document) -> list[str]:
    return [str(b.label) for b in doc.blocks]


def content(doc: Document) -> str:
    """The labels as a string: ``+`` content, ``-`` not content."""
    return "".join("+" if b.label is L.GOOD else "-" for b in doc.blocks)


def heads(doc: Document) -> list[int | None]:
    """For each block, the offset of the head of its fusion group (None: a head)."""
    return [b.fused_into.offset if b.fused_into else None for b in doc.blocks]


def doc_of(*classes: str) -> Document:
    """A document from short class codes: g(ood) b(ad) s(hort) n(ear-good),
    upper case for a heading."""
    codes = {"g": L.GOOD, "b": L.BAD, "s": L.SHORT, "n": L.NEAR_GOOD}
    return document(*(block(codes[c.lower()], heading=c.isupper(), length=10) for c in classes))


NEWS_PARAGRAPH = (
    "The council said on Monday that the new bridge over the river would open in the spring, "
    "after two years of work that had closed the old crossing and sent traffic through the town. "
    "Shops on both banks expect more visitors once it is open."
)
# An article with a list, a menu before it, related links and a footer after it.
NEWS_PAGE = f"""<html lang="en"><head><title>Bridge to open in spring</title></head><body>
<nav class="menu"><ul><li><a href="/">Home</a></li><li><a href="/news">News</a></li>
<li><a href="/sport">Sport</a></li></ul></nav>
<main><article class="post-content">
<h1>Bridge to open in spring</h1>
<p>{NEWS_PARAGRAPH}</p><p>{NEWS_PARAGRAPH.replace("Monday", "Tuesday")}</p>
<h2>What changes for drivers</h2>
<ul><li>Two lanes in each direction</li><li>A cycle path on the east side</li></ul>
<p>{NEWS_PARAGRAPH.replace("council", "mayor")}</p>
</article>
<aside class="related"><h3>Related stories</h3><ul>
<li><a href="/a">Old crossing closes for good</a></li>
<li><a href="/b">Traffic plan for the town</a></li></ul></aside>
</main>
<footer class="site-footer">
<p>Copyright \u00a9 2025 Town News. <a href="/privacy">Privacy</a></p></footer>
</body></html>"""


def justext_document(html: str) -> Document:
    """``html`` parsed, its language found, and labelled by the jusText pipeline."""
    document = build_document(html, language="auto")
    build_pipeline(Options(pipeline="justext"))(document)
    return document


# A page's tree: body (0) > main (1) > s1 (2), s2 (3); body > nav (4); blocks in s1, s1, s2, nav
SECTIONS_TREE = BlockTree(parents=[-1, 0, 1, 1, 0], block_nodes=[2, 2, 3, 4])


# Three paragraphs of an article's prose, for the rules after the region.
STORY = [
    f"This is paragraph {n} of the story about the bridge, and it tells the reader what "
    "happened when the town council met on Tuesday to decide whether the old crossing "
    "should close for good or be repaired once more."
    for n in ("one", "two", "three")
]


def hand_scored(
    html: str, article_probability: float, rule: Callable[[Document], None]
) -> Document:
    """``html``'s blocks all scored 0.9 (as the model scores what lies inside
    an article's element), the gate's probability set, then the region and
    ``rule``: only the rule decides what the region keeps."""
    doc = justext_document(html)
    for b in doc.blocks:
        b.score = b.block_score = 0.9
    evidence_of(doc).article_probability = article_probability
    keep_content_region(doc)
    rule(doc)
    return doc


def keep_content_region(
    doc: Document,
    threshold: float = Options.content_threshold,
    link_threshold: float | None = None,
) -> None:
    """The decision's rules from the hard rules to the headline (what one
    stage, ``KeepContentRegion``, did before the chain) at ``threshold``; the
    short links' rule at ``link_threshold`` if given."""
    chain = rules(Options(content_threshold=threshold))
    chain = chain[: [rule.name for rule in chain].index("headline") + 1]
    if link_threshold is not None:
        chain = tuple(
            replace(rule, link_threshold=link_threshold) if rule.name == "short-links" else rule
            for rule in chain
        )
    for stage in (StartDecision(), *chain):
        stage(doc)


def reasons(doc: Document) -> dict[str, str | None]:
    """Each block's reason, by its text."""
    return {b.text: b.reason for b in doc.blocks}


def reasons_in_article(
    body: str, rule: Callable[[Document], None], article_probability: float = 0.9
) -> dict[str, str | None]:
    """Each block's reason, by its text, once ``rule`` has run on a page whose
    ``<article>`` holds ``body``, scored by hand (``hand_scored``)."""
    html = f"<html><body><article>{body}</article></body></html>"
    return reasons(hand_scored(html, article_probability, rule))
