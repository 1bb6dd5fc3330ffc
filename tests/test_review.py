"""The game review (needle_widget.review, docs/REVIEW.md): entries, marks, the ledger, and honesty.

Honesty is tested as secrecy is everywhere else: two games the seat could not tell apart (an unseen
hand card, the pile, a reshuffle's order) get byte-identical reviews up to the point where they
differ for the seat, with and without an opponent model; a review never reads the future (a cut
replay gives the same entries before the cut) or the deal's seed. The statistical properties (luck
is fair, graded players, planted blunders, stability) are in test_review_stats.py.
"""

from __future__ import annotations

import json
import math
from pathlib import Path

import pytest
from test_secrecy import play_twins
from test_secrecy_reshuffle import twins as reshuffle_twins

from needle_widget import Game, Replay, examples
from needle_widget.engine import actions as A
from needle_widget.engine.errors import ArgumentError
from needle_widget.players.bots import GreedyBot
from needle_widget.players.sim import play_game
from needle_widget.review import LABELS, MORE, Reviewer, judge, review
from needle_widget.review.marks import NOISE, THRESHOLDS, accuracy, label
from needle_widget.review.story import seat_story
from needle_widget.review.values import NEEDLE_CANDIDATES

SMALL = 6
"""Worlds per decision in these tests: the properties here hold at any budget."""


@pytest.fixture(scope="module")
def long_game() -> Replay:
    return examples.load("long_with_reshuffle")


def reviewed(replay: Replay, seat: int, **kw) -> str:
    return json.dumps(review(replay, seat, worlds=kw.pop("worlds", SMALL), **kw).to_dict(), sort_keys=True)


# ---- entries ---------------------------------------------------------------------------------------


def test_one_entry_per_decision_with_a_choice_and_only_those(long_game: Replay) -> None:
    for seat in (0, 1):
        r = review(long_game, seat, worlds=SMALL, more=0)
        steps = []
        for k in range(len(long_game)):
            g = long_game.game_at(k)
            if g.to_move == seat and len(g.legal_actions()) > 1:
                steps.append(k)
        assert [e.step for e in r.entries] == steps and r.decisions == len(steps)
        for e in r.entries:
            assert e.action == long_game.steps[e.step].action and e.seat == seat
            assert e.label in LABELS and e.loss >= 0 and e.se >= 0 and 0 <= e.accuracy <= 100
            assert e.best in [v.action for v in e.values] and e.action in [v.action for v in e.values]
            assert e.value_of(e.best).value == max(v.value for v in e.values)
            assert all(0 <= v.value <= 1 for v in e.values) and e.worlds == SMALL
            assert e.explain().startswith(str(e.action).split()[0][:4].capitalize()) or "as your needle" in e.explain()


def test_the_needle_pick_is_screened_to_greedy_favourites_and_the_chosen_card(long_game: Replay) -> None:
    r = review(long_game, 0, worlds=SMALL, more=0)
    needle = r.entries[0]
    assert type(needle.action) is A.ChooseNeedle and needle.choices == 45
    assert needle.action in [v.action for v in needle.values]
    assert NEEDLE_CANDIDATES <= len(needle.values) <= NEEDLE_CANDIDATES + 1


def test_the_ledger_telescopes_for_finished_and_unfinished_games(long_game: Replay) -> None:
    for replay in (long_game, long_game.cut(30), long_game.cut(3)):
        for seat in (0, 1):
            r = review(replay, seat, worlds=SMALL, more=0)
            assert math.isclose(r.start_value + r.skill_total + r.luck_total, r.end_value, abs_tol=1e-9)
            assert math.isclose(r.luck_adjusted, r.start_value + r.skill_total, abs_tol=1e-9)
            assert len(r.luck) == len(r.entries) and r.complete
            assert r.finished == (replay.result is not None)
            for before, after in zip(r.entries, r.entries[1:], strict=False):
                term = next(t for t in r.luck if t.start == before.step)
                assert term.end == after.step
                assert math.isclose(term.luck, after.reference_value - before.chosen_value, abs_tol=1e-12)
            if r.entries:
                assert r.start_value == r.entries[0].reference_value
    finished = review(long_game, 0, worlds=SMALL, more=0)
    assert finished.end_value == (1.0 if long_game.result.winner == 0 else 0.0 if long_game.result.winner == 1 else .5)


def test_skill_is_the_choice_against_the_reference_player() -> None:
    """A GreedyBot's own decisions have skill 0 exactly: its choice is the reference's."""
    game = play_game(GreedyBot(), GreedyBot(), seed=21)
    for seat in (0, 1):
        r = review(game.replay(), seat, worlds=SMALL, more=0)
        assert r.entries and all(e.skill == 0 for e in r.entries) and r.skill_total == 0
        assert math.isclose(r.luck_adjusted, r.start_value, abs_tol=1e-12)


