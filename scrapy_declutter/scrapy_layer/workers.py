"""Running the extraction off the reactor thread: one thread, or N processes.

The core is pure Python and holds the GIL. A thread keeps the reactor serving
other requests while a page is extracted; processes also spread the work over
cores. ``DECLUTTER_WORKERS = 0`` uses one background thread of the crawl
process, ``N`` a pool of N processes (started with ``spawn``, which is safe in a
process that already runs threads and a reactor). Only picklable values cross
to the workers (a ``Page``) and come back (a JSON-safe dict).
A worker process that dies (killed, out of memory) breaks its pool: the pool is
replaced and the calls it held are retried once, so the crawl goes on.
"""

import multiprocessing
from collections.abc import Callable
from concurrent.futures import CancelledError, Future, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Any, TypeVar

from twisted.internet import threads
from twisted.internet.defer import Deferred
from twisted.python.failure import Failure
from twisted.python.threadpool import ThreadPool

Argument = TypeVar("Argument")
Result = TypeVar("Result")


class Workers:
    """Runs functions in one background thread (``count == 0``) or in a pool
    of ``count`` processes; started on first use, stopped by ``close()``."""

    def __init__(self, count: int, reactor: Any = None) -> None:
        if reactor is None:
            from twisted.internet import reactor
        self.count = count
        self.reactor = reactor
        self._threads: ThreadPool | None = None
        self._processes: ProcessPoolExecutor | None = None
        self._trigger: Any = None

    def run(self, function: Callable[[Argument], Result], argument: Argument) -> "Deferred[Result]":
        """Call ``function(argument)`` in a worker; the Deferred fires on the reactor."""
        if self.count == 0:
            if self._threads is None:
                self._threads = ThreadPool(minthreads=0, maxthreads=1, name="declutter")
                self._threads.start()
                self._stop_at_shutdown()
            return threads.deferToThreadPool(self.reactor, self._threads, function, argument)
        return self._submit(function, argument, retries=1)

    def close(self) -> None:
        """Stop the workers (idempotent); called when the spider closes."""
        if self._threads is not None:
            self._threads.stop()
            self._threads = None
        if self._processes is not None:
            self._processes.shutdown(wait=True, cancel_futures=True)
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

    def _pool(self) -> ProcessPoolExecutor:
        if self._processes is None:
            self._processes = ProcessPoolExecutor(
                max_workers=self.count, mp_context=multiprocessing.get_context("spawn")
            )
            self._stop_at_shutdown()
        return self._processes

    def _submit(
        self, function: Callable[[Argument], Result], argument: Argument, retries: int
    ) -> "Deferred[Result]":
        """Run in the pool; when a worker dies (killed, out of memory), the pool
        breaks and fails every call it holds: start a new pool and retry once."""
        pool = self._pool()
        try:
            future = pool.submit(function, argument)
        except BrokenProcessPool:  # broken by an earlier call
            self._discard(pool)
            pool = self._pool()
            future = pool.submit(function, argument)
        deferred: Deferred[Result] = Deferred()

        def fire(future: Future[Result]) -> None:
            if future.cancelled():  # the pool was shut down before it ran
                deferred.errback(Failure(CancelledError("declutter workers were closed")))
                return
            error = future.exception()
            if error is None:
                deferred.callback(future.result())
            elif isinstance(error, BrokenProcessPool) and retries:
                self._discard(pool)
                self._submit(function, argument, retries - 1).chainDeferred(deferred)
            else:
                deferred.errback(Failure(error))

        future.add_done_callback(lambda f: self.reactor.callFromThread(fire, f))
        return deferred

    def _discard(self, pool: ProcessPoolExecutor) -> None:
        """Forget a broken pool (once, however many of its calls report it)."""
        if self._processes is pool:
            self._processes = None
            pool.shutdown(wait=False, cancel_futures=True)
