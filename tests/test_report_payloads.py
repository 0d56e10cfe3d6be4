"""The report's page view runs nothing and loads nothing, without its CSP or sandbox.

For every payload of ``report_payloads.py``: the page view of its page's
report, as lxml and as Python's own HTML tokenizer read it, has no element,
attribute, URL or comment that could run or load anything (no browser); and
in headless Chromium, served from 127.0.0.1 with the policy and the sandbox
taken off, no payload reaches the server, while the raw pages' payloads do
(the browser test skips without a ``chromium`` on PATH). Fuzzed pages (tag
soup with payloads spliced in, mutated pages) get a report within its size
limit whose page view passes the same check.
"""

import re
import shutil
import subprocess
import tempfile
import threading
from html.parser import HTMLParser
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import lxml.html
import pytest
from hypothesis import example, given
from hypothesis import strategies as st

from scrapy_declutter import DeclutterError, extract
from scrapy_declutter.outputs.report import render_report, size_limit
from tests.report_payloads import ARTICLE, FIRES_UNCLICKED, PAYLOADS, hit_path, page
from tests.test_fuzz import FUZZ, mutated_page, tag_soup

# What may run or load: elements, attributes (and any on* handler), URL schemes.
FORBIDDEN_TAGS = {
    *"script iframe frame frameset object embed applet base link portal svg math".split(),
    *"noscript template image animate set use video audio source picture form".split(),
}
FORBIDDEN_ATTRIBUTES = {
    *"src srcset srcdoc href xlink:href action formaction data poster background ping".split(),
    *"values to from by attributename http-equiv content".split(),
}
# Attributes whose value a browser reads as text or a token, never as a URL
# to load: a payload's path in them is text ("<input type='url(/hit/...)'>").
TEXT_ATTRIBUTES = frozenset(
    "title alt value type placeholder label class id lang dir abbr datetime role".split()
)
SCHEMES = re.compile(r"(java|vb)script:|data:", re.IGNORECASE)
CSS_LOADS = re.compile(r"url|image-set|@import|expression|\\", re.IGNORECASE)
# The policy the page view adds on top, taken off for the browser test.
POLICY = re.compile(r'<meta http-equiv="Content-Security-Policy"[^>]*>')


def page_view(html: str) -> str:
    """The page view's document, as the report's ``srcdoc`` holds it."""
    report = lxml.html.fromstring(render_report(extract(html)))
    (frame,) = report.xpath("//iframe[@srcdoc]")
    return frame.get("srcdoc")


class Tokens(HTMLParser):
    """The start tags, attributes and comments a browser's tokenizer sees."""

    def __init__(self, html: str):
        super().__init__(convert_charrefs=True)
        self.tags: list[tuple[str, list[tuple[str, str | None]]]] = []
        self.comments: list[str] = []
        self.feed(html)
        self.close()

    def handle_starttag(self, tag, attrs):
        self.tags.append((tag, attrs))

    def handle_startendtag(self, tag, attrs):
        self.tags.append((tag, attrs))

    def handle_comment(self, data):
        self.comments.append(data)

    def unknown_decl(self, data):
        self.comments.append(data)

    def handle_pi(self, data):
        self.comments.append(data)


def forbidden(tag: str, name: str, value: str | None) -> bool:
    """Whether an attribute could run or load something."""
    value = re.sub(r"[\x00-\x20]", "", value or "")
    return (
        name.startswith("on")
        or name in FORBIDDEN_ATTRIBUTES
        or bool(SCHEMES.search(value))
        or ("/hit" in value and name not in TEXT_ATTRIBUTES)
        or (name == "style" and bool(CSS_LOADS.search(value)))
    )


def test_every_payload_has_its_own_hit_path():
    assert len({hit_path(name) for name in PAYLOADS}) == len(PAYLOADS) >= 42


@pytest.mark.parametrize("name", sorted(PAYLOADS))
def test_the_page_view_keeps_nothing_that_runs_or_loads(name):
    view = page_view(page(name))
    ours = {("meta", (("charset", "utf-8"),))}  # the policy's meta, checked apart
    tokens = Tokens(POLICY.sub("", view))
    assert tokens.comments == []
    for tag, attrs in tokens.tags:
        if (tag, tuple(attrs)) in ours:
            continue
        assert tag not in FORBIDDEN_TAGS and tag != "meta", tag
        assert [a for a, value in attrs if forbidden(tag, a, value)] == [], tag
    tree = lxml.html.fromstring(view)
    for element in tree.iter():
        assert isinstance(element.tag, str), element  # no comment, no PI
        if element.tag == "style":
            assert not CSS_LOADS.search(element.text or "") and "/hit" not in (element.text or "")
    assert ARTICLE in " ".join(tree.text_content().split())  # the page is still there


# -- in a browser ------------------------------------------------------------------

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")


