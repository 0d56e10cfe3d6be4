"""Worker processes: a time budget per call, one process replaced, not the others."""

import json
import os
import signal
import subprocess
import sys
import time
from concurrent.futures import CancelledError

import pytest
import pytest_twisted

from scrapy_declutter.scrapy_layer import processes
from scrapy_declutter.scrapy_layer.processes import WorkerTimeout
from scrapy_declutter.scrapy_layer.workers import Workers
from tests.site import ARTICLE_EN, ARTICLE_EN_SENTENCE


def where(_):
    return os.getpid()


def hang(_):
    time.sleep(3600)


def unpicklable(_):
    return lambda: None


@pytest.mark.slow
@pytest_twisted.ensureDeferred
async def test_a_call_past_its_time_budget_is_given_up_and_its_process_replaced():
    workers = Workers(1, 1)
    try:
        first_pid = await workers.run(where, None, timeout=60)
        with pytest.raises(WorkerTimeout):
            await workers.run(hang, None, timeout=2)
        second_pid = await workers.run(where, None, timeout=60)
    finally:
        workers.close()
    assert second_pid not in (first_pid, os.getpid())


@pytest_twisted.ensureDeferred
async def test_a_result_that_does_not_pickle_is_an_error_and_the_process_goes_on():
    workers = Workers(1, 1)
    try:
        first_pid = await workers.run(where, None)
        with pytest.raises(RuntimeError, match="could not send back the result"):
            await workers.run(unpicklable, None)
        with pytest.raises(Exception, match="pickle"):
            await workers.run(where, lambda: None)  # an argument that does not pickle
        second_pid = await workers.run(where, None)
    finally:
        workers.close()
    assert second_pid == first_pid


@pytest_twisted.ensureDeferred
async def test_closing_cancels_the_calls_not_started():
    workers = Workers(1, 1)
    await workers.run(where, None)  # the process has started
    running = workers.run(hang, None, timeout=2)
    waiting = [workers.run(where, None) for _ in range(3)]
    workers.close()
    for call in waiting:
        with pytest.raises(CancelledError):
            await call
    with pytest.raises((WorkerTimeout, CancelledError)):  # cancelled if not yet taken
        await running


@pytest_twisted.ensureDeferred
async def test_a_process_that_does_not_start_in_time_leaves_the_work_to_threads(
    monkeypatch, caplog
):
    monkeypatch.setattr(processes, "START_SECONDS", 0)  # no process is ready that soon
    workers = Workers(2, 1)
    try:
        pids = [await workers.run(where, None, timeout=60) for _ in range(3)]
    finally:
        workers.close()
    assert pids == [os.getpid()] * 3
    (line,) = [r.getMessage() for r in caplog.records if r.levelname == "ERROR"]
    assert "could not start a worker process" in line
    assert "it did not start within 0 s" in line


CRAWL_SCRIPT = """
import scrapy
from scrapy.crawler import CrawlerProcess


class Articles(scrapy.Spider):
    name = "articles"
    start_urls = {urls!r}

    def parse(self, response):
        yield {{"url": response.url}}


def crawl():
    process = CrawlerProcess(
        {{
            "ADDONS": {{"scrapy_declutter.Addon": 100}},
            "DECLUTTER_WORKERS": 1,
            "FEEDS": {{{feed!r}: {{"format": "jsonlines"}}}},
            "TELNETCONSOLE_ENABLED": False,
            "CONCURRENT_REQUESTS": 1,
            "DOWNLOAD_DELAY": {delay},
        }}
    )
    process.crawl(Articles)
    process.start()


{start}
"""


def write_crawl_script(path, urls, feed, guarded, delay=0):
    """A crawl run from a script, as Scrapy's docs show one: with its start
    under the ``__main__`` guard, or at module level."""
    start = 'if __name__ == "__main__":\n    crawl()' if guarded else "crawl()"
    path.write_text(CRAWL_SCRIPT.format(urls=urls, feed=str(feed), delay=delay, start=start))


@pytest.mark.slow
def test_a_crawl_script_without_the_main_guard_goes_on_in_threads(tmp_path, threaded_site):
    """Scrapy's docs run a crawl from a script at module level: spawn re-runs
    that script in each new worker process. The copy must not crawl, and the
    crawl must not wait for a worker that never says it is ready."""
    site, requested = threaded_site({"article.html": ARTICLE_EN})
    script, feed = tmp_path / "crawl.py", tmp_path / "items.jsonl"
    write_crawl_script(script, [f"{site}/article.html"], feed, guarded=False)
    result = subprocess.run(
        [sys.executable, str(script)], cwd=tmp_path, capture_output=True, text=True, timeout=300
    )
    assert result.returncode == 0, result.stderr
    (item,) = [json.loads(line) for line in feed.read_text().splitlines()]
    assert ARTICLE_EN_SENTENCE in item["text"]
    assert requested == ["/article.html"]  # the script's copy fetched nothing
    errors = [line for line in result.stderr.splitlines() if "] ERROR: " in line]
    assert len(errors) == 1, result.stderr
    assert "if __name__ ==" in errors[0] and "DECLUTTER_THREADS" in errors[0]
    assert "Traceback" not in result.stderr


@pytest.mark.slow
def test_ctrl_c_stops_a_crawl_with_workers_quietly(tmp_path, threaded_site):
    """Ctrl-C reaches every process of the terminal's group: the workers must
    neither print a traceback each nor be started again."""
    site, requested = threaded_site({f"{n}.html": ARTICLE_EN for n in range(40)})
    script, feed = tmp_path / "crawl.py", tmp_path / "items.jsonl"
    urls = [f"{site}/{n}.html" for n in range(40)]
    write_crawl_script(script, urls, feed, guarded=True, delay=0.3)
    crawl = subprocess.Popen(
        [sys.executable, str(script)],
        cwd=tmp_path,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,  # its own group, as a terminal gives a command
    )
    deadline = time.monotonic() + 120
    while len(requested) < 4 and time.monotonic() < deadline:  # the worker is busy
        time.sleep(0.1)
    os.killpg(crawl.pid, signal.SIGINT)
    _, stderr = crawl.communicate(timeout=120)
    assert 4 <= len(requested) < 40, stderr
    assert "Traceback" not in stderr and "KeyboardInterrupt" not in stderr, stderr
    assert "could not start a worker" not in stderr
    assert len(feed.read_text().splitlines()) >= 3
