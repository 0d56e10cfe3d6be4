"""Labels a stage writes on a block."""

from enum import StrEnum


class Label(StrEnum):
    """jusText's classes. ``good`` and ``bad`` are final; the other two exist
    only between the context-free and the context-sensitive stage."""

    GOOD = "good"
    BAD = "bad"
    SHORT = "short"
    NEAR_GOOD = "near-good"
