"""What a page says about itself: title, author, date, site, description,
language, canonical URL and image.

Every field is read from what pages publish for machines, in this order of
trust: schema.org JSON-LD (the article's own object, found in ``@graph`` too),
``<meta>`` tags (OpenGraph, Twitter cards, Dublin Core, ``article:*`` and the
usual names), microdata (``itemprop``), then what the page shows people:
``<time datetime>``, ``rel=author`` links, bylines, ``<h1>`` and ``<title>``.
A field the page does not give is ``None``: nothing is guessed from the URL.

Dates are written ``YYYY-MM-DD``: the date part of an ISO 8601 timestamp as
written (the publisher's local date, not converted to UTC), or a written date
("4 September 2025", "Sep 4, 2025", "04.09.2025") in English. A page that gives
no publication date but a modification date gets that one. Several authors are
joined by ``"; "``. The title is the headline: a ``<title>`` or ``og:title``
that carries the site's name after a separator ("Headline | Site") loses it.
"""

import html
import json
import re
from collections.abc import Iterator
from dataclasses import asdict, dataclass, fields
from datetime import date
from functools import cached_property
from itertools import chain, compress
from urllib.parse import urljoin

from lxml import etree

from scrapy_declutter.core.blocks import Block
from scrapy_declutter.core.document import BlockTree, find_elements
from scrapy_declutter.core.languages import ISO_639_1, stoplist_for
from scrapy_declutter.core.markdown import PLAIN_ABSOLUTE_URL
from scrapy_declutter.core.reasons import HEADLINE

# The attributes, not their elements: libxml2 finds these faster.
_ITEMPROP = etree.XPath("descendant::*/@itemprop")
# An element's text, compiled once (``element.xpath`` compiles at each call).
_STRING = etree.XPath("string()")
# Words in a class or id that mark a byline or a date (most frequent first).
_MARK_WORDS = ("date", "time", "author", "byline", "writer", "posted", "publish")
_BYLINE = re.compile(r"byline|author|writer")
# <meta> names and properties (lower-cased), most trusted first.
_TITLE_KEYS = ("og:title", "twitter:title", "dc.title", "dcterms.title")
_AUTHOR_KEYS = (
    "author",
    "article:author",
    "og:article:author",
    "dc.creator",
    "dcterms.creator",
    "parsely-author",
    "sailthru.author",
    "citation_author",
    "byl",
)
_DATE_KEYS = (
    "article:published_time",
    "og:article:published_time",
    "og:published_time",
    "datepublished",
    "article.published",
    "published_time",
    "publish-date",
    "publish_date",
    "publishdate",
    "pubdate",
    "parsely-pub-date",
    "sailthru.date",
    "dc.date.issued",
    "dcterms.issued",
    "dc.date",
    "dcterms.date",
    "dcterms.created",
    "citation_publication_date",
    "citation_date",
)
# Other <meta> keys that name a publication date ("w-published-date", ...).
_OTHER_DATE_KEY = re.compile(r"publish|pub_?date|release|issued|created")
_MODIFIED_KEY = re.compile(r"modif|updat")
_MODIFIED_KEYS = ("article:modified_time", "og:updated_time", "datemodified", "dcterms.modified")
_SITE_KEYS = ("og:site_name", "application-name", "twitter:site")
_DESCRIPTION_KEYS = ("og:description", "description", "twitter:description", "dc.description")
_IMAGE_KEYS = ("og:image", "og:image:url", "og:image:secure_url", "twitter:image", "image")
_ARTICLE_TYPES = re.compile(r"Article|BlogPosting|Posting|Report|Review|Recipe|HowTo|Story")
_MONTHS = {
    name: number
    for number, names in enumerate(
        (
            ("january", "jan"),
            ("february", "feb"),
            ("march", "mar"),
            ("april", "apr"),
            ("may",),
            ("june", "jun"),
            ("july", "jul"),
            ("august", "aug"),
            ("september", "sep", "sept"),
            ("october", "oct"),
            ("november", "nov"),
            ("december", "dec"),
        ),
        start=1,
    )
    for name in names
}
_MONTH = r"(" + "|".join(sorted(_MONTHS, key=len, reverse=True)) + r")\.?"
_ISO_DATE = re.compile(r"\b(\d{4})[-/.](\d{1,2})[-/.](\d{1,2})(?!\d)")
_COMPACT_DATE = re.compile(r"^(\d{4})(\d{2})(\d{2})(?:T|$)")
_DAY_MONTH_YEAR = re.compile(
    rf"\b(\d{{1,2}})(?:st|nd|rd|th)?\s+(?:of\s+)?{_MONTH},?\s+(\d{{4}})\b", re.I
)
_YEAR_MONTH_DAY = re.compile(rf"\b(\d{{4}})\s+{_MONTH}\s+(\d{{1,2}})\b", re.I)
_MONTH_DAY_YEAR = re.compile(rf"\b{_MONTH}\s+(\d{{1,2}})(?:st|nd|rd|th)?,?\s+(\d{{4}})\b", re.I)
# Dates with a month's name, in the order their groups come: d(ay), m(onth), y(ear)
_NAMED_MONTH_DATES = ((_DAY_MONTH_YEAR, "dmy"), (_MONTH_DAY_YEAR, "mdy"), (_YEAR_MONTH_DAY, "ymd"))
_NUMERIC_DATE = re.compile(r"\b(\d{1,2})([./])(\d{1,2})\2(\d{4})\b")
_BY = re.compile(
    r"^\s*(?:(?:written|posted|published|reviewed)\s*by\b|by\b)[:\s]*|^\s*authors?:\s*", re.I
)
_TITLE_SEPARATOR = re.compile(r"\s+[|\-\u2013\u2014:\u00b7\u2022\u00bb/]+\s+")
_WORD = re.compile(r"\w+")
_DIGIT = re.compile(r"\d")
_MAX_AUTHOR_WORDS = 8
# A "title" longer than this is a description put in the wrong field.
_MAX_TITLE_WORDS = 40
# A date line ("Published August 7, 2023 by ...") is short; longer blocks are text.
_MAX_DATE_LINE = 120
# How many blocks after the first kept one a bare date line is looked for.
_DATE_LINE_LEAD = 10


