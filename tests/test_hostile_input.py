"""The core on hostile and broken pages: a result, or a ``DeclutterError``; never a hang.

Each test says what the result is. The big pages are generated in memory
(``tests/hostile.py``); ``within`` fails a test that runs over its time
instead of letting it hang the suite.
"""

import codecs
import io
import re

import pytest
from lxml import etree

from scrapy_declutter import BinaryInputError, DeclutterError, Label, extract
from scrapy_declutter.core.parse import parse
from tests import hostile
from tests.hostile import END, PARAGRAPH, within

TEXT = "Caf\u00e9 cr\u00e8me \u2014 \u201cquoted\u201d"
CONTROL = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f]")


def texts(html, **options) -> list[str]:
    return [block.text for block in extract(html, **options).blocks]


def page(body: str, head: str = "") -> str:
    return f"<html><head>{head}</head><body>{body}</body></html>"


# -- empty, binary, encodings --------------------------------------------------


@pytest.mark.parametrize("html", ["", " ", "\n\t\r\n  \f", b"", b"   \r\n", "\u3000\u00a0 "])
def test_empty_and_white_space_bodies_have_no_blocks(html):
    result = extract(html)
    assert result.blocks == [] and result.text == "" and result.language is None


@pytest.mark.parametrize(
    "data",
    [hostile.png(), hostile.gzip_stream(), bytes(range(256)) * 8],
    ids=["png", "gzip", "all-bytes"],
)
def test_binary_data_served_as_html_is_a_binary_input_error(data):
    with pytest.raises(BinaryInputError) as info:
        extract(data)
    assert isinstance(info.value, DeclutterError) and isinstance(info.value, ValueError)


def test_a_few_control_characters_are_dropped_not_binary():
    assert texts(page("<p>a\x01b\x00c\x1bd</p><p>tab\there\x0bvertical</p>")) == [
        "abcd",
        "tab here vertical",
    ]


@pytest.mark.parametrize(
    "reference", ["&#1;", "&#x1;", "&#X1B;", "&#0031", "&#00000008;", "&#x1f;"], ids=str
)
def test_control_character_references_are_dropped_from_every_output(reference):
    # libxml2 turns a reference into the character itself, which then reached
    # the text, the Markdown and the metadata although raw ones were dropped
    said = f"The river{reference} was warmer this summer than it had ever been"
    article = "".join(f"<p>{said}, {PARAGRAPH.format(n=n)}</p>" for n in range(3))
    comment = f"<p>{said}, I think, and I have lived by it for twenty years now.</p>"
    html = page(
        f"<article><h1>Head{reference}line</h1>{article}<pre>co{reference}de</pre></article>"
        f'<section id="comments">{comment}</section>',
        f'<title>T{reference}itle</title><meta name="description" content="D{reference}esc">',
    )
    result = extract(html, comments=True)
    outputs = [result.text, result.markdown, result.comments, *result.metadata.to_dict().values()]
    assert "The river was warmer" in result.text and "code" in result.markdown
    assert "The river was warmer" in result.comments
    assert (result.metadata.title, result.metadata.description) == ("Title", "Desc")
    assert not any(CONTROL.search(output) for output in outputs if output)


# Every character XML 1.0 forbids (lone surrogates are read as U+FFFD).
NOT_XML = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ud800-\udfff\ufffe\uffff]")


