"""Bytes to text to an lxml tree: decoding and parsing, nothing else.

Decoding honours, in order, a byte-order mark, the caller's ``encoding``, the
page's ``<meta charset>`` / ``http-equiv``, and then falls back to UTF-8 when the
bytes are valid UTF-8 and to windows-1252 otherwise (the usual encoding of
undeclared legacy pages). Bytes that are valid UTF-8 and not ASCII are UTF-8
whatever the page itself declares, UTF-16 and UTF-32 aside (the caller's
``encoding`` is still honoured): such a page was saved, or served under an
HTTP header that said UTF-8, with a stale ``<meta charset>``, and text in a
legacy encoding is all but never valid UTF-8 ("é" in windows-1252 is a lone
byte 0xE9, which UTF-8 never has before a letter). Undecodable bytes are
replaced, never fatal; so is a declared encoding that is not one of the Web's
(the WHATWG Encoding Standard's; ``rot13``, ``idna``, ``punycode``, ...), which
is ignored, and a UTF-16 or UTF-32
declaration on bytes that hold no zero byte, which is read as UTF-8 (as the
WHATWG encoding sniffing rules say).
Bytes that are not text at all (an image or a compressed stream served as
HTML: many control characters) raise ``BinaryInputError``.
Every character XML 1.0 forbids is dropped before parsing, whether written as
itself or as a character reference (``&#1;``, ``&#x1b``, ``&#xFFFE;``,
``&#65535;``): C0 controls other than tab, line feed and carriage return, and
the noncharacters U+FFFE and U+FFFF; vertical tab and form feed become spaces
(libxml2 reads a lone surrogate as U+FFFD already). So no text, Markdown,
metadata, block or comment read from the tree holds one: XML feed exporters
write them, and no XML parser reads the feed back.

Parsing never touches the network (no DTDs, no external entities) and lifts
libxml2's size limits, so 20 MB text nodes survive. libxml2 still refuses to
nest deeper than a fixed limit and drops everything after that point; when that
happens the page is parsed a second time with the excess nesting flattened, so
its text is kept. ``</html>`` end tags are dropped before parsing: libxml2
discards everything after one, browsers render it. A ``<title>`` that is never
closed swallows the rest of the page as its text; when a page parses to no
``<body>`` for that reason, it is parsed again with the title closed at the
end of its line.
"""

import codecs
import re
import threading

from lxml import etree
from w3lib.encoding import (
    DEFAULT_ENCODING_TRANSLATION,
    html_body_declared_encoding,
    http_content_type_encoding,
    read_bom,
    to_unicode,
)

from scrapy_declutter.core.errors import BinaryInputError, ParseError
from scrapy_declutter.core.limits import check_page

_PARSER_OPTIONS = dict(
    encoding="utf-8",
    remove_comments=True,
    remove_pis=True,
    no_network=True,
    huge_tree=True,
    default_doctype=False,
    collect_ids=False,  # an index of id attributes, for XPath's id(): unused, and it slows parsing
)
# The WHATWG Encoding Standard's encodings that Python has (and UTF-32), by
# Python's name: a page declared in another codec (``punycode``, ``rot13``, ...)
# is read as undeclared, as a browser would, rather than trusting that codec's
# own error handling (punycode's differs between Python 3.11 and 3.13).
_WEB_CODECS = frozenset(
    codecs.lookup(label).name
    for label in (
        "utf-8 utf-16-be utf-16-le utf-32-be utf-32-le "
        "ibm866 koi8-r koi8-u mac-roman mac-cyrillic cp874 "
        "cp1250 cp1251 cp1252 cp1253 cp1254 cp1255 cp1256 cp1257 cp1258 "
        "iso-8859-2 iso-8859-3 iso-8859-4 iso-8859-5 iso-8859-6 iso-8859-7 iso-8859-8 "
        "iso-8859-10 iso-8859-13 iso-8859-14 iso-8859-15 iso-8859-16 "
        "gbk gb18030 big5 euc-jp iso-2022-jp shift_jis euc-kr"
    ).split()
    # and what w3lib reads some of them as (big5 as big5hkscs, shift_jis as cp932, ...)
    + list(DEFAULT_ENCODING_TRANSLATION.values())
)
# An lxml parser (and its error log) must not be shared between threads, and
# the Scrapy layer runs extraction in a thread pool.
_local = threading.local()
# libxml2's nesting limit with huge_tree is 2048; keep well below it, and
# further still if the first flattening was not enough.
_NESTING_LIMITS = (1024, 128)
_TAG = re.compile(rb"<(/?)([a-zA-Z][^\s/>]*)[^>]*>")
_END_HTML = re.compile(rb"</html\s*>", re.IGNORECASE)
_TITLE_END = re.compile(rb"</title", re.IGNORECASE)
_TITLE_LINE = re.compile(rb"(<title[^>]*>[^<\n]*)", re.IGNORECASE)
# C0 controls but tab, line feed, form feed and carriage return; in UTF-8 these
# bytes stand only for themselves. Vertical tab and form feed become spaces.
_CONTROLS = bytes([*range(0x00, 0x09), *range(0x0E, 0x20)])
_WHITE_CONTROLS = bytes.maketrans(b"\x0b\x0c", b"  ")
# U+FFFE and U+FFFF in UTF-8; no other character's bytes hold these.
_NONCHARACTERS = re.compile(b"\xef\xbf[\xbe\xbf]")
# A character reference to one of them, or to vertical tab or form feed, which
# libxml2 would turn into the character: decimal or hex, leading zeros, the
# semicolon optional (libxml2 reads "&#1b" as U+0001 and "b").
_CONTROL_REFERENCE = re.compile(
    rb"&#(?:[xX]0*(?:[1-8bBcCeEfF]|1[0-9a-fA-F]|[fF]{3}[eEfF])(?![0-9a-fA-F])"
    rb"|0*(?:[1-8]|1[124-9]|2[0-9]|3[01]|6553[45])(?![0-9]));?"
)
_CONTROL_CHARS = re.compile("[\x00-\x08\x0b\x0e-\x1f]")
# Binary data is told apart from text by its control characters among the
# first characters: near 10 % in compressed or random bytes, nil in pages. A
# few stray ones (fewer than _MIN_BINARY_CONTROLS) never make a page binary.
_SNIFF_CHARS = 1024
_MAX_CONTROL_SHARE = 0.05
_MIN_BINARY_CONTROLS = 16
# The elements a browser's parser keeps in <head>; any other ends it.
_HEAD_TAGS = frozenset(
    "base basefont bgsound link meta noscript script style template title".split()
)
_VOID = frozenset(b"area base br col embed hr img input link meta param source track wbr".split())


