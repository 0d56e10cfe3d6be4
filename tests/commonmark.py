"""Our Markdown read back by a CommonMark parser: what a renderer downstream would make of it.

markdown-it-py in CommonMark mode, with raw HTML allowed (so that any would
show as an ``html_block`` or ``html_inline`` token), GFM tables and
strikethrough on, and every link accepted whatever its scheme (markdown-it
refuses ``javascript:`` itself, a renderer may not): the checks are ours.
``problems`` names what the Markdown must never hold; for
``tests/test_markdown_rendered.py`` and ``benchmarks/markdown_safety.py``.
"""

import re
from collections import Counter

from lxml import etree
from markdown_it import MarkdownIt

# The schemes a link or image may have; a URL without one is relative.
SAFE_SCHEMES = frozenset(("http", "https", "mailto"))
# A URL's scheme as a browser reads it, once it has dropped what it drops.
_SCHEME = re.compile(r"([A-Za-z][A-Za-z0-9+.-]*):")
# Tokens we never write: a thematic break, an indented code block, strikethrough.
_WORD = re.compile(r"[^\W_]+")
_CONTROL = re.compile("[\x00-\x08\x0e-\x1b\x7f]")
_NEVER_WRITTEN = {"hr": "thematic break", "code_block": "indented code", "s_open": "strikethrough"}


def parser() -> MarkdownIt:
    md = MarkdownIt("commonmark", {"html": True}).enable(["table", "strikethrough"])
    md.validateLink = lambda url: True  # every link becomes one: its scheme is checked here
    return md


def scheme(url: str) -> str | None:
    """The scheme a browser gives ``url`` (lower-cased), ``None`` for a relative one:
    it strips leading and trailing C0 controls and spaces, and drops tabs and
    line breaks anywhere (the WHATWG URL parser)."""
    url = url.strip("".join(map(chr, range(0x21)))).translate({9: None, 10: None, 13: None})
    found = _SCHEME.match(url)
    return found.group(1).lower() if found else None


def _inline_tokens(tokens, into_images: bool = True):
    for token in tokens:
        yield token
        if into_images or token.type != "image":
            yield from _inline_tokens(token.children or (), into_images)


def problems(markdown: str, root: etree._Element | None = None) -> Counter:
    """What is wrong with ``markdown``, by kind, counted: raw HTML, a link or
    image with a scheme not in ``SAFE_SCHEMES``, a heading of ``=`` or ``-``
    (setext: the Markdown writes ``#``), and tokens of kinds the Markdown never
    writes. With the page's tree (``root``), also a heading whose words are
    not in the page's headings, and more tables than it has."""
    found: Counter = Counter()
    tokens = list(_inline_tokens(parser().parse(markdown)))
    headings: list[str] = []  # their text
    tables = 0
    for number, token in enumerate(tokens):
        if token.type in ("html_block", "html_inline"):
            found["raw HTML"] += 1
        elif token.type in ("link_open", "image"):
            url = token.attrs.get("href" if token.type == "link_open" else "src", "")
            if scheme(str(url)) not in (None, *SAFE_SCHEMES):
                found["unsafe link"] += 1
        elif token.type == "heading_open":
            shown = tokens[number + 1].children or ()
            headings.append("".join(c.content for c in shown if c.type in ("text", "code_inline")))
            if not token.markup.startswith("#"):
                found["setext heading"] += 1
        elif token.type == "table_open":
            tables += 1
        elif token.type in _NEVER_WRITTEN:
            found[_NEVER_WRITTEN[token.type]] += 1
    if root is not None:
        words = set(_WORD.findall(" ".join(_texts(root, "h1 h2 h3 h4 h5 h6"))))
        found["heading not in the page"] += sum(
            not set(_WORD.findall(heading)) <= words for heading in headings
        )
        found["table not in the page"] += max(0, tables - len(_texts(root, "table")))
    return found + Counter()  # without the kinds counted 0


def extra_marks(markdown: str, text: str, mark: str = "**") -> int:
    """How many more ``mark`` the rendered Markdown's text holds than
    ``text``, the page's kept text: emphasis marks that did not parse. Code
    blocks and images' alt text are left out: neither is in ``text`` whole."""
    rendered = "\n".join(
        "".join(
            "\n" if child.type in ("softbreak", "hardbreak") else child.content
            for child in token.children or ()
            if child.type in ("text", "code_inline", "softbreak", "hardbreak")
        )
        for token in parser().parse(markdown)
        if token.type == "inline"
    )
    return max(0, rendered.count(mark) - text.count(mark))


def _texts(root: etree._Element, tags: str) -> list[str]:
    """The text of each element of ``tags`` in the page, twice: its text
    nodes joined by a space (block elements inside) and by nothing (inline ones)."""
    texts = [
        f"{' '.join(el.itertext())} {''.join(el.itertext())}" for el in root.iter(*tags.split())
    ]
    return [_CONTROL.sub("", text) for text in texts]  # dropped from the Markdown too
