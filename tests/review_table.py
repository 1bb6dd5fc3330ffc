"""The 10x-budget judgments behind test_review_stats.py, kept in tests/data/review_10x.jsonl.

Judging a decision with ten times the default budget takes a second or two, too long for every test
run, so the table keeps them; the test run recomputes a sample and compares it exactly (the same seed
gives the same numbers on every machine). Rewrite it after changing how the review values a decision:

    python tests/review_table.py

Each row is one decision of a seat in a game played by `game_of(kind, index)`: GreedyBot ("greedy",
both seats) or RandomBot ("random", against GreedyBot), with the chosen action's 10x loss and the
worst candidate by the 10x values, and (where that worst is a planted-blunder candidate) its own 10x
judgment. The 10x budget is fixed (`more=0`: no decision is valued again).
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

from needle_widget.engine.actions import Action, from_dict
from needle_widget.engine.game import Game
from needle_widget.engine.playout import play_out
from needle_widget.players.bots import GreedyBot, RandomBot
from needle_widget.records.replay import Replay
from needle_widget.review import DEFAULT_WORLDS, THRESHOLDS, judge
from needle_widget.review.story import Moment, seat_story

TABLE = Path(__file__).parent / "data" / "review_10x.jsonl"
BIG = 10 * DEFAULT_WORLDS
"""The 10x budget."""
SEED = 7
"""The seed of the 10x judgments."""
GAMES = {"greedy": range(8), "random": range(8)}
"""Which games of each kind the table covers."""


def _played(players: tuple[Any, Any], seed: int) -> Replay:
    """The deal `seed` played by `players` as the table's games were: each bot told the deal's own seed
    (`sim.play_game` tells it `bots.bot_seed`, which came later and would change the RandomBot's games).
    """
    game = Game(seed=seed)
    game.players = (players[0].name, players[1].name)
    for p, bot in enumerate(players):
        bot.new_game(seed, p)
    play_out(game, players)
    return game.replay()


def game_of(kind: str, index: int) -> tuple[Replay, tuple[int, ...]]:
    """The game `index` of `kind` and the seats reviewed: both GreedyBots, or the RandomBot's seat."""
    seed = 20_000 + index
    if kind == "greedy":
        return _played((GreedyBot(), GreedyBot()), seed), (0, 1)
    seat = index % 2
    players = (RandomBot(seed=index), GreedyBot()) if seat == 0 else (GreedyBot(), RandomBot(seed=index))
    return _played(players, seed), (seat,)


def moments(kind: str, index: int) -> list[Moment]:
    """The decisions the table covers in game `index` of `kind`."""
    replay, seats = game_of(kind, index)
    return [m for seat in seats for m in seat_story(replay, seat).moments]


def row(kind: str, index: int, m: Moment) -> dict[str, Any]:
    """The table's row for decision `m`."""
    big = judge(m.view, m.action, m.step, worlds=BIG, seed=SEED, more=0)
    top = max(v.value for v in big.values)
    worst = min(big.values, key=lambda v: v.value)
    out: dict[str, Any] = {"kind": kind, "game": index, "seat": m.view["perspective"], "step": m.step,
                           "loss": big.loss, "se": big.se, "worst": worst.action.to_dict(),
                           "worst_gap": top - worst.value}
    if top - worst.value > THRESHOLDS["blunder"] and worst.action != m.action:
        planted = judge(m.view, worst.action, m.step, worlds=BIG, seed=SEED, more=0)
        out["planted"] = [planted.loss, planted.se, planted.label]
    return out


def load() -> list[dict[str, Any]]:
    """The table's rows."""
    return [json.loads(line) for line in TABLE.read_text(encoding="utf-8").splitlines() if line]


def worst_action(r: dict[str, Any]) -> Action:
    """The row's worst candidate."""
    return from_dict(r["worst"])


def main() -> None:  # pragma: no cover - rewrites the table
    TABLE.parent.mkdir(exist_ok=True)
    with TABLE.open("w", encoding="utf-8") as out:
        for kind, games in GAMES.items():
            for index in games:
                for m in moments(kind, index):
                    out.write(json.dumps(row(kind, index, m)) + "\n")
                    out.flush()
                print(kind, index, file=sys.stderr, flush=True)


if __name__ == "__main__":  # pragma: no cover
    main()
