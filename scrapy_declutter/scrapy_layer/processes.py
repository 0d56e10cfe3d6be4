"""N worker processes, each given one call at a time, with a time budget per call.

Each process is fed by a thread of the crawl process that sends it a call over
a pipe and waits for the reply. So a call that runs past its time budget can be
given up: its process is killed and replaced, and only that call fails (with
``WorkerTimeout``). A process that dies (killed, out of memory) is replaced and
its call retried once, then failed with ``BrokenProcessPool``. Processes are
started with ``spawn`` (safe in a process that already runs threads and a
reactor), on first use.

Every wait has a limit. A process that cannot start (no file descriptors
left, a process that dies or hangs while starting, a crawl script that
multiprocessing re-runs in the new process because it has no ``if __name__
== "__main__":`` guard) fails its call, and every call after it, with
``WorkerStartError``, which says why: ``Workers`` then goes on in threads.
"""

import multiprocessing
import os
import queue
import sys
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
# How long a new process may take to import the package and say it is ready: a
# start takes about a second, several on a loaded machine.
START_SECONDS = 60
# The status a process exits with when it finds itself re-running the crawl's
# script while multiprocessing starts it (``exit_if_rerun_by_spawn``).
RERUN_STATUS = 86
MISSING_GUARD = (
    "the crawl's script ran again in the new process, as multiprocessing's spawn re-runs "
    "the main script: put the code that starts the crawl under "
    "'if __name__ == \"__main__\":'"
)


class WorkerTimeout(TimeoutError):
    """A call ran past its time budget: its worker process was killed and
    replaced, or (``workers.py``) the call gave up by itself."""


class WorkerStartError(RuntimeError):
    """A worker process could not be started; the message says why."""


def exit_if_rerun_by_spawn() -> None:
    """End this process at once if it is a worker being started whose start
    re-runs the crawl's script (one without a ``__main__`` guard): else that
    copy of the crawl would fetch its pages too, and wait for ever on workers
    of its own, which multiprocessing refuses to start there. The crawl
    process reads the exit status and names the fix."""
    if getattr(multiprocessing.current_process(), "_inheriting", False):
        sys.stderr.flush()
        os._exit(RERUN_STATUS)


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
        self._start_error: WorkerStartError | None = None  # set once: no process will start
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
                    try:
                        worker = self._start()
                    except WorkerStartError as error:
                        outcome, value = "error", error
                        break
                outcome, value = worker.call(call.function, call.argument, call.timeout)
                if outcome in ("timeout", "died"):
                    worker.stop(kill=True)
                    worker = None
                if outcome != "died":
                    break
            self.reactor.callFromThread(self._settle, call, outcome, value)
        if worker is not None:
            worker.stop()

    def _start(self) -> "_Worker":
        if self._start_error is None:
            try:
                return _Worker()
            except WorkerStartError as error:
                self._start_error = error
            except Exception as error:  # EMFILE from Pipe(), multiprocessing's RuntimeError
                self._start_error = WorkerStartError(f"{type(error).__name__}: {error}")
        raise self._start_error

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
        try:
            self.process.start()
        finally:
            child.close()
        # Started: its time budgets need not cover its imports, but the start has one.
        try:
            if self.connection.poll(START_SECONDS):
                self.connection.recv()
                return
            reason = f"it did not start within {START_SECONDS} s"
        except (EOFError, OSError):
            self.process.join(_STOP_SECONDS)
            status = self.process.exitcode
            reason = (
                MISSING_GUARD
                if status == RERUN_STATUS
                else f"it exited with status {status} as it started"
            )
        self.stop(kill=True)
        raise WorkerStartError(reason)

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
