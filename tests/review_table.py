"""The tables behind test_review_stats.py and test_review_luck.py, kept in tests/data/.

The 10x-budget judgments are kept in tests/data/review_10x.jsonl. Judging a decision with ten times the
default budget takes a second or two, too long for every test run, so the table keeps them; the test run
recomputes a sample and compares it exactly (the same seed gives the same numbers on every machine).
Rewrite it after changing how the review values a decision:

    python tests/review_table.py            # or: python tests/review_table.py 10x

Each row is one decision of a seat in a game played by `game_of(kind, index)`: GreedyBot ("greedy",
both seats) or RandomBot ("random", against GreedyBot), with the chosen action's 10x loss and the
worst candidate by the 10x values, and (where that worst is a planted-blunder candidate) its own 10x
judgment. The 10x budget is fixed (`more=0`: no decision is valued again).

Two more tables judge those rows' decisions again at smaller budgets: each takes 20 to 30 seconds, so
they are kept the same way, and the test run recomputes their first rows and compares them exactly.
Rewrite them after rewriting the 10x table or changing how the review values or labels a decision:

    python tests/review_table.py two-seeds  # tests/data/review_two_seeds.json (`two_seeds`)
    python tests/review_table.py accuracy   # tests/data/review_accuracy.json (`accuracies`)

- two-seeds: every third row (`load()[::3]`), its own action labelled at the default budget with seeds 0
  and 1. Read by test_review_stats.py's `two_seeds` fixture; proved today's by
  test_review_stats.py::test_the_two_seeds_table_is_what_the_review_labels_today.
- accuracy: each "greedy" row, in order, its accuracy at 24 worlds three ways: the GreedyBot's own action;
  the row's worst candidate at every fifth row (the rest keep their own); a legal action drawn with
  `random.Random(5)`, one draw a row. Read by test_review_luck.py's accuracy ordering; proved today's by
  test_review_luck.py::test_the_accuracy_table_is_what_the_review_computes_today.
"""

from __future__ import annotations

import json
import random
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
TWO_SEEDS = TABLE.parent / "review_two_seeds.json"
SEEDS, EVERY = (0, 1), 3
"""The two-seeds table: every EVERY-th row of the 10x table, judged at the default budget with SEEDS."""
ACCURACY = TABLE.parent / "review_accuracy.json"
WORLDS, RNG, PLANT = 24, 5, 5
"""The accuracy table: the "greedy" rows judged at WORLDS worlds, a mistake planted at every PLANT-th row,
the random actions drawn with `random.Random(RNG)`.
"""


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


def key(r: dict[str, Any]) -> tuple[str, int, int, int]:
    """A row's decision: (kind, game, seat, step)."""
    return r["kind"], r["game"], r["seat"], r["step"]


def views(rows: list[dict[str, Any]]) -> dict[tuple[str, int, int, int], Moment]:
    """`key` -> the Moment, for every decision of the games of `rows` (each game played once)."""
    out = {}
    for kind, index in sorted({(r["kind"], r["game"]) for r in rows}):
        for m in moments(kind, index):
            out[kind, index, m.view["perspective"], m.step] = m
    return out


def two_seeds(rows: list[dict[str, Any]], by_key: dict) -> list[dict[str, Any]]:
    """Each row's decision labelled at the default budget with each of SEEDS: the two-seeds table's rows."""
    out = []
    for r in rows:
        m = by_key[key(r)]
        labels = [judge(m.view, m.action, m.step, seed=seed).label for seed in SEEDS]
        out.append({"kind": r["kind"], "game": r["game"], "seat": r["seat"], "step": r["step"], "labels": labels})
    return out


