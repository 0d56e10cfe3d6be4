"""Text, emphasis and URLs written so that a CommonMark renderer reads back what the page says.

The Markdown is rendered by someone downstream, so nothing in it may turn into
markup the page did not have: every character that could is escaped (HTML's
``<`` included: no raw HTML), a line is never left to read as a heading, a
list item, a thematic break, a setext underline or a table's delimiter row,
and a link's URL is written so that a renderer reads back the URL itself
(entities, backslashes, spaces, brackets and ``<`` neutralised), and only when
it is http(s), ``mailto:`` or relative: ``javascript:`` in any spelling a
browser accepts (upper case, tabs or line breaks inside, control characters
or spaces before it) has a scheme of its own, and is dropped with the rest.

Emphasis is written only where CommonMark reads it as emphasis: the walk puts
marks around the emphasized text (``EMPHASIS_MARKS``), and the finished
paragraph replaces each pair with ``**``/``*``, or drops it, by the flanking
rules (``resolve_emphasis``): ``<b>Note:</b>text`` as ``**Note:**text`` would
show its asterisks.
"""

import re
import unicodedata

from scrapy_declutter.outputs.urls import absolute_url

# Escaped everywhere: the backslash, emphasis, code, link brackets, HTML,
# strikethrough (GFM), an ``&`` that would start an entity; an underscore only
# at a word's edge, where it can open or close emphasis (CommonMark's flanking
# rules): inside a word ("snake_case") it is literal.
_SPECIAL = re.compile(r"[\\*`\[\]<~]|&(?=#?\w+;)|(?<![^\W_])_|_(?![^\W_])")
_MAYBE_SPECIAL = re.compile(r"[\\*`\[\]<~&_]")
# What makes a line a heading, quote, list item, thematic break, setext
# underline or a table's delimiter row when it starts it.
_LINE_START = re.compile(
    r"^(?:(\d{1,9})([.)])(?=\s|$)|([#>=])|([+-])(?=\s|$)|([|:-])(?=[-|: ]*$))", re.MULTILINE
)
# A heading's closing sequence: ``## Item #`` would lose its ``#``.
_CLOSING_HASHES = re.compile(r"(?:(?<= )|^)#+$")
_BACKTICKS = re.compile(r"`+")
# C0 controls but white space, and DEL: a reference (``&#1;``) puts them in the
# tree after parsing dropped the page's own; the emphasis marks are four of them.
_CONTROLS = re.compile("[\x00-\x08\x0e-\x1b\x7f]")
_CONTROLS_IN_CODE = re.compile("[\x00-\x08\x0b\x0e-\x1f\x7f]")
# An emphasis's opening and closing marks, made "**" or "*" by ``resolve_emphasis``.
EMPHASIS_MARKS = {"**": ("\x02", "\x03"), "*": ("\x04", "\x05")}
_MARKED = re.compile("([\x02\x04])(.*?)[\x03\x05]", re.DOTALL)
# Punctuation moved out of an emphasis, to its edge, where it lets the mark
# parse ("**Note**:text"): none that is markup or escaped, and "!" only at the
# end, where the next character is a letter (before a link it makes an image).
_NOT_MOVED = frozenset("\\`[]()<>*_&!~")

# A link's schemes; a URL without one is relative.
SAFE_SCHEMES = frozenset(("http", "https", "mailto"))
_SCHEME = re.compile(r"([A-Za-z][A-Za-z0-9+.-]*):")
# What browsers drop from a URL: C0 controls and spaces at its ends, tabs and
# line breaks anywhere (the WHATWG URL parser).
_URL_ENDS = "".join(map(chr, range(0x21)))
_URL_DROPPED = str.maketrans("", "", "\t\n\r")
# Characters that would end a link destination, or be read as markup in it:
# percent-encoded; a backslash and an ``&`` that would start an entity are escaped.
_URL_ENCODED = str.maketrans(
    {c: f"%{ord(c):02X}" for c in [*map(chr, range(0x21)), "\x7f", "<", ">", "(", ")", "`"]}
)
_URL_ESCAPED = re.compile(r"\\|&(?=#?\w+;)")
# Any of those: most URLs have none.
_URL_SPECIAL = re.compile(r"[\x00-\x20\x7f<>()`\\&]")


def escape(text: str) -> str:
    """``text`` with the characters that would turn into markup escaped."""
    if _MAYBE_SPECIAL.search(text) is None:  # most text: one fast scan
        return text
    return _SPECIAL.sub(r"\\\g<0>", text)


def collapse_space(text: str) -> str:
    """``text`` with every run of white space made one space (a third of the
    time a regex takes: ``str.split`` knows the same white space as ``\\s``)."""
    words = " ".join(text.split())
    lead = " " if text[:1].isspace() else ""
    trail = " " if words and text[-1].isspace() else ""
    return f"{lead}{words}{trail}"


def clean_text(text: str) -> str:
    """``text`` with control characters dropped and white space collapsed."""
    return collapse_space(text if text.isprintable() else _CONTROLS.sub("", text))


