"""N worker processes, each given one call at a time, with a time budget per call.

Each process is fed by a thread of the crawl process that sends it a call over
a pipe and waits for the reply. So a call that runs past its time budget can be
given up: its process is killed and replaced, and only that call fails (with
``WorkerTimeout``). A process that dies (killed, out of memory) is replaced and
its call retried once, then failed with ``BrokenProcessPool``. Processes are
started with ``spawn`` (safe in a process that already runs threads and a
reactor), on first use.
"""

import multiprocessing
import queue
import threading
from collections.abc import Callable
from concurrent.futures import CancelledError
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass
from typing import Any

from twisted.internet.defer import Deferred
from twisted.python.failure import Failure

from scrapy_declutter.scrapy_layer.page import serve

_CONTEXT = multiprocessing.get_context("spawn")
_STOP_SECONDS = 5  # how long a stopped process may take to end before it is killed
_ATTEMPTS = 2  # a call whose process dies is retried once: the death may not be its fault


class WorkerTimeout(TimeoutError):
    """A call ran past its time budget: its worker process was killed and
    replaced, or (``workers.py``) the call gave up by itself."""


@dataclass
class _Call:
    function: Callable[[Any], Any]
    argument: Any
    timeout: float | None
    deferred: "Deferred[Any]"


class ProcessPool:
    """``count`` worker processes taking calls from one queue."""

    def __init__(self, count: int, reactor: Any) -> None:
        self.reactor = reactor
        self._calls: queue.SimpleQueue[_Call | None] = queue.SimpleQueue()
        self._feeders = [
            threading.Thread(target=self._feed, name=f"declutter-{n}", daemon=True)
            for n in range(count)
        ]
        for feeder in self._feeders:
            feeder.start()

    def submit(
        self, function: Callable[[Any], Any], argument: Any, timeout: float | None
    ) -> "Deferred[Any]":
        """Run ``function(argument)`` in a process; give up after ``timeout`` seconds."""
        deferred: Deferred[Any] = Deferred()
        self._calls.put(_Call(function, argument, timeout, deferred))
        return deferred

    def close(self) -> None:
        """Cancel the calls not started; each process ends after its current call."""
        while True:
            try:
                call = self._calls.get_nowait()
            except queue.Empty:
                break
            if call is not None:
                call.deferred.errback(Failure(CancelledError("declutter workers were closed")))
        for _ in self._feeders:
            self._calls.put(None)

    def _feed(self) -> None:
        """One feeder thread: its process runs the calls this thread takes, one at a time."""
        worker: _Worker | None = None
        while (call := self._calls.get()) is not None:
            for _attempt in range(_ATTEMPTS):
                if worker is None:
                    worker = _Worker()
                outcome, value = worker.call(call.function, call.argument, call.timeout)
                if outcome in ("timeout", "died"):
                    worker.stop(kill=True)
                    worker = None
                if outcome != "died":
                    break
            self.reactor.callFromThread(self._settle, call, outcome, value)
        if worker is not None:
            worker.stop()

    @staticmethod
    def _settle(call: _Call, outcome: str, value: Any) -> None:
        if outcome == "ok":
            call.deferred.callback(value)
            return
        if outcome == "timeout":
            value = WorkerTimeout(f"gave up after {call.timeout} s; its worker was replaced")
        elif outcome == "died":
            value = BrokenProcessPool("a worker process died (killed, or out of memory)")
        call.deferred.errback(Failure(value))


class _Worker:
    """One process and the pipe to it."""

    def __init__(self) -> None:
        self.connection, child = _CONTEXT.Pipe()
        self.process = _CONTEXT.Process(target=serve, args=(child,), daemon=True)
        self.process.start()
        child.close()
        try:  # started: its time budgets need not cover its imports
            self.connection.recv()
        except (EOFError, OSError):
            pass  # died at start: its first call says so

    def call(
        self, function: Callable[[Any], Any], argument: Any, timeout: float | None
    ) -> tuple[str, Any]:
        """``("ok", result)``, ``("error", exception)``, ``("timeout", None)`` or
        ``("died", None)``."""
        try:
            self.connection.send((function, argument))
        except OSError:
            return "died", None
        except Exception as error:  # the call does not pickle: nothing was sent
            return "error", error
        try:
            if not self.connection.poll(timeout):
                return "timeout", None
            outcome: tuple[str, Any] = self.connection.recv()
        except (EOFError, OSError):
            return "died", None
        return outcome

    def stop(self, kill: bool = False) -> None:
        if kill:
            self.process.kill()
        else:
            try:
                self.connection.send(None)
            except OSError:
                pass
        self.process.join(_STOP_SECONDS)
        if self.process.is_alive():
            self.process.kill()
            self.process.join()
        self.connection.close()
