"""Bytes to text to an lxml tree: decoding and parsing, nothing else.

Decoding honours, in order, a byte-order mark, the caller's ``encoding``, the
page's ``<meta charset>`` / ``http-equiv``, and then falls back to UTF-8 when the
bytes are valid UTF-8 and to windows-1252 otherwise (the usual encoding of
undeclared legacy pages). Undecodable bytes are replaced, never fatal.

Parsing never touches the network (no DTDs, no external entities) and lifts
libxml2's size limits, so 20 MB text nodes survive. libxml2 still refuses to
nest deeper than a fixed limit and drops everything after that point; when that
happens the page is parsed a second time with the excess nesting flattened, so
its text is kept.
"""

import re
import threading

from lxml import etree
from w3lib.encoding import html_to_unicode

from .errors import ParseError

_PARSER_OPTIONS = dict(
    encoding="utf-8",
    remove_comments=True,
    remove_pis=True,
    no_network=True,
    huge_tree=True,
    default_doctype=False,
)
# An lxml parser (and its error log) must not be shared between threads, and
# the Scrapy layer runs extraction in a thread pool.
_local = threading.local()
# libxml2's nesting limit with huge_tree is 2048; keep well below it.
_MAX_NESTING = 1024
_TAG = re.compile(rb"<(/?)([a-zA-Z][^\s/>]*)[^>]*>")
_VOID = frozenset(
    b"area base br col embed hr img input link meta param source track wbr".split()
)


def _guess_undeclared(body: bytes) -> str:
    try:
        body.decode("utf-8")
    except UnicodeDecodeError:
        return "cp1252"
    return "utf-8"


def decode(html: bytes, encoding: str | None = None) -> str:
    """Decode a page's bytes to text (see the module docstring for the order)."""
    content_type = f"text/html; charset={encoding}" if encoding else None
    _, text = html_to_unicode(content_type, html, auto_detect_fun=_guess_undeclared)
    return text


def parse(html: str | bytes, encoding: str | None = None) -> etree._Element | None:
    """Parse a page into an lxml tree; ``None`` when it holds no markup or text."""
    text = html if isinstance(html, str) else decode(html, encoding)
    if not text.strip():
        return None
    data = text.encode("utf-8", "surrogatepass").replace(b"\0", b"")
    parser = _parser()
    try:
        root = etree.fromstring(data, parser)
        if root is not None and _hit_nesting_limit(parser):
            root = etree.fromstring(_flatten_nesting(data), parser)
    except etree.LxmlError as exc:
        raise ParseError(f"lxml could not parse the page: {exc}") from exc
    return root


def _parser() -> etree.HTMLParser:
    parser = getattr(_local, "parser", None)
    if parser is None:
        parser = _local.parser = etree.HTMLParser(**_PARSER_OPTIONS)
    return parser


def _hit_nesting_limit(parser: etree.HTMLParser) -> bool:
    return any(e.type_name == "ERR_RESOURCE_LIMIT" for e in parser.error_log)


def _flatten_nesting(data: bytes) -> bytes:
    """Drop start tags (and their matching end tags) nested beyond _MAX_NESTING.

    A page that nests thousands of elements is broken markup (unclosed inline
    tags, usually); its tags carry no structure worth keeping, its text does.
    """
    depth = 0
    dropped: dict[bytes, int] = {}
    out = []
    last = 0
    for match in _TAG.finditer(data):
        closing, name = match.group(1), match.group(2).lower()
        if name in _VOID or match.group(0).endswith(b"/>"):
            continue
        if not closing:
            depth += 1
            if depth <= _MAX_NESTING:
                continue
            dropped[name] = dropped.get(name, 0) + 1
        else:
            depth = max(depth - 1, 0)
            if not dropped.get(name):
                continue
            dropped[name] -= 1
        out.append(data[last : match.start()])
        last = match.end()
    out.append(data[last:])
    return b"".join(out)