@dataclass(frozen=True)
class Metadata:
    """The page's metadata; each field ``None`` when the page does not give it."""

    title: str | None = None
    author: str | None = None
    date: str | None = None
    site_name: str | None = None
    description: str | None = None
    language: str | None = None
    url: str | None = None
    image: str | None = None

    def to_dict(self) -> dict:
        return asdict(self)


# The names of ``Metadata``'s fields, in order.
METADATA_FIELDS = tuple(field.name for field in fields(Metadata))


def read_metadata(
    root: etree._Element | None,
    blocks: list[Block] = (),  # type: ignore[assignment]
    url: str | None = None,
    stoplist_language: str | None = None,
    content_language: str | None = None,
    tree: BlockTree | None = None,
    found: dict[str, list[etree._Element]] | None = None,
) -> Metadata:
    """Read a parsed page's metadata (see the module docstring).

    ``blocks`` are the page's blocks: bylines and date lines are looked for
    among them; ``tree`` is their ``BlockTree`` and ``found`` the page's
    elements by tag (``Document.found_elements``) if the extraction has them.
    ``stoplist_language`` is the stoplist the extraction used, the language of
    last resort (read from the text); ``content_language`` the HTTP header.
    """
    if root is None:
        return Metadata(language=_iso_language(stoplist_language))
    elements = found if found is not None else find_elements(root)
    meta = _meta_values(elements["meta"])
    article, nodes = _json_ld(elements["script"])
    items = _Microdata(root)
    marked = _MarkedBlocks(blocks, tree)
    base = _base(root, url)
    site_name = _first(
        _text(article.get("publisher")), *meta.get("og:site_name", ()), _site_from_graph(nodes)
    ) or _first(*meta.get("application-name", ()))
    return Metadata(
        title=_title(root, elements["h1"], meta, article, items, site_name),
        author=_author(elements["a"], meta, article, items, marked),
        date=_date(elements["time"], meta, article, items, marked),
        site_name=site_name,
        description=_first(_text(article.get("description")), *_values(meta, _DESCRIPTION_KEYS)),
        language=_language(root, meta, article, content_language, stoplist_language),
        url=_absolute(_canonical(elements["link"], meta, article), base) or url,
        image=_absolute(_first(*_values(meta, _IMAGE_KEYS), _image(article.get("image"))), base),
    )


