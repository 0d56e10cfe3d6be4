"""Links as a page writes them, made absolute against its base."""

import re
from urllib.parse import urljoin, urlsplit

from lxml import etree

# An absolute http(s) URL that ``urljoin`` would give back unchanged: nothing it
# drops or normalises (white space, an empty host, query or fragment, parameters,
# an upper-case scheme, IPv6 brackets). Half the links are such; urljoin costs more
# than the rest of a link's Markdown.
PLAIN_ABSOLUTE_URL = re.compile(
    r"https?://[^/?\s;#\[\]\x00-\x1f\x7f][^\s;#\[\]\x00-\x1f\x7f]*(?<!\?)\Z"
)
# A path from the site's root that ``urljoin`` appends to the base's origin as it
# is: one slash first, no dot segment, parameters, query or fragment, white space
# or control character. Most other relative links are such.
PLAIN_ROOT_PATH = re.compile(r"/(?![/.])(?!.*/\.)[^\s;?#\\\x00-\x1f\x7f]*\Z")
# An http(s) URL's start, in any case, with something for a host after it.
_HTTP_START = re.compile(r"https?://[^/?#\s]", re.IGNORECASE)


def base_url(root: etree._Element, url: str | None) -> str | None:
    """The URL relative links resolve against: ``<base href>``, itself resolved
    against the page URL, or the page URL."""
    base = root.find("head/base[@href]")
    if base is None:
        return url
    href = base.get("href").strip()
    try:
        return urljoin(url, href) if url else href
    except ValueError:  # a broken one ("http://[x"): the page URL
        return url


def base_origin(base: str | None) -> str | None:
    """``scheme://host`` of a base that is a plain absolute URL, else ``None``."""
    if not base or not PLAIN_ABSOLUTE_URL.match(base):
        return None
    return urljoin(base, "/")[:-1]


def absolute_url(href: str, base: str | None, origin: str | None = None) -> str | None:
    """``href`` resolved against ``base`` (as ``urljoin`` does), and as
    written when there is no base; ``origin`` is ``base_origin(base)``, which
    spares ``urljoin`` on paths from the site's root. ``None`` for a link
    ``urljoin`` refuses ("http://[x", an unclosed IPv6 host): it leads nowhere."""
    if not base or PLAIN_ABSOLUTE_URL.match(href):
        return href
    if origin and PLAIN_ROOT_PATH.match(href):
        return origin + href
    try:
        return urljoin(base, href)
    except ValueError:
        return None


def http_url(url: str | None) -> str | None:
    """``url`` if it is an absolute http or https URL with a host, else
    ``None``: ``javascript:``, ``data:``, ``vbscript:`` or any other scheme in
    any spelling, a path left relative, a URL ``urlsplit`` refuses."""
    if not url or not _HTTP_START.match(url):
        return None
    try:
        urlsplit(url)
    except ValueError:
        return None
    return url
