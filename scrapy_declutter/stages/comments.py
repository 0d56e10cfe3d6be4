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
  in blocks that jusText's context-free class calls good or near-good (in a
  pipeline without it, that the stages so far keep). A marked element that
  holds the page's text is an article a theme marks oddly
  ("comments-enabled").
- a discussion: a page whose schema.org types (JSON-LD or microdata) say
  forum thread, question and answers or social post (``DISCUSSION_TYPES``).
  There the replies are the content, and the forums that mark them so are
  many.

In the ``declutter`` pipeline, the content region rules the section out
before it looks for the content (``page_marks.ruled_out``): a thread of a
hundred comments holds more text than the article above it, and would win
the region. ``SeparateComments``, the pipeline's last stage, then labels the
section's blocks ``COMMENT`` when they read as text (scored as content on their
own features: ``block_score`` above ``text_threshold``, or jusText's
context-free ``good`` / ``near-good``, or kept by the stages before it in
another pipeline) and ``BAD`` otherwise (names, dates, "Reply" links, the
comment form).
"""

import re
from bisect import bisect_left
from collections import Counter
from dataclasses import dataclass
from itertools import chain

from lxml import etree

from scrapy_declutter.core.asides import marks_comments, may_name_comments
from scrapy_declutter.core.blocks import HEADING_TAGS, Block
from scrapy_declutter.core.document import BlockTree, Document
from scrapy_declutter.core.labels import BAD, COMMENT, GOOD, NEAR_GOOD
from scrapy_declutter.core.reasons import COMMENTS
from scrapy_declutter.stages.article_gate import ld_types

# ``COMMENT_NAME`` (``core/asides.py``) names a section or a comment in it.
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
# jusText's context-free classes of a block that reads as text
_PROSE = (GOOD, NEAR_GOOD)
# One class name or id of the element that holds the form to write a comment
# (WordPress's ``respond``, ``comment-respond``, ``reply-title``,
# ``comment-notes``, ``logged-in-as``; Drupal's and Blogger's ``comment-form``):
# its heading ("Leave a reply"), notes ("Your email address will not be
# published") and labels are no one's comment, and text outside the
# ``<form>`` itself.
REPLY_FORM_NAME = re.compile(
    r"^(?:respond|(?:comment|reply)[-_]?(?:respond|form|title|notes)(?:[-_][\w-]*)?"
    r"|reply[-_]title|logged[-_]in[-_]as|must[-_]log[-_]in)$"
)
SHORT_POST_WORDS = 4
# a sentence's last mark, then any closing quotes or brackets
_SENTENCE_END = re.compile(r"[.!?\u2026\u3002\uff01\uff1f][\"'\u201d\u2019)\]]*$")
DISCUSSION_TYPES = re.compile(
    r"\b(?:DiscussionForumPosting|QAPage|Question|Answer|SocialMediaPosting)\b"
)


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
    outside = sum(b.words for b, in_it in zip(blocks, marked) if not in_it and _good(b))
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


def _forms_and_posts(tree: BlockTree, in_section: list[bool]) -> tuple[list[bool], list[bool]]:
    """For each block, whether it is in the section's reply form, and whether
    it is in one of the section's posts. The form: a ``<form>``, or an
    element named for one (``REPLY_FORM_NAME``). A post: an element whose
    parent has another child of its tag and first class (``<li
    class="comment even">``, ``<li class="comment odd">``): a thread repeats
    its posts, where notes and forms stand alone. Either must hold no block
    outside the section (an ASP.NET page is one ``<form>``). One pass over
    the nodes, parents first."""
    ends = tree.subtree_ends
    # the nodes of the blocks outside the section (a node may hold blocks on both sides of a child)
    outside = sorted(node for node, inside in zip(tree.block_nodes, in_section) if not inside)

    def holds_outside(node: int) -> bool:
        first = bisect_left(outside, node)
        return first < len(outside) and outside[first] < ends[node]

    kinds = [
        (parent, tag, class_name.split()[0] if class_name and class_name.split() else None)
        for parent, tag, (class_name, _) in zip(tree.parents, tree.tags, tree.class_and_id)
    ]
    siblings_of_kind = Counter(kinds)
    in_form = [False] * len(tree.parents)
    in_post = [False] * len(tree.parents)
    for node, (kind, (class_name, id_name)) in enumerate(zip(kinds, tree.class_and_id)):
        parent, tag, _ = kind
        in_form[node] = (parent >= 0 and in_form[parent]) or (
            (tag == "form" or _names_reply_form(class_name, id_name)) and not holds_outside(node)
        )
        in_post[node] = (parent >= 0 and in_post[parent]) or (
            siblings_of_kind[kind] > 1 and not in_form[node] and not holds_outside(node)
        )
    return (
        [in_form[node] for node in tree.block_nodes],
        [in_post[node] for node in tree.block_nodes],
    )


def _names_reply_form(class_name: str | None, id_name: str | None) -> bool:
    if not (class_name or id_name):
        return False
    names = f"{class_name or ''} {id_name or ''}".lower()
    return ("respond" in names or "reply" in names or "form" in names or "log" in names) and any(
        REPLY_FORM_NAME.match(n) for n in names.split()
    )


def _short_post(block: Block) -> bool:
    """A post of a sentence or two ("Nice work. Simple yet effective."), which
    jusText calls short: ``SHORT_POST_WORDS`` words or more, no link text, and
    the end of a sentence at its end (a name, a date, "Reply", a list of
    related posts' titles end none)."""
    return (
        block.words >= SHORT_POST_WORDS
        and not block.link_chars
        and _SENTENCE_END.search(block.text) is not None
    )


def _good(block: Block) -> bool:
    return block.cf_label in _PROSE if block.cf_label is not None else block.is_good


def _declares_discussion(document: Document, tree: BlockTree) -> bool:
    declared = [*ld_types(document.found_elements()["script"]), *tree.item_types]
    return any(DISCUSSION_TYPES.search(kind) for kind in declared if kind)


@dataclass(frozen=True)
class SeparateComments:
    """Labels the blocks of the page's comment section ``COMMENT`` or ``BAD``:
    those ``comment_section`` finds, or with ``after_region`` (the
    ``declutter`` pipeline), those the content region ruled out as comments."""

    text_threshold: float = 0.5
    after_region: bool = False

    def __call__(self, document: Document) -> None:
        blocks = document.blocks
        if self.after_region:
            in_section: list[bool] | None = [b.reason == COMMENTS for b in blocks]
        else:
            in_section = comment_section(document)
        if not in_section or not any(in_section):
            return
        in_form, in_post = _forms_and_posts(document.tree(), in_section)
        for block, is_comment, is_form, is_in_post in zip(blocks, in_section, in_form, in_post):
            if is_comment:
                is_text = not is_form and self.is_post_text(block, is_in_post)
                block.label = COMMENT if is_text else BAD
                block.reason = COMMENTS

    def is_post_text(self, block: Block, in_post: bool) -> bool:
        """Whether a block of the section, not in its reply form, is a post's
        text: it reads as text, or it is a short post's sentence in one of the
        thread's repeated posts (``_short_post``); and it is not a heading's
        own text ("3 comments", a thread's title; the posts of a thread that
        an unclosed ``<h2>`` holds are blocks of their own elements)."""
        if block.element.tag in HEADING_TAGS:
            return False
        return self.reads_as_text(block) or (in_post and _short_post(block))

    def reads_as_text(self, block: Block) -> bool:
        if block.label is GOOD or block.cf_label in _PROSE:
            return True
        return block.block_score is not None and block.block_score > self.text_threshold
