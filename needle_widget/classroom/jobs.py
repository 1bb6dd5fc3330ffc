"""Work a room hands to an executor, counted: the reviews behind the class's record.

By default the work runs in one process of its own, started on the first job: a review is pure Python, and in
the teacher's kernel it would hold the interpreter's lock against the room's reader and sender threads (a
match's moves took 300 ms to reach the opponent's screen instead of 70 while the finished games were reviewed
in a thread; `needle-widget bench match`).

`Jobs(executor)` runs `submit(work, args, done)` on any `concurrent.futures.Executor` (a dask `Client` too: only
`submit` and the future's `add_done_callback` are used) and calls `done(result)` when it ends, `done(None)` after
a logged failure; `wait(timeout)` waits until every job submitted so far (and those their `done` submitted) has
ended; `close()` stops taking results (a job that ends after it is dropped: the room reviews it again when it
reopens) and shuts down an executor of its own.

>>> from concurrent.futures import ThreadPoolExecutor
>>> jobs, out = Jobs(ThreadPoolExecutor(1)), []
>>> jobs.submit(pow, (2, 10), lambda result: jobs.submit(pow, (result, 2), out.append))
>>> jobs.wait(10), out
(True, [1048576])
>>> jobs.close()
"""

from __future__ import annotations

import logging
import multiprocessing
import os
import threading
import time
from collections.abc import Callable
from concurrent.futures import Executor, ProcessPoolExecutor
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from multiprocessing.context import BaseContext

__all__ = ["Jobs"]

log = logging.getLogger("needle_widget.classroom")


class Jobs:
    """See the module docstring. `executor` None: one process of our own at a low priority (`own_executor`),
    shut down by `close`.
    """

    def __init__(self, executor: Executor | None = None, ended: Callable[[], None] | None = None) -> None:
        self._own = executor is None
        self._executor: Executor | None = executor
        self._lock = threading.Lock()
        self._count = threading.Condition()
        self._running = 0
        self._closed = False
        self._ended = ended or (lambda: None)

    def submit(self, work: Callable[..., Any], args: tuple[Any, ...], done: Callable[[Any], None]) -> None:
        """Run `work(*args)` on the executor; `done(result)` (None after a logged failure) when it ends."""
        with self._count:
            self._running += 1

        def finish(future: Any) -> None:
            try:
                if future.cancelled() or self._closed:
                    return
                try:
                    result = future.result()
                except Exception:
                    log.exception("class: a review failed")
                    result = None
                done(result)
            except Exception:
                log.exception("class: a finished review could not be taken")
            finally:
                self._end()
                self._ended()

        try:
            self._pool().submit(work, *args).add_done_callback(finish)
        except RuntimeError:  # the executor was shut down
            self._end()

    def _pool(self) -> Executor:
        with self._lock:
            if self._closed:
                raise RuntimeError("closed")
            if self._executor is None:
                self._executor = own_executor()
            return self._executor

    def _end(self) -> None:
        with self._count:
            self._running -= 1
            self._count.notify_all()

    def wait(self, timeout: float) -> bool:
        """Wait at most `timeout` seconds for every job submitted so far; True if none is left."""
        end = time.monotonic() + timeout
        with self._count:
            while self._running:
                left = end - time.monotonic()
                if left <= 0:
                    return False
                self._count.wait(left)
        return True

    def close(self) -> None:
        """Take no more results; shut down an executor of our own (without waiting for its jobs)."""
        with self._lock:
            self._closed = True
            executor = self._executor
        if self._own and executor is not None:
            executor.shutdown(wait=False, cancel_futures=True)


def own_executor() -> Executor:
    """One worker process ("forkserver": started clean, not forked from a kernel's threads; "spawn" where there is
    none), with the review's modules imported once.
    """
    try:
        context: BaseContext = multiprocessing.get_context("forkserver")
        context.set_forkserver_preload(["needle_widget.classroom.record"])
    except ValueError:  # pragma: no cover - no forkserver (Windows)
        context = multiprocessing.get_context("spawn")
    return ProcessPoolExecutor(max_workers=1, mp_context=context, initializer=_background)


def _background() -> None:
    """The worker yields the processor to the class's interactive processes: nice 10 (it still gets a share on a
    busy machine; Linux's idle class could starve it for as long as the machine stays busy).
    """
    if hasattr(os, "nice"):
        os.nice(10)