@pytest.mark.parametrize(
    "forbidden",
    ["\ufffe", "\uffff", "&#xFFFE;", "&#65535;", "&#x0ffff", "&#00065534;", "\x01&#x1b;"],
    ids=ascii,
)
@pytest.mark.parametrize("as_bytes", [False, True], ids=["str", "bytes"])
def test_characters_xml_forbids_are_dropped_from_every_output(forbidden, as_bytes):
    # U+FFFE and U+FFFF passed parsing where C0 controls did not, and an
    # XmlItemExporter feed holding one is read by no XML parser
    from scrapy.exporters import XmlItemExporter

    from scrapy_declutter.outputs.report import render_report

    said = f"The river{forbidden} was warmer this summer than it had ever been"
    article = "".join(f"<p>{said}, {PARAGRAPH.format(n=n)}</p>" for n in range(3))
    comment = f"<p>{said}, I think, and I have lived by it for twenty years now.</p>"
    json_ld = (
        '{"@type": "NewsArticle", "headline": "Head\\uffffline", '
        '"author": {"name": "Kim\\ufffe Park\\ud800"}, "description": "D\\u0001esc"}'
    )
    html = page(
        f"<article><h1>Head{forbidden}line</h1>{article}<pre>co{forbidden}de</pre>"
        f"<p>a<code>x{forbidden}</code><a href='/a{forbidden}'>b</a></p></article>"
        f'<section id="comments">{comment}</section>',
        f'<title>T{forbidden}itle</title><meta name="description" content="D{forbidden}esc">'
        f'<script type="application/ld+json">{json_ld}</script>',
    )
    result = extract(html.encode() if as_bytes else html, comments=True)
    item = result.to_dict(markdown=True, metadata=True)
    outputs = [
        result.text,
        result.markdown,
        result.comments,
        *map(str, item["metadata"].values()),
        *(str(block) for block in item["blocks"]),
        render_report(result),
    ]
    assert "The river was warmer" in result.text and "a`x`[b](/a)" in result.markdown
    assert "The river was warmer" in result.comments
    assert result.metadata.author == "Kim Park"
    assert not [output for output in outputs if NOT_XML.search(output)]
    feed = io.BytesIO()
    exporter = XmlItemExporter(feed)
    exporter.start_exporting()
    exporter.export_item(item)
    exporter.finish_exporting()
    (exported,) = etree.fromstring(feed.getvalue())
    assert exported.findtext("text") == result.text


@pytest.mark.parametrize(
    "white, kept",
    [("&#11;", " "), ("&#x0c;", " "), ("\x0c", " "), ("&#9;", "\t"), ("&#13;", "\r")],
)
def test_white_space_controls_become_spaces_but_tab_and_return(white, kept):
    root = parse(f"<pre title='a{white}b'>a{white}b</pre>")
    assert root.find(".//pre").text == root.find(".//pre").get("title") == f"a{kept}b"


def test_invalid_utf8_is_replaced_and_the_rest_kept():
    data = page(f"<p>{TEXT}</p><p>bad \xff\xfe end</p>", '<meta charset="utf-8">').encode()
    data = data.replace(b"\xc3\xbf\xc3\xbe", b"\xff\xfe\xc3")  # invalid sequences
    assert texts(data) == [TEXT, "bad \ufffd\ufffd\ufffd end"]


def test_mixed_encodings_decode_by_the_declared_one():
    data = (
        page(f"<p>{TEXT}</p>", '<meta charset="utf-8">')
        .encode()
        .replace(b"</body>", f"<p>{TEXT}</p></body>".encode("cp1252"))
    )
    first, second = texts(data)
    assert first == TEXT
    assert second == TEXT.encode("cp1252").decode("utf-8", "replace")


def test_a_meta_charset_that_lies_about_utf8_bytes_is_overruled():
    # a stale legacy declaration on a page saved as UTF-8 (docs/reliability.rst)
    data = page(f"<p>{TEXT}</p>", '<meta charset="windows-1251">').encode("utf-8")
    assert texts(data) == [TEXT]


def test_a_meta_charset_that_lies_about_legacy_bytes_is_honoured_as_browsers_do():
    data = page(f"<p>{TEXT}</p>", '<meta charset="utf-8">').encode("cp1251", "replace")
    assert texts(data) == [TEXT.encode("cp1251", "replace").decode("utf-8", "replace")]


@pytest.mark.parametrize(
    "codec", ["rot13", "idna", "hex", "undefined", "punycode", "no-such-codec"]
)
@pytest.mark.parametrize("where", ["meta", "argument"])
def test_a_declared_codec_that_is_not_for_text_is_ignored(codec, where):
    head = f'<meta charset="{codec}">' if where == "meta" else ""
    data = page(f"<p>{TEXT}</p>", head).encode("utf-8")
    assert texts(data, encoding=codec if where == "argument" else None) == [TEXT]


@pytest.mark.parametrize("codec", ["utf-16", "utf-16-le", "utf-16-be", "utf-32"])
def test_utf16_and_utf32_with_or_without_a_bom(codec):
    data = page(f"<p>{TEXT}</p>").encode(codec)
    if codec == "utf-16":
        assert data[:2] in (codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)
    assert texts(data) == [TEXT]


def test_lone_surrogates_in_str_are_replaced():
    assert texts(page("<p>a\ud800b \udfff</p>")) == ["a\ufffd\ufffd\ufffdb \ufffd\ufffd\ufffd"]


# -- size ----------------------------------------------------------------------


