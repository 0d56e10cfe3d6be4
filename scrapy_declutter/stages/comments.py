"""User comments: kept out of the text, and read as their own.

A page marks its comment section for its own scripts and styles: a class or
id such as ``comments``, ``comment-list``, ``commentlist``, ``comments-area``,
``disqus_thread``, WordPress's ``respond``, or schema.org's ``Comment`` item
type. ``SeparateComments`` finds the blocks under such an element and labels
them ``COMMENT`` when they read as text (kept by the stages before it, or
scored as content on their own features: ``block_score`` above
``text_threshold``, or jusText's context-free ``good`` / ``near-good``), and
``BAD`` otherwise (names, dates, "Reply" links, the comment form).

A marked element holding most of the kept text is not a comment section but
a page that marks its article so ("post has-comments" would not match, but
themes vary): when the comment blocks would take more than
``MAX_TEXT_SHARE`` of the kept characters, the stage leaves every label as
it found it.
"""

import re
from dataclasses import dataclass
from itertools import chain

from scrapy_declutter.core.blocks import Block
from scrapy_declutter.core.document import BlockTree, Document
from scrapy_declutter.core.labels import BAD, COMMENT, GOOD, NEAR_GOOD

# One class name or id that names a comment section or a comment in it.
COMMENT_NAME = re.compile(
    r"^(?:(?:fb|wp|js)[-_])?(?:comments?|commentlist|disqus\w*)(?:[-_][\w-]*)?$|^respond$"
)
COMMENT_ITEM_TYPE = re.compile(r"schema\.org/(?:User)?Comment\b", re.IGNORECASE)
MAX_TEXT_SHARE = 0.5


def marks_comments(class_name: str | None, id_name: str | None, item_type: str | None) -> bool:
    """Whether an element's class, id or item type marks it as comments."""
    if class_name or id_name:
        names = f"{class_name or ''} {id_name or ''}".lower()
        if _may_name_comments(names) and any(COMMENT_NAME.match(n) for n in names.split()):
            return True
    return bool(item_type and COMMENT_ITEM_TYPE.search(item_type))


def _may_mark_comments(tree: BlockTree) -> bool:
    """Whether an element of ``tree`` may mark comments (``marks_comments``),
    tested on all of them at once: most pages have no class, id or item type
    that could (five in six of wcxb-dev's and l3s-gn1's, one in five of
    dragnet's blogs), and the stage is done without a call for each element."""
    names = " ".join(filter(None, chain.from_iterable(tree.class_and_id))).lower()
    return (
        _may_name_comments(names)
        or COMMENT_ITEM_TYPE.search(" ".join(filter(None, tree.item_types))) is not None
    )


def _may_name_comments(names: str) -> bool:
    """Whether lower-cased class names and ids may hold one that
    ``COMMENT_NAME`` matches: every such name holds one of these words, and
    three substring tests cost less than the regex on every element."""
    return "comment" in names or "disqus" in names or "respond" in names


@dataclass(frozen=True)
class SeparateComments:
    """Labels the blocks of the page's comment sections ``COMMENT`` or ``BAD``."""

    text_threshold: float = 0.5

    def __call__(self, document: Document) -> None:
        blocks = document.blocks
        if not blocks:
            return
        tree = document.tree()
        if not _may_mark_comments(tree):
            return
        in_comments = [False] * len(tree.parents)
        nodes = zip(tree.parents, tree.class_and_id, tree.item_types)
        for node, (parent, (class_name, id_name), item_type) in enumerate(nodes):
            # parents come before their children: the flag flows down in one pass
            in_comments[node] = (parent >= 0 and in_comments[parent]) or marks_comments(
                class_name, id_name, item_type
            )
        marked = [in_comments[node] for node in tree.block_nodes]
        if not any(marked):
            return
        kept = sum(len(b.text) for b in blocks if b.is_good)
        kept_in_comments = sum(len(b.text) for b, m in zip(blocks, marked) if m and b.is_good)
        if kept and kept_in_comments > MAX_TEXT_SHARE * kept:
            return
        for block, is_marked in zip(blocks, marked):
            if is_marked:
                block.label = COMMENT if self.reads_as_text(block) else BAD

    def reads_as_text(self, block: Block) -> bool:
        if block.label is GOOD or block.cf_label in (GOOD, NEAR_GOOD):
            return True
        return block.block_score is not None and block.block_score > self.text_threshold