def accuracies(rows: list[dict[str, Any]], by_key: dict, only: set[int] | None = None) -> list[dict[str, Any]]:
    """The accuracy table's rows: each of `rows` (the "greedy" rows, in order) with its accuracy at WORLDS
    worlds three ways: "greedy" (its own action), "planted" (the row's worst candidate at every PLANT-th
    row, its own elsewhere) and "random" (a legal action drawn with `random.Random(RNG)`, one draw a row;
    its own if it drew that). With `only`, just the rows of those indexes are judged and returned (every
    row still draws, so each gets the action it gets in the full table).
    """
    rng = random.Random(RNG)
    out = []
    for n, r in enumerate(rows):
        m = by_key[key(r)]
        legal = m.view["legal_actions"]
        pick = from_dict(legal[rng.randrange(len(legal))])
        if only is not None and n not in only:
            continue
        own = judge(m.view, m.action, m.step, worlds=WORLDS).accuracy
        planted = judge(m.view, worst_action(r), m.step, worlds=WORLDS).accuracy if n % PLANT == 0 else own
        random_ = judge(m.view, pick, m.step, worlds=WORLDS).accuracy if pick != m.action else own
        out.append({"kind": r["kind"], "game": r["game"], "seat": r["seat"], "step": r["step"],
                    "greedy": own, "planted": planted, "random": random_})
    return out


def greedy_rows(rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The rows the accuracy table covers: the "greedy" ones, in order."""
    return [r for r in rows if r["kind"] == "greedy"]


def _dump(path: Path, head: dict[str, Any], rows: list[dict[str, Any]]) -> None:
    """Write {**head, "rows": rows} as JSON, one row a line."""
    lines = ",\n".join(json.dumps(r) for r in rows)
    path.write_text(json.dumps(head)[:-1] + ', "rows": [\n' + lines + "\n]}\n", encoding="utf-8")


def load_two_seeds() -> dict[str, Any]:
    """The two-seeds table: {"seeds", "every", "rows"}, each row the 10x row's `key` and its "labels"."""
    return json.loads(TWO_SEEDS.read_text(encoding="utf-8"))


def load_accuracy() -> dict[str, Any]:
    """The accuracy table: {"worlds", "rng", "plant", "rows"}, each row a "greedy" 10x row's `key` and its
    "greedy", "planted" and "random" accuracy.
    """
    return json.loads(ACCURACY.read_text(encoding="utf-8"))


def write_two_seeds() -> None:  # pragma: no cover - rewrites the table
    rows = load()[::EVERY]
    _dump(TWO_SEEDS, {"seeds": list(SEEDS), "every": EVERY}, two_seeds(rows, views(rows)))


def write_accuracy() -> None:  # pragma: no cover - rewrites the table
    rows = greedy_rows(load())
    _dump(ACCURACY, {"worlds": WORLDS, "rng": RNG, "plant": PLANT}, accuracies(rows, views(rows)))


def write_10x() -> None:  # pragma: no cover - rewrites the table
    TABLE.parent.mkdir(exist_ok=True)
    with TABLE.open("w", encoding="utf-8") as out:
        for kind, games in GAMES.items():
            for index in games:
                for m in moments(kind, index):
                    out.write(json.dumps(row(kind, index, m)) + "\n")
                    out.flush()
                print(kind, index, file=sys.stderr, flush=True)


WRITERS = {"10x": (TABLE, write_10x), "two-seeds": (TWO_SEEDS, write_two_seeds), "accuracy": (ACCURACY, write_accuracy)}


def main(argv: list[str] | None = None) -> None:  # pragma: no cover - rewrites a table
    """`python tests/review_table.py [10x | two-seeds | accuracy]`: rewrite that table (10x by default)."""
    args = sys.argv[1:] if argv is None else argv
    which = args[0] if args else "10x"
    if which not in WRITERS or len(args) > 1:
        sys.exit(f"usage: python tests/review_table.py [{' | '.join(WRITERS)}]")
    path, write = WRITERS[which]
    write()
    print(f"wrote {path}", file=sys.stderr)


if __name__ == "__main__":  # pragma: no cover
    main()
