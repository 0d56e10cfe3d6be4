"""The content model's features: what it reads off a page's blocks and tree."""

from scrapy_declutter.stages.content_features import (
    EDGE_LOGIT,
    TOKEN_TEXT_CHARS,
    TOKENS,
    WORDS,
    context_features,
    context_shape,
    page_features,
    short_links,
)
from tests.factory import NEWS_PAGE, NEWS_PARAGRAPH, SECTIONS_TREE, justext_document


def test_page_features_describe_markup_and_context():
    document = justext_document(NEWS_PAGE)
    page = page_features(document)
    features = {b.text: page.of_block(i) for i, b in enumerate(document.blocks)}
    home = features["Home"]
    assert home["in:nav"] == 1.0 and home["tok:menu"] == 1.0 and home["ld"] == 1.0
    assert home["in:li"] == 1.0 and home["in:ul"] == 1.0 and home["tok:w:home"] == 1.0
    body = features[NEWS_PARAGRAPH]
    assert body["in:article"] == 1.0 and body["tok:post"] == 1.0 and body["tok:content"] == 1.0
    assert body["jt:good"] == 1.0 and body["endpunct"] == 1.0
    assert body["prev:short"] == 1.0  # the heading before it
    assert "in:nav" not in body and "tok:w:the" not in body
    assert features["Bridge to open in spring"]["title"] == 1.0
    assert features["Related stories"]["endcue"] == 1.0
    assert features["Old crossing closes for good"]["after_end"] == 1.0
    assert "after_end" not in body
    # the footer's paragraph sees its <footer> by tag and by class, nothing of the article
    footer = next(f for text, f in features.items() if "Copyright" in text)
    assert footer["in:footer"] == footer["tok:footer"] == 1.0
    assert "in:article" not in footer and "tok:post" not in footer


def test_aria_roles_and_dialogs_are_features_of_the_blocks_inside():
    document = justext_document(
        "<div role='main'><p>The story of the bridge, told by the people who built it.</p></div>"
        "<div role='Dialog navigation'><p>Sign up for our newsletter.</p></div>"
        "<div aria-modal='true'><p>Before you go: our best stories, weekly.</p></div>"
        "<section role='complementary'><p>Popular this week</p></section>"
        "<dialog><p>We use cookies on this site.</p></dialog>"
        "<div role='presentation'><p>Photo: the bridge at night</p></div>"
    )
    page = page_features(document)
    story, newsletter, before_you_go, popular, cookies, photo = (
        page.of_block(i) for i in range(len(document.blocks))
    )
    assert story["in:role:main"] == 1.0 and "in:role:modal" not in story
    # a list of roles counts its first; aria-modal says a modal window
    assert newsletter["in:role:dialog"] == 1.0 and "in:role:navigation" not in newsletter
    assert before_you_go["in:role:modal"] == 1.0
    assert popular["in:section"] == popular["in:role:complementary"] == 1.0
    assert cookies["in:dialog"] == 1.0
    # a role that says nothing of the content is no feature
    assert not any(name.startswith("in:role:") for name in photo)


def test_items_of_a_repeated_group_are_cards_or_repeats():
    card = "<div class='card'><h3>Dark Roast Coffee</h3><p>$14.99</p></div>"
    entry = "<li class='entry'><a href='/{0}'>Section {0}</a></li>"
    document = justext_document(
        f"<main>{card * 4}</main><nav><ul>{''.join(entry.format(n) for n in range(4))}</ul></nav>"
        f"<aside>{card * 3}</aside>"
    )
    page = page_features(document)
    features = [page.of_block(i) for i in range(len(document.blocks))]
    # four cards of a name and a price; four menu entries of one link each
    assert all(f["in:card"] == 1.0 and "in:repeat" not in f for f in features[:8])
    assert all(f["in:repeat"] == 1.0 and "in:card" not in f for f in features[8:12])
    # three alike are not yet a group
    assert not any("in:card" in f or "in:repeat" in f for f in features[12:])


def test_digit_share_counts_every_script_s_digits():
    # ASCII digits are counted on the page's bytes, other digits by the regex
    for texts, digits in (
        (["Tickets from 12 to 480 euros", "Karten von ١٢ bis ٤٨٠ Euro \u2013 nur heute"], [5, 5]),
        (["Only \u201c3\u201d left \u2013 45 seats", "1 2 3 4"], [3, 4]),
    ):
        document = justext_document("".join(f"<p>{text}</p>" for text in texts))
        page = page_features(document)
        shares = [page.of_block(i)["digits"] for i in range(len(document.blocks))]
        assert shares == [count / len(text) for count, text in zip(digits, texts)]


def test_context_features_see_neighbours_and_ancestors():
    rows = context_features(
        [0.9, 0.8, 0.5, 0.1], SECTIONS_TREE, [100, 100, 100, 200], [0, 0, 0, 1]
    ).rows()
    assert len(rows) == 4 and len({len(r) for r in rows}) == 1
    first, _, third, last = rows
    assert first[0] > 0 > last[0]  # own score, as a logit
    assert first[1] == first[2] == EDGE_LOGIT  # no neighbours before the first block
    assert last[3] == last[4] == EDGE_LOGIT  # none after the last
    # the parents' mean scores: main's for the first three, body's for the last
    assert first[5] == third[5] > last[5]


def test_context_features_from_a_shared_shape_are_the_same():
    # two models score the same page: the score-free part is read once
    lengths, links = [100, 100, 100, 200], [0, 0, 0, 1]
    shape = context_shape(SECTIONS_TREE, lengths, links)
    for scores in ([0.9, 0.8, 0.5, 0.1], [0.2, 0.7, 0.6, 0.95]):
        alone = context_features(scores, SECTIONS_TREE, lengths, links).rows()
        shared = context_features(scores, SECTIONS_TREE, lengths, links, shape).rows()
        assert shared == alone
    assert context_features([0.9, 0.8, 0.5, 0.1], SECTIONS_TREE, lengths, links, shape).rows() != (
        context_features([0.2, 0.7, 0.6, 0.95], SECTIONS_TREE, lengths, links, shape).rows()
    )


def test_short_links_are_few_words_mostly_in_links():
    document = justext_document(NEWS_PAGE)
    short = {
        b.text for b, is_short in zip(document.blocks, short_links(document.blocks)) if is_short
    }
    assert short == {"Home", "News", "Sport"}  # a related link's five words are too many


def test_tokens_are_read_from_a_bounded_prefix_of_a_huge_class_or_short_text():
    # one regex call over megabytes would hold the interpreter (and a crawl's reactor)
    padding = "-" * TOKEN_TEXT_CHARS
    assert "tok:menu" in TOKENS.features(("menu " + padding, None))
    assert "tok:menu" not in TOKENS.features((padding + " menu", None))
    assert WORDS.features(padding + " home") == []
