"""result.metadata: what the page says about itself, None where it says nothing."""

import json

import pytest

from scrapy_declutter import extract
from scrapy_declutter.core.labels import BAD, GOOD
from scrapy_declutter.outputs.metadata import Metadata, read_metadata
from scrapy_declutter.stages.rules.headline import HEADLINE
from scrapy_declutter.stages.rules.region import CONTENT_REGION
from scrapy_declutter.stages.rules.threshold import BELOW_THRESHOLD
from tests.hostile import within

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
        date_raw="2024-03-05T23:30:00-05:00",
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
    assert read_metadata(result.root, blocks, headlines=(HEADLINE,)).date == "2026-02-11"
    # the window opens at the first block kept for its content, not above it
    blocks[-1].label, blocks[-1].reason = BAD, BELOW_THRESHOLD
    blocks[1].label, blocks[1].reason = GOOD, CONTENT_REGION
    assert read_metadata(result.root, blocks, headlines=(HEADLINE,)).date is None


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


@pytest.mark.parametrize(
    "marked, author",
    [
        ('<div class="author-name">Ann Lee</div>', "Ann Lee"),
        ('<div class="header-authorization"><a href="/login">Sign In</a></div>', None),
        ('<div class="authorized-dealer">Authorized Dealer</div>', None),
        ('<div id="local-authority">City Council</div>', None),
    ],
    ids=["byline", "login", "authorized", "authority"],
)
def test_author_inside_another_word_marks_no_byline(marked, author):
    assert metadata(body=marked + TEXT).author == author


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
    # python -m benchmarks.structure --folds sets these module attributes: a limit renamed
    # or gone would stop it with an AttributeError
    from benchmarks.structure import GRIDS
    from scrapy_declutter.outputs import metadata

    assert all(isinstance(getattr(metadata, name), int) for name in GRIDS)


# -- hostile structured data: no exception, the right value or None ------------


@pytest.mark.parametrize(
    "data, title",
    [
        ({"@type": None, "headline": "Typed null"}, None),
        ({"@type": 5, "headline": "Typed five"}, None),
        ({"@type": {"NewsArticle": 1}, "headline": "Typed object"}, None),
        ({"@type": ["NewsArticle", 5, None], "headline": "Typed list"}, "Typed list"),
        ({"@type": "NewsArticle", "headline": ["First", "Second"]}, "First"),
        ({"@type": "NewsArticle", "headline": {"@value": 7}}, None),
    ],
    ids=["null", "number", "object", "list with others", "list of headlines", "number value"],
)
def test_a_type_or_value_of_the_wrong_kind_is_passed_over(data, title):
    assert metadata(json_ld(data)).title == title


@pytest.mark.parametrize("identifier", [["#ann"], {"#ann": 1}, 5, None])
def test_an_id_that_is_not_a_string_resolves_nothing(identifier):
    graph = [
        {"@id": identifier, "@type": "Person", "name": "Ann Lee"},
        {"@type": "NewsArticle", "author": {"@id": identifier}, "publisher": [{"@id": identifier}]},
    ]
    found = metadata(json_ld(graph))
    assert (found.author, found.site_name) == (None, None)


def test_an_author_typed_with_a_number_is_still_a_name():
    article = {"@type": "NewsArticle", "author": [{"@type": 5, "name": "Ann Lee"}]}
    assert metadata(json_ld(article)).author == "Ann Lee"


@pytest.mark.parametrize("depth, author", [(2, "Ann Lee"), (3, None), (498, None), (990, None)])
def test_an_author_nested_in_lists_is_read_two_lists_deep(depth, author):
    nested = "[" * depth + '"Ann Lee"' + "]" * depth
    script = f'<script type="application/ld+json">{{"@type": "NewsArticle", "author": {nested}}}'
    assert metadata(script + "</script>").author == author


def test_microdata_nested_a_thousand_deep_is_read_in_linear_time():
    # each element's text is the whole subtree: a 61 s metadata before the
    # first MAX_ITEMS_A_PROPERTY elements of a property were the only ones read
    body = '<div itemprop="author headline datePublished">' * 1000 + "<p>Kim Park</p>" * 20_000
    found = within(20, metadata, "", body)
    assert (found.title, found.author, found.date) == (None, None, None)  # too many words
    nested = '<div itemprop="author">' * 1000 + "<p>Kim Park</p>" + "</div>" * 1000
    assert metadata(body=nested + TEXT).author == "Kim Park"


# -- values: bounded in length, URLs http(s) -----------------------------------


