"""A page's controls under an article (a share bar, "Caption Close") are not prose.

Each page is scored by hand (every block well above the threshold, as the
model scores a share bar inside an article's element) so that only the rule
decides; the article gate's probability is set as the gate would give it."""

from scrapy_declutter.core.document import Document
from scrapy_declutter.stages.rules.interface_labels import (
    INTERFACE_LABEL,
    KeepOutInterfaceLabels,
    is_interface_label,
)
from scrapy_declutter.stages.rules.region import CONTENT_REGION
from tests.factory import STORY, hand_scored, reasons

PARAGRAPHS = STORY
ARTICLE = "".join(f"<p>{text}</p>" for text in PARAGRAPHS)
SHARE_BARS = [
    "Sharing is caring! 0shares Reddit",
    "Share Tweet Email",
    "Facebook Twitter Pinterest WhatsApp",
]


def decided(html: str, article_probability: float) -> Document:
    return hand_scored(html, article_probability, KeepOutInterfaceLabels())


def share_bar(text: str) -> str:
    # Buttons, not links: a bar of short links is already out (the link rule).
    buttons = "".join(f"<span>{word}</span> " for word in text.split())
    return f'<div class="share">{buttons}</div>'


def test_share_bars_under_an_article_are_removed():
    bars = "".join(share_bar(text) for text in SHARE_BARS)
    document = decided(f"<html><body><article>{ARTICLE}{bars}</article></body></html>", 0.9)
    by_text = reasons(document)
    assert [by_text[text] for text in PARAGRAPHS] == [CONTENT_REGION] * 3
    assert [by_text[text] for text in SHARE_BARS] == [INTERFACE_LABEL] * 3
    assert not document.blocks[-1].is_good


def test_a_captions_controls_are_removed():
    page = (
        f"<html><body><article>{ARTICLE}<figure><img src='a.jpg'>"
        "<figcaption>The old crossing in 1950.</figcaption><div>Caption Close</div>"
        "</figure></article></body></html>"
    )
    by_text = reasons(decided(page, 0.9))
    assert by_text["Caption Close"] == INTERFACE_LABEL
    assert by_text["The old crossing in 1950."] == CONTENT_REGION


def test_prose_and_headings_that_name_a_network_or_sharing_stay():
    sentence = "The council posted the decision on Facebook and Twitter on Wednesday."
    page = (
        f"<html><body><article>{ARTICLE}<p>{sentence}</p><h2>Share your story</h2>"
        f"<p>{PARAGRAPHS[0]} Again.</p><h3>Instagram and Facebook</h3>"
        f"<p>{PARAGRAPHS[1]} Again.</p></article></body></html>"
    )
    by_text = reasons(decided(page, 0.9))
    assert by_text["Instagram and Facebook"] == CONTENT_REGION
    assert by_text[sentence] == CONTENT_REGION
    assert by_text["Share your story"] == CONTENT_REGION


def test_a_contact_pages_social_links_stay():
    # The gate does not take a contact page for an article: its list is its content.
    links = "".join(f"<li>{name}</li>" for name in ("Facebook", "Twitter", "Instagram", "LinkedIn"))
    page = (
        "<html><body><h1>Contact the town council</h1><p>Write to us at the town hall, "
        "call us on weekdays from nine to five, or find us on the networks below.</p>"
        f"<ul>{links}</ul></body></html>"
    )
    document = decided(page, 0.2)
    by_text = reasons(document)
    for name in ("Facebook", "Twitter", "LinkedIn"):
        assert by_text[name] == CONTENT_REGION


def test_the_words_decide():
    assert is_interface_label("Follow us on Twitter")
    assert is_interface_label("1.2K shares")
    assert not is_interface_label("Share your story")
    assert not is_interface_label("We are on Facebook since 2009.")
    # Beside fewer than three controls' words, no other word is allowed.
    assert not is_interface_label("Share with friends")
    # A size, a price and a heading that names networks are no controls.
    assert not is_interface_label("1920 x 1080")
    assert not is_interface_label("$429.99 $1,799 Save $1,369.01")
    assert is_interface_label("Instagram and Facebook")
    assert not is_interface_label("Instagram and Facebook", heading=True)
    assert is_interface_label("Share this:", heading=True)


def test_an_ad_slots_label_is_a_control_and_a_sentence_about_ads_is_not():
    for label in ("Advertisement", "ADVERTISEMENT", "Sponsored", "Toggle caption"):
        assert is_interface_label(label), label
    assert is_interface_label("Autoplay: On | Off")
    assert not is_interface_label("Advertising revenue fell")
    assert not is_interface_label("The advertisement ran on Sunday.")


def test_an_advertisement_label_between_the_paragraphs_goes():
    page = (
        f"<html><body><article><p>{PARAGRAPHS[0]}</p><div>Advertisement</div>"
        f"<p>{PARAGRAPHS[1]}</p></article></body></html>"
    )
    by_text = reasons(decided(page, 0.9))
    assert by_text["Advertisement"] == INTERFACE_LABEL
    assert [by_text[text] for text in PARAGRAPHS[:2]] == [CONTENT_REGION] * 2
