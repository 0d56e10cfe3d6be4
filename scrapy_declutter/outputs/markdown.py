"""The kept blocks as CommonMark: the article's shape, rebuilt from their elements.

Markdown is made from the same content decision as ``text``: a block is
written when it is kept, and only then. The blocks know where they start
(``Block.element``) but not where they stop, so the kept parts of the page are
walked again with ``segment``'s own boundaries (block tags, a second ``<br>`` in
a row, skipped subtrees), which cut the walk into the same stretches, in the
same order, as the blocks: the n-th stretch with text is the n-th block.

Only the kept regions are walked: for every kept block, the nearest block-level
element around it, widened to the list, table or quote it sits in (so that an
item keeps its list's numbering and nesting, a cell its table), and each such
subtree once. Around a stretch the walk keeps the structure open at that point:
the heading level, the list items and their markers, the quotes, the table
cells, ``<pre>``. Inline markup inside a stretch becomes emphasis, code spans,
links (made absolute against ``<base href>`` and the page URL) and, on request,
images; text, emphasis and URLs are written as ``markdown_text`` writes them,
safe to render.

A table becomes a pipe table (GFM) when it is a data table: two or more
columns, two or more rows with kept cells (or one, of header cells: a header
with no body), and nothing in its cells but text (no nested table, list,
quote or code block, and no heading beside other text: the marks of a layout
table). A heading that is all its cell holds is a header cell's text, written
without its ``#``; a cell spanning columns is followed by empty ones, so that
the columns stay in line. Other tables are written as the paragraphs of their
cells. Images are written only inside kept stretches: an image alone between
two blocks has no text, and so no block that could be kept.
"""

import re
from dataclasses import dataclass, field

from lxml import etree

# segment's own tables, so that the walk cuts the page where segment does
from scrapy_declutter.core.blocks import (
    _BLOCK,
    _BR,
    _INLINE,
    _KINDS,
    _LINK,
    _SKIPPED,
    Block,
    _swallows_page,
)
from scrapy_declutter.core.labels import GOOD
from scrapy_declutter.outputs.markdown_text import (
    EMPHASIS_MARKS,
    clean_code,
    clean_text,
    code_span,
    escape,
    escape_line_starts,
    heading,
    link_url,
    resolve_emphasis,
)
from scrapy_declutter.outputs.urls import base_origin, base_url
from scrapy_declutter.stages.tables import LAYOUT_MARKS

# Elements a kept block is widened to, so that it keeps its list, table or quote.
_STRUCTURE = frozenset(
    "li ul ol dl dd dt table thead tbody tfoot tr td th caption blockquote".split()
)
_EMPHASIS = {"strong": "**", "b": "**", "em": "*", "i": "*"}
_CODE = frozenset("code kbd samp tt".split())
_HEADING_LEVELS = {f"h{level}": level for level in range(1, 7)}
# A heading's chunk, as ``paragraph`` writes it: the marker a header cell drops.
_HEADING_MARKER = re.compile(r"#{1,6} ")
# Browsers read no colspan above 1000 (the HTML standard's limit).
MAX_COLSPAN = 1000
# The tags ``start`` and ``end`` act on; the walk passes them no other.
_HANDLED = frozenset(
    [*_EMPHASIS, "a", *_CODE, "img", *_HEADING_LEVELS, *LAYOUT_MARKS, "li", "td", "th", "tr"]
)
# Lists, quotes and tables nested deeper than this are written as if they were
# this deep: indentation and prefixes stay bounded, and so does the cost per
# chunk, on pages that nest them by the thousand.
MAX_NESTING = 16
_BACKTICKS = re.compile(r"`+")
# CommonMark reads list numbers of nine digits at most.
MAX_LIST_NUMBER = 999_999_999
_MARKS = "".join(mark for marks in EMPHASIS_MARKS.values() for mark in marks)
_LANGUAGE_CLASS = re.compile(r"(?:lang|language)-([\w+#.-]+)")


# A chunk: its text; the outermost list it is in since its sink, if any (the
# tight-list token: chunks with the same one are a line apart); whether it
# starts a list item that must be a blank line below the chunk before it.
_Chunk = tuple[str, object, bool]


