"""The article twice: once in paragraphs, once more in one block.

Each page is scored by hand (every block well above the threshold, as the
model scores what lies inside an article's element) so that only the rule
decides."""

from scrapy_declutter.stages.rules.copies import COPY, KeepOutCopies
from scrapy_declutter.stages.rules.region import CONTENT_REGION
from tests.factory import STORY, reasons_in_article

PARAGRAPHS = "".join(f"<p>{text}</p>" for text in STORY)
REPLY = (
    "I agree with the post above, and I would add that the crossing was closed "
    "twice before, in 1998 and again in 2006, and both times the council promised "
    "a new bridge that never came; this time the money is in the budget, and the "
    "works start in the spring, so we may see it open before the summer ends."
)


def decided(body: str) -> dict[str, str | None]:
    return reasons_in_article(body, KeepOutCopies())


def test_paragraphs_held_again_in_one_block_go_and_the_block_stays():
    whole = " ".join(STORY)
    by_text = decided(PARAGRAPHS + f'<div class="print-copy">{whole}</div>')
    assert [by_text[p] for p in STORY] == [COPY] * 3
    assert by_text[whole] == CONTENT_REGION


def test_one_paragraph_quoted_in_a_longer_block_is_no_copy():
    reply = f"{STORY[0]} {REPLY}"
    by_text = decided(PARAGRAPHS + f"<div>{reply}</div>")
    assert [by_text[p] for p in STORY] == [CONTENT_REGION] * 3
    assert by_text[reply] == CONTENT_REGION
