"""The block model and the single lxml pass that builds it.

A page is cut into blocks the way jusText cuts it: every block-level tag in
``BLOCK_TAGS`` starts and ends a block, and so does a second ``<br>`` in a row.
Inline markup (links, emphasis, spans, ...) stays inside the block it is in.
The walk is iterative (``lxml.etree.iterwalk``), so nesting depth costs no
stack, and it skips non-content subtrees (``SKIPPED_TAGS``) without copying or
cleaning the tree. Every counter a later stage needs is filled during the walk;
the stopword count, which depends on the language, is filled right after it.

Boilerpipe's features come from the same walk: words in anchor text and the
block offset (its index). For the density filter the walk numbers the tags and
notes which ones fall in each block; the characters of those tags are counted
only when that filter asks (``tag_markup``), as attributes are too slow to read
on every page. Boilerpipe's word counts and text density depend on the block's
text only, so they are computed from it on first use and cached
(``word_wrap``): the jusText pipeline never pays for them.

Boilerpipe's words are its tokens (runs of letters, digits and ``"'.,!@-:;$?()/``)
that hold a letter or digit: "U.S." and "e-mail" are one word, "|" none.
"""

import re
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import NamedTuple

from lxml import etree

from scrapy_declutter.core.deadline import CHECK_EVERY, Deadline
from scrapy_declutter.core.labels import GOOD, BoilerpipeLabel, Label
from scrapy_declutter.core.reasons import Reason

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
# <iframe>, <noembed> and <noframes> are never rendered where frames and
# embeds work, and libxml2 reads their content as raw text, markup and all.
SKIPPED_TAGS = frozenset(
    """head script style template select textarea button input applet iframe
    noembed noframes""".split()
) | {etree.Comment, etree.ProcessingInstruction, etree.Entity}
# libxml2 does not close a <button> whose content has an unclosed <div>: the
# rest of the page nests inside it. A button holding more text than this is
# such a page (so is one holding as many elements), and is walked as an
# inline element instead of skipped. A page whose text is all in buttons
# (``"<button><div>" * 10_000 + "<p>text</p>"``: libxml2 nests what browsers
# close, and each button holds little) is walked again with every button
# walked (``all_buttons``), so a page a browser shows text on has blocks.
BUTTON_MAX_TEXT = 500

# What the walk does at each tag, looked up once per element. The order is
# used: the kinds from _BLOCK on (a block tag, a heading) are those that start
# and end a block, so the walk tests ``kind >= _BLOCK``, one comparison.
_INLINE, _BR, _LINK, _SKIPPED, _BLOCK, _HEADING = range(6)
_KINDS = {
    **{tag: _BLOCK for tag in BLOCK_TAGS},
    **{tag: _HEADING for tag in HEADING_TAGS},
    **{tag: _SKIPPED for tag in SKIPPED_TAGS},
    "br": _BR,
    "a": _LINK,
}

# One Boilerpipe word: a whole token with at least one letter or digit in it.
# A match starts only where a token starts (the lookbehind): tried at every
# character of a long token without a letter ("____", "....."), the pattern
# would scan to the token's end each time, quadratic in its length.
_TOKEN_CHAR = r"""[\w"'.,!@\-:;$?()/]"""
_WORD = re.compile(rf"(?<!{_TOKEN_CHAR}){_TOKEN_CHAR}*[^\W_]{_TOKEN_CHAR}*")
_TOKEN = re.compile(f"{_TOKEN_CHAR}+")
_NOT_LETTER_OR_DIGIT = "_\"'.,!@-:;$?()/"  # the token characters that are neither
# The most characters one regular expression call reads when words are found
# in a longer text (``word_lengths``): the call holds the interpreter, and in
# thread mode the reactor waits for it (10 MB of link text took 1 s in one call).
STRETCH = 65_536
# An English word and the space after it take six characters, and it says
# about as much as one and a half Han characters (a translation's usual
# ratio): a Han or kana character reads as three Latin ones.
HAN_AND_KANA_LENGTH = 3
# Boilerpipe wraps text at 80 characters to measure its density.
LINE_WIDTH = 80
# A paragraph of prose, in any language: this many words or more, under this
# link density (``is_prose``). jusText's classes weigh a block's stopwords
# against bars set for stoplists of space-separated words, which a Chinese
# paragraph can fall short of; its words and links read the same anywhere.
PROSE_WORDS = 30
MOSTLY_LINKS = 0.5
# A linked headline (another story's, in a box or a card): this many words
# or more, mostly link text (``is_linked_headline``).
HEADLINE_WORDS = 3
# The longest XPath ``element_paths`` writes in full: on the 3,499 pages of
# the three corpora, the longest is 417 characters.
MAX_PATH_CHARS = 1_000


