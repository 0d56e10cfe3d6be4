"""The end of an article: the teaser cards after it are not this article.

Each page is scored by hand (every block well above the threshold, as the
model scores teasers inside an article's element) so that only the rule
decides; the article gate's probability is set as the gate would give it."""

from scrapy_declutter import extract
from scrapy_declutter.core.document import Document
from scrapy_declutter.extraction.explain import explain
from scrapy_declutter.stages.rules.article_end import TEASERS, EndArticle, teasers_after_article
from scrapy_declutter.stages.rules.region import CONTENT_REGION
from tests.factory import STORY, hand_scored, reasons

PARAGRAPHS = STORY
ARTICLE = "".join(f"<p>{text}</p>" for text in PARAGRAPHS)
CARDS = [
    ("Harbour reopens after the storm", "Boats are back on the water after a week."),
    ("Council approves the new budget", "The vote was closer than expected."),
    ("School opens its new library", "Pupils moved in on Monday morning."),
]


def card(headline: str, summary: str) -> str:
    return f'<div><h3><a href="/{len(headline)}">{headline}</a></h3><p>{summary}</p></div>'


def decided(html: str, article_probability: float) -> Document:
    return hand_scored(html, article_probability, EndArticle())


def test_teaser_cards_after_an_article_are_removed():
    cards = "".join(card(*c) for c in CARDS)
    document = decided(f"<html><body><article>{ARTICLE}{cards}</article></body></html>", 0.9)
    by_text = reasons(document)
    assert [by_text[text] for text in PARAGRAPHS] == [CONTENT_REGION] * 3
    for headline, summary in CARDS:
        assert by_text[headline] == TEASERS and by_text[summary] == TEASERS
    assert document.blocks[-1].label is not None and not document.blocks[-1].is_good


def test_a_related_coverage_list_goes_with_its_heading():
    items = "".join(f'<li><a href="/{i}">{h}</a><p>{s}</p></li>' for i, (h, s) in enumerate(CARDS))
    page = (
        f"<html><body><article>{ARTICLE}<h2>Related coverage</h2><ul>{items}</ul>"
        "</article></body></html>"
    )
    by_text = reasons(decided(page, 0.9))
    assert by_text["Related coverage"] == TEASERS
    assert {by_text[h] for h, _ in CARDS} == {TEASERS}
    assert by_text[PARAGRAPHS[-1]] == CONTENT_REGION


def test_two_cards_are_not_a_run():
    cards = "".join(card(*c) for c in CARDS[:2])
    page = f"<html><body><article>{ARTICLE}{cards}</article></body></html>"
    assert TEASERS not in reasons(decided(page, 0.9)).values()


def test_a_list_of_links_without_their_lines_is_not_a_run_of_cards():
    # "Related: ..." as bare links: some corpora's annotators call it the article's
    links = "".join(f'<li><a href="/{i}">{h}</a></li>' for i, (h, _) in enumerate(CARDS))
    page = f"<html><body><article>{ARTICLE}<p>Related:</p><ul>{links}</ul></article></body></html>"
    assert TEASERS not in reasons(decided(page, 0.9)).values()


def test_a_listing_keeps_its_cards():
    cards = "".join(card(*c) for c in CARDS * 2)
    page = f"<html><body><h1>Latest news</h1><main>{cards}</main></body></html>"
    # taken for an article or not, no article's prose comes before the cards
    for probability in (0.9, 0.2):
        assert TEASERS not in reasons(decided(page, probability)).values()
    # after an introduction, on a page the gate does not take for an article
    page = f"<html><body><main>{ARTICLE}{cards}</main></body></html>"
    assert TEASERS not in reasons(decided(page, 0.2)).values()


def test_a_forum_thread_keeps_its_posts():
    posts = "".join(
        f'<div class="post"><a href="/u/{name}">{name}</a><p>{text}</p></div>'
        for name, text in (
            ("marta", "Same here, the update broke my printer too."),
            ("jo_k", "Did you try the old driver? It worked for me."),
            ("marta", "Yes, that fixed it, thanks a lot."),
            ("pete", "Good to know, I will wait for the next release."),
        )
    )
    page = f"<html><body><main>{ARTICLE}{posts}</main></body></html>"
    assert TEASERS not in reasons(decided(page, 0.9)).values()


def test_teasers_need_the_article_prose_before_them():
    # words, link densities, kept: a headline, its line, three times, with no
    # kept prose before: nothing; after a paragraph of 40 words: the run
    cards = [(5, 1.0, True), (8, 0.0, True)] * 3
    words, densities, kept = map(list, zip(*cards))
    assert teasers_after_article(words, densities, kept) == []
    words, densities, kept = [40, *words], [0.0, *densities], [True, *kept]
    assert teasers_after_article(words, densities, kept) == [1, 2, 3, 4, 5, 6]
    # a block the region removed stays removed, and is not named again
    kept[2] = False
    assert teasers_after_article(words, densities, kept) == [1, 3, 4, 5, 6]


def test_explain_names_the_rule_extract_applies():
    more = "".join(f"<p>{text.replace('bridge', 'harbour')}</p>" for text in PARAGRAPHS)
    cards = "".join(card(*c) for c in CARDS)
    page = (
        "<html><head><title>Bridge story</title></head><body>"
        "<nav><a href='/'>Home</a> <a href='/news'>News</a></nav>"
        f"<article><h1>Bridge story</h1>{ARTICLE}{more}<h2>More from the town</h2>{cards}"
        "</article><footer>About us</footer></body></html>"
    )
    blocks = extract(page).blocks
    assert {b.text: b.reason for b in blocks}["More from the town"] == TEASERS
    assert [e.reason for e in explain(page)] == [b.reason for b in blocks]
