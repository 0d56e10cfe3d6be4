"""Running the extraction off the reactor thread: a few threads, or N processes.

The core is pure Python and holds the GIL. A thread keeps the reactor serving
other requests while a page is extracted; processes also spread the work over
cores. ``DECLUTTER_WORKERS = 0`` uses ``DECLUTTER_THREADS`` background threads
of the crawl process (Python switches between them every few milliseconds, so
a page that takes a minute holds one thread, and the pages behind it go on in
the others), ``N`` N processes (see ``processes.py``: a process that dies is
replaced and its call retried once; a call past its time budget is given up
and its process replaced). Only picklable values cross to the workers (a
``Page``) and come back (a JSON-safe dict). When no process can be started,
one ERROR line says why, and the crawl goes on in threads.
"""

import logging
from collections.abc import Callable
from typing import Any, TypeVar

from twisted.internet import threads
from twisted.internet.defer import Deferred
from twisted.python.failure import Failure
from twisted.python.threadpool import ThreadPool

from scrapy_declutter.scrapy_layer.processes import (
    ProcessPool,
    WorkerStartError,
    exit_if_rerun_by_spawn,
)

logger = logging.getLogger(__name__)

Argument = TypeVar("Argument")
Result = TypeVar("Result")


class Workers:
    """Runs functions in a pool of ``threads`` background threads (``count ==
    0``) or of ``count`` processes; started on first use, stopped by ``close()``."""

    def __init__(self, count: int, threads: int, reactor: Any = None) -> None:
        if reactor is None:
            from twisted.internet import reactor
        if count:
            exit_if_rerun_by_spawn()
        self.count = count
        self.threads = threads
        self.reactor = reactor
        self._threads: ThreadPool | None = None
        self._processes: ProcessPool | None = None
        self._trigger: Any = None

    def run(
        self,
        function: Callable[[Argument], Result],
        argument: Argument,
        timeout: float | None = None,
    ) -> "Deferred[Result]":
        """Call ``function(argument)`` in a worker; the Deferred fires on the reactor.

        In process mode a call past ``timeout`` seconds fails with
        ``WorkerTimeout``; a thread cannot be stopped, so there it runs to its end.
        """
        if self.count == 0:
            if self._threads is None:
                self._threads = ThreadPool(minthreads=0, maxthreads=self.threads, name="declutter")
                self._threads.start()
                self._stop_at_shutdown()
            return threads.deferToThreadPool(self.reactor, self._threads, function, argument)
        if self._processes is None:
            self._processes = ProcessPool(self.count, self.reactor)
            self._stop_at_shutdown()
        deferred = self._processes.submit(function, argument, timeout)
        return deferred.addErrback(self._in_threads_if_no_process, function, argument, timeout)

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
        return self.run(function, argument, timeout)

    def close(self) -> None:
        """Stop the workers (idempotent); called when the spider closes."""
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