class WordWrap(NamedTuple):
    """Boilerpipe's word counts of a text wrapped at ``LINE_WIDTH`` characters.

    Only words count towards a line's width (one space between two). When the
    text wraps, the last, unfinished line is left out of both counts.
    """

    words: int
    words_in_wrapped_lines: int
    wrapped_lines: int


def wrap_words(text: str) -> WordWrap:
    """Count ``text``'s words and its wrapped lines as Boilerpipe does."""
    lengths = word_lengths(text)
    if sum(lengths) + len(lengths) - 1 <= LINE_WIDTH:  # the usual case: one line
        return WordWrap(len(lengths), len(lengths), 1)
    lines = 0
    line_length = -1  # the first word of a line has no space before it
    words_on_line = 0
    for length in lengths:
        line_length += length + 1
        words_on_line += 1
        if line_length > LINE_WIDTH:
            lines += 1
            line_length = length
            words_on_line = 1
    return WordWrap(len(lengths), len(lengths) - words_on_line, lines)


def is_prose(words: int, link_density: float) -> bool:
    """Whether a block of ``words`` words and ``link_density`` is a paragraph
    of prose: ``PROSE_WORDS`` words or more, not mostly link text."""
    return words >= PROSE_WORDS and link_density < MOSTLY_LINKS


def is_linked_headline(words: int, link_density: float) -> bool:
    """Whether a block of ``words`` words and ``link_density`` is a linked
    headline: ``HEADLINE_WORDS`` words or more, mostly link text (so never
    prose)."""
    return words >= HEADLINE_WORDS and link_density >= MOSTLY_LINKS


def word_lengths(text: str, stretch: int = STRETCH) -> list[int]:
    """The length of each of Boilerpipe's words in ``text``. A text longer than
    ``stretch`` is read ``stretch`` characters at a time, a token that runs
    across stretches joined from its parts."""
    if len(text) <= stretch:
        return list(map(len, _WORD.findall(text)))
    lengths = []
    carried = 0  # the length of a token that reached the end of the last stretch
    carried_word = False  # whether that much of it holds a letter or digit
    for start in range(0, len(text), stretch):
        end = start + stretch
        pending, pending_word = carried, carried_word
        carried, carried_word = 0, False
        for token in _TOKEN.finditer(text, start, end):
            length = token.end() - token.start()
            is_word = bool(token.group().strip(_NOT_LETTER_OR_DIGIT))
            if pending:
                if token.start() == start:  # the carried token goes on
                    length += pending
                    is_word = is_word or pending_word
                elif pending_word:
                    lengths.append(pending)
                pending = 0
            if token.end() == end:
                carried, carried_word = length, is_word
            elif is_word:
                lengths.append(length)
        if pending_word and pending:  # no token in this stretch
            lengths.append(pending)
    if carried_word:
        lengths.append(carried)
    return lengths


