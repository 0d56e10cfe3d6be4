"""A generated news site and scrapy-redis workers, for the distributed-crawl
test (``test_distributed.py``) and ``benchmarks/redis_workers.py``.

The site has ``sections`` front pages (the start URLs), each with
``per_section`` teasers; every article links to three others in its
"related" box, so most articles are found several times, by both workers,
and only the shared duplicate filter keeps each to one crawl. A
``ThreadingHTTPServer`` on 127.0.0.1 serves it and counts every GET.

Workers are ``scrapy crawl news_redis`` in ``example_project`` with its
scrapy-redis profile (``SCRAPY_PROJECT=redis``), each in its own process.
"""

import collections
import http.server
import json
import os
import subprocess
import sys
import threading
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
SPIDER = "news_redis"
START_URLS_KEY = f"{SPIDER}:start_urls"
ITEMS_KEY = f"{SPIDER}:items"
BOILERPLATE = ("We use cookies", "Subscribe now", "All rights reserved", "Related stories")

_CHROME_TOP = """<div id="cookie-consent"><p>We use cookies to improve your experience and to show
you personalised adverts. <a href="/privacy">Privacy settings</a></p></div>
<nav class="main-menu"><ul><li><a href="/">Home</a></li><li><a href="/local">Local</a></li>
<li><a href="/business">Business</a></li><li><a href="/sport">Sport</a></li></ul></nav>
<div class="ad"><a href="/ads/7">Subscribe now: 3 months for just one pound!
Cancel any time.</a></div>"""
_FOOTER = """<footer><ul><li><a href="/imprint">Imprint</a></li>
<li><a href="/contact">Contact us</a></li></ul>
<p>© 2024 The Harbour Times Ltd. All rights reserved.</p></footer>"""
_PARAGRAPHS = (
    "The harbour authority said on Tuesday that the work on the quay would go on through the "
    "winter, and that the ferries would keep to their timetable while the builders were there.",
    "According to the city council, the new market hall will be open every day of the week, and "
    "the fishermen who have sold their catch on the pier for many years will get the best places.",
    "Residents who were asked about the plans were mostly happy with them, although some of them "
    "said that they were worried about the traffic in the narrow streets of the old town.",
)


def sentence(n: int) -> str:
    """A sentence only article ``n`` has, in its first paragraph."""
    return f"This is story number {n} of the Harbour Times, and it was written for the crawl test"


class Site:
    """The pages of the generated site, by path."""

    def __init__(self, sections: int = 10, per_section: int = 50, paragraphs: int = 3) -> None:
        self.sections = sections
        self.per_section = per_section
        self.paragraphs = paragraphs
        self.articles = sections * per_section

    def front_paths(self) -> list[str]:
        return [f"/section/{s}/" for s in range(self.sections)]

    def article_paths(self) -> list[str]:
        return [self.article_path(n) for n in range(self.articles)]

    def article_path(self, n: int) -> str:
        return f"/article/{n}.html"

    def related(self, n: int) -> list[int]:
        return sorted(
            {(n + 1) % self.articles, (n + 37) % self.articles, (7 * n + 3) % self.articles} - {n}
        )

    def page(self, path: str) -> bytes | None:
        parts = path.strip("/").split("/")
        try:
            if len(parts) == 2 and parts[0] == "section":
                return self.front(int(parts[1]))
            if len(parts) == 2 and parts[0] == "article" and parts[1].endswith(".html"):
                n = int(parts[1][:-5])
                if 0 <= n < self.articles:
                    return self.article(n)
        except ValueError:
            pass
        return None

    def front(self, s: int) -> bytes | None:
        if not 0 <= s < self.sections:
            return None
        teasers = "\n".join(
            f'<article class="teaser"><h2><a class="headline" href="{self.article_path(n)}">'
            f"Story {n}</a></h2><p>A short teaser for story {n}.</p></article>"
            for n in range(s * self.per_section, (s + 1) * self.per_section)
        )
        return (
            f'<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>Section {s}</title>'
            f"</head><body>{_CHROME_TOP}<main>{teasers}</main>{_FOOTER}</body></html>"
        ).encode()

    def article(self, n: int) -> bytes:
        body = [f"<p>{sentence(n)}. {_PARAGRAPHS[0]}</p>"]
        body += [f"<p>{_PARAGRAPHS[i % len(_PARAGRAPHS)]}</p>" for i in range(1, self.paragraphs)]
        related = "".join(
            f'<li><a href="{self.article_path(m)}">Story {m}</a></li>' for m in self.related(n)
        )
        return (
            f'<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>Story {n}</title>'
            f'</head><body>{_CHROME_TOP}<main><article class="story"><h1>Story {n}</h1>'
            f'{"".join(body)}</article><aside class="related"><h2>Related stories</h2><ul>'
            f"{related}</ul></aside></main>{_FOOTER}</body></html>"
        ).encode()


