"""The review's verdict in words (needle_widget/review/verdict.py): what it says for each reading of the ledger,
that its figures are the ledger's (in points of win chance, the marks' unit), the noise, and a luck-adjusted
result outside 0-100 explained. Its secrecy is the review's: `Review.to_dict` and the panel's state carry it, and
tests/test_review.py and tests/test_review_panel.py compare those byte for byte between twins.
"""

from __future__ import annotations

import dataclasses
import re

import pytest

from needle_widget import examples
from needle_widget.review import review
from needle_widget.review.verdict import ABOUT, NOISE, in_points, outside_note, sentence, verdict


@pytest.mark.parametrize("skill, skill_se, luck, luck_se, says", [
    (0.0, 0.0, -0.31, 0.05, ["You played as well as GreedyBot would have", "the cards cost you 31 points",
                             "The cards decided this game."]),
    (-0.01, 0.01, 0.2, 0.04, ["You played about as well as GreedyBot", "the cards gave you 20 points.",
                              "The cards decided"]),
    (-0.14, 0.01, 0.08, 0.01, ["Your decisions cost you about 14 points of win chance against GreedyBot's",
                               "the cards gave you 8 points back", "Your decisions decided more than the cards."]),
    (-0.14, 0.01, -0.2, 0.02, ["cost you about 14 points", "the cards cost you another 20 points",
                               "The cards decided"]),
    (0.09, 0.02, 0.01, 0.01, ["Your decisions gained you about 9 points", "the cards were about even.",
                              "Your decisions decided more"]),
    (0.0, 0.0, 0.02, 0.01, ["as well as GreedyBot", "the cards were about even.", "Neither moved it by much"]),
])
def test_each_reading_of_the_ledger_in_words(skill, skill_se, luck, luck_se, says):
    text = sentence(skill, skill_se, luck, luck_se)
    for words in says:
        assert words in text, text


def test_a_part_counts_only_when_it_clears_three_points_by_its_noise():
    """3 points by 1.5 standard errors, the inaccuracy's bar: a larger figure within its noise says so, with the ±."""
    assert (ABOUT, NOISE) == (0.03, 1.5)
    assert "the cards cost you 5 points" in sentence(0.0, 0.0, -0.05, 0.01)     # 5 - 1.5 = 3.5 > 3
    noisy = sentence(0.0, 0.0, -0.05, 0.02)                                   # 5 - 3 = 2: not sure
    assert "the cards were about even, within the review's noise (±2 points)" in noisy
    assert "about as well as GreedyBot would have (within the review's noise, ±4 points)" in sentence(-0.05, 0.04, 0, 0)


def test_told_about_another_player():
    text = sentence(-0.14, 0.01, 0.08, 0.01, who="Player 2")
    assert text.startswith("Player 2's decisions cost them about 14 points") and "gave them 8 points back" in text
    assert "you" not in text.lower().replace("your", "")


@pytest.mark.parametrize("name", sorted(examples.EXAMPLES))
@pytest.mark.parametrize("seat", [0, 1])
def test_the_verdict_s_figures_are_the_ledger_s_and_add_up_to_the_result(name, seat):
    """The points it names are the ledger's skill and luck (rounded), and start + skill + luck = the result."""
    r = review(examples.load(name), seat, worlds=16)
    text = r.verdict()
    told = re.sub(r"±\d+ points?|\(the costliest: [^)]*\)|at step \d+ \(\d+ points?\)", "", text)
    named = [int(n) for n in re.findall(r"(\d+) points?", told)]
    shown = [abs(in_points(x)) for x, se in ((r.skill_total, r.skill_se), (r.luck_total, r.luck_se))
             if abs(x) - NOISE * se > ABOUT]
    assert sorted(named) == sorted(shown), (text, r.skill_total, r.luck_total)
    assert r.start_value + r.skill_total + r.luck_total == pytest.approx(r.end_value)
    assert r.to_dict()["verdict"] == text


def test_the_luck_s_noise_is_the_luck_adjusted_result_s_which_telescopes():
    """Of a finished game the luck total is the result minus the luck-adjusted result, so its standard error is
    the latter's (the first chosen value and the later skills), far below the terms' added as independent.
    """
    r = review(examples.load("long_with_reshuffle"), 1, worlds=32)
    independent = sum(t.se ** 2 for t in r.luck) ** 0.5
    assert 0 < r.luck_se < independent / 2, (r.luck_se, independent)


def test_a_luck_adjusted_result_outside_0_to_1_is_explained_not_hidden():
    r = review(examples.load("found_early"), 0, worlds=8)
    assert outside_note(r) is None and "is outside" not in r.verdict()
    past = dataclasses.replace(r, end_value=r.end_value + 1.5)  # a ledger whose luck-adjusted result passes 1
    note = outside_note(past)
    assert note is not None and f"{in_points(past.luck_adjusted)} points, is outside 0-100" in note
    assert "unbiased but noisy" in note
    assert verdict(past).endswith(note)