@pytest.mark.slow
def test_a_50_mb_page_is_extracted_whole():
    html = hostile.big_page(50)
    assert len(html) > 50_000_000
    # over the default page_memory_limit_mb (20 bytes a byte is 1 GB); without one it is read whole
    result = within(300, lambda: extract(html, page_memory_limit_mb=0))
    assert all(block.label is Label.GOOD for block in result.blocks)
    assert result.blocks[-1].text.startswith(END)
    assert len(result.text) > 49_000_000


@pytest.mark.slow
@pytest.mark.parametrize(
    ("tag", "closed"),
    [("div", True), ("div", False), ("span", False), ("b", False), ("table", True)],
)
def test_100000_nested_elements_keep_their_text(tag, closed):
    result = within(120, extract, hostile.nested(100_000, tag, closed))
    assert END in [block.text for block in result.blocks]


def test_stray_end_tags_do_not_hide_deep_nesting():
    html = page("<div></span>" * 5000 + f"<p>{END}</p>")
    assert texts(html)[-1] == END


@pytest.mark.slow
def test_1000000_sibling_blocks_are_1000000_blocks():
    html = hostile.siblings(1_000_000)  # over the default page_memory_limit_mb
    result = within(300, lambda: extract(html, pipeline="justext", page_memory_limit_mb=0))
    assert len(result.blocks) == 1_000_000
    assert {block.text for block in result.blocks} == {"x"}


def test_100000_consecutive_br_make_two_blocks():
    assert within(120, texts, hostile.breaks(100_000)) == ["before", "after"]


@pytest.mark.slow
def test_20_mb_text_node_is_one_block():
    result = within(120, extract, hostile.huge_text(20))
    first, last = result.blocks
    assert len(first.text) == 20_000_000 - 1 and first.text.startswith("word word")
    assert last.text == END


def test_20_mb_attribute_is_no_text():
    html = page(f'<p title="{"x" * 20_000_000}">short</p><p>{END}</p>')
    assert within(120, texts, html) == ["short", END]


@pytest.mark.slow
@pytest.mark.parametrize("pipeline", ["boilerpipe-default", "boilerpipe-article+tree", "density"])
def test_long_runs_of_equal_blocks_stay_linear(pipeline):
    # 100,000 equal blocks fused one by one took minutes when fusion was quadratic
    result = within(120, lambda: extract(hostile.siblings(100_000), pipeline=pipeline))
    assert len(result.blocks) == 100_000


# -- broken markup -------------------------------------------------------------


def test_unclosed_and_misnested_tags():
    html = (
        "<p><b><i>bold italic</b> text</i><table><tr><td><p>cell<div>in cell</table>"
        "<ul><li>one<li>two</ul><p>last <a href=x>link"
    )
    assert texts(html) == ["bold italic text", "cell", "in cell", "one", "two", "last link"]


def test_content_after_the_end_of_html_is_kept():
    html = page("<p>inside</p>") + "<p>after html</p></html><p>and more</p>"
    assert texts(html) == ["inside", "after html", "and more"]


def test_a_button_that_swallows_the_page_is_not_skipped():
    article = "".join(f"<p>{PARAGRAPH.format(n=n)}</p>" for n in range(3))
    html = page("<p>Intro</p><button>Buy <b>now</b></button><button><div>Menu</button>" + article)
    result = extract(html)
    assert [b.text for b in result.blocks][:2] == ["Intro", "Menu"]
    assert PARAGRAPH.format(n=2) in result.text
    assert "Buy" not in [b.text for b in result.blocks]  # a real button is still skipped


def test_xhtml_with_xml_declaration_doctype_and_namespaces():
    html = (
        '<?xml version="1.0" encoding="utf-16"?>\n'
        '<!DOCTYPE html PUBLIC "-//W3C//DTD XHTML 1.0 Strict//EN" '
        '"http://www.w3.org/TR/xhtml1/DTD/xhtml1-strict.dtd">\n'
        '<html xmlns="http://www.w3.org/1999/xhtml" xmlns:svg="http://www.w3.org/2000/svg" '
        'xml:lang="en"><head><title>X</title></head><body>'
        f'<p>{TEXT}</p><svg:svg><svg:text>label</svg:text></svg:svg><p class="x"/></body></html>'
    )
    result = extract(html.encode("utf-8"))
    assert [b.text for b in result.blocks] == [TEXT, "label"]
    assert result.title == "X"


