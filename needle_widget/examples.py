"""Example replays shipped with the package, for the notebooks and for a first look.

>>> sorted(EXAMPLES)
['detective', 'discarded_by_opponent', 'found_early', 'long_with_reshuffle']
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
    "detective": "GreedyBot against GreedyBot, 5-4, with a teacher's notes and five questions for Player 1's seat.",
}

_RECIPES = {  # how each was made: (bot names, seed)
    "found_early": (("greedy", "odds"), 14),
    "discarded_by_opponent": (("greedy", "odds"), 4),
    "long_with_reshuffle": (("greedy", "greedy"), 89),
    "detective": (("greedy", "greedy"), 173),
}

_NOTES: dict[str, list[dict]] = {  # the teacher's notes a recipe's replay is saved with (notebook 05)
    "detective": [
        {"step": 2, "text": "Turn 1: both needles are picked and you draw first. You may take the top card of the "
                            "pile, or steal a random card from Player 2's seven.",
         "question": {"kind": "pile_or_steal"}},
        {"step": 15, "text": "Turn 5. You have not seen your needle yet: it is in the pile or in Player 2's "
                             "hand.", "question": {"kind": "next_draw"}},
        {"step": 29, "text": "You picked A♣ as your needle. Player 2 is GreedyBot: it picks the card its hand "
                             "needs least, and it has thrown away A♦ and A♥. Could it have picked your card?",
         "perspective": 0, "question": {"kind": "needle"}},
        {"step": 29, "text": "Both players picked A♣: one card can be two players' needle.", "perspective": "teacher"},
        {"step": 36, "text": "Player 2 has just gone ahead, 3-2, and you hold no set.", "question": {"kind": "winner"}},
        {"step": 44, "text": "4-4, turn 13, and you may steal again. Who wins from here?",
         "question": {"kind": "winner"}},
    ],
}


def load(name: str) -> Replay:
    """The example replay `name` (see EXAMPLES), checked as every replay is on load."""
    if name not in EXAMPLES:
        raise ReplayError(f"No example replay {name!r}"[:200] + f"; there are {', '.join(sorted(EXAMPLES))}")
    return Replay.load(FOLDER / f"{name}.json")


_VERSION_1 = ("found_early", "discarded_by_opponent", "long_with_reshuffle")
"""Made before notes existed; kept as version 1 files (the tests load them as version 1 samples)."""


def _write_all(names: list[str] | None = None) -> None:  # pragma: no cover - by hand: python -m needle_widget.examples
    """Write the replays of `names` (default: every recipe) from their recipes, with their notes."""
    from .bots import make_bot
    from .sim import play_game

    FOLDER.mkdir(exist_ok=True)
    for name, ((a, b), seed) in _RECIPES.items():
        if names and name not in names:
            continue
        replay = play_game(make_bot(a, seed=1), make_bot(b, seed=2), seed=seed).replay()
        replay.replace_notes(_NOTES.get(name, ()))
        text = replay.to_json()
        if name in _VERSION_1:  # a version 2 file without notes is the version 1 text but for the version
            text = text.replace('"version": 2,', '"version": 1,', 1)
        (FOLDER / f"{name}.json").write_text(text, encoding="utf-8")


if __name__ == "__main__":  # pragma: no cover
    import sys

    _write_all(sys.argv[1:] or None)
