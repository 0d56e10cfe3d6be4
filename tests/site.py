"""A small site for crawl tests, served by a real ``twisted.web`` server on 127.0.0.1.

Each page pairs boilerplate (menu, cookie notice, newsletter box, related links, footer)
with article paragraphs; ``ARTICLE_EN_SENTENCE`` and friends are sentences of
those paragraphs and ``BOILERPLATE`` strings of the boilerplate, so tests can
check what was kept without copying any output of the code under test.
"""

from twisted.web.resource import Resource
from twisted.web.server import Site


class Data(Resource):
    """Fixed bytes with a content type (``twisted.web.static`` warns on import)."""

    isLeaf = True

    def __init__(self, body: bytes, content_type: str, headers=None) -> None:
        super().__init__()
        self.body = body
        self.headers = {"Content-Type": content_type, **(headers or {})}

    def render_GET(self, request):
        for name, value in self.headers.items():
            request.setHeader(name, value)
        return self.body


class NotFound(Data):
    """A 404 (Twisted's own ``NoResource`` is deprecated, its successor too new)."""

    def __init__(self) -> None:
        super().__init__(b"not found", "text/plain")

    def render_GET(self, request):
        request.setResponseCode(404)
        return super().render_GET(request)


class Root(Resource):
    """The site's root: a page it does not have is a 404 (robots.txt, say)."""

    def getChild(self, path, request):
        return NotFound()


ARTICLE_EN_SENTENCE = "The harbour authority said on Tuesday that the new ferry terminal"
ARTICLE_DE_SENTENCE = "Die Stadtverwaltung hat am Dienstag mitgeteilt, dass die neue Brücke"
BOILERPLATE = (
    "We use cookies to improve your experience",
    "Subscribe to our newsletter",
    "Copyright 2024 The Harbour Times",
)

_CHROME_TOP = """
<div id="cookie">We use cookies to improve your experience. <a href="/privacy">Accept all</a></div>
<ul class="menu"><li><a href="/">Home</a></li><li><a href="/world">World</a></li>
<li><a href="/sport">Sport</a></li><li><a href="/culture">Culture</a></li></ul>
<div class="newsletter-signup"><p>Subscribe to our newsletter and win a cruise!</p>
<form action="/subscribe"><input type="email" name="email"><button>Sign up</button></form></div>
"""
_CHROME_BOTTOM = """
<div class="related"><h3>Related</h3><ul><li><a href="/a1">Port strike ends</a></li>
<li><a href="/a2">New bridge opens</a></li>
<li><a href="/a3">Weather warning for the coast</a></li></ul></div>
<div class="footer">Copyright 2024 The Harbour Times.
<a href="/imprint">Imprint</a> | <a href="/contact">Contact</a></div>
"""

ARTICLE_EN = f"""<!DOCTYPE html><html lang="en"><head><meta charset="utf-8">
<title>New ferry terminal opens</title></head><body>{_CHROME_TOP}
<h1>New ferry terminal opens next spring</h1>
<p>{ARTICLE_EN_SENTENCE} will open to passengers next spring, two years later than
planned, after the builders had to replace most of the foundations that were damaged
in the winter storms of the last year.</p>
<p>According to the city council, the terminal will handle up to four thousand
passengers a day, and the old pier will be turned into a public park with a small
market where local fishermen can sell their catch directly to the people who live here.</p>
<p>Residents who were asked about the plans were mostly happy with them, although some of
them said that they are worried about the traffic that the new terminal will bring into
the narrow streets of the old town during the busy summer months.</p>
{_CHROME_BOTTOM}</body></html>""".encode()

ARTICLE_DE = f"""<!DOCTYPE html><html lang="de"><head><meta charset="utf-8">
<title>Neue Brücke</title></head><body>{_CHROME_TOP}
<h1>Neue Brücke wird im Sommer eröffnet</h1>
<p>{ARTICLE_DE_SENTENCE} über den Fluss im Sommer für den Verkehr freigegeben wird. Die
Bauarbeiten hatten sich wegen des Hochwassers im vergangenen Frühjahr um mehrere Monate
verzögert, und die Kosten sind deutlich gestiegen.</p>
<p>Nach Angaben der Stadt sollen täglich bis zu zwanzigtausend Fahrzeuge über die Brücke
fahren. Für Radfahrer und Fußgänger gibt es auf beiden Seiten einen breiten Weg, der mit
dem Netz der Radwege in der Innenstadt verbunden wird.</p>
{_CHROME_BOTTOM}</body></html>""".encode()

PNG = b"\x89PNG\r\n\x1a\n" + b"\0" * 64
JSON = b'{"text": "not a web page", "html": false}'


def build_site() -> Resource:
    root = Root()
    pages = {
        b"article-en": Data(ARTICLE_EN, "text/html; charset=utf-8"),
        b"article-de": Data(ARTICLE_DE, "text/html; charset=utf-8"),
        b"image.png": Data(PNG, "image/png"),
        b"data.json": Data(JSON, "application/json"),
    }
    for name, resource in pages.items():
        root.putChild(name, resource)
    return root


class Server:
    """A ``twisted.web`` server on 127.0.0.1 with an ephemeral port."""

    def __init__(self, root: Resource) -> None:
        from twisted.internet import reactor

        self.root = root
        self.port = reactor.listenTCP(0, Site(root), interface="127.0.0.1")

    def url(self, path: str) -> str:
        return f"http://127.0.0.1:{self.port.getHost().port}/{path.lstrip('/')}"
