"""The docs' Sphinx extension: references made from the code, links made cross-references.

``.. declutter-settings:: layer`` (or ``options``) renders the table of the
Scrapy layer's settings (``Config``'s fields) or of the extraction options
(``Options``' fields): each setting's name, type, default, whether
``meta["declutter"]`` may override it, and the ``#:`` comment above its field.
``.. declutter-stats:: STATS`` (or ``PAGES_SKIPPED``, ``ITEMS_SKIPPED``)
renders that table of ``scrapy_layer/stats.py``. Each row is a target a page
or a log line can link to, as in Scrapy's docs:
``settings.html#std-setting-DECLUTTER_TIMEOUT``,
``stats.html#std-stat-declutter-pages`` (a skip reason is its stat:
``#std-stat-declutter-pages_skipped-not_html``), and the roles
``:setting:`DECLUTTER_TIMEOUT``` and ``:stat:`declutter/pages``` link to them
from any page (the build fails on a name no table has). In the site, a
setting or a stat quoted as code (````DECLUTTER_TIMEOUT````) is such a link
too, so the pages, read on a forge, need no role. Both directives are
plain docutils directives (and ``literal_role`` the roles' stand-in), so
``tests/test_docs.py`` renders the pages with them too.

The pages link to each other as a forge shows them, by file, with the page's
title as the text (```Using scrapy-declutter <usage.rst>`_``:
``tests/test_docs.py`` checks the text); in the site each such link becomes a
``:doc:`` reference, which the build checks, and one whose text is a file
name shows the page's title. Pages outside ``docs/`` included whole
(``conf.py``'s ``declutter_included_pages``: the README, CHANGES) are linked to
as the page that includes them.
"""

import ast
import dataclasses
import inspect
import re
import textwrap
import types
import typing
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from docutils import nodes
from docutils.parsers.rst import Directive
from docutils.statemachine import StringList

from scrapy_declutter import Options
from scrapy_declutter.scrapy_layer import stats
from scrapy_declutter.scrapy_layer.config import PER_PAGE_KEYS, Config, all_settings, setting_name

# A link to a page by its file: `text <target.rst>`_ (the text may span lines), not
# one quoted in a literal (``...``).
PAGE_LINK = re.compile(r"(?<!`)`([^`<]+?)\s*<([^<>\s`]+\.rst)>`_")
SETTINGS_OF = {"layer": Config, "options": Options}
# The object type (and role) of each table's first column, and the stat a reason is counted in.
STAT_OF_REASON = {
    "PAGES_SKIPPED": "declutter/pages_skipped/{}",
    "ITEMS_SKIPPED": "declutter/items_skipped/{}",
}
STATS_HEADERS = {
    "STATS": ("Stat", "What it counts"),
    "PAGES_SKIPPED": ("Reason", "Why the response is not decluttered"),
    "ITEMS_SKIPPED": ("Reason", "Why the item is not filled"),
}


def field_comments(cls: type) -> dict[str, str]:
    """Each field of dataclass ``cls`` with the ``#:`` comment lines above it, joined."""
    lines, _ = inspect.getsourcelines(cls)
    (class_def,) = ast.parse(textwrap.dedent("".join(lines))).body
    comments = {}
    for node in class_def.body:
        if isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
            above = []
            index = node.lineno - 2  # the line above, counted from 0
            while index >= 0 and lines[index].lstrip().startswith("#:"):
                above.insert(0, lines[index].lstrip()[2:].strip())
                index -= 1
            comments[node.target.id] = " ".join(above)
    return comments


def type_name(hint: Any) -> str:
    """``bool``, ``str or None``, ``dict`` (for a ``Mapping``): as a settings file writes it."""
    if typing.get_origin(hint) is Mapping:
        return "dict"
    if isinstance(hint, types.UnionType):
        return " or ".join(type_name(arg) for arg in typing.get_args(hint))
    return "None" if hint is type(None) else hint.__name__


def default_literal(value: Any) -> str:
    return f"``{value}``" if isinstance(value, str) else f"``{value!r}``"


def setting_rows(cls: type) -> list[tuple[str, str, str, str, str]]:
    """(setting, type, default, per request, meaning) for each setting ``cls`` defines."""
    defaults = all_settings()
    hints = typing.get_type_hints(cls)
    comments = field_comments(cls)
    return [
        (
            f"``{setting_name(f.name)}``",
            type_name(hints[f.name]),
            default_literal(defaults[setting_name(f.name)]),
            "yes" if f.name in PER_PAGE_KEYS else "no",
            comments[f.name],
        )
        for f in dataclasses.fields(cls)
        if f.name != "options"
    ]


def list_table(header: tuple[str, ...], rows: list[tuple[str, ...]]) -> list[str]:
    lines = [".. list-table::", "   :header-rows: 1", ""]
    for row in [header, *rows]:
        lines += [("   * - " if i == 0 else "     - ") + cell for i, cell in enumerate(row)]
    return lines


def anchor(objtype: str, name: str) -> str:
    """The id of the target of setting or stat ``name``: Sphinx's, as Scrapy's docs
    have them (``std-setting-DOWNLOAD_DELAY``): case and ``_`` kept, others ``-``."""
    return f"std-{objtype}-" + re.sub(r"[^A-Za-z0-9_.]+", "-", name).strip("-")


def literal_role(name: str, rawtext: str, text: str, *args: Any, **kwargs: Any) -> Any:
    """``:setting:`` and ``:stat:`` outside Sphinx (``tests/test_docs.py``): the name as code."""
    return [nodes.literal(rawtext, text)], []


