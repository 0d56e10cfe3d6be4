"""What ``stages/tag_lines.py`` takes from the default's text, and variants of it.

Usage (from the repository root)::

    python benchmarks/tag_lines.py --from-scores FILE [CORPUS ...] [--save FILE] [--samples N]

Each page goes through the default pipeline with the models' held-out scores
and without ``KeepOutTagLines``; then ``rule_tests.compare`` prints, for the
rule as shipped (a tag line, ``tag_lines.is_tag_line``, outside the prose
run of a page the gate takes for an article) and for wider forms of it (any
label followed by anything; anywhere on an article page; on any page), each
corpus's F1 and the kept blocks each takes (``edge_labels.candidates``).
"""

import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))
from benchmarks.edge_labels import candidates  # noqa: E402
from benchmarks.rule_tests import compare  # noqa: E402
from scrapy_declutter.stages.tag_lines import TAG_LABEL, KeepOutTagLines, is_tag_line  # noqa: E402

TESTS = {
    "as shipped": lambda c: c.article and c.where in ("before", "after") and is_tag_line(c.text),
    "any text after the label": lambda c: (
        c.article and c.where in ("before", "after") and bool(TAG_LABEL.match(c.text))
    ),
    "anywhere on an article page": lambda c: c.article and is_tag_line(c.text),
    "on any page": lambda c: is_tag_line(c.text),
}

if __name__ == "__main__":
    compare(__doc__.split("\n\n")[0], KeepOutTagLines, TESTS, candidates)