@dataclass(slots=True, eq=False)
class Block:
    """One block of text and the shallow features the stages decide on.

    A block is a paragraph, a heading, a list item, a cell: a stretch of the
    page between two block-level boundaries. The fields a caller reads:

    ``text``
        the block's text, white space collapsed to single spaces.
    ``label``
        the decision: :attr:`Label.GOOD` (kept), :attr:`Label.BAD` (removed)
        or :attr:`Label.COMMENT` (a user comment, with the ``comments`` option).
    ``cf_label``
        jusText's context-free class (``good``, ``bad``, ``short``,
        ``near-good``).
    ``reason``
        the rule that decided the label: a ``Reason`` (its ``name`` in words,
        ``"content region"``, and its explanation), written beside the rule.
    ``score``, ``block_score``
        the ``declutter`` pipeline's probability that the block is main
        content, in context and from the block's own features; ``None`` for
        the other pipelines.
    ``heading``
        whether the block is inside ``<h1>``-``<h6>``.
    ``element``
        the lxml element the block starts in: the block-level tag that opened
        it, or the container it continues after a nested block or a
        ``<br><br>`` closed.
    ``words``, ``stopwords``, ``link_chars``
        the counters: words (white-space separated, jusText's; each Han or
        kana character one, ``han_and_kana`` of them), those in the page's
        stoplist, characters inside links.

    The other fields are the stages' own: ``link_words`` are Boilerpipe
    words in anchor text; ``offset`` is the block's index in the document;
    ``first_tag`` and ``tags`` say which tags (numbered in document order by
    ``tag_markup``) start in the block's stretch of the page;
    ``boilerpipe_labels`` and ``fused_into`` are Boilerpipe's (see
    ``boilerpipe.py``). ``to_dict()`` gives the block as JSON-safe values,
    as items hold it.
    """

    text: str
    element: etree._Element = field(repr=False)
    link_chars: int = 0
    link_words: int = 0
    heading: bool = False
    offset: int = 0
    first_tag: int = 0
    tags: int = 0
    words: int = 0
    stopwords: int = 0
    han_and_kana: int = 0
    cf_label: Label | None = None
    label: Label | None = None
    score: float | None = None
    block_score: float | None = None
    reason: Reason | None = None
    boilerpipe_labels: BoilerpipeLabel = BoilerpipeLabel(0)
    fused_into: "Block | None" = field(default=None, repr=False)
    _word_wrap: WordWrap | None = field(default=None, repr=False, compare=False)

    @property
    def length(self) -> int:
        """Length of the text in characters."""
        return len(self.text)

    @property
    def reading_length(self) -> int:
        """The length a text of the same substance has in a script written
        with spaces: each Han or kana character (a word, ``han_and_kana`` of
        them) counts as ``HAN_AND_KANA_LENGTH`` characters. The thresholds on
        lengths (jusText's classes, the content model's size) read it."""
        return len(self.text) + (HAN_AND_KANA_LENGTH - 1) * self.han_and_kana

    @property
    def link_density(self) -> float:
        """Share of the text's characters that sit inside ``<a>`` elements."""
        return self.link_chars / len(self.text) if self.text else 0.0

    @property
    def stopword_density(self) -> float:
        """Share of the words that are in the page's stoplist."""
        return self.stopwords / self.words if self.words else 0.0

    @property
    def word_wrap(self) -> WordWrap:
        """Boilerpipe's word counts, computed on first use."""
        if self._word_wrap is None:
            self._word_wrap = wrap_words(self.text)
        return self._word_wrap

    @property
    def text_density(self) -> float:
        """Boilerpipe's text density: words per line, the text wrapped at 80 characters."""
        wrap = self.word_wrap
        return wrap.words_in_wrapped_lines / wrap.wrapped_lines

    @property
    def xpath(self) -> str:
        """An XPath that locates ``element`` in the parsed page (see
        ``element_paths``). It counts the siblings of the element and its
        ancestors: for many blocks, ``ExtractionResult.block_dicts()`` finds
        every block's path in one pass."""
        return element_paths([self.element])[0]

    @property
    def is_good(self) -> bool:
        return self.label is GOOD

    def to_dict(self, xpath: str | None = None) -> dict:
        """The block as JSON-safe values; ``xpath`` is the block's ``xpath``
        when the caller has it (from ``element_paths``)."""
        return {
            "text": self.text,
            "label": str(self.label) if self.label else None,
            "cf_label": str(self.cf_label) if self.cf_label else None,
            "heading": self.heading,
            "xpath": self.xpath if xpath is None else xpath,
            "length": self.length,
            "words": self.words,
            "link_density": round(self.link_density, 4),
            "stopword_density": round(self.stopword_density, 4),
            "score": None if self.score is None else round(self.score, 4),
            "block_score": None if self.block_score is None else round(self.block_score, 4),
        }


