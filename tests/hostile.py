"""Hostile pages for the reliability tests: the generators of ``benchmarks/hostile.py``
(imported from there), and a few of the tests' own.

Each generator returns the page and the marker text a correct extraction must
still find in it (or ``None`` when the page holds no content).
"""

import gzip
import random
import threading

from benchmarks.hostile import (
    END,
    FAMILIES,
    PARAGRAPH,
    SENTENCE,
    article,
    big_page,
    breaks,
    huge_text,
    nested,
    siblings,
)

__all__ = [
    "END",
    "FAMILIES",
    "PARAGRAPH",
    "SENTENCE",
    "article",
    "big_page",
    "breaks",
    "gzip_stream",
    "huge_text",
    "nested",
    "png",
    "siblings",
    "within",
]


def gzip_stream() -> bytes:
    return gzip.compress(article(20).encode())


def png() -> bytes:
    rng = random.Random(6)
    return b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\x00\x00\x01\x00\x00\x00\x01\x00\x08\x06" + bytes(
        rng.randrange(256) for _ in range(4000)
    )


def within(seconds: float, function, *args):
    """``function(*args)``, run in a daemon thread: a hang fails the test instead of blocking it."""
    outcome = {}

    def run():
        try:
            outcome["value"] = function(*args)
        except BaseException as error:  # handed to the test below
            outcome["error"] = error

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    thread.join(seconds)
    assert not thread.is_alive(), f"{getattr(function, '__name__', function)} ran over {seconds} s"
    if "error" in outcome:
        raise outcome["error"]
    return outcome["value"]