def test_frameset_has_no_content_of_its_own():
    html = (
        '<html><frameset cols="50%,50%"><frame src="a.html"><frame src="b.html">'
        "<noframes><body><p>Your browser does not do frames</p></body></noframes></frameset></html>"
    )
    assert texts(html) == []


def test_iframe_noembed_content_is_not_text():
    html = page("<p>a</p><iframe><p>inner</p></iframe><noembed><b>x</b></noembed><p>b</p>")
    assert texts(html) == ["a", "b"]


def test_comments_cdata_and_processing_instructions_in_odd_places():
    html = (
        "<?php echo 1 ?><!-- before --><!DOCTYPE html><!-- after doctype --><html><!-- h -->"
        "<head><title>T<!-- in title --></title></head><!-- between --><body>"
        "<p>Hello <!-- c --> world <![CDATA[ hidden ]]> and <?pi x?> more</p>"
        "<table><!-- in table --><tr><td>cell</td></tr></table><p>unclosed <!-- comment"
        "</p></body></html>"
    )
    assert texts(html) == ["Hello world and more", "cell", "unclosed"]


def test_entities_are_not_expanded_from_a_dtd():
    html = (
        '<!DOCTYPE html [<!ENTITY a "AAAAAAAAAA"><!ENTITY b "&a;&a;&a;&a;&a;&a;&a;">]>'
        "<html><body><p>&b; &amp; &lt;tag&gt; &#233; &#0; &#xD800; &nosuch;</p></body></html>"
    )
    assert "&b; & <tag> \u00e9 \ufffd \ufffd &nosuch;" in texts(html)
    assert "AAAA" not in extract(html).text


def test_right_to_left_text():
    arabic = (
        "\u0647\u0630\u0627 \u0646\u0635 \u0639\u0631\u0628\u064a \u200f\u0637\u0648\u064a\u0644."
    )
    hebrew = "\u05d6\u05d4\u05d5 \u05d8\u05e7\u05e1\u05d8 \u05d1\u05e2\u05d1\u05e8\u05d9\u05ea."
    html = (
        f'<html dir="rtl" lang="ar"><body><p>{arabic * 20}</p>'
        f'<p dir="rtl">{hebrew}</p></body></html>'
    )
    result = extract(html)
    assert [b.text for b in result.blocks] == [arabic * 20, hebrew]
    assert (result.language, result.stoplist) == ("ar", "Arabic")
    assert arabic in result.text


def test_cjk_text_is_read_as_chinese_and_kept():
    chinese = (
        "\u8fd9\u662f\u4e00\u4e2a\u5173\u4e8e\u6cb3\u6d41\u548c\u4f4f\u5728"
        "\u6cb3\u8fb9\u7684\u4eba\u4eec\u7684\u957f\u7bc7\u6587\u7ae0\u3002"
    )
    html = page(f"<p>{chinese * 12}</p><p><a href='/'>\u9996\u9875</a></p>")
    result = extract(html)
    assert result.stoplist == "Chinese"  # from the script: Han and no kana
    assert result.text == chinese * 12


def test_a_page_that_is_only_a_script():
    for html in (
        "<script>document.write('<p>hi</p>')</script>",
        "<script>var s = '</p><p>not text';</script>",
        page("", "<script src=x></script><style>p{}</style>"),
    ):
        result = extract(html)
        assert result.blocks == [] and result.text == ""


@pytest.mark.parametrize(
    "pipeline",
    [
        "declutter",
        "justext",
        "justext+tree",
        "boilerpipe-article",
        "boilerpipe-article+tree",
        "boilerpipe-default",
        "density",
    ],
)
def test_every_pipeline_takes_the_hostile_small_pages(pipeline):
    pages = [
        "",
        "<",
        "<<<>>>",
        "</p></div></html>",
        "<html>",
        "<body/>",
        "<p>",
        "<!--",
        "<![CDATA[",
        "<?xml?>",
        "<!DOCTYPE>",
        "&",
        "&#",
        "&#x;",
        "<a href=",
        "<br>" * 50,
        "<button>" * 50,
        hostile.nested(3000, "font", False),
        page("<p>x</p>" * 500),
        page("<h1>Title</h1>" + "<p>" + PARAGRAPH.format(n=1) + "</p>"),
    ]
    for html in pages:
        result = extract(html, pipeline=pipeline)
        assert result.text == "\n\n".join(b.text for b in result.blocks if b.is_good)
        assert all(b.label in (Label.GOOD, Label.BAD) for b in result.blocks)
