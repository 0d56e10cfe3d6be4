"""The example project crawls its offline site as the README's first command does."""

import json
import os
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
ARTICLES = {
    "New ferry terminal to open next spring": ("English", "The harbour authority said on Tuesday"),
    "Town library reopens after two years of repairs": ("English", "The town library on Quay Street"),
    "Neue Brücke wird im Sommer eröffnet": ("German", "Die Stadtverwaltung hat am Dienstag"),
    "Wochenmarkt zieht an den Hafen": ("German", "Der Wochenmarkt, der seit mehr als hundert Jahren"),
}
BOILERPLATE = ("We use cookies", "Wir verwenden Cookies", "Subscribe now", "Jetzt abonnieren",
               "All rights reserved", "Rechte vorbehalten", "Related stories", "Mehr zum Thema",
               "Kommentare", "Comments (2)", "Typical.", "Endlich!", "Most read")


def test_example_crawl_writes_clean_items(tmp_path):
    out = tmp_path / "news.jsonl"
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    result = subprocess.run(
        [sys.executable, "-m", "scrapy", "crawl", "news", "-O", str(out)],
        cwd=REPO / "example_project", env=env, capture_output=True, text=True, timeout=120,
    )
    assert result.returncode == 0, result.stderr
    assert "declutter: 5 pages decluttered" in result.stderr
    items = [json.loads(line) for line in out.read_text(encoding="utf-8").splitlines()]

    assert sorted(item["title"] for item in items) == sorted(ARTICLES)
    for item in items:
        language, sentence = ARTICLES[item["title"]]
        assert item["language"] == language
        assert sentence in item["text"]
        assert not [text for text in BOILERPLATE if text in item["text"]]
        assert item["blocks"] and {block["label"] for block in item["blocks"]} == {"good"}
