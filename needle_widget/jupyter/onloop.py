"""Calls made from another thread (a class channel's reader), run on the kernel's event loop."""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Callable

from .runner import running_loop

__all__ = ["OnLoop"]


class OnLoop:
    """`OnLoop(pull)()` runs `pull` on the event loop of the thread that made it (the kernel's, where
    traits may be set), once for any number of calls made before it runs; with no loop running there
    (a script, a test) or from the loop's own thread, at once. `pull` never runs twice at the same time.
    `stop()` ends it: later calls do nothing.
    """

    def __init__(self, pull: Callable[[], None]) -> None:
        self._pull = pull
        self._loop: asyncio.AbstractEventLoop | None = running_loop()
        self._lock = threading.Lock()
        self._running = threading.RLock()
        self._pending = False
        self._stopped = False

    def __call__(self) -> None:
        """Run `pull` now or soon on the loop (the subscriber's callback)."""
        loop = self._loop
        if self._stopped:
            return
        if loop is None or loop.is_closed() or not loop.is_running() or running_loop() is loop:
            self._run()
            return
        with self._lock:
            if self._pending:
                return
            self._pending = True
        try:
            loop.call_soon_threadsafe(self._queued)
        except RuntimeError:  # the loop closed meanwhile
            self._queued()

    def _queued(self) -> None:
        with self._lock:
            self._pending = False
        self._run()

    def _run(self) -> None:
        with self._running:
            if not self._stopped:
                self._pull()

    def stop(self) -> None:
        """No more calls of `pull`."""
        self._stopped = True