def _decode_undeclared(body: bytes) -> tuple[str, str]:
    head = body[:_SNIFF_CHARS]
    if len(head) >= 8:  # UTF-16 without a BOM: mostly ASCII, so every other byte is 0
        for encoding, zeros, others in (
            ("utf-16-le", head[1::2], head[::2]),
            ("utf-16-be", head[::2], head[1::2]),
        ):
            if zeros.count(0) > 0.8 * len(zeros) and not others.count(0):
                return body.decode(encoding, "replace"), encoding
    try:
        return body.decode("utf-8"), "utf-8"
    except UnicodeDecodeError:
        return body.decode("cp1252", "replace"), "cp1252"


def _decode(html: bytes, encoding: str | None) -> tuple[str, str]:
    """The page's text and the encoding it was decoded with (w3lib's
    ``html_to_unicode`` in parts, so that undeclared bytes are decoded once)."""
    bom_encoding, bom = read_bom(html)
    if bom_encoding and bom:
        return to_unicode(html[len(bom) :], bom_encoding), bom_encoding
    content_type = f"text/html; charset={encoding}" if encoding else None
    declared = http_content_type_encoding(content_type)
    if declared is None:
        declared = html_body_declared_encoding(html)
        if declared is None:
            return _decode_undeclared(html)
        if not declared.startswith(("utf-16", "utf-32")) and not html.isascii():
            try:  # a stale declaration on a page saved or served as UTF-8
                return html.decode("utf-8"), "utf-8"
            except UnicodeDecodeError:
                pass
    if declared in ("utf-16", "utf-32"):
        declared += "-be"
    if declared.startswith(("utf-16", "utf-32")) and b"\0" not in html[:_SNIFF_CHARS]:
        declared = "utf-8"  # declared so, but 8-bit bytes: such a declaration means UTF-8 (WHATWG)
    # w3lib gives only names Python can look up
    if codecs.lookup(declared).name not in _WEB_CODECS:
        return _decode_undeclared(html)
    return to_unicode(html, declared), declared


def decode(html: bytes, encoding: str | None = None) -> str:
    """Decode a page's bytes to text (see the module docstring for the order)."""
    return _decode(html, encoding)[0]


def is_binary(text: str) -> bool:
    """Whether decoded ``text`` is binary data rather than a page (see ``_MAX_CONTROL_SHARE``)."""
    head = text[:_SNIFF_CHARS]
    controls = len(_CONTROL_CHARS.findall(head))
    return controls >= _MIN_BINARY_CONTROLS and controls > _MAX_CONTROL_SHARE * len(head)


