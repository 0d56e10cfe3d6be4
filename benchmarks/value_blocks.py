"""What the value rule (``stages/value_blocks.py``) takes from the default's text, rule by rule.

Usage (from the repository root)::

    python benchmarks/value_blocks.py --from-scores FILE [CORPUS ...] [--save FILE]

For each of the rule's tests alone, for the three together (``is_value``,
as shipped) and for tests not shipped, the figures ``rule_tests.compare``
prints (the kept blocks of a data table or in code are never tested).
"""

import re
import sys
from collections.abc import Callable
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))
from benchmarks.rule_tests import compare  # noqa: E402
from scrapy_declutter.core.document import Document  # noqa: E402
from scrapy_declutter.core.reasons import DATA_TABLE  # noqa: E402
from scrapy_declutter.stages import value_blocks  # noqa: E402


def whole(pattern: re.Pattern[str]) -> Callable[[str], bool]:
    """Whether all of a text (no white space in it) is ``pattern``."""

    def test(text: str) -> bool:
        text = text.strip()
        return bool(text) and " " not in text and pattern.fullmatch(text) is not None

    return test


def markup(text: str) -> bool:
    return "<" in text and value_blocks.is_value(text)


def comma_list(text: str) -> bool:
    """Three or more items of at most three words joined by commas, no other punctuation."""
    if text.count(",") < 2 or re.search(r"[.!?;:]", text):
        return False
    return all(item.strip() and len(item.split()) <= 3 for item in text.split(","))


TESTS: dict[str, Callable[[str], bool]] = {
    "timestamp": whole(value_blocks.TIMESTAMP),
    "image URL": whole(value_blocks.IMAGE_URL),
    "markup": markup,
    "the three (shipped)": value_blocks.is_value,
    "not shipped: any URL": whole(re.compile(r"(?:https?://|www\.)\S+", re.IGNORECASE)),
    "not shipped: a date": whole(re.compile(r"\d{4}-\d{2}-\d{2}")),
    "not shipped: one word": whole(re.compile(r"\w+")),
    "not shipped: comma list": comma_list,
}


def candidates(document: Document) -> list[tuple[str, str | None]]:
    """Each kept block's text, and the text again where the rule may test it."""
    kept = [b for b in document.blocks if b.is_good]
    return [
        (b.text, None if b.reason == DATA_TABLE or value_blocks.in_code(b.element) else b.text)
        for b in kept
    ]


if __name__ == "__main__":
    compare(
        __doc__.split("\n\n")[0],
        value_blocks.KeepOutValues,
        {
            name: (lambda text, test=test: text is not None and test(text))
            for name, test in TESTS.items()
        },
        candidates,
    )
