"""Small synthetic pages, as a reader's test pages are: one to six paragraphs,
with or without a headline, a short menu or footer, a paragraph said twice, a
Chinese page; each with the text a reader sees on it.

``tests/test_small_pages.py`` asserts what is kept on them and why.
"""

# ruff: noqa: RUF001 (Chinese punctuation is fullwidth)

from typing import NamedTuple


class SmallPage(NamedTuple):
    name: str
    html: str
    text: str  # what a reader sees: the headline and paragraphs, a blank line apart


LIBRARY = (
    "The city council voted on Tuesday to extend the opening hours of the public library, "
    "after months of requests from students who said they had nowhere quiet to work.",
    "Under the new plan the library will stay open until ten at night on weekdays, and the "
    "council will pay for two more members of staff from the budget it had set aside.",
    "Some residents questioned the cost, but the mayor said that the library was one of the "
    "few places in town where anyone could go without having to buy something.",
    "The first late opening is planned for the start of next month, and the library will ask "
    "its visitors what they think of it after a trial of six weeks.",
    "A group of students has already offered to help run a homework club on two evenings a "
    "week, with older pupils helping the younger ones with their reading.",
    "The council will review the plan at the end of the year, when it sets the budget for the "
    "next one and decides which of its services it can still afford.",
)
SHORT = (
    "The bakery on the corner has closed after forty years.",
    "Its owner said that she wanted to spend more time with her grandchildren.",
    "A new owner has not been found, and the shop is for sale.",
    "Neighbours left flowers and cards at the door on Saturday.",
)
GARDEN = (
    "Most vegetables need at least six hours of sun a day, so the first thing to do is to watch "
    "where the shadows fall in your garden over a whole day before you dig anything.",
    "Start small: a bed of two metres by one is enough for a family's salad all summer, and it "
    "is easy to keep free of weeds if you walk round it every evening.",
    "Water in the morning rather than at night, when the leaves stay wet for hours and "
    "the slugs come out to eat whatever you have planted.",
)
ZH = (
    "市议会周二投票决定延长公共图书馆的开放时间，此前数月来学生们一直要求这样做，"
    "他们说晚上没有安静的地方可以学习。",
    "根据新计划，图书馆将在工作日开放到晚上十点，市议会将从原本为艺术预留的预算中支付两名新增工作人员的费用。",
)
MENU = (
    "<nav><ul><li><a href='/'>Home</a></li><li><a href='/news'>News</a></li>"
    "<li><a href='/about'>About us</a></li></ul></nav>"
)
FOOTER = "<footer><p><a href='/contact'>Contact</a> | <a href='/privacy'>Privacy</a></p></footer>"
COPYRIGHT = "<footer><p>© 2026 Example Media. All rights reserved.</p></footer>"


def _page(body: str, title: str = "", lang: str = "en") -> str:
    head = f"<head><title>{title}</title></head>" if title else ""
    return f"<!DOCTYPE html><html lang='{lang}'>{head}<body>{body}</body></html>"


def _ps(texts: tuple[str, ...] | list[str]) -> str:
    return "".join(f"<p>{text}</p>" for text in texts)


def _text(*parts: str) -> str:
    return "\n\n".join(parts)


HEADLINE = "Library to stay open later"
PAGES = (
    SmallPage("one paragraph", _page(_ps(LIBRARY[:1])), _text(*LIBRARY[:1])),
    SmallPage(
        "one paragraph, headline",
        _page(f"<h1>{HEADLINE}</h1>{_ps(LIBRARY[:1])}", HEADLINE),
        _text(HEADLINE, *LIBRARY[:1]),
    ),
    SmallPage(
        "one paragraph, menu and footer",
        _page(f"{MENU}<main>{_ps(LIBRARY[:1])}</main>{FOOTER}"),
        _text(*LIBRARY[:1]),
    ),
    SmallPage("two paragraphs", _page(_ps(LIBRARY[:2])), _text(*LIBRARY[:2])),
    SmallPage("three paragraphs", _page(_ps(LIBRARY[:3])), _text(*LIBRARY[:3])),
    SmallPage("six paragraphs", _page(_ps(LIBRARY)), _text(*LIBRARY)),
    SmallPage(
        "three paragraphs, menu and footer",
        _page(f"{MENU}<div class='content'>{_ps(LIBRARY[:3])}</div>{FOOTER}"),
        _text(*LIBRARY[:3]),
    ),
    SmallPage(
        "article, headline, menu and footer",
        _page(f"{MENU}<article><h1>{HEADLINE}</h1>{_ps(LIBRARY[:4])}</article>{FOOTER}", HEADLINE),
        _text(HEADLINE, *LIBRARY[:4]),
    ),
    SmallPage(
        "paragraphs in divs",
        _page("".join(f"<div>{text}</div>" for text in GARDEN[:2])),
        _text(*GARDEN[:2]),
    ),
    SmallPage(
        "text in the body, then paragraphs",
        _page(f"{LIBRARY[0]}{_ps(LIBRARY[1:3])}"),
        _text(*LIBRARY[:3]),
    ),
    SmallPage(
        "text in the body, broken by <br>",
        _page("<br><br>".join(LIBRARY[:3])),
        _text(*LIBRARY[:3]),
    ),
    SmallPage(
        "a paragraph, then a list",
        _page(f"{_ps(LIBRARY[:1])}<ul><li>{LIBRARY[1]}</li><li>{LIBRARY[2]}</li></ul>"),
        _text(*LIBRARY[:3]),
    ),
    SmallPage(
        "a paragraph, then sections",
        _page(f"{_ps(GARDEN[:1])}<h2>Where</h2>{_ps(GARDEN[1:2])}<h2>When</h2>{_ps(GARDEN[2:])}"),
        _text(GARDEN[0], "Where", GARDEN[1], "When", GARDEN[2]),
    ),
    SmallPage(
        "a quotation",
        _page(f"{_ps(LIBRARY[:1])}<blockquote>{LIBRARY[1]}</blockquote>{_ps(LIBRARY[2:3])}"),
        _text(*LIBRARY[:3]),
    ),
    SmallPage("short sentences", _page(_ps(SHORT)), _text(*SHORT)),
    SmallPage(
        "short sentences, headline",
        _page(f"<h1>The corner bakery closes</h1>{_ps(SHORT)}", "The corner bakery closes"),
        _text("The corner bakery closes", *SHORT),
    ),
    SmallPage(
        "a copyright line",
        _page(f"<main>{_ps(GARDEN)}</main>{COPYRIGHT}"),
        _text(*GARDEN),
    ),
    SmallPage(
        "a paragraph said twice",
        _page(_ps([*LIBRARY[:3], LIBRARY[0]])),
        _text(*LIBRARY[:3], LIBRARY[0]),
    ),
    SmallPage(
        "a paragraph said twice, menu and footer",
        _page(f"{MENU}<article>{_ps([*GARDEN, GARDEN[0]])}</article>{FOOTER}"),
        _text(*GARDEN, GARDEN[0]),
    ),
    SmallPage(
        "a menu above and below",
        _page(f"{MENU}<main>{_ps(LIBRARY[:3])}</main>{MENU}"),
        _text(*LIBRARY[:3]),
    ),
    SmallPage("Chinese, one paragraph", _page(_ps(ZH[:1]), lang="zh"), _text(*ZH[:1])),
    SmallPage(
        "Chinese, headline",
        _page(f"<h1>图书馆延长开放时间</h1>{_ps(ZH)}", "图书馆延长开放时间", lang="zh"),
        _text("图书馆延长开放时间", *ZH),
    ),
)
