"""Observers: the callbacks an object tells of its changes (a Game of its moves, a Replay of its notes)."""

from __future__ import annotations

import functools
import weakref
from collections.abc import Callable
from typing import Any

__all__ = ["Observers"]


def _same(value: Any) -> Any:
    return value


class Observers:
    """Callbacks to call after a change: a bound method is held weakly (dropped once its object
    is gone, so a widget is not kept alive by the game it shows), any other callable strongly.
    """

    def __init__(self) -> None:
        self._getters: list[Callable[[], Any]] = []

    def __bool__(self) -> bool:
        return bool(self._getters)

    def add(self, callback: Callable[[Any], Any], error: type[Exception], what: str) -> Callable[[], None]:
        """Call `callback(subject)` at every `notify`; return a function that stops it. A callback that
        is not callable raises `error` naming `what`.
        """
        if not callable(callback):
            raise error(f"{what} needs a callable, not {callback!r}"[:200])
        getter: Callable[[], Any] = (
            weakref.WeakMethod(callback) if hasattr(callback, "__self__") and hasattr(callback, "__func__")
            else functools.partial(_same, callback)
        )
        self._getters.append(getter)

        def stop() -> None:
            self._getters[:] = [g for g in self._getters if g is not getter]

        return stop

    def notify(self, subject: Any) -> None:
        """Call every live callback with `subject` (and drop those whose object is gone)."""
        for getter in list(self._getters):
            callback = getter()
            if callback is None:
                self._getters[:] = [g for g in self._getters if g is not getter]
            else:
                callback(subject)
