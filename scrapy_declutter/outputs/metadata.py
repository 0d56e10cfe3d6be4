"""What a page says about itself: title, author, date, site, description,
language, canonical URL and image.

Every field is read from what pages publish for machines, in this order of
trust: schema.org JSON-LD (the article's own object, found in ``@graph`` too),
``<meta>`` tags (OpenGraph, Twitter cards, Dublin Core, ``article:*`` and the
usual names), microdata (``itemprop``), then what the page shows people:
``<time datetime>``, ``rel=author`` links, bylines, ``<h1>`` and ``<title>``.
A field the page does not give is ``None``: nothing is guessed from the URL.
The author and the date are the page's own: none is read where others write
(a comment section or a form: ``asides.py``), nor from an item that is
another's part (the claim a ``ClaimReview`` reviews: ``declared.py``).

Dates are written ``YYYY-MM-DD``, read from timestamps and from dates in
English words as ``dates.py`` says. A page that gives no publication date but
a modification date gets that one. Several authors are
joined by ``"; "``. The title is the headline: a ``<title>`` or ``og:title``
that carries the site's name after a separator ("Headline | Site") loses it.
"""

import re
from collections.abc import Callable, Collection, Iterator
from dataclasses import asdict, dataclass, fields
from datetime import timedelta
from functools import cached_property
from itertools import chain, compress

from lxml import etree

from scrapy_declutter.core.blocks import Block
from scrapy_declutter.core.document import BlockTree, find_elements
from scrapy_declutter.core.languages import ISO_639_1, iso_code
from scrapy_declutter.core.reasons import Reason
from scrapy_declutter.core.scripts import HAN_AND_KANA
from scrapy_declutter.outputs.asides import Asides, holds_field
from scrapy_declutter.outputs.dates import date_start, has_digit, parse_date, timestamp
from scrapy_declutter.outputs.declared import (
    STRING,
    Microdata,
    json_ld,
    meta_values,
    part_of_another_item,
    site_from_graph,
    types_of,
    value_text,
    values_for,
)
from scrapy_declutter.outputs.urls import absolute_url, base_url, http_url

# Words in a class or id that mark a byline or a date (most frequent first).
_MARK_WORDS = ("date", "time", "author", "byline", "writer", "posted", "publish")
# "author" inside "authorization", "authorize" or "authority" marks a login
# link or an institution, not a byline.
_BYLINE = re.compile(r"byline|author(?!i[stz])|writer")
_DATE = re.compile(r"date|time|posted|publish")
# What a class or id marks (``_MarkedBlocks``): a byline's words a byline, the others a date.
_BYLINE_MARK = "byline"
_DATE_MARK = "date"
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
_BY = re.compile(
    r"^\s*(?:(?:written|posted|published|reviewed)\s*by\b|by\b)[:\s]*|^\s*authors?:\s*"
    r"|^\s*(?:作者|记者|記者|著者|投稿者)\s*[:\uff1a]?\s*",
    re.I,
)
# What ends the name in a byline: "Martha Quinn · 12 March 2024", "Jane
# Smith | Staff Writer", "Ann Lee - Updated 3 hours ago".
_BYLINE_SEPARATOR = re.compile(r"\s*[|\u00b7\u2022\u00bb]\s*|\s+[-\u2013\u2014]+\s+")
# Words of a job title after a byline's comma: a person's name holds none.
_JOB = re.compile(
    r"\b(?:reporter|editor|correspondent|writer|columnist|contributor|producer|staff"
    r"|journalist|photographer|analyst|critic|author|director|chief|senior|associate)s?\b",
    re.I,
)
_TITLE_SEPARATOR = re.compile(r"\s+[|\-\u2013\u2014:\u00b7\u2022\u00bb/]+\s+")
# Words: each Han or kana character one, as in ``scripts.py``.
_WORD = re.compile(f"[{HAN_AND_KANA}]|[^\\W{HAN_AND_KANA}]+")
_MAX_AUTHOR_WORDS = 8
# A "title" longer than this is a description put in the wrong field.
_MAX_TITLE_WORDS = 40
# A date line ("Published August 7, 2023 by ...") is short; longer blocks are text.
_MAX_DATE_LINE = 120
# How many blocks after the first kept one a bare date line is looked for.
_DATE_LINE_LEAD = 10
# Two timestamps this far apart or less are the same instant, written to
# the second or to the minute.
_SAME_INSTANT = timedelta(minutes=1)
# Where a name in a "By" line ends: a separator ("By Ann Lee | 3 May",
# "By Ann Lee - Reporter", "by Ann Lee on Friday", "By Ann Lee Published ...").
_NAME_END = re.compile(
    r"\s*[|/\u00b7\u2022\u25cf\u22c5\u00bb(]|\s[-\u2013\u2014]\s|\s+on\s"
    r"|\s+(?:published|updated|posted|modified)\b",
    re.I,
)
# The longest value a field holds, in characters: a longer text is cut at a
# space and ends in "…", a longer URL is left out (docs/structured-output.rst).
MAX_VALUE_CHARS = 2000


