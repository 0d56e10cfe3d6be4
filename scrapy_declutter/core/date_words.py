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
