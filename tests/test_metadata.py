"""result.metadata: what the page says about itself, None where it says nothing."""

import json

import pytest

from scrapy_declutter import extract
from scrapy_declutter.core.labels import BAD, GOOD
from scrapy_declutter.core.metadata import Metadata, read_metadata
from scrapy_declutter.core.reasons import BELOW_THRESHOLD, CONTENT_REGION, HEADLINE

TEXT = (
    "<p>The committee met on Tuesday to discuss the new plans for the river bank, and after a"
    " long debate the members agreed that the work should begin in the spring of next year.</p>"
)


def metadata(head: str = "", body: str = TEXT, url: str | None = None, **attributes) -> Metadata:
    lang = attributes.get("lang", "")
    html = f"<html{' lang=' + lang if lang else ''}><head>{head}</head><body>{body}</body></html>"
    return extract(html, url).metadata


def json_ld(data: object) -> str:
    return f'<script type="application/ld+json">{json.dumps(data)}</script>'


def test_open_graph_and_meta_tags():
    head = (
        "<title>Bridge opens | City Paper</title>"
        '<meta property="og:title" content="Bridge opens">'
        '<meta property="og:site_name" content="City Paper">'
        '<meta name="description" content="A new bridge.">'
        '<meta property="og:image" content="/img/bridge.jpg">'
        '<meta property="article:published_time" content="2024-03-05T23:30:00-05:00">'
        '<meta name="author" content="Ann Lee">'
        '<link rel="canonical" href="https://city.example/bridge">'
    )
    found = metadata(head, url="https://city.example/news?id=1", lang="en-GB")
    assert found == Metadata(
        title="Bridge opens",
        author="Ann Lee",
        date="2024-03-05",  # the date as the publisher wrote it, not converted to UTC
        site_name="City Paper",
        description="A new bridge.",
        language="en",
        url="https://city.example/bridge",
        image="https://city.example/img/bridge.jpg",
    )


def test_json_ld_graph_with_references():
    graph = {
        "@context": "https://schema.org",
        "@graph": [
            {"@type": "WebSite", "@id": "#site", "name": "Garden Notes"},
            {"@type": "Person", "@id": "#ann", "name": "Ann Lee"},
            {
                "@type": "BlogPosting",
                "headline": "Sowing beans",
                "author": [{"@id": "#ann"}, {"@type": "Person", "name": "Bo Chan"}],
                "datePublished": "2023-08-07",
                "dateModified": "2024-01-01",
                "image": {"@type": "ImageObject", "url": "https://g.example/beans.jpg"},
                "inLanguage": "fr",
            },
        ],
    }
    found = metadata(json_ld(graph) + "<title>Sowing beans - Garden Notes</title>")
    assert (found.title, found.author, found.date) == (
        "Sowing beans",
        "Ann Lee; Bo Chan",
        "2023-08-07",
    )
    assert (found.site_name, found.image, found.language) == (
        "Garden Notes",
        "https://g.example/beans.jpg",
        "fr",
    )


def test_organization_author_only_when_no_person_is_named():
    article = {"@type": "NewsArticle", "author": {"@type": "Organization", "name": "City Paper"}}
    assert metadata(json_ld(article)).author == "City Paper"
    byline = '<p class="byline">By Ann Lee</p>' + TEXT
    assert metadata(json_ld(article), byline).author == "Ann Lee"


def test_microdata_time_and_rel_author():
    body = (
        '<article itemscope itemtype="https://schema.org/Article">'
        '<h1 itemprop="headline">Frost warning</h1>'
        '<span itemprop="author" itemscope><span itemprop="name">Kim Park</span></span>'
        f'<time datetime="2022-12-01T08:00">1 December</time>{TEXT}</article>'
    )
    found = metadata(body=body)
    assert (found.title, found.author, found.date) == ("Frost warning", "Kim Park", "2022-12-01")
    linked = metadata(body=f'<a rel="author" href="/kim">Kim Park</a>{TEXT}')
    assert linked.author == "Kim Park"


def test_written_dates_in_a_date_line():
    for line, expected in [
        ("Published August 7, 2023", "2023-08-07"),
        ("4th of September 2025", "2025-09-04"),
        ("Posted 04.09.2025", "2025-09-04"),
        ("12/24/2024", "2024-12-24"),
    ]:
        assert metadata(body=f'<div class="post-date">{line}</div>{TEXT}').date == expected, line


