"""Distributed-crawl benchmark: pages per second with 1, 2, ... scrapy-redis workers on one Redis.

Starts a private ``redis-server`` and serves the generated news site of the
distributed-crawl test (``tests/distributed.py``: front pages with teasers,
articles linking to each other) from 127.0.0.1, then for each worker count
crawls the whole site with that many ``scrapy crawl news_redis`` processes
(the example project's scrapy-redis profile, scrapy-declutter's add-on on;
with ``--off`` also with ``DECLUTTER_ENABLED = False``, for comparison).
Pages per second run from the first item pushed to Redis to the last, so
Scrapy's start-up is not counted; ``declutter ms/page`` is the extraction's
own time, from the stats the workers share in Redis.

    python benchmarks/redis_workers.py --articles 3000 --paragraphs 20 --latency 0.1 \\
        --workers 1 2 --off
"""

import argparse
import multiprocessing
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from tests.distributed import ITEMS_KEY, SPIDER, Site, SiteServer, push_start_urls, start_worker  # noqa: E402
from tests.redisserver import RedisServer  # noqa: E402


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
