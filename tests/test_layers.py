"""The package's layers import only the layers below them:
core → stages → extraction → scrapy_layer (and the package's ``__init__`` on top)."""

import ast
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[1] / "scrapy_declutter"
LAYERS = ["core", "stages", "extraction", "scrapy_layer"]


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
