"""The review's ledger and accuracy, statistically (docs/REVIEW.md), each with its level, sized for a CI run.

- Luck is fair: with the opponent modelled as it plays (GreedyBot), 1,000+ luck terms of GreedyBot games
  have mean 0 within their 95% interval (the terms are unbiased at any budget, so 2 worlds a decision do; the ledger
  alone, `ledger=True`, gives the same terms as the full review: test_review.py).
- Graded players: at the same positions (the GreedyBot decisions of tests/data/review_10x.jsonl), mean
  accuracy orders RandomBot's choices < GreedyBot's with a planted mistake at one decision in five (the
  worst candidate by the 10x review) < GreedyBot's own, each paired gap more than 2 standard errors.
"""

from __future__ import annotations

import math
import random
import statistics
from collections.abc import Sequence

import pytest
import review_table as T

from needle_widget.engine.actions import from_dict
from needle_widget.players.bots import GreedyBot
from needle_widget.players.sim import play_game
from needle_widget.review import judge, review

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


def test_accuracy_orders_random_then_planted_mistakes_then_greedy() -> None:
    """Paired at the same positions; each mean gap exceeds 2 standard errors of the paired differences."""
    rows = [r for r in T.load() if r["kind"] == "greedy"]
    moments = {}
    for index in sorted({r["game"] for r in rows}):
        for m in T.moments("greedy", index):
            moments[index, m.view["perspective"], m.step] = m
    rng = random.Random(5)
    worlds = 24
    greedy, planted, random_ = [], [], []
    for n, r in enumerate(rows):
        m = moments[r["game"], r["seat"], r["step"]]
        legal = m.view["legal_actions"]
        own = judge(m.view, m.action, m.step, worlds=worlds).accuracy
        greedy.append(own)
        worst = T.worst_action(r)
        planted.append(judge(m.view, worst, m.step, worlds=worlds).accuracy if n % 5 == 0 else own)
        pick = from_dict(legal[rng.randrange(len(legal))])
        random_.append(judge(m.view, pick, m.step, worlds=worlds).accuracy if pick != m.action else own)
    for low, high in ((random_, planted), (planted, greedy)):
        gaps = [h - lo for lo, h in zip(low, high, strict=True)]
        mean, se = mean_and_se(gaps)
        assert mean > 2 * se, (statistics.fmean(random_), statistics.fmean(planted), statistics.fmean(greedy))
