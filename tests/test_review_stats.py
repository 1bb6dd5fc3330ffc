"""The review's statistics (docs/REVIEW.md), each with its level, sized for a CI run.

- Luck is fair: with the opponent modelled as it plays (GreedyBot), 1,000+ luck terms of GreedyBot games
  have mean 0 within their 95% interval (the terms are unbiased at any budget, so 2 worlds a decision do).
- Graded players: mean accuracy orders RandomBot < GreedyBot with planted mistakes < GreedyBot, each gap
  more than 2 standard errors.
- Planted blunders (the worst candidate by a 10x review, where that review marks it a blunder) are marked
  mistake or blunder at the default budget at least 90% of the time; GreedyBot decisions the 10x review
  rates within 1 point of best are marked inaccuracy or worse at most 5% of the time.
- Stable: two seeds at the default budget agree on at least 95% of the labels (not reached: an expected
  failure, with the measured figure) and of the marks (inaccuracy, mistake, blunder or none).

The figures come from tables written by tests/review_table.py, each proved today's by a test that recomputes a
sample and compares it exactly: the 10x judgments from tests/data/review_10x.jsonl
(test_the_table_is_what_the_review_computes), and the default-budget labels of every third decision with seeds
0 and 1 from tests/data/review_two_seeds.json (test_the_two_seeds_table_is_what_the_review_labels_today).
The planted blunders are judged at the default budget here.
"""

from __future__ import annotations

import pytest
import review_table as T

from needle_widget.review import judge

pytestmark = [pytest.mark.slow, pytest.mark.untraced]  # untraced: tests/conftest.py

FLAGS = ("inaccuracy", "mistake", "blunder")


@pytest.fixture(scope="module")
def table() -> list[dict]:
    return T.load()


@pytest.fixture(scope="module")
def views(table: list[dict]) -> dict[tuple, object]:
    """(kind, game, seat, step) -> the Moment, for every row of the table."""
    return T.views(table)


key = T.key


def test_the_table_is_what_the_review_computes(table: list[dict], views: dict) -> None:
    assert len(table) >= 150 and {r["kind"] for r in table} == {"greedy", "random"}
    assert len(views) == len(table)
    sample = [next(r for r in table if r["kind"] == "greedy" and "planted" in r),
              next(r for r in table if r["kind"] == "random" and r["step"] > 10)]
    for r in sample:
        assert T.row(r["kind"], r["game"], views[key(r)]) == r


def test_planted_blunders_are_marked_mistake_or_blunder(table: list[dict], views: dict) -> None:
    planted = [r for r in table if r.get("planted", [0, 0, ""])[2] == "blunder"]
    assert len(planted) >= 20, len(planted)
    marks = []
    for r in planted:
        m = views[key(r)]
        marks.append(judge(m.view, T.worst_action(r), m.step).label)
    caught = sum(mark in ("mistake", "blunder") for mark in marks) / len(marks)
    assert caught >= 0.90, (caught, marks)


@pytest.fixture(scope="module")
def seeds_table(table: list[dict]) -> dict:
    """tests/data/review_two_seeds.json: every third row of the 10x table, labelled at the default budget with
    seeds 0 and 1 (judging them takes about 30 s; the test below proves the table is today's).
    """
    data = T.load_two_seeds()
    assert data["seeds"] == list(T.SEEDS) and data["every"] == T.EVERY
    assert [key(r) for r in data["rows"]] == [key(r) for r in table[::T.EVERY]], \
        "the two-seeds table is not of tests/data/review_10x.jsonl's rows: `python tests/review_table.py two-seeds`"
    return data


@pytest.fixture(scope="module")
def two_seeds(table: list[dict], seeds_table: dict) -> list[tuple[dict, str, str]]:
    """Every third row, with its labels at the default budget with seeds 0 and 1 (from the two-seeds table)."""
    return [(r, *s["labels"]) for r, s in zip(table[::T.EVERY], seeds_table["rows"], strict=True)]


def test_the_two_seeds_table_is_what_the_review_labels_today(seeds_table: dict, views: dict) -> None:
    """The first two rows, the first where the seeds disagree and the first RandomBot decision, judged now
    with both seeds, give the table's labels exactly. After changing how the review values or labels a decision,
    rewrite the table: `python tests/review_table.py two-seeds`.
    """
    rows = seeds_table["rows"]
    firsts = (next((n for n, r in enumerate(rows) if r["labels"][0] != r["labels"][1]), None),
              next((n for n, r in enumerate(rows) if r["kind"] == "random"), None))
    sample = [rows[n] for n in sorted({0, 1} | {n for n in firsts if n is not None})]
    assert T.two_seeds(sample, views) == sample, ("the review labels these decisions differently today: rewrite the "
                                                  "table, `python tests/review_table.py two-seeds`")


def test_greedy_decisions_within_a_point_of_best_are_rarely_flagged(two_seeds: list) -> None:
    close = [(a, b) for r, a, b in two_seeds if r["kind"] == "greedy" and r["loss"] < 0.01]
    assert len(close) >= 40
    flagged = sum(a in FLAGS for a, _ in close) + sum(b in FLAGS for _, b in close)
    assert flagged / (2 * len(close)) <= 0.05, flagged


@pytest.mark.xfail(strict=True, reason="the goal of 95% is not reached at the default budget: measured 88.0% on "
                   "these 92 decisions (GreedyBot's 94.9%, RandomBot's 75.8%); most disagreements are best "
                   "against good, losses of 1-5 points that 96 worlds cannot settle (docs/REVIEW.md)")
def test_two_seeds_agree_on_the_labels(two_seeds: list) -> None:
    agree = sum(a == b for _, a, b in two_seeds) / len(two_seeds)
    assert len(two_seeds) >= 75 and agree >= 0.95, agree


def test_two_seeds_agree_on_the_marks(two_seeds: list) -> None:
    """What the marks say (inaccuracy, mistake, blunder, or none) agrees at least 95% of the time."""
    def mark(label: str) -> str:
        return label if label in FLAGS else "none"

    agree = sum(mark(a) == mark(b) for _, a, b in two_seeds) / len(two_seeds)
    assert len(two_seeds) >= 75 and agree >= 0.95, agree