def parse(
    html: str | bytes, encoding: str | None = None, memory_limit_mb: int = 0
) -> etree._Element | None:
    """Parse a page into an lxml tree; ``None`` when it holds no markup or text.
    A page that would cost too much (``limits.check_page``, with
    ``memory_limit_mb``) raises ``PageLimitError`` before it is parsed."""
    if isinstance(html, str):
        text, data = html, None
    else:
        text, used = _decode(html, encoding)
        # Valid UTF-8 (nothing was replaced) is what lxml reads: the bytes can
        # be given as they are, rather than the text encoded back.
        utf8 = used == "utf-8" and "\ufffd" not in text
        data = html.removeprefix(codecs.BOM_UTF8) if utf8 else None
    if text.isspace() or not text:
        return None
    if is_binary(text):
        raise BinaryInputError("the page is binary data, not text")
    if data is None:
        data = text.encode("utf-8", "surrogatepass")
    del text  # the page's str can be large; only the bytes are needed from here
    data = _END_HTML.sub(b"", data.translate(_WHITE_CONTROLS, _CONTROLS))
    if b"\xef\xbf" in data:  # few pages: a find is cheaper than the substitution's scan
        data = _NONCHARACTERS.sub(b"", data)
    if _CONTROL_REFERENCE.search(data):  # few pages: the search costs 4% of a parse
        data = _CONTROL_REFERENCE.sub(_control_replacement, data)
    check_page(data, memory_limit_mb)
    parser = _parser()
    try:
        root = etree.fromstring(data, parser)
        for limit in _NESTING_LIMITS:
            if root is None or not _hit_nesting_limit(parser):
                break
            root = etree.fromstring(_flatten_nesting(data, limit), parser)
        if root is not None and root.find("body") is None and not _TITLE_END.search(data):
            closed = _TITLE_LINE.sub(rb"\1</title>", data, count=1)
            if closed != data:
                root = etree.fromstring(closed, parser)
    except etree.LxmlError as exc:
        raise ParseError(f"lxml could not parse the page: {exc}") from exc
    if root is not None:
        _end_head_at_content(root)
    return root


def _end_head_at_content(root: etree._Element) -> None:
    """Move what libxml2 left in ``<head>`` from its first element that
    belongs in a body and holds text (an unknown tag such as a CMS's
    ``<x:include>``, a ``<div>``) to the start of ``<body>``, as a browser's
    parser would: libxml2 keeps such an element in the head, often with the
    rest of the page inside it, where no stage looks. Empty unknown elements
    (a feed's ``<atom:link/>``) stay where they are."""
    head = root.find("head")
    if head is None:
        return
    start = next(
        (
            index
            for index, child in enumerate(head)
            if isinstance(child.tag, str) and child.tag not in _HEAD_TAGS and _holds_text(child)
        ),
        None,
    )
    if start is None:
        return
    body = root.find("body")
    if body is None:
        body = etree.SubElement(root, "body")
    for position, moved in enumerate(head[start:]):
        body.insert(position, moved)


def _holds_text(element: etree._Element) -> bool:
    return any(not text.isspace() for text in element.itertext())


def _control_replacement(reference: re.Match) -> bytes:
    """A space for a reference to vertical tab or form feed; nothing for the others."""
    digits = reference[0].rstrip(b";")[2:].lower()
    code = int(digits[1:], 16) if digits.startswith(b"x") else int(digits)
    return b" " if code in (0x0B, 0x0C) else b""


def _parser() -> etree.HTMLParser:
    parser = getattr(_local, "parser", None)
    if parser is None:
        parser = _local.parser = etree.HTMLParser(**_PARSER_OPTIONS)
    return parser


def _hit_nesting_limit(parser: etree.HTMLParser) -> bool:
    # The limit is a fatal error: libxml2 stops there, so it is the last one
    # (a broken page can log thousands of others, not worth walking).
    last = parser.error_log.last_error
    return last is not None and last.type_name == "ERR_RESOURCE_LIMIT"


def _flatten_nesting(data: bytes, limit: int) -> bytes:
    """Drop start tags (and their matching end tags) nested beyond ``limit``.

    A page that nests thousands of elements is broken markup (unclosed inline
    tags, usually); its tags carry no structure worth keeping, its text does.
    Open elements are tracked as a stack: an end tag closes the innermost open
    element of its name and those inside it, and is ignored when none is open
    (as libxml2 ignores it), so stray end tags cannot hide the nesting.
    """
    stack: list[tuple[bytes, bool]] = []  # open elements: name, dropped
    open_count: dict[bytes, int] = {}
    out = []
    last = 0
    for match in _TAG.finditer(data):
        closing, name = match.group(1), match.group(2).lower()
        if name in _VOID or match.group(0).endswith(b"/>"):
            continue
        if not closing:
            dropped = len(stack) >= limit
            stack.append((name, dropped))
            open_count[name] = open_count.get(name, 0) + 1
            if not dropped:
                continue
        else:
            if not open_count.get(name):
                continue
            while True:  # each element is pushed and popped once: linear overall
                open_name, dropped = stack.pop()
                open_count[open_name] -= 1
                if open_name == name:
                    break
            if not dropped:
                continue
        out.append(data[last : match.start()])
        last = match.end()
    out.append(data[last:])
    return b"".join(out)
