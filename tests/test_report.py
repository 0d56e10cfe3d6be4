"""The HTML report: why each block was kept or removed, and the page with its blocks outlined."""

import dataclasses
import re

import lxml.html
import pytest
from lxml import etree

from scrapy_declutter import PageLimitError, extract, pipeline_names
from scrapy_declutter.core.blocks import Block, segment
from scrapy_declutter.core.document import BlockTree
from scrapy_declutter.core.labels import BAD, GOOD
from scrapy_declutter.core.options import Options
from scrapy_declutter.core.reasons import Reason
from scrapy_declutter.extraction.extract import ExtractionResult
from scrapy_declutter.outputs import report as report_module
from scrapy_declutter.outputs.highlight import highlighted_page
from scrapy_declutter.outputs.report import (
    FOLD_RUN,
    context_free_class,
    render_report,
    size_limit,
)
from scrapy_declutter.stages.article_gate import Mix
from scrapy_declutter.stages.evidence import PageEvidence, title_test
from scrapy_declutter.stages.rules.best_guess import BEST_GUESS
from scrapy_declutter.stages.rules.fallback import FALLBACK
from scrapy_declutter.stages.rules.guard import BOILERPLATE_GUARD
from scrapy_declutter.stages.rules.hard_rules import COPYRIGHT
from scrapy_declutter.stages.rules.headline import HEADLINE, HEADLINE_OVERLAP
from scrapy_declutter.stages.rules.region import CONTENT_REGION, OUTSIDE_REGION
from scrapy_declutter.stages.rules.short_links import SHORT_LINK
from scrapy_declutter.stages.rules.threshold import BELOW_THRESHOLD
from scrapy_declutter.stages.tables import DataTables
from tests import factory, hostile
from tests.site import ARTICLE_DE, ARTICLE_EN, ARTICLE_EN_SENTENCE, BOILERPLATE

OUTLINED = "//*[contains(@class, 'declutter-kept') or contains(@class, 'declutter-removed')]"
DEEP = lxml.html.HTMLParser(huge_tree=True)  # reads back pages nested deeper than 256
HOSTILE = f"""<html><head><base href="http://evil.example/">
<link rel="stylesheet" href="http://evil.example/a.css">
<script src="http://evil.example/x.js"></script><script>document.write("x")</script>
<meta http-equiv="refresh" content="0;url=http://evil.example/">
<style>@import url(http://evil.example/b.css);
body {{ background: url('http://evil.example/bg.png') }}</style>
</head><body onload="fetch('http://evil.example/')">
<p style="background-image: url(//evil.example/p.png)">{ARTICLE_EN_SENTENCE} will open next
spring, two years later than planned, after the builders had to replace the foundations.</p>
<img src="http://evil.example/i.png" srcset="http://evil.example/i2.png 2x" alt="a picture">
<iframe src="http://evil.example/frame"></iframe><object data="http://evil.example/o"></object>
<a href="javascript:alert(1)" onclick="alert(2)">a link</a>
<svg><image href="http://evil.example/s.png"></image></svg>
<video poster="http://evil.example/v.png"></video>
<form action="http://evil.example/post"><input type="image" src="http://evil.example/b.png"></form>
</body></html>"""


def report_of(html, **options):
    result = extract(html, **options)
    return result, lxml.html.fromstring(render_report(result, Options(**options)), parser=DEEP)


def page_view(report):
    """The page view: the sandboxed iframe's document."""
    (frame,) = report.xpath("//iframe[@srcdoc]")
    assert frame.get("sandbox") == ""  # no scripts, no forms, no navigation
    return lxml.html.fromstring(frame.get("srcdoc"), parser=DEEP)


@pytest.mark.parametrize("pipeline", sorted(pipeline_names()))
def test_every_stage_records_the_rule_that_decided_each_block(pipeline):
    for html in (ARTICLE_EN, ARTICLE_DE):
        blocks = extract(html, pipeline=pipeline).blocks
        assert blocks
        assert all(isinstance(b.reason, Reason) and b.reason.explain() for b in blocks)


def test_each_block_shows_its_verdict_and_reason():
    result, report = report_of(ARTICLE_EN)
    shown = report.xpath("//div[contains(@class, 'block ')]")
    assert len(shown) == len(result.blocks)
    for block, element in zip(result.blocks, shown):
        verdict = "kept" if block.is_good else "removed"
        assert verdict in element.get("class").split()
        assert element.xpath("string(.//*[@class='reason'])") == block.reason
        assert element.xpath("string(.//*[@class='text'])") == block.text


