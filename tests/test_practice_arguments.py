"""The practice API refuses a wrongly typed argument (issue 43, item 7) with an ArgumentError quoting it, at the call,
and changes nothing: the deck's file and the deck are as before, and a practice under way goes on.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime, timedelta, timezone
from typing import Any

import pytest
from test_practice_tampered import LATER, T0, attempt, made_exercises, saved_deck, write

from needle_widget.engine.errors import ArgumentError, InvalidAction, NeedleError, quote
from needle_widget.players.bots import GreedyBot, RandomBot
from needle_widget.players.sim import play_game
from needle_widget.review import review
from needle_widget.review.exercises import Exercise, exercise_at, exercise_from, exercises
from needle_widget.teaching.practice import Deck, rating
from needle_widget.teaching.practicerun import PracticeRun


@pytest.fixture(scope="module")
def made() -> list[Exercise]:
    return made_exercises()


@pytest.fixture(scope="module")
def reviewed():
    replay = play_game(RandomBot(seed=2027), GreedyBot(), seed=2027).replay()
    return replay, review(replay, 0, worlds=8)


def calls(made: list[Exercise], deck: Deck, run: PracticeRun, folder: Any, replay: Any,
          reviewed: Any) -> list[tuple[str, Callable[[], Any], Any]]:
    """(name, call, the bad input its message quotes): every public function and method of the practice API."""
    x = made[0]
    entry = reviewed.entries[0]
    return [
        ("exercises(None)", lambda: exercises(None), None),
        ("exercises(7)", lambda: exercises(7), 7),
        ("exercises(a review)", lambda: exercises(reviewed), reviewed),
        ("exercises(text)", lambda: exercises("reviews"), "reviews"),
        ("exercises([None])", lambda: exercises([None]), None),
        ("marks=None", lambda: exercises([], marks=None), None),
        ("marks=text", lambda: exercises([], marks="mistake"), "mistake"),
        ("marks=[None]", lambda: exercises([], marks=[None]), None),
        ("marks=[[]]", lambda: exercises([], marks=[[]]), []),
        ("exercise_from(None, entry)", lambda: exercise_from(None, entry), None),
        ("exercise_from(review, None)", lambda: exercise_from(reviewed, None), None),
        ("exercise_at(replay, step, text)", lambda: exercise_at(replay, x.step, "DrawPile"), "DrawPile"),
        ("exercise_at(replay, None)", lambda: exercise_at(replay, None), None),
        ("Exercise.check(None)", lambda: x.check(None), None),
        ("Exercise.position(text)", lambda: x.position("7"), "7"),
        ("Exercise.value_of(None)", lambda: x.value_of(None), None),
        ("Exercise.from_dict(None)", lambda: Exercise.from_dict(None), None),
        ("Deck(None)", lambda: Deck(None), None),
        ("Deck(7)", lambda: Deck(7), 7),
        ("Deck(text)", lambda: Deck("deck.json"), "deck.json"),
        ("Deck([None])", lambda: Deck([None]), None),
        ("Deck(path=7)", lambda: Deck(path=7), 7),
        ("Deck(path='')", lambda: Deck(path=""), ""),
        ("Deck(now=text)", lambda: Deck(now="today"), "today"),
        ("Deck.open(folder)", lambda: Deck.open(folder), str(folder)),
        ("Deck.open(list)", lambda: Deck.open(["a.json"]), ["a.json"]),
        ("Deck.open(None)", lambda: Deck.open(None), None),
        ("Deck.open('')", lambda: Deck.open(""), ""),
        ("Deck.open(NUL)", lambda: Deck.open("a\0b.json"), "a\0b.json"),
        ("Deck.from_dict(None)", lambda: Deck.from_dict(None), None),
        ("save('')", lambda: deck.save(""), ""),
        ("save(7)", lambda: deck.save(7), 7),
        ("save(folder)", lambda: deck.save(folder), str(folder)),
        ("save(no folder)", lambda: deck.save(folder / "nowhere" / "d.json"), str(folder / "nowhere")),
        ("add(None)", lambda: deck.add(None), None),
        ("add(7)", lambda: deck.add(7, now=LATER), 7),
        ("add(x)", lambda: deck.add(x, now=LATER), x),
        ("add(now=text)", lambda: deck.add(made, now="now"), "now"),
        ("due(text)", lambda: deck.due("now"), "now"),
        ("due(naive)", lambda: deck.due(datetime(2026, 1, 1)), datetime(2026, 1, 1)),
        ("when(None)", lambda: deck.when(None), None),
        ("answer(x, text)", lambda: deck.answer(x, "x"), "x"),
        ("answer(x, None)", lambda: deck.answer(x, None), None),
        ("answer(x, [None])", lambda: deck.answer(x, [None]), None),
        ("answer(x, attempt)", lambda: deck.answer(x, attempt(True)), attempt(True)),
        ("answer(x, shown=text)", lambda: deck.answer(x, [], shown="yes"), "yes"),
        ("answer(x, shown=None)", lambda: deck.answer(x, [], shown=None), None),
        ("answer(x, now=text)", lambda: deck.answer(x, [], now="now"), "now"),
        ("answer(None)", lambda: deck.answer(None, []), None),
        ("rating(text)", lambda: rating("x"), "x"),
        ("rating(None)", lambda: rating(None), None),
        ("rating(shown=7)", lambda: rating([], shown=7), 7),
        ("PracticeRun(None)", lambda: PracticeRun(None), None),
        ("PracticeRun(7)", lambda: PracticeRun(7), 7),
        ("PracticeRun(student=None)", lambda: PracticeRun(made, student=None), None),
        ("PracticeRun(seed=text)", lambda: PracticeRun(made, seed="1"), "1"),
        ("PracticeRun(now=text)", lambda: PracticeRun(made, now="now"), "now"),
        ("PracticeRun(deck=text)", lambda: PracticeRun(made, deck="deck.json"), "deck.json"),
        ("run.attempt(None)", lambda: run.attempt(None), None),
        ("run.check_attempt(text)", lambda: run.check_attempt("DrawPile"), "DrawPile"),
        ("run.check_attempt(retrying=text)", lambda: run.check_attempt(x.best, retrying="yes"), "yes"),
        ("run.judge(None)", lambda: run.judge(None), None),
        ("run.judge(x, text)", lambda: run.judge(x.best, "0"), "0"),
        ("run.record(i, None)", lambda: run.record(run.index, None), None),
        ("run.record(text, a)", lambda: run.record("0", attempt(True)), "0"),
        ("run.attempts(text)", lambda: run.attempts("0"), "0"),
        ("run.shown(99)", lambda: run.shown(99), 99),
    ]


def test_every_bad_call_is_refused_quoting_it_and_a_practice_goes_on(tmp_path, made, reviewed):
    """A practice under way: an answer, every bad call refused (an ArgumentError quoting the bad input) with the
    deck, its file and the practice as they were, then the practice finished, saved, and opened again.
    """
    replay, r = reviewed
    path = tmp_path / "deck.json"
    write(path, saved_deck(made))
    deck = Deck.open(path)
    run = PracticeRun(deck, student="ann", now=LATER)
    run.attempt(run.current.best)
    run.next()
    before, state, where = path.read_bytes(), deck.to_dict(), (run.index, run.phase, run.results)
    failures = []
    for name, call, bad in calls(made, deck, run, tmp_path, replay, r):
        try:
            call()
        except (ArgumentError, InvalidAction) as error:  # InvalidAction: what is not an action where one is asked
            if quote(bad) not in str(error):
                failures.append(f"{name}: {error} (does not quote {quote(bad)})")
        except Exception as error:  # noqa: BLE001 - what the test is about
            failures.append(f"{name}: {type(error).__name__}: {error}")
        else:
            failures.append(f"{name}: accepted")
        assert path.read_bytes() == before and deck.to_dict() == state, name
        assert (run.index, run.phase, run.results) == where, name
    assert not failures, "\n".join(failures)
    while not run.done:
        run.attempt(run.current.best)
        run.next()
    assert run.summary() is not None
    again = Deck.open(path)
    assert again.to_dict() == deck.to_dict() != state
    assert again.due(LATER) == [] and len(again) == 4


def test_an_exercise_made_with_a_fresh_seed_keeps_it_and_goes_in_a_deck(tmp_path, made, reviewed):
    """`exercise_at(..., seed=None)` draws a seed once and keeps it: the same judgement at every attempt, and a deck
    holding it opens again (before, the exercise kept None: each attempt judged on other worlds, and the saved
    deck refused).
    """
    replay, _ = reviewed
    step = made[0].step
    x = exercise_at(replay, step, worlds=8, seed=None)
    assert type(x.seed) is int and x.check(x.best) == x.check(x.best)
    assert Exercise.from_dict(x.to_dict()) == x
    Deck([x], now=T0).save(tmp_path / "deck.json")
    assert list(Deck.open(tmp_path / "deck.json")) == [x]


def test_a_deck_file_that_cannot_be_written_is_refused_and_the_practice_goes_on(tmp_path, made):
    """Next saves the deck: if its folder is gone, Next is refused (an ArgumentError naming the file), the exercise
    stays as it was, and Next goes on once the folder is back.
    """
    folder = tmp_path / "decks"
    folder.mkdir()
    deck = Deck.open(folder / "ann.deck.json")
    run = PracticeRun(made[:2], student="ann", deck=deck, now=T0)
    run.attempt(run.current.best)
    folder.rmdir()
    with pytest.raises(ArgumentError, match=r"Deck\.save: the folder .*decks' does not exist"):
        run.next()
    assert run.index == 0 and run.phase in ("solved", "wrong") and deck.due(T0) == made[:2]
    folder.mkdir()
    due = run.next()
    assert due is not None and due > T0 and deck.due(T0) == made[1:2]
    assert Deck.open(folder / "ann.deck.json").to_dict() == deck.to_dict()


@pytest.mark.parametrize("now", [T0.astimezone(timezone(timedelta(hours=2))), T0])
def test_a_time_in_any_zone_answers_the_same(made, now):
    deck = Deck(made[:1], now=T0)
    assert deck.answer(made[0], [attempt(True)], now=now) == T0 + timedelta(minutes=10)


def test_the_errors_are_needle_errors():
    assert issubclass(ArgumentError, NeedleError)