@dataclass(frozen=True)
class Metadata:
    """What the page says about itself: ``ExtractionResult.metadata``.

    Each field is a ``str``, or ``None`` when the page does not give it
    (except ``url``, the page's own URL when it declares no canonical one, and
    ``language``, the stoplist's language when it declares none). ``date`` is
    ``YYYY-MM-DD``, ``date_raw`` the value it was read from, as the page
    writes it (``2024-03-05T10:00:00+01:00``, ``Posted March 5, 2024``);
    ``url`` and ``image`` are absolute http(s) URLs; a value is at most 2,000
    characters. ``to_dict()`` gives the fields as a dict.
    """

    title: str | None = None
    author: str | None = None
    date: str | None = None
    date_raw: str | None = None
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
    comments: Collection[Reason] = (),
    headlines: Collection[Reason] = (),
) -> Metadata:
    """Read a parsed page's metadata (see the module docstring).

    ``blocks`` are the page's blocks: bylines and date lines are looked for
    among them; ``tree`` is their ``BlockTree`` and ``found`` the page's
    elements by tag (``Document.found_elements``) if the extraction has them.
    ``stoplist_language`` is the stoplist the extraction used, the language of
    last resort (read from the text); ``content_language`` the HTTP header.
    ``comments`` are the reasons of the blocks the extraction set apart as
    comments, ``headlines`` of the headlines it kept above the text (an
    article's byline and date line sit below its headline).
    """
    if root is None:
        return Metadata(language=iso_code(stoplist_language))
    elements = found if found is not None else find_elements(root)
    meta = meta_values(elements["meta"])
    article, nodes = json_ld(elements["script"])
    items = Microdata(root)
    marked = _MarkedBlocks(blocks, tree)
    start = _text_start(blocks, headlines)
    set_apart = frozenset(b.offset for b in blocks if b.reason is not None and b.reason in comments)
    asides = Asides(blocks[start].element if start is not None else None, set_apart)
    base = base_url(root, url)
    site_name = _first(
        value_text(article.get("publisher")), *meta.get("og:site_name", ()), site_from_graph(nodes)
    ) or _first(*meta.get("application-name", ()))
    image = _first(*values_for(meta, _IMAGE_KEYS), _image(article.get("image")))
    return Metadata(
        title=_bounded(_title(root, elements["h1"], meta, article, items, site_name)),
        author=_bounded(_author(elements["a"], meta, article, items, marked, start, asides)),
        **_date(elements["time"], meta, article, items, marked, start, asides),
        site_name=_bounded(site_name),
        description=_bounded(
            _first(value_text(article.get("description")), *values_for(meta, _DESCRIPTION_KEYS))
        ),
        language=_language(root, meta, article, content_language, stoplist_language),
        url=_link(_canonical(elements["link"], meta, article), base) or _link(url, None),
        image=_link(image, base),
    )


# What the page shows people (the declared sources are in ``declared.py``).


