"""A page's time budget, which the extraction checks as it goes.

A thread cannot be stopped from outside, so the extraction stops itself: it
checks its ``Deadline`` between its steps (parsing, the block walk, each
stage) and every ``CHECK_EVERY`` elements of the block walk, and raises
``DeadlineExceeded`` once the time is up. A page therefore ends at most one
step after its deadline; the parse, in libxml2's C code, is one step. Each
call carries its own deadline: pages extracted at once in threads do not
share one.
"""

import time
from collections.abc import Callable

from scrapy_declutter.core.errors import DeclutterError

# A power of two less one, as a mask: the walk tests ``elements & CHECK_EVERY``,
# cheaper than reading the clock at each of a big page's million elements.
CHECK_EVERY = 4095


class DeadlineExceeded(DeclutterError, TimeoutError):
    """The extraction ran past its deadline (``seconds`` after it started) and
    was given up ``where`` it was; nothing of the page is returned."""

    def __init__(self, seconds: float, where: str) -> None:
        super().__init__(seconds, where)  # both: it is pickled from worker processes
        self.seconds = seconds
        self.where = where

    def __str__(self) -> str:
        return f"gave up after {self.seconds:g} s, in {self.where}"


class Deadline:
    """``seconds`` from when it is made, read on ``clock`` (a test passes its own)."""

    __slots__ = ("at", "clock", "seconds")

    def __init__(self, seconds: float, clock: Callable[[], float] = time.monotonic) -> None:
        self.seconds = seconds
        self.clock = clock
        self.at = clock() + seconds

    def check(self, where: str) -> None:
        """Raise ``DeadlineExceeded`` (naming ``where``) if the time is up."""
        if self.clock() >= self.at:
            raise DeadlineExceeded(self.seconds, where)