@dataclass(eq=False)
class _Sink:
    """Where finished chunks go: the page, or one table cell. The counts say how
    many lists and containers (items and quotes) were open when it was made:
    the prefixes a chunk gets are those opened since."""

    lists: int
    containers: int
    chunks: list[_Chunk] = field(default_factory=list)
    heading: bool = False  # a cell's sink: a heading started in it


@dataclass(eq=False)
class _Item:
    """An open list item: its marker, written before its first chunk only, and
    its list's record (``_Renderer.lists``; ``None`` outside a list)."""

    marker: str
    list: list | None
    used: bool = False


@dataclass(eq=False)
class _Table:
    """An open table: its rows of cells, each cell the chunks made in it."""

    cell_depth: int = 0
    layout: bool = False
    header_cells: bool = False  # a ``<th>`` in it
    rows: list[list[list[_Chunk]]] = field(default_factory=list)
    cells: int = 0  # the page's cells in it
    spanned: int = 0  # the empty cells added for them: at most one a cell
    span: int = 0  # the columns the row's last cell spans beyond its own


@dataclass(eq=False, slots=True)
class _Inline:
    """An open inline element, wrapped around its text at its end."""

    tag: str
    start: int  # index in the stretch's parts
    stretch: int  # the stretch it opened in: a block boundary since cuts it
    marker: str  # "**", "*" or "`" ("" inside one of its kind: not wrapped); a link's href


