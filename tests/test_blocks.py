from lxml import etree

from scrapy_declutter.core.blocks import WordWrap, segment, wrap_words
from scrapy_declutter.core.parse import parse


def blocks_of(html: str):
    return segment(parse(html))


def texts(html: str) -> list[str]:
    return [b.text for b in blocks_of(html)]


def test_block_tags_split_and_inline_tags_do_not():
    html = (
        "<div>Intro <b>bold</b> end<p>First <i>para</i></p>after"
        "<ul><li>one</li><li>two</li></ul></div>"
    )
    assert texts(html) == ["Intro bold end", "First para", "after", "one", "two"]


def test_double_br_splits_single_br_does_not():
    assert texts("<p>line one<br>line two<br><br>line three<br> <br>four</p>") == [
        "line one line two",
        "line three",
        "four",
    ]


def test_inline_tags_between_brs_cancel_the_pair():
    # <br><span></span><br> is no paragraph break (the second br is not consecutive)
    assert texts("<p>a<br><span></span><br>b</p>") == ["a b"]


def test_whitespace_is_collapsed_and_words_kept_apart():
    assert texts("<p>  many\n\n  spaces\t here <a>x</a> <a>y</a></p>") == ["many spaces here x y"]


def test_skipped_subtrees_keep_their_tail():
    html = (
        "<html><head><title>T</title></head><body><p>a<script>var x</script> b"
        "<style>p{}</style> c<textarea>typed</textarea> d<button>Go</button> e</p></body></html>"
    )
    assert texts(html) == ["a b c d e"]


def test_comments_and_processing_instructions_are_ignored():
    assert texts("<p>one<!-- hidden --> two<?php echo 1 ?> three</p>") == ["one two three"]


def test_link_characters_and_words():
    [block] = blocks_of('<p>Read <a href="/x">the full story</a> now</p>')
    assert block.text == "Read the full story now"
    assert block.link_words == 3
    assert block.link_chars == len("the full story")


def test_heading_flag_follows_the_heading_element():
    html = "<div><h2>Title <span>here</span></h2>tail text<h3><div>nested</div></h3></div>"
    assert [(b.text, b.heading) for b in blocks_of(html)] == [
        ("Title here", True),
        ("tail text", False),
        ("nested", True),
    ]


def test_select_options_are_dropped():
    html = "<form><p>Pick</p><select><option>Red</option><option>Blue</option></select> now</form>"
    assert texts(html) == ["Pick", "now"]


def test_xpath_locates_the_block_element():
    root = parse("<html><body><div><p>one</p><p>two</p></div></body></html>")
    blocks = segment(root)
    assert [b.xpath for b in blocks] == ["/html/body/div/p[1]", "/html/body/div/p[2]"]
    assert [root.xpath(b.xpath)[0].text for b in blocks] == ["one", "two"]


def test_text_after_a_nested_block_belongs_to_its_container():
    root = parse("<html><body><div id='c'><p>inner</p>outer</div></body></html>")
    outer = segment(root)[1]
    assert outer.text == "outer" and outer.element.get("id") == "c"


def test_deep_nesting_needs_no_recursion():
    n = 100_000
    html = (
        "<html><body><p>before</p>"
        + "<div>" * n
        + "deep"
        + "</div>" * n
        + "<p>after</p></body></html>"
    )
    assert texts(html) == ["before", "deep", "after"]
    html = "<html><body>" + "<span>" * n + "inline" + "</span>" * n + "</body></html>"
    assert texts(html) == ["inline"]


def test_many_siblings():
    html = "<html><body>" + "<p>x</p>" * 200_000 + "</body></html>"
    assert len(blocks_of(html)) == 200_000


def test_unclosed_and_misnested_tags():
    assert texts("<div><p>one<p>two <b>bold <i>both</b> italic</i></div>") == [
        "one",
        "two bold both italic",
    ]


def test_xhtml_with_declaration_and_namespace():
    html = (
        '<?xml version="1.0" encoding="utf-8"?>\n'
        '<!DOCTYPE html PUBLIC "-//W3C//DTD XHTML 1.0 Strict//EN" '
        '"http://www.w3.org/TR/xhtml1/DTD/xhtml1-strict.dtd">'
        '<html xmlns="http://www.w3.org/1999/xhtml"><body><p>caf\u00e9</p></body></html>'
    )
    assert texts(html) == ["caf\u00e9"]


def test_element_references_share_one_tree():
    root = parse("<html><body><p>a</p><div>b</div></body></html>")
    assert all(b.element.getroottree().getroot() is root for b in segment(root))
    assert isinstance(segment(root)[0].element, etree._Element)


def test_boilerpipe_words_in_anchor_text():
    # "|" and "»" are no words; "U.S." and "e-mail" are one each
    [block] = blocks_of('<p>See <a href="/x">U.S. e-mail | news »</a></p>')
    assert block.link_words == 3


def test_blocks_are_numbered_in_document_order():
    assert [b.offset for b in blocks_of("<div>a<p>b</p>c</div><p>d</p>")] == [0, 1, 2, 3]


def test_word_wrap_of_a_short_text_is_one_line():
    assert wrap_words("Home | News | U.S. e-mail") == WordWrap(4, 4, 1)


def test_word_wrap_leaves_out_the_unfinished_line():
    # 40 words of 6 characters: 11 fit in 80 characters, so 3 full lines and 7 left over
    text = " ".join(f"word{i:02d}" for i in range(40))
    assert wrap_words(text) == WordWrap(40, 33, 3)
    [block] = blocks_of(f"<p>{text}</p>")
    assert block.text_density == 11
