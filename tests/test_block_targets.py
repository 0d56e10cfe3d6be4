"""The training labels (``benchmarks/block_targets.py``): a block is content
where the reference has its words, and a short one only where the reference
has it in the page's order."""

from benchmarks.block_targets import block_targets, short_block_counts

ARTICLE = (
    "The council voted on Tuesday to open the bridge to cyclists next spring, "
    "after two years of news about its repairs and a long debate on sports traffic."
)


def test_a_menu_entry_whose_word_the_article_uses_is_not_content():
    texts = ["News", "Sports", ARTICLE, "Share this"]
    assert block_targets(texts, ARTICLE) == [0, 0, 1, 0]


def test_a_short_block_where_the_reference_has_it_is_content():
    texts = ["News", "Bridge opens to cyclists", ARTICLE, "Sports"]
    reference = f"Bridge opens to cyclists\n\n{ARTICLE}"
    assert block_targets(texts, reference) == [0, 1, 1, 0]


def test_a_long_block_counts_wherever_it_is_and_when_lightly_edited():
    edited = ARTICLE.replace("Tuesday", "Wednesday")
    texts = [ARTICLE, "Sports", edited]
    reference = f"Sports\n\n{ARTICLE}"
    # the long block is content although it comes before the reference's
    # "Sports"; the edited copy has 27 of its 28 words in the reference
    assert block_targets(texts, reference) == [1, 0, 1]


def test_no_reference_makes_nothing_content():
    assert block_targets(["News", ARTICLE], "") == [0, 0]


def test_the_benchmark_counts_the_short_blocks_that_lose_the_label():
    texts = ["News", "Bridge opens to cyclists", ARTICLE, "Sports"]
    reference = f"Bridge opens to cyclists\n\n{ARTICLE}"
    # three short blocks are in the reference; the menu's two are not where it has them
    assert short_block_counts(texts, reference) == (3, 1)
