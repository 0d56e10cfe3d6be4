"""The versions CI tests are the versions setup.cfg claims."""

import configparser
import re
from pathlib import Path

import pytest
from packaging.requirements import Requirement

REPO = Path(__file__).resolve().parents[1]


def floors() -> dict[str, str]:
    """Each runtime requirement's lower bound in setup.cfg, by lower-case name:
    ``install_requires`` and the ``poet`` extra (the page objects)."""
    config = configparser.ConfigParser()
    config.read(REPO / "setup.cfg", encoding="utf-8")
    found = {}
    lines = config["options"]["install_requires"].splitlines()
    lines += config["options.extras_require"]["poet"].splitlines()
    for line in lines:
        line = line.split("#", 1)[0].strip()
        if line:
            requirement = Requirement(line)
            (bound,) = (spec.version for spec in requirement.specifier if spec.operator == ">=")
            found[requirement.name.lower()] = bound
    return found


def pins() -> dict[str, str]:
    """``.ci/oldest.txt``'s pins, by lower-case name."""
    text = (REPO / ".ci" / "oldest.txt").read_text(encoding="utf-8")
    return {
        name.lower(): version
        for name, version in re.findall(r"^([\w.-]+)==(\S+)$", text, flags=re.MULTILINE)
    }


def test_the_oldest_releases_ci_installs_are_setup_cfgs_floors():
    # A floor such as "lxml>=6.0" is pinned as its first release, 6.0.0.
    normalise = lambda version: re.sub(r"(\.0)+$", "", version)  # noqa: E731
    assert {name: normalise(v) for name, v in pins().items()} == {
        name: normalise(v) for name, v in floors().items()
    }


@pytest.mark.parametrize("doc", ["README.rst", "docs/install.rst"])
def test_the_docs_name_the_floors(doc):
    text = " ".join((REPO / doc).read_text(encoding="utf-8").split())
    scrapy = ".".join(floors()["scrapy"].split(".")[:2])
    assert f"Scrapy {scrapy} or later" in text
    assert f"lxml {floors()['lxml']}" in text


def test_the_test_extra_tests_the_poet_extras_ranges():
    # the README's test command installs the test extra: it must bring the page
    # objects' libraries in the ranges the poet extra allows, so that the suite
    # (and CI's oldest run, through .ci/oldest.txt) tests what users install
    config = configparser.ConfigParser()
    config.read(REPO / "setup.cfg", encoding="utf-8")
    extras = config["options.extras_require"]

    def requirements(extra: str) -> dict[str, str]:
        lines = (line.split("#", 1)[0].strip() for line in extras[extra].splitlines())
        return {r.name.lower(): str(r.specifier) for r in map(Requirement, filter(None, lines))}

    poet = requirements("poet")
    assert set(poet) == {"web-poet", "scrapy-poet", "zyte-common-items"}
    assert {name: requirements("test").get(name) for name in poet} == poet
