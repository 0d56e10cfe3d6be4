"""Running the extraction off the reactor thread: a few threads, or N processes.

The core is pure Python and holds the GIL. A thread keeps the reactor serving
other requests while a page is extracted; processes also spread the work over
cores. ``DECLUTTER_WORKERS = 0`` uses ``DECLUTTER_THREADS`` background threads
of the crawl process (Python switches between them every few milliseconds, so
a page that takes a minute holds one thread, and the pages behind it go on in
the others), ``N`` N processes (see ``processes.py``: a process that dies is
replaced and its call retried once; a call past its time budget is given up
and its process replaced). A thread cannot be stopped: a page's extraction
stops itself past its ``Page.timeout`` (``core.deadline``), and its
``DeadlineExceeded`` reaches the caller as the ``WorkerTimeout`` a process
past its budget gives. In thread mode, large pages (``large_size`` bytes or
more) run in all the threads but one: however many arrive first, a small
page behind them finds a thread. The threads share one core (the GIL), so
this costs large pages nothing; processes each have their own, so there
every process takes any page. Only picklable values cross to the workers (a
``Page``) and come back (a JSON-safe dict). When no process can be started,
one ERROR line says why, and the crawl goes on in threads.
"""

import logging
from collections.abc import Callable
from typing import Any, TypeVar

from twisted.internet import threads
from twisted.internet.defer import Deferred, DeferredSemaphore
from twisted.python.failure import Failure
from twisted.python.threadpool import ThreadPool

from scrapy_declutter.core.deadline import DeadlineExceeded
from scrapy_declutter.scrapy_layer.processes import (
    ProcessPool,
    WorkerStartError,
    WorkerTimeout,
    exit_if_rerun_by_spawn,
)

logger = logging.getLogger(__name__)

Argument = TypeVar("Argument")
Result = TypeVar("Result")


class Workers:
    """Runs functions in a pool of ``threads`` background threads (``count ==
    0``) or of ``count`` processes; started on first use, stopped by ``close()``.
    In thread mode, calls of ``large_size`` or more (``0``: none) take all the
    threads but one."""

    def __init__(self, count: int, threads: int, reactor: Any = None, large_size: int = 0) -> None:
        if reactor is None:
            from twisted.internet import reactor
        if count:
            exit_if_rerun_by_spawn()
        self.count = count
        self.threads = threads
        self.reactor = reactor
        self.large_size = large_size
        self._threads: ThreadPool | None = None
        self._processes: ProcessPool | None = None
        self._trigger: Any = None
        lanes = threads - 1 if count == 0 else 0
        self._large = DeferredSemaphore(lanes) if large_size and lanes else None

    def run(
        self,
        function: Callable[[Argument], Result],
        argument: Argument,
        timeout: float | None = None,
        size: int = 0,
    ) -> "Deferred[Result]":
        """Call ``function(argument)`` in a worker; the Deferred fires on the reactor.

        In process mode a call past ``timeout`` seconds fails with
        ``WorkerTimeout``; a thread cannot be stopped, so there a call ends
        only when the function gives up by itself (``extract_page`` past its
        ``Page.timeout``), with the same ``WorkerTimeout``. In thread mode a
        call of ``size`` ``large_size`` or more waits while all the threads but
        one run such calls.
        """
        if self._large is not None and size >= self.large_size:
            return self._large.run(self._start, function, argument, timeout)
        return self._start(function, argument, timeout)

    def _start(
        self, function: Callable[[Argument], Result], argument: Argument, timeout: float | None
    ) -> "Deferred[Result]":
        if self.count == 0:
            if self._threads is None:
                self._threads = ThreadPool(minthreads=0, maxthreads=self.threads, name="declutter")
                self._threads.start()
                self._stop_at_shutdown()
            deferred = threads.deferToThreadPool(self.reactor, self._threads, function, argument)
        else:
            if self._processes is None:
                self._processes = ProcessPool(self.count, self.reactor)
                self._stop_at_shutdown()
            deferred = self._processes.submit(function, argument, timeout)
            deferred.addErrback(self._in_threads_if_no_process, function, argument, timeout)
        return deferred.addErrback(_as_worker_timeout)

    def _in_threads_if_no_process(
        self,
        failure: Failure,
        function: Callable[[Argument], Result],
        argument: Argument,
        timeout: float | None,
    ) -> "Deferred[Result]":
        failure.trap(WorkerStartError)
        if self.count:
            self.count = 0
            logger.error(
                "declutter: could not start a worker process for DECLUTTER_WORKERS: %s; "
                "pages are decluttered in DECLUTTER_THREADS threads of the crawl process "
                "instead (see 'Worker processes' in the docs' scaling page)",
                failure.value,
            )
        return self._start(function, argument, timeout)

    def close(self) -> None:
        """Stop the workers (idempotent); called when the spider closes. Large
        calls still waiting fail with ``CancelledError``."""
        if self._large is not None:
            for waiting in list(self._large.waiting):
                waiting.cancel()
        if self._threads is not None:
            self._threads.stop()
            self._threads = None
        if self._processes is not None:
            self._processes.close()
            self._processes = None
        if self._trigger is not None:
            self.reactor.removeSystemEventTrigger(self._trigger)
            self._trigger = None

    def _stop_at_shutdown(self) -> None:
        # also stop when the reactor stops without the spider closing (a failed start)
        if self._trigger is None:
            self._trigger = self.reactor.addSystemEventTrigger("during", "shutdown", self._shutdown)

    def _shutdown(self) -> None:
        self._trigger = None  # being fired: no longer removable
        self.close()


def _as_worker_timeout(failure: Failure) -> Failure:
    """``DeadlineExceeded`` as ``WorkerTimeout``: the callers count one kind of timeout."""
    if failure.check(DeadlineExceeded):
        timeout = WorkerTimeout(str(failure.value))
        timeout.__cause__ = failure.value
        return Failure(timeout)
    return failure
