"""The table behind test_practice_rates.py: bots as students on exercises made from planted blunders.

Each row of the 10x review table (tests/review_table.py) with a planted blunder (a GreedyBot or RandomBot game's
decision whose worst candidate the 10x review marks a blunder) becomes an exercise: `exercise_at` with that worst
candidate as the move played, judged at the default budget. Where the review marks it a mistake or blunder, two
students attempt it from a position drawn from the exercise's view alone (`Exercise.position(seed=row index)`):
GreedyBot, and a RandomBot seeded with the row index. Judging the 28 exercises three times takes about 14 s, so
the table keeps each outcome; the test run recomputes the first two rows and compares them exactly. Rewrite it
after changing how the review values or labels a decision, or how the bots choose:

    python tests/practice_table.py
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import review_table as T

from needle_widget.players.bots import GreedyBot, RandomBot
from needle_widget.review.exercises import exercise_at

TABLE = Path(__file__).parent / "data" / "practice_rates.json"


def planted_rows() -> list[dict[str, Any]]:
    """The 10x table's rows with a planted blunder, in order."""
    return [r for r in T.load() if r.get("planted") and r["planted"][2] == "blunder"]


def row(index: int, r: dict[str, Any]) -> dict[str, Any]:
    """The exercise made from row `r` (the `index`-th planted row) and how each bot did at it."""
    replay, _ = T.game_of(r["kind"], r["game"])
    x = exercise_at(replay, r["step"], T.worst_action(r))
    out: dict[str, Any] = {"kind": r["kind"], "game": r["game"], "seat": r["seat"], "step": r["step"], "label": x.label}
    if x.label in ("mistake", "blunder"):
        world = x.position(seed=index)
        view, legal = world.player_view(x.seat), world.legal_actions()
        randombot = RandomBot(seed=index)
        randombot.new_game(index, x.seat)
        for name, bot in (("greedy", GreedyBot()), ("random", randombot)):
            attempt = x.check(bot.choose(view, legal))
            out[name] = [attempt.action.to_dict(), attempt.label, attempt.solved]
    return out


def load() -> list[dict[str, Any]]:
    """The table's rows."""
    return json.loads(TABLE.read_text(encoding="utf-8"))


def main() -> None:  # pragma: no cover - rewrites the table
    rows = [row(k, r) for k, r in enumerate(planted_rows())]
    TABLE.write_text(json.dumps(rows, ensure_ascii=False, indent=0) + "\n", encoding="utf-8")
    print(f"wrote {TABLE}: {len(rows)} rows")


if __name__ == "__main__":  # pragma: no cover
    main()