def element_paths(elements: Iterable[etree._Element]) -> list[str]:
    """An XPath for each element, as lxml's ``getpath`` writes it
    (``/html/body/div[2]/p``), in time linear in the elements, their
    ancestors and those ancestors' children: ``getpath`` counts an element's
    siblings on every call, quadratic on a page of many sibling blocks.

    A path longer than ``MAX_PATH_CHARS`` (an element nested hundreds deep)
    is written ``(//*)[k]`` instead, the page's k-th element: the paths of a
    page's blocks would otherwise take memory in its depth times its blocks."""
    elements = list(elements)
    paths: dict[etree._Element, str | None] = {}  # None: longer than MAX_PATH_CHARS
    steps: dict[etree._Element, str] = {}  # "p[2]", filled a parent's children at a time
    found: list[str | None] = []
    for element in elements:
        pending = []
        while element is not None and element not in paths:
            pending.append(element)
            element = element.getparent()
        path = paths[element] if element is not None else ""
        for element in reversed(pending):  # from the top down
            if element not in steps:
                parent = element.getparent()
                steps.update(_steps(element if parent is None else parent, parent is None))
            if path is not None:
                path = f"{path}/{steps[element]}"
                path = path if len(path) <= MAX_PATH_CHARS else None
            paths[element] = path
        found.append(path)
    numbers = _document_order(e for e, path in zip(elements, found) if path is None)
    return [f"(//*)[{numbers[e]}]" if path is None else path for e, path in zip(elements, found)]


def _document_order(elements: Iterable[etree._Element]) -> dict[etree._Element, int]:
    """Each element's number among its page's elements in document order
    (from 1, as XPath counts), in one walk over the page."""
    wanted = set(elements)
    numbers: dict[etree._Element, int] = {}
    if wanted:  # pages have no such element but those nested hundreds deep
        root = next(iter(wanted)).getroottree().getroot()
        for number, element in enumerate(root.iter(etree.Element), 1):
            if element in wanted:
                numbers[element] = number
    return numbers


def _steps(parent: etree._Element, is_root: bool) -> dict[etree._Element, str]:
    """The path step of each child element of ``parent`` (of the root
    element alone when ``is_root``): its tag, numbered among same-tag
    siblings when it has any."""
    children = [parent] if is_root else [c for c in parent if isinstance(c.tag, str)]
    counts = Counter(child.tag for child in children)
    seen: Counter[str] = Counter()
    steps = {}
    for child in children:
        tag = child.tag
        if counts[tag] > 1:
            seen[tag] += 1
            steps[child] = f"{tag}[{seen[tag]}]"
        else:
            steps[child] = tag
    return steps