class _Renderer:
    """One page's Markdown, built while walking its kept regions."""

    def __init__(
        self, blocks: list[Block], base: str | None, links: bool, images: bool, all_buttons: bool
    ):
        self.blocks = blocks
        self.all_buttons = all_buttons
        self.base = base
        self.origin = base_origin(base)
        self.links = links
        self.images = images
        self.sinks = [_Sink(0, 0)]
        # [ordered, count, last]: ``last`` numbers the last chunk written in
        # one of the list's items (``added``, not the sink: that would be a cycle)
        self.lists: list[list] = []
        self.added = 0  # the chunks added, to any sink
        # the open list items and quotes (None), outermost first: each is a prefix
        self.containers: list[_Item | None] = []
        self.headings: list[int] = []
        self.tables: list[_Table | None] = []
        self.inline: list[_Inline] = []
        self.emphasis = self.code = 0
        self.marked = False  # emphasis marks in ``parts``, for ``paragraph`` to resolve
        self.pre = 0
        self.pre_parts: list[str] = []
        self.pre_kept = False
        self.pre_language = ""
        self.parts: list[str] = []
        self.has_text = False
        self.writing = False  # whether the stretch's block is kept
        self.index = 0
        self.stretches = 0

    # The stretches, cut as segment cuts them.

    def walk(self, root: etree._Element, first_block: int) -> None:
        self.index = first_block
        if not len(root) and root.tag not in _HANDLED:  # one stretch and nothing around it
            text = root.text
            if text and not text.isspace():
                if self.blocks[self.index].label is GOOD:
                    self.paragraph(escape(clean_text(text)))
                self.index += 1
            return
        kinds = _KINDS
        handled = _HANDLED
        parts = self.parts  # the same list throughout
        open_kinds: list[int] = []
        after_br = False
        walker = etree.iterwalk(root, events=("start", "end"))
        for event, el in walker:
            tag = el.tag
            if event == "start":
                kind = kinds.get(tag, _INLINE)
                open_kinds.append(kind)
                if kind == _INLINE:
                    after_br = False
                elif kind >= _BLOCK or (kind == _BR and after_br):
                    if self.has_text or self.pre:
                        self.close_stretch()
                    else:  # most boundaries: nothing to write
                        parts.clear()
                        self.stretches += 1
                        if self.code:
                            self.reopen_code()
                elif kind == _BR:
                    after_br = True
                    if parts:
                        parts.append("\n")
                    if self.pre:
                        self.pre_parts.append("\n")
                elif kind == _LINK:
                    after_br = False
                elif tag != "button" or not (self.all_buttons or _swallows_page(el)):
                    walker.skip_subtree()
                    continue
                if tag in handled:
                    self.start(el, tag)
                text = el.text
            else:
                kind = open_kinds.pop()
                if kind >= _BLOCK:
                    if self.has_text or self.pre:
                        self.close_stretch()
                    else:
                        parts.clear()
                        self.stretches += 1
                        if self.code:
                            self.reopen_code()
                if tag in handled:
                    self.end(tag, el)
                text = el.tail
            if not text:
                continue
            if self.pre:
                self.pre_parts.append(text)
                if not text.isspace():
                    self.has_text = True
                    after_br = False
                elif parts:
                    parts.append(" ")
                continue
            if text.isspace():
                if parts:
                    parts.append(" ")
                continue
            after_br = False
            if not self.has_text:  # the stretch's first text: it is the next block's
                self.has_text = True
                self.writing = self.blocks[self.index].label is GOOD
            if not self.writing:  # a block left out, walked for its neighbours' structure
                continue
            if "  " in text or not text.isprintable():  # as segment: most text needs neither
                text = clean_text(text)
            parts.append(text if self.code else escape(text))
        self.close_stretch()

    def close_stretch(self) -> None:
        if self.code:
            self.close_code()
        if self.has_text:
            if self.blocks[self.index].label is GOOD:
                if self.pre:
                    self.pre_kept = True
                else:
                    self.paragraph("".join(self.parts))
            self.index += 1
            self.has_text = False
        if self.pre and self.pre_parts and not self.pre_parts[-1].endswith("\n"):
            self.pre_parts.append("\n")
        self.parts.clear()
        self.stretches += 1
        if self.code:
            self.reopen_code()

    def close_code(self) -> None:
        """Writes the code open at a block boundary as a code span up to it:
        code text is not escaped, and left as it is it could be HTML."""
        for frame in self.inline:
            if frame.tag in _CODE and frame.marker and frame.stretch == self.stretches:
                self.wrap(frame)

    def reopen_code(self) -> None:
        """Opens the code the last boundary cut again, in the stretch after it."""
        for frame in self.inline:
            if frame.tag in _CODE and frame.marker:
                frame.start = 0
                frame.stretch = self.stretches

    # Structure around the stretches.

    def start(self, el: etree._Element, tag: str) -> None:
        table = self.tables[-1] if self.tables else None
        if tag in LAYOUT_MARKS and table is not None and table.cell_depth:
            if tag in _HEADING_LEVELS:
                self.sinks[-1].heading = True  # layout if the cell holds more (``end``)
            else:
                table.layout = True
        if self.pre:  # nested ``<pre>`` counted, so that the outermost one ends it
            self.pre += tag == "pre"
            return
        if tag in _EMPHASIS:
            marker = _EMPHASIS[tag]
            if self.emphasis or self.code or (self.headings and marker == "**"):
                marker = ""
            self.emphasis += 1
            self.inline.append(_Inline(tag, len(self.parts), self.stretches, marker))
        elif tag == "a":  # a link in code would be written in the code span
            href = "" if self.code else el.get("href") or ""
            self.inline.append(_Inline(tag, len(self.parts), self.stretches, href))
        elif tag in _CODE:
            marker = "" if self.code else "`"
            self.code += 1
            self.inline.append(_Inline(tag, len(self.parts), self.stretches, marker))
        elif tag == "img":
            if self.images and not self.code:  # in code, its markup would be code text
                self.image(el)
        elif tag in _HEADING_LEVELS:
            self.headings.append(_HEADING_LEVELS[tag])
        elif tag == "li":
            record = self.lists[-1] if self.lists else None
            if record and record[0]:
                record[1] += 1
                # a renderer numbers the items on from the first: past nine
                # digits, the number written is only the item's marker
                marker = f"{min(record[1], MAX_LIST_NUMBER)}. "
            else:
                marker = "- "
            self.containers.append(_Item(marker, record))
        elif tag in ("ul", "ol"):
            self.lists.append([tag == "ol", _whole_number(el.get("start"), 1) - 1, None])
        elif tag == "blockquote":
            self.containers.append(None)
        elif tag == "pre":
            self.pre = 1
            self.pre_parts = []
            self.pre_kept = False
            found = _LANGUAGE_CLASS.search(" ".join(e.get("class", "") for e in el.iter()))
            self.pre_language = found.group(1) if found else ""
        elif tag == "table":  # past MAX_NESTING, a table adds no frame (None): its cells
            self.tables.append(_Table() if len(self.tables) < MAX_NESTING else None)
        elif tag in ("td", "th") and table is not None:
            table.cell_depth += 1
            table.header_cells = table.header_cells or tag == "th"
            self.sinks.append(_Sink(len(self.lists), len(self.containers)))
        elif tag == "tr" and table is not None:
            table.rows.append([])
            table.span = 0

    def end(self, tag: str, el: etree._Element) -> None:
        if self.pre:
            if tag == "pre":
                self.pre -= 1
                if not self.pre and self.pre_kept:
                    self.code_block("".join(self.pre_parts))
            return
        if tag in _EMPHASIS or tag == "a" or tag in _CODE:
            frame = self.inline.pop()
            if tag in _EMPHASIS:
                self.emphasis -= 1
            elif tag in _CODE:
                self.code -= 1
            if frame.stretch == self.stretches and (frame.marker or frame.tag == "a"):
                self.wrap(frame)
        elif tag in _HEADING_LEVELS:
            self.headings.pop()
        elif tag == "li":
            self.containers.pop()
        elif tag in ("ul", "ol"):
            self.lists.pop()
        elif tag == "blockquote":
            self.containers.pop()
        elif tag == "table":
            table = self.tables.pop()
            if table is not None:
                self.table(table)
        elif (
            tag in ("td", "th") and self.tables and (table := self.tables[-1]) and table.cell_depth
        ):
            table.cell_depth -= 1
            if not table.rows:
                table.rows.append([])
            cell = self.sinks.pop()
            if cell.heading and len(cell.chunks) > 1:
                table.layout = True
            self.cell(table, cell.chunks, el.get("colspan"))

    def cell(self, table: _Table, chunks: list[_Chunk], colspan: str | None) -> None:
        """Adds a cell to the table's last row, after an empty cell for each
        column the cell before it spans (none at a row's end: GFM fills a
        short row in), and at most as many as the table has cells."""
        row = table.rows[-1]
        empty = min(table.span, table.cells - table.spanned)
        row.extend([] for _ in range(empty))
        table.spanned += empty
        row.append(chunks)
        table.cells += 1
        table.span = min(_whole_number(colspan, 1), MAX_COLSPAN) - 1

    # Inline markup.

    def wrap(self, frame: _Inline) -> None:
        inner = "".join(self.parts[frame.start :])
        core = inner.strip()
        if not core:
            return
        lead = inner[: len(inner) - len(inner.lstrip())]
        trail = inner[len(core) + len(lead) :]
        if frame.tag == "a":
            url = link_url(frame.marker, self.base, self.origin) if self.links else None
            if url is None:
                return
            core = f"[{core}]({url})"
        elif frame.tag in _CODE:
            core = code_span(core)
            if not lead and self.ends_in_backtick(frame.start):
                lead = " "  # touching, two code spans' fences would read as one run
        else:
            opening, closing = EMPHASIS_MARKS[frame.marker]
            core = f"{opening}{core}{closing}"
            self.marked = True
        self.parts[frame.start :] = [lead, core, trail]

    def ends_in_backtick(self, end: int) -> bool:
        """Whether the stretch's Markdown before ``parts[end]`` ends in a
        backtick, a code span's fence: empty parts (an empty element's, a
        wrapped one's edges) and emphasis marks, which ``paragraph`` may drop,
        are looked past."""
        for index in range(end - 1, -1, -1):  # a wrap leaves at most two empty parts
            part = self.parts[index].rstrip(_MARKS)
            if part:
                return part.endswith("`")
        return False

    def image(self, el: etree._Element) -> None:
        src = el.get("src")
        if not src or src.lstrip().lower().startswith("data:"):  # a placeholder
            src = el.get("data-src") or el.get("data-lazy-src")
        url = link_url(src, self.base, self.origin)
        if url:
            alt = escape(clean_text(el.get("alt") or "").strip())
            self.parts.append(f"![{alt}]({url})")

    # Chunks: a paragraph, a heading, a code block or a table, with the
    # prefixes of the lists and quotes it is in.

    def paragraph(self, markdown: str) -> None:
        if "\n" in markdown:
            lines = (" ".join(line.split()) for line in markdown.split("\n"))
            text = "\n".join(line for line in lines if line)
        elif "  " in markdown or not markdown.isprintable():  # as segment's blocks
            text = " ".join(markdown.split())
        else:
            text = markdown.strip(" ")
        if not text:
            return
        if self.marked:  # an emphasis written in the stretch
            text = resolve_emphasis(text)
            self.marked = False
        text = heading(self.headings[-1], text) if self.headings else escape_line_starts(text)
        self.add(text)

    def code_block(self, code: str) -> None:
        code = clean_code(code).strip("\n")
        if not code.strip():
            return
        fence = "`" * max(3, max(map(len, _BACKTICKS.findall(code)), default=0) + 1)
        self.add(f"{fence}{self.pre_language}\n{code}\n{fence}")

    def table(self, table: _Table) -> None:
        rows = [row for row in table.rows if any(row)]
        columns = max(map(len, rows), default=0)
        plain = all(token is None for row in rows for cell in row for _, token, _ in cell)
        enough_rows = len(rows) >= 2 or (len(rows) == 1 and table.header_cells)
        if table.layout or not plain or not enough_rows or columns < 2:
            for row in rows:
                for cell in row:
                    for text, token, blank in cell:
                        self.add(text, token, blank)
            return
        lines = []
        for number, row in enumerate(rows):
            cells = [" ".join(_cell_text(text) for text, _, _ in cell) for cell in row]
            if number == 0:  # the header gives the table's columns; GFM fills short rows in
                cells += [""] * (columns - len(cells))
            cells = [c.replace("\n", " ").replace("|", "\\|") for c in cells]
            lines.append("| " + " | ".join(cells) + " |")
            if number == 0:
                lines.append("|" + " --- |" * columns)
        self.add("\n".join(lines))

    def add(self, text: str, token: object = None, blank: bool = False) -> None:
        sink = self.sinks[-1]
        if sink.lists < len(self.lists):
            token = self.lists[sink.lists]
        # the prefixes of the items and quotes opened since the sink, innermost
        # first: a quote in a list item is indented, a list in a quote quoted
        opened = len(self.containers)
        prefixed = self.containers[max(sink.containers, opened - MAX_NESTING) :]
        starts = None  # the outermost item whose marker the chunk writes
        for container in reversed(prefixed):
            if container is None:
                text = "> " + text.replace("\n", "\n> ")
            else:
                rest = " " * len(container.marker)
                first = rest if container.used else container.marker
                starts = starts if container.used else container
                container.used = True
                text = first + text.replace("\n", "\n" + rest)
        if starts is not None and starts.list is not None and starts.list[0]:
            # CommonMark lets no list but one from 1 interrupt a paragraph: an
            # item after a chunk outside its list (its text, or the paragraph
            # of an item around it) would be that paragraph's text
            blank = blank or (starts.marker != "1. " and starts.list[2] != self.added)
        sink.chunks.append((text, token, blank))
        self.added += 1
        for container in prefixed:
            if container is not None and container.list is not None:
                container.list[2] = self.added

    def markdown(self) -> str:
        out: list[str] = []
        previous = None
        for text, token, blank in self.sinks[0].chunks:
            if out:
                out.append(
                    "\n" if token is not None and token is previous and not blank else "\n\n"
                )
            out.append(text)
            previous = token
        return "".join(out)


