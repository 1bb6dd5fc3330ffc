"""A clock on a thread of its own: the room's workers tick the activity on show (`Room.tick`) with it."""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable

__all__ = ["Ticker"]

log = logging.getLogger("needle_widget.classroom")


class Ticker:
    """Calls `tick()` every `period` seconds from `start` until `stop`, on a daemon thread called `name`; a tick
    that fails is logged (as `what` failing) and the clock goes on.
    """

    def __init__(self, tick: Callable[[], None], period: float, name: str, what: str) -> None:
        self._tick, self._period, self._name, self._what = tick, period, name, what
        self._stopping = threading.Event()
        self._thread = threading.Thread(target=self._run, name=name, daemon=True)

    def start(self) -> None:
        """Start ticking."""
        self._thread.start()

    def stop(self, timeout: float = 5.0) -> None:
        """Stop ticking, waiting (at most `timeout` seconds) for a tick under way, unless called from a tick."""
        self._stopping.set()
        if self._thread is not threading.current_thread() and self._thread.is_alive():
            self._thread.join(timeout=timeout)

    def _run(self) -> None:
        while not self._stopping.wait(self._period):
            try:
                self._tick()
            except Exception:  # a bug in a tick must not stop the clock: logged, the clock goes on
                log.exception("%s failed", self._what)