class _MarkedBlocks:
    """Blocks whose element or one of its two nearest ancestors has a class or
    id that marks a byline or a date, each with what the nearest such element
    marks (``_BYLINE_MARK`` or ``_DATE_MARK``), in document order; found on
    first use (pages that declare their author and date need none).

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
        # each class and id read once, not once for each block beneath it
        marks = {node: _mark(*names[node]) for node in _nodes_naming_marks(names)}
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
            marked = mark(node) or mark(parent) or mark(parents[parent])
            if marked:
                found.append((marked, block))
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


def _mark(class_: str | None, id_: str | None) -> str:
    """What a class and id mark: a byline, a date, or nothing ("")."""
    if class_ is None and id_ is None:  # most elements: no string to build
        return ""
    names = f"{class_ or ''} {id_ or ''}".lower()
    # seven substring tests: a regex alternation reads each character far slower
    if not any(word in names for word in _MARK_WORDS):
        return ""
    if _BYLINE.search(names):
        return _BYLINE_MARK
    return _DATE_MARK if _DATE.search(names) else ""


# Fields.


def _canonical(links: list[etree._Element], meta: dict, article: dict) -> str | None:
    links = [
        link.get("href") for link in links if "canonical" in (link.get("rel") or "").lower().split()
    ]
    return _first(*links, *meta.get("og:url", ()), value_text(article.get("url")))


def _title(
    root: etree._Element,
    h1s: list[etree._Element],
    meta: dict,
    article: dict,
    items: Microdata,
    site_name: str | None,
) -> str | None:
    """The headline: the ``<h1>`` when the ``<title>`` bears it out, else the
    declared headline, the ``<title>`` or the ``<h1>``, without the site's name."""
    site = _words(site_name)
    h1 = next(
        (text for text in (value_text(STRING(e)) for e in h1s) if text and _words(text) != site),
        None,
    )
    page_title = value_text(root.findtext("head/title"))
    if h1 and page_title and f" {' '.join(_words(h1))} " in f" {' '.join(_words(page_title))} ":
        return h1
    declared = (
        lambda: value_text(article.get("headline")),
        lambda: _first(*values_for(meta, _TITLE_KEYS)),
        lambda: _first(*items.values("headline")),
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
    items: Microdata,
    marked: _MarkedBlocks,
    start: int | None,
    asides: Asides,
) -> str | None:
    """The page's author: never one read in a comment section or a form
    (``asides``), nor the author of an item that is another's part (the
    claim a ``ClaimReview`` reviews)."""
    sources = (  # each read only when those before it give no name
        lambda: _names(article.get("author")),
        lambda: [v for v in values_for(meta, _AUTHOR_KEYS) if not v.startswith("http")][:1],
        lambda: [v for v in items.values("author", _own(asides)) if v][:3],
        lambda: [
            v
            for link in links
            if (rel := link.get("rel"))  # most links have none: no string work
            and "author" in rel.lower().split()
            and link not in asides
            and (v := value_text(STRING(link)))
        ][:3],
        lambda: _byline(marked, asides),
        lambda: _by_line(marked.blocks, start, asides),
        lambda: _names(article.get("author"), people_only=False),
    )
    for source in sources:
        cleaned = _distinct(n for name in source() if (n := _clean_author(name)))
        if cleaned:
            return "; ".join(cleaned)
    return None


def _byline(marked: "_MarkedBlocks", asides: Asides) -> list[str]:
    """The first byline's name; after a bare "By", the block that follows it.
    A commenter's byline (in ``asides``) is none."""
    blocks = marked.blocks
    for mark, block in marked:
        if mark == _BYLINE_MARK and not _aside(block, asides):
            if _clean_author(block.text):
                return [block.text]
            following = _following(blocks, block)
            if not _BY.sub("", block.text).strip(" ,;|:") and following:
                return [following.text]
    return []


def _by_line(blocks: list[Block], start: int | None, asides: Asides) -> list[str]:
    """The name in a line that starts "By" (``_BY``) where no class marks it
    a byline, below the headline (``_below_headline``): after "By", or after
    a bare "By" in the next block. The name ends where a date or a separator
    starts ("By Ann Lee | 3 May 2024"), and starts with a capital letter, as
    a name does ("By clicking here" is no byline); a line that is all one
    link is a menu's."""
    for block in _below_headline(blocks, start):
        match = _BY.match(block.text)
        if not match or block.link_chars >= len(block.text) or _aside(block, asides):
            continue
        rest = block.text[match.end() :].strip(" ,;|:")
        following = _following(blocks, block)
        if not rest and following:
            rest = following.text
        name = _name_at_start(rest)
        if name:
            return [name]
    return []


