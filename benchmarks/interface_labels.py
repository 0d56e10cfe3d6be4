"""What the controls rule (``stages/interface_labels.py``) takes from the default's text.

Usage (from the repository root)::

    python benchmarks/interface_labels.py --from-scores FILE [CORPUS ...] [--save FILE]

For the rule as shipped and for variants not shipped, the figures
``rule_tests.compare`` prints.
"""

import sys
from collections.abc import Callable
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))
from benchmarks.rule_tests import compare  # noqa: E402
from scrapy_declutter.core.document import Document  # noqa: E402
from scrapy_declutter.stages import interface_labels  # noqa: E402
from scrapy_declutter.stages.article_end import taken_for_article  # noqa: E402
from scrapy_declutter.stages.content_region import KEEPING  # noqa: E402

# Each test: (whether the page is an article, the block's text, whether it
# is a heading) -> taken out.
TESTS: dict[str, Callable[[bool, str, bool], bool]] = {
    "shipped (article pages)": lambda article, text, heading: (
        article and interface_labels.is_interface_label(text, heading)
    ),
    "not shipped: headings of networks too": lambda article, text, heading: (
        article and interface_labels.is_interface_label(text)
    ),
    "not shipped: any page": lambda article, text, heading: interface_labels.is_interface_label(
        text, heading
    ),
}


def candidates(document: Document) -> list[tuple[str, tuple[bool, str, bool]]]:
    """Each kept block's text, and what the tests read: whether the gate
    takes the page for an article, the text, whether it is a heading."""
    article = taken_for_article(document)
    return [(b.text, (article, b.text, b.heading)) for b in document.blocks if b.reason in KEEPING]


if __name__ == "__main__":
    compare(
        __doc__.split("\n\n")[0],
        interface_labels.KeepOutInterfaceLabels,
        {name: (lambda tested, test=test: test(*tested)) for name, test in TESTS.items()},
        candidates,
    )
