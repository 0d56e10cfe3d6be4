import codecs

from scrapy_declutter import extract
from scrapy_declutter.core.parse import decode

TEXT = "Caf\u00e9 cr\u00e8me br\u00fbl\u00e9e \u2014 \u201cquoted\u201d"


def html(charset_meta: str = "") -> str:
    return f"<html><head>{charset_meta}</head><body><p>{TEXT}</p></body></html>"


def test_str_is_used_as_is():
    assert decode(html().encode()) == html()
    assert extract(html()).blocks[0].text == TEXT


def test_bom_wins_over_everything():
    data = codecs.BOM_UTF8 + html('<meta charset="iso-8859-1">').encode("utf-8")
    assert TEXT in decode(data, encoding="cp1251")


def test_utf16_with_bom():
    data = html().encode("utf-16")
    assert data[:2] in (codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)
    assert extract(data).blocks[0].text == TEXT


def test_encoding_argument_wins_over_meta():
    data = html('<meta charset="utf-8">').encode("cp1252")
    assert TEXT in decode(data, encoding="cp1252")


def test_utf8_bytes_are_utf8_whatever_the_page_declares():
    # a page saved or served as UTF-8 with a stale legacy declaration
    assert TEXT in decode(html('<meta charset="windows-1252">').encode("utf-8"))
    meta = '<meta http-equiv="Content-Type" content="text/html; charset=ISO-8859-1">'
    assert extract(html(meta).encode("utf-8")).blocks[0].text == TEXT


def test_the_callers_encoding_is_honoured_on_utf8_bytes():
    # the caller's word (in a crawl, the HTTP header's) is final: "é" read as windows-1252
    assert "Caf\u00c3\u00a9" in decode(html().encode("utf-8"), encoding="cp1252")


def test_meta_charset_and_http_equiv():
    assert TEXT in decode(html('<meta charset="windows-1252">').encode("cp1252"))
    meta = '<meta http-equiv="Content-Type" content="text/html; charset=ISO-8859-15">'
    assert "Caf\u00e9" in decode(html(meta).replace(TEXT, "Caf\u00e9").encode("iso-8859-15"))


def test_undeclared_legacy_bytes_fall_back_to_windows_1252():
    assert TEXT in decode(html().encode("cp1252"))


def test_undeclared_utf8():
    assert TEXT in decode(html().encode("utf-8"))


def test_invalid_bytes_are_replaced_not_fatal():
    data = (
        html('<meta charset="utf-8">')
        .encode()
        .replace(b"</body>", b"<p>bad \xff\xfe bytes</p></body>")
    )
    result = extract(data)
    assert [b.text for b in result.blocks] == [TEXT, "bad \ufffd\ufffd bytes"]


def test_unknown_declared_encoding_is_not_fatal():
    data = html('<meta charset="no-such-charset">').encode()
    assert TEXT in decode(data)


ARTICLE = " ".join(
    f"Paragraph {n} of the article tells the reader about the harbour, its boats and the"
    " people who work there every day of the year."
    for n in range(6)
)


def test_a_page_left_in_the_head_by_an_unknown_tag_is_read():
    # libxml2 keeps an unknown element met in <head> there, with the rest of
    # the page inside it and no <body>; a browser ends the head at it.
    page = (
        "<html><head><title>Harbour</title><meta charset='utf-8'>"
        f"<cms:include name='top'><div><p>{ARTICLE}</p></div></cms:include></head></html>"
    )
    result = extract(page)
    assert "Paragraph 5 of the article" in result.text
    assert result.title == "Harbour"


def test_the_head_moved_into_an_existing_body_comes_first():
    page = (
        "<html><head><title>Harbour</title><cms:box><p>First words of the page.</p></cms:box>"
        f"</head><body><p>{ARTICLE}</p></body></html>"
    )
    body = extract(page, pipeline="justext").root.find("body")
    texts = [" ".join(p.itertext()) for p in body.iter("p")]
    assert texts[0] == "First words of the page."
    assert texts[1].startswith("Paragraph 0")


def test_empty_unknown_elements_stay_in_the_head():
    page = (
        "<html><head><atom:link rel='hub' href='/hub'/><title>T</title></head>"
        f"<body><p>{ARTICLE}</p></body></html>"
    )
    head = extract(page).root.find("head")
    assert [child.tag for child in head] == ["atom:link", "title"]
