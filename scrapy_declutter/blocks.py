"""The block model and the single lxml pass that builds it.

A page is cut into blocks the way jusText cuts it: every block-level tag in
``BLOCK_TAGS`` starts and ends a block, and so does a second ``<br>`` in a row.
Inline markup (links, emphasis, spans, ...) stays inside the block it is in.
The walk is iterative (``lxml.etree.iterwalk``), so nesting depth costs no
stack, and it skips non-content subtrees (``SKIPPED_TAGS``) without copying or
cleaning the tree. Every counter a later stage needs is filled during the walk;
the stopword count, which depends on the language, is filled right after it.
"""

from dataclasses import dataclass, field

from lxml import etree

from .labels import Label

# jusText's segmentation tags (its algorithm.rst), plus <body>, as its code has.
BLOCK_TAGS = frozenset(
    """blockquote body caption center col colgroup dd div dl dt fieldset form
    h1 h2 h3 h4 h5 h6 legend li optgroup option p pre table td textarea tfoot
    th thead tr ul""".split()
)
HEADING_TAGS = frozenset("h1 h2 h3 h4 h5 h6".split())
# Never content: metadata, code, templates and form controls whose text is a
# widget's. jusText's paper labels <select> content bad in preprocessing; like
# its code, we drop it there, so a country list is neither a block nor context.
SKIPPED_TAGS = frozenset(
    "head script style template select textarea button input applet".split()
) | {etree.Comment, etree.ProcessingInstruction, etree.Entity}

# What the walk does at each tag, looked up once per element.
_INLINE, _BR, _LINK, _SKIPPED, _BLOCK, _HEADING = range(6)
_KINDS = {
    **{tag: _BLOCK for tag in BLOCK_TAGS},
    **{tag: _HEADING for tag in HEADING_TAGS},
    **{tag: _SKIPPED for tag in SKIPPED_TAGS},
    "br": _BR,
    "a": _LINK,
}


@dataclass(slots=True, eq=False)
class Block:
    """One block of text and the shallow features the stages decide on.

    ``text`` has its white space collapsed to single spaces. ``element`` is the
    lxml element the block starts in: the block-level tag that opened it, or the
    container it continues after a nested block or a ``<br><br>`` closed.
    """

    text: str
    element: etree._Element = field(repr=False)
    link_chars: int = 0
    link_words: int = 0
    heading: bool = False
    depth: int = 0
    words: int = 0
    stopwords: int = 0
    cf_label: Label | None = None
    label: Label | None = None

    @property
    def length(self) -> int:
        """Length of the text in characters."""
        return len(self.text)

    @property
    def link_density(self) -> float:
        """Share of the text's characters that sit inside ``<a>`` elements."""
        return self.link_chars / len(self.text) if self.text else 0.0

    @property
    def stopword_density(self) -> float:
        """Share of the words that are in the page's stoplist."""
        return self.stopwords / self.words if self.words else 0.0

    @property
    def xpath(self) -> str:
        """An XPath that locates ``element`` in the parsed page."""
        return self.element.getroottree().getpath(self.element)

    @property
    def is_good(self) -> bool:
        return self.label is Label.GOOD

    def to_dict(self) -> dict:
        """The block as JSON-safe values."""
        return {
            "text": self.text,
            "label": str(self.label) if self.label else None,
            "cf_label": str(self.cf_label) if self.cf_label else None,
            "heading": self.heading,
            "xpath": self.xpath,
            "length": self.length,
            "words": self.words,
            "link_density": round(self.link_density, 4),
            "stopword_density": round(self.stopword_density, 4),
        }


def segment(root: etree._Element) -> list[Block]:
    """Walk the tree once and return its blocks in document order."""
    blocks: list[Block] = []
    parts: list[str] = []
    link_chars = link_words = 0
    start = root
    start_heading = False
    start_depth = depth = 0
    headings = 0  # open <h1>-<h6> elements
    in_link = after_br = False

    def close() -> None:
        nonlocal link_chars, link_words
        text = " ".join("".join(parts).split())
        if text:
            blocks.append(
                Block(text, start, link_chars, link_words, start_heading, start_depth)
            )
        parts.clear()
        link_chars = link_words = 0

    kinds = _KINDS
    walker = etree.iterwalk(root, events=("start", "end"))
    for event, el in walker:
        kind = kinds.get(el.tag, _INLINE)
        if event == "start":
            depth += 1
            if kind == _INLINE:
                after_br = False
            elif kind >= _BLOCK or (kind == _BR and after_br):
                if kind == _HEADING:
                    headings += 1
                if parts:
                    close()
                start = el if kind != _BR else el.getparent()
                start_heading, start_depth = headings > 0, depth
            elif kind == _BR:
                after_br = True
                parts.append(" ")
            elif kind == _LINK:
                after_br = False
                in_link = True
            else:  # _SKIPPED; its tail is read at its "end" event
                walker.skip_subtree()
                continue
            text = el.text
        else:
            depth -= 1
            if kind >= _BLOCK:
                if kind == _HEADING:
                    headings -= 1
                if parts:
                    close()
                start = el.getparent() if el is not root else el
                start_heading, start_depth = headings > 0, depth
            elif kind == _LINK:
                in_link = False
            text = el.tail
        # Text handling, inlined: this runs for every text node of the page.
        if not text:
            continue
        if text.isspace():
            # keeps "<a>x</a> <a>y</a>" two words (jusText drops such nodes)
            parts.append(" ")
        else:
            words = text.split()
            normalized = " ".join(words)
            if text[0].isspace():
                normalized = " " + normalized
            if text[-1].isspace():
                normalized += " "
            parts.append(normalized)
            if in_link:
                link_chars += len(normalized)
                link_words += len(words)
            after_br = False
    close()
    return blocks
