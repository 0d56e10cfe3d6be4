"""Python's cyclic garbage collector, paused while a page is extracted.

A full pass of the collector walks every live object of the process, and it
holds the interpreter while it does: in the middle of a large page, whose
blocks, features and elements are hundreds of thousands of objects, one pass
took 220 ms (a 1 MB page of table rows), several times per page, and in
thread mode the reactor waited for each. Extraction makes no reference cycles
(every object it makes is freed by its reference count: ``tests/test_gc_pause.py``),
so the collector has nothing of ours to find meanwhile; the cycles that other
threads make wait until the page is done. When the last page being extracted
is done, the collector is enabled again, unless it was disabled before the
first one started.
"""

import gc
import threading
from collections.abc import Iterator
from contextlib import contextmanager

_lock = threading.Lock()
_pausing = 0  # how many threads are in paused_gc()
_was_enabled = False  # whether the collector ran before the first of them


@contextmanager
def paused_gc() -> Iterator[None]:
    """Disable the cyclic garbage collector for the ``with`` block (threads may
    overlap: it is enabled again when the last one leaves, if it was before)."""
    global _pausing, _was_enabled
    with _lock:
        if _pausing == 0:
            _was_enabled = gc.isenabled()
            gc.disable()
        _pausing += 1
    try:
        yield
    finally:
        with _lock:
            _pausing -= 1
            if _pausing == 0 and _was_enabled:
                gc.enable()
