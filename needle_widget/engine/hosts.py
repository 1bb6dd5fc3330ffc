"""Screens that a layer asks for and a layer above provides: the inversion that keeps every import pointing
down.

A lower layer's convenience that shows something (`room.board()`, `lesson.widget()`, `room.open_replay()`)
asks for a screen by name with `make`; the front end that can draw it provides it with `provide`. The
package's root (`needle_widget/__init__.py`) provides the Jupyter adapter's screens, imported only when one
is made, so a layer never imports the adapter and the engine alone still needs no Jupyter.

>>> provide("demo.hello", lambda name: f"Hello, {name}")
>>> make("demo.hello", "Ann")
'Hello, Ann'
>>> make("demo.nothing")
Traceback (most recent call last):
...
needle_widget.engine.errors.ArgumentError: No screen 'demo.nothing' is provided here
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from .errors import ArgumentError

__all__ = ["make", "provide", "provided"]

_MAKERS: dict[str, Callable[..., Any]] = {}


def provide(name: str, maker: Callable[..., Any]) -> None:
    """Let `make(name, ...)` call `maker(...)` (a later `provide` of the same name replaces it)."""
    given: object = name  # as passed: a caller without type checking may pass anything
    if not isinstance(given, str) or not name or not callable(maker):
        raise ArgumentError(f"provide needs a name and a callable, not {name!r} and {maker!r}"[:200])
    _MAKERS[name] = maker


def provided() -> tuple[str, ...]:
    """The names a screen can be made for, sorted."""
    return tuple(sorted(_MAKERS))


def make(name: str, *args: Any, **kwargs: Any) -> Any:
    """The screen `name` made by its provider from `args` and `kwargs`."""
    maker = _MAKERS.get(name)
    if maker is None:
        raise ArgumentError(f"No screen {name!r} is provided here")
    return maker(*args, **kwargs)
