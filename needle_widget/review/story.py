"""A seat's story of a recorded game: what one seat saw, and nothing else.

This is the review's one door to the replay. It walks the game once and keeps, for one seat,
only what that seat could see: its view (`game.view(seat)`, the dict a screen gets) before each
of its decisions, the action it chose, the game narrated as the seat heard it, and the result
(public once the round is over). Everything the review computes is computed from a `SeatStory`,
so two games that the seat could not tell apart up to a decision give the same story up to it,
and the same review (the twin tests check this).

>>> from needle_widget import Game, actions
>>> g = Game(seed=7)
>>> for a in ("needle 7h", "needle qs", "draw", "end sets"):
...     g.apply(actions.parse(a))
>>> story = seat_story(g.replay(), 0)
>>> [(m.step, str(m.action)) for m in story.moments]
[(0, 'Choose needle 7♥'), (2, 'Draw from pile'), (3, 'Done laying sets')]
>>> story.lines[2]
'You drew 9♦ from the pile.'
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..engine.actions import Action
from ..engine.errors import ArgumentError
from ..engine.narration import narrate
from ..engine.result import Result
from ..engine.seats import seat_named
from ..records.replay import Replay

__all__ = ["Moment", "SeatStory", "check_seat", "seat_story"]


@dataclass(frozen=True)
class Moment:
    """One decision of the seat with more than one legal action: the step (index of the action in the
    replay), the seat's view just before it, the action chosen and how many were legal.
    """

    step: int
    view: dict[str, Any]
    action: Action
    choices: int


@dataclass(frozen=True)
class SeatStory:
    """What `seat` saw of a recorded game: its decisions, the game in its words, its view at the end."""

    seat: int
    moments: tuple[Moment, ...]
    lines: tuple[str, ...]
    """One sentence per action, as `narration` tells it to the seat."""
    actors: tuple[int, ...]
    """Who played each action (public)."""
    kinds: tuple[str, ...]
    """The kind of each action ("Discard", "DrawPile", ...: public, unlike a needle's card)."""
    end_view: dict[str, Any]
    result: Result | None

    @property
    def length(self) -> int:
        """How many actions the game has so far."""
        return len(self.lines)


def check_seat(seat: Any) -> int:
    """`seat` if it is 0 or 1 (Player 1 or Player 2), else ArgumentError."""
    named = seat_named(seat)
    if named is None:
        raise ArgumentError(f"seat must be 0 or 'p1' (Player 1), 1 or 'p2' (Player 2), not {seat!r}"[:200])
    return named


def _forced(line: str) -> str:
    """A line of the seat's own forced step, told as what happened to it: "You had no set to lay." (only for
    its own steps: whether the opponent could lay a set is its hidden hand's business).
    """
    return line.replace("You laid no set.", "You had no set to lay.", 1)


def seat_story(replay: Replay, seat: int) -> SeatStory:
    """The story of `replay` as `seat` (0 or 1) saw it (see the module docstring)."""
    if not isinstance(replay, Replay):
        raise ArgumentError(f"review needs a Replay (Replay.load, game.replay()), not {type(replay).__name__}")
    seat = check_seat(seat)
    game = replay.game_at(0)
    moments, forced = [], set()
    for k, step in enumerate(replay.steps):
        if game.to_move == seat:
            if game.only_action() is None:
                moments.append(Moment(k, game.view(seat), step.action, len(game.legal_actions())))
            else:
                forced.add(k)
        game = replay.game_at(k + 1)
    lines = tuple(_forced(line) if k in forced else line for k, line in enumerate(narrate(game, seat)))
    actors = tuple(step.player for step in replay.steps)
    kinds = tuple(type(step.action).__name__ for step in replay.steps)
    return SeatStory(seat, tuple(moments), lines, actors, kinds, game.view(seat), game.result)

