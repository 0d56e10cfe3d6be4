"""result.markdown read back by a CommonMark parser (benchmarks/markdown_safety.py): safe to render.

No raw HTML, no link but http(s), ``mailto:`` or relative ones, emphasis that
parses as emphasis, no heading, table, thematic break or indented code the
page did not have: on the issue's cases, on generated pages and on a sample
of the corpora.
"""

import html as html_module

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from benchmarks.corpus import default_corpora, load_pages
from benchmarks.markdown_safety import extra_marks, parser, problems, scheme
from scrapy_declutter import DeclutterError, InvalidInputError, Label, extract
from tests.test_fuzz import mutated_page, tag_soup


def page(body: str, head: str = "") -> str:
    return f"<html lang='en'><head>{head}</head><body>{body}</body></html>"


def kept(html: str | bytes, url: str | None = None, labels=None, **options):
    """The result with every block kept (or labelled by ``labels``, a list of bools)."""
    result = extract(html, url, **options)
    for number, block in enumerate(result.blocks):
        keep = labels[number % len(labels)] if labels else True
        block.label = Label.GOOD if keep else Label.BAD
    return result


def rendered_text(markdown: str) -> str:
    """The text a renderer shows, paragraphs and line breaks as line breaks."""
    lines = []
    for token in parser().parse(markdown):
        if token.type == "inline":
            lines.append(
                "".join(
                    "\n" if child.type == "softbreak" else child.content
                    for child in token.children or ()
                )
            )
    return "\n\n".join(lines)


def block_tokens(markdown: str) -> list[str]:
    return [token.type for token in parser().parse(markdown)]


def attribute(value: str) -> str:
    """``value`` as an HTML attribute's, control characters as references."""
    return "".join(f"&#{ord(c)};" if c < " " else c for c in html_module.escape(value))


def test_code_cut_by_a_block_boundary_stays_code():
    html = page("<p>a <code>&lt;img src=x onerror=alert(1)&gt;<p>b &lt;i&gt;</code></p>")
    markdown = kept(html).markdown
    assert markdown == "a `<img src=x onerror=alert(1)>`\n\n`b <i>`"
    assert not problems(markdown)


def test_a_line_break_in_code_does_not_end_its_span():
    # on a line of its own, "<div ...>" would open an HTML block
    markdown = kept(page("<p>a <code>x<br>&lt;div onclick=f()&gt;</code></p>")).markdown
    assert markdown == "a `x <div onclick=f()>`"
    assert not problems(markdown)


def test_a_link_inside_code_is_its_text_and_an_image_nothing():
    html = page("<p>See <code>f(<a href='/f'>x</a><img src='/i' alt='i'>)</code>.</p>")
    assert kept(html, markdown_images=True).markdown == "See `f(x)`."


SCRIPT_HREFS = [
    "javascript:alert(1)",
    "JavaScript:alert(1)",
    " \x01javascript:alert(1)",
    "java\tscr\nipt:alert(1)",
    "javascript&colon;alert(1)",  # the page's "javascript&amp;colon;": CommonMark decodes it
    "&#106;avascript:alert(1)",
    "javascript&#58;alert(1)",
    "vbscript:msgbox(1)",
    "data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==",
    "\n<script>alert(1)</script>",
    "<script>alert(1)</script>",
    "x\\\\)<script>",
    "file:///etc/passwd",
]


@pytest.mark.parametrize("href", SCRIPT_HREFS)
@pytest.mark.parametrize("url", [None, "https://example.org/a/"])
def test_no_script_link_in_any_spelling(href, url):
    value = attribute(href)
    html = page(f'<p>See <a href="{value}">this</a> <img alt=cat src="{value}"> now.</p>')
    markdown = kept(html, url, markdown_images=True).markdown
    assert not problems(markdown)
    assert rendered_text(markdown).startswith("See this")


