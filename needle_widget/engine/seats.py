"""Seats and perspectives: who plays, who looks, and what each is called (one source for all).

Players are the ints 0 and 1 (C2), shown as "Player 1" and "Player 2". A perspective
is a player, "spectator" or "teacher" (docs/RULES.md "Who knows what"). Code counts seats
from 0; a person names them as people do: wherever a seat or perspective is typed,
"p1", "Player 1" and "P1" mean seat 0 and "p2", "Player 2" mean seat 1 (`seat_named`). The front end
receives these names and labels from Python (`shared.shared_constants`, generated into js/src/shared.js), never a copy.

>>> player_name(0), PERSPECTIVE_LABELS["teacher"]
('Player 1', 'Teacher')
>>> perspective_named("p2"), perspective_named("Player 1"), perspective_named("Spectator")
(1, 0, 'spectator')
"""

from __future__ import annotations

Perspective = int | str
PERSPECTIVES: tuple[Perspective, ...] = (0, 1, "spectator", "teacher")
PERSPECTIVE_LABELS: dict[Perspective, str] = {
    0: "Player 1", 1: "Player 2", "spectator": "Spectator", "teacher": "Teacher",
}


def player_name(player: int) -> str:
    """"Player 1" for 0, "Player 2" for 1."""
    return f"Player {player + 1}"


SEAT_NAMES: dict[str, int] = {"p1": 0, "player1": 0, "p2": 1, "player2": 1}
"""What a person may type for a seat (lower case, spaces, "_" and "-" removed): "p1", "Player 1", "player_2"."""


def _key(text: str) -> str:
    return "".join(ch for ch in text.lower() if ch not in " _-")


def seat_named(value: object) -> int | None:
    """The seat (0 or 1) that `value` names: the int 0 or 1, or a name people use ("p1", "Player 2");
    None if it names no seat. Booleans are not seats.

    >>> seat_named("p1"), seat_named("Player 2"), seat_named(1), seat_named("2"), seat_named(True)
    (0, 1, 1, None, None)
    """
    if type(value) is int:
        return value if value in (0, 1) else None
    if isinstance(value, str) and len(value) <= 20:
        return SEAT_NAMES.get(_key(value))
    return None


def perspective_named(value: object) -> Perspective | None:
    """The perspective that `value` names: a seat (`seat_named`), "spectator" or "teacher" (any case);
    None if it names none.
    """
    seat = seat_named(value)
    if seat is not None:
        return seat
    if isinstance(value, str) and len(value) <= 20:
        word = value.strip().lower()
        if word in ("spectator", "teacher"):
            return word
    return None


def as_named(value: object) -> object:
    """`value` as the code's perspective if it names one ("p2" -> 1, "Teacher" -> "teacher"), else
    `value` unchanged, for the strict check that follows to refuse with its own message.

    >>> as_named("p2"), as_named("Player 1"), as_named(None), as_named("p3")
    (1, 0, None, 'p3')
    """
    named = perspective_named(value)
    return value if named is None else named


def as_seat(value: object) -> object:
    """`value` as the code's seat if it names one ("p2" -> 1, "Player 1" -> 0), else `value` unchanged (a
    perspective word is left as typed, for a strict check that wants the code's own "teacher").

    >>> as_seat("p2"), as_seat("Teacher"), as_seat("teacher")
    (1, 'Teacher', 'teacher')
    """
    seat = seat_named(value)
    return value if seat is None else seat

