"""Hand-built documents for stage tests: a few blocks with chosen features."""

from lxml import etree

from scrapy_declutter.core.blocks import Block, WordWrap
from scrapy_declutter.core.document import Document
from scrapy_declutter.core.labels import BoilerpipeLabel, Label

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
        text,
        _ELEMENT,
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
        text if text is not None else f"w{words}",
        _ELEMENT,
        link_words=link_words,
        label=label,
        boilerpipe_labels=labels,
        _word_wrap=WordWrap(words, words if density is None else density, 1),
    )


def document(*blocks: Block, title: str | None = None) -> Document:
    """The blocks in a document, with their offsets set to their positions."""
    for offset, b in enumerate(blocks):
        b.offset = offset
    return Document(list(blocks), title=title, language="English")


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
