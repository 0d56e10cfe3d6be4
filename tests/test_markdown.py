"""result.markdown: the kept blocks as CommonMark, in the page's shape."""

import itertools
import random
import re
from collections import Counter
from urllib.parse import urljoin

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from benchmarks.corpus import load_pages
from scrapy_declutter import DeclutterError, Label, Options, extract
from scrapy_declutter.outputs.markdown import to_markdown
from scrapy_declutter.outputs.markdown_text import collapse_space, escape
from scrapy_declutter.outputs.urls import PLAIN_ABSOLUTE_URL, PLAIN_ROOT_PATH, base_origin
from tests import hostile

LONG = (
    "The committee met on Tuesday to discuss the new plans for the river bank, and after a long"
    " debate the members agreed that the work should begin in the spring of next year."
)


def page(body: str, head: str = "") -> str:
    return f"<html lang='en'><head>{head}</head><body>{body}</body></html>"


def markdown_of(html: str, url: str | None = "https://example.org/news/story.html", **options):
    """Markdown with every block kept: the rendering, not the content decision."""
    result = extract(html, url, language="English", **options)
    for block in result.blocks:
        block.label = Label.GOOD
    return result.markdown


@pytest.mark.parametrize(
    ("body", "kept_words"),
    [
        ("<pre><b><pre>x</pre>y</b></pre>", {"x", "y"}),
        # an <ol> with text of its own, around a table: no list to widen to
        ("<ol><b>4</b><table><tr><td>cell</td></tr></table></ol>", {"4", "cell"}),
        ("<table><tbody><i>note</i><tr><td>cell</td></tr></tbody></table>", {"note", "cell"}),
    ],
)
def test_every_choice_of_kept_blocks_gives_those_blocks(body, kept_words):
    blocks = len(extract(page(body)).blocks)
    for choice in itertools.product([Label.GOOD, Label.BAD], repeat=blocks):
        result = extract(page(body), markdown_links=False)
        for block, label in zip(result.blocks, choice):
            block.label = label
        if "```" not in result.markdown:  # a <pre> is written whole
            assert _words(result.markdown) == _words(result.text)
        assert set(_words(result.markdown)) <= kept_words


def test_a_pre_inside_a_pre_is_one_code_block():
    assert markdown_of(page("<pre><b><pre>x</pre>y</b></pre>")) == "```\nx\ny\n```"


def test_headings_keep_their_level():
    md = markdown_of(page("<h1>Title</h1><h3>Part <em>one</em></h3><p>Body text.</p>"))
    assert md == "# Title\n\n### Part *one*\n\nBody text."


def test_nested_lists_with_markers_and_indentation():
    html = page(
        "<ul><li>apples<ul><li>green</li><li>red</li></ul></li><li>pears</li></ul>"
        "<ol start='3'><li>first</li><li>second<ol><li>inner</li></ol></li></ol>"
    )
    assert markdown_of(html) == (
        "- apples\n  - green\n  - red\n- pears\n\n3. first\n4. second\n   1. inner"
    )


def test_data_table_becomes_a_pipe_table():
    html = page(
        "<table><tr><th>Name</th><th>Price</th></tr><tr><td>Tea</td><td>2 | 3</td></tr>"
        "<tr><td>Coffee</td></tr></table>"
    )
    # a short row stays short: GFM inserts the missing empty cells
    assert markdown_of(html) == ("| Name | Price |\n| --- | --- |\n| Tea | 2 \\| 3 |\n| Coffee |")


def test_layout_table_becomes_paragraphs():
    html = page(
        "<table><tr><td><h2>News</h2><p>First story.</p></td><td><ul><li>menu</li></ul></td>"
        "</tr><tr><td>Second</td><td>row</td></tr></table>"
    )
    assert markdown_of(html) == "## News\n\nFirst story.\n\n- menu\n\nSecond\n\nrow"


def test_a_heading_alone_in_its_cell_is_header_text():
    # GFM cells hold inline content only: the heading's text, without "#"
    html = page(
        "<table><tr><th><h3>Name</h3></th><th><h4>Price</h4></th></tr>"
        "<tr><td colspan='2'><h5>Drinks</h5></td></tr><tr><td>Tea</td><td>2</td></tr></table>"
    )
    assert markdown_of(html) == ("| Name | Price |\n| --- | --- |\n| Drinks |\n| Tea | 2 |")