def test_links_keep_their_url_as_written():
    html = page(
        "<p><a href='mailto:ed@example.org'>mail</a> <a href='/a?x=1&amp;copy;=2'>query</a>"
        " <a href='a\\b c'>path</a> <a href='https://example.org/(x)'>parens</a></p>"
    )
    hrefs = [
        token.attrs["href"]
        for line in parser().parse(kept(html).markdown)
        for token in line.children or ()
        if token.type == "link_open"
    ]
    # as markdown-it normalises a URL: percent-encoded ("(" already, to keep the
    # destination plain), "&" left as it is
    assert hrefs == [
        "mailto:ed@example.org",
        "/a?x=1&copy;=2",
        "a%5Cb%20c",
        "https://example.org/%28x%29",
    ]


def test_the_scheme_check_reads_urls_as_browsers_do():
    assert scheme(" \x01JavaScript:x") == "javascript"
    assert scheme("java\tscript:x") == "javascript"
    assert scheme("/javascript:x") is None
    assert scheme("&#106;avascript:x") is None


@pytest.mark.parametrize(
    ("body", "shown"),
    [
        ("<p>Thanks<br>--<br>John</p>", "Thanks\n--\nJohn"),
        ("<p>Total<br>===</p>", "Total\n==="),
        ("<p>a | b<br>--|--<br>c | d</p>", "a | b\n--|--\nc | d"),
        ("<p>a | b<br>|:-|-:|</p>", "a | b\n|:-|-:|"),
        ("<p>a<br>- - -</p>", "a\n- - -"),
        ("<p>a ~~b~~ c</p>", "a ~~b~~ c"),
        ("<p>1. one<br>+ two<br># three<br>&gt; four</p>", "1. one\n+ two\n# three\n> four"),
        ("<p>&amp;copy; &amp;#60;i&gt;</p>", "&copy; &#60;i>"),
    ],
)
def test_text_never_becomes_markup(body, shown):
    html = page(body)
    result = kept(html)
    assert not problems(result.markdown, result.root)
    assert block_tokens(result.markdown) == ["paragraph_open", "inline", "paragraph_close"]
    assert rendered_text(result.markdown) == shown


def test_a_quote_in_a_list_item_is_indented_under_it():
    # "> " first and the item's indentation after it would be an indented code block
    html = page("<ul><li>a<blockquote><ul><li>b</li></ul></blockquote></li></ul>")
    markdown = kept(html).markdown
    assert markdown == "- a\n  > - b"
    assert not problems(markdown)


def test_a_heading_keeps_its_closing_hashes():
    markdown = kept(page("<h2>Item #</h2><h3>#</h3>")).markdown
    assert rendered_text(markdown) == "Item #\n\n#"


@pytest.mark.parametrize(
    ("body", "markdown"),
    [
        # the colon moved out: "**Note:**text" would show its asterisks
        ("<p><b>Note:</b>text</p>", "**Note**:text"),
        ("<p>A <b>Note:</b> text</p>", "A **Note:** text"),
        ("<p><i>Wow!</i>such</p>", "*Wow*!such"),
        ("<p>x<i>'quoted'</i>y</p>", "x'*quoted*'y"),
        ("<p><b>\u6ce8\u610f\uff1a</b>\u6587\u5b57</p>", "**\u6ce8\u610f**\uff1a\u6587\u5b57"),
        # no punctuation that may move: no emphasis rather than literal asterisks
        ("<p>x<b>(see)</b>y</p>", "x(see)y"),
        ("<p>x<b><a href='/a'>link</a></b>s</p>", "x[link](/a)s"),
        # a mark beside another would make one run of marks: the second dropped
        ("<p><b>a</b><b>b</b><i>c</i></p>", "**a**b*c*"),
        ("<p>say <i>hi</i><b>!</b></p>", "say *hi*!"),
    ],
)
def test_emphasis_is_written_where_it_parses(body, markdown):
    written = kept(page(body)).markdown
    assert written == markdown
    assert "*" not in rendered_text(written)


HTML_IN_CODE = "<code>&lt;img src=x onerror=alert(1)&gt;</code>"