@pytest.mark.parametrize(
    "href",
    [
        "javascript:alert(1)",
        "JavaScript:alert(1)",
        " \tjavascript:alert(1)",
        "&#106;avascript:alert(1)",
        "javascript&colon;alert(1)",
        "vbscript:msgbox(1)",
        "data:text/html,<script>alert(1)</script>",
        "DATA:image/png;base64,AAAA",
        "ftp://example.org/file",
        "http://[::1",
    ],
)
def test_a_url_or_image_that_is_not_http_is_left_out(href):
    head = (
        f'<link rel="canonical" href="{href}"><meta property="og:image" content="{href}">'
        f'<script type="application/ld+json">{json.dumps({"@type": "NewsArticle", "url": href})}'
        "</script>"
    )
    found = metadata(head, url="https://news.example/story")
    assert found.url == "https://news.example/story"  # the page's own
    assert found.image is None
    assert metadata(head).url is None


def test_a_script_url_broken_by_a_tab_is_a_path_or_nothing():
    # a browser drops the tab and reads javascript:; the <meta>'s value has
    # its white space collapsed first, and is then a harmless relative path
    head = (
        '<link rel="canonical" href="java&#x09;script:alert(1)">'
        '<meta property="og:image" content="java&#x09;script:alert(1)">'
    )
    found = metadata(head, url="https://news.example/story")
    assert found.url == "https://news.example/story"
    assert found.image == "https://news.example/java script:alert(1)"


def test_a_relative_url_is_left_out_when_there_is_no_page_url():
    head = '<link rel="canonical" href="/story"><meta property="og:image" content="a.jpg">'
    assert (metadata(head).url, metadata(head).image) == (None, None)
    found = metadata(head, url="https://news.example/2024/")
    assert (found.url, found.image) == (
        "https://news.example/story",
        "https://news.example/2024/a.jpg",
    )


def test_a_broken_base_or_link_is_no_exception():
    head = '<base href="http://[x"><link rel="canonical" href="http://[y/">'
    found = metadata(head, url="https://news.example/story")
    assert found.url == "https://news.example/story"


@pytest.mark.slow
def test_every_value_is_bounded_in_length():
    from scrapy_declutter.outputs.metadata import MAX_VALUE_CHARS

    huge = "word " * 1_000_000  # 5 MB
    article = {
        "@type": "NewsArticle",
        "author": {"@type": "Person", "name": "A" * 5_000_000},
        "publisher": {"name": huge},
        "description": huge,
    }
    head = (
        json_ld(article)
        + f'<link rel="canonical" href="https://x.example/{"a" * 5_000_000}">'
        + f'<meta property="og:image" content="https://x.example/{"b" * 3000}.jpg">'
    )
    found = metadata(head, f"<h1>{'title ' * 1_000_000}</h1>{TEXT}")
    assert found.url is None and found.image is None  # a cut URL leads elsewhere
    for value in (found.title, found.author, found.site_name, found.description):
        assert len(value) <= MAX_VALUE_CHARS and value.endswith("\u2026")
    assert found.site_name == found.description  # cut at the same space
    assert found.title.startswith("title title ") and found.title.endswith(" title\u2026")
    assert found.description.endswith(" word\u2026")
    assert found.author == "A" * (MAX_VALUE_CHARS - 1) + "\u2026"  # no space to cut at


def test_the_documented_bounds_are_the_codes():
    from pathlib import Path

    from scrapy_declutter.outputs.declared import MAX_ITEMS_A_PROPERTY
    from scrapy_declutter.outputs.metadata import MAX_VALUE_CHARS

    docs = Path(__file__).resolve().parents[1] / "docs" / "structured-output.rst"
    text = " ".join(docs.read_text(encoding="utf-8").split())
    assert f"at most {MAX_VALUE_CHARS:,} characters long" in text
    assert f"the first {MAX_ITEMS_A_PROPERTY} elements are read" in text


def test_control_characters_are_dropped_from_every_value():
    article = {"@type": "NewsArticle", "headline": "Head\u0001line", "author": "Ann\u001b Lee"}
    head = json_ld(article) + '<meta name="description" content="One&#1; two&#x1F;">'
    found = metadata(head, url="https://news.example/")
    assert (found.title, found.author, found.description) == ("Headline", "Ann Lee", "One two")


# -- whose name and date: the page's, not a commenter's or a quoted claim's ----

