"""Workers: background threads or a pool of processes, results back on the reactor."""

import os
import threading
import time
from pathlib import Path

import pytest
import pytest_twisted
from twisted.internet.defer import CancelledError

from scrapy_declutter.core.deadline import DeadlineExceeded
from scrapy_declutter.scrapy_layer.processes import WorkerTimeout
from scrapy_declutter.scrapy_layer.workers import Workers


def where(_):
    return os.getpid(), threading.get_ident()


def fail(message):
    raise ValueError(message)


@pytest.mark.parametrize("count", [0, 1])
@pytest_twisted.ensureDeferred
async def test_runs_off_the_reactor_thread(count):
    workers = Workers(count, 2)
    try:
        pid, thread = await workers.run(where, None)
    finally:
        workers.close()
    assert thread != threading.get_ident()
    assert (pid != os.getpid()) is (count > 0)


@pytest.mark.parametrize("count", [0, 1])
@pytest_twisted.ensureDeferred
async def test_errors_come_back_as_failures(count):
    workers = Workers(count, 2)
    try:
        with pytest.raises(ValueError, match="boom"):
            await workers.run(fail, "boom")
    finally:
        workers.close()
        workers.close()  # closing twice is harmless


@pytest_twisted.ensureDeferred
async def test_a_slow_call_holds_one_thread_and_the_next_goes_on_in_another():
    workers = Workers(0, 2)
    release = threading.Event()
    try:
        slow = workers.run(release.wait, 10)  # as a page that takes minutes
        _, thread = await workers.run(where, None)
        assert not slow.called  # with one thread, this call would have waited for it
        release.set()
        assert await slow is True
    finally:
        workers.close()
    assert thread != threading.get_ident()


def give_up(seconds):
    raise DeadlineExceeded(seconds, "the block walk")


@pytest.mark.parametrize("count", [0, 1])
@pytest_twisted.ensureDeferred
async def test_a_call_that_gives_up_by_itself_fails_as_a_worker_timeout(count):
    workers = Workers(count, 2)
    try:
        with pytest.raises(WorkerTimeout, match="gave up after 3 s, in the block walk"):
            await workers.run(give_up, 3)
        pid, _ = await workers.run(where, None)  # the worker goes on
    finally:
        workers.close()
    assert (pid != os.getpid()) is (count > 0)


@pytest_twisted.ensureDeferred
async def test_large_calls_leave_one_thread_to_the_small_ones():
    workers = Workers(0, 2, large_size=100)
    release = threading.Event()
    ended = []

    def large(_):  # a page of 100 bytes that takes minutes
        release.wait(10)
        ended.append("large")

    try:
        calls = [workers.run(large, None, size=100) for _ in range(2)]
        _, thread = await workers.run(where, None, size=99)  # a small page behind them
        assert ended == []  # it did not wait for either: one thread was kept for it
        release.set()
        for call in calls:
            await call
    finally:
        workers.close()
    assert thread != threading.get_ident()


@pytest_twisted.ensureDeferred
async def test_large_calls_still_waiting_are_cancelled_at_close():
    workers = Workers(0, 2, large_size=1)
    release = threading.Event()
    running = workers.run(release.wait, 10, size=1)
    waiting = workers.run(release.wait, 10, size=1)
    try:
        release.set()  # the running call ends as the pool stops
        workers.close()
        with pytest.raises(CancelledError):
            await waiting
        assert await running is True
    finally:
        workers.close()


def meet(directory):
    """Wait (10 s at most) until two processes are in here: whether they were."""
    Path(directory, str(os.getpid())).touch()
    for _ in range(1000):
        if len(os.listdir(directory)) >= 2:
            return True
        time.sleep(0.01)
    return False


@pytest_twisted.ensureDeferred
async def test_worker_processes_each_take_any_page(tmp_path):
    # a process has a core of its own: keeping one from large pages would cost them
    workers = Workers(2, 4, large_size=1)
    try:
        calls = [workers.run(meet, str(tmp_path), size=1) for _ in range(2)]
        assert [await call for call in calls] == [True, True]  # both ran at once
    finally:
        workers.close()
