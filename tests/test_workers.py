"""Workers: a background thread or a pool of processes, results back on the reactor."""

import os
import threading
import time

import pytest
import pytest_twisted

from scrapy_declutter.scrapy_layer.processes import WorkerTimeout
from scrapy_declutter.scrapy_layer.workers import Workers


def where(_):
    return os.getpid(), threading.get_ident()


def fail(message):
    raise ValueError(message)


def hang(_):
    time.sleep(3600)


def unpicklable(_):
    return lambda: None


@pytest.mark.parametrize("count", [0, 1])
@pytest_twisted.ensureDeferred
async def test_runs_off_the_reactor_thread(count):
    workers = Workers(count)
    try:
        pid, thread = await workers.run(where, None)
    finally:
        workers.close()
    assert thread != threading.get_ident()
    assert (pid != os.getpid()) is (count > 0)


@pytest.mark.parametrize("count", [0, 1])
@pytest_twisted.ensureDeferred
async def test_errors_come_back_as_failures(count):
    workers = Workers(count)
    try:
        with pytest.raises(ValueError, match="boom"):
            await workers.run(fail, "boom")
    finally:
        workers.close()
        workers.close()  # closing twice is harmless


@pytest_twisted.ensureDeferred
async def test_a_call_past_its_time_budget_is_given_up_and_its_process_replaced():
    workers = Workers(1)
    try:
        first_pid, _ = await workers.run(where, None, timeout=60)
        with pytest.raises(WorkerTimeout):
            await workers.run(hang, None, timeout=2)
        second_pid, _ = await workers.run(where, None, timeout=60)
    finally:
        workers.close()
    assert second_pid not in (first_pid, os.getpid())


@pytest_twisted.ensureDeferred
async def test_a_result_that_does_not_pickle_is_an_error_and_the_process_goes_on():
    workers = Workers(1)
    try:
        first_pid, _ = await workers.run(where, None)
        with pytest.raises(RuntimeError, match="could not send back the result"):
            await workers.run(unpicklable, None)
        with pytest.raises(Exception, match="pickle"):
            await workers.run(where, lambda: None)  # an argument that does not pickle
        second_pid, _ = await workers.run(where, None)
    finally:
        workers.close()
    assert second_pid == first_pid
