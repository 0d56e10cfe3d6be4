"""The cyclic garbage collector is paused while a page is extracted
(``core/gc_pause.py``): safe only if extraction makes no reference cycles,
and only if the collector's state is given back."""

import gc
import threading

import pytest

from scrapy_declutter import extract, pipeline_names
from scrapy_declutter.core.gc_pause import paused_gc
from scrapy_declutter.core.options import Options
from scrapy_declutter.scrapy_layer.page import Page, extract_page
from tests import hostile
from tests.site import ARTICLE_DE, ARTICLE_EN

# Left out of the README's quick run (setup.cfg); .ci/run runs it.
pytestmark = pytest.mark.slow

PAGES = {
    "article": hostile.article(30),
    **{name: make(5_000) for name, make in hostile.FAMILIES.items()},
}


@pytest.fixture
def collector_enabled():
    was_enabled = gc.isenabled()
    gc.enable()
    yield
    if not was_enabled:
        gc.disable()


def cycles_left_by(function) -> int:
    """How many unreachable objects ``function()`` leaves for the collector."""
    function()  # caches filled (stoplists, the model's keys) are not garbage
    gc.collect()
    gc.disable()
    try:
        function()
        return gc.collect()
    finally:
        gc.enable()


@pytest.mark.parametrize("pipeline", sorted(pipeline_names()))
def test_extraction_makes_no_reference_cycles(pipeline, collector_enabled):
    def run():
        for html in PAGES.values():
            result = extract(html, "http://example.com/a", pipeline=pipeline, comments=True)
            result.to_dict(markdown=True, metadata=True)

    assert cycles_left_by(run) == 0


def test_the_scrapy_layers_extraction_makes_no_reference_cycles(collector_enabled):
    pages = [
        Page(html, "http://example.com/a", Options(), "all", markdown=True, metadata=True)
        for html in [ARTICLE_EN, ARTICLE_DE, hostile.article(30).encode()]
    ]
    assert cycles_left_by(lambda: [extract_page(page) for page in pages]) == 0


def test_paused_while_extracting_and_enabled_after(collector_enabled):
    seen = []

    class WatchedPage(Page):
        def extract(self):
            seen.append(gc.isenabled())
            return super().extract()

    data, _, _ = extract_page(WatchedPage("<p>one</p>", None, Options(), "all"))
    assert [block["text"] for block in data["blocks"]] == ["one"]
    assert seen == [False]
    assert gc.isenabled()


def test_given_back_after_an_error(collector_enabled):
    with pytest.raises(ValueError):
        with paused_gc():
            int("not a number")
    assert gc.isenabled()


def test_left_disabled_when_it_was(collector_enabled):
    gc.disable()
    with paused_gc():
        assert not gc.isenabled()
    assert not gc.isenabled()


def test_enabled_again_when_the_last_overlapping_thread_leaves(collector_enabled):
    first_in, second_in, first_out = threading.Event(), threading.Event(), threading.Event()
    states = {}

    def first():
        with paused_gc():
            first_in.set()
            second_in.wait(10)
        states["after first"] = gc.isenabled()
        first_out.set()

    def second():
        first_in.wait(10)
        with paused_gc():
            second_in.set()
            first_out.wait(10)
            states["second, after first"] = gc.isenabled()

    threads = [threading.Thread(target=first), threading.Thread(target=second)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(10)
    assert states == {"after first": False, "second, after first": False}
    assert gc.isenabled()


def test_extract_pauses_the_collector(collector_enabled):
    starts = []
    threshold = gc.get_threshold()
    gc.callbacks.append(lambda phase, info: starts.append(phase) if phase == "start" else None)
    gc.set_threshold(10)  # enabled, the collector runs every few allocations: dozens a page
    try:
        result = extract(hostile.article(30), "http://example.com/a")
    finally:
        gc.set_threshold(*threshold)
        gc.callbacks.pop()
    assert result.text
    assert len(starts) < 10  # before and after the pause only
    assert gc.isenabled()
