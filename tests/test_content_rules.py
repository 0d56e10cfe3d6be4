"""The default pipeline on small pages: jusText's hard rules hold whatever
the model's scores, and a page with content is never handed back empty."""

from scrapy_declutter import extract
from scrapy_declutter.extraction.explain import explain
from scrapy_declutter.stages.rules.fallback import FALLBACK
from scrapy_declutter.stages.rules.hard_rules import COPYRIGHT, HIDDEN
from scrapy_declutter.stages.rules.region import CONTENT_REGION
from scrapy_declutter.stages.rules.repeats import REPEATED

PROSE = (
    "This is the first paragraph of a long article, and it is written in English with the "
    "usual function words that are in it. "
) * 3
MENU = "<div><a href='/'>Home</a> <a href='/x'>News</a></div>"


def kept(html: str) -> list[str]:
    return [b.text for b in extract(html).blocks if b.is_good]


def test_a_copyright_line_is_never_content():
    notice = "© 2026 Example Media Group. All rights reserved."
    page = f"<html><body>{MENU}<p>{PROSE}</p><p>{notice}</p></body></html>"
    assert kept(page) == [PROSE.strip()]


def test_a_flat_page_keeps_its_paragraphs():
    second = PROSE.replace("first", "second")
    page = f"<html><body><p>{PROSE}</p><p>{second}</p></body></html>"
    assert kept(page) == [PROSE.strip(), second.strip()]


HIDDEN_TEXTS = (
    "Sign up for our newsletter and get the best of our journalism in your inbox every "
    "morning, with the stories you missed.",
    "This paragraph is hidden from readers until they click the button that shows it, and "
    "it is long enough to be taken for content.",
    "Screen readers and eyes skip this paragraph, which is long enough to be taken for the "
    "content of the article by its words.",
    "A box that is not visible to anyone who reads the page, although its text reads like a "
    "paragraph of the article.",
    "A window that no one sees until a script opens it, with a paragraph as long as the "
    "article's own paragraphs are.",
)
HIDDEN_PAGE = f"""<html lang="en"><body><article><h1>Bridge opens</h1><p>{PROSE}</p>
<p>{PROSE.replace("first", "second")}</p><p>{PROSE.replace("first", "third")}</p>
<div class="newsletter" style="margin: 0; DISPLAY : none"><p>{HIDDEN_TEXTS[0]}</p></div>
<p hidden>{HIDDEN_TEXTS[1]}</p>
<div aria-hidden="true"><p>{HIDDEN_TEXTS[2]}</p></div>
<p style="visibility:hidden">{HIDDEN_TEXTS[3]}</p>
<template><p>{PROSE.replace("first", "templated")}</p></template>
<dialog><p>{HIDDEN_TEXTS[4]}</p></dialog>
<dialog open><p>{PROSE.replace("first", "open dialog's")}</p></dialog>
<p>{PROSE.replace("first", "last")}</p></article></body></html>"""


def test_what_a_browser_does_not_show_is_never_kept():
    result = extract(HIDDEN_PAGE)
    text = result.text
    assert PROSE.strip() in text and PROSE.replace("first", "last").strip() in text
    for hidden in (*HIDDEN_TEXTS, "templated"):
        assert hidden not in text
    # an open dialog is shown: its score decides it, not the rule (the model
    # learnt that most dialogs are a site's modals)
    reasons = {b.text: b.reason for b in result.blocks}
    assert reasons[HIDDEN_TEXTS[4]] == HIDDEN
    assert reasons[PROSE.replace("first", "open dialog's").strip()] != HIDDEN


def test_an_ad_line_above_the_headline_is_dropped_and_the_headline_kept():
    page = (
        "<html lang='en'><head><title>Storm closes the harbour | Example News</title></head><body>"
        f"<div class='ad'><p>Advertisement</p></div><h1>Storm closes the harbour</h1>"
        f"<p>{PROSE}</p><p>{PROSE.replace('first', 'second')}</p></body></html>"
    )
    assert kept(page)[:2] == ["Storm closes the harbour", PROSE.strip()]


