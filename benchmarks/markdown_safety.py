"""What a CommonMark renderer would make of our Markdown, counted over the corpora.

Usage (from the repository root)::

    python -m benchmarks.markdown_safety [CORPUS ...] [--step N] [--all-kept] [--save FILE]

For every ``--step``-th page of each corpus (by default those beside the
repository: wcxb-dev, dragnet, l3s-gn1 and magic-forum), ``extract(html, url)``
then ``result.markdown`` (with ``--all-kept``, every block kept: the longest
walk), read back by the checker below: per kind of problem (raw HTML, an
unsafe link, an accidental heading, table, thematic break, indented code or
strikethrough, and ``**`` that did not parse as bold: the rendered text's
``**`` beyond the kept text's), how many times and on how many pages. An
exception reading the Markdown is counted by its type.

The checker: markdown-it-py in CommonMark mode, with raw HTML allowed (so that
any would show as an ``html_block`` or ``html_inline`` token), GFM tables and
strikethrough on, and every link accepted whatever its scheme (markdown-it
refuses ``javascript:`` itself, a renderer may not): the checks are ours.
``problems`` names what the Markdown must never hold;
``tests/test_markdown_rendered.py`` uses it too.
"""

import argparse
import re
from collections import Counter
from pathlib import Path

from lxml import etree
from markdown_it import MarkdownIt

from benchmarks.corpus import SAVE_HELP, default_corpus_path, load_pages, save_output
from scrapy_declutter import DeclutterError, Label, extract

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


CORPORA = ("wcxb-dev", "dragnet", "l3s-gn1", "magic-forum")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    base = default_corpus_path().parent
    parser.add_argument("corpus", nargs="*", type=Path, default=[base / c for c in CORPORA])
    parser.add_argument("--step", type=int, default=1)
    parser.add_argument("--all-kept", action="store_true")
    parser.add_argument("--save", type=Path, help=SAVE_HELP)
    args = parser.parse_args()
    save_output(args.save)
    times: Counter = Counter()
    pages: Counter = Counter()
    read = 0
    for corpus in args.corpus:
        if not corpus.is_dir():
            continue
        for number, page in enumerate(load_pages(corpus)):
            if number % args.step:
                continue
            try:
                result = extract(page.html, page.url)
            except DeclutterError:
                continue
            read += 1
            if args.all_kept:
                for block in result.blocks:
                    block.label = Label.GOOD
            try:
                markdown = result.markdown
            except Exception as error:  # counted: the point is to find them
                found = Counter({f"exception {type(error).__name__}": 1})
            else:
                found = problems(markdown, result.root)
                found["literal **"] += extra_marks(markdown, result.text)
            for kind, count in (+found).items():
                times[kind] += count
                pages[kind] += 1
    kept = "every block kept" if args.all_kept else "as extracted"
    print(f"{read:,} pages ({kept}, every {args.step}); problems, times and pages:")
    for kind in sorted(times) or ["none"]:
        print(f"{kind:28} {times[kind]:7,} {pages[kind]:7,}")


if __name__ == "__main__":
    main()
