"""User comments: kept out of the text, and read as their own.

The comment section is ``comment_section.comment_section``'s. In the
``declutter`` pipeline, the hard rules rule the section out before the
region is looked for (``page_marks.ruled_out``, ``rules/hard_rules.py``): a thread of a
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

from scrapy_declutter.core.blocks import HEADING_TAGS, Block
from scrapy_declutter.core.document import BlockTree, Document
from scrapy_declutter.core.labels import BAD, COMMENT, GOOD, NEAR_GOOD
from scrapy_declutter.stages.comment_section import COMMENTS, comment_section
from scrapy_declutter.stages.evidence import COMMENTS_VERDICT, evidence_of
from scrapy_declutter.stages.page_marks import HIDDEN

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
    r"|(?:comment|reply)[-_][a-z]+[-_]form"  # one word between: "comment-mid-form"
    r"|reply[-_]title|logged[-_]in[-_]as|must[-_]log[-_]in)$"
)
SHORT_POST_WORDS = 4
# a sentence's last mark, then any closing quotes or brackets
_SENTENCE_END = re.compile(r"[.!?\u2026\u3002\uff01\uff1f][\"'\u201d\u2019)\]]*$")


def _forms_and_posts(
    tree: BlockTree, in_section: list[bool], unseen: list[bool] | None = None
) -> tuple[list[bool], list[bool]]:
    """For each block, whether it is in the section's reply form or in a
    ``<noscript>``, and whether it is in one of the section's posts. The
    form: a ``<form>``, or an element named for one (``REPLY_FORM_NAME``)
    by its id or by a class no other such element has. A ``<noscript>`` is
    what a browser shows when scripts do not run ("Please enable JavaScript
    to view the comments"): no one's post, in a
    section whose posts scripts load. A post: an element whose parent has
    another child of its tag and first class (``<li class="comment
    even">``, ``<li class="comment odd">``): a thread repeats its posts,
    where notes and forms stand alone. A form or a post must hold no block
    outside the section (an ASP.NET page is one ``<form>``) but those
    ``unseen`` (hidden from a reader: a form's hidden fields and messages
    are its own). One pass over the nodes, parents first."""
    ends = tree.subtree_ends
    unseen = unseen or [False] * len(in_section)
    # the nodes of the blocks outside the section (a node may hold blocks on both sides of a child)
    outside = sorted(
        node
        for node, inside, hidden in zip(tree.block_nodes, in_section, unseen)
        if not (inside or hidden)
    )

    def holds_outside(node: int) -> bool:
        first = bisect_left(outside, node)
        return first < len(outside) and outside[first] < ends[node]

    kinds = [
        (parent, tag, class_name.split()[0] if class_name and class_name.split() else None)
        for parent, tag, (class_name, _) in zip(tree.parents, tree.tags, tree.class_and_id)
    ]
    siblings_of_kind = Counter(kinds)
    # The elements named for the form, each with how many share its class
    # when the class names it: a page has one form to write a comment, where a
    # class on every post ("comment-form-styled") is the posts'. (An id is one
    # element's, even when a page repeats it.)
    named_forms = {
        node: _names_reply_form(class_name, None)
        for node, (class_name, id_name) in enumerate(tree.class_and_id)
        if _names_reply_form(class_name, id_name)
    }
    classes = Counter(
        tree.class_and_id[node][0] for node, by_class in named_forms.items() if by_class
    )
    alone = {
        node
        for node, by_class in named_forms.items()
        if not by_class or classes[tree.class_and_id[node][0]] == 1
    }
    in_form = [False] * len(tree.parents)
    in_post = [False] * len(tree.parents)
    for node, kind in enumerate(kinds):
        parent, tag, _ = kind
        in_form[node] = (
            (parent >= 0 and in_form[parent])
            or tag == "noscript"
            or ((tag == "form" or node in alone) and not holds_outside(node))
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


@dataclass(frozen=True)
class SeparateComments:
    """Labels the blocks of the page's comment section ``COMMENT`` or ``BAD``:
    those ``comment_section`` finds, or with ``after_region`` (the
    ``declutter`` pipeline), those the page's evidence rules out as comments
    (``evidence.PageEvidence.verdicts``)."""

    text_threshold: float = 0.5
    after_region: bool = False

    def __call__(self, document: Document) -> None:
        blocks = document.blocks
        unseen = None
        if self.after_region:
            verdicts = evidence_of(document).verdicts
            in_section: list[bool] | None = [v == COMMENTS_VERDICT for v in verdicts]
            unseen = [v == HIDDEN for v in verdicts]
        else:
            in_section = comment_section(document)
        if not in_section or not any(in_section):
            return
        in_form, in_post = _forms_and_posts(document.tree(), in_section, unseen)
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
