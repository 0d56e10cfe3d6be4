"""What a page may cost, checked on its bytes before libxml2 parses it.

Two kinds of page are refused with a ``PageLimitError`` whose ``reason`` the
Scrapy layer counts:

- ``"attributes"``: an element with more than ``MAX_ATTRIBUTES`` attributes.
  libxml2 compares each attribute's name with every earlier one of its
  element, so its parse time grows with the square of their number (100,000
  attributes on one element, 1.5 MB of HTML: 16-30 s, all of it in C).
- ``"memory"``: a page whose estimated peak memory (``peak_memory_estimate``)
  is over the ``page_memory_limit_mb`` option.

The checks read the bytes with two linear regular expressions and
``bytes.count``: a few milliseconds a megabyte.
"""

import re

from scrapy_declutter.core.errors import PageLimitError

MAX_ATTRIBUTES = 500
# Measured peak memory of ``extract(...).to_dict()`` on 4 MB pages of one
# shape each (benchmarks/hostile.py --memory): at most 16 bytes per byte of
# page (a single text node) plus at most 3,000 bytes per start tag (small
# blocks with attributes); an article costs 2 bytes per byte.
BYTES_PER_BYTE = 20
BYTES_PER_START_TAG = 3_000
# An element with MAX_ATTRIBUTES attributes is at least twice as many bytes
# long (" a" each); a stretch without ">" is where such a tag can be. The
# pattern starts with a literal ">", which the regex engine searches for
# fast, and each stretch is scanned once.
_LONG_STRETCH = re.compile(rb">[^>]{%d,}" % (2 * MAX_ATTRIBUTES))
_QUOTED = re.compile(rb""""[^"]*"|'[^']*'""")


def check_page(data: bytes, memory_limit_mb: int = 0) -> None:
    """Raise ``PageLimitError`` if the page (its UTF-8 bytes) has an element
    with too many attributes, or if its estimated peak memory is over
    ``memory_limit_mb`` (0: no limit)."""
    limit = memory_limit_mb * 2**20
    # every byte can be a "<": smaller pages need no count
    if limit and len(data) * (BYTES_PER_BYTE + BYTES_PER_START_TAG) > limit:
        estimate = peak_memory_estimate(data)
        if estimate > limit:
            raise PageLimitError(
                "memory",
                f"the page ({len(data):,} bytes) would take some {estimate // 2**20:,} MB "
                f"to extract, over page_memory_limit_mb ({memory_limit_mb:,})",
            )
    head = data.find(b">")
    stretches = [(0, len(data) if head < 0 else head)]
    stretches += (match.span() for match in _LONG_STRETCH.finditer(data))
    for start, end in stretches:
        tag_start = data.rfind(b"<", start, end)
        if tag_start < 0:
            continue  # text, no tag
        # name=value, name = value and a bare name are one attribute each
        tag = _QUOTED.sub(b"''", data[tag_start:end]).replace(b"=", b" = ")
        attributes = len(tag.split()) - 2 * tag.count(b"=") - 1
        if attributes > MAX_ATTRIBUTES:
            raise PageLimitError(
                "attributes",
                f"an element has {attributes:,} attributes, over {MAX_ATTRIBUTES:,}: "
                "libxml2 takes time in their square to parse them",
            )


def peak_memory_estimate(data: bytes) -> int:
    """An upper bound of the peak memory, in bytes, that extracting the page
    and its ``to_dict()`` take, from its size and its number of start tags
    (pages nested thousands deep excepted: see docs/robustness.rst)."""
    start_tags = data.count(b"<") - data.count(b"</")
    return BYTES_PER_BYTE * len(data) + BYTES_PER_START_TAG * start_tags