def test_a_heading_beside_text_in_a_cell_makes_a_layout_table():
    html = page(
        "<table><tr><td><h3>Offer</h3>Two for one.</td><td>x</td></tr>"
        "<tr><td>Tea</td><td>2</td></tr></table>"
    )
    assert markdown_of(html) == "### Offer\n\nTwo for one.\n\nx\n\nTea\n\n2"


def test_one_row_of_header_cells_is_a_table_with_no_body():
    # a GFM table is a header row and a delimiter row, then any number of rows
    assert markdown_of(page("<table><tr><th>Shop</th><th>Price</th></tr></table>")) == (
        "| Shop | Price |\n| --- | --- |"
    )
    assert markdown_of(page("<table><tr><th>Listed</th><td>June 29</td></tr></table>")) == (
        "| Listed | June 29 |\n| --- | --- |"
    )
    # a row of plain cells alone is a row of columns, not data
    assert markdown_of(page("<table><tr><td>Left</td><td>Right</td></tr></table>")) == (
        "Left\n\nRight"
    )


def test_a_cell_spanning_columns_is_followed_by_empty_cells():
    html = page(
        "<table><tr><th colspan='2'>AB</th><th>C</th></tr>"
        "<tr><td colspan=' 2 '>wide</td><td>c</td></tr><tr><td>a</td><td colspan='3'>bc</td></tr>"
        "<tr><td colspan='²'>x</td><td>y</td></tr></table>"
    )
    # the header has the table's columns; a span at a row's end needs no cells
    assert markdown_of(html) == (
        "| AB |  | C |\n| --- | --- | --- |\n| wide |  | c |\n| a | bc |\n| x | y |"
    )


def test_list_numbers_that_are_not_ascii_digits_start_at_one():
    html = page("<ol start='²'><li>a</li></ol><ol start='3'><li>b</li></ol>")
    assert markdown_of(html) == "1. a\n\n3. b"


def test_pre_becomes_fenced_code_with_its_white_space():
    html = page('<pre><code class="language-python">def f(x):\n    return x * 2\n</code></pre>')
    assert markdown_of(html) == "```python\ndef f(x):\n    return x * 2\n```"


def test_code_with_backtick_fences_gets_a_longer_fence():
    html = page("<pre>a ``` b</pre><p>Use <code>x`y</code> here.</p>")
    assert markdown_of(html) == "````\na ``` b\n````\n\nUse ``x`y`` here."


def test_blockquote_and_emphasis():
    html = page("<blockquote><p>To be <b>or</b> not <i> to be </i></p></blockquote><p>After.</p>")
    assert markdown_of(html) == "> To be **or** not *to be*\n\nAfter."


def test_links_are_absolute_against_the_page_url():
    html = page('<p>See <a href="../about">the page</a> and <a href="#top">top</a>.</p>')
    assert markdown_of(html) == (
        "See [the page](https://example.org/about) and"
        " [top](https://example.org/news/story.html#top)."
    )


def test_base_href_wins_over_the_page_url():
    html = page('<p>See <a href="a b">this</a>.</p>', head='<base href="https://cdn.example/x/">')
    assert markdown_of(html) == "See [this](https://cdn.example/x/a%20b)."


_URL_CHARACTERS = "aZ09:/?#;[]@%.-_~ \t\n\x01\xa0é"


@pytest.mark.slow
@settings(max_examples=2000, deadline=None)
@given(
    st.sampled_from(["http://", "https://", "HTTP://", "ftp://", ""]),
    st.text(_URL_CHARACTERS, max_size=20) | st.text("aZ09:/?@%.-_~é", max_size=20),
    st.sampled_from([None, "http://example.org/a/b", "https://example.org/a/", "ftp://x/"]),
)
def test_links_taken_as_written_are_what_urljoin_gives(scheme, rest, base):
    href = scheme + rest
    try:
        joined = urljoin(base, href) if base else href
    except ValueError:  # a netloc urljoin refuses
        return
    if PLAIN_ABSOLUTE_URL.match(href):
        assert joined == href


