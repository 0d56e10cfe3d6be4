"""Crawl benchmark: items per second, CPU and memory with declutter off, eager and lazy.

Serves the wcxb-dev pages from a local ``twisted.web`` server (its own
process) under different URLs (``/page/<n>`` is page ``n % len``), in sites
shaped like real crawls (``--sites``):

* ``articles``: every page an item (the start URLs are the articles);
* ``index1``: one index page per article (``/index/0/<n>``, another corpus
  page with a link appended), which links to the article;
* ``index4``: four index pages per article, each linking to the next, the
  last to the article (pagination, categories, tags).

The spider follows an index page's link (read with a CSS selector) and
yields one item per article. ``--pages`` is the number of articles. Each
site is crawled once per mode (``--modes``), each in a fresh process:

* ``off``: no declutter (the baseline);
* ``eager:threads``, ``lazy:threads``: the add-on with ``DECLUTTER_EAGER``
  True or False and ``DECLUTTER_WORKERS = 0``;
* ``eager:processes:N``, ``lazy:processes:N``: the same with ``DECLUTTER_WORKERS = N``.

Every crawl reports items per second (items / crawl seconds, from Scrapy's
stats) and its share of the first mode's, the CPU seconds per item (the
crawl process's and its worker processes', from the spider's opening to the
end), the pages decluttered against the items filled, and the peak resident
memory (the crawl process plus its workers, sampled every 0.2 s).
``--latency`` delays every response on the server, as a real site does;
``--repeat`` crawls the modes again, in turn (a shared machine's load
varies), and each site ends with lazy's CPU seconds per item and items per
second over eager's, the medians of the repeats.

    python -m benchmarks.crawl [CORPUS] --pages 300 --sites articles,index1,index4 --repeat 2

CORPUS defaults to ``<repo>/../shared/corpora/wcxb-dev`` (its ``html/*.html.gz``).
"""

import argparse
import gzip
import json
import multiprocessing
import os
import resource
import subprocess
import sys
import time
from pathlib import Path
from statistics import median

from benchmarks.corpus import SAVE_HELP, save_output

REPO = Path(__file__).resolve().parents[1]
DEFAULT_CORPUS = REPO.parent / "shared" / "corpora" / "wcxb-dev"
SITES = {"articles": 0, "index1": 1, "index4": 4}  # index pages per article
DEFAULT_MODES = "off,eager:threads,lazy:threads,eager:processes:2,lazy:processes:2"


# -- the server (a child process) ---------------------------------------------


def serve(corpus: str, latency: float, per_article: int, port_queue) -> None:
    from twisted.internet import reactor
    from twisted.web.resource import Resource
    from twisted.web.server import NOT_DONE_YET, Site

    pages = [
        gzip.decompress(p.read_bytes()) for p in sorted(Path(corpus, "html").glob("*.html.gz"))
    ]

    def body_for(path: list[bytes], host: str) -> bytes:
        """``/page/<n>``: page n; ``/index/<k>/<n>``: another page, linking to
        index page k + 1 of article n, or to the article after the last (the
        link first in its body)."""
        if len(path) == 2 and path[0] == b"page":
            return pages[int(path[1]) % len(pages)]
        if len(path) == 3 and path[0] == b"index":
            k, n = int(path[1]), int(path[2])
            # an absolute URL: some pages have a <base href> elsewhere
            target = f"/index/{k + 1}/{n}" if k + 1 < per_article else f"/page/{n}"
            target = f"http://{host}{target}"
            link = f'<p><a class="bench-next" href="{target}">Next</a></p>'.encode()
            page = pages[(n + 1 + k) % len(pages)]
            start = page.lower().find(b"<body")
            at = page.find(b">", start) + 1 if start >= 0 else 0  # the body's first child
            return page[:at] + link + page[at:]
        raise ValueError(path)

    class Pages(Resource):
        isLeaf = True

        def render_GET(self, request):
            try:
                body = body_for(request.postpath, request.getHeader("host"))
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