# Sources.


def _meta_values(elements: list[etree._Element]) -> dict[str, list[str]]:
    """Every <meta content> by its lower-cased name, property or itemprop."""
    values: dict[str, list[str]] = {}
    for element in elements:
        content = _line(element.get("content", ""))
        if not content:
            continue
        for attribute in ("property", "name", "itemprop", "http-equiv"):
            key = element.get(attribute)
            if key:
                values.setdefault(key.strip().lower(), []).append(content)
    return values


def _values(meta: dict[str, list[str]], keys: tuple[str, ...]) -> Iterator[str]:
    for key in keys:
        yield from meta.get(key, ())


def _json_ld(scripts: list[etree._Element]) -> tuple[dict, list[dict]]:
    """The page's article object (an empty dict if none) and every JSON-LD object."""
    nodes: list[dict] = []
    for script in scripts:
        if script.get("type", "").strip().lower() not in (
            "application/ld+json",
            "application/json+ld",
        ):
            continue
        try:
            data = json.loads(script.text or "", strict=False)
        except (ValueError, RecursionError):  # broken, or nested past what json reads
            continue
        pending = [data]
        while pending:  # objects, lists and @graph, flattened
            value = pending.pop()
            if isinstance(value, list):
                pending.extend(reversed(value))
            elif isinstance(value, dict):
                nodes.append(value)
                if isinstance(value.get("@graph"), list):
                    pending.extend(reversed(value["@graph"]))
    by_id = {node["@id"]: node for node in nodes if isinstance(node.get("@id"), str)}
    for node in nodes:  # resolve {"@id": ...} references one level deep
        for key in ("author", "publisher", "image"):
            node[key] = _resolve(node.get(key), by_id)
    typed = [(_types(node), node) for node in nodes]
    for wanted in (_ARTICLE_TYPES, re.compile(r"WebPage|Page$")):
        for types, node in typed:
            if any(wanted.search(t) for t in types):
                return node, nodes
    return {}, nodes


def _resolve(value: object, by_id: dict[str, dict]) -> object:
    if isinstance(value, list):
        return [_resolve(v, by_id) for v in value]
    if isinstance(value, dict) and set(value) <= {"@id", "@type"} and value.get("@id") in by_id:
        return by_id[value["@id"]]
    return value


def _types(node: dict) -> list[str]:
    types = node.get("@type", ())
    return [t for t in ([types] if isinstance(types, str) else types) if isinstance(t, str)]


def _site_from_graph(nodes: list[dict]) -> str | None:
    for node in nodes:
        if "WebSite" in _types(node):
            return _text(node.get("name"))
    return None


class _Microdata:
    """The page's ``itemprop`` elements by property, found on first use."""

    def __init__(self, root: etree._Element):
        self.root = root
        self.by_property: dict[str, list[etree._Element]] | None = None

    def get(self, prop: str, default: tuple = ()) -> list[etree._Element] | tuple:
        if self.by_property is None:
            self.by_property = {}
            for value in _ITEMPROP(self.root):
                element = value.getparent()
                for name in value.split():
                    self.by_property.setdefault(name, []).append(element)
        return self.by_property.get(prop, default)


