"""Hostile pages, generated in memory: for the reliability tests and ``benchmarks/hostile.py``.

Each generator returns the page and the marker text a correct extraction must
still find in it (or ``None`` when the page holds no content).
"""

import gzip
import random
import threading

# A paragraph jusText keeps: long, full of English stopwords. ``{n}`` numbers it.
PARAGRAPH = (
    "Paragraph {n}: the people who live along the river said that the water was warmer "
    "this summer than it had ever been, and that they had seen fewer fish in it than in "
    "any of the years before, which is why the council has asked the university to study "
    "it over the next three years and to report on what can be done about it."
)
END = "The end marker sentence of the page."


def _english_page(body: str) -> str:
    return f'<html lang="en"><head><title>Big</title></head><body>{body}</body></html>'


def article(paragraphs: int, wrapper: str = "div") -> str:
    body = "".join(f"<p>{PARAGRAPH.format(n=n)}</p>\n" for n in range(paragraphs))
    return _english_page(f"<{wrapper}>{body}</{wrapper}>")


def big_page(megabytes: int = 50) -> str:
    """An article of ``megabytes`` MB: paragraphs of about 3 kB, then ``END``."""
    paragraph = " ".join([PARAGRAPH] * 10)
    count = megabytes * 1_000_000 // (len(paragraph) + 8)
    body = "".join(f"<p>{paragraph.format(n=n)}</p>\n" for n in range(count))
    return _english_page(f"<div>{body}<p>{END} {PARAGRAPH.format(n='last')}</p></div>")


def nested(depth: int = 100_000, tag: str = "div", closed: bool = True) -> str:
    return (
        f"<html><body>{f'<{tag}>' * depth}<p>{END}</p>"
        + (f"</{tag}>" * depth if closed else "")
        + "</body></html>"
    )


def siblings(count: int = 1_000_000) -> str:
    return "<html><body>" + "<p>x</p>" * count + "</body></html>"


def breaks(count: int = 100_000) -> str:
    return f"<html><body><p>before{'<br>' * count}after</p></body></html>"


def huge_text(megabytes: int = 20) -> str:
    words = "word " * (megabytes * 1_000_000 // 5)
    return f"<html><body><p>{words}</p><p>{END}</p></body></html>"


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