@pytest.mark.parametrize(
    ("between", "markdown"),
    [
        ("", "a `x` ``y`<img src=x onerror=alert(1)>`` b"),
        ("<b></b>", "a `x` ``y`<img src=x onerror=alert(1)>`` b"),
        ("<i></i><b></b>", "a `x` ``y`<img src=x onerror=alert(1)>`` b"),
        ("<span> </span>", "a `x` ``y`<img src=x onerror=alert(1)>`` b"),
    ],
)
def test_code_spans_side_by_side_stay_apart(between, markdown):
    # touching, the fences "`x```y`..." are one run: the second span ends early
    html = page(f"<p>a <code>x</code>{between}<code>y`&lt;img src=x onerror=alert(1)&gt;</code> b")
    written = kept(html).markdown
    assert written == markdown
    assert not problems(written)


def test_code_after_emphasis_that_is_dropped_stays_apart():
    # the marks around the first span are dropped (they could not open): its
    # fence then touches the next one
    html = page("<p>x<i><code>a</code></i><code>y`&lt;img src=x onerror=alert(1)&gt;</code></p>")
    written = kept(html).markdown
    assert written == "x`a` ``y`<img src=x onerror=alert(1)>``"
    assert not problems(written)


@pytest.mark.parametrize("start", ["0", "2", "999999998"])
@pytest.mark.parametrize(
    "before",
    ["intro", "<ol><li>outer", "<ul><li>outer", "<blockquote>quoted"],
)
def test_a_list_not_from_1_after_text_is_a_list(start, before):
    # CommonMark lets only a list from 1 interrupt a paragraph: joined to the
    # text by one line break, the items would be that paragraph's text, and
    # the code block in one read as Markdown
    html = page(f"{before}<ol start={start}><li>first</li><li><pre>&lt;img src=x&gt;</pre></ol>")
    markdown = kept(html).markdown
    assert not problems(markdown), markdown
    tokens = parser().parse(markdown)
    inner = [token for token in tokens if token.type == "ordered_list_open"][-1]
    assert inner.attrs.get("start", 1) == int(start)
    fences = [token.content for token in tokens if token.type == "fence"]
    assert fences == ["<img src=x>\n"]


def test_list_numbers_stay_within_nine_digits():
    # 1000000000 is no list item marker: the item, code block and all, would be
    # the first one's text; a renderer numbers the items on from the first
    html = page(f"<ol start=999999999><li>a</li><li>{HTML_IN_CODE}<pre>&lt;img&gt;</pre></ol>")
    markdown = kept(html).markdown
    assert markdown.splitlines()[1].startswith("999999999. ")
    assert not problems(markdown)
    tokens = parser().parse(markdown)
    assert [token.type for token in tokens].count("list_item_open") == 2
    assert [token.content for token in tokens if token.type == "fence"] == ["<img>\n"]


def test_control_characters_are_dropped():
    result = kept(page("<p>a&#1;b <code>c&#2;d</code></p><pre>e&#3;f&#13;g</pre>"))
    assert result.markdown == "ab `cd`\n\n```\nef\ng\n```"


def test_a_url_that_is_not_text_is_refused_at_the_call():
    with pytest.raises(InvalidInputError):
        extract(page("<p>text</p>"), url=b"https://example.org/")


def test_urls_that_urljoin_refuses_are_left_out():
    html = page("<p>a <a href='/x'>b</a> <a href='http://[x'>c</a></p>", "<base href='http://[y'>")
    assert kept(html, "https://example.org/").markdown == "a [b](https://example.org/x) c"


