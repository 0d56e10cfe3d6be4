"""The README's promises that no other test keeps: its first two commands are
what CI runs (CI runs the first and checks its crawl, so only the second's
words are checked here), and its ``ADDONS`` block turns the add-on on in the
settings ``scrapy startproject`` writes. The rest: test_docs.py."""

import os
import re
import subprocess
import sys
import textwrap
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
README = (REPO / "README.rst").read_text(encoding="utf-8")


def commands():
    blocks = re.findall(r"::\n\n((?:    .*\n)+)", README)
    return [textwrap.dedent(block).strip() for block in blocks]


def test_second_command_installs_the_test_extra_and_runs_the_tests():
    # a run of it passes whatever it runs: what it runs is checked here
    second = commands()[1]
    assert second == 'python -m pip install -e ".[test]" && python -m pytest'


def test_ci_runs_both_commands_as_the_readme_writes_them():
    ci = (REPO / ".ci" / "run").read_text()
    assert "first=$(readme_command 0)" in ci and "second=$(readme_command 1)" in ci
    assert 'in_fresh_env crawl "$first"' in ci and 'in_fresh_env test "$second"' in ci
    assert "check_crawl.py" in ci


def test_the_addons_block_turns_the_addon_on_in_a_new_project(tmp_path):
    [block] = [block for block in commands() if block.startswith("ADDONS")]
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    env.pop("SCRAPY_SETTINGS_MODULE", None)

    def scrapy(*args, cwd=tmp_path):
        result = subprocess.run(
            [sys.executable, "-m", "scrapy", *args],
            cwd=cwd,
            env=env,
            capture_output=True,
            text=True,
            timeout=120,
        )
        assert result.returncode == 0, result.stderr
        return result.stdout

    # The README shows the entry inside the dict: a line "ADDONS = {...}" of its
    # own, written above the template's "ADDONS = {}", was replaced by it.
    first, *entries, last = block.splitlines()
    assert (first, last) == ("ADDONS = {", "}") and entries
    scrapy("startproject", "news")
    settings = tmp_path / "news" / "news" / "settings.py"
    written = settings.read_text()
    assert written.count("\nADDONS = {}\n") == 1  # the dict the README says to add to
    filled = "\n".join(["ADDONS = {", *entries, "}"])
    settings.write_text(written.replace("\nADDONS = {}\n", f"\n{filled}\n"))
    addons = scrapy("settings", "--get", "ADDONS", cwd=tmp_path / "news")
    assert "scrapy_declutter.Addon" in addons
