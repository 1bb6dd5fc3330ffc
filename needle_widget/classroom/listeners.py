"""Callbacks told after every change of a room or a student's screen (a board, a widget)."""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable

__all__ = ["Listeners"]

log = logging.getLogger("needle_widget.classroom")


class Listeners:
    """`add(callback)` returns its remover; `notify()` calls each (never under the owner's lock), logging
    a callback's failure instead of passing it to the thread that made the change.
    """

    def __init__(self, what: str) -> None:
        self._what = what
        self._lock = threading.Lock()
        self._callbacks: list[Callable[[], None]] = []

    def add(self, callback: Callable[[], None]) -> Callable[[], None]:
        """Call `callback()` after every change; returns the function that stops it."""
        with self._lock:
            self._callbacks.append(callback)

        def remove() -> None:
            with self._lock:
                if callback in self._callbacks:
                    self._callbacks.remove(callback)

        return remove

    def notify(self) -> None:
        """Call every callback."""
        with self._lock:
            callbacks = list(self._callbacks)
        for callback in callbacks:
            try:
                callback()
            except Exception:
                log.exception("class: %s's update failed", self._what)
