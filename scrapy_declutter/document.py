"""A page as the stages see it: its blocks, plus what the page says of itself."""

from collections import Counter
from dataclasses import dataclass, field

from lxml import etree

from .blocks import Block, segment
from .languages import AUTO, resolve_language, stoplist
from .parse import parse


@dataclass(eq=False)
class Document:
    """The blocks of one page in document order, and page-level facts.

    ``root`` is the parsed tree the blocks' elements belong to (``None`` for a
    page with nothing in it); ``language`` is the stoplist used, ``None`` in
    language-independent mode.
    """

    blocks: list[Block] = field(default_factory=list)
    root: etree._Element | None = None
    url: str | None = None
    title: str | None = None
    language: str | None = None
    _chains: list[tuple] | None = field(default=None, repr=False)

    def ancestor_chains(self) -> list[tuple]:
        """For each block, its element and that element's ancestors up to the
        root, computed once per document (several stages walk them)."""
        if self._chains is None:
            memo: dict = {}
            self._chains = [_chain(block.element, memo) for block in self.blocks]
        return self._chains


def _chain(element, memo: dict) -> tuple:
    """``element`` and its ancestors; iterative, shared between siblings."""
    pending = []
    while element is not None and element not in memo:
        pending.append(element)
        element = element.getparent()
    chain = memo[element] if element is not None else ()
    for item in reversed(pending):
        chain = memo[item] = (item, *chain)
    return chain


def build_document(
    html: str | bytes,
    *,
    language: str | None,
    url: str | None = None,
    encoding: str | None = None,
    content_language: str | None = None,
) -> Document:
    """Parse, segment and count stopwords: everything before the first stage."""
    root = parse(html, encoding)
    if root is None:
        return Document(url=url)
    blocks = segment(root)
    tokens = [block.text.lower().split() for block in blocks]
    if language == AUTO:
        language = resolve_language(
            (root.get("lang"), content_language),
            lambda: Counter(word for block_words in tokens for word in block_words),
        )
    is_stopword = (stoplist(language) if language else frozenset()).__contains__
    for block, block_words in zip(blocks, tokens):
        block.words = len(block_words)
        block.stopwords = sum(map(is_stopword, block_words))
    title = root.findtext("head/title")
    return Document(blocks, root, url, " ".join(title.split()) if title else None, language)
