"""One perspective's synced state at any step of a replay, as a page or a follower shows it.

A frame is `Synced.state()` of a replay session shown from one perspective, with the controls that
need Python taken out (other perspectives, the panels, branches, notes editing): what the one-file
HTML replay carries (`apps.export`) and what a student's kernel receives in a class
(`needle_widget.classroom`). Nothing else of the replay is in it (not its seed, deck or actions),
so twin replays that differ only in what the perspective cannot see give equal frames.

>>> from needle_widget import examples
>>> frames = Frames(examples.load("found_early"), perspective=0, spoilers=False)
>>> state = frames.at(3)
>>> state["step"], state["steps"], state["perspectives"], "seed" in str(state)
(3, 3, [0], False)
"""

from __future__ import annotations

import json
from typing import Any

from ..engine.errors import ArgumentError, quote
from ..engine.seats import PERSPECTIVE_LABELS
from ..engine.views import Perspective, check_perspective
from ..records.replay import Replay
from ..records.variations import Variation
from .contract import frame_fixed
from .desk import Desk
from .reviewpanel import ReviewPanel
from .session import Session
from .synced import Synced

__all__ = ["FIXED", "FORMAT", "REF", "Frames", "label", "pack", "unpack"]

REF = "$r"
"""The key of a reference to a pool entry: ``{"$r": 3}`` stands for ``pool[3]``."""
FORMAT = "needle-html-1"
"""The version of packed frames (`pack`'s "format")."""
_SMALLEST = 24  # objects and arrays whose JSON is shorter than this stay inline

FIXED: dict[str, Any] = frame_fixed()
"""The traits of a frame that show a finished replay with nothing to ask Python (the screen contract's
`fixed` slots): one perspective, no panels, no branch, no notes editing, no autoplay running, no error."""


def label(perspective: Perspective) -> str:
    """"Player 1", "Player 2", "the spectator", "the teacher" (from seats.PERSPECTIVE_LABELS)."""
    name = PERSPECTIVE_LABELS[perspective]
    return name if perspective in (0, 1) else f"the {name.lower()}"


class Frames:
    """The frames of `replay` from `perspective` (spoiler-free with `spoilers=False`: the frame of step k
    tells nothing of a later step). `review`: the review panel open for the seats the perspective may
    see (`reveal_at_end`: the opponent's too, see `apps.export`), at `review_worlds` worlds a decision.
    """

    def __init__(self, replay: Replay, perspective: Perspective = 0, spoilers: bool = True, *, review: bool = False,
                 reveal_at_end: bool = False, review_worlds: int | None = None) -> None:
        perspective = check_perspective(perspective)
        for name, value in (("review", review), ("reveal_at_end", reveal_at_end), ("spoilers", spoilers)):
            if not isinstance(value, bool):
                raise ArgumentError(f"{name} must be True or False, not {quote(value)}")
        self.replay, self.perspective = replay, perspective
        self._session = Session(replay=replay, perspective=perspective, spoilers=spoilers,
                                reveal_at_end=reveal_at_end)
        self._desk = Desk(self._session)
        self._synced = Synced(self._desk)
        if review:
            panel = next(f for f in self._synced.features if isinstance(f, ReviewPanel))
            panel.show(perspective, True, review_worlds)
        self._only = f"This file holds {label(perspective)}'s view only"

    def __len__(self) -> int:
        return len(self.replay) + 1

    def at(self, k: int, hidden_reason: str | None = None) -> dict[str, Any]:
        """The frame of step `k` (0 to len(replay)); `hidden_reason` says why the other perspectives are closed."""
        if type(k) is not int or not 0 <= k <= len(self.replay):
            raise ArgumentError(f"There is no step {quote(k)}: the replay has steps 0 to {len(self.replay)}")
        self.close_line()
        self._session.go(k)
        return self._frame(hidden_reason)

    def close_line(self) -> None:
        """Close the variation a `line_at` left open (the desk shows the game again): made frames hold no line
        open, so the replay's variations may change meanwhile.
        """
        if self._desk.session is not self._desk.home:
            self._desk.back()

    def lines(self) -> list[tuple[int, Variation]]:
        """The variations the perspective may open anywhere in the replay (in spoiler-free frames: each from
        the step it starts at on), with their index in the replay's `variations`.
        """
        open_ = set(self.replay.variations_for(self.perspective, sampled_only=not self._session.spoilers))
        return [(k, v) for k, v in enumerate(self.replay.variations) if v in open_]

    def line_at(self, index: int, k: int, hidden_reason: str | None = None) -> dict[str, Any]:
        """The frame of step `k` (from the variation's step to its end) of the variation `index` (one of
        `lines()`): its line, with the game's moves up to where it starts (nothing later of the game).
        """
        variation = dict(self.lines()).get(index) if type(index) is int else None
        if variation is None:
            raise ArgumentError(f"There is no variation {quote(index)} in {label(self.perspective)}'s view")
        if type(k) is not int or not variation.step <= k <= variation.end:
            raise ArgumentError(f"There is no step {quote(k)} in this variation: it has steps {variation.step} to "
                                f"{variation.end}")
        self.close_line()
        self._session.go(variation.step)
        self._desk.open_line(index, k)
        state = self._frame(hidden_reason)
        lines = state["variations"]
        state["variations"] = {**lines, "main": lines["main"][: variation.step]}
        return state

    def _frame(self, hidden_reason: str | None) -> dict[str, Any]:
        while (job := self._desk.next_job()) is not None:
            job.run()
        state = {**self._synced.state(), **FIXED, "perspectives": [self.perspective],
                 "hidden_reason": hidden_reason or self._only}
        if state.get("variations"):
            state["variations"] = {**state["variations"], "editable": False, "reason": self._only}
        return state


