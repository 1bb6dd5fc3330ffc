"""Bots as students on exercises made from planted blunders (tests/practice_table.py keeps the outcomes).

- GreedyBot, the review's reference player, solves at least 90% of them. With every exercise solved, the lower
  end of the one-sided 95% Clopper-Pearson interval is 0.05 ** (1 / n): above 0.89 for n = 27.
- RandomBot solves fewer: a move at random often is the mistake again, or another.
"""

from __future__ import annotations

import practice_table as P
import pytest

pytestmark = pytest.mark.untraced  # tests/conftest.py


@pytest.fixture(scope="module")
def rows() -> list[dict]:
    return P.load()


def test_the_table_is_today_s(rows):
    """Its rows are the planted rows of the 10x table, and the first two, judged now, are the table's exactly.
    If this fails after a change to the review or the bots, rewrite it: `python tests/practice_table.py`.
    """
    planted = P.planted_rows()
    assert [(r["kind"], r["game"], r["seat"], r["step"]) for r in rows] == [
        (r["kind"], r["game"], r["seat"], r["step"]) for r in planted]
    for k in range(2):
        assert P.row(k, planted[k]) == rows[k], "rewrite the table: python tests/practice_table.py"


def test_greedybot_solves_at_least_90_percent_and_randombot_fewer(rows):
    exercises = [r for r in rows if r["label"] in ("mistake", "blunder")]
    n = len(exercises)
    greedy = sum(r["greedy"][2] for r in exercises)
    random_ = sum(r["random"][2] for r in exercises)
    assert n >= 25, n
    assert greedy / n >= 0.9, (greedy, n)
    assert random_ < greedy, (random_, greedy)
    print(f"GreedyBot solved {greedy} of {n} ({greedy / n:.0%}), RandomBot {random_} of {n} ({random_ / n:.0%})")