def test_luck_terms_read_as_the_seat_heard_the_game(long_game: Replay) -> None:
    r = review(long_game, 1, worlds=SMALL, more=0)
    told = " ".join(t.sentence() for t in r.luck)
    assert "Player 1 drew a card from the pile." in told and "You drew" in told
    assert all(t.sentence().startswith("Step") for t in r.luck)
    for t in r.luck:
        assert ("rose" in t.sentence()) == (t.luck > 0) and ("fell" in t.sentence()) == (t.luck < 0)


def test_explanations_name_the_better_move_with_its_value_and_the_worlds() -> None:
    game = Replay.load(Path(__file__).parent / "data" / "random_bot_seed3.json")  # RandomBot(3) v GreedyBot, deal 3
    r = review(game, 0, worlds=16)
    flagged = [e for e in r.entries if e.label in ("inaccuracy", "mistake", "blunder")]
    assert flagged, [e.label for e in r.entries]
    e = flagged[0]
    text = e.explain()
    assert f"gave up {round(100 * e.loss)} point" in text and "of 16 worlds you could not tell apart" in text
    assert f"(±{round(100 * e.se)})" in text


def test_the_same_seed_gives_the_same_numbers_and_another_seed_others(long_game: Replay) -> None:
    a, b = reviewed(long_game, 0, seed=5), reviewed(long_game, 0, seed=5)
    assert a == b and a != reviewed(long_game, 0, seed=6)
    fresh = review(long_game, 0, worlds=SMALL, seed=None)
    assert fresh.seed >= 0 and fresh.to_dict() == review(long_game, 0, worlds=SMALL, seed=fresh.seed).to_dict()


def test_a_review_arrives_one_decision_at_a_time(long_game: Replay) -> None:
    reviewer = Reviewer(long_game, 1, worlds=SMALL)
    first = reviewer.review
    assert first.entries == () and not first.complete and first.decisions > 0
    seen = [r for r in reviewer.progress()]
    assert [len(r.entries) for r in seen] == list(range(1, first.decisions + 1))
    assert seen[-1].complete and seen[-1] == review(long_game, 1, worlds=SMALL)
    assert not reviewer.step()


def test_a_mark_in_doubt_is_settled_on_more_worlds_while_the_ledger_keeps_the_first(long_game: Replay) -> None:
    plain, more = review(long_game, 1, worlds=SMALL, more=0), review(long_game, 1, worlds=SMALL)
    again = [k for k, e in enumerate(more.entries) if e.worlds == (1 + MORE) * SMALL]
    assert again and all(plain.entries[k].worlds == SMALL for k in again)
    for a, b in zip(plain.entries, more.entries, strict=True):
        assert (a.chosen_value, a.reference_value, a.step, a.action) == (b.chosen_value, b.reference_value, b.step,
                                                                          b.action)
    assert [t.luck for t in plain.luck] == [t.luck for t in more.luck] and plain.end_value == more.end_value


def test_the_ledger_alone_gives_the_full_review_s_skill_and_luck(long_game: Replay) -> None:
    for seat in (0, 1):
        full, ledger = review(long_game, seat, worlds=SMALL, more=0), review(long_game, seat, worlds=SMALL, ledger=True)
        assert [t.luck for t in full.luck] == [t.luck for t in ledger.luck]
        assert [e.skill for e in full.entries] == [e.skill for e in ledger.entries]
        assert (full.start_value, full.end_value, full.luck_adjusted) == (ledger.start_value, ledger.end_value,
                                                                           ledger.luck_adjusted)
        assert all(len(e.values) <= 2 for e in ledger.entries)


def test_judge_gives_the_review_s_entry(long_game: Replay) -> None:
    r = review(long_game, 0, worlds=SMALL, seed=3)
    for e in r.entries[::5]:
        assert judge(long_game.game_at(e.step).view(0), e.action, e.step, worlds=SMALL, seed=3) == e


def test_bad_arguments_raise_clear_errors(long_game: Replay) -> None:
    for seat in (2, -1, "1", None, True):
        with pytest.raises(ArgumentError, match="seat must be 0"):
            review(long_game, seat)
    for worlds in (1, 0, 1.5, "48", 10**9):
        with pytest.raises(ArgumentError, match="worlds must be an integer"):
            review(long_game, 0, worlds=worlds)
    for seed in (-1, 1.5, "0"):
        with pytest.raises(ArgumentError, match="seed must be"):
            review(long_game, 0, seed=seed)
    with pytest.raises(ArgumentError, match="model must be a bot"):
        review(long_game, 0, model="greedy")
    with pytest.raises(ArgumentError, match="policy must be a bot"):
        review(long_game, 0, policy=3)
    with pytest.raises(ArgumentError, match="needs a Replay"):
        review(Game(seed=1), 0)