# A WordPress comment section: a commenter's byline, microdata, rel=author
# link and time; then the form to write one, with its "Name *" label.
COMMENT_SECTION = (
    '<section id="comments" class="comments-area"><ol class="comment-list">'
    '<li class="comment"><div class="comment-author vcard" itemprop="author" itemscope>'
    '<cite itemprop="name">Troll Reader</cite> <a rel="author" href="/troll">Troll Reader</a>'
    ' says:</div><time datetime="2024-06-01T10:00:00+02:00">June 1, 2024</time>'
    "<p>I disagree with every word of this and will say so at length, as usual.</p></li></ol>"
    '<div id="respond" class="comment-respond"><form id="commentform" class="comment-form">'
    '<p class="comment-form-author"><label for="author">Name <span>*</span></label>'
    '<input id="author" name="author"></p></form></div></section>'
)


def test_a_commenter_is_not_the_author_nor_the_comment_date_the_pages():
    found = metadata(body=f"<article><h1>Bridge opens</h1>{TEXT}</article>{COMMENT_SECTION}")
    assert (found.author, found.date) == (None, None)
    byline = '<p class="byline">By Ann Lee</p>'
    found = metadata(
        body=f"<article><h1>Bridge opens</h1>{byline}{TEXT}</article>{COMMENT_SECTION}"
    )
    assert found.author == "Ann Lee"


@pytest.mark.parametrize(
    "form",
    [
        '<form><p class="author"><label>Name (required)</label><input name="name"></p></form>',
        '<form action="/post"><div class="author-field">Your name</div><input name="n"></form>',
        '<p class="byline">Your name <input name="n"></p>',
    ],
    ids=["label in a form", "text in a form", "text beside a field"],
)
def test_a_forms_label_is_no_author(form):
    assert metadata(body=f"<h1>Bridge opens</h1>{TEXT}{form}").author is None


def test_a_wrapper_that_holds_the_text_is_no_comment_section_nor_form():
    # a theme's "comments-open" on the article, an ASP.NET page in one <form>
    byline = '<p class="byline">By Ann Lee</p>'
    for wrapper in ('<article class="post comments-open">', '<form id="aspnetForm">'):
        tag = wrapper[1 : wrapper.index(" ")]
        assert metadata(body=f"{wrapper}{byline}{TEXT}</{tag}>").author == "Ann Lee", wrapper


CLAIM_REVIEW = {
    "@context": "https://schema.org",
    "@type": "ClaimReview",
    "datePublished": "2019-11-13",
    "author": {"@type": "Organization", "name": "Fact Desk"},
    "claimReviewed": "The bridge was built in a week",
    "itemReviewed": {
        "@type": "Claim",
        "author": {"@type": "Person", "name": "Sam Speaker"},
        "datePublished": "2019-11-10",
    },
}


def test_the_author_of_a_reviewed_claim_is_not_the_pages():
    found = metadata(json_ld(CLAIM_REVIEW))
    assert (found.author, found.date) == ("Fact Desk", "2019-11-13")
    # the claim's appearance, an article of its own, held by reference in a graph
    said = {"@id": "#said", "@type": "NewsArticle", "author": {"@type": "Person", "name": "Sam"}}
    graph = {"@graph": [said, {**CLAIM_REVIEW, "itemReviewed": {"@id": "#said"}}]}
    assert metadata(json_ld(graph)).author == "Fact Desk"


def test_the_author_of_a_microdata_item_inside_another_is_not_the_pages():
    person = '<span itemprop="author" itemscope itemtype="https://schema.org/Person">'
    body = (
        '<div itemscope itemtype="https://schema.org/ClaimReview">'
        '<div itemprop="itemReviewed" itemscope itemtype="https://schema.org/Claim">'
        f'{person}<span itemprop="name">Sam Speaker</span></span>'
        '<meta itemprop="datePublished" content="2019-11-10"></div>'
        f'{person}<span itemprop="name">Ann Lee</span></span>'
        f'<meta itemprop="datePublished" content="2019-11-13">{TEXT}</div>'
    )
    found = metadata(body=body)
    assert (found.author, found.date) == ("Ann Lee", "2019-11-13")
    # an article a page or a blog holds is the page's own
    blog = (
        '<div itemscope itemtype="https://schema.org/Blog">'
        '<article itemprop="blogPost" itemscope itemtype="https://schema.org/BlogPosting">'
        f'{person}<span itemprop="name">Ann Lee</span></span>{TEXT}</article></div>'
    )
    assert metadata(body=blog).author == "Ann Lee"