def _whole_number(value: str | None, default: int) -> int:
    """An attribute's number (``start``, ``colspan``): ASCII digits, at most
    nine (CommonMark's longest list number), else ``default``."""
    value = (value or "").strip()
    if value.isascii() and value.isdigit() and len(value) <= 9:
        return int(value)
    return default


def _cell_text(chunk: str) -> str:
    """A chunk as a pipe table cell's text: a heading without its marker (in a
    chunk's text a ``#`` that starts a line is escaped unless it is one)."""
    marker = _HEADING_MARKER.match(chunk)
    return chunk[marker.end() :] if marker else chunk


def _walk_root(element: etree._Element, memo: dict, cuts: dict) -> etree._Element:
    """The element to walk for a kept block: its nearest block-level element,
    widened to the lists, tables and quotes around it. ``memo`` keeps the
    answer for every element passed on the way that would get the same one
    (the inline ones below the block-level element, and the block-level ones
    above it), so that nested lists cost one climb in all; ``cuts`` is
    ``_cut_at_children``'s."""
    kinds = _KINDS
    path = []
    while element not in memo and kinds.get(element.tag, _INLINE) < _BLOCK:
        if element.getparent() is None:
            break
        path.append(element)
        element = element.getparent()
    if element in memo:
        found = memo[element]
    else:
        path.append(element)
        found = element
        parent = element.getparent()
        while parent is not None and parent.tag in _STRUCTURE:
            block_level = kinds.get(parent.tag, _INLINE) >= _BLOCK
            if block_level and parent in memo:
                found = memo[parent]
                break
            if not block_level and not _cut_at_children(parent, cuts):
                break
            found, parent = parent, parent.getparent()
            if block_level:
                path.append(found)
    for visited in path:
        memo[visited] = found
    return found