class Served:
    """Pages on 127.0.0.1, and every path asked for."""

    def __init__(self, pages: dict[str, str]):
        self.pages, self.asked = pages, []
        served = self

        class Handler(BaseHTTPRequestHandler):
            def do_GET(self):
                served.asked.append(self.path)
                body = served.pages.get(self.path)
                self.send_response(404 if body is None else 200)
                self.send_header("Content-Type", "text/html; charset=utf-8")
                self.end_headers()
                self.wfile.write((body or "").encode())

            def log_message(self, *args):
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.origin = f"http://127.0.0.1:{self.server.server_port}"
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)

    def __enter__(self):
        self.thread.start()
        return self

    def __exit__(self, *exc):
        self.server.shutdown()
        self.server.server_close()


def load_in_chromium(url: str) -> None:
    """Load ``url`` in headless Chromium, with time for every load and script."""
    with tempfile.TemporaryDirectory() as profile:
        subprocess.run(
            [
                CHROMIUM,
                "--headless",
                "--no-sandbox",
                "--disable-gpu",
                "--disable-quic",
                "--disable-background-networking",
                "--disable-component-update",
                "--disable-sync",
                "--no-first-run",
                f"--user-data-dir={profile}",
                "--virtual-time-budget=10000",
                "--dump-dom",
                url,
            ],
            check=True,
            capture_output=True,
            timeout=120,
        )


def hits(pages, names: list[str]) -> tuple[set[str], list[str]]:
    """Serve ``pages(origin)`` (path: document) and a page framing them all, load
    it; the payloads that reached the server, and every other path asked for."""
    with Served({}) as served:
        served.pages.update(pages(served.origin))
        frames = "".join(f'<iframe src="{path}"></iframe>' for path in served.pages)
        served.pages["/"] = f"<!DOCTYPE html><html><body>{frames}</body></html>"
        load_in_chromium(served.origin + "/")
        asked = list(served.asked)
    reached = {name for name in names if any(p.startswith(hit_path(name)) for p in asked)}
    return reached, [p for p in asked if p not in served.pages and not p.startswith("/hit/")]


def raw_pages(origin: str) -> dict[str, str]:
    return {f"/raw/{i}": page(name, origin) for i, name in enumerate(sorted(PAYLOADS))}


def page_views(origin: str) -> dict[str, str]:
    """The page views of the payloads' pages, without the policy."""
    return {
        f"/view/{i}": POLICY.sub("", page_view(page(name, origin)))
        for i, name in enumerate(sorted(PAYLOADS))
    }


@pytest.mark.skipif(CHROMIUM is None, reason="no chromium on PATH")
def test_no_payload_runs_or_loads_in_chromium_without_the_policy_and_the_sandbox():
    names = sorted(PAYLOADS)
    # the raw pages: the payloads fire, so the test can see them
    reached, _ = hits(raw_pages, names)
    assert reached >= FIRES_UNCLICKED, sorted(FIRES_UNCLICKED - reached)
    reached, others = hits(page_views, names)
    assert reached == set()
    assert set(others) <= {"/favicon.ico"}


# -- fuzzed -------------------------------------------------------------------------


def check_report(html) -> None:
    """The report of any page renders within its size limit, and its page view
    keeps nothing that runs or loads."""
    try:
        result = extract(html)
    except DeclutterError:
        return
    text = render_report(result)
    assert len(text) <= size_limit(result)
    report = lxml.html.fromstring(text)
    frames = report.xpath("//iframe[@srcdoc]")
    if not frames:
        return
    tokens = Tokens(POLICY.sub("", frames[0].get("srcdoc")))
    assert tokens.comments == []
    for tag, attrs in tokens.tags:
        assert tag not in FORBIDDEN_TAGS, tag
        assert [a for a, value in attrs if forbidden(tag, a, value)] == [], tag


@st.composite
def soup_with_payloads(draw):
    """Tag soup with payloads and references XML forbids spliced in."""
    parts = [draw(tag_soup())]
    for _ in range(draw(st.integers(0, 6))):
        name = draw(st.sampled_from(sorted(PAYLOADS)))
        payload = PAYLOADS[name].replace("{hit}", hit_path(name)).replace("{origin}", "")
        cut = draw(st.integers(0, len(payload)))  # whole, or cut short: unclosed markup
        parts.insert(draw(st.integers(0, len(parts))), payload[: max(cut, len(payload) // 2)])
        parts.append(draw(st.sampled_from(["&#1;", "&#xfffe;", "\x0c", "<p>" + ARTICLE])))
    return "".join(parts)


@FUZZ
@given(soup_with_payloads())
# Found by the fuzzer: a payload's path in an <input>'s type is text, not a URL.
@example(
    html='<form action="javascript:fetch(\'/hit/form-action\')"><input type="<style>@import '
    'url(/hit/st<![CDATA[><img src="x" onerr' + "<html>" * 15 + "<title><html></html>&#1;&#1;&#1;"
)
# Nor is a script's URL kept in one: no attribute the page view keeps needs one.
@example(html='<form><input type="java\tscript:alert(1)" value="data:,x"></form><p>Text.</p>')
def test_the_report_of_tag_soup_with_payloads(html):
    check_report(html)


@FUZZ
@given(mutated_page())
def test_the_report_of_mutated_pages(data):
    check_report(data)