def test_the_threshold_and_the_legend_name_the_options_used():
    result, report = report_of(ARTICLE_EN, content_threshold=0.61)
    assert "0.61" in report.xpath("string(//*[@class='threshold'])")
    legend = report.get_element_by_id("legend").getnext()
    terms = [dt.text_content() for dt in legend.iter("dt")]
    assert sorted(terms) == sorted({block.reason.name for block in result.blocks if block.reason})
    assert all(dd.text_content() for dd in legend.iter("dd"))
    assert "0.61" in legend.text_content()  # the content region's explanation


def test_runs_of_removed_blocks_fold_away_and_kept_blocks_never_do():
    result, report = report_of(ARTICLE_EN)
    labels = "".join("k" if b.is_good else "r" for b in result.blocks)
    long_runs = [len(run) for run in re.findall("r+", labels) if len(run) >= FOLD_RUN]
    assert long_runs  # the page has a menu and a footer to fold
    folds = report.xpath("//details[@class='fold']")
    assert [len(fold.xpath(".//div[contains(@class, 'block ')]")) for fold in folds] == long_runs
    assert report.xpath("//details//div[contains(@class, 'block kept')]") == []
    for fold in folds:
        assert fold.find("summary").text_content().startswith(f"{len(fold) - 1} removed blocks")


def test_exactly_fold_run_removed_blocks_fold_and_one_fewer_do_not():
    labels = [GOOD, *[BAD] * (FOLD_RUN - 1), GOOD, *[BAD] * FOLD_RUN, GOOD]
    page = lxml.html.fromstring("<html><body>" + "<p>x</p>" * len(labels) + "</body></html>")
    blocks = [
        Block(f"block {i}", element, label=label, reason=CONTENT_REGION)
        for i, (element, label) in enumerate(zip(page.iter("p"), labels))
    ]
    report = lxml.html.fromstring(render_report(ExtractionResult(blocks, "English", "declutter")))
    (fold,) = report.xpath("//details[@class='fold']")
    folded = fold.xpath(".//*[@class='text']/text()")
    assert folded == [f"block {i}" for i in range(FOLD_RUN + 1, 2 * FOLD_RUN + 1)]


def test_the_page_view_outlines_kept_and_removed_blocks_with_the_reason_on_hover():
    result, report = report_of(ARTICLE_EN)
    page = page_view(report)
    kept = page.xpath("//*[contains(@class, 'declutter-kept')]")
    removed = page.xpath("//*[contains(@class, 'declutter-removed')]")
    assert any(ARTICLE_EN_SENTENCE in element.text_content() for element in kept)
    for boilerplate in BOILERPLATE:
        assert any(boilerplate in element.text_content() for element in removed), boilerplate
        assert not any(boilerplate in element.text_content() for element in kept), boilerplate
    assert all(re.match(r"block \d+ (kept|removed): ", e.get("title")) for e in kept + removed)
    reasons = {block.reason.name for block in result.blocks if block.reason}
    assert all(any(reason in e.get("title") for reason in reasons) for e in kept + removed)


def test_the_page_view_runs_nothing_and_fetches_nothing():
    _, report = report_of(HOSTILE)
    page = page_view(report)
    source = lxml.html.tostring(page, encoding="unicode")
    assert "evil.example" not in source and "javascript:" not in source
    assert page.xpath("//script | //iframe | //object | //embed | //base | //link") == []
    assert [a for e in page.iter() for a in e.attrib if a.startswith("on")] == []
    policy = page.xpath("//meta[@http-equiv='Content-Security-Policy']/@content")
    assert policy and "default-src 'none'" in policy[0]
    assert ARTICLE_EN_SENTENCE in page.text_content()  # the page is still there
    # the report around it loads nothing either
    assert "default-src 'none'" in report.xpath("//meta[@http-equiv]/@content")[0]
    assert report.xpath("//script") == []


def test_text_around_nested_blocks_is_outlined_as_its_own_block():
    html = (
        "<html><body><div>Menu: <a href='/'>Home</a>, News<p>"
        + ARTICLE_EN_SENTENCE * 3
        + "</p>After the article: <b>share it</b> with your friends</div></body></html>"
    )
    result, report = report_of(html, pipeline="justext")
    outlined = page_view(report).xpath(OUTLINED)
    expected = {
        b.text: "declutter-kept" if b.is_good else "declutter-removed" for b in result.blocks
    }
    assert len(expected) == 3
    shown = {" ".join(e.text_content().split()): e.get("class") for e in outlined}
    assert shown == expected


