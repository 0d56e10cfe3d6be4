"""User comments: kept out of the text, and read as their own.

A page marks its comment section for its own scripts and styles: a class or
id such as ``comments``, ``comment-list``, ``commentlist``, ``commentbody``,
``comments-area``, ``disqus_thread``, WordPress's ``respond``.
``comment_section`` finds the blocks under such an element; when it is a
heading, or a heading holds it (``<h2 id="comments">Comments</h2>``, ``<h2><a
name="comments"></a>Comments</h2>``, as older blog themes write), the blocks
from the heading to the end of its parent (of the nearest ancestor that holds
more than the heading), where the comments follow it unmarked; and after an
empty anchor so named (``<a name="comments"></a>``, where a "5 comments"
link jumps to), the blocks from the next element to the end of the anchor's
parent. It takes them for the page's comments when the page has an article
beside them and does not say it is a discussion:

- an article: at least ``ARTICLE_WORDS`` words outside the marked elements
  in blocks that read as text: that jusText's context-free class calls good
  or near-good (in a pipeline without it, that the stages so far keep), or
  prose the content model scores as content (``ARTICLE_SCORE``), as a
  Chinese paragraph can fall short of jusText's stopword bars. A marked
  element that holds the page's text is an article a theme marks oddly
  ("comments-enabled").
- a discussion: a page whose schema.org types (JSON-LD or microdata) say
  forum thread, question and answers or social post (``DISCUSSION_TYPES``).
  There the replies are the content, and the forums that mark them so are
  many.

The blocks it finds are labelled ``COMMENTS`` by the ``declutter`` pipeline's
hard rules (``rules/hard_rules.py``) and by ``comments.SeparateComments``.
"""

import re
from itertools import chain

from lxml import etree

from scrapy_declutter.core.blocks import HEADING_TAGS, Block, is_prose
from scrapy_declutter.core.document import BlockTree, Document, ld_types
from scrapy_declutter.core.labels import GOOD, NEAR_GOOD
from scrapy_declutter.core.reasons import Reason

# One class name or id that names a comment section or a comment in it:
# "comment" or "comments", alone, with a prefix or a part after a separator,
# or joined to a word for a part of a thread. Not any word after it:
# "commentary" is an article, "commenting-guidelines" a note beside one.
_COMMENT_PARTS = "list|listing|body|text|box|wrap|wrapper|container|area|thread|entry|content"
COMMENT_NAME = re.compile(
    rf"^(?:(?:fb|wp|js)[-_])?(?:comments?(?:{_COMMENT_PARTS})?|disqus\w*)(?:[-_][\w-]*)?$"
    r"|^respond$"
)
# ``COMMENT_NAME`` names a section or a comment in it.
# Held out by site (the models' held-out scores, threshold 0.4), F1 on
# wcxb-dev / dragnet / l3s-gn1 was 0.8509 / 0.9331 / 0.9399 with the comments
# set apart after the region (unless they took half the kept text), and is
# 0.8511 / 0.9363 / 0.9435 with the section ruled out before it; in the
# region's sums, 0.8503 / 0.9354 / 0.9436 (100 words instead of 60: 0.8504 /
# 0.9347 / 0.9436). Fitted on the two other corpora, dragnet 0.877 to 0.890.
# Marked headings opening a section, and names joined to a part
# ("commentbody"): wcxb-dev / dragnet / l3s-gn1 0.8511 / 0.9364 / 0.9435 to
# 0.8510 / 0.9409 / 0.9443, dragnet left out 0.8899 to 0.8967, l3s-gn1 0.9235
# to 0.9247 (any word after "comment": 0.8506 / 0.9387 / 0.9449). Empty
# anchors: l3s-gn1 0.9443 to 0.9479, left out 0.9247 to 0.9288, the others'
# unchanged.
ARTICLE_WORDS = 60
# A paragraph of prose counts for the article when the content model (where
# one ran) scores it above this: jusText's class of a Chinese paragraph can
# be "bad" by its stopword bars; a forum's footer or cast list is prose too.
ARTICLE_SCORE = 0.5
# jusText's context-free classes of a block that reads as text
_PROSE = (GOOD, NEAR_GOOD)
DISCUSSION_TYPES = re.compile(
    r"\b(?:DiscussionForumPosting|QAPage|Question|Answer|SocialMediaPosting)\b"
)

COMMENTS = Reason(
    "in the comments",
    "under an element whose class or id names comments (comments, comment-list, "
    "disqus_thread, ...), on a page with an article beside them that does not declare "
    "itself a discussion (a forum thread, questions and answers): kept out of the text, "
    "and in the comments when they are asked for.",
)


def marks_comments(class_name: str | None, id_name: str | None) -> bool:
    """Whether an element's class or id marks it as comments."""
    if not (class_name or id_name):
        return False
    names = f"{class_name or ''} {id_name or ''}".lower()
    return may_name_comments(names) and any(COMMENT_NAME.match(n) for n in names.split())


def may_name_comments(names: str) -> bool:
    """Whether lower-cased class names and ids may hold one that
    ``COMMENT_NAME`` matches: every such name holds one of these words, and
    three substring tests cost less than the regex on every element."""
    return "comment" in names or "disqus" in names or "respond" in names


