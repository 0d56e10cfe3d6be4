"""``python -m benchmarks.speed --stages``: every step of the default is timed."""

import math

from benchmarks.speed import page_steps
from scrapy_declutter.core.options import Options
from scrapy_declutter.extraction.presets import RULE_NAMES, build_pipeline
from tests.factory import STORY

PAGE = (
    "<html><head><title>The bridge</title></head><body><nav><a href='/'>Home</a></nav>"
    f"<article><h1>The bridge</h1>{''.join(f'<p>{p}</p>' for p in STORY)}</article>"
    "</body></html>"
).encode()


def test_every_step_of_the_default_is_timed_in_order():
    took = page_steps(PAGE, build_pipeline(Options()).stages, repeat=1)
    assert took is not None
    steps = list(took)
    assert steps[:3] == ["our parse", "block walk", "words, stopwords, language"]
    assert steps[-1] == "extract(...).text, whole"
    rules = [step for step in steps if step in RULE_NAMES]
    assert rules == list(RULE_NAMES)
    assert all(math.isfinite(multiple) for multiple in took.values())


def test_a_page_that_holds_nothing_has_no_steps():
    assert page_steps(b"   ", build_pipeline(Options()).stages, repeat=1) is None