def test_text_of_an_inline_element_around_blocks_is_outlined_with_its_block():
    html = (
        "<html><body><div>Formats: <a href='/k'><span>Kindle edition</span><div><p>"
        + ARTICLE_EN_SENTENCE * 3
        + "</p></div></a> and paperback</div></body></html>"
    )
    result, report = report_of(html, pipeline="justext")
    page = page_view(report)
    (outer,) = [b for b in result.blocks if "Kindle edition" in b.text]
    (span,) = page.xpath("//span[not(@title)][. = 'Kindle edition']")
    outlined = span.xpath("ancestor::*[contains(@class, 'declutter-')][1]")
    verdict = "kept" if outer.is_good else "removed"
    assert outlined and outlined[0].get("title").startswith(f"block 0 {verdict}: ")


def test_a_page_nested_deeper_than_pythons_recursion_limit_is_shown():
    depth = 5000
    html = "<html><body>" + "<div><span>" * depth + ARTICLE_EN_SENTENCE + "</span></div>" * depth
    _, report = report_of(html + "</body></html>")
    page = page_view(report)
    outlined = page.xpath(OUTLINED)
    assert [" ".join(e.text_content().split()) for e in outlined] == [ARTICLE_EN_SENTENCE]


def test_a_page_without_blocks_gets_a_report_without_a_page_view():
    _, report = report_of("<html><body></body></html>")
    assert report.xpath("//iframe") == []
    assert report.get_element_by_id("blocks") is not None


@pytest.mark.parametrize("html", [ARTICLE_EN, ARTICLE_DE, HOSTILE])
@pytest.mark.parametrize("language", ["auto", None])
def test_the_context_free_explanation_agrees_with_the_stage(html, language):
    result = extract(html, pipeline="justext", language=language)
    options = Options(language=language)
    explained = [context_free_class(b, options, result.stoplist is None)[0] for b in result.blocks]
    assert explained == [b.cf_label for b in result.blocks]


TREE = BlockTree(
    parents=[-1, 0, 1, 1, 0], block_nodes=[2, 2, 3, 4, 4]
)  # body, main, s1, s2, footer


def decide_on_tree(
    scores: list[float],
    block_scores: list[float] | None = None,
    short_links: list[bool] | None = None,
    ruled_out: list[str | None] | None = None,
    fallback: list[bool] | None = None,
    repeats_title: list[bool] | None = None,
) -> list[str]:
    """The decision's rules to the headline at threshold 0.5 on ``TREE``'s
    five blocks: three long ones, then two short; no short links, no hard
    rule, a fallback that keeps nothing and no headline unless given (the
    blocks that repeat the title: of an article)."""
    texts = [
        TITLE if repeats else f"block {i}" for i, repeats in enumerate(repeats_title or [0] * 5)
    ]
    blocks = [factory.block(text=text) for text in texts]
    for block, score, block_score in zip(blocks, scores, block_scores or [0.8] * 5):
        block.score, block.block_score = score, block_score
    document = factory.document(*blocks, title=TITLE)
    evidence = PageEvidence.given(
        document,
        tree=TREE,
        lengths=[300, 300, 300, 20, 20],
        short_links=short_links or [False] * 5,
        verdicts=ruled_out or [None] * 5,
        fallback=fallback or [False] * 5,
        tables=DataTables.none(5),
        prose=[False] * 5,
        navigation=[False] * 5,
    )
    evidence.article_probability = 0.9 if repeats_title else None
    factory.keep_content_region(document, 0.5)
    return [block.reason for block in document.blocks]


TITLE = "Storm closes the harbour"


def test_the_content_stage_names_the_rule_that_removed_each_block():
    decided = decide_on_tree(
        scores=[0.9, 0.2, 0.9, 0.8, 0.9],
        block_scores=[0.8, 0.8, 0.1, 0.8, 0.8],
        short_links=[False, False, False, True, False],
        fallback=[True] * 5,
    )
    assert decided == [
        CONTENT_REGION,
        BELOW_THRESHOLD,
        BOILERPLATE_GUARD,
        SHORT_LINK,
        OUTSIDE_REGION,
    ]


def test_when_the_content_stage_keeps_nothing_the_fallback_s_blocks_are_kept():
    decided = decide_on_tree(
        [0.1] * 5,
        block_scores=[0.1] * 5,
        ruled_out=[None, "copyright", None, None, None],
        fallback=[True, True, False, True, True],
    )
    assert decided == [FALLBACK, COPYRIGHT, BELOW_THRESHOLD, FALLBACK, FALLBACK]


