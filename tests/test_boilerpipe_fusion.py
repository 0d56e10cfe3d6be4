"""BlockProximityFusion, SimpleBlockFusionProcessor and the fusion-group view."""

from scrapy_declutter.stages.boilerpipe import (
    BOILERPIPE_FUSED,
    BlockProximityFusion,
    BoilerplateBlockFilter,
    SimpleBlockFusionProcessor,
    text_blocks,
)
from scrapy_declutter.stages.boilerpipe_classifiers import BOILERPIPE_CLASSIFIER
from tests.factory import BL, L, bp_block, content, document, heads

G, B = L.GOOD, L.BAD


def test_fusion_takes_each_content_block_into_the_block_before_it():
    doc = document(*(bp_block(label=label) for label in (B, G, G, B, B, G)))
    BlockProximityFusion(max_distance=1)(doc)
    # a non-content block followed by content becomes content, as in Boilerpipe
    assert content(doc) == "+++-++"
    assert heads(doc) == [None, 0, 0, None, None, 4]


def test_fused_group_features_are_sums():
    doc = document(bp_block(10, link_words=2, label=G), bp_block(30, label=G))
    BlockProximityFusion()(doc)
    [group] = text_blocks(doc)
    assert (group.words, group.link_words, group.wrapped_lines) == (40, 2, 2)
    assert group.link_density == 2 / 40
    assert group.text_density == 20
    assert (group.first_offset, group.last_offset) == (0, 1)
    assert group.text == "w10\nw30"


def test_fusion_unites_labels():
    doc = document(
        bp_block(labels=BL.TITLE, label=B), bp_block(labels=BL.MIGHT_BE_CONTENT, label=G)
    )
    BlockProximityFusion()(doc)
    assert [b.boilerpipe_labels for b in doc.blocks] == [BL.TITLE | BL.MIGHT_BE_CONTENT] * 2


def test_content_only_fuses_across_one_removed_block_but_not_two():
    doc = document(*(bp_block(label=label) for label in (G, B, G, B, B, G)))
    BoilerplateBlockFilter()(doc)
    BlockProximityFusion(max_distance=1, content_only=True)(doc)
    assert heads(doc) == [None, None, 0, None, None, None]
    # the removed block between keeps its own label: its text is not taken
    assert content(doc) == "+-+--+"


def test_content_only_needs_both_blocks_to_be_content():
    doc = document(bp_block(label=B), bp_block(label=G), bp_block(label=G))
    BlockProximityFusion(max_distance=1, content_only=True)(doc)
    assert heads(doc) == [None, None, 1]
    assert content(doc) == "-++"


def test_no_content_means_no_fusion():
    doc = document(bp_block(label=B), bp_block(label=B))
    BlockProximityFusion(content_only=True)(doc)
    BlockProximityFusion()(doc)
    assert heads(doc) == [None, None]


def test_simple_fusion_joins_runs_of_equal_density():
    doc = document(
        bp_block(10, density=5),
        bp_block(8, density=5),
        bp_block(8, density=7),
        bp_block(8, density=7),
    )
    SimpleBlockFusionProcessor()(doc)
    assert heads(doc) == [None, 0, None, 2]


def test_removed_blocks_are_out_of_the_view():
    doc = document(bp_block(label=G), bp_block(label=B), bp_block(label=G))
    BoilerplateBlockFilter()(doc)
    assert [g.first_offset for g in text_blocks(doc)] == [0, 2]
    assert doc.blocks[1].boilerpipe_labels == BL.REMOVED


def test_a_block_the_fusion_turns_into_content_says_so_and_the_others_keep_their_rule():
    doc = document(*(bp_block(label=label) for label in (B, G, G, B, B, G)))
    for block in doc.blocks:
        block.reason = BOILERPIPE_CLASSIFIER
    BlockProximityFusion(max_distance=1)(doc)
    # blocks 0 and 4 are made content by the content block fused into each
    assert [b.reason == BOILERPIPE_FUSED for b in doc.blocks] == [
        True,
        False,
        False,
        False,
        True,
        False,
    ]
