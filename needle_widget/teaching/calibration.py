"""Is the opponent model calibrated? The notes behind notebook 03's 2,000-game check.

In each GreedyBot game one discard of Player 1 is noted (the k-th, k from 1 to 4 drawn from the
game's seed before it starts, so the moment does not depend on how the game goes): what the
model-free odds (`knowledge.opponent_needle_odds`, assumptions A1-A3) and the GreedyBot model's odds
(300 worlds, `worlds.posterior`) said about Player 2's needle, and the truth. `note(seed)` makes one;
`save_notes` / `load_notes` keep a table of them, so a lesson can read 2,000 games' notes in a moment
(made by `python -m needle_widget.teaching.calibration notebooks/data/needle_calibration.csv`, about two
minutes), and the test run makes a sample again and compares it with the table.

>>> n = note(7)
>>> n.seed, 0 <= n.free_in_hand <= 1, 0 < n.model_truth <= 1, n.in_hand in (True, False)
(7, True, True, True)
"""

from __future__ import annotations

import csv
import math
import os
import random
from collections.abc import Iterable
from dataclasses import astuple, dataclass, fields
from typing import Any

from ..engine.errors import NeedleError
from ..engine.observation import PlayerView
from ..engine.paths import check_path, write_text
from ..inference.knowledge import opponent_needle_odds
from ..players.bots import GreedyBot
from ..players.sim import play_game

__all__ = ["Note", "load_notes", "note", "notes", "same_note", "save_notes"]

MODEL_WORLDS = 300
"""Worlds the GreedyBot model weighs for each note."""


@dataclass(frozen=True)
class Note:
    """What each model said at one noted discard of Player 1 in a GreedyBot game, and the truth."""

    seed: int
    """The game's seed (`play_game(spy, GreedyBot(), seed=seed)`)."""
    free_in_hand: float
    """Model-free P(Player 2's needle is in my hand)."""
    model_in_hand: float
    """The same under the GreedyBot model."""
    free_truth: float
    """Model-free P(the true needle card)."""
    model_truth: float
    """The same under the GreedyBot model."""
    in_hand: bool
    """Whether the needle really was in Player 1's hand."""


class _Spy:
    """Plays like GreedyBot; at its k-th discard (k drawn from the game's seed), keeps the view with its history."""

    name, reads_history = "greedy", True

    def __init__(self, seed: int) -> None:
        self.bot = GreedyBot()
        self.view: PlayerView | None = None
        self.want, self.count = random.Random(seed).randint(1, 4), 0

    def choose(self, view: PlayerView, legal_actions: Any) -> Any:
        if view.phase == "discard":
            self.count += 1
            if self.count == self.want:
                self.view = view
        return self.bot.choose(view, legal_actions)

    def explain(self) -> str:
        return self.bot.explain()


def note(seed: int) -> Note | None:
    """The note of the GreedyBot game of `seed`, or None if it ended before Player 1's k-th discard."""
    spy = _Spy(seed)  # the measuring code knows the deal; a bot's new_game is not told it
    game = play_game(spy, GreedyBot(), seed=seed)
    view = spy.view
    if view is None:
        return None
    free = opponent_needle_odds(view)
    model = opponent_needle_odds(view, model=GreedyBot(), n=MODEL_WORLDS, seed=seed)
    needle = game.needle(1)
    assert needle is not None  # the round was played through: both needles were picked
    return Note(seed, free.in_my_hand, model.in_my_hand, free.of(needle), model.of(needle), needle in view.hand)


def same_note(a: Note | None, b: Note | None) -> bool:
    """Whether two notes say the same: the seed and the truth exactly, each probability to 1e-9 of itself.

    The table was written by one Python and may be checked by another: Python 3.12 and later add floats with
    compensated summation (`sum`), so a probability may differ from 3.11's in its last bits.

    >>> same_note(Note(1, 0.3, 0.2, 0.3, 0.4, True), Note(1, 0.1 + 0.2, 0.2, 0.3, 0.4, True))  # 0.1 + 0.2 != 0.3
    True
    """
    if a is None or b is None:
        return a is b
    pairs = zip(astuple(a)[1:5], astuple(b)[1:5], strict=True)
    close = all(math.isclose(x, y, rel_tol=1e-9, abs_tol=1e-15) for x, y in pairs)
    return a.seed == b.seed and a.in_hand == b.in_hand and close


def notes(seeds: Iterable[int]) -> list[Note]:
    """The notes of the games of `seeds` that reached their noted discard, in seed order given."""
    return [n for n in (note(s) for s in seeds) if n is not None]


_NAMES = tuple(f.name for f in fields(Note))


def save_notes(rows: Iterable[Note], path: str | os.PathLike) -> None:
    """Write notes as CSV (floats as Python writes them, so they read back exactly)."""
    lines = [",".join(_NAMES)] + [",".join(repr(v) if isinstance(v, float) else str(v) for v in astuple(n))
                                  for n in rows]
    write_text(path, "\n".join(lines) + "\n", "save_notes")


def load_notes(path: str | os.PathLike) -> list[Note]:
    """The notes in a CSV `save_notes` wrote; anything else raises NeedleError naming the file and row."""
    name = str(check_path(path, "load_notes"))
    try:
        with open(name, encoding="utf-8", newline="") as f:
            reader = csv.reader(f)
            if next(reader, None) != list(_NAMES):
                raise NeedleError(f"{name!r} is not a table of notes: its header is not {','.join(_NAMES)}")
            out = []
            for k, row in enumerate(reader, 1):
                try:
                    seed, *odds, in_hand = row
                    if in_hand not in ("True", "False") or len(odds) != 4:
                        raise ValueError(row)
                    free_in_hand, model_in_hand, free_truth, model_truth = map(float, odds)
                    out.append(Note(int(seed), free_in_hand, model_in_hand, free_truth, model_truth, in_hand == "True"))
                except ValueError:
                    raise NeedleError(f"{name!r}, row {k}: not a note: {row!r}"[:300]) from None
            return out
    except (OSError, csv.Error, UnicodeDecodeError) as error:
        raise NeedleError(f"cannot read the notes {name!r}: {error}") from None


def main(argv: list[str] | None = None) -> None:  # pragma: no cover - writes the table (about two minutes)
    """Write the notes of seeds 0-1999 to the path given (default notebooks/data/needle_calibration.csv)."""
    import sys

    path = (argv or sys.argv[1:] or ["notebooks/data/needle_calibration.csv"])[0]
    save_notes(notes(range(2000)), path)


if __name__ == "__main__":  # pragma: no cover
    main()
