"""The package's layers import only the layers below them:
core → stages → outputs → extraction → scrapy_layer (and the package's
``__init__`` on top). The core is the block model and what every layer needs;
the stages label it, with the evidence they share; the outputs (Markdown,
metadata, the report) are read off a labelled document; the extraction puts
stages and outputs together (``presets``, ``extract``, ``explain``).
Inside ``stages/``, three floors: the features and the page's shared evidence
below, the rules of the default's decision (``stages/rules/``) above, none of
which imports another."""

import ast
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[1] / "scrapy_declutter"
LAYERS = ["core", "stages", "outputs", "extraction", "scrapy_layer"]


def imported_layers(path: Path) -> set[str]:
    """The layers of the package that the module at ``path`` imports, anywhere in it."""
    layers = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        names = []
        if isinstance(node, ast.ImportFrom) and node.module:
            names = [node.module]
        elif isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        for name in names:
            parts = name.split(".")
            if parts[0] == "scrapy_declutter" and len(parts) > 1:
                layers.add(parts[1])
    return layers


@pytest.mark.parametrize("layer", LAYERS)
def test_a_layer_imports_only_itself_and_the_layers_below(layer):
    allowed = set(LAYERS[: LAYERS.index(layer) + 1])
    modules = sorted((PACKAGE / layer).rglob("*.py"))
    assert modules
    above = {
        str(path.relative_to(PACKAGE)): sorted(imported_layers(path) - allowed) for path in modules
    }
    assert {module: layers for module, layers in above.items() if layers} == {}


def test_every_module_is_in_a_layer():
    top = {path.name for path in PACKAGE.iterdir() if path.suffix == ".py" or path.is_dir()}
    assert top - {"__pycache__", "py.typed"} == {"__init__.py", *LAYERS}


STAGES = PACKAGE / "stages"
RULES = STAGES / "rules"
# features and the page's shared evidence below, the rules above, nothing above a rule
FLOORS = 3
LONGEST_CLASS = 120


def _module(path: Path) -> str:
    return ".".join(path.relative_to(PACKAGE.parent).with_suffix("").parts)


def imported_stage_modules(path: Path) -> set[str]:
    """The modules of ``stages/`` that the module at ``path`` imports."""
    known = {_module(p) for p in STAGES.rglob("*.py")}
    found = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom) and node.module:
            found |= {node.module} & known
            found |= {f"{node.module}.{alias.name}" for alias in node.names} & known
        elif isinstance(node, ast.Import):
            found |= {alias.name for alias in node.names} & known
    return found - {_module(path)}


def test_no_rule_imports_another_rule():
    rules = {_module(path) for path in RULES.glob("*.py")}
    assert len(rules) > 10
    imports = {_module(path): imported_stage_modules(path) & rules for path in RULES.glob("*.py")}
    assert {rule: sorted(other) for rule, other in imports.items() if other} == {}


def test_the_stages_stand_on_at_most_three_floors():
    imports = {_module(path): imported_stage_modules(path) for path in STAGES.rglob("*.py")}
    floors: dict[str, int] = {}

    def floor(module: str) -> int:
        if module not in floors:
            floors[module] = 1 + max(map(floor, imports[module]), default=0)
        return floors[module]

    assert max(map(floor, imports)) <= FLOORS
    # a rule stands on the top floor: nothing imports it but the presets
    rules = {_module(path) for path in RULES.glob("*.py") if path.name != "__init__.py"}
    assert {m for m, found in imports.items() if found & rules} == set()


def test_every_class_of_the_stages_is_short_enough_to_read_in_one_sitting():
    lengths = {
        f"{path.relative_to(PACKAGE)}:{node.name}": node.end_lineno - node.lineno + 1
        for path in STAGES.rglob("*.py")
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8")))
        if isinstance(node, ast.ClassDef) and node.end_lineno is not None
    }
    assert {name: n for name, n in lengths.items() if n >= LONGEST_CLASS} == {}


CORE = PACKAGE / "core"
# The one module of the core that no stage needs: the cyclic garbage
# collector's pause around a page's work, which the extraction, the report and
# the Scrapy layer's threads share.
CORE_BESIDE_THE_STAGES = {"gc_pause"}


def imported_modules(path: Path, package: str) -> set[str]:
    """The modules of ``scrapy_declutter.<package>`` that the module at ``path`` imports."""
    prefix = f"scrapy_declutter.{package}"
    found = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom) and node.module == prefix:
            found |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and (node.module or "").startswith(prefix + "."):
            found.add(node.module.split(".")[2])
    return found


def test_the_core_is_what_the_stages_stand_on():
    """No output writer in the core: each of its modules is one the stages
    read, or one that such a module reads."""
    read = set().union(*(imported_modules(path, "core") for path in STAGES.rglob("*.py")))
    while True:
        more = set().union(*(imported_modules(CORE / f"{name}.py", "core") for name in read))
        if more <= read:
            break
        read |= more
    core = {path.stem for path in CORE.glob("*.py")} - {"__init__"}
    assert core - read == CORE_BESIDE_THE_STAGES