@pytest.mark.parametrize(
    "line, author",
    [
        ("<p>By Jane Smith</p>", "Jane Smith"),
        ("<p>By Jane Smith | March 3, 2024</p>", "Jane Smith"),
        ("<p>by Jane Smith, Staff Writer, Dec 17, 2025</p>", "Jane Smith"),
        ("<p>Posted by Jane Smith on Friday</p>", "Jane Smith"),
        ('<div><span>By</span></div><div><a href="/jane">Jane Smith</a></div>', "Jane Smith"),
        ("<p>作者\uff1a王小明</p>", "王小明"),  # a full-width colon
        ("<p>By clicking here you agree to our terms</p>", None),
        ('<p><a href="/by-industry">By Industry</a></p>', None),
    ],
    ids=[
        "plain",
        "a date after a bar",
        "a date after a comma",
        "on",
        "By, then the name",
        "zh",
        "a sentence",
        "a link",
    ],
)
def test_a_by_line_below_the_headline_names_the_author(line, author):
    assert metadata(body=f"<h1>Bridge opens</h1>{line}{TEXT}").author == author


def test_a_by_line_is_read_only_below_the_headline_and_when_nothing_is_declared():
    # a menu's "By Industry" above the headline is no byline
    menu = "<div><p>By Industry</p><p>By Team Size</p></div>"
    assert metadata(body=f"{menu}<h1>Bridge opens</h1>{TEXT}").author is None
    declared = '<meta name="author" content="Ann Lee">'
    assert metadata(declared, f"<h1>Bridge opens</h1><p>By Jane Smith</p>{TEXT}").author == (
        "Ann Lee"
    )


@pytest.mark.parametrize("utc", ["2019-11-13T23:06:00Z", "2019-11-13T23:06:00+00:00"])
def test_a_utc_timestamp_declared_also_in_local_time_gives_the_local_date(utc):
    article = json_ld({"@type": "NewsArticle", "datePublished": utc})
    shown = '<time datetime="2019-11-14T00:06:00+01:00">14 November 2019, 00:06</time>'
    assert metadata(article, f"<h1>Bridge opens</h1>{shown}{TEXT}").date == "2019-11-14"
    # alone, or beside another instant (the page's update the next day), it is as written
    assert metadata(article).date == "2019-11-13"
    updated = '<time datetime="2019-11-14T09:30:00+01:00">Updated</time>'
    assert metadata(article, f"<h1>Bridge opens</h1>{updated}{TEXT}").date == "2019-11-13"
    # a local timestamp is the publisher's date whatever the others say
    local = json_ld({"@type": "NewsArticle", "datePublished": "2019-11-13T19:06:00-05:00"})
    assert metadata(local, f"{shown}{TEXT}").date == "2019-11-13"


def test_bylines_in_comment_sections_nested_deep_are_read_in_linear_time():
    # every comment inside the one before, each with its byline: each
    # element's place (in a comment section or not) is found once
    depth = 3000
    thread = '<div class="comment"><p class="comment-author">Reader</p>' * depth
    body = f"<article><h1>Bridge opens</h1>{TEXT}</article>{thread}{'</div>' * depth}"
    assert within(20, metadata, "", body).author is None


@pytest.mark.parametrize(
    "declared, author",
    [
        ("Martha Quinn, Local Affairs Reporter · 12 March 2024", "Martha Quinn"),
        ("By Jane Smith | Staff Writer", "Jane Smith"),
        ("Ann Lee - Updated 3 hours ago", "Ann Lee"),
        ("Ann Lee, June 1, 2024", "Ann Lee"),
        ("Jane Smith, John Doe", "Jane Smith, John Doe"),  # two names, both kept
        ("Mary-Jane Watson", "Mary-Jane Watson"),  # a dash inside a name is no separator
    ],
    ids=["job and date", "bar", "dash", "comma and date", "two names", "hyphenated"],
)
def test_an_author_is_a_name_not_the_byline_around_it(declared, author):
    for where in (f'<meta name="author" content="{declared}">', ""):
        body = "" if where else f'<h1>Bridge opens</h1><p class="byline">{declared}</p>'
        assert metadata(where, body + TEXT).author == author


@pytest.mark.parametrize(
    "head, body, raw",
    [
        (
            '<meta property="article:published_time" content="2024-03-05T10:00:00+01:00">',
            "",
            "2024-03-05T10:00:00+01:00",
        ),
        (
            "",
            '<h1>Bridge opens</h1><p class="date">Posted March 5, 2024</p>',
            "Posted March 5, 2024",
        ),
        ("", "", None),
    ],
    ids=["declared", "shown", "none"],
)
def test_the_raw_date_is_the_value_the_date_was_read_from(head, body, raw):
    found = metadata(head, body + TEXT)
    assert found.date_raw == raw
    assert found.date == ("2024-03-05" if raw else None)