def test_when_nothing_is_kept_the_page_s_best_blocks_are():
    # the best score is 0.38: the region is found again for a threshold of
    # 0.36, and it is the first section's (its two blocks sum (0.35 - 0.28) *
    # 300 + (0.38 - 0.28) * 300 = 51, the footer's 0.2); the footer's 0.37
    # stays out
    decided = decide_on_tree([0.35, 0.38, 0.1, 0.37, 0.2])
    assert decided == [
        BELOW_THRESHOLD,
        BEST_GUESS,
        BELOW_THRESHOLD,
        OUTSIDE_REGION,
        BELOW_THRESHOLD,
    ]


def test_a_page_of_sure_boilerplate_stays_empty():
    decided = decide_on_tree([0.15, 0.2, 0.1, 0.05, 0.2])
    assert decided == [BELOW_THRESHOLD] * 5


def test_the_headline_above_the_content_is_kept():
    # the region is <main>; the first block, the headline, scores under the threshold
    kept_after = [CONTENT_REGION, CONTENT_REGION, BELOW_THRESHOLD, BELOW_THRESHOLD]
    headline = [True, False, False, False, False]
    scores = [0.4, 0.9, 0.9, 0.1, 0.1]
    assert decide_on_tree(scores, repeats_title=headline) == [HEADLINE, *kept_after]
    # a candidate scoring 0.3 or less stays out
    low = decide_on_tree([0.25, 0.9, 0.9, 0.1, 0.1], repeats_title=headline)
    assert low == [BELOW_THRESHOLD, *kept_after]
    # so does one when a kept block already repeats the title
    twice = decide_on_tree(scores, repeats_title=[True, True, False, False, False])
    assert twice == [BELOW_THRESHOLD, *kept_after]


def test_a_block_repeats_the_title_of_an_article():
    texts = [
        "Storm closes the harbour",
        "Home",
        "Storm",
        "The storm closed the harbour on Monday, and ships waited outside for two days.",
        "Example News: storm closes the harbour",
        "Storm closes the harbour " * 4,
    ]
    title = "Storm closes the harbour | Example News"
    repeats_title = title_test(texts, title, HEADLINE_OVERLAP)
    assert repeats_title is not None
    assert [repeats_title(i) for i in range(6)] == [True, False, False, False, True, False]
    assert title_test(texts, None, HEADLINE_OVERLAP) is None


def test_a_block_without_a_recorded_reason_is_reported_as_such():
    block = Block("An orphan block of text.", lxml.html.fromstring("<p>x</p>"))
    result = ExtractionResult([block], "English", "justext")
    report = lxml.html.fromstring(render_report(result))
    assert report.xpath("string(//*[@class='reason'])") == "no rule recorded"


def test_every_block_of_real_pages_is_outlined_in_the_page_view(corpus_path):
    from benchmarks.corpus import load_pages

    for page in load_pages(corpus_path, sample=20, seed=3):
        result = extract(page.html)
        titles = [f"#{i}" for i in range(len(result.blocks))]
        marked = highlighted_page(result.blocks, titles, result.all_buttons)
        shown = lxml.html.fromstring(marked, parser=DEEP).xpath(OUTLINED) if marked else []
        indexes = {int(element.get("title")[1:]) for element in shown}
        assert sorted(indexes) == list(range(len(result.blocks))), page.file_id
        report = render_report(result)  # far under its size limit: nothing left out
        assert 'class="cut"' not in report and "page view is left out" not in report


@dataclasses.dataclass
class Contributions:
    features: tuple[tuple[str, float], ...]
    context: tuple[tuple[str, float], ...]
    mix: Mix = dataclasses.field(default_factory=lambda: Mix(0.62, 0.25, 1.08, -0.3))


def test_what_weighed_most_is_shown_per_block_when_given():
    result = extract(ARTICLE_EN)
    weighed = [
        Contributions(((f"tok:block{i}", -1.5), ("ld", 0.25)), (("mean2", 0.75),))
        for i in range(len(result.blocks))
    ]
    report = lxml.html.fromstring(render_report(result, weighed=weighed), parser=DEEP)
    for i, element in enumerate(report.xpath("//div[contains(@class, 'block ')]")):
        evidence = element.find_class("evidence")[0].text_content()
        assert f"tok:block{i} -1.50, ld +0.25 · in context: mean2 +0.75" in evidence
    assert "weighed most" in report.get_element_by_id("legend").getnext().text_content()
    text = " ".join(report.text_content().split())
    assert "as an article with probability 0.62" in text
    assert "0.25 times the general model's plus 1.08 times the article model's, plus -0.30." in text
    _, plain = report_of(ARTICLE_EN)
    assert "article gate" not in plain.text_content()
    assert "weighed most" not in plain.text_content()


