"""Work a room hands to an executor, counted: the reviews behind the class's record.

`Jobs(executor)` runs `submit(work, args, done)` on any `concurrent.futures.Executor` (a dask `Client` too: only
`submit` and the future's `add_done_callback` are used) and calls `done(result)` when it ends, `done(None)` after
a logged failure; `wait(timeout)` waits until every job submitted so far (and those their `done` submitted) has
ended; `close()` stops taking results (a job that ends after it is dropped: the room reviews it again when it
reopens) and shuts down an executor of its own.

>>> from concurrent.futures import ThreadPoolExecutor
>>> jobs, out = Jobs(), []
>>> jobs.submit(pow, (2, 10), lambda result: jobs.submit(pow, (result, 2), out.append))
>>> jobs.wait(10), out
(True, [1048576])
>>> jobs.close()
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable
from concurrent.futures import Executor, ThreadPoolExecutor
from typing import Any

__all__ = ["Jobs"]

log = logging.getLogger("needle_widget.classroom")


class Jobs:
    """See the module docstring. `executor` None: one thread of this process, shut down by `close`."""

    def __init__(self, executor: Executor | None = None, name: str = "needle-class-review",
                 ended: Callable[[], None] | None = None) -> None:
        self._own = executor is None
        self._executor: Executor = executor or ThreadPoolExecutor(max_workers=1, thread_name_prefix=name)
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
            self._executor.submit(work, *args).add_done_callback(finish)
        except RuntimeError:  # the executor was shut down
            self._end()

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
        self._closed = True
        if self._own:
            self._executor.shutdown(wait=False, cancel_futures=True)
