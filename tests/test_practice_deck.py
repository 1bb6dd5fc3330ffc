"""The practice deck (needle_widget/teaching/practice.py): exercises with an FSRS schedule, due first, rated by how
the practice went, saved whole and read back across sessions; a bad file changes nothing.
"""

from __future__ import annotations

import json
from datetime import datetime, timedelta, timezone

import pytest
from fsrs import Rating

from needle_widget.engine import actions
from needle_widget.engine.errors import ArgumentError
from needle_widget.players.bots import GreedyBot, RandomBot
from needle_widget.players.sim import play_game
from needle_widget.review import review
from needle_widget.review.exercises import Attempt, AttemptResult, exercises
from needle_widget.teaching.practice import Deck, rating

T0 = datetime(2026, 12, 1, 9, 0, tzinfo=timezone.utc)
ALL = ("best", "good", "inaccuracy", "mistake", "blunder")


@pytest.fixture(scope="module")
def made():
    replay = play_game(RandomBot(seed=2027), GreedyBot(), seed=2027).replay()
    return exercises([review(replay, 0, worlds=8)], marks=ALL)


def attempt(solved: bool) -> Attempt:
    return Attempt(AttemptResult.SOLVED if solved else AttemptResult.TRY_AGAIN, actions.DrawPile(), "best", 0.0, 0.0,
                   0.5, actions.DrawPile(), 0.5, 8)


def test_how_a_practice_went_is_rated():
    assert rating([attempt(True)]) is Rating.Good
    assert rating([attempt(False), attempt(True)]) is Rating.Hard
    assert rating([attempt(False)], shown=True) is Rating.Again
    assert rating([attempt(True)], shown=True) is Rating.Again
    assert rating([]) is Rating.Again


def test_new_exercises_are_due_at_once_and_an_exercise_is_added_once(made):
    deck = Deck(made[:3], now=T0)
    assert len(deck) == 3 and deck.add(made[:5], now=T0) == 2 and len(deck) == 5
    assert deck.due(T0) == made[:5] and deck.due(T0 - timedelta(seconds=1)) == []
    assert list(deck) == made[:5]


def test_a_solved_exercise_comes_back_later_than_one_shown(made):
    deck = Deck(made[:3], now=T0)
    good = deck.answer(made[0], [attempt(True)], now=T0)
    hard = deck.answer(made[1], [attempt(False), attempt(True)], now=T0)
    again = deck.answer(made[2], [attempt(False)], shown=True, now=T0)
    assert T0 < again <= hard <= good
    assert deck.due(T0) == []
    assert deck.due(again) == [made[2]]
    later = T0 + timedelta(days=2)
    assert deck.due(later) == sorted(made[:3], key=deck.when)                       # the longest overdue first
    day = deck.answer(made[0], [attempt(True)], now=later)                          # a second good practice
    assert day - later > timedelta(days=1)


def test_the_deck_is_saved_whole_and_read_back_across_sessions(made, tmp_path):
    path = tmp_path / "ann.deck.json"
    first = Deck.open(path)
    assert len(first) == 0 and not path.exists()
    first.add(made, now=T0)
    first.answer(made[0], [attempt(True)], now=T0)
    first.save()
    text = path.read_text(encoding="utf-8")
    second = Deck.open(path)                                                        # the next session
    assert list(second) == list(first) and [second.when(x) for x in made] == [first.when(x) for x in made]
    assert second.due(T0 + timedelta(hours=1)) == first.due(T0 + timedelta(hours=1))
    second.save()
    assert path.read_text(encoding="utf-8") == text                                 # the same bytes: nothing random
    assert not list(tmp_path.glob("*.part"))


def test_a_bad_deck_file_is_refused_with_what_is_wrong(made, tmp_path):
    path = tmp_path / "deck.json"
    deck = Deck(made[:2], now=T0)
    deck.save(path)
    good = json.loads(path.read_text(encoding="utf-8"))
    cases = [("not json {", "is not a deck file"), (json.dumps({"format": "x"}), "Not a deck of format"),
             (json.dumps({**good, "cards": {}}), "Exercise 1 of the deck has no valid card"),
             (json.dumps({**good, "exercises": [{**good["exercises"][0], "seed": "7"}]}),
              "Exercise 1 of the deck: An exercise's seed must be a count")]
    for text, says in cases:
        path.write_text(text, encoding="utf-8")
        with pytest.raises(ArgumentError, match=says):
            Deck.open(path)
    with pytest.raises(ArgumentError, match="has no file yet"):
        Deck(made[:1]).save()
    with pytest.raises(ArgumentError, match="Not an exercise of this deck"):
        Deck(made[:1]).answer(made[1], [attempt(True)])
    with pytest.raises(ArgumentError, match="now must be a datetime with a time zone"):
        deck.due(datetime(2026, 1, 1))
