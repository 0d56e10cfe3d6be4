"""Block-by-block parity with the jusText package on a fixed corpus sample.

The full-corpus figures come from ``benchmarks/parity.py``.
"""

import pytest

from benchmarks.corpus import load_pages

# Left out of the README's quick run (setup.cfg); .ci/run runs it.
pytestmark = pytest.mark.slow

justext = pytest.importorskip("justext")
parity = pytest.importorskip("benchmarks.parity")

SAMPLE = 120


@pytest.mark.parametrize("language", ["English", "auto"])
def test_same_blocks_and_labels_as_jusText(corpus_path, language):
    agreeing = compared = same_text = pages = 0
    for page in load_pages(corpus_path, sample=SAMPLE, seed=7):
        result = parity.compare_page(page.html, language)
        agreeing += result.agreeing_blocks
        compared += result.compared_blocks
        same_text += result.same_text
        pages += 1
    assert pages == SAMPLE
    assert agreeing / compared >= 0.99
    assert same_text / pages >= 0.95