def clean_code(code: str) -> str:
    """A code block's text, line breaks as CommonMark knows them (a carriage
    return is one) and control characters dropped."""
    return _CONTROLS_IN_CODE.sub("", code.replace("\r\n", "\n").replace("\r", "\n"))


def escape_line_starts(text: str) -> str:
    if "\n" not in text and _LINE_START.match(text) is None:  # most text: one test
        return text
    return _LINE_START.sub(_escaped_line_start, text)


def _escaped_line_start(match: re.Match) -> str:
    number, delimiter, sign, bullet, rule = match.groups()
    if number:  # "1." or "1)": escape the delimiter
        return f"{number}\\{delimiter}"
    return "\\" + (sign or bullet or rule)


def heading(level: int, text: str) -> str:
    return "#" * level + " " + _CLOSING_HASHES.sub(r"\\\g<0>", text.replace("\n", " "))


def code_span(code: str) -> str:
    code = code.replace("\n", " ")  # a line break could end the paragraph: a span holds none
    fence = "`" * (max(map(len, _BACKTICKS.findall(code)), default=0) + 1)
    pad = " " if code.startswith("`") or code.endswith("`") else ""
    return f"{fence}{pad}{code}{pad}{fence}"


# Emphasis.


def resolve_emphasis(text: str) -> str:
    """``text`` with each pair of ``EMPHASIS_MARKS`` made ``**`` or ``*`` where
    CommonMark reads them so, and dropped where it would not. Pairs are never
    nested (the walk marks no emphasis inside another)."""
    if "\x02" not in text and "\x04" not in text:
        return text
    out: list[str] = []
    before = ""  # the character before the next pair, as written
    end = 0
    for pair in _MARKED.finditer(text):
        out.append(text[end : pair.start()])
        before = out[-1][-1:] or before
        end = pair.end()
        after = text[end : end + 1]
        if after in ("\x02", "\x04"):  # the next pair: dropped if this one is kept
            after = text[end + 1 : end + 2]
        marker = "**" if pair.group(1) == "\x02" else "*"
        written = _emphasized(pair.group(2), marker, before, after)
        out.append(written)
        before = written[-1:] or before
    out.append(text[end:])
    return "".join(out)


def _emphasized(core: str, marker: str, before: str, after: str) -> str:
    """``core`` between ``marker``s, with the punctuation at its edges (and the
    white space after or before it) moved outside when CommonMark would not
    read the marks beside it; ``core`` alone when it would not read them
    anyway. ``before`` and ``after`` are the characters around (``""`` at a
    line's edge)."""
    lead = trail = ""
    if core and _punctuation(core[0]) and not _space_or_punctuation(before):
        moved = _movable_run(core)
        rest = core[len(moved) :]
        core = rest.lstrip(" \n")
        lead = moved + rest[: len(rest) - len(core)]
        before = lead[-1:] or before
    if core and _punctuation(core[-1]) and not _space_or_punctuation(after):
        moved = _movable_run(core[::-1], "!")[::-1]
        rest = core[: len(core) - len(moved)]
        core = rest.rstrip(" \n")
        trail = rest[len(core) :] + moved
    opens = core[:1] not in ("", " ", "\n") and (
        not _punctuation(core[0]) or _space_or_punctuation(before)
    )
    closes = core[-1:] not in ("", " ", "\n") and (
        not _punctuation(core[-1]) or _space_or_punctuation(after)
    )
    if not (opens and closes) or before == "*":  # "**a****b**": one run of marks
        return lead + core + trail
    return f"{lead}{marker}{core}{marker}{trail}"


def _movable_run(text: str, also: str = "") -> str:
    """The punctuation that starts ``text`` and may be moved out of an
    emphasis (``_NOT_MOVED`` aside, but for the characters in ``also``)."""
    count = 0
    while count < len(text) and _punctuation(character := text[count]):
        if character in _NOT_MOVED and character not in also:
            break
        count += 1
    return text[:count]


def _punctuation(character: str) -> bool:
    """CommonMark's punctuation: Unicode's punctuation and symbols."""
    return unicodedata.category(character)[0] in "PS"


def _space_or_punctuation(character: str) -> bool:
    """Whether a mark beside ``character`` (``""``: a line's edge) may open
    or close before or after punctuation. The text's white space is a space
    or a line break by now."""
    return character in ("", " ", "\n") or _punctuation(character)


# Links.


def link_url(href: str | None, base: str | None, origin: str | None) -> str | None:
    """A link's or an image's URL, absolute against ``base`` and written as a
    link destination; ``None`` for none, or one with a scheme other than
    ``SAFE_SCHEMES``. ``origin`` is ``base_origin(base)``."""
    href = (href or "").strip(_URL_ENDS)
    if not href:
        return None
    if "\t" in href or "\n" in href or "\r" in href:
        href = href.translate(_URL_DROPPED)
    url = absolute_url(href, base, origin)
    if url is None:
        return None
    scheme = _SCHEME.match(url)
    if scheme and scheme.group(1).lower() not in SAFE_SCHEMES:
        return None
    if _URL_SPECIAL.search(url) is None:
        return url
    return _URL_ESCAPED.sub(r"\\\g<0>", url.translate(_URL_ENCODED))
