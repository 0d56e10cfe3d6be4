"""The docs' promises: every setting and stat the code has, figures from saved output, links."""

import ast
import importlib.util
import io
import json
import re
from pathlib import Path

import docutils.core
import pytest
from docutils import nodes
from docutils.parsers.rst import Directive, directives, roles

import scrapy_declutter
from scrapy_declutter import extract
from scrapy_declutter.core.languages import ISO_639_1, stoplist_names
from scrapy_declutter.scrapy_layer import stats
from scrapy_declutter.scrapy_layer.config import all_settings
from scrapy_declutter.stages.feature_descriptions import FEATURES, PREFIXES, describe

REPO = Path(__file__).resolve().parents[1]
DOCS = sorted([REPO / "README.rst", REPO / "CHANGES.rst", *(REPO / "docs").rglob("*.rst")])
FIGURES = re.compile(r"^\.\. figures: (\S+)\n", re.MULTILINE)
EXAMPLE_PAGE = REPO / "example_project" / "newsroom" / "site" / "en" / "ferry-terminal.html"


def read(path: Path) -> str:
    return path.read_text(encoding="utf-8")


def quoted_figures():
    """(docs file, results file, quoted lines) for each ``.. figures: FILE`` marker.

    The quote is the next paragraph after the marker (a table, or a literal
    block after a lone ``::``).
    """
    for doc in DOCS:
        text = read(doc)
        for marker in FIGURES.finditer(text):
            following = text[marker.end() :].lstrip("\n")
            if following.startswith("::\n"):
                following = following[3:].lstrip("\n")
            quote = following.split("\n\n")[0].splitlines()
            yield pytest.param(doc, marker.group(1), quote, id=f"{doc.name}:{marker.group(1)}")