def test_characters_xml_forbids_are_dropped_from_the_page_view():
    # (the outlined <div>'s title is its block's)
    html = '<div>&#1;The <b title="a&#1;b">river</b> &#xfffe;was warm\x0c this summer</div>'
    result = extract(html)
    page = page_view(lxml.html.fromstring(render_report(result)))
    assert "The river was warm this summer" in " ".join(page.text_content().split())
    assert page.xpath("//b/@title") == ["ab"]


def test_each_run_is_outlined_as_the_block_it_is_in_whatever_its_text():
    # a tree parsed without parse.py keeps U+FFFF, which the page view drops:
    # no run's text is its block's, and a search of the text found none of them
    runs = ["one {i} \uffff", "Reply", "two {i}\uffff words"]
    body = (
        f"<p>{'<br>'.join(runs[0].format(i=i) for i in range(3))}</p>"
        "<div>Reply</div><div>Reply</div>"
        f"<p><b>{'<br>'.join(runs[2].format(i=i) for i in range(3))}</b></p>"
    )
    root = etree.fromstring(f"<html><body>{body}</body></html>", etree.HTMLParser())
    blocks = segment(root)
    assert [block.text[:3] for block in blocks] == ["one", "Rep", "Rep", "two"]
    for block in blocks:
        block.label = GOOD
    marked = lxml.html.fromstring(highlighted_page(blocks, [f"#{i}" for i in range(4)]))
    shown = [(" ".join(e.text_content().split()), e.get("title")) for e in marked.xpath(OUTLINED)]
    assert shown == [
        *((f"one {i}", "#0") for i in range(3)),
        ("Reply", "#1"),
        ("Reply", "#2"),
        *((f"two {i} words", "#3") for i in range(3)),
    ]


def test_a_page_all_in_buttons_is_outlined():
    # libxml2 nests the rest of the page in the unclosed buttons: every button walked
    html = "<button><div>" * 10 + f"<p>{ARTICLE_EN_SENTENCE}</p><p>More of the story.</p>"
    result, report = report_of(html)
    assert result.all_buttons
    outlined = page_view(report).xpath(OUTLINED)
    assert [" ".join(e.text_content().split()) for e in outlined] == [
        block.text for block in result.blocks
    ]


def test_the_report_stays_within_its_size_limit(monkeypatch):
    # a limit small enough for a small page to reach it: 40,000 characters
    # plus 10 a page character
    monkeypatch.setattr(report_module, "SIZE_LIMIT_BASE", 40_000)
    html = "<html><body>" + "<h1>x</h1><p>y</p>" * 1000 + "</body></html>"
    result = extract(html)
    text = render_report(result)
    page_chars = len(lxml.html.tostring(result.blocks[0].element.getroottree().getroot()))
    assert len(text) <= 40_000 + 10 * page_chars == size_limit(result)
    report = lxml.html.fromstring(text)
    assert report.xpath("//iframe") == []  # the page view would take over half
    assert "The page view is left out" in report.text_content()
    listed = [
        int(i.text) for i in report.xpath("//div[contains(@class, 'block ')]//*[@class='index']")
    ]
    assert 0 < len(listed) < len(result.blocks)
    assert listed == list(range(len(listed)))  # the first blocks, in order
    (cut,) = report.xpath("//p[@class='cut']")
    assert f"from block {len(listed)} on ({len(result.blocks) - len(listed):,} blocks)" in (
        cut.text_content()
    )
    counted = report.xpath("//table[@class='counts']//td[3]/text()")
    assert sum(map(int, counted)) == len(result.blocks) == 2000


def test_a_page_s_report_is_not_cut_under_the_limit():
    result = extract(ARTICLE_EN)
    report = lxml.html.fromstring(render_report(result))
    assert report.xpath("//p[@class='cut']") == []
    assert len(report.xpath("//div[contains(@class, 'block ')]")) == len(result.blocks)


@pytest.mark.slow
@pytest.mark.parametrize("family", list(hostile.FAMILIES))
def test_every_hostile_family_gets_its_report_within_its_size_limit(family):
    try:
        result = extract(hostile.FAMILIES[family](20_000))
    except PageLimitError:
        return  # refused before parsing: no report (test_page_limits.py)
    text = hostile.within(60, render_report, result)
    assert len(text) <= size_limit(result)
    lxml.html.fromstring(text, parser=DEEP)