def segment(
    root: etree._Element, all_buttons: bool = False, deadline: Deadline | None = None
) -> list[Block]:
    """Walk the tree once and return its blocks in document order;
    ``all_buttons`` walks every ``<button>`` as an inline element. ``deadline``
    is checked every ``CHECK_EVERY + 1`` elements."""
    blocks: list[Block] = []
    parts: list[str] = []  # the current block's text nodes, white space as found
    link_chars = link_words = 0
    tags = first_tag = 0  # tags seen; the first of the current block
    start = root
    start_heading = False
    open_kinds: list[int] = []  # of the open elements: the end event needs no tag lookup
    headings = 0  # open <h1>-<h6> elements
    in_link = after_br = False

    def close() -> None:
        nonlocal link_chars, link_words
        text = "".join(parts)
        # Most blocks hold no white space but single spaces (every other white
        # space character is unprintable): then stripping the edges is enough.
        if "  " in text or not text.isprintable():
            text = " ".join(text.split())
        else:
            text = text.strip(" ")
        if text:
            length = len(text)
            # Block's first fields by position, at half the cost of keywords:
            # text, element, link_chars (link text's edge spaces can outnumber
            # the block's: at most the length, without a call of min()),
            # link_words, heading, offset, first_tag, tags
            blocks.append(
                Block(
                    text,
                    start,
                    length if length < link_chars else link_chars,
                    link_words,
                    start_heading,
                    len(blocks),
                    first_tag,
                    tags - first_tag,
                )
            )
        parts.clear()
        link_chars = link_words = 0

    kinds = _KINDS
    walker = etree.iterwalk(root, events=("start", "end"))
    for event, el in walker:
        if event == "start":
            kind = kinds.get(el.tag, _INLINE)
            open_kinds.append(kind)
            if kind == _INLINE:
                after_br = False
            elif kind >= _BLOCK or (kind == _BR and after_br):
                if kind == _HEADING:
                    headings += 1
                if parts:
                    close()
                start = el if kind != _BR else el.getparent()
                start_heading = headings > 0
                first_tag = tags
            elif kind == _BR:
                after_br = True
                if parts:
                    parts.append(" ")
            elif kind == _LINK:
                after_br = False
                in_link = True
            elif el.tag != "button" or not (all_buttons or _swallows_page(el)):
                walker.skip_subtree()  # _SKIPPED; its tail is read at its "end" event
                continue
            tags += 1
            if deadline is not None and not tags & CHECK_EVERY:
                deadline.check("the block walk")
            text = el.text
        else:
            kind = open_kinds.pop()
            if kind >= _BLOCK:
                if kind == _HEADING:
                    headings -= 1
                if parts:
                    close()
                start = el.getparent() if el is not root else el
                start_heading = headings > 0
                first_tag = tags
            elif kind == _LINK:
                in_link = False
            text = el.tail
        # Text handling, inlined: this runs for every text node of the page.
        if not text:
            continue
        if text.isspace():
            # keeps "<a>x</a> <a>y</a>" two words (jusText drops such nodes);
            # white space that opens a block is dropped anyway
            if parts:
                parts.append(" ")
            continue
        parts.append(text)  # close() collapses the white space of the whole block
        if in_link:
            words = text.split()
            normalized = " ".join(words)  # counted as it will read in the block
            link_chars += len(normalized) + text[0].isspace() + text[-1].isspace()
            # Boilerpipe's words; plain letters and digits need no regex
            link_words += len(words) if "".join(words).isalnum() else len(word_lengths(normalized))
        after_br = False
    close()
    return blocks


def _swallows_page(button: etree._Element) -> bool:
    """Whether a <button> holds more than ``BUTTON_MAX_TEXT`` characters or
    ``BUTTON_MAX_TEXT`` elements; it reads no further than that, so that nested
    buttons cost no more than a linear walk."""
    chars = 0
    for count, el in enumerate(button.iter()):
        chars += len(el.text or "") + (len(el.tail or "") if el is not button else 0)
        if chars > BUTTON_MAX_TEXT or count > BUTTON_MAX_TEXT:
            return True
    return False


def tag_markup(root: etree._Element, all_buttons: bool = False) -> list[int]:
    """The characters of markup of each tag ``segment`` numbers, in its order
    (``all_buttons`` as there): start and end tag, with the attributes as
    ``name="value"``."""
    markup = []
    walker = etree.iterwalk(root, events=("start",))
    for _, el in walker:
        if _KINDS.get(el.tag) == _SKIPPED and (
            el.tag != "button" or not (all_buttons or _swallows_page(el))
        ):
            walker.skip_subtree()
            continue
        chars = 2 * len(el.tag) + 5
        for name, value in el.items():
            chars += len(name) + len(value) + 4
        markup.append(chars)
    return markup
