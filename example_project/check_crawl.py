"""Checks a crawl of the example site: ``python check_crawl.py news.jsonl``.

Every article of ``newsroom/site/`` must be an item, in its own language, with
its first sentence in ``text`` and none of the site's boilerplate. CI runs it
after the README's first command; ``tests/test_example_project.py`` too.
Standard library only, so it runs where only the package is installed.
"""

import json
import sys
from pathlib import Path

ARTICLES = {
    "New ferry terminal to open next spring": ("en", "The harbour authority said on Tuesday"),
    "Town library reopens after two years of repairs": (
        "en",
        "The town library on Quay Street",
    ),
    "Neue Brücke wird im Sommer eröffnet": ("de", "Die Stadtverwaltung hat am Dienstag"),
    "Wochenmarkt zieht an den Hafen": (
        "de",
        "Der Wochenmarkt, der seit mehr als hundert Jahren",
    ),
}
BOILERPLATE = (
    "We use cookies",
    "Wir verwenden Cookies",
    "Subscribe now",
    "Jetzt abonnieren",
    "All rights reserved",
    "Rechte vorbehalten",
    "Related stories",
    "Mehr zum Thema",
    "Kommentare",
    "Comments (2)",
    "Typical.",
    "Endlich!",
    "Most read",
)


def problems(items: list[dict]) -> list[str]:
    """What is wrong with a crawl's items (an empty list when nothing is)."""
    found = []
    titles = sorted(item.get("title") or "" for item in items)
    if titles != sorted(ARTICLES):
        found.append(f"items' titles {titles}, expected {sorted(ARTICLES)}")
    for item in items:
        if item.get("title") not in ARTICLES:
            continue
        language, sentence = ARTICLES[item["title"]]
        text = item.get("text") or ""
        if item.get("language") != language:
            found.append(
                f"{item['title']!r}: language {item.get('language')!r}, expected {language!r}"
            )
        if sentence not in text:
            found.append(f"{item['title']!r}: text lacks {sentence!r}")
        found += [f"{item['title']!r}: text keeps {junk!r}" for junk in BOILERPLATE if junk in text]
    return found


def main(path: str) -> int:
    lines = Path(path).read_text(encoding="utf-8").splitlines()
    found = problems([json.loads(line) for line in lines])
    for problem in found:
        print(f"{path}: {problem}", file=sys.stderr)
    print(f"{path}: {len(lines)} items, {'ok' if not found else f'{len(found)} problems'}")
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main(*sys.argv[1:]))
