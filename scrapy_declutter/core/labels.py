"""Labels a stage writes on a block."""

from enum import Flag, StrEnum, auto


class Label(StrEnum):
    """A block's class: jusText's four, and ours for comments.

    ``good`` (kept) and ``bad`` (removed) are final; ``short`` and
    ``near-good`` exist only between jusText's context-free and
    context-sensitive stages (a block's ``cf_label`` may hold them).
    ``comment`` is ours, final: a user comment's text, kept out of ``text``
    (see ``comments.py``). A label is a ``str``: ``Label.GOOD == "good"``."""

    GOOD = "good"
    BAD = "bad"
    SHORT = "short"
    NEAR_GOOD = "near-good"
    COMMENT = "comment"


# The members as plain names: stages compare labels block by block, and on
# Python 3.11 reading a member off its class costs ten times a global's read.
GOOD, BAD, SHORT, NEAR_GOOD = Label.GOOD, Label.BAD, Label.SHORT, Label.NEAR_GOOD
COMMENT = Label.COMMENT


class BoilerpipeLabel(Flag):
    """Boilerpipe's block labels (its ``DefaultLabels``), a set per block.

    ``REMOVED`` is ours: Boilerpipe deletes blocks from its text document, we
    keep every block and flag the deleted ones instead (see ``boilerpipe.py``).
    """

    TITLE = auto()
    INDICATES_END_OF_TEXT = auto()
    MIGHT_BE_CONTENT = auto()
    REMOVED = auto()