def pack(values: list[Any]) -> dict[str, Any]:
    """`values` as {"format", "pool", "items"}: every object or array whose JSON is at least
    _SMALLEST characters is stored once in the pool and referred to as {"$r": index}.

    >>> hand = ["AC", "2C", "3C", "4C", "5C"]
    >>> packed = pack([{"hand": hand, "turn": 1}, {"hand": hand, "turn": 2}])
    >>> packed["pool"]
    [['AC', '2C', '3C', '4C', '5C'], {'hand': {'$r': 0}, 'turn': 1}, {'hand': {'$r': 0}, 'turn': 2}]
    >>> packed["items"]
    [{'$r': 1}, {'$r': 2}]
    >>> unpack(packed) == [{"hand": hand, "turn": 1}, {"hand": hand, "turn": 2}]
    True
    """
    pool: list[Any] = []
    index: dict[str, int] = {}

    def intern(value: Any) -> Any:
        if isinstance(value, dict):
            if REF in value:
                raise ArgumentError(f"Cannot pack a state with a {REF!r} key: {quote(value)}")
            encoded: Any = {str(k): intern(v) for k, v in value.items()}
        elif isinstance(value, (list, tuple)):
            encoded = [intern(v) for v in value]
        else:
            return value
        text = _json(encoded)
        if len(text) < _SMALLEST:
            return encoded
        if text not in index:
            index[text] = len(pool)
            pool.append(encoded)
        return {REF: index[text]}

    items = [intern(v) for v in values]
    return {"format": FORMAT, "pool": pool, "items": items}


def unpack(packed: dict[str, Any]) -> list[Any]:
    """The values `pack` stored (the page's script does the same in JavaScript)."""
    pool = packed["pool"]

    def expand(value: Any) -> Any:
        if isinstance(value, dict):
            if set(value) == {REF}:
                return expand(pool[value[REF]])
            return {k: expand(v) for k, v in value.items()}
        if isinstance(value, list):
            return [expand(v) for v in value]
        return value

    return [expand(v) for v in packed["items"]]


def _json(value: Any) -> str:
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False, allow_nan=False)