# Generated pages: tag soup of the elements the Markdown writes, with text full
# of what Markdown reads as markup, every block kept or some left out.
TAGS = "p div span b i strong em code kbd pre a img h1 h2 ul ol li table tbody tr td th".split()
TAGS += "blockquote br button".split()
TEXT = [
    "word",
    "Note:",
    "(see)",
    "\u6ce8\u610f\uff1a",
    "!",
    "_",
    "`",
    "``",
    "#",
    "-",
    "--",
    "=",
    "|",
    "|---|",
    ":-",
    "[",
    "]",
    "(",
    "1.",
    "+",
    "&gt;",
    "~~",
    "\\",
    "&amp;colon;",
    "&amp;#106;",
    "&lt;script&gt;",
    "&lt;div",
    "&#1;",
    "&#13;",
    "&#2;",
    " ",
    "\n",
]
# Markup the walk must keep apart or in order, alone and whole: code elements
# side by side, lists that do not start at 1, list numbers past nine digits.
SCRIPT_CODE = "&lt;img src=x onerror=alert(1)&gt;"
PIECES = [
    "</code><code>",
    "</code><b></b><code>",
    "</kbd><i></i><code>",
    f"<code>x</code><code>y`{SCRIPT_CODE}</code>",
    "<ol start='0'>",
    "<ol start='7'>",
    "<ol start='999999998'>",
    f"<pre>{SCRIPT_CODE}</pre>",
    f"<ol start='0'><li><pre>{SCRIPT_CODE}</pre></li></ol>",
    f"<ol start='999999999'><li>a</li><li><pre>{SCRIPT_CODE}</pre></li></ol>",
]
HREFS = ["/a", "b c", "https://x.example/", "mailto:a@b", *SCRIPT_HREFS[:4], "&lt;x&gt;", "&#2;"]


@st.composite
def markdown_soup(draw):
    parts = []
    for _ in range(draw(st.integers(1, 40))):
        kind = draw(st.integers(0, 6))
        tag = draw(st.sampled_from(TAGS))
        if kind == 6:
            parts.append(draw(st.sampled_from(PIECES)))
        elif kind == 0:
            href = draw(st.sampled_from(HREFS)).replace("'", "")
            attrs = f" href='{href}' src='{href}' alt='{href}'" if tag in ("a", "img") else ""
            parts.append(f"<{tag}{attrs}>")
        elif kind == 1:
            parts.append(f"</{tag}>")
        else:
            parts.append("".join(draw(st.lists(st.sampled_from(TEXT), max_size=6))))
    return "".join(parts)


def check(html, url, labels, images=False):
    try:
        result = kept(html, url, labels, markdown_images=images)
    except DeclutterError:
        return
    markdown = result.markdown
    assert not problems(markdown, result.root), markdown
    assert not extra_marks(markdown, result.text, "*"), markdown


FUZZ = settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
LABELS = st.lists(st.booleans(), min_size=1, max_size=5)
URLS = st.sampled_from([None, "https://example.org/a/"])


@pytest.mark.slow
@FUZZ
@given(markdown_soup(), URLS, LABELS, st.booleans())
def test_generated_pages_render_safely(html, url, labels, images):
    check(html, url, labels, images)


@settings(max_examples=50, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(tag_soup(), URLS, LABELS)
def test_fuzz_tag_soup_renders_safely(html, url, labels):
    check(html, url, labels)


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(mutated_page(), URLS, LABELS)
def test_mutated_pages_render_safely(data, url, labels):
    check(data, url, labels)


@pytest.mark.slow
def test_corpus_pages_render_safely():
    """Every 20th page of each corpus beside the repository, as extracted and
    with every block kept (the longest walk)."""
    corpora = default_corpora()
    if not corpora:
        pytest.skip("no corpus beside the repository (../shared/corpora)")
    found = {}
    for corpus in corpora:
        for number, corpus_page in enumerate(load_pages(corpus)):
            if number % 20:
                continue
            try:
                result = extract(corpus_page.html, corpus_page.url)
            except DeclutterError:
                continue
            for labels in (None, [True]):
                if labels:
                    for block in result.blocks:
                        block.label = Label.GOOD
                    vars(result).pop("markdown", None)  # written again
                wrong = problems(result.markdown, result.root)
                wrong["literal **"] += extra_marks(result.markdown, result.text)
                if +wrong:
                    found[f"{corpus.name} {corpus_page.file_id} {labels}"] = dict(+wrong)
    assert not found