def test_a_date_line_below_a_kept_headline_is_found():
    # a headline kept by the content stage's headline rule, a dozen short
    # blocks (a byline, share links), then a bare date line and the article
    shares = "".join(f"<p>Share {i}</p>" for i in range(12))
    body = f"<h1>Bridge opens to traffic</h1>{shares}<p>Feb 11, 2026</p>{TEXT}"
    result = extract(f"<html><body>{body}</body></html>")
    blocks = result.blocks
    for block in blocks:
        block.label, block.reason = BAD, BELOW_THRESHOLD
    blocks[0].label, blocks[0].reason = GOOD, HEADLINE
    blocks[-1].label, blocks[-1].reason = GOOD, CONTENT_REGION
    assert read_metadata(result.root, blocks).date == "2026-02-11"
    # the window opens at the first block kept for its content, not above it
    blocks[-1].label, blocks[-1].reason = BAD, BELOW_THRESHOLD
    blocks[1].label, blocks[1].reason = GOOD, CONTENT_REGION
    assert read_metadata(result.root, blocks).date is None


# Far enough after the text that only a class or id can make it a date line.
FAR = TEXT + "<p>Read more.</p>" * 10


@pytest.mark.parametrize(
    "marked",
    [
        '<div class="Post-DATE">Published August 7, 2023</div>',
        '<div id="İ-meta"><div class="Entry-Date"><span>August 7, 2023</span></div></div>',
        '<div class="posted-on"><div><p>August 7, 2023</p></div></div>',
    ],
    ids=["upper case", "lower-casing lengthens", "grandparent"],
)
def test_date_line_marked_by_a_class_or_id(marked):
    assert metadata(body=FAR + marked).date == "2023-08-07"


def test_a_class_three_levels_up_marks_no_date_line():
    marked = '<div class="post-date"><div><div><p>August 7, 2023</p></div></div></div>'
    assert metadata(body=FAR + marked).date is None


def test_title_without_the_site_name():
    head = (
        "<title>Bridge opens &raquo; City Paper</title>"
        '<meta property="og:site_name" content="City Paper">'
    )
    assert metadata(head).title == "Bridge opens"
    assert metadata("<title>Site | Bridge opens</title>", "<h1>Bridge opens</h1>" + TEXT).title == (
        "Bridge opens"
    )
    assert metadata(body="<h1>Only a heading</h1>" + TEXT).title == "Only a heading"


def test_values_escaped_twice_are_unescaped():
    head = '<meta property="og:title" content="Tea &amp;amp; &amp;#8220;cake&amp;#8221;">'
    assert metadata(head).title == "Tea & \u201ccake\u201d"


def test_nothing_is_guessed_from_the_url():
    found = metadata(url="https://news.example/2024/03/05/john-smith/bridge-opens")
    assert (found.title, found.author, found.date, found.site_name) == (None, None, None, None)
    assert found.url == "https://news.example/2024/03/05/john-smith/bridge-opens"  # the page's own
    assert found.language == "en"  # from the text: English stopwords


@pytest.mark.parametrize(
    "bad",
    [
        "{not json",
        '{"@type": "Article", "author": 5, "datePublished": "soon"}',
        "[]",
        "[" * 100_000 + "]" * 100_000,
    ],
    ids=["not json", "wrong types", "empty", "nested too deep"],
)
def test_broken_structured_data_is_ignored(bad):
    head = f'<script type="application/ld+json">{bad}</script>'
    found = metadata(head)
    assert (found.author, found.date) == (None, None)


def test_impossible_dates_are_not_dates():
    head = '<meta property="article:published_time" content="2024-02-30">'
    assert metadata(head).date is None


def test_empty_page():
    assert read_metadata(None) == Metadata()
    assert extract("").metadata.title is None


def test_the_metadata_folds_benchmark_tunes_limits_the_code_reads():
    # benchmarks/metadata_folds.py sets these module attributes: a limit renamed
    # or gone would stop it with an AttributeError
    from benchmarks.metadata_folds import GRIDS
    from scrapy_declutter.core import metadata

    assert all(isinstance(getattr(metadata, name), int) for name in GRIDS)
