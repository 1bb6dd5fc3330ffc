"""Example replays shipped with the package, for the notebooks and for a first look.

>>> sorted(EXAMPLES)
['discarded_by_opponent', 'found_early', 'long_with_reshuffle']
>>> load("found_early").result.reason
<Reason.FOUND: 'found'>
"""

from __future__ import annotations

from pathlib import Path

from .errors import ReplayError
from .replay import Replay

FOLDER = Path(__file__).parent / "replays"

EXAMPLES: dict[str, str] = {
    "found_early": "Player 2 finds their needle on turn 4, while behind: finding it ends the round, and the lead wins.",
    "discarded_by_opponent": "Player 1 discards Player 2's needle on turn 17 without knowing it, and wins 1-0.",
    "long_with_reshuffle": "A longer game in which the draw pile runs out and the discards are reshuffled.",
}

_RECIPES = {  # how each was made: (bot names, seed)
    "found_early": (("greedy", "odds"), 14),
    "discarded_by_opponent": (("greedy", "odds"), 4),
    "long_with_reshuffle": (("greedy", "greedy"), 89),
}


def load(name: str) -> Replay:
    """The example replay `name` (see EXAMPLES), checked as every replay is on load."""
    if name not in EXAMPLES:
        raise ReplayError(f"No example replay {name!r}"[:200] + f"; there are {', '.join(sorted(EXAMPLES))}")
    return Replay.load(FOLDER / f"{name}.json")


def _write_all() -> None:  # pragma: no cover - run by hand: python -m needle_widget.examples
    from .bots import make_bot
    from .sim import play_game

    FOLDER.mkdir(exist_ok=True)
    for name, ((a, b), seed) in _RECIPES.items():
        play_game(make_bot(a, seed=1), make_bot(b, seed=2), seed=seed).replay().save(FOLDER / f"{name}.json")


if __name__ == "__main__":  # pragma: no cover
    _write_all()