def comment_section(document: Document) -> list[bool] | None:
    """For each block, whether it is in the page's comment section (see the
    module's docstring); ``None`` when the page has none."""
    blocks = document.blocks
    if not blocks:
        return None
    tree = document.tree()
    # most pages have no class or id that could mark comments (five in six of
    # wcxb-dev's and l3s-gn1's): one test of them all, not one per element
    names = " ".join(filter(None, chain.from_iterable(tree.class_and_id)))
    sections = _opened_sections(tree, document.found_elements()["a"])
    if not sections and not may_name_comments(names.lower()):
        return None
    marked = _marked_blocks(tree, sections)
    if not any(marked):
        return None
    outside = sum(b.words for b, in_it in zip(blocks, marked) if not in_it and _reads_as_text(b))
    if outside < ARTICLE_WORDS or _declares_discussion(document, tree):
        return None
    return marked


def _opened_sections(tree: BlockTree, links: list[etree._Element]) -> dict[int, int]:
    """The sections that markers open, by their first node, with the node
    each ends before. A heading whose class or id names comments, or that
    holds an element so named (``<h2><a name="comments"></a>Comments</h2>``),
    opens one from the heading to the end of the nearest ancestor that holds
    more than it (a heading alone in a wrapper); an empty anchor so named
    (``<a name="comments"></a>``, where a "5 comments" link jumps to), from
    the next element that holds a block to the end of the anchor's parent. A
    marker inside a section opens none (``_marked_blocks``). ``links`` are
    the page's ``<a>`` elements."""
    parents, ends, elements = tree.parents, tree.subtree_ends, tree.elements
    sections: dict[int, int] = {}
    holding = _headings_holding_markers(tree)
    for node, tag in enumerate(tree.tags):
        if tag in HEADING_TAGS and (marks_comments(*tree.class_and_id[node]) or node in holding):
            parent = parents[node]
            while parent >= 0 and ends[parent] == ends[node] and parents[parent] >= 0:
                parent = parents[parent]
            if parent >= 0:
                sections[node] = max(sections.get(node, 0), ends[parent])
    anchors = [  # an anchor is named, not classed: two reads for each of the page's links
        a
        for a in links
        if marks_comments(None, a.get("name") or a.get("id")) and not len(a) and not a.text
    ]
    if anchors:  # most pages have none: no node to look up
        node_of = {element: node for node, element in enumerate(elements)}
        by_anchors: dict[int, int] = {}
        for anchor, start in _first_nodes_after(anchors, node_of).items():
            parent_node = node_of.get(anchor.getparent())
            if parent_node is not None and start is not None:
                by_anchors[start] = max(by_anchors.get(start, 0), ends[parent_node])
        sections.update(by_anchors)  # a heading after an anchor: the anchor says where it ends
    return sections


def _headings_holding_markers(tree: BlockTree) -> set[int]:
    """The heading nodes that hold an element whose class, id or name marks
    comments (``<h2><a name="comments"></a>Comments</h2>``). Each element is
    read once: a heading inside another (a thousand deep on a hostile page)
    takes its answer from the walk over the outer one, which flags every
    ancestor of a marker up to it."""
    ends, elements = tree.subtree_ends, tree.elements
    holding: set[int] = set()
    holders: set[etree._Element] = set()  # the elements, in a walked heading, above a marker
    walked_until = 0  # the end of the last heading whose descendants were walked
    for node, tag in enumerate(tree.tags):
        # most headings hold no element: nothing to look through
        if tag not in HEADING_TAGS or not len(elements[node]):
            continue
        heading = elements[node]
        if node >= walked_until:
            walked_until = ends[node]
            for element in heading.iterdescendants():
                if marks_comments(element.get("class"), element.get("id") or element.get("name")):
                    above = element.getparent()
                    while above is not None and above not in holders:
                        holders.add(above)
                        if above is heading:
                            break
                        above = above.getparent()
        if heading in holders:
            holding.add(node)
    return holding


def _first_nodes_after(
    anchors: list[etree._Element], node_of: dict[etree._Element, int]
) -> dict[etree._Element, int | None]:
    """For each anchor, the first node among its following siblings (an
    element that holds a block is a node), ``None`` if none. From the last
    anchor back, a walk stops at the next anchor and takes its answer: a
    thread of ten thousand anchors in one container reads each sibling once."""
    first: dict[etree._Element, int | None] = {}
    for anchor in reversed(anchors):  # the page's links are in document order
        start = None
        for sibling in anchor.itersiblings():
            if sibling in first:
                start = first[sibling]
                break
            start = node_of.get(sibling)
            if start is not None:
                break
        first[anchor] = start
    return first


def _marked_blocks(tree: BlockTree, sections: dict[int, int]) -> list[bool]:
    """Which blocks lie under an element named for comments or in a section
    a marker opened (``_opened_sections``)."""
    marked = [False] * len(tree.parents)
    section_end = 0  # the end of the section open here
    for node, (parent, (class_name, id_name)) in enumerate(zip(tree.parents, tree.class_and_id)):
        # parents come before their children: the mark flows down in one pass
        if node < section_end or (parent >= 0 and marked[parent]):
            marked[node] = True  # a marker in a marked section opens none
        elif node in sections:
            marked[node] = True
            section_end = sections[node]
        else:
            marked[node] = marks_comments(class_name, id_name)
    return [marked[node] for node in tree.block_nodes]


def _reads_as_text(block: Block) -> bool:
    """Prose the content model scores above ``ARTICLE_SCORE`` (``blocks.is_prose``),
    or a block jusText's context-free class calls good or near-good (in a
    pipeline without it, one kept so far)."""
    if (block.score or 0.0) > ARTICLE_SCORE and is_prose(block.words, block.link_density):
        return True
    return block.cf_label in _PROSE if block.cf_label is not None else block.is_good


def _declares_discussion(document: Document, tree: BlockTree) -> bool:
    declared = [*ld_types(document.found_elements()["script"]), *tree.item_types]
    return any(DISCUSSION_TYPES.search(kind) for kind in declared if kind)
