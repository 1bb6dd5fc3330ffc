"""The teacher's board as a screen source (`screen.source.Source`): the room's board for the view shown, and the
board's requests ("view", and the room's own: "reveal", "open"), bound by the Jupyter adapter's `BoardWidget`.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Protocol

from ..engine.errors import ArgumentError, quote

__all__ = ["BoardSource", "VIEWS", "check_view"]

VIEWS = ("teacher", "projector")
"""The board's views: the teacher's (names) and the projector's (counts and distributions, no names)."""


class BoardRoom(Protocol):
    """What a board needs of a classroom room."""

    def board_state(self, view: str) -> dict[str, Any]:
        """The board, as the schema of the contract, for `view`."""

    def subscribe(self, callback: Callable[[], None]) -> Callable[[], None]:
        """Call `callback()` (from any thread) after each change; returns the unsubscribe."""

    def board_request(self, message: dict[str, Any]) -> None:
        """{"kind": "reveal"} or {"kind": "open", "name": ...}; a refusal raises a NeedleError."""


def check_view(view: Any) -> str:
    """`view` checked: "teacher" or "projector"."""
    if view not in VIEWS:
        raise ArgumentError(f"view must be 'teacher' or 'projector', not {quote(view)}")
    return view


class BoardSource:
    """`room`'s board seen in `view`: `state()` is {"board", "view"}; the request {"kind": "view", "view"} switches
    the view, any other goes to the room (`Room.board_request`). Closing it leaves the room open.
    """

    def __init__(self, room: BoardRoom, view: str = "teacher") -> None:
        needs = ("board_state", "subscribe", "board_request")
        missing = [name for name in needs if not callable(getattr(room, name, None))]
        if missing:
            raise ArgumentError(f"A board needs a classroom Room, not {quote(room)}: it has no {', '.join(missing)}")
        self.room, self.view = room, check_view(view)

    def state(self) -> dict[str, Any]:
        """The board for the view shown, and the view."""
        return {"board": self.room.board_state(self.view), "view": self.view}

    def request(self, message: Any) -> None:
        """{"kind": "view", "view"} here; "reveal", "open" and any other to the room (which refuses what it lacks)."""
        if isinstance(message, dict) and message.get("kind") == "view":
            self.view = check_view(message.get("view"))
            return
        self.room.board_request(message)

    def subscribe(self, callback: Callable[[], None]) -> Callable[[], None]:
        """The room's changes."""
        return self.room.subscribe(callback)

    def close(self) -> None:
        """The room stays open."""
