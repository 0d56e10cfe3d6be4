"""Worker processes: a time budget per call, one process replaced, not the others."""

import os
import time
from concurrent.futures import CancelledError

import pytest
import pytest_twisted

from scrapy_declutter.scrapy_layer.processes import WorkerTimeout
from scrapy_declutter.scrapy_layer.workers import Workers


def where(_):
    return os.getpid()


def hang(_):
    time.sleep(3600)


def unpicklable(_):
    return lambda: None


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
