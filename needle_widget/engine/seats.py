"""Seats and perspectives: who plays, who looks, and what each is called (one source for all).

Players are the ints 0 and 1 (C2), shown as "Player 1" and "Player 2". A perspective
is a player, "spectator" or "teacher" (docs/RULES.md "Who knows what"). The front end
receives these names and labels from Python (`shared.shared_constants`, generated into js/src/shared.js), never a copy.

>>> player_name(0), PERSPECTIVE_LABELS["teacher"]
('Player 1', 'Teacher')
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