@pytest.mark.slow
@settings(max_examples=3000, deadline=None)
@given(
    st.text(_URL_CHARACTERS + "/./", max_size=20).map(lambda rest: "/" + rest),
    st.sampled_from(
        [
            None,
            "http://example.org",
            "http://example.org/a/b",
            "https://user:pw@example.org:8080/a/?q=1",
            "https://example.org?q",
            "HTTP://example.org/a",
            "ftp://x/",
            "//example.org/a",
        ]
    ),
)
def test_root_paths_appended_to_the_origin_are_what_urljoin_gives(href, base):
    try:
        joined = urljoin(base, href) if base else href
    except ValueError:  # a netloc urljoin refuses
        return
    origin = base_origin(base)
    if origin and PLAIN_ROOT_PATH.match(href):
        assert origin + href == joined


@pytest.mark.slow
@settings(max_examples=2000, deadline=None)
@given(st.text(" a\t\n\r\x0b\x0c\x1c\x1f\x85\xa0\u2000\u2028\u3000\u200b\ufeffé", max_size=12))
def test_collapsed_space_is_what_the_white_space_regex_gives(text):
    assert collapse_space(text) == re.sub(r"\s+", " ", text)


def test_links_can_be_dropped_and_scripts_never_linked():
    html = page('<p>See <a href="/a">this</a> or <a href="javascript:go()">that</a>.</p>')
    assert markdown_of(html, markdown_links=False) == "See this or that."
    assert markdown_of(html) == "See [this](https://example.org/a) or that."


def test_images_only_on_request():
    html = page('<p>A cat <img src="/cat.png" alt="the [cat]"> sleeps.</p>')
    assert markdown_of(html) == "A cat sleeps."
    assert markdown_of(html, markdown_images=True) == (
        "A cat ![the \\[cat\\]](https://example.org/cat.png) sleeps."
    )


def test_markdown_characters_in_text_are_escaped():
    html = page("<p>1. Not a list *really* [x] snake_case _under_ a\\b</p><p># no heading</p>")
    assert markdown_of(html) == (
        "1\\. Not a list \\*really\\* \\[x\\] snake_case \\_under\\_ a\\\\b\n\n\\# no heading"
    )


def test_escape_leaves_plain_text_alone():
    assert escape("Plain words, 3.5 million.") == "Plain words, 3.5 million."


def test_a_page_whose_text_is_all_in_buttons_is_cut_as_its_blocks_were():
    html = page("<button>Hello <b>world</b></button>")
    result = extract(html)
    for block in result.blocks:
        block.label = Label.GOOD
    assert result.markdown == "Hello **world**"


def test_only_kept_blocks_are_written():
    html = page(
        "<div class='nav'><a href='/'>Home</a> <a href='/news'>News</a></div>"
        f"<h1>Rivers</h1><p>{LONG}</p><p>{LONG} Again.</p>"
        "<div class='footer'>Copyright 2025 River News</div>"
    )
    result = extract(html, "https://example.org/")
    kept = [b.text for b in result.blocks if b.is_good]
    assert kept and "Home" not in result.text
    md = result.markdown
    assert "Home" not in md and "Copyright" not in md
    assert md.replace("# Rivers", "Rivers") == result.text  # same blocks, same order


def test_text_does_not_change_and_markdown_is_lazy():
    html = page(f"<h2>Rivers</h2><p>{LONG}</p>")
    plain = extract(html)
    assert "markdown" not in vars(plain)  # not computed until read
    assert plain.text == extract(html).text
    for block in plain.blocks:  # both blocks, whatever the model keeps of a page this small
        block.label = Label.GOOD
    assert plain.markdown.startswith("## Rivers")


def test_no_kept_block_and_no_page_give_empty_markdown():
    assert extract("").markdown == ""
    result = extract(page("<a href='/'>Home</a>"))
    for block in result.blocks:
        block.label = Label.BAD
    assert result.markdown == ""
    assert to_markdown([], None) == ""


