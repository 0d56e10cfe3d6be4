"""What a page may cost, checked on its bytes before libxml2 parses it.

Two kinds of page are refused with a ``PageLimitError`` whose ``reason`` the
Scrapy layer counts:

- ``"attributes"``: an element with more than ``MAX_ATTRIBUTES`` attributes.
  libxml2 compares each attribute's name with every earlier one of its
  element, so its parse time grows with the square of their number (100,000
  attributes on one element, 1.5 MB of HTML: 16-30 s, all of it in C).
- ``"memory"``: a page whose estimated peak memory (``peak_memory_estimate``)
  is over the ``page_memory_limit_mb`` option.

The checks search the bytes for long stretches without a ">" a window at
a time and count the "<" and "</" of large pages: some 0.2 ms for a usual
page, some 40 ms for 10 MB of tiny tags.
"""

import re
from collections.abc import Iterator

from scrapy_declutter.core.errors import PageLimitError

# libxml2 parses 5,000 attributes on one element in some 50 ms (0.3 s for
# 10,000, 1.3 s for 20,000): far from a stall. Lower limits refused real
# pages, whose long srcset, SVG path or base64 values in a tag the count
# below, which splits at white space, takes for many attributes.
MAX_ATTRIBUTES = 5_000
# Measured peak memory of ``extract(...).to_dict()`` on 4 MB pages of one
# shape each (``benchmarks/hostile.py peaks``): at most 14 bytes per byte of
# page (a single text node) plus at most 2,500 bytes per start tag (small
# blocks whose XPaths are close to ``blocks.MAX_PATH_CHARS``; 1,700 for list
# items without end tags); an article costs 2 bytes per byte. A start tag is
# counted as a "<" that is not a "</": two counts of bytes, 7 times faster
# than a regular expression's matches.
BYTES_PER_BYTE = 20
BYTES_PER_TAG = 3_000
# An element with MAX_ATTRIBUTES attributes is at least twice as many bytes
# long (" a" each), in a stretch without ">".
_LONG_TAG = 2 * MAX_ATTRIBUTES
_QUOTED = re.compile(rb""""[^"]*"|'[^']*'""")
# Where a "<" starts no tag: a script's or a style's text, a comment. Looked
# for in the stretch of page before a long tag, which bounds the cost at
# RAW_TEXT_LOOKBACK bytes per long tag (a few per page at most, one per
# _LONG_TAG bytes at worst).
RAW_TEXT_LOOKBACK = 16 * 1024
_RAW_TEXT_EDGE = re.compile(rb"<(/?)(script|style)\b|<!--|-->", re.IGNORECASE)


def check_page(data: bytes, memory_limit_mb: int = 0) -> None:
    """Raise ``PageLimitError`` if the page (its UTF-8 bytes) has an element
    with too many attributes, or if its estimated peak memory is over
    ``memory_limit_mb`` (0: no limit)."""
    limit = memory_limit_mb * 2**20
    # every byte can start a tag: smaller pages need no count
    if limit and len(data) * (BYTES_PER_BYTE + BYTES_PER_TAG) > limit:
        estimate = peak_memory_estimate(data)
        if estimate > limit:
            raise PageLimitError(
                "memory",
                f"the page ({len(data):,} bytes) would take some {estimate // 2**20:,} MB "
                f"to extract, over page_memory_limit_mb ({memory_limit_mb:,})",
                "page_memory_limit_mb",
            )
    for start, end in _stretches_without_gt(data, _LONG_TAG):
        tag_start = data.rfind(b"<", start, end)
        if tag_start < 0 or end - tag_start < _LONG_TAG:
            continue  # text, or a tag too short to hold that many attributes
        if not data[tag_start + 1 : tag_start + 2].isalpha() or _in_raw_text(data, tag_start):
            continue  # not a start tag: "<!--", "< 3", or a "<" in a script
        # name=value, name = value and a bare name are one attribute each
        tag = _QUOTED.sub(b"''", data[tag_start:end]).replace(b"=", b" = ")
        attributes = len(tag.split()) - 2 * tag.count(b"=") - 1
        if attributes > MAX_ATTRIBUTES:
            raise PageLimitError(
                "attributes",
                f"an element has {attributes:,} attributes, over {MAX_ATTRIBUTES:,}: "
                "libxml2 takes time in their square to parse them",
            )


def _in_raw_text(data: bytes, position: int) -> bool:
    """Whether ``position`` seems to lie in a script, a style or a comment,
    judged by the last such edge in the ``RAW_TEXT_LOOKBACK`` bytes before it."""
    last = None
    for edge in _RAW_TEXT_EDGE.finditer(data, max(0, position - RAW_TEXT_LOOKBACK), position):
        last = edge
    return last is not None and last.group() != b"-->" and not last.group(1)


def _stretches_without_gt(data: bytes, length: int) -> Iterator[tuple[int, int]]:
    """The stretches of at least ``length`` bytes without a ">", as (start,
    end). Such a stretch holds a whole window of ``length // 2`` bytes that
    starts at a multiple of it: only windows are searched, a few per
    kilobyte, and each stretch is walked once (a regular expression over
    every byte takes 2 ns a byte, 4 % of the time of a usual page)."""
    window = length // 2
    position = 0
    while position < len(data):
        if data.find(b">", position, position + window) >= 0:
            position += window
            continue
        start = data.rfind(b">", 0, position) + 1
        end = data.find(b">", position)
        end = len(data) if end < 0 else end
        if end - start >= length:
            yield start, end
        position = end + 1


def peak_memory_estimate(data: bytes) -> int:
    """An upper bound of the peak memory, in bytes, that extracting the page
    and its ``to_dict()`` take, from its size and its number of start tags."""
    start_tags = data.count(b"<") - data.count(b"</")
    return BYTES_PER_BYTE * len(data) + BYTES_PER_TAG * start_tags