# ---- marks ------------------------------------------------------------------------------------------


def test_marks_need_the_loss_to_clear_the_threshold_by_its_noise() -> None:
    t, z = THRESHOLDS, NOISE
    assert label(t["blunder"] + 0.05, 0.01, False) == "blunder"
    assert label(t["blunder"] + 0.05, 0.05 / z + 0.01, False) == "mistake"
    assert label(t["mistake"] + 0.01, 0.005, False) == "mistake"
    assert label(t["mistake"] + 0.01, 0.01 / z + 0.005, False) == "inaccuracy"
    assert label(t["inaccuracy"] + 0.01, 0.005, False) == "inaccuracy"
    assert label(t["inaccuracy"] + 0.01, 0.01, False) == "good"      # not clear of its threshold by its noise
    assert label(0.02, 0.012, False) == "best"                           # within its noise of the best
    assert label(0.005, 0.0, False) == "best" and label(0.02, 0.0, True) == "best"
    assert accuracy(0) == 100 and accuracy(1) == 0 and accuracy(0.1) > accuracy(0.2)


# ---- honesty ----------------------------------------------------------------------------------------


@pytest.mark.parametrize("model", [None, GreedyBot()], ids=["model-free", "greedy-model"])
@pytest.mark.parametrize("seed, hidden_owner", [(0, 1), (1, 0), (2, 1)])
def test_twins_differing_in_an_unseen_hand_card_and_the_pile_get_identical_reviews(seed: int, hidden_owner: int,
                                                                                   model) -> None:
    watcher = 1 - hidden_owner
    *_, (a, b) = play_twins(seed, hidden_owner, watcher, steps=50)
    assert a.view(watcher) == b.view(watcher) and a.view("teacher") != b.view("teacher")
    ra, rb = a.replay(), b.replay()
    assert reviewed(ra, watcher, model=model, worlds=4) == reviewed(rb, watcher, model=model, worlds=4)
    assert seat_story(ra, watcher) == seat_story(rb, watcher)


@pytest.mark.parametrize("model", [None, GreedyBot()], ids=["model-free", "greedy-model"])
@pytest.mark.parametrize("seed, watcher", [(0, 0), (1, 1)])
def test_twins_differing_in_a_reshuffle_s_order_get_identical_reviews(seed: int, watcher: int, model) -> None:
    pairs = list(reshuffle_twins(seed, watcher, horizon=12))
    assert pairs, "no reshuffle twins for this seed"
    a, b, _ = pairs[-1]
    assert a.view("teacher") != b.view("teacher")
    assert reviewed(a.replay(), watcher, model=model, worlds=4) == reviewed(b.replay(), watcher, model=model, worlds=4)


def test_games_that_part_get_identical_entries_until_the_seat_sees_the_difference() -> None:
    """Two GreedyBot games on decks that differ in one of Player 2's hand cards: Player 1's review agrees on
    every decision before the first step at which Player 1's view differs.
    """
    deck = list(Game(seed=31).deck)
    other = deck[:]
    other[9], other[-1] = deck[-1], deck[9]
    ga = play_game(GreedyBot(), GreedyBot(), seed=31)
    gb = Game(seed=31, deck=other)
    from needle_widget.engine.playout import play_out
    play_out(gb, (GreedyBot(), GreedyBot()))
    ra, rb = ga.replay(), Replay.from_game(gb)
    parted = next(k for k in range(min(len(ra), len(rb)) + 1) if ra.game_at(k).view(0) != rb.game_at(k).view(0))
    a, b = review(ra, 0, worlds=4), review(rb, 0, worlds=4)
    same = [e for e in a.entries if e.step < parted]
    assert same and same == [e for e in b.entries if e.step < parted]
    assert [t for t in a.luck if t.end < parted] == [t for t in b.luck if t.end < parted]


def test_a_review_never_reads_the_future(long_game: Replay) -> None:
    for cut in (20, 45):
        for seat in (0, 1):
            full = review(long_game, seat, worlds=SMALL, more=0)
            part = review(long_game.cut(cut), seat, worlds=SMALL, more=0)
            assert part.entries == tuple(e for e in full.entries if e.step < cut)
            assert part.luck[:-1] == full.luck[:len(part.luck) - 1]


def test_a_review_never_reads_the_deal_s_seed(long_game: Replay) -> None:
    data = long_game.to_dict()
    data["seed"] = data["seed"] ^ 0x5A5A5A
    other = Replay.from_dict(data)
    assert other.seed != long_game.seed
    for seat in (0, 1):
        assert reviewed(other, seat) == reviewed(long_game, seat)