class _GeneratedTable(Directive):
    required_arguments = 1

    def render(self, lines: list[str], objtype: str, names: list[str]) -> list[nodes.Node]:
        """The table of ``lines``, each body row the target of ``objtype`` ``names[i]``,
        its first cell a link to itself (to copy)."""
        container = nodes.container()
        source = f"<{self.name} {self.arguments[0]}>"
        self.state.nested_parse(StringList(lines, source), self.content_offset, container)
        document = self.state.document
        env = getattr(document.settings, "env", None)  # None outside Sphinx
        rows = [row for body in container.findall(nodes.tbody) for row in body.children]
        for row, name in zip(rows, names, strict=True):
            node_id = anchor(objtype, name)
            if node_id in document.ids:
                raise self.error(f"{objtype} {name} is in two tables")
            row["ids"].append(node_id)
            document.ids[node_id] = row
            cell = row.children[0].children[0]  # the paragraph of the first cell
            link = nodes.reference("", "", *cell.children, refid=node_id, internal=True)
            cell.children = []
            cell += link
            if env is not None:  # a Sphinx object, in the index as Scrapy's settings are
                from sphinx import addnodes

                std = env.domains.standard_domain
                std.note_object(objtype, name, node_id, location=row)
                entry = ("pair", f"{name}; {objtype}", node_id, "", None)
                cell.insert(0, addnodes.index(entries=[entry]))
        return container.children


class SettingsReference(_GeneratedTable):
    """``.. declutter-settings:: layer|options``"""

    def run(self) -> list[nodes.Node]:
        cls = SETTINGS_OF.get(self.arguments[0])
        if cls is None:
            raise self.error(f"expected one of {', '.join(SETTINGS_OF)}")
        header = ("Setting", "Type", "Default", "Per request", "Meaning")
        rows = setting_rows(cls)
        return self.render(list_table(header, rows), "setting", [r[0].strip("`") for r in rows])


class StatsReference(_GeneratedTable):
    """``.. declutter-stats:: STATS|PAGES_SKIPPED|ITEMS_SKIPPED``"""

    def run(self) -> list[nodes.Node]:
        header = STATS_HEADERS.get(self.arguments[0])
        if header is None:
            raise self.error(f"expected one of {', '.join(STATS_HEADERS)}")
        table = getattr(stats, self.arguments[0])
        stat = STAT_OF_REASON.get(self.arguments[0], "{}")
        rows = [(f"``{k}``", v) for k, v in table.items()]
        return self.render(list_table(header, rows), "stat", [stat.format(k) for k in table])


def cross_references(text: str, page: Path, srcdir: Path, included: Mapping[Path, str]) -> str:
    """``text`` of the file ``page`` with its links to pages made ``:doc:`` references."""

    def reference(link: re.Match) -> str:
        target = (page.parent / link.group(2)).resolve()
        if target in included:
            docname = included[target]
        elif target.is_relative_to(srcdir):
            docname = target.relative_to(srcdir).with_suffix("").as_posix()
        else:
            return link.group(0)
        if link.group(1).endswith(".rst"):  # a file name: the page's title instead
            return f":doc:`/{docname}`"
        return f":doc:`{link.group(1)} </{docname}>`"

    return PAGE_LINK.sub(reference, text)


def names_linked() -> dict[str, str]:
    """Each setting and stat name to its object type: the code a page quotes that links."""
    names = dict.fromkeys(all_settings(), "setting")
    names.update(dict.fromkeys(stats.STATS, "stat"))
    for table, stat in STAT_OF_REASON.items():
        names.update({stat.format(reason): "stat" for reason in getattr(stats, table)})
    return names


def _link_names(app: Any, doctree: nodes.document) -> None:
    """Each ``NAME`` of a setting or stat in running text made a cross-reference to it."""
    from sphinx import addnodes

    names = names_linked()
    linked = (nodes.reference, nodes.title, addnodes.pending_xref)  # a link already, or a title
    for literal in list(doctree.findall(nodes.literal)):
        objtype = names.get(literal.astext())
        parent = literal.parent
        while parent is not None and not isinstance(parent, linked):
            parent = parent.parent
        if objtype is None or parent is not None:
            continue
        xref = addnodes.pending_xref(
            "",
            refdomain="std",
            reftype=objtype,
            reftarget=literal.astext(),
            refexplicit=True,
            refwarn=True,
        )
        literal.replace_self(xref)
        xref += literal


def _included(app: Any) -> dict[Path, str]:
    srcdir = Path(app.srcdir).resolve()
    return {(srcdir / p).resolve(): doc for p, doc in app.config.declutter_included_pages.items()}


def _page_read(app: Any, docname: str, source: list[str]) -> None:
    page = Path(app.env.doc2path(docname)).resolve()
    source[0] = cross_references(source[0], page, Path(app.srcdir).resolve(), _included(app))


def _include_read(app: Any, relative_path: Path, parent_docname: str, content: list[str]) -> None:
    srcdir = Path(app.srcdir).resolve()
    page = (srcdir / relative_path).resolve()
    content[0] = cross_references(content[0], page, srcdir, _included(app))


def setup(app: Any) -> dict[str, Any]:
    app.add_config_value("declutter_included_pages", {}, "env")
    app.add_crossref_type("setting", "setting", indextemplate="pair: %s; setting")
    app.add_crossref_type("stat", "stat", indextemplate="pair: %s; stat")
    app.add_directive("declutter-settings", SettingsReference)
    app.add_directive("declutter-stats", StatsReference)
    app.connect("source-read", _page_read)
    app.connect("doctree-read", _link_names)
    app.connect("include-read", _include_read)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