def test_to_dict_carries_markdown_and_metadata_when_asked():
    result = extract(page(f"<h1>Rivers</h1><p>{LONG}</p>", "<title>Rivers | News</title>"))
    assert "markdown" not in result.to_dict()
    data = result.to_dict(markdown=True, metadata=True)
    assert data["markdown"] == result.markdown
    assert data["metadata"]["title"] == "Rivers"


def test_options_are_validated():
    with pytest.raises(ValueError):
        Options(markdown_links="yes")


_WORDS = re.compile(r"[^\W_]+")


def _words(text: str) -> Counter:
    return Counter(_WORDS.findall(text.lower()))


def test_markdown_writes_exactly_the_kept_blocks_on_real_pages(corpus_path):
    """On real pages, with blocks kept at random, the Markdown (links, fences
    and list numbers aside) holds the same words as the text: the walk cuts
    the page where segment does, and numbers its stretches as the blocks."""
    mismatched = 0
    pages = list(load_pages(corpus_path, sample=60, seed=3))
    for corpus_page in pages:
        try:
            result = extract(corpus_page.html, options=Options(markdown_links=False))
        except DeclutterError:  # refused (page limits): no blocks to compare
            continue
        chance = random.Random(corpus_page.file_id)
        for block in result.blocks:
            block.label = Label.GOOD if chance.random() < 0.5 else Label.BAD
        lines = [
            re.sub(r"^[\s>]*\d+[.)] ", "", line)
            for line in result.markdown.splitlines()
            if not line.startswith("```")
        ]
        # emphasis inside a word ("<b>l</b>unch") splits it in two: count such pages
        mismatched += _words("\n".join(lines)) != _words(result.text)
    assert mismatched <= len(pages) // 10


@pytest.mark.slow
@pytest.mark.parametrize(
    ("page_of", "marker"),
    [
        (lambda: hostile.nested(100_000, "div"), hostile.END),
        (lambda: hostile.nested(100_000, "li", closed=False), hostile.END),
        (lambda: hostile.siblings(100_000), "x\n\nx"),
        (lambda: hostile.breaks(100_000), "before\n\nafter"),
        (lambda: hostile.huge_text(5), hostile.END),
        (lambda: page("<ul><li>item" * 20_000 + "</li></ul>" * 20_000), "item"),
        (lambda: page("<blockquote>quote" * 20_000), "quote"),
        (lambda: page("<table><tr><td>cell" * 5_000 + "</td></tr></table>" * 5_000), "cell"),
        (lambda: page("<table><tr>" + "<th colspan=1000>cell</th>" * 20_000), "cell"),
        (lambda: page("<table>" + "<tr><td>cell" * 20_000 + "<tr>" + "<td>c" * 20_000), "cell"),
        (lambda: page("<b>" * 50_000 + "a<br><br>" * 50_000), "a\n\na"),
        (lambda: page("<div>" * 1000 + "<p>line</p>" * 20_000), "line\n\nline"),
        # an <ol> or <tbody> is no block tag: each kept item asks whether to widen to it
        (lambda: page("<ol>" + "<li>item</li>" * 40_000 + "</ol>"), "item"),
        (lambda: page("<table><tbody>" + "<tr><td>a</td><td>b</td></tr>" * 40_000), "| a | b |"),
    ],
    ids=[
        "nested divs",
        "unclosed list items",
        "siblings",
        "breaks",
        "huge text",
        "nested lists",
        "nested quotes",
        "nested tables",
        "spanning cells",
        "a wide row among narrow ones",
        "nested bold",
        "deep siblings",
        "a long ordered list",
        "a long table body",
    ],
)
def test_hostile_pages_give_markdown_and_metadata_in_linear_time(page_of, marker):
    def structured(html):
        result = extract(html)
        for block in result.blocks:  # every block written: the longest walk
            block.label = Label.GOOD
        return result.markdown, result.metadata

    markdown, metadata = hostile.within(120, structured, page_of())
    assert marker in markdown
    assert len(markdown) < 100 * len(page_of())  # prefixes stay bounded
    assert metadata.title is None and metadata.date is None