def _name_at_start(text: str) -> str | None:
    """The name ``text`` starts with, up to a separator or a date, if it
    starts with a capital letter (or a letter of a script without case)."""
    text = _NAME_END.split(text, maxsplit=1)[0]
    end = date_start(text)
    name = text[:end].strip(" ,;|:") if end is not None else text.strip(" ,;|:")
    if not name[:1].isalpha() or name[:1].islower():
        return None
    return _clean_author(name)


def _own(asides: Asides) -> Callable[[etree._Element], bool]:
    """Whether a microdata property is the page's own: not in a comment
    section or a form (``asides``), nor of an item that is another's part."""
    return lambda element: element not in asides and not part_of_another_item(element)


def _following(blocks: list[Block], block: Block) -> Block | None:
    return blocks[block.offset + 1] if block.offset + 1 < len(blocks) else None


def _aside(block: Block, asides: Asides) -> bool:
    """Whether a block is a commenter's or a form's: set apart as comments
    by the extraction, in a comment section or a form (``asides``), or a
    field's label (``holds_field``)."""
    return block.offset in asides.set_apart or block.element in asides or holds_field(block.element)


def _clean_author(name: str) -> str | None:
    name = _name_of_byline(_BY.sub("", name)).strip(" ,;|:")
    words = _WORD.findall(name.lower())
    if not words or len(words) > _MAX_AUTHOR_WORDS or "@" in name or "://" in name:
        return None
    if words in (["the", "author"], ["author"], ["authors"], ["admin"], ["by"]):
        return None
    return name


def _name_of_byline(byline: str) -> str:
    """The name a byline starts with, without what follows it: a separator
    (``·``, ``|``, ``»``, a dash between spaces) and what comes after it, a
    date that reads as one ("Dakota Hebert July 3, 2025"; a byline that starts
    with one names nobody, a number alone is no date: "98 Buck Social"), a job
    after a comma ("Martha Quinn, Local Affairs Reporter").
    Names after a comma stay ("Jane Smith, John Doe")."""
    name = _BYLINE_SEPARATOR.split(byline, maxsplit=1)[0]
    start = date_start(name)
    if start is not None and parse_date(name[start:]):
        name = name[:start]
    first, *rest = name.split(",")
    return first if any(_JOB.search(part) for part in rest) else name


def _date(
    times: list[etree._Element],
    meta: dict,
    article: dict,
    items: Microdata,
    marked: _MarkedBlocks,
    start: int | None,
    asides: Asides,
) -> dict[str, str | None]:
    """The publication date (``date``) and the value it was read from
    (``date_raw``): the first source that gives one, in the order of trust;
    none from a comment section (``asides``). A timestamp in UTC that the
    page also declares in the publisher's local time gives the local date
    (``_local_date``)."""
    declared = (  # each read only when those before it give no date
        lambda: (article.get("datePublished"), article.get("dateCreated")),
        lambda: values_for(meta, _DATE_KEYS),
        lambda: (
            v
            for key, values in meta.items()
            if _OTHER_DATE_KEY.search(key) and not _MODIFIED_KEY.search(key)
            for v in values
        ),
        lambda: meta.get("date", ()),
        lambda: (e.get("datetime") for e in times if e not in asides),
    )
    # microdata after the <meta> names that say "published"
    published = (*declared[:2], lambda: items.values("datePublished", _own(asides)), *declared[2:])
    shown = (
        lambda: (
            block.text
            for _, block in marked
            if len(block.text) <= _MAX_DATE_LINE
            and has_digit(block.text)  # most blocks: no date, no climb
            and not _aside(block, asides)
        ),
        lambda: _date_lines(marked.blocks, start, asides),
        lambda: (article.get("dateModified"),),
        lambda: values_for(meta, _MODIFIED_KEYS),
    )
    for source in (*published, *shown):
        for value in source():
            if isinstance(value, str) and not has_digit(value):  # most blocks' text
                continue
            text = value_text(value)
            found = parse_date(text)
            if found:
                # the same instant is looked for in all but microdata: its
                # search of the whole tree costs more than the rest, for
                # dates that are mostly a ``<time>``'s too
                others = (v for source in declared for v in source())
                return {"date": _local_date(text, others) or found, "date_raw": _bounded(text)}
    return {"date": None, "date_raw": None}