class _MarkedBlocks:
    """Blocks whose element or one of its two nearest ancestors has a class or
    id that marks a byline or a date, each with the nearest such element's
    marking words, in document order; found on first use (pages that declare
    their author and date need none).

    They are read off the blocks' tree (``BlockTree``): the extraction's
    stages have read every node's class and id already.
    """

    def __init__(self, blocks: list[Block], tree: BlockTree | None):
        self.blocks = blocks
        self.tree = tree

    def __iter__(self) -> Iterator[tuple[str, Block]]:
        return iter(self.found)

    @cached_property
    def found(self) -> list[tuple[str, Block]]:
        tree = self.tree if self.tree is not None else BlockTree.of_blocks(self.blocks)
        names = tree.class_and_id
        marks = {node: _marking_words(*names[node]) for node in _nodes_naming_marks(names)}
        if not marks:  # many pages: nothing to climb
            return []
        # the nearest marks of the block's node, its parent or its grandparent;
        # the root's parent is -1, which has none, and so is the parent of -1
        # (the -1 appended, read as parents[-1])
        parents = [*tree.parents, -1]
        mark = marks.get
        found = []
        for node, block in zip(tree.block_nodes, self.blocks):
            parent = parents[node]
            names_marking = mark(node) or mark(parent) or mark(parents[parent])
            if names_marking:
                found.append((names_marking, block))
        return found


