"""A page's deadline (``core/deadline.py``): checked after the parse, in the
block walk and before each stage; ``extract_page`` starts it from ``Page.timeout``."""

import pickle

import pytest

from scrapy_declutter import (
    Deadline,
    DeadlineExceeded,
    DeclutterError,
    InvalidInputError,
    extract,
)
from scrapy_declutter.core.options import Options
from scrapy_declutter.scrapy_layer.page import Page, extract_page
from tests.site import ARTICLE_EN, ARTICLE_EN_SENTENCE


class Clock:
    """Reads ``readings`` in turn, then the last one for ever."""

    def __init__(self, *readings: float) -> None:
        self.readings = list(readings)

    def __call__(self) -> float:
        return self.readings.pop(0) if len(self.readings) > 1 else self.readings[0]


# 10,000 paragraphs: the walk checks its deadline at its 4,096th element
MANY_ELEMENTS = "<html><body>" + "<p>a line of text</p>" * 10_000 + "</body></html>"


@pytest.mark.parametrize(
    "html, where",
    [
        # made at 0, checked after the parse at 0, then at 10: in the walk
        (MANY_ELEMENTS, "the block walk"),
        # too few elements for the walk to check: the next check is the first stage's
        (ARTICLE_EN, "the pipeline, before "),
    ],
)
def test_past_its_deadline_the_extraction_stops_where_it_is(html, where):
    with pytest.raises(DeadlineExceeded) as raised:
        extract(html, deadline=Deadline(5, clock=Clock(0, 0, 10)))
    assert raised.value.where.startswith(where)
    assert str(raised.value).startswith("gave up after 5 s, in ")


def test_a_deadline_that_is_no_deadline_is_named():
    with pytest.raises(InvalidInputError, match="deadline must be a Deadline or None, not int"):
        extract(ARTICLE_EN, deadline=5)


def test_a_deadline_past_at_the_parse_stops_there():
    with pytest.raises(DeadlineExceeded, match="in the parse"):
        extract(ARTICLE_EN, deadline=Deadline(5, clock=Clock(0, 10)))


def test_a_deadline_not_reached_changes_nothing():
    clock = Clock(0)  # time stands still
    with_deadline = extract(MANY_ELEMENTS, deadline=Deadline(5, clock=clock)).to_dict()
    assert with_deadline == extract(MANY_ELEMENTS).to_dict()


def test_each_call_has_its_own_deadline():
    late = Deadline(5, clock=Clock(0, 10))
    with pytest.raises(DeadlineExceeded):
        extract(ARTICLE_EN, deadline=late)
    assert ARTICLE_EN_SENTENCE in extract(ARTICLE_EN).text  # nothing was left behind


def test_deadline_exceeded_is_a_timeout_and_crosses_to_a_process():
    error = DeadlineExceeded(2.5, "the block walk")
    assert isinstance(error, TimeoutError) and isinstance(error, DeclutterError)
    copy = pickle.loads(pickle.dumps(error))
    assert (copy.seconds, copy.where, str(copy)) == (2.5, "the block walk", str(error))


def test_extract_page_gives_up_past_the_page_timeout():
    # a nanosecond: spent before the first check, after the parse
    page = Page(ARTICLE_EN, None, Options(), "none", timeout=1e-9)
    with pytest.raises(DeadlineExceeded, match="gave up after 1e-09 s"):
        extract_page(page)


def test_extract_page_without_a_timeout_runs_to_its_end():
    data, _, _ = extract_page(Page(ARTICLE_EN, None, Options(), "none", timeout=None))
    assert ARTICLE_EN_SENTENCE in data["text"]