def load_docs_extension():
    """``docs/_ext/declutter_docs.py``, whose directives the pages use."""
    path = REPO / "docs" / "_ext" / "declutter_docs.py"
    spec = importlib.util.spec_from_file_location("declutter_docs", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


class SphinxOnly(Directive):
    """Sphinx's ``toctree``, and autodoc's directives (``api.rst``), which docutils
    lacks: the site's navigation, and the docstrings the build reads; nothing here."""

    optional_arguments = 1
    final_argument_whitespace = True
    has_content = True
    option_spec = {
        "hidden": directives.flag,
        "caption": directives.unchanged,
        "members": directives.unchanged,
        "undoc-members": directives.flag,
        "show-inheritance": directives.flag,
    }

    def run(self):
        return []


AUTODOC = ["currentmodule", "autofunction", "autoclass", "autoexception"]


EXTENSION = load_docs_extension()
directives.register_directive("declutter-settings", EXTENSION.SettingsReference)
directives.register_directive("declutter-stats", EXTENSION.StatsReference)
for name in ["toctree", *AUTODOC]:
    directives.register_directive(name, SphinxOnly)
roles.register_local_role("setting", EXTENSION.literal_role)
roles.register_local_role("stat", EXTENSION.literal_role)


def doctree(doc: Path):
    """The page parsed by docutils; its warnings fail the test that asks."""
    warnings = io.StringIO()
    tree = docutils.core.publish_doctree(
        read(doc),
        source_path=str(doc),
        settings_overrides={"warning_stream": warnings, "report_level": 2, "halt_level": 5},
    )
    assert warnings.getvalue() == "", doc.name
    return tree


def table_rows(doc: Path) -> list[list[str]]:
    """The text of each cell of each body row of the page's tables."""
    return [
        [entry.astext() for entry in row.findall(nodes.entry)]
        for body in doctree(doc).findall(nodes.tbody)
        for row in body.findall(nodes.row)
    ]


def default_literal(value) -> str:
    return str(value) if isinstance(value, str) else repr(value)


def settings_table() -> dict[str, list[str]]:
    """The settings reference as rendered: setting name to its other cells."""
    return {row[0]: row[1:] for row in table_rows(REPO / "docs" / "settings.rst")}


def test_every_setting_is_in_the_reference_with_the_default_the_code_defines():
    table = settings_table()
    documented = {name: table[name][1] if name in table else None for name in all_settings()}
    assert documented == {name: default_literal(d) for name, d in all_settings().items()}


def test_the_reference_lists_no_setting_the_code_lacks():
    assert set(settings_table()) == set(all_settings())


def row_anchors(doc: Path) -> list[tuple[str, str]]:
    """(the text of its first cell, its id) for each body row of the page's tables."""
    return [
        (row.children[0].astext(), row["ids"][0])
        for body in doctree(doc).findall(nodes.tbody)
        for row in body.findall(nodes.row)
        if row["ids"]
    ]


def test_every_setting_has_an_anchor_to_link_to():
    anchors = dict(row_anchors(REPO / "docs" / "settings.rst"))
    assert anchors == {name: f"std-setting-{name}" for name in all_settings()}
    assert anchors["DECLUTTER_TIMEOUT"] == "std-setting-DECLUTTER_TIMEOUT"  # as Scrapy's docs


def test_every_stat_and_reason_has_an_anchor_to_link_to():
    anchors = {anchor for _, anchor in row_anchors(REPO / "docs" / "stats.rst")}
    stat_names = [name for name, kind in EXTENSION.names_linked().items() if kind == "stat"]
    assert anchors == {EXTENSION.anchor("stat", name) for name in stat_names}
    assert "std-stat-declutter-pages_skipped-not_html" in anchors


def test_the_table_of_outputs_gives_the_settings_defaults_and_fields():
    settings = all_settings()
    rows = [row for row in table_rows(REPO / "docs" / "output.rst") if len(row) == 3]
    assert rows[0][:2] == ["always", f"{settings['DECLUTTER_TEXT_FIELD']} (DECLUTTER_TEXT_FIELD)"]
    rows = rows[1:]
    shown = {}
    for setting_cell, field_cell, _ in rows:
        name, default = re.fullmatch(r"(DECLUTTER_\w+) \((.*)\)", setting_cell).groups()
        shown[name] = default
        named = re.fullmatch(r"(\w+) \((DECLUTTER_\w+_FIELD)\)", field_cell)
        if named:  # the field's default name, and the setting that names it
            assert settings[named.group(2)] == named.group(1)
    assert shown == {name: json.dumps(settings[name]).replace("false", "False") for name in shown}
    assert set(shown) == {
        "DECLUTTER_BLOCKS",
        "DECLUTTER_MARKDOWN",
        "DECLUTTER_METADATA_FIELDS",
        "DECLUTTER_COMMENTS",
    }


def test_the_api_reference_documents_every_public_name():
    page = read(REPO / "docs" / "api.rst")
    documented = re.findall(r"^\.\. auto(?:function|class|exception):: ([\w.]+)", page, re.M)
    # a name under the package (``scrapy_declutter.X``, as ``currentmodule`` sets),
    # and others only as what a public one returns (``ExtractionResult.metadata``)
    assert sorted(name for name in documented if "." not in name) == sorted(
        scrapy_declutter.__all__
    )


def test_the_features_listed_are_described_as_the_code_describes_them():
    doc = read(REPO / "docs" / "algorithms" / "content-model.rst")
    section = doc.split("A feature's name says what it is")[1].split("\nThe model file\n")[0]
    items = re.findall(r"^\* ``(\S+)``: (.*(?:\n  .*)*)", section, re.MULTILINE)
    listed = {name: " ".join(text.split()) for name, text in items}
    assert listed == {name: describe(name) for name in listed}
    assert set(FEATURES) <= set(listed)
    # one example of each prefix: a name whose longest prefix it is
    examples = {
        max((p for p in PREFIXES if name.startswith(p)), key=len, default="") for name in listed
    }
    assert examples - {""} == set(PREFIXES)


def test_the_languages_listed_are_the_stoplists_with_their_codes():
    section = read(REPO / "docs" / "settings.rst").split("\nLanguages\n---------\n")[1]
    section = section.split("package's:\n\n")[1]  # the list after the introduction
    listed = re.findall(r"``(\w+)``(?:\s+\(([a-z, ]+)\))?[,.]", section)
    assert sorted(name for name, _ in listed) == sorted(stoplist_names())
    codes = {code: name for name, codes in listed for code in codes.split(", ") if code}
    assert codes == ISO_639_1


def test_every_setting_says_what_it_does():
    assert [name for name, cells in settings_table().items() if len(cells[3]) < 10] == []


def package_modules() -> list[ast.Module]:
    return [ast.parse(read(p)) for p in Path(scrapy_declutter.__file__).parent.rglob("*.py")]


def stats_counted() -> set[str]:
    """The stats the package's code names (``declutter/pages``), a formatted
    part as ``<>`` (``f"declutter/errors/{name}"``: ``declutter/errors/<>``)."""
    keys = set()
    for tree in package_modules():
        parts = {
            id(p) for node in ast.walk(tree) if isinstance(node, ast.JoinedStr) for p in node.values
        }
        for node in ast.walk(tree):
            if isinstance(node, ast.JoinedStr):
                key = "".join(p.value if isinstance(p, ast.Constant) else "<>" for p in node.values)
            elif isinstance(node, ast.Constant) and id(node) not in parts:
                key = node.value  # a key as STATS writes it (with <reason>) does not match
            else:
                continue
            if isinstance(key, str) and re.fullmatch(r"declutter/(\w+|<>)(/(\w+|<>))*", key):
                keys.add(key)
    return keys


def skip_reasons_passed(method: str) -> set[str]:
    """The reasons the package's code passes to ``Recorder.<method>``: a literal,
    or the literals a function assigns to the variable it passes."""
    reasons = set()
    for tree in package_modules():
        for function in ast.walk(tree):
            if not isinstance(function, (ast.FunctionDef, ast.AsyncFunctionDef)):
                continue
            assigned: dict[str, set[str]] = {}
            for node in ast.walk(function):
                if not isinstance(node, ast.Assign):
                    continue
                for target in node.targets:  # reason = "x", or reason, detail = "x", ...
                    pairs = [(target, node.value)]
                    if isinstance(target, ast.Tuple) and isinstance(node.value, ast.Tuple):
                        pairs = list(zip(target.elts, node.value.elts))
                    for name, value in pairs:
                        if isinstance(name, ast.Name) and isinstance(value, ast.Constant):
                            assigned.setdefault(name.id, set()).add(value.value)
            for node in ast.walk(function):
                if isinstance(node, ast.Call) and getattr(node.func, "attr", None) == method:
                    argument = node.args[0]  # the reason
                    if isinstance(argument, ast.Constant):
                        reasons.add(argument.value)
                    elif isinstance(argument, ast.Name):  # unknown: its name, which fails
                        reasons |= assigned.get(argument.id, {argument.id})
    return reasons


def test_the_stats_reference_lists_what_the_code_counts_and_nothing_else():
    patterns = {re.sub(r"<\w+>", "<>", key) for key in stats.STATS}
    # a key written out in full (``declutter/items_skipped/has_text``) is one of a pattern's
    instance = lambda key, pattern: re.fullmatch(re.escape(pattern).replace("<>", "[\\w<>]+"), key)  # noqa: E731
    counted = stats_counted()
    assert {key for key in counted if not any(instance(key, p) for p in patterns)} == set()
    assert {p for p in patterns if not any(instance(key, p) for key in counted)} == set()
    passed = skip_reasons_passed("page_skipped") | set(stats.LIMIT_SKIPS.values())
    assert set(stats.PAGES_SKIPPED) == passed
    assert set(stats.ITEMS_SKIPPED) == skip_reasons_passed("item_skipped")


def test_the_stats_page_renders_every_stat_and_reason():
    cells = {row[0] for row in table_rows(REPO / "docs" / "stats.rst")}
    assert cells == {*stats.STATS, *stats.PAGES_SKIPPED, *stats.ITEMS_SKIPPED}


@pytest.mark.parametrize("doc, results, quote", list(quoted_figures()))
def test_quoted_figures_are_in_the_benchmarks_saved_output(doc, results, quote):
    saved = REPO / results
    assert saved.is_file(), f"{doc.name} quotes {results}, which does not exist"
    lines = {line.strip() for line in read(saved).splitlines()}
    assert quote, f"{doc.name}: nothing quoted after the marker for {results}"
    assert [line for line in quote if line.strip() not in lines] == []


def test_saved_output_names_the_command_that_wrote_it():
    for saved in (REPO / "benchmarks" / "results").glob("*.txt"):
        command = re.match(r"\$ python -m benchmarks\.(\w+)", read(saved))
        assert command, saved.name
        # the script that wrote it is still there: a study that went took its results along
        assert (REPO / "benchmarks" / f"{command.group(1)}.py").is_file(), saved.name


def test_the_block_example_is_what_the_default_pipeline_gives():
    documented = read(REPO / "docs" / "output.rst").split("gives it")[1]
    example = json.loads(re.search(r"\n    (\{\n.*?\n    \})\n", documented, re.DOTALL).group(1))
    assert example == extract(EXAMPLE_PAGE.read_bytes()).to_dict()["blocks"][0]


def test_the_readmes_item_example_shows_the_same_block():
    first = extract(EXAMPLE_PAGE.read_bytes()).to_dict()["blocks"][0]
    example = read(REPO / "README.rst").split("The item output")[1].split("\n\n``text``")[0]
    assert f'"label": "{first["label"]}"' in example
    assert f'"score": {first["score"]}' in example
    assert first["text"].startswith(re.search(r'\{"text": "(.*?) \.\.\."', example).group(1))


def test_the_readmes_structured_example_is_what_the_page_gives():
    result = extract(EXAMPLE_PAGE.read_bytes())
    example = read(REPO / "README.rst").split('"date": "published"}``::')[1].split("\n\n\n")[0]
    shown = json.loads(example.replace('"url": "...",', "").replace(", ...", ""))
    assert (shown["title"], shown["published"]) == (result.metadata.title, result.metadata.date)
    assert result.text.startswith(shown["text"])
    assert result.markdown.startswith(shown["markdown"])


@pytest.mark.parametrize("doc", DOCS, ids=lambda doc: doc.name)
def test_every_page_is_valid_restructuredtext(doc):
    doctree(doc)


def test_links_between_the_docs_lead_to_files():
    broken = []
    for doc in DOCS:
        for target in re.findall(r"<([^<>\s]+\.rst)>`_", read(doc)):
            if not (doc.parent / target).is_file():
                broken.append((doc.name, target))
    assert broken == []


def page_title(path: Path) -> str:
    """The page's title as text (``The content model (the declutter pipeline)``)."""
    return next(doctree(path).findall(nodes.title)).astext()


def test_a_link_to_a_page_says_its_title():
    page_link = EXTENSION.PAGE_LINK
    wrong = []
    for doc in DOCS:
        for link in page_link.finditer(read(doc)):
            text, target = " ".join(link.group(1).split()), (doc.parent / link.group(2)).resolve()
            # the README is called so: its title is the project's name
            titles = {page_title(target).lower()} | (
                {"readme"} if target.name == "README.rst" else set()
            )
            if text.lower() not in titles:
                wrong.append((doc.name, text, link.group(2)))
    assert wrong == []


def test_no_path_of_a_particular_machine_in_the_docs_or_results():
    files = [*DOCS, *(REPO / "benchmarks" / "results").glob("*.txt")]
    assert [f.name for f in files if re.search(r"(/work/|/tmp/|/home/)", read(f))] == []
