"""The summary line the layer logs when the spider closes."""

from scrapy.utils.test import get_crawler

from scrapy_declutter.scrapy_layer.stats import Recorder


def recorder():
    crawler = get_crawler()
    return Recorder(crawler)


def test_summary_counts_in_words_a_person_reads():
    stats = recorder()
    stats.page(0.5)
    stats.item()
    stats.page_skipped("too_large", "https://example.org/a")
    assert stats.summary() == (
        "declutter: 1 page decluttered in 0.50 s (500.0 ms/page), 1 item filled, "
        "1 page skipped (too_large: 1), 0 errors"
    )


def test_summary_of_several_pages_and_reasons():
    stats = recorder()
    for _ in range(4):
        stats.page(0.25)
        stats.item()
    stats.page_skipped("empty", "https://example.org/b")
    stats.page_skipped("not_html", "https://example.org/c")
    assert stats.summary() == (
        "declutter: 4 pages decluttered in 1.00 s (250.0 ms/page), 4 items filled, "
        "2 pages skipped (empty: 1, not_html: 1), 0 errors"
    )