def _nodes_naming_marks(names: list[tuple[str | None, str | None]]) -> set[int]:
    """The nodes whose class or id holds one of ``_MARK_WORDS``, lower-cased.

    They are found in one string of all the classes and ids, joined by NULs
    (which no attribute holds), with a few ``str.find`` calls: a call for
    each node costs more (the page's classes and ids are many; those that
    mark a byline or a date, few). A word after n NULs is in the n-th class
    or id that is there (neither ``None`` nor empty).
    """
    page = "\0".join(filter(None, chain.from_iterable(names))).lower()
    starts = []
    for word in _MARK_WORDS:
        start = page.find(word)
        while start >= 0:
            starts.append(start)
            start = page.find(word, start + len(word))
    if not starts:  # many pages
        return set()
    values = list(chain.from_iterable(names))  # class, id, class, id, ...
    positions = list(compress(range(len(values)), values))  # those that are there
    nodes = set()
    value = previous = 0  # the NULs before a start: the number of the value it is in
    for start in sorted(starts):
        value += page.count("\0", previous, start)
        previous = start
        nodes.add(positions[value] // 2)
    return nodes


def _marking_words(class_: str | None, id_: str | None) -> str:
    """A class and id, lower-cased, if they mark a byline or a date; else ""."""
    if class_ is None and id_ is None:  # most elements: no string to build
        return ""
    names = f"{class_ or ''} {id_ or ''}".lower()
    # seven substring tests: a regex alternation reads each character far slower
    for word in _MARK_WORDS:
        if word in names:
            return names
    return ""


def _item_value(element: etree._Element) -> str | None:
    if element.tag == "meta":
        return _text(element.get("content"))
    for attribute in ("datetime", "content"):
        if element.get(attribute):
            return _text(element.get(attribute))
    names = [e for e in element.iterdescendants() if e.get("itemprop") == "name"]
    return _text(_STRING(names[0] if names else element))


def _base(root: etree._Element, url: str | None) -> str | None:
    base = root.find("head/base[@href]")
    if base is None:
        return url
    return urljoin(url or "", base.get("href", "").strip())


def _canonical(links: list[etree._Element], meta: dict, article: dict) -> str | None:
    links = [
        link.get("href") for link in links if "canonical" in (link.get("rel") or "").lower().split()
    ]
    return _first(*links, *meta.get("og:url", ()), _text(article.get("url")))


# Fields.


def _title(
    root: etree._Element,
    h1s: list[etree._Element],
    meta: dict,
    article: dict,
    items: _Microdata,
    site_name: str | None,
) -> str | None:
    """The headline: the ``<h1>`` when the ``<title>`` bears it out, else the
    declared headline, the ``<title>`` or the ``<h1>``, without the site's name."""
    site = _words(site_name)
    h1 = next(
        (text for text in (_text(_STRING(e)) for e in h1s) if text and _words(text) != site),
        None,
    )
    page_title = _text(root.findtext("head/title"))
    if h1 and page_title and f" {' '.join(_words(h1))} " in f" {' '.join(_words(page_title))} ":
        return h1
    declared = (
        lambda: _text(article.get("headline")),
        lambda: _first(*_values(meta, _TITLE_KEYS)),
        lambda: _first(*(_item_value(e) for e in items.get("headline", ()))),
        lambda: page_title,
    )
    for source in declared:
        title = source()
        if title and len(_words(title)) <= _MAX_TITLE_WORDS:
            return _without_site(title, site, h1)
    return h1


def _without_site(title: str, site: list[str], h1: str | None) -> str:
    """``title`` without the site's name (``site``, its words) after or before a separator."""
    parts = _TITLE_SEPARATOR.split(title)
    if len(parts) == 1:
        return title
    kept = [part for part in parts if not site or _words(part) != site]
    if site and len(kept) < len(parts):
        return " - ".join(kept) if len(kept) > 1 else kept[0]
    words = _words(h1)
    if words and any(_words(part) == words for part in parts):
        return h1 or title
    # no known site name: "Headline | Site" is far more common than the reverse
    head = _TITLE_SEPARATOR.split(title, maxsplit=len(parts) - 2)
    return head[0] if len(_words(head[0])) >= 2 else title


def _author(
    links: list[etree._Element],
    meta: dict,
    article: dict,
    items: _Microdata,
    marked: _MarkedBlocks,
) -> str | None:
    sources = (  # each read only when those before it give no name
        lambda: _names(article.get("author")),
        lambda: [v for v in _values(meta, _AUTHOR_KEYS) if not v.startswith("http")][:1],
        lambda: [v for e in items.get("author", ()) if (v := _item_value(e))][:3],
        lambda: [
            v
            for link in links
            if "author" in (link.get("rel") or "").lower().split() and (v := _text(_STRING(link)))
        ][:3],
        lambda: _byline(marked),
        lambda: _names(article.get("author"), people_only=False),
    )
    for source in sources:
        cleaned = _distinct(n for name in source() if (n := _clean_author(name)))
        if cleaned:
            return "; ".join(cleaned)
    return None


def _byline(marked: "_MarkedBlocks") -> list[str]:
    """The first byline's name; after a bare "By", the block that follows it."""
    blocks = marked.blocks
    for names, block in marked:
        if _BYLINE.search(names):
            if _clean_author(block.text):
                return [block.text]
            if not _BY.sub("", block.text).strip(" ,;|:") and block.offset + 1 < len(blocks):
                return [blocks[block.offset + 1].text]
    return []


def _clean_author(name: str) -> str | None:
    name = _BY.sub("", name).strip(" ,;|:")
    words = _WORD.findall(name.lower())
    if not words or len(words) > _MAX_AUTHOR_WORDS or "@" in name or "://" in name:
        return None
    if words in (["the", "author"], ["author"], ["admin"], ["by"]):
        return None
    return name


def _date(
    times: list[etree._Element],
    meta: dict,
    article: dict,
    items: _Microdata,
    marked: _MarkedBlocks,
) -> str | None:
    sources = (  # each read only when those before it give no date
        lambda: (article.get("datePublished"), article.get("dateCreated")),
        lambda: _values(meta, _DATE_KEYS),
        lambda: (_item_value(e) for e in items.get("datePublished", ())),
        lambda: (
            v
            for key, values in meta.items()
            if _OTHER_DATE_KEY.search(key) and not _MODIFIED_KEY.search(key)
            for v in values
        ),
        lambda: meta.get("date", ()),
        lambda: (e.get("datetime") for e in times),
        lambda: (block.text for _, block in marked if len(block.text) <= _MAX_DATE_LINE),
        lambda: _date_lines(marked.blocks),
        lambda: (article.get("dateModified"),),
        lambda: _values(meta, _MODIFIED_KEYS),
    )
    for source in sources:
        for value in source():
            found = _parse_date(_text(value))
            if found:
                return found
    return None


def _date_lines(blocks: list[Block]) -> Iterator[str]:
    """Short blocks before and at the start of the kept text, where a date
    line sits when no class names it. The kept text starts at its first block
    kept for what it is, not at a headline kept above it (``HEADLINE``): the
    date line of an article sits below its headline."""
    first = next(
        (block.offset for block in blocks if block.is_good and block.reason != HEADLINE), 0
    )
    for block in blocks[: first + _DATE_LINE_LEAD]:
        if len(block.text) <= _MAX_DATE_LINE // 2:
            yield block.text


def _parse_date(value: str | None) -> str | None:
    if not value or not _DIGIT.search(value):  # every date form has digits; most text none
        return None
    value = value.strip()
    match = _COMPACT_DATE.match(value)
    if match:
        return _valid(*match.groups())
    match = _ISO_DATE.search(value)
    if match:
        return _valid(*match.groups())
    for pattern, order in _NAMED_MONTH_DATES:
        match = pattern.search(value)
        if match:
            part = dict(zip(order, match.groups()))
            return _valid(part["y"], _MONTHS[part["m"].lower()], part["d"])
    match = _NUMERIC_DATE.search(value)
    if match:
        first, separator, second, year = match.groups()
        # dots are European (day first); slashes American unless the first can't be a month
        if separator == "." or int(first) > 12:
            return _valid(year, second, first)
        return _valid(year, first, second)
    return None


def _valid(year: str | int, month: str | int, day: str | int) -> str | None:
    try:
        found = date(int(year), int(month), int(day))
    except ValueError:
        return None
    return found.isoformat() if 1990 <= found.year <= 2100 else None


def _language(
    root: etree._Element,
    meta: dict,
    article: dict,
    content_language: str | None,
    stoplist_language: str | None,
) -> str | None:
    declared = (
        root.get("lang"),
        root.get("{http://www.w3.org/XML/1998/namespace}lang"),
        *meta.get("content-language", ()),
        content_language,
        *meta.get("og:locale", ()),
        _text(article.get("inLanguage")),
    )
    for tag in declared:
        code = (tag or "").strip().replace("_", "-").split("-")[0].split(",")[0].lower()
        if code in ISO_639_1:
            return code
    return _iso_language(stoplist_language)


def _iso_language(stoplist_language: str | None) -> str | None:
    if not stoplist_language:
        return None
    for code, name in ISO_639_1.items():
        if name == stoplist_language and stoplist_for(code) == name:
            return code
    return None


# Small helpers.


def _text(value: object) -> str | None:
    """A JSON-LD or attribute value as one line of text (the first of a list)."""
    if isinstance(value, list):
        value = value[0] if value else None
    if isinstance(value, dict):
        value = value.get("name") or value.get("@value")
    return _line(value) if isinstance(value, str) else None


def _line(text: str) -> str | None:
    text = " ".join(text.split())
    if "&" in text:  # escaped twice in the page: "&amp;#8211;"
        text = html.unescape(text)
    return text or None


def _names(value: object, people_only: bool = True) -> list[str]:
    """Names in a JSON-LD author value; with ``people_only``, not those of an
    ``Organization`` (a site often names itself the author of every page)."""
    values = value if isinstance(value, list) else [value]
    if people_only:
        values = [v for v in values if not (isinstance(v, dict) and "Organization" in _types(v))]
    return [name for v in values if (name := _text(v))]


def _image(value: object) -> str | None:
    if isinstance(value, list):
        value = value[0] if value else None
    if isinstance(value, dict):
        value = value.get("url") or value.get("contentUrl")
    return _text(value)


def _absolute(value: str | None, base: str | None) -> str | None:
    if not value:
        return None
    if not base or PLAIN_ABSOLUTE_URL.match(value):  # most: what urljoin would give back
        return value
    return urljoin(base, value)


def _first(*values: str | None) -> str | None:
    return next((v for v in values if v), None)


def _distinct(values: Iterator[str]) -> list[str]:
    seen: set[str] = set()
    kept = []
    for value in values:
        key = " ".join(_words(value))
        if key not in seen:
            seen.add(key)
            kept.append(value)
    return kept


def _words(text: str | None) -> list[str]:
    return _WORD.findall(text.lower()) if text else []
