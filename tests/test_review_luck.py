"""The review's ledger and accuracy, statistically (docs/REVIEW.md), each with its level, sized for a CI run.

- Luck is fair: with the opponent modelled as it plays (GreedyBot), 1,000+ luck terms of GreedyBot games
  have mean 0 within their 95% interval (the terms are unbiased at any budget, so 2 worlds a decision do; the ledger
  alone, `ledger=True`, gives the same terms as the full review: test_review.py).
- Graded players: at the same positions (the GreedyBot decisions of tests/data/review_10x.jsonl), mean
  accuracy orders RandomBot's choices < GreedyBot's with a planted mistake at one decision in five (the
  worst candidate by the 10x review) < GreedyBot's own, each paired gap more than 2 standard errors. The
  accuracies (24 worlds a judgment) come from tests/data/review_accuracy.json, written by tests/review_table.py
  (`python tests/review_table.py accuracy`: about 20 s); test_the_accuracy_table_is_what_the_review_computes_today
  recomputes a sample and compares it exactly.
"""

from __future__ import annotations

import math
import statistics
from collections.abc import Sequence

import pytest
import review_table as T

from needle_widget.players.bots import GreedyBot
from needle_widget.players.sim import play_game
from needle_widget.review import review

pytestmark = [pytest.mark.slow, pytest.mark.untraced]  # untraced: tests/conftest.py


# ---- luck is fair --------------------------------------------------------------------------------------


def luck_terms(model, games: range) -> list[float]:
    out: list[float] = []
    for seed in games:
        replay = play_game(GreedyBot(), GreedyBot(), seed=seed).replay()
        for seat in (0, 1):
            out += [t.luck for t in review(replay, seat, worlds=2, seed=seed, model=model, ledger=True).luck]
    return out


def mean_and_se(xs: Sequence[float]) -> tuple[float, float]:
    return statistics.fmean(xs), statistics.stdev(xs) / math.sqrt(len(xs))


def test_luck_is_fair_when_the_opponent_plays_as_modelled() -> None:
    """95% level: |mean| <= 1.96 standard errors, over at least 1,000 terms."""
    terms = luck_terms(GreedyBot(), range(30_000, 30_075))
    mean, se = mean_and_se(terms)
    assert len(terms) >= 1000, len(terms)
    assert abs(mean) <= 1.96 * se, (mean, se, len(terms))


@pytest.fixture(scope="module")
def accuracy_table() -> list[dict]:
    """tests/data/review_accuracy.json's rows: each GreedyBot decision of tests/data/review_10x.jsonl, in order,
    with its accuracy three ways (`review_table.accuracies`; judging them takes about 20 s, the test below
    proves the table is today's).
    """
    data = T.load_accuracy()
    assert (data["worlds"], data["rng"], data["plant"]) == (T.WORLDS, T.RNG, T.PLANT)
    assert [T.key(r) for r in data["rows"]] == [T.key(r) for r in T.greedy_rows(T.load())], \
        "the accuracy table is not of tests/data/review_10x.jsonl's rows: `python tests/review_table.py accuracy`"
    return data["rows"]


def test_the_accuracy_table_is_what_the_review_computes_today(accuracy_table: list[dict]) -> None:
    """The first four rows (a planted mistake at the first, random actions other than GreedyBot's at two), the
    first where the planted mistake costs accuracy and the first where a random action does, judged now, give
    the table's accuracies exactly (every row before them still draws its random action). After changing how
    the review values a decision, rewrite the table: `python tests/review_table.py accuracy`.
    """
    rows = accuracy_table
    firsts = (next((n for n, r in enumerate(rows) if r["planted"] < r["greedy"]), None),
              next((n for n, r in enumerate(rows) if r["random"] < r["greedy"]), None))
    sample = sorted({0, 1, 2, 3} | {n for n in firsts if n is not None})
    tenx = T.greedy_rows(T.load())
    fresh = T.accuracies(tenx, T.views(tenx), only=set(sample))
    assert fresh == [rows[n] for n in sample], ("the review values these decisions differently today: rewrite the "
                                                "table, `python tests/review_table.py accuracy`")


def test_accuracy_orders_random_then_planted_mistakes_then_greedy(accuracy_table: list[dict]) -> None:
    """Paired at the same positions; each mean gap exceeds 2 standard errors of the paired differences."""
    greedy = [r["greedy"] for r in accuracy_table]
    planted = [r["planted"] for r in accuracy_table]
    random_ = [r["random"] for r in accuracy_table]
    for low, high in ((random_, planted), (planted, greedy)):
        gaps = [h - lo for lo, h in zip(low, high, strict=True)]
        mean, se = mean_and_se(gaps)
        assert mean > 2 * se, (statistics.fmean(random_), statistics.fmean(planted), statistics.fmean(greedy))
