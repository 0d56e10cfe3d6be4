"""A page whose ``<title>`` is never closed still has its body's text."""

from scrapy_declutter import extract
from scrapy_declutter.core.parse import parse

PARAGRAPH = (
    "The harbour reopened on Tuesday after the storm, and the first ferries left on time "
    "with their usual number of passengers on board."
)
PAGE = f"""<html><head><title>Harbour reopens (The Times)ntById("font");
function go() {{ window.open('/print'); }}
</script></head><body><table><tr><td><p>{PARAGRAPH}</p></td></tr></table></body></html>"""


def test_an_unclosed_title_does_not_swallow_the_page():
    root = parse(PAGE.encode())
    assert root.findtext("head/title").startswith("Harbour reopens")
    assert root.find("body") is not None
    assert PARAGRAPH in [block.text for block in extract(PAGE).blocks]


def test_a_closed_title_is_left_as_it_is():
    page = f"<html><head><title>A title</title></head><body><p>{PARAGRAPH}</p></body></html>"
    assert parse(page).findtext("head/title") == "A title"