def _cut_at_children(element: etree._Element, known: dict) -> bool:
    """Whether walking an inline element alone cuts the page as segment does:
    true when all it holds is in block-level (or skipped) children, so that its
    start and end are a block's boundaries anyway. ``known`` keeps the answers:
    every kept item of a long list or table body asks it of the same element."""
    answer = known.get(element)
    if answer is None:
        text = element.text
        answer = (not text or text.isspace()) and all(
            _is_cut(child) and (not child.tail or child.tail.isspace()) for child in element
        )
        known[element] = answer
    return answer


def _is_cut(element: etree._Element) -> bool:
    """Whether segment's walk ends a block at ``element`` or leaves it out."""
    kind = _KINDS.get(element.tag, _INLINE)
    return kind >= _BLOCK or (kind == _SKIPPED and element.tag != "button")


def _nearest_in(
    element: etree._Element | None, members: set | dict, memo: dict
) -> etree._Element | None:
    """The nearest of ``members`` at or above ``element``, or ``None``; ``memo``
    (one per set of members) remembers the answer for every element climbed."""
    path = []
    while element is not None and element not in memo:
        if element in members:
            memo[element] = element
            break
        path.append(element)
        element = element.getparent()
    found = None if element is None else memo[element]
    for visited in path:
        memo[visited] = found
    return found


