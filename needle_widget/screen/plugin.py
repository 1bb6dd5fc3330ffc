"""How a feature plugs into a screen: its requests, registered where they are handled, and its synced
traits.

Requests are registered as anywidget's `@command` gathers its handlers: no table of names kept by
hand, and "go to definition" on a request's handler works.

A handler is a method marked with `@request(kind, *fields)`: the browser's {kind, id, fields...}
calls it with the fields in that order (a missing field is None). `requests_of(*owners)` gathers the
marked methods of the owner classes (and their bases) into one table; the widget dispatches from it
and `js/src/shared.js` lists the kinds and fields from it.

>>> class Lamp:
...     @request("switch", "on")
...     def request_switch(self, on):
...         self.on = on
>>> table = requests_of(Lamp)
>>> table["switch"].fields, table["switch"].owner is Lamp, table["switch"].method
(('on',), True, 'request_switch')
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, ClassVar, TypeVar

from ..engine.errors import ArgumentError
from ..engine.seats import Perspective

if TYPE_CHECKING:
    from .desk import Desk

__all__ = ["Feature", "Request", "Trait", "request", "requests_of"]

F = TypeVar("F", bound=Callable[..., Any])
_MARK = "__needle_request__"


@dataclass(frozen=True)
class Request:
    """One request kind: the fields the browser sends, and the method of `owner` that answers."""

    kind: str
    fields: tuple[str, ...]
    owner: type
    method: str

    def call(self, handler: Any, content: dict[str, Any], *first: Any) -> Any:
        """Answer `content` (the browser's message) with `handler`, an `owner`: `first` (a class activity's
        member), then its fields in order; what the handler returns.
        """
        return getattr(handler, self.method)(*first, *(content.get(field) for field in self.fields))


def request(kind: str, *fields: str) -> Callable[[F], F]:
    """Mark a method as the answer to the browser's {kind, fields...} request."""
    given: object = kind  # checked: a caller may pass anything
    names: tuple[object, ...] = fields
    if not isinstance(given, str) or not kind or not all(isinstance(f, str) and f for f in names):
        raise ArgumentError(f"request needs a kind and field names, not {kind!r} {fields!r}"[:200])

    def mark(method: F) -> F:
        setattr(method, _MARK, (kind, tuple(fields)))
        return method

    return mark


def requests_of(*owners: type) -> dict[str, Request]:
    """Every request the owners' marked methods answer, by kind, in the order met (owners in order, each
    class's own methods in definition order, then its bases'). A kind answered by two methods raises
    ArgumentError: one request, one handler.
    """
    table: dict[str, Request] = {}
    for owner in owners:
        seen: set[str] = set()
        for cls in owner.__mro__:
            for name, member in vars(cls).items():
                mark = getattr(member, _MARK, None)
                if mark is None or name in seen:
                    continue
                seen.add(name)
                kind, fields = mark
                if kind in table:
                    other = table[kind]
                    raise ArgumentError(f"request {kind!r} is answered twice: {other.owner.__name__}.{other.method} "
                                        f"and {owner.__name__}.{name}")
                table[kind] = Request(kind, fields, owner, name)
    return table


@dataclass(frozen=True)
class Trait:
    """A synced trait a feature adds to the widget: its value where the feature is absent, what it holds
    (the trait's help text, and its documentation), whether a frame (a page, a class screen) always holds
    the empty value (`fixed`), and the name the front end's views read it under (`view`, when it differs).
    The screen contract (`contract.SCREEN`) lists it with the others.
    """

    empty: Any
    doc: str
    fixed: bool = False
    view: str | None = None


class Feature:
    """A part of a screen with synced traits and requests of its own (the notes, the quiz): a module of
    `screen/`, listed once in `features.FEATURES`.

    A subclass names itself (`name`), declares its `traits`, answers `synced(perspective)` with their
    values for the perspective shown, and marks its request handlers with `@request`. It may add to the
    `offers` trait (`offers`) and change the info panel (`info`). `attach(desk, **options)` makes it for a
    widget, or gives None where the widget has none of it (the quiz outside quiz mode).
    """

    name: ClassVar[str] = ""
    absent: ClassVar[str] = "a feature"
    """What a widget without this feature lacks, in words: "The quiz_go request is for quiz mode"."""
    traits: ClassVar[dict[str, Trait]] = {}

    @classmethod
    def attach(cls, desk: Desk, **options: Any) -> Feature | None:
        """The feature on a widget's desk (None: this widget has none of it)."""
        return cls(desk)  # type: ignore[call-arg]

    def synced(self, perspective: Perspective) -> dict[str, Any]:
        """The values of `traits` for `perspective`."""
        return {}

    def offers(self, perspective: Perspective, game: Any = None) -> dict[str, Any]:
        """What this feature adds to the `offers` trait (what the screen may start), by name; `game` is the game
        shown (`Synced.state` has it made already: a feature need not make it again).
        """
        return {}

    def info(self, info: dict[str, Any]) -> dict[str, Any]:
        """The info panel as this feature lets the screen show it (the quiz hides the odds)."""
        return info
