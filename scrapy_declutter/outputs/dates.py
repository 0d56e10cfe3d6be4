"""Dates as pages write them, read as ``YYYY-MM-DD``.

The date part of an ISO 8601 timestamp is taken as written (the publisher's
local date, not converted to UTC); a compact one ("20250904T...") too. Written
dates are read in English: "4 September 2025", "Sep 4, 2025", "2025 Sep 4",
and numeric "04.09.2025" (dots: day first) or "9/4/2025" (slashes: month
first unless the first number cannot be a month). Chinese and Japanese dates
are read too: "2017年3月9日" (a weekday after it, "(木)", does not matter) and
an ISO date right after a Han or kana character ("发布于2017/03/09", where no
word boundary comes before the year). A year outside 1990-2100 gives no date,
and so does a date without a year ("3月9日").

``timestamp`` reads an ISO 8601 timestamp with its offset from UTC, for the
metadata to tell a timestamp written in UTC from the publisher's local one.
"""

import re
from datetime import date, datetime, timedelta, timezone

from scrapy_declutter.core.date_words import HAN_DATE, MONTH, MONTH_NUMBERS, NUMBER_DATE

_ISO_DATE = re.compile(rf"\b{NUMBER_DATE}(?!\d)")
_HAN_DATE = re.compile(rf"(?<!\d){HAN_DATE}")
_ISO_DATE_AFTER_HAN = re.compile(
    "(?<=[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff])" + NUMBER_DATE + r"(?!\d)"
)
_COMPACT_DATE = re.compile(r"^(\d{4})(\d{2})(\d{2})(?:T|$)")
_DAY_MONTH_YEAR = re.compile(
    rf"\b(\d{{1,2}})(?:st|nd|rd|th)?\s+(?:of\s+)?{MONTH},?\s+(\d{{4}})\b", re.I
)
_YEAR_MONTH_DAY = re.compile(rf"\b(\d{{4}})\s+{MONTH}\s+(\d{{1,2}})\b", re.I)
_MONTH_DAY_YEAR = re.compile(rf"\b{MONTH}\s+(\d{{1,2}})(?:st|nd|rd|th)?,?\s+(\d{{4}})\b", re.I)
# Dates with a month's name, in the order their groups come: d(ay), m(onth), y(ear)
_NAMED_MONTH_DATES = ((_DAY_MONTH_YEAR, "dmy"), (_MONTH_DAY_YEAR, "mdy"), (_YEAR_MONTH_DAY, "ymd"))
_NUMERIC_DATE = re.compile(r"\b(\d{1,2})([./])(\d{1,2})\2(\d{4})\b")
# Where a date may start in a line of text: a word that starts with a digit,
# a month's name before one ("Dec 17", "17 Dec 2025", "2025-12-17"), or a
# weekday ("Tuesday", "Fri, Jan 18"; "Sun" only before a date, as it is a name too).
_WEEKDAY = r"(?:mon|tues?|wed|thu(?:rs)?|fri|sat|sun)\.?,?"
_DATE_START = re.compile(
    rf"\b(?:mon|tues|wednes|thurs|fri|satur|sun)day\b|\b{_WEEKDAY}\s+(?:{MONTH}\s)?\d"
    rf"|\b{_WEEKDAY}\s+{MONTH}\s|\b{MONTH}\s+\d|(?<!\w)\d",
    re.I,
)
# An ISO 8601 timestamp with its offset: "Z", "+01:00", "-0500".
_TIMESTAMP = re.compile(
    r"^\s*(\d{4})-(\d{2})-(\d{2})[T ](\d{2}):(\d{2})(?::(\d{2}))?(?:[.,]\d+)?\s*"
    r"(?:(Z)|([+-])(\d{2}):?(\d{2}))\s*$",
    re.I,
)
_DIGIT = re.compile(r"\d")


def has_digit(value: str) -> bool:
    """Whether ``value`` holds a digit, as every date it could give does."""
    return _DIGIT.search(value) is not None


def parse_date(value: str | None) -> str | None:
    """The date written in ``value`` as ``YYYY-MM-DD``, or ``None``; an ISO
    date anywhere in it is taken before a date in words."""
    if not value or not has_digit(value):  # most text: no date, and no more work
        return None
    value = value.strip()
    match = _COMPACT_DATE.match(value)
    if match:
        return _valid(*match.groups())
    match = _ISO_DATE.search(value)
    if match:
        return _valid(*match.groups())
    if not value.isascii():
        match = _HAN_DATE.search(value) or _ISO_DATE_AFTER_HAN.search(value)
        if match:
            return _valid(*match.groups())
    for pattern, order in _NAMED_MONTH_DATES:
        match = pattern.search(value)
        if match:
            part = dict(zip(order, match.groups()))
            return _valid(part["y"], MONTH_NUMBERS[part["m"].lower()], part["d"])
    match = _NUMERIC_DATE.search(value)
    if match:
        first, separator, second, year = match.groups()
        # dots are European (day first); slashes American unless the first can't be a month
        if separator == "." or int(first) > 12:
            return _valid(year, second, first)
        return _valid(year, first, second)
    return None


def date_start(value: str) -> int | None:
    """Where the first date in ``value`` may start (``_DATE_START``), or ``None``."""
    match = _DATE_START.search(value)
    return match.start() if match else None


def timestamp(value: str | None) -> datetime | None:
    """An ISO 8601 timestamp that says its offset from UTC ("Z",
    "+01:00"), as an aware ``datetime``; ``None`` for anything else (a date,
    a time without an offset)."""
    match = _TIMESTAMP.match(value) if value else None
    if not match:
        return None
    year, month, day, hour, minute, second, utc, sign, offset_hours, offset_minutes = match.groups()
    offset = 0 if utc else int(offset_hours) * 60 + int(offset_minutes)
    if sign == "-":
        offset = -offset
    try:
        zone = timezone(timedelta(minutes=offset))
        return datetime(
            int(year), int(month), int(day), int(hour), int(minute), int(second or 0), tzinfo=zone
        )
    except ValueError:  # a day, an hour or an offset out of range
        return None


def _valid(year: str | int, month: str | int, day: str | int) -> str | None:
    try:
        found = date(int(year), int(month), int(day))
    except ValueError:
        return None
    return found.isoformat() if 1990 <= found.year <= 2100 else None
