"""The docs' promises: every setting with its default, figures from saved output, live links."""

import io
import json
import re
from pathlib import Path

import docutils.core
import pytest

from scrapy_declutter import extract
from scrapy_declutter.core.languages import ISO_639_1, stoplist_names
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


def default_literal(value) -> str:
    return f"``{value}``" if isinstance(value, str) else f"``{value!r}``"


def settings_table() -> dict[str, str]:
    """The reference table's rows: setting name to its Default column."""
    lines = read(REPO / "docs" / "settings.rst").splitlines()
    rule = next(line for line in lines if line.startswith("=====") and " " in line)
    columns = [match.span() for match in re.finditer(r"=+", rule)]
    start, end = columns[2]
    return {
        match.group(1): line[start:end].strip()
        for line in lines
        if (match := re.match(r"``(DECLUTTER_\w+)``", line))
    }


def test_every_setting_is_in_the_reference_with_the_default_the_code_defines():
    table = settings_table()
    documented = {name: table.get(name) for name in all_settings()}
    assert documented == {name: default_literal(d) for name, d in all_settings().items()}


def test_the_reference_lists_no_setting_the_code_lacks():
    assert set(settings_table()) == set(all_settings())


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


@pytest.mark.parametrize("doc, results, quote", list(quoted_figures()))
def test_quoted_figures_are_in_the_benchmarks_saved_output(doc, results, quote):
    saved = REPO / results
    assert saved.is_file(), f"{doc.name} quotes {results}, which does not exist"
    lines = {line.strip() for line in read(saved).splitlines()}
    assert quote, f"{doc.name}: nothing quoted after the marker for {results}"
    assert [line for line in quote if line.strip() not in lines] == []


def test_saved_output_names_the_command_that_wrote_it():
    for saved in (REPO / "benchmarks" / "results").glob("*.txt"):
        assert read(saved).startswith("$ python benchmarks/"), saved.name


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
    warnings = io.StringIO()
    docutils.core.publish_doctree(
        read(doc),
        source_path=str(doc),
        settings_overrides={"warning_stream": warnings, "report_level": 2, "halt_level": 5},
    )
    assert warnings.getvalue() == ""


def test_links_between_the_docs_lead_to_files():
    broken = []
    for doc in DOCS:
        for target in re.findall(r"<([^<>\s]+\.rst)>`_", read(doc)):
            if not (doc.parent / target).is_file():
                broken.append((doc.name, target))
    assert broken == []


def test_no_path_of_a_particular_machine_in_the_docs_or_results():
    files = [*DOCS, *(REPO / "benchmarks" / "results").glob("*.txt")]
    assert [f.name for f in files if re.search(r"(/work/|/tmp/|/home/)", read(f))] == []
