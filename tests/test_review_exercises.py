"""A review's marked decisions as exercises (needle_widget/review/exercises.py): what an exercise holds (its seat's
view and the game up to the decision, nothing after it), how an attempt is judged (the review's rule, on the same
worlds), its JSON form and its errors, and twins: games that differ only in what the seat cannot see give the same
exercises and the same judgements.
"""

from __future__ import annotations

import json

import pytest
import review_table as T
from test_secrecy import play_twins
from test_secrecy_reshuffle import twins as reshuffle_twins

from needle_widget.engine import actions
from needle_widget.engine.errors import ArgumentError
from needle_widget.players.bots import GreedyBot, RandomBot
from needle_widget.players.sim import play_game
from needle_widget.review import review
from needle_widget.review.exercises import AttemptResult, Exercise, exercise_at, exercises
from needle_widget.review.story import seat_story

ALL = ("best", "good", "inaccuracy", "mistake", "blunder")


@pytest.fixture(scope="module")
def blundered():
    """RandomBot (Player 1) against GreedyBot, deal 2027: two blunders, a mistake and an inaccuracy at 96 worlds."""
    replay = play_game(RandomBot(seed=2027), GreedyBot(), seed=2027).replay()
    return replay, review(replay, 0)


def test_the_marked_decisions_become_exercises_in_order_with_what_the_seat_knew(blundered):
    replay, r = blundered
    made = exercises([r])
    marked = [e for e in r.entries if e.label in ("mistake", "blunder")]
    assert [x.step for x in made] == [e.step for e in marked] and len(made) >= 2
    story = seat_story(replay, 0)
    for x, e in zip(made, marked, strict=True):
        assert x.view == replay.game_at(x.step).view(0)            # the seat's own view, before the decision
        assert x.history == story.lines[:x.step]                   # the game up to it, in the seat's words
        assert (x.played, x.label, x.best, x.loss) == (e.action, e.label, e.best, e.loss)
        assert x.prompt() == f"Step {x.step + 1}: you played {x.played} (a {x.label}). Find a better move."
        assert "Better: " in x.solution() and f"{x.values_worlds} worlds you could not tell apart" in x.solution()
    assert [x.step for x in exercises([r], marks=("inaccuracy",))] == [e.step for e in r.entries
                                                                      if e.label == "inaccuracy"]


def test_an_attempt_is_judged_by_the_review_s_rule_on_the_same_worlds(blundered):
    _, r = blundered
    x = exercises([r], marks=("blunder",))[0]
    assert x.check(x.played).outcome is AttemptResult.SAME                        # never accepted
    best = x.check(x.best)
    assert best.solved and best.label in ("best", "good") and "Good: " in best.message()
    again = x.check(x.best)
    assert again == best                                                    # the same worlds, the same figures
    entry = next(e for e in r.entries if e.step == x.step)
    assert x.check(x.played).loss == pytest.approx(entry.loss)             # the played move as the review found it
    wrong = [a for a in x.legal if (t := x.check(a)).outcome is AttemptResult.TRY_AGAIN]
    for a in wrong:
        t = x.check(a)
        assert t.label in ("inaccuracy", "mistake", "blunder") and t.message().startswith("Try again: ")


def test_illegal_attempts_and_bad_arguments_say_what_was_wrong(blundered):
    replay, r = blundered
    x = exercises([r])[0]
    illegal = actions.Steal()
    assert illegal not in x.legal
    with pytest.raises(ArgumentError, match=rf"Steal\(\) is not legal at step {x.step + 1}: Player 1 may play"):
        x.check(illegal)
    with pytest.raises(ArgumentError, match="marks must be some of best, good"):
        exercises([r], marks=("blunders",))
    with pytest.raises(ArgumentError, match="exercises needs reviews"):
        exercises([replay])
    with pytest.raises(ArgumentError, match="step must be a step of the replay"):
        exercise_at(replay, len(replay))