class SiteServer:
    """Serves a ``Site`` from a thread; ``hits`` counts the GETs of every path."""

    def __init__(self, site: Site, latency: float = 0.0) -> None:
        self.site = site
        self.latency = latency
        self.hits: collections.Counter[str] = collections.Counter()
        self._lock = threading.Lock()
        server = self

        class Handler(http.server.BaseHTTPRequestHandler):
            def do_GET(self):
                with server._lock:
                    server.hits[self.path] += 1
                body = server.site.page(self.path)
                if server.latency:
                    time.sleep(server.latency)
                try:
                    self.send_response(404 if body is None else 200)
                    self.send_header("Content-Type", "text/html; charset=utf-8")
                    self.send_header("Content-Length", str(len(body or b"")))
                    self.end_headers()
                    self.wfile.write(body or b"")
                except ConnectionError:  # a worker killed mid-request
                    pass

            def log_message(self, *args):
                pass

        self.httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.httpd.daemon_threads = True
        self.httpd.request_queue_size = 128
        self.thread = threading.Thread(target=self.httpd.serve_forever, daemon=True)

    def url(self, path: str) -> str:
        return f"http://127.0.0.1:{self.httpd.server_address[1]}{path}"

    def reset(self) -> None:
        with self._lock:
            self.hits.clear()

    def __enter__(self) -> "SiteServer":
        self.thread.start()
        return self

    def __exit__(self, *exc) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()
        self.thread.join(timeout=10)


def push_start_urls(client, urls) -> None:
    """Queue start URLs for the workers (JSON, as scrapy-redis prefers)."""
    if urls:
        client.rpush(START_URLS_KEY, *(json.dumps({"url": url}) for url in urls))


def items(client) -> list[dict]:
    return [json.loads(raw) for raw in client.lrange(ITEMS_KEY, 0, -1)]


def start_worker(redis_url: str, log: Path, settings: dict | None = None) -> subprocess.Popen:
    """One ``scrapy crawl news_redis`` worker process; output goes to ``log``."""
    command = [sys.executable, "-m", "scrapy", "crawl", SPIDER, "-s", f"REDIS_URL={redis_url}"]
    for name, value in (settings or {}).items():
        command += ["-s", f"{name}={value}"]
    env = {**os.environ, "PYTHONPATH": str(REPO), "SCRAPY_PROJECT": "redis"}
    env.pop("SCRAPY_SETTINGS_MODULE", None)
    with open(log, "wb") as out:
        return subprocess.Popen(
            command,
            cwd=REPO / "example_project",
            env=env,
            stdin=subprocess.DEVNULL,
            stdout=out,
            stderr=subprocess.STDOUT,
        )


def wait(process: subprocess.Popen, timeout: float) -> int:
    """The worker's exit code; killed (and the test failed) after ``timeout``."""
    try:
        return process.wait(timeout=timeout)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait(timeout=10)
        raise AssertionError(f"worker still running after {timeout} s") from None


def wait_for(predicate, timeout: float, interval: float = 0.05) -> bool:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if predicate():
            return True
        time.sleep(interval)
    return predicate()