def test_one_paragraph_in_a_language_the_model_never_saw_is_kept():
    swahili = (
        "Serikali imetangaza kwamba daraja jipya juu ya mto litafunguliwa mwezi ujao baada ya "
        "miaka miwili ya ujenzi, na wafanyabiashara wa pande zote mbili wanatarajia wateja wengi "
        "zaidi watakapoweza kuvuka kwa urahisi kila siku ya wiki."
    )
    assert kept(f"<html><body><p>{swahili}</p></body></html>") == [swahili]


def test_the_fallback_hands_back_no_footer():
    # the model keeps nothing of a page of menus; jusText's one good block is a footer
    disclaimer = (
        "The information on this site is provided as is, without any warranty of any kind, and "
        "the publisher is not liable for any loss that comes from the use of it in any way."
    )
    page = f"<html><body>{MENU}{MENU}<footer><p>{disclaimer}</p></footer></body></html>"
    assert disclaimer not in extract(page).text


def test_explain_names_the_rule_and_the_features_that_decided():
    page = f"<html><body>{MENU}<p>{PROSE}</p><p>© 2026 Example Media Group.</p></body></html>"
    explained = explain(page, top=3)
    result = extract(page)
    assert [e.kept for e in explained] == [b.is_good for b in result.blocks]
    assert [e.score for e in explained] == [b.score for b in result.blocks]
    assert explained[-1].reason == COPYRIGHT
    assert len(explained[1].features) == 3 and len(explained[1].context) == 3
    sizes = [abs(weight) for _, weight in explained[1].features]
    assert sizes == sorted(sizes, reverse=True)
    assert explain(HIDDEN_PAGE)[4].reason == HIDDEN


def test_explain_reports_the_fallback():
    swahili = (
        "Serikali imetangaza kwamba daraja jipya litafunguliwa mwezi ujao baada ya miaka miwili."
    )
    (only,) = explain(f"<html><body><p>{swahili * 3}</p></body></html>")
    assert only.kept and only.reason in (CONTENT_REGION, FALLBACK)


def test_a_page_hidden_until_its_scripts_run_keeps_its_text():
    # a wrapper hidden against flicker, shown once the page's scripts have run
    page = f"""<html lang="en"><body><div id="app" style="visibility: hidden">
<article><h1>Bridge opens</h1><p>{PROSE}</p><p>{PROSE.replace("first", "last")}</p></article>
</div></body></html>"""
    assert PROSE.strip() in extract(page).text


def test_a_text_kept_twice_is_kept_once():
    headline = "Storm closes the harbour for two days"
    page = (
        f"<html lang='en'><body><article><h2>{headline}</h2><p>{PROSE}</p>"
        f"<h2>{headline}</h2><p>{PROSE.replace('first', 'second')}</p></article></body></html>"
    )
    explained = explain(page)
    assert [e.text for e in explained if e.kept].count(headline) <= 1
    repeats = [e for e in explained if e.text == headline and not e.kept]
    assert all(e.reason == REPEATED for e in repeats)
    assert kept(page).count(headline) <= 1


def test_an_e_acute_encoded_twice_is_no_copyright_sign():
    # "é" in UTF-8 read as Latin-1 is "Ã©": on a page encoded twice every such
    # word would otherwise take its block out with jusText's © rule
    twice = PROSE.replace("long article", "long article about a cafÃ© and a dÃ©tente")
    notice = "© 2026 Example Media Group. All rights reserved."
    page = f"<html><body>{MENU}<p>{PROSE}</p><p>{twice}</p><p>{notice}</p></body></html>"
    assert kept(page) == [PROSE.strip(), twice.strip()]
    assert explain(page)[-1].reason == COPYRIGHT
