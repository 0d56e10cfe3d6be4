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


def give_up(seconds):
    raise DeadlineExceeded(seconds, "the block walk")


@pytest.mark.parametrize("count", [0, 1])
@pytest.mark.parametrize(
    "function, argument, error, message",
    [
        (fail, "boom", ValueError, "boom"),
        # a call that gives up by itself fails as one its process is killed for
        (give_up, 3, WorkerTimeout, "gave up after 3 s, in the block walk"),
    ],
)
@pytest_twisted.ensureDeferred
async def test_errors_come_back_as_failures(count, function, argument, error, message):
    workers = Workers(count, 2)
    try:
        with pytest.raises(error, match=message):
            await workers.run(function, argument)
        pid, _ = await workers.run(where, None)  # the worker goes on
    finally:
        workers.close()
        workers.close()  # closing twice is harmless
    assert (pid != os.getpid()) is (count > 0)


@pytest.mark.parametrize(
    "large_size, slow_calls",
    [
        (0, 1),  # a slow call holds one thread, the next goes on in the other
        (100, 2),  # two large ones hold only one: the other is kept for smaller pages
    ],
)
@pytest_twisted.ensureDeferred
async def test_slow_calls_leave_a_thread_to_the_next(large_size, slow_calls):
    workers = Workers(0, 2, large_size=large_size)
    release = threading.Event()
    ended = []

    def slow(_):  # a page of 100 bytes that takes minutes
        release.wait(10)
        ended.append("slow")

    try:
        calls = [workers.run(slow, None, size=100) for _ in range(slow_calls)]
        _, thread = await workers.run(where, None, size=99)
        assert ended == []  # it waited for none of them
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
