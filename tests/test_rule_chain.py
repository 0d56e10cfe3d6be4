"""The default's decision is the list of rules in ``presets.rules``: each
switched off by name through ``Options.rules_off``, an unknown name a clear
error."""

import pickle

import pytest

from scrapy_declutter import InvalidOptionError, extract
from scrapy_declutter.core.options import Options
from scrapy_declutter.extraction.presets import RULE_NAMES, build_pipeline, rules
from scrapy_declutter.scrapy_layer.config import Config, InvalidSettingError
from scrapy_declutter.stages.evidence import StartDecision
from tests.factory import NEWS_PAGE

CHAIN = (
    "hard-rules",
    "threshold",
    "short-links",
    "guard",
    "region",
    "data-tables",
    "fallback",
    "best-guess",
    "page-edge",
    "repeats",
    "headline",
    "values",
    "teasers",
    "galleries",
    "captions",
    "doubled-headlines",
    "card-times",
    "dated-entries",
    "embedded-posts",
    "interface-labels",
    "tag-lines",
    "copies",
    "insets",
    "next-stories",
)


def test_the_chain_is_the_rules_listed_in_the_presets():
    assert RULE_NAMES == CHAIN
    stages = build_pipeline(Options()).stages
    start = stages.index(StartDecision())
    assert tuple(s.name for s in stages[start + 1 : start + 1 + len(CHAIN)]) == CHAIN


@pytest.mark.parametrize("name", CHAIN)
def test_a_rule_is_switched_off_by_name(name):
    chain = rules(Options(rules_off=frozenset((name,))))
    assert name not in [rule.name for rule in chain]
    assert len(chain) == len(CHAIN) - 1
    # the best guess runs the region's rules again: those left on
    for rule in chain:
        for again in (*getattr(rule, "again", ()), *getattr(rule, "then", ())):
            assert again.name != name
    assert isinstance(extract(NEWS_PAGE, rules_off=[name]).text, str)


def test_switching_rules_off_changes_what_is_kept():
    full = extract(NEWS_PAGE).text
    assert full and extract(NEWS_PAGE, rules_off=frozenset()).text == full
    # without the rules that keep, a block no rule keeps stays out
    keeping = "region, data-tables, fallback, best-guess, page-edge, headline"
    assert extract(NEWS_PAGE, rules_off=keeping).text == ""


def test_an_unknown_rule_name_is_a_clear_error():
    with pytest.raises(InvalidOptionError, match=r"rules_off.*regoin"):
        extract(NEWS_PAGE, rules_off=["regoin"])
    with pytest.raises(InvalidOptionError, match="rules_off"):
        Options(rules_off=[1, 2])


def test_a_rule_is_switched_off_in_the_settings_too():
    config = Config.from_settings({"DECLUTTER_RULES_OFF": "teasers,headline"})
    assert config.options.rules_off == frozenset(("teasers", "headline"))
    with pytest.raises(InvalidSettingError, match="DECLUTTER_RULES_OFF"):
        Config.from_settings({"DECLUTTER_RULES_OFF": "no-such-rule"})


def test_a_block_s_reason_names_and_explains_the_rule_with_its_figures():
    result = extract(NEWS_PAGE, content_threshold=0.55)
    reasons = {block.reason.name: block.reason for block in result.blocks if block.reason}
    region = reasons["content region"]
    assert region.rule == "region" and "(0.55)" in region.explain()
    assert region == "content region"  # as when the reason was a plain string
    assert pickle.loads(pickle.dumps(region)).explain() == region.explain()