def _local_date(value: str | None, declared: Iterator[object]) -> str | None:
    """The publisher's date of a timestamp written in UTC ("...T23:06:00Z",
    "+00:00"): the date of another declaration of the same instant, written
    with its own offset from UTC (``<time datetime="...T00:06:00+01:00">``),
    as the page shows it. ``None`` if ``value`` is no UTC timestamp or the
    page declares no such other."""
    utc = timestamp(value)
    if utc is None or utc.utcoffset():
        return None
    for other in declared:
        if not isinstance(other, str):
            continue
        local = timestamp(other)
        if local is not None and local.utcoffset() and abs(local - utc) <= _SAME_INSTANT:
            return parse_date(other)
    return None


def _date_lines(blocks: list[Block], start: int | None, asides: Asides) -> Iterator[str]:
    """Short blocks before and at the start of the kept text (``start``,
    ``_text_start``), where a date line sits when no class names it; not a
    comment's."""
    for block in blocks[: (start or 0) + _DATE_LINE_LEAD]:
        text = block.text
        if len(text) <= _MAX_DATE_LINE // 2 and has_digit(text) and not _aside(block, asides):
            yield text


def _below_headline(blocks: list[Block], start: int | None) -> list[Block]:
    """The blocks from the last ``<h1>`` before the start of the text
    (``start``, ``_text_start``) to that start, where a byline sits; only
    that start if no ``<h1>`` comes before it. A menu above the headline
    has its "By Industry", a product below the text its "By Brand"."""
    if start is None:
        return []
    headline = next((b.offset for b in reversed(blocks[:start]) if b.element.tag == "h1"), start)
    return blocks[headline : start + 1]


def _text_start(blocks: list[Block], headlines: Collection[Reason]) -> int | None:
    """The offset of the kept text's first block kept for what it is, not a
    headline kept above it (``headlines``): an article's byline and date line
    sit below its headline. ``None`` when no block is kept."""
    return next(
        (
            block.offset
            for block in blocks
            if block.is_good and (block.reason is None or block.reason not in headlines)
        ),
        None,
    )


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
        value_text(article.get("inLanguage")),
    )
    for tag in declared:
        code = (tag or "").strip().replace("_", "-").split("-")[0].split(",")[0].lower()
        if code in ISO_639_1:
            return code
    return iso_code(stoplist_language)


# Small helpers.


def _names(value: object, people_only: bool = True) -> list[str]:
    """Names in a JSON-LD author value; with ``people_only``, not those of an
    ``Organization`` (a site often names itself the author of every page)."""
    values = value if isinstance(value, list) else [value]
    if people_only:
        values = [v for v in values if not (isinstance(v, dict) and "Organization" in types_of(v))]
    return [name for v in values if (name := value_text(v))]


def _image(value: object) -> str | None:
    if isinstance(value, list):
        value = value[0] if value else None
    if isinstance(value, dict):
        value = value.get("url") or value.get("contentUrl")
    return value_text(value)


def _link(value: str | None, base: str | None) -> str | None:
    """``value`` made absolute, if that is an http(s) URL of ``MAX_VALUE_CHARS`` at most."""
    value = (value or "").strip()  # an href as written: white space around it
    if not value:
        return None
    url = http_url(absolute_url(value, base))
    return url if url and len(url) <= MAX_VALUE_CHARS else None


def _bounded(text: str | None) -> str | None:
    """``text``, or if it is over ``MAX_VALUE_CHARS`` its start, to a space
    in its second half if there is one, and "…"."""
    if text is None or len(text) <= MAX_VALUE_CHARS:
        return text
    start = text[: MAX_VALUE_CHARS - 1]
    space = start.rfind(" ", MAX_VALUE_CHARS // 2)
    return (start[:space] if space > 0 else start) + "\u2026"


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
