"""The README's promises: its first two commands, which CI runs (the rest: test_docs.py)."""

import re
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
README = (REPO / "README.rst").read_text(encoding="utf-8")


def commands():
    return [block.strip() for block in re.findall(r"::\n\n((?:    .*\n)+)", README)]


def test_first_command_installs_and_runs_the_example_crawl_to_json_lines():
    first = commands()[0]
    assert "\n" not in first
    assert first.startswith("python -m pip install")
    assert "cd example_project && scrapy crawl news -O news.jsonl" in first


def test_second_command_is_what_ci_runs():
    second = commands()[1]
    assert second == 'python -m pip install -e ".[test]" && python -m pytest'


def test_ci_runs_both_commands_as_the_readme_writes_them():
    ci = (REPO / ".ci" / "run").read_text()
    assert "first=$(readme_command 0)" in ci and "second=$(readme_command 1)" in ci
    assert 'in_fresh_env crawl "$first"' in ci and 'in_fresh_env test "$second"' in ci
    assert "check_crawl.py" in ci
