"""Parsing never fetches anything, and nothing in the package evaluates page content."""

import ast
import threading
from http.server import BaseHTTPRequestHandler, HTTPServer
from pathlib import Path

import pytest

import scrapy_declutter
from scrapy_declutter import extract


class Recorder(BaseHTTPRequestHandler):
    requests: list[str] = []

    def do_GET(self):
        Recorder.requests.append(self.path)
        body = b'<!ENTITY e "FETCHED">' if "dtd" in self.path or "ent" in self.path else b"FETCHED"
        self.send_response(200)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args):
        pass


@pytest.fixture
def recording_server():
    server = HTTPServer(("127.0.0.1", 0), Recorder)
    Recorder.requests = []
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_address[1]}"
    server.shutdown()
    server.server_close()


def test_external_dtd_entities_and_xinclude_are_not_fetched(recording_server, tmp_path):
    url = recording_server
    secret = tmp_path / "secret.txt"
    secret.write_text("LOCAL FILE CONTENT")
    pages = [
        f'<!DOCTYPE html SYSTEM "{url}/dtd"><html><body><p>dtd &e;</p></body></html>',
        f'<!DOCTYPE html PUBLIC "-//X//DTD X//EN" "{url}/public.dtd"><p>public</p>',
        f'<!DOCTYPE html [<!ENTITY % p SYSTEM "{url}/param.ent"> %p; '
        f'<!ENTITY ext SYSTEM "{url}/ent"><!ENTITY file SYSTEM "{secret.as_uri()}">]>'
        "<html><body><p>entities &ext; &file;</p></body></html>",
        f'<?xml version="1.0"?><?xml-stylesheet href="{url}/style.xsl" type="text/xsl"?>'
        f'<html xmlns:xi="http://www.w3.org/2001/XInclude"><body><p>xinclude</p>'
        f'<xi:include href="{url}/xi"/><xi:include href="{secret.as_uri()}" parse="text"/>'
        "</body></html>",
        f'<html><head><link rel="stylesheet" href="{url}/css"><script src="{url}/js"></script>'
        f'<meta http-equiv="refresh" content="0; url={url}/refresh"><base href="{url}/"></head>'
        f'<body><img src="{url}/img"><iframe src="{url}/frame"></iframe><object data="{url}/obj">'
        f'</object><p style="background: url({url}/bg)">resources</p></body></html>',
    ]
    for html in pages:
        for data in (html, html.encode()):
            for pipeline in ("declutter", "justext+tree", "boilerpipe-default", "density"):
                text = " ".join(b.text for b in extract(data, pipeline=pipeline).blocks)
                assert "FETCHED" not in text and "LOCAL FILE CONTENT" not in text
    assert Recorder.requests == []


def test_entities_from_a_dtd_stay_unexpanded():
    html = (
        '<!DOCTYPE x [<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;">'
        '<!ENTITY c "&b;&b;&b;&b;&b;&b;&b;&b;&b;&b;">]><p>&c;&c;&c;&c;</p>'
    )
    assert [b.text for b in extract(html).blocks][-1] == "&c;&c;&c;&c;"


def _calls(tree: ast.AST):
    """Each call as ``name`` or ``object.attribute``."""
    for node in ast.walk(tree):
        if isinstance(node, ast.Call):
            func = node.func
            if isinstance(func, ast.Name):
                yield func.id
            elif isinstance(func, ast.Attribute):
                owner = func.value.id if isinstance(func.value, ast.Name) else ""
                yield f"{owner}.{func.attr}"


def test_nothing_in_the_package_evaluates_or_fetches():
    forbidden = {
        "eval",
        "exec",
        "compile",
        "__import__",
        "breakpoint",
        "pickle.loads",
        "pickle.load",
        "marshal.loads",
        "etree.XSLT",
        "etree.XMLParser",
        "etree.XML",
        "etree.parse",
        "urlopen",
        "request.urlopen",
        "subprocess.run",
        "os.system",
    }
    package = Path(scrapy_declutter.__file__).parent
    found = {}
    for path in package.rglob("*.py"):
        calls = {
            call
            for call in _calls(ast.parse(path.read_text(encoding="utf-8")))
            if call in forbidden or call.endswith((".xinclude", ".xslt"))
        }
        if calls:
            found[path.name] = calls
    assert found == {}
