"""The example project crawls its offline site as the README's first command does."""

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "example_project"))
from check_crawl import problems  # noqa: E402  (the checks CI runs after the README's first command)


def scrapy_crawl(out: Path, *settings: str) -> subprocess.CompletedProcess:
    """``scrapy crawl news -O out -s NAME=VALUE ...`` in the example project."""
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    options = [arg for setting in settings for arg in ("-s", setting)]
    return subprocess.run(
        [sys.executable, "-m", "scrapy", "crawl", "news", "-O", str(out), *options],
        cwd=REPO / "example_project",
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_example_crawl_writes_clean_items(tmp_path):
    out = tmp_path / "news.jsonl"
    result = scrapy_crawl(out)
    assert result.returncode == 0, result.stderr
    # the four articles; not the front page, which yields no item
    assert "declutter: 4 pages decluttered" in result.stderr
    items = [json.loads(line) for line in out.read_text(encoding="utf-8").splitlines()]

    assert problems(items) == []
    for item in items:
        assert item["blocks"] and {block["label"] for block in item["blocks"]} == {"good"}


def test_checks_catch_a_bad_crawl():
    assert problems([]) != []
    item = {
        "title": "New ferry terminal to open next spring",
        "language": "en",
        "text": "The harbour authority said on Tuesday ... We use cookies",
    }
    assert any("We use cookies" in problem for problem in problems([item]))


@pytest.mark.slow
@pytest.mark.parametrize(
    ("setting", "message"),
    [
        ("DECLUTTER_BLOCKS=some", "DECLUTTER_BLOCKS: expected one of all, kept, none, got 'some'"),
        ("DECLUTTER_WORKERS=-1", "DECLUTTER_WORKERS: expected a whole number >= 0, got -1"),
        ("DECLUTTER_LANGUAGE=klingon", "DECLUTTER_LANGUAGE: no stoplist for 'klingon'"),
        ("DECLUTTER_blocks=all", "DECLUTTER_blocks: unknown setting"),
    ],
)
def test_a_bad_setting_stops_the_crawl_in_one_error_line(tmp_path, setting, message):
    out = tmp_path / "news.jsonl"
    result = scrapy_crawl(out, setting)
    assert result.returncode == 1
    errors = [line for line in result.stderr.splitlines() if "ERROR" in line or "CRITICAL" in line]
    assert len(errors) == 1, result.stderr
    assert f"ERROR: declutter: {message}" in errors[0]
    assert "Traceback" not in result.stderr
    assert not out.exists() or out.read_text() == ""  # not one item


SCRIPT = """
import sys
from scrapy.crawler import {process}
from scrapy.utils.project import get_project_settings

settings = get_project_settings()
settings.set("DECLUTTER_BLOCKS", "some", priority="cmdline")
process = {process}(settings)
crawl = process.crawl("news")
{handle}
process.start()
sys.exit(1 if process.bootstrap_failed else 0)
"""


@pytest.mark.slow
@pytest.mark.parametrize(
    ("process", "handle"),
    [
        ("AsyncCrawlerProcess", ""),
        # a Deferred nobody handles is reported by Twisted, so the script handles it
        ("CrawlerProcess", "crawl.addErrback(lambda failure: None)"),
    ],
)
def test_a_script_sees_the_bad_setting_in_one_error_line(process, handle):
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    result = subprocess.run(
        [sys.executable, "-c", SCRIPT.format(process=process, handle=handle)],
        cwd=REPO / "example_project",
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode == 1
    errors = [line for line in result.stderr.splitlines() if "ERROR" in line or "CRITICAL" in line]
    assert len(errors) == 1, result.stderr
    assert "declutter: DECLUTTER_BLOCKS: expected one of all, kept, none, got 'some'" in errors[0]
    assert "Traceback" not in result.stderr


@pytest.mark.slow
def test_the_page_object_profile_crawls_articles(tmp_path):
    pytest.importorskip("scrapy_poet")
    out = tmp_path / "articles.jsonl"
    env = {**os.environ, "PYTHONPATH": str(REPO), "SCRAPY_PROJECT": "poet"}
    result = subprocess.run(
        [sys.executable, "-m", "scrapy", "crawl", "news_articles", "-O", str(out)],
        cwd=REPO / "example_project",
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode == 0, result.stderr
    assert "declutter: 5 pages decluttered" in result.stderr
    articles = [json.loads(line) for line in out.read_text(encoding="utf-8").splitlines()]

    # every article of the site, once, as an Article (the front page is dropped
    # by its probability); the same checks as the add-on's items
    items = [
        {"title": a["headline"], "language": a["inLanguage"], "text": a["articleBody"]}
        for a in articles
    ]
    assert problems(items) == []
    for article in articles:
        assert article["metadata"]["probability"] >= 0.5
        assert article["articleBodyHtml"].startswith("<article>")
        assert "<script" not in article["articleBodyHtml"]
        assert article["url"].endswith(".html")
