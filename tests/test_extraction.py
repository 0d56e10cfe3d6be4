import json
import pickle

import pytest

from scrapy_declutter import (
    DeclutterError,
    InvalidInputError,
    InvalidOptionError,
    Label,
    Options,
    extract,
)

ARTICLE = """
<html lang="en"><head><title>  A   test page </title></head><body>
<ul class="menu"><li><a href="/">Home</a></li><li><a href="/news">News</a></li></ul>
<h1>Rivers are getting warmer</h1>
<p>Scientists who have measured the temperature of rivers for more than forty years say that the
water is now warmer in every season, and that the change is fastest in the summer months when
the flow is at its lowest and the fish are most at risk.</p>
<p>They found that the rivers which run through cities warm up the most, because the water that
drains from streets and roofs is heated by the sun before it reaches them, and because there is
little shade along the banks.</p>
<div class="footer">Copyright \u00a9 2025 River News. <a href="/privacy">Privacy</a></div>
</body></html>
"""


def test_text_is_kept_blocks_separated_by_blank_lines():
    result = extract(ARTICLE)
    kept = [b.text for b in result.blocks if b.label is Label.GOOD]
    assert kept[0] == "Rivers are getting warmer"
    assert len(kept) == 3
    assert result.text == "\n\n".join(kept)
    assert "Home" not in result.text and "Copyright" not in result.text


def test_blocks_in_document_order_with_features():
    result = extract(ARTICLE)
    assert [b.text[:6] for b in result.blocks] == [
        "Home",
        "News",
        "Rivers",
        "Scient",
        "They f",
        "Copyri",
    ]
    heading = result.blocks[2]
    assert heading.heading and heading.cf_label is Label.SHORT and heading.label is Label.GOOD
    menu = result.blocks[0]
    assert menu.link_density == 1.0 and menu.cf_label is Label.BAD
    body = result.blocks[3]
    assert body.length == len(body.text) and body.words == len(body.text.split())
    assert 0.3 < body.stopword_density < 0.7
    assert result.title == "A test page"


def test_to_dict_is_json_safe_and_picklable():
    data = extract(ARTICLE, url="https://example.com/rivers").to_dict()
    assert json.loads(json.dumps(data)) == data
    assert pickle.loads(pickle.dumps(data)) == data
    assert set(data) == {"text", "language", "stoplist", "pipeline", "blocks"}
    assert (data["language"], data["stoplist"]) == ("en", "English")
    assert data["pipeline"] == Options().pipeline
    block = data["blocks"][2]
    assert block["label"] == "good" and block["cf_label"] == "short" and block["heading"] is True
    assert block["xpath"] == "/html/body/h1"
    assert {"length", "link_density", "stopword_density", "words", "text"} <= set(block)


def test_bytes_and_str_give_the_same_result():
    assert extract(ARTICLE.encode("utf-8")).text == extract(ARTICLE).text


def test_empty_and_blank_pages_have_no_blocks():
    for html in (
        "",
        "   \n\t",
        b"",
        b"<html></html>",
        "<html><head><title>x</title></head></html>",
    ):
        result = extract(html)
        assert result.blocks == [] and result.text == ""


def test_unknown_option_suggests_the_right_one():
    with pytest.raises(InvalidOptionError, match="did you mean 'length_low'"):
        extract(ARTICLE, lenght_low=10)


@pytest.mark.parametrize("name", ["markdown", "metadata", "text", "blocks"])
def test_asking_for_a_part_of_the_result_says_where_it_is(name):
    with pytest.raises(InvalidOptionError) as info:
        extract(ARTICLE, **{name: True})
    assert str(info.value).startswith(
        f"{name}: extract() has no option {name!r}; the result has it: result.{name} (options: "
    )
    assert "did you mean" not in str(info.value)
    assert hasattr(extract(ARTICLE), name)


def test_justext_options_change_its_result():
    justext = extract(ARTICLE, pipeline="justext").text
    assert extract(ARTICLE, pipeline="justext", length_high=10_000).text != justext
    no_headings = extract(ARTICLE, pipeline="justext", no_headings=True)
    assert "Rivers are getting warmer" not in no_headings.text


def test_wrong_input_type_is_our_error():
    with pytest.raises(InvalidInputError):
        extract(None)
    with pytest.raises(DeclutterError):
        extract(12)


def test_a_ready_options_object_can_be_passed():
    options = Options(length_high=10_000)
    assert extract(ARTICLE, options=options).text == extract(ARTICLE, length_high=10_000).text
    with pytest.raises(InvalidOptionError):
        extract(ARTICLE, options=options, length_low=10)
