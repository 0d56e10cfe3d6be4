"""The document and its numbered block tree."""

from scrapy_declutter.core.document import build_document
from tests.factory import NEWS_PAGE, SECTIONS_TREE, justext_document


def test_block_tree_sums_over_subtrees_and_paths():
    assert SECTIONS_TREE.subtree_sums([1, 2, 4, 8]) == [15, 7, 3, 4, 8]
    assert SECTIONS_TREE.path_sums([1, 10, 100, 1000, 10000]) == [1, 11, 111, 1011, 10001]
    # the parents of the blocks' nodes (main, body), each with its ancestors
    assert SECTIONS_TREE.lines_above_blocks(3) == {1: [1, 0, -1], 0: [0, -1, -1]}
    assert [list(SECTIONS_TREE.children(node)) for node in range(5)] == [[1, 4], [2, 3], [], [], []]
    # body's subtree is every node; main's is main, s1 and s2; a leaf's is itself
    assert SECTIONS_TREE.subtree_ends == [5, 4, 3, 4, 5]


def test_block_tree_numbers_parents_first():
    document = justext_document(NEWS_PAGE)
    tree = document.tree()
    assert all(parent < node for node, parent in enumerate(tree.parents))
    for block, node in zip(document.blocks, tree.block_nodes):
        assert tree.elements[node] is block.element
    for node, parent in enumerate(tree.parents):
        expected = tree.elements[node].getparent()
        assert (tree.elements[parent] if parent >= 0 else None) is expected


def test_stopwords_are_counted_on_each_block_lower_cased_alone():
    # The page's text is lower-cased in one call: a capital sigma ending a
    # block must still become the final sigma of "της" (a Greek stopword),
    # not the sigma of a word that goes on into the next block.
    document = build_document(
        "<html><body><p>ΤΗΣ</p><p>ΑΘΗΝΑΣ ΚΑΙ ΤΟΥΣ</p><p>X</p></body></html>",  # noqa: RUF001
        language="Greek",
    )
    assert [(b.words, b.stopwords) for b in document.blocks] == [(1, 1), (3, 2), (1, 0)]


def test_block_tree_reads_the_role_a_browser_takes():
    document = justext_document(
        "<html><body><div role=' Navigation menu'><p>Home and away</p></div>"
        "<div role=' '><p>Nothing in the role</p></div><main><p>The text</p></main></body></html>"
    )
    tree = document.tree()
    assert [tree.roles[node] for node in tree.block_nodes] == [None, None, None]  # the <p>s
    parents = [tree.parents[node] for node in tree.block_nodes]
    assert [tree.roles[node] for node in parents] == ["navigation", None, None]
