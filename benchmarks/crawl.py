"""Crawl benchmark: pages per second and memory with declutter off and on.

Serves the wcxb-dev pages from a local ``twisted.web`` server (its own
process), repeated under different URLs (``/page/<n>`` is page ``n % len``) to
reach ``--pages``, and crawls them once per mode in a fresh process:

* ``off``: no declutter (the baseline);
* ``threads``: the add-on with ``DECLUTTER_WORKERS = 0`` (one background thread);
* ``processes:N``: the add-on with ``DECLUTTER_WORKERS = N``.

Every mode reports pages/s (pages / crawl seconds, from Scrapy's stats), its
share of the baseline, and the resident memory of the crawl (its process plus
worker processes) after each tenth of the pages, so a leak shows as a climb.
``--latency`` delays every response on the server, as a real site does.

    python -m benchmarks.crawl [CORPUS] --pages 10000 --latency 0.1

CORPUS defaults to ``<repo>/../shared/corpora/wcxb-dev`` (its ``html/*.html.gz``).
"""

import argparse
import gzip
import json
import multiprocessing
import os
import subprocess
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
DEFAULT_CORPUS = REPO.parent / "shared" / "corpora" / "wcxb-dev"


# -- the server (a child process) ---------------------------------------------


def serve(corpus: str, latency: float, port_queue) -> None:
    from twisted.internet import reactor
    from twisted.web.resource import Resource
    from twisted.web.server import NOT_DONE_YET, Site

    pages = [
        gzip.decompress(p.read_bytes()) for p in sorted(Path(corpus, "html").glob("*.html.gz"))
    ]

    class Pages(Resource):
        isLeaf = True

        def render_GET(self, request):
            try:
                body = pages[int(request.postpath[-1]) % len(pages)]
            except (ValueError, IndexError):
                request.setResponseCode(404)
                return b""
            request.setHeader("Content-Type", "text/html")
            if not latency:
                return body

            def finish():
                request.write(body)
                request.finish()

            reactor.callLater(latency, finish)
            return NOT_DONE_YET

    port = reactor.listenTCP(0, Site(Pages()), interface="127.0.0.1", backlog=1024)
    port_queue.put((port.getHost().port, len(pages)))
    reactor.run(installSignalHandlers=False)  # terminate() ends it, no shutdown to log


# -- one crawl (a child process) ----------------------------------------------


def rss_mb(pids) -> float:
    total = 0
    for pid in pids:
        try:
            with open(f"/proc/{pid}/status") as status:
                for line in status:
                    if line.startswith("VmRSS:"):
                        total += int(line.split()[1])
        except OSError:
            pass
    return total / 1024


def run_crawl(base_url: str, pages: int, mode: str, concurrency: int) -> dict:
    import scrapy
    from scrapy import signals
    from scrapy.crawler import CrawlerProcess

    samples = []
    every = max(pages // 10, 1)

    class Bench(scrapy.Spider):
        name = "bench"

        async def start(self):
            for n in range(pages):
                yield scrapy.Request(f"{base_url}/page/{n}", dont_filter=True)

        def parse(self, response):
            yield {"url": response.url}

    def scraped(item, response, spider):
        count = spider.crawler.stats.get_value("item_scraped_count", 0) + 1
        if count % every == 0:
            pids = [os.getpid()] + [p.pid for p in multiprocessing.active_children()]
            samples.append((count, round(rss_mb(pids), 1)))

    settings = {
        "LOG_LEVEL": "ERROR",
        "TELNETCONSOLE_ENABLED": False,
        "ROBOTSTXT_OBEY": False,
        "CONCURRENT_REQUESTS": concurrency,
        "CONCURRENT_REQUESTS_PER_DOMAIN": concurrency,
        "COOKIES_ENABLED": False,
    }
    if mode != "off":
        settings["ADDONS"] = {"scrapy_declutter.Addon": 100}
        settings["DECLUTTER_WORKERS"] = 0 if mode == "threads" else int(mode.split(":")[1])
    process = CrawlerProcess(settings)
    crawler = process.create_crawler(Bench)
    crawler.signals.connect(scraped, signal=signals.item_scraped)
    process.crawl(crawler)
    process.start()
    stats = crawler.stats.get_stats()
    seconds = stats["elapsed_time_seconds"]
    return {
        "mode": mode,
        "pages": stats.get("item_scraped_count", 0),
        "seconds": round(seconds, 2),
        "pages_per_second": round(stats.get("item_scraped_count", 0) / seconds, 1),
        "decluttered": stats.get("declutter/pages", 0),
        "errors": stats.get("declutter/errors", 0),
        "extraction_seconds": round(stats.get("declutter/seconds", 0.0), 1),
        "rss_mb": samples,
    }


# -- the driver ---------------------------------------------------------------


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("corpus", nargs="?", default=str(DEFAULT_CORPUS))
    parser.add_argument("--pages", type=int, default=10_000)
    parser.add_argument(
        "--latency", type=float, default=0.0, help="server delay per response, seconds"
    )
    parser.add_argument("--concurrency", type=int, default=16)
    parser.add_argument("--modes", default="off,threads,processes:2")
    parser.add_argument("--run", help=argparse.SUPPRESS)  # internal: one crawl
    parser.add_argument("--url", help=argparse.SUPPRESS)
    args = parser.parse_args()

    if args.run:
        print(json.dumps(run_crawl(args.url, args.pages, args.run, args.concurrency)))
        return

    if not Path(args.corpus, "html").is_dir():
        sys.exit(f"no corpus at {args.corpus} (expected its html/*.html.gz)")
    queue = multiprocessing.get_context("spawn").Queue()
    server = multiprocessing.get_context("spawn").Process(
        target=serve, args=(args.corpus, args.latency, queue), daemon=True
    )
    server.start()
    port, distinct = queue.get(timeout=120)
    url = f"http://127.0.0.1:{port}"
    print(
        f"{distinct} distinct pages, {args.pages} pages per crawl, latency {args.latency} s, "
        f"concurrency {args.concurrency}, {os.cpu_count()} CPUs",
        flush=True,
    )
    env = {
        **os.environ,
        "PYTHONPATH": os.pathsep.join(filter(None, [str(REPO), os.environ.get("PYTHONPATH")])),
    }
    results = []
    try:
        for mode in args.modes.split(","):
            started = time.perf_counter()
            out = subprocess.run(
                [
                    sys.executable,
                    "-m",
                    "benchmarks.crawl",
                    "--run",
                    mode,
                    "--url",
                    url,
                    "--pages",
                    str(args.pages),
                    "--concurrency",
                    str(args.concurrency),
                ],
                env=env,
                check=True,
                capture_output=True,
                text=True,
            ).stdout
            result = json.loads(out.strip().splitlines()[-1])
            results.append(result)
            base = results[0]["pages_per_second"]
            print(
                json.dumps(
                    {
                        **result,
                        "share_of_first": round(result["pages_per_second"] / base, 2),
                        "wall": round(time.perf_counter() - started, 1),
                    }
                ),
                flush=True,
            )
    finally:
        server.terminate()


if __name__ == "__main__":
    main()
