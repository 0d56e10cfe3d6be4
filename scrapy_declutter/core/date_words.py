"""How a date is written, as the stages and the metadata both read it: the
English months' names, a date in numbers ("2025-12-17"), a date in Chinese
and Japanese ("2025年12月17日"). Patterns as strings, each with its groups,
for the readers to anchor as they need."""

MONTH_NUMBERS: dict[str, int] = {
    name: number
    for number, names in enumerate(
        (
            ("january", "jan"),
            ("february", "feb"),
            ("march", "mar"),
            ("april", "apr"),
            ("may",),
            ("june", "jun"),
            ("july", "jul"),
            ("august", "aug"),
            ("september", "sep", "sept"),
            ("october", "oct"),
            ("november", "nov"),
            ("december", "dec"),
        ),
        start=1,
    )
    for name in names
}
# A month's name or abbreviation, a full stop after it or not; one group (the name).
MONTH = r"(" + "|".join(sorted(MONTH_NUMBERS, key=len, reverse=True)) + r")\.?"
# Year, month, day in numbers; three groups.
NUMBER_DATE = r"(\d{4})[-/.](\d{1,2})[-/.](\d{1,2})"
# Year, month, day with 年, 月, 日; three groups.
HAN_DATE = r"(\d{4})\s*年\s*(\d{1,2})\s*月\s*(\d{1,2})\s*日"
# A date a page shows, as the rules that read a block's date find it: in
# English words ("March 15 2017", "15 March, 2017"), in numbers
# ("2005-03-21") or in Chinese and Japanese ("2020年2月9日"); its groups
# are its parts' (for a search or a match, not for reading the date).
_DAY = r"\d{1,2}(?:st|nd|rd|th)?"
SHOWN_DATE = (
    rf"(?:{MONTH}\s+{_DAY},?\s+\d{{4}}|{_DAY}\s+{MONTH},?\s+\d{{4}}|{NUMBER_DATE}|{HAN_DATE})"
)
