"""Links as a page writes them, made absolute against its base."""

import re
from urllib.parse import urljoin

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


def base_url(root: etree._Element, url: str | None) -> str | None:
    """The URL relative links resolve against: ``<base href>``, itself resolved
    against the page URL, or the page URL."""
    base = root.find("head/base[@href]")
    if base is None:
        return url
    return urljoin(url, base.get("href").strip()) if url else base.get("href").strip()


def base_origin(base: str | None) -> str | None:
    """``scheme://host`` of a base that is a plain absolute URL, else ``None``."""
    if not base or not PLAIN_ABSOLUTE_URL.match(base):
        return None
    return urljoin(base, "/")[:-1]


def absolute_url(href: str, base: str | None, origin: str | None = None) -> str:
    """``href`` resolved against ``base`` (as ``urljoin`` does), and as
    written when there is no base; ``origin`` is ``base_origin(base)``, which
    spares ``urljoin`` on paths from the site's root."""
    if not base or PLAIN_ABSOLUTE_URL.match(href):
        return href
    if origin and PLAIN_ROOT_PATH.match(href):
        return origin + href
    return urljoin(base, href)