def to_markdown(
    blocks: list[Block],
    root: etree._Element | None,
    url: str | None = None,
    *,
    links: bool = True,
    images: bool = False,
    all_buttons: bool = False,
) -> str:
    """The kept blocks as Markdown (see the module docstring); ``all_buttons``
    as ``segment`` was called for ``blocks``."""
    kept = [number for number, block in enumerate(blocks) if block.label is GOOD]
    if root is None or not kept:
        return ""
    # The subtrees to walk, in document order, each with the first block in it
    # (kept or not): the walk numbers its stretches from there.
    firsts: dict = {}
    walk_roots: dict = {}
    cuts: dict = {}
    for number in kept:
        firsts.setdefault(_walk_root(blocks[number].element, walk_roots, cuts), number)
    under_root: dict = {}  # element: the walk root at or above it, or None
    tops = [r for r in firsts if _nearest_in(r.getparent(), firsts, under_root) is None]
    top_set = set(tops)
    top_of: dict = {}
    for top in tops:
        first = firsts[top]
        while first and _nearest_in(blocks[first - 1].element, top_set, top_of) is top:
            first -= 1
        firsts[top] = first
    base = base_url(root, url)
    renderer = _Renderer(blocks, base, links, images, all_buttons)
    for top in tops:
        renderer.walk(top, firsts[top])
    return renderer.markdown()
