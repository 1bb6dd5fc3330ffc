"""A screen source: one screen's synced state and the requests it answers, whoever computes it.

A screen is served from one of three sources, and one widget class of the Jupyter adapter binds any of them
(`jupyter.sourcewidget.SourceWidget`): it copies `state()` into its traits, passes the browser's requests to
`request` and closes the source with itself.

- `DeskSource` (here): the local screen, a desk and its features in this kernel (`NeedleWidget`'s; a
  class screen's own practice is one too);
- a student's seat in a class (`classroom.student.Student`): the frames the room sent, navigation over them,
  and the rest forwarded to the room, where the seat's own `Session` answers through the same table;
- the teacher's board (`classroom.board.BoardSource`).

Every request of a screen has one name, one set of fields and one handler, in `features.REQUESTS`: the
session's, the desk's and the features' methods marked with `@request`.

>>> from needle_widget import Game
>>> from needle_widget.screen.session import Session
>>> source = DeskSource.of(Session(Game(seed=3), perspective=0))
>>> source.request({"kind": "perspective", "to": "teacher"})  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
needle_widget.engine.errors.PerspectiveError: Cannot switch to perspective 'teacher' now: allowed are Player 1, ...
>>> source.state()["perspectives"]
[0, 'spectator']
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, Protocol, cast

from ..engine.errors import ArgumentError, NeedleError, quote
from ..engine.observers import Observers
from .desk import Desk
from .features import FEATURES, REQUESTS
from .plugin import Feature
from .session import Session
from .synced import Synced

__all__ = ["DeskSource", "Source", "handler_of"]


class Source(Protocol):
    """What a screen widget binds: a state, the requests it answers, news of its changes, and an end."""

    def state(self) -> dict[str, Any]:
        """Every synced trait of the screen it serves (but the widget's own: `error`, `answer`, `scale`)."""

    def request(self, message: dict[str, Any]) -> None:
        """A browser request {kind, fields...}; a refusal raises a NeedleError whose text the screen shows."""

    def subscribe(self, callback: Callable[[], None]) -> Callable[[], None]:
        """Call `callback()` (from any thread) after each change that no request made; returns the unsubscribe."""

    def close(self) -> None:
        """The screen is gone: stop whatever the source runs for it."""


def handler_of(kind: str, desk: Desk, features: Sequence[Feature], mode: str) -> Any:
    """Who answers a request of `kind` (`features.REQUESTS`): the session shown, the desk, or one of `features`;
    a feature's request on a screen without it is refused, naming the screen's `mode`.
    """
    if kind not in REQUESTS:
        raise NeedleError(f"Unknown request kind {quote(kind)} ({', '.join(REQUESTS)})")
    owner = REQUESTS[kind].owner
    if owner is Session:
        return desk.session
    if owner is Desk:
        return desk
    found = next((f for f in features if type(f) is owner), None)
    if found is None:
        absent = cast("type[Feature]", owner).absent
        raise ArgumentError(f"The {kind} request is for {absent}; this widget is in {mode} mode")
    return found


class DeskSource:
    """The local screen: `desk` with its `features`, built for the perspective shown (`synced.Synced`), and every
    request answered through the one table (`handler_of`). `changed()` tells the subscribers of a change made
    outside a request (a bot's move, a panel computed).
    """

    def __init__(self, desk: Desk, features: Sequence[Feature]) -> None:
        self.desk = desk
        self.features: tuple[Feature, ...] = tuple(features)
        self._synced = Synced(desk, self.features)
        self._observers = Observers()

    @classmethod
    def of(cls, session: Session, **options: Any) -> DeskSource:
        """A source of `session` on a desk of its own, with each feature that attaches with `options`."""
        desk = Desk(session)
        return cls(desk, [f for c in FEATURES if (f := c.attach(desk, **options)) is not None])

    def state(self) -> dict[str, Any]:
        """The screen's synced state (`Synced.state`)."""
        return self._synced.state()

    def request(self, message: Any) -> None:
        """Answer `message` {kind, fields...} with its handler (an `id` is the widget's, and ignored here)."""
        kind = message.get("kind") if isinstance(message, dict) else None
        if not isinstance(kind, str):
            raise NeedleError(f"Not a request: {quote(message)}")
        handler = self.handler(kind)
        REQUESTS[kind].call(handler, message)

    def handler(self, kind: str) -> Any:
        """Who answers `kind` on this screen (`handler_of`)."""
        return handler_of(kind, self.desk, self.features, self.desk.session.mode)

    def feature(self, cls: type[Feature]) -> Feature | None:
        """The feature of class `cls` on this screen, or None."""
        return next((f for f in self.features if isinstance(f, cls)), None)

    def run_jobs(self) -> None:
        """Do the panels' work left, here and now (a script, a test, a screen with no worker of its own)."""
        while (job := self.desk.next_job()) is not None:
            job.run()

    def subscribe(self, callback: Callable[[], None]) -> Callable[[], None]:
        """Call `callback()` at each `changed()`; returns the unsubscribe."""
        return self._observers.add(lambda _source: callback(), ArgumentError, "subscribe")

    def changed(self) -> None:
        """Tell the subscribers that the state changed outside a request."""
        self._observers.notify(self)

    def close(self) -> None:
        """Nothing runs for a desk by itself (the widget's runner has its own end)."""
