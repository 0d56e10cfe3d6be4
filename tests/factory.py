"""Hand-built documents for stage tests: a few blocks with chosen features."""

from lxml import etree

from scrapy_declutter.blocks import Block
from scrapy_declutter.document import Document
from scrapy_declutter.labels import Label

_ELEMENT = etree.Element("p")
L = Label


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
        text, _ELEMENT, link_chars=link_chars, heading=heading,
        words=words, stopwords=stopwords, cf_label=label, label=label,
    )


def document(*blocks: Block) -> Document:
    return Document(list(blocks), language="English")


def labels(doc: Document) -> list[str]:
    return [str(b.label) for b in doc.blocks]


def doc_of(*classes: str) -> Document:
    """A document from short class codes: g(ood) b(ad) s(hort) n(ear-good),
    upper case for a heading."""
    codes = {"g": L.GOOD, "b": L.BAD, "s": L.SHORT, "n": L.NEAR_GOOD}
    return document(*(block(codes[c.lower()], heading=c.isupper(), length=10) for c in classes))