def test_the_json_form_round_trips_and_a_bad_file_is_refused(blundered):
    _, r = blundered
    for x in exercises([r], marks=ALL)[:6]:
        data = json.loads(json.dumps(x.to_dict()))
        back = Exercise.from_dict(data)
        assert back == x and back.key == x.key
        assert back.check(x.best) == x.check(x.best)                          # rebuilt settings, the same judgement
    data = exercises([r])[0].to_dict()
    for field, bad, says in (("format", "v0", "Not an exercise"), ("played", {"type": "steal"}, "played move"),
                             ("history", ["x"], "history must be"), ("model", "oracle", "model must be"),
                             ("worlds", -1, "worlds must be a count"), ("label", "awful", "label must be one of"),
                             ("view", {"perspective": "teacher"}, "view must be a player's view"),
                             ("loss", float("inf"), "loss must be a number from 0 to 1"),
                             ("worlds", 0, "worlds must be a count up to 100,000"),
                             ("more", 50, "more must be a count up to 10"),
                             ("valued", data["worlds"] * (data["more"] + 1) + 1, "valued must be 0 or a count of"),
                             ("valued", data["worlds"] - 1, "valued must be 0 or a count of worlds from"),
                             ("values", [{"action": data["best"]}], "candidate must have an action, a value and an se"),
                             ("values", [{**data["values"][0], "se": -1}], "se must be a number from 0 to 1"),
                             ("view", {**data["view"], "legal_actions": [data["best"]] * 500}, "choice of 2 to 200")):
        with pytest.raises(ArgumentError, match=says):
            Exercise.from_dict({**data, field: bad})


def test_a_practice_refuses_an_exercise_whose_view_no_game_reaches_before_it_starts(blundered, tmp_path):
    """A tampered exercise (its view changed in the file) is refused when the practice is made, naming it, so no
    "Next" can move on to it half way; the deck is left as it was.
    """
    from needle_widget import NeedleWidget
    from needle_widget.teaching.practice import Deck

    _, r = blundered
    good, other = exercises([r])[:2]
    data = other.to_dict()
    data["view"] = {**data["view"], "pile_size": 999}
    bad = Exercise.from_dict(data)
    deck = Deck(path=tmp_path / "deck.json")
    with pytest.raises(ArgumentError, match=r"Exercise 2 \(step \d+\): its view is no position a game reaches"):
        NeedleWidget.practice([good, bad], deck=deck)
    assert len(deck) == 0 and not (tmp_path / "deck.json").exists()


def test_a_planted_blunder_is_an_exercise_greedybot_solves():
    """The first planted blunder of the 10x table (tests/review_table.py: a GreedyBot game's decision with its worst
    candidate planted): marked, and GreedyBot's own move, chosen from a position drawn from the view alone, is
    accepted (tests/test_practice_rates.py measures the rate over all of them).
    """
    row = next(r for r in T.load() if r["kind"] == "greedy" and r.get("planted") and r["planted"][2] == "blunder")
    replay, _ = T.game_of("greedy", row["game"])
    played = replay.steps[row["step"]].action
    planted = exercise_at(replay, row["step"], T.worst_action(row))
    assert planted.played == T.worst_action(row) != played and planted.label in ("mistake", "blunder")
    assert planted.view == replay.game_at(row["step"]).view(row["seat"])
    world = planted.position(seed=1)
    assert world.view(planted.seat) == planted.view
    choice = GreedyBot().choose(world.player_view(planted.seat), world.legal_actions())
    assert choice == played                                                   # the same move from the same view
    assert planted.check(choice).solved