def cpu_seconds() -> float:
    """This process's CPU seconds and its ended children's (the worker processes)."""
    own, children = (
        resource.getrusage(resource.RUSAGE_SELF),
        resource.getrusage(resource.RUSAGE_CHILDREN),
    )
    return own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime


def run_crawl(base_url: str, pages: int, mode: str, per_article: int, concurrency: int) -> dict:
    import scrapy
    from scrapy import signals
    from scrapy.crawler import CrawlerProcess

    peak = [0.0]
    cpu_at_open = [0.0]

    def sample():
        pids = [os.getpid()] + [p.pid for p in multiprocessing.active_children()]
        peak[0] = max(peak[0], rss_mb(pids))

    class Bench(scrapy.Spider):
        name = "bench"

        async def start(self):
            for n in range(pages):
                path = f"index/0/{n}" if per_article else f"page/{n}"
                yield scrapy.Request(f"{base_url}/{path}", dont_filter=True)

        def parse(self, response):
            if "/index/" in response.url:
                href = response.css("a.bench-next::attr(href)").get()
                if href:
                    yield response.follow(href, dont_filter=True)
            else:
                yield {"url": response.url}

    samplers = []

    def opened():
        from twisted.internet import task  # once the crawl has installed its reactor

        cpu_at_open[0] = cpu_seconds()
        samplers.append(task.LoopingCall(sample))
        samplers[0].start(0.2)

    settings = {
        "LOG_LEVEL": "ERROR",
        "TELNETCONSOLE_ENABLED": False,
        "ROBOTSTXT_OBEY": False,
        "CONCURRENT_REQUESTS": concurrency,
        "CONCURRENT_REQUESTS_PER_DOMAIN": concurrency,
        "COOKIES_ENABLED": False,
    }
    if mode != "off":
        laziness, _, workers = mode.partition(":")
        settings["ADDONS"] = {"scrapy_declutter.Addon": 100}
        settings["DECLUTTER_EAGER"] = laziness == "eager"
        settings["DECLUTTER_WORKERS"] = 0 if workers == "threads" else int(workers.split(":")[1])
    process = CrawlerProcess(settings)
    crawler = process.create_crawler(Bench)
    crawler.signals.connect(opened, signal=signals.spider_opened)
    process.crawl(crawler)
    process.start()
    for sampler in samplers:
        if sampler.running:
            sampler.stop()
    for child in multiprocessing.active_children():  # the workers, ending: counted once reaped
        child.join(10)
    cpu = cpu_seconds() - cpu_at_open[0]
    stats = crawler.stats.get_stats()
    seconds = stats["elapsed_time_seconds"]
    items = stats.get("item_scraped_count", 0)
    return {
        "mode": mode,
        "items": items,
        "responses": stats.get("response_received_count", 0),
        "seconds": round(seconds, 2),
        "items_per_second": round(items / seconds, 1),
        "cpu_s_per_item": round(cpu / max(items, 1), 4),
        "decluttered": stats.get("declutter/pages", 0),
        "filled": stats.get("declutter/items", 0),
        "errors": stats.get("declutter/errors", 0),
        "peak_rss_mb": round(peak[0], 1),
    }


# -- the driver ---------------------------------------------------------------

HEADER = (
    f"{'site':<9}{'mode':<19}{'items':>6}{'items/s':>9}{'share':>7}{'CPU s/item':>12}"
    f"{'decluttered':>12}{'filled':>8}{'peak MB':>9}{'wall s':>8}"
)


def row(site: str, result: dict, share: float, wall: float) -> str:
    """One crawl's line under ``HEADER`` (share: of the first mode's items per second)."""
    return (
        f"{site:<9}{result['mode']:<19}{result['items']:>6}{result['items_per_second']:>9.1f}"
        f"{share:>7.2f}{result['cpu_s_per_item']:>12.4f}{result['decluttered']:>12}"
        f"{result['filled']:>8}{result['peak_rss_mb']:>9.0f}{wall:>8.1f}"
    )


