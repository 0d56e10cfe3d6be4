"""The example project crawls its offline site as the README's first command does."""

import json
import os
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "example_project"))
from check_crawl import problems  # noqa: E402  (the checks CI runs after the README's first command)


def test_example_crawl_writes_clean_items(tmp_path):
    out = tmp_path / "news.jsonl"
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    result = subprocess.run(
        [sys.executable, "-m", "scrapy", "crawl", "news", "-O", str(out)],
        cwd=REPO / "example_project",
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode == 0, result.stderr
    assert "declutter: 5 pages decluttered" in result.stderr
    items = [json.loads(line) for line in out.read_text(encoding="utf-8").splitlines()]

    assert problems(items) == []
    for item in items:
        assert item["blocks"] and {block["label"] for block in item["blocks"]} == {"good"}


def test_checks_catch_a_bad_crawl():
    assert problems([]) != []
    item = {
        "title": "New ferry terminal to open next spring",
        "language": "English",
        "text": "The harbour authority said on Tuesday ... We use cookies",
    }
    assert any("We use cookies" in problem for problem in problems([item]))
