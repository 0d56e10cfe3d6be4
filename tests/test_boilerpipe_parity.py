"""Our boilerpipe-article against BoilerPy3's ArticleExtractor on corpus articles.

``python -m benchmarks.parity --boilerpipe`` prints the figure for every article page.
"""

import logging
import statistics

import pytest

from benchmarks.corpus import load_pages
from benchmarks.parity import agreements, article_pages

# Left out of the README's quick run (setup.cfg); .ci/run runs it.
pytestmark = pytest.mark.slow

pytest.importorskip("boilerpy3")


def test_word_f1_against_boilerpy3_on_every_fourth_article(corpus_path):
    logging.getLogger("boilerpy3").setLevel(logging.CRITICAL)
    sample = list(article_pages(load_pages(corpus_path)))[::4]
    results, _ = agreements(sample)
    assert len(results) >= 150
    assert statistics.fmean(r.f1 for r in results) >= 0.95
