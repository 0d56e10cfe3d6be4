"""The benchmarks are tools (issue 40): a few scripts, importing the package and
their shared helper, never the tests (the tests may import them)."""

import ast
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
SCRIPTS = sorted((REPO / "benchmarks").glob("*.py"))


def imported(script: Path) -> set[str]:
    names = set()
    for node in ast.walk(ast.parse(script.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            names |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            names.add(node.module)
    return names


def test_at_most_fifteen_scripts():
    assert len(SCRIPTS) <= 15, [s.name for s in SCRIPTS]


def test_benchmarks_import_no_test_module():
    assert {
        s.name: sorted(n for n in imported(s) if n == "tests" or n.startswith("tests."))
        for s in SCRIPTS
    } == {s.name: [] for s in SCRIPTS}