def cpu_ratios(site: str, results: list[dict]) -> list[str]:
    """For each worker kind crawled both ways: lazy's CPU seconds per item over
    eager's, and items per second (the medians of the repeats)."""
    cpu, speed = {}, {}
    for result in results:
        cpu.setdefault(result["mode"], []).append(result["cpu_s_per_item"])
        speed.setdefault(result["mode"], []).append(result["items_per_second"])
    lines = []
    for mode in cpu:
        eager = f"eager:{mode[5:]}"
        if mode.startswith("lazy:") and eager in cpu:
            lines.append(
                f"{site}, {mode[5:]}: lazy over eager: CPU s per item "
                f"{median(cpu[mode]) / median(cpu[eager]):.2f}, "
                f"items per second {median(speed[mode]) / median(speed[eager]):.2f}"
            )
    return lines


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("corpus", nargs="?", default=str(DEFAULT_CORPUS))
    parser.add_argument("--pages", type=int, default=1_000, help="articles (items) per crawl")
    parser.add_argument(
        "--latency", type=float, default=0.0, help="server delay per response, seconds"
    )
    parser.add_argument("--concurrency", type=int, default=16)
    parser.add_argument("--sites", default="articles", help=f"of {', '.join(SITES)}")
    parser.add_argument("--modes", default=DEFAULT_MODES)
    parser.add_argument(
        "--repeat", type=int, default=1, help="crawl the modes this many times, in turn"
    )
    parser.add_argument("--save", type=Path, help=SAVE_HELP)
    parser.add_argument("--run", help=argparse.SUPPRESS)  # internal: one crawl
    parser.add_argument("--url", help=argparse.SUPPRESS)
    parser.add_argument("--per-article", type=int, default=0, help=argparse.SUPPRESS)
    args = parser.parse_args()

    if args.run:
        result = run_crawl(args.url, args.pages, args.run, args.per_article, args.concurrency)
        print(json.dumps(result))
        return

    if not Path(args.corpus, "html").is_dir():
        sys.exit(f"no corpus at {args.corpus} (expected its html/*.html.gz)")
    sites = args.sites.split(",")
    if unknown := [site for site in sites if site not in SITES]:
        sys.exit(f"unknown site {unknown[0]!r}: expected {', '.join(SITES)}")
    save_output(args.save)
    print(
        f"{args.pages} articles per crawl, latency {args.latency} s, "
        f"concurrency {args.concurrency}, {os.cpu_count()} CPUs",
        flush=True,
    )
    env = {
        **os.environ,
        "PYTHONPATH": os.pathsep.join(filter(None, [str(REPO), os.environ.get("PYTHONPATH")])),
    }
    for site in sites:
        per_article = SITES[site]
        queue = multiprocessing.get_context("spawn").Queue()
        server = multiprocessing.get_context("spawn").Process(
            target=serve, args=(args.corpus, args.latency, per_article, queue), daemon=True
        )
        server.start()
        port, distinct = queue.get(timeout=120)
        print(f"\nsite {site}: {per_article} index pages per article, {distinct} distinct pages")
        print(HEADER, flush=True)
        results = []
        try:
            for mode in args.modes.split(",") * args.repeat:
                started = time.perf_counter()
                out = subprocess.run(
                    [
                        sys.executable,
                        "-m",
                        "benchmarks.crawl",
                        "--run",
                        mode,
                        "--url",
                        f"http://127.0.0.1:{port}",
                        "--pages",
                        str(args.pages),
                        "--per-article",
                        str(per_article),
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
                share = result["items_per_second"] / results[0]["items_per_second"]
                print(row(site, result, share, time.perf_counter() - started), flush=True)
        finally:
            server.terminate()
            server.join()
        for line in cpu_ratios(site, results):
            print(line)


if __name__ == "__main__":
    main()