@pytest.mark.parametrize("seed, hidden_owner", [(0, 1), (2, 1)])
def test_twins_differing_in_an_unseen_card_give_the_same_exercises_and_judgements(seed, hidden_owner):
    watcher = 1 - hidden_owner
    *_, (a, b) = play_twins(seed, hidden_owner, watcher, steps=50)
    assert a.view(watcher) == b.view(watcher) and a.view("teacher") != b.view("teacher")
    ra, rb = review(a.replay(), watcher, worlds=8), review(b.replay(), watcher, worlds=8)
    xa, xb = exercises([ra], marks=ALL), exercises([rb], marks=ALL)
    assert xa and [json.dumps(x.to_dict(), sort_keys=True) for x in xa] == [json.dumps(x.to_dict(), sort_keys=True)
                                                                            for x in xb]
    for x, y in list(zip(xa, xb, strict=True))[:3]:
        assert [x.check(m) for m in x.legal[:3]] == [y.check(m) for m in y.legal[:3]]
        assert x.position(seed=4).view(watcher) == y.position(seed=4).view(watcher)


def test_twins_differing_in_a_reshuffle_s_order_give_the_same_exercises():
    a, b, _ = list(reshuffle_twins(0, 0, horizon=12))[-1]
    assert a.view("teacher") != b.view("teacher")
    ra, rb = review(a.replay(), 0, worlds=4), review(b.replay(), 0, worlds=4)
    xa, xb = exercises([ra], marks=ALL), exercises([rb], marks=ALL)
    assert xa and [x.to_dict() for x in xa] == [x.to_dict() for x in xb]


def test_an_exercise_shows_nothing_after_its_decision(blundered):
    """Two games that part after a decision (the same moves up to it, then other moves) give it the same exercise."""
    replay, _ = blundered
    step = exercises([review(replay, 0, worlds=4)], marks=ALL)[2].step
    other = replay.game_at(step + 1)
    while other.phase != "over":
        other.apply(other.legal_actions()[-1])
    x, y = exercise_at(replay, step, worlds=4), exercise_at(other.replay(), step, worlds=4)
    assert other.replay().steps[step + 2:] != replay.steps[step + 2:]
    assert x.to_dict() == y.to_dict()


def test_a_teacher_s_thresholds_set_the_marks_and_travel_with_the_exercises(blundered):
    """Thresholds in points (inaccuracy, mistake, blunder): lower ones mark more, and an exercise made with them
    judges attempts with them, also once read back from its JSON form.
    """
    replay, r = blundered
    assert r.thresholds == (3, 6, 12) and r.to_dict()["thresholds"] == [3, 6, 12]
    strict = review(replay, 0, thresholds=(1, 2, 4))
    assert strict.thresholds == (1, 2, 4)
    assert [e.chosen_value for e in strict.entries] == [e.chosen_value for e in r.entries]  # the same worlds
    order = {label: k for k, label in enumerate(ALL)}
    assert all(order[s.label] >= order[e.label] or e.label in ("best", "good")
               for s, e in zip(strict.entries, r.entries, strict=True))
    assert len(exercises([strict])) >= len(exercises([r]))
    x = exercises([strict])[0]
    back = Exercise.from_dict(json.loads(json.dumps(x.to_dict())))
    assert back == x and back.thresholds == (0.01, 0.02, 0.04) and back.check(x.best) == x.check(x.best)
    for bad in ((3, 6), (6, 3, 12), (0, 6, 12), (3, 6, 101), "3,6,12", (3, 6, float("nan"))):
        with pytest.raises(ArgumentError, match="thresholds must be three numbers of points"):
            review(replay, 0, worlds=4, thresholds=bad)


def test_an_inaccuracy_s_prompt_reads_an_inaccuracy() -> None:
    """Issue 45: "(a inaccuracy)"."""
    import dataclasses

    from needle_widget import examples
    from needle_widget.review.exercises import exercise_at

    x = exercise_at(examples.load("found_early"), 0, worlds=8)
    assert "(an inaccuracy)" in dataclasses.replace(x, label="inaccuracy").prompt()
    assert "(a mistake)" in dataclasses.replace(x, label="mistake").prompt()
