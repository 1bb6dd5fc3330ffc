"""A tampered practice deck (issue 43, item 6): whatever a deck file holds, `Deck.open` either refuses it with a
NeedleError quoting the bad field, leaving the file as it was, or opens a deck every exercise of which can be
practised, answered, scheduled, saved and opened again. Nothing fails half way through a practice.
"""

from __future__ import annotations

import copy
import json
from datetime import datetime, timedelta, timezone
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from needle_widget.engine import actions
from needle_widget.engine.errors import ArgumentError, NeedleError, quote
from needle_widget.players.bots import GreedyBot, RandomBot
from needle_widget.players.sim import play_game
from needle_widget.review import review
from needle_widget.review.exercises import Attempt, AttemptResult, Exercise, exercises
from needle_widget.teaching.practice import LATEST, Deck
from needle_widget.teaching.practicerun import PracticeRun

T0 = datetime(2026, 12, 1, 9, 0, tzinfo=timezone.utc)
LATER = T0 + timedelta(days=5)
"""When every card of the saved deck below is due."""
ALL = ("best", "good", "inaccuracy", "mistake", "blunder")


def attempt(solved: bool) -> Attempt:
    return Attempt(AttemptResult.SOLVED if solved else AttemptResult.TRY_AGAIN, actions.DrawPile(), "best", 0.0, 0.0,
                   0.5, actions.DrawPile(), 0.5, 8)


def made_exercises() -> list[Exercise]:
    """Four exercises of a RandomBot game reviewed at 8 worlds (2 to 8 legal moves each: quick to judge)."""
    replay = play_game(RandomBot(seed=2027), GreedyBot(), seed=2027).replay()
    return exercises([review(replay, 0, worlds=8)], marks=ALL)[1:5]


def saved_deck(made: list[Exercise]) -> dict[str, Any]:
    """A deck's JSON form with a card in each state: Learning (new, and at step 1), Review and Relearning."""
    deck = Deck(made, now=T0)
    deck.answer(made[0], [attempt(True)], now=T0)
    for minutes in (0, 10):
        deck.answer(made[1], [attempt(True)], now=T0 + timedelta(minutes=minutes))
        deck.answer(made[2], [attempt(True)], now=T0 + timedelta(minutes=minutes))
    deck.answer(made[2], [], shown=True, now=T0 + timedelta(days=3))
    data = deck.to_dict()
    assert [c["state"] for c in data["cards"].values()] == [1, 2, 3, 1]
    return data


@pytest.fixture(scope="module")
def made() -> list[Exercise]:
    return made_exercises()


@pytest.fixture(scope="module")
def good(made) -> dict[str, Any]:
    return saved_deck(made)


def write(path: Path, data: Any) -> bytes:
    path.write_text(json.dumps(data), encoding="utf-8")
    return path.read_bytes()


def refused(path: Path, data: Any) -> NeedleError:
    """The error `Deck.open` raises for `data` written at `path`; the file is left as it was."""
    before = write(path, data)
    with pytest.raises(NeedleError) as caught:
        Deck.open(path)
    assert path.read_bytes() == before
    return caught.value


def practise(path: Path, now: datetime = LATER) -> Deck | None:
    """Open the deck at `path` and practise every exercise due at `now` (attempts, a "Try again", a better move
    shown, the summary), the deck saved at each Next; then open it again: the same deck, and every exercise of it
    answered at the latest time a deck answers at, saved and opened again. None if nothing is due.
    """
    deck = Deck.open(path)
    for x in deck:
        deck.when(x)
    if not deck.due(now):
        return None
    run = PracticeRun(deck, student="ann", now=now)
    k = 0
    while not run.done:
        x = run.current
        assert x is not None and run.position().view(x.seat) == x.view
        if k % 3 == 0:
            run.attempt(x.best)
        elif k % 3 == 1:
            wrong = run.attempt(x.played)
            assert wrong.message() and run.phase == "wrong"
            run.show()
            assert x.solution() and x.prompt()
        run.next()
        k += 1
    summary = run.summary()
    assert summary is not None and summary["deck"]
    again = Deck.open(path)
    assert again.to_dict() == deck.to_dict()
    assert again.due(now) == deck.due(now)
    late = LATEST - timedelta(seconds=1)
    for k, x in enumerate(again):  # the latest time a deck answers at: every rating, no overflow
        assert again.answer(x, [attempt(k % 3 == 0), attempt(True)][k % 3 == 1:], shown=k % 3 == 2, now=late) > late
    again.save()
    assert Deck.open(path).to_dict() == again.to_dict()
    return again


def card_of(data: dict[str, Any], k: int) -> dict[str, Any]:
    return list(data["cards"].values())[k]


BAD_CARDS = [
    # (card, field, bad value): the tamperings issue 43 names, and the like
    (0, "step", {}), (0, "step", "x"), (0, "step", -1), (0, "step", 2), (0, "step", True), (0, "step", 1.0),
    (1, "step", 0), (3, "step", None),
    (1, "stability", None), (1, "difficulty", None), (2, "stability", None), (0, "stability", None),
    (1, "stability", 0), (1, "stability", -2.5), (1, "stability", 1e300), (1, "stability", "2.3"),
    (1, "difficulty", 0.5), (1, "difficulty", 11), (1, "difficulty", True),
    (1, "state", 4), (1, "state", 0), (1, "state", "2"), (1, "state", None),
    (1, "due", "9999-12-31T23:59:59+00:00"), (1, "due", "9999-01-01T00:00:00+00:00"),
    (1, "due", "0001-01-01T00:00:00+05:00"), (1, "due", "2026-12-03T09:10:00"), (1, "due", "tomorrow"),
    (1, "due", None), (1, "due", 20261203),
    (1, "last_review", "2026-12-01T09:10:00"), (1, "last_review", "9999-12-31T23:59:59+00:00"),
    (1, "last_review", 7), (1, "last_review", "soon"),
    (1, "card_id", "7"), (1, "card_id", None), (1, "card_id", -1), (1, "card_id", 2 ** 80),
]


@pytest.mark.parametrize(("k", "field", "bad"), BAD_CARDS, ids=[f"{k}-{f}-{b!r}" for k, f, b in BAD_CARDS])
def test_a_tampered_card_is_refused_at_open_quoting_it(tmp_path, good, k, field, bad):
    data = copy.deepcopy(good)
    card_of(data, k)[field] = bad
    error = refused(tmp_path / "deck.json", data)
    assert isinstance(error, ArgumentError)
    assert f"Exercise {k + 1} of the deck" in str(error) and quote(bad) in str(error), str(error)


@pytest.mark.parametrize("change", ["missing", "extra", "list", "none"])
def test_a_card_of_the_wrong_shape_is_refused_at_open(tmp_path, good, change):
    data = copy.deepcopy(good)
    key = list(data["cards"])[1]
    if change == "missing":
        del data["cards"][key]["due"]
    elif change == "extra":
        data["cards"][key]["interval"] = 3
    else:
        data["cards"][key] = [] if change == "list" else None
    error = refused(tmp_path / "deck.json", data)
    assert isinstance(error, ArgumentError) and "Exercise 2 of the deck" in str(error)


def test_a_deck_nested_100_000_deep_is_refused_at_open(tmp_path):
    path = tmp_path / "deck.json"
    path.write_text("[" * 100_000 + "]" * 100_000, encoding="utf-8")
    with pytest.raises(ArgumentError, match="nested 100,000 deep"):
        Deck.open(path)


def test_a_card_in_another_time_zone_opens_and_is_practised(tmp_path, good):
    data = copy.deepcopy(good)
    card_of(data, 1)["due"] = "2026-12-03T10:10:00+01:00"
    card_of(data, 1)["last_review"] = "2026-12-01T04:10:00-05:00"
    write(tmp_path / "deck.json", data)
    deck = practise(tmp_path / "deck.json")
    assert deck is not None and len(deck) == 4


def test_an_untampered_deck_is_practised_whole(tmp_path, good):
    write(tmp_path / "deck.json", good)
    assert practise(tmp_path / "deck.json") is not None


@pytest.mark.parametrize("now", [datetime(9999, 12, 31, 23, 0, tzinfo=timezone.utc),
                                 datetime(1, 1, 1, 1, tzinfo=timezone(timedelta(hours=5))),
                                 datetime(2026, 12, 6, 9, 0, tzinfo=timezone(timedelta(hours=-3)))])
def test_a_time_the_schedule_cannot_answer_at_is_refused_at_the_call(tmp_path, good, made, now):
    """A time so late that the next due date would pass the year 9999 (or before 1970) is refused where it is
    given: the deck's calls and a practice's start. A time zone other than UTC is read as the same instant.
    """
    path = tmp_path / "deck.json"
    before = write(path, good)
    deck = Deck.open(path)
    if now.year == 2026:
        assert deck.answer(made[1], [attempt(True)], now=now) > now
        return
    for call in (lambda: deck.answer(made[1], [attempt(True)], now=now), lambda: deck.due(now),
                 lambda: deck.add(made[:1], now), lambda: PracticeRun(deck, now=now),
                 lambda: PracticeRun(made, deck=deck, now=now)):
        with pytest.raises(ArgumentError, match="now must be"):
            call()
    assert deck.to_dict() == Deck.open(path).to_dict() and path.read_bytes() == before


# ---- the property: whatever a tampering, refused at open or practised whole ------------------------------------

TIMES = st.one_of(
    st.datetimes(timezones=st.one_of(st.none(), st.just(timezone.utc),
                                     st.builds(timezone, st.timedeltas(timedelta(hours=-23), timedelta(hours=23))))),
    st.datetimes(datetime(2026, 11, 1), datetime(2026, 12, 31), timezones=st.just(timezone.utc)),
).map(lambda d: d.isoformat())
LEAVES = st.one_of(
    st.none(), st.booleans(), st.integers(-3, 12), st.integers(-2 ** 70, 2 ** 70),
    st.floats(allow_nan=True, allow_infinity=True), st.sampled_from([0.0, 0.001, 0.0009, 1.0, 10.0, 10.5, 1e10, 2e10]),
    st.text(max_size=6), TIMES,
)
VALUES = st.one_of(LEAVES, st.lists(LEAVES, max_size=3), st.dictionaries(st.text(max_size=4), LEAVES, max_size=3))
CARD_VALUES = {
    # each field's values: mostly ones the scheduler might accept, then anything
    "card_id": st.one_of(st.integers(0, 2 ** 64), VALUES),
    "state": st.one_of(st.integers(0, 4), VALUES),
    "step": st.one_of(st.none(), st.integers(-1, 2), VALUES),
    "stability": st.one_of(st.none(), st.floats(0.0, 2e10), VALUES),
    "difficulty": st.one_of(st.none(), st.floats(0.0, 11.0), VALUES),
    "due": st.one_of(TIMES, VALUES),
    "last_review": st.one_of(st.none(), TIMES, VALUES),
}
INSTANTS = st.one_of(
    st.datetimes(datetime(1970, 1, 2), datetime(9899, 12, 31), timezones=st.sampled_from(
        [timezone.utc, timezone(timedelta(hours=14)), timezone(timedelta(hours=-12, minutes=-30))])),
    st.datetimes(datetime(2026, 11, 1), datetime(2026, 12, 31), timezones=st.just(timezone.utc)),
).map(lambda d: d.isoformat())


@st.composite
def fsrs_cards(draw: Any) -> dict[str, Any]:
    """A card within the ranges the scheduler accepts, in any state, its times anywhere from 1970 to 9899."""
    state = draw(st.sampled_from([1, 2, 3]))
    new = state == 1 and draw(st.booleans())
    return {"card_id": draw(st.integers(0, 2 ** 63 - 1)), "state": state,
            "step": None if state == 2 else draw(st.integers(0, 1 if state == 1 else 0)),
            "stability": None if new else draw(st.one_of(st.floats(0.001, 1e10), st.sampled_from([0.001, 1e10]))),
            "difficulty": None if new else draw(st.floats(1.0, 10.0)),
            "due": draw(INSTANTS), "last_review": draw(st.one_of(st.none(), INSTANTS))}


EXERCISE_FIELDS = ("format", "history", "label", "loss", "se", "values", "more", "thresholds", "valued")
"""The fields of an exercise outside its key (a change to the others leaves it without a card)."""


def paths(data: Any, prefix: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    """Every path to a value inside `data` (its keys and indices)."""
    out = [prefix]
    if isinstance(data, dict):
        for key, value in data.items():
            out += paths(value, prefix + (key,))
    elif isinstance(data, list):
        for k, value in enumerate(data):
            out += paths(value, prefix + (k,))
    return out


def tamper(data: dict[str, Any], where: tuple[Any, ...], value: Any, delete: bool) -> dict[str, Any]:
    data = copy.deepcopy(data)
    if not where:
        return value
    parent = data
    for step in where[:-1]:
        parent = parent[step]
    if delete and isinstance(parent, dict):
        parent.pop(where[-1], None)
    elif delete:
        del parent[where[-1]]
    else:
        parent[where[-1]] = value
    return data


@st.composite
def tamperings(draw: Any, good: dict[str, Any]) -> dict[str, Any]:
    """A valid saved deck with one or two changes: a card's field, a whole card within fsrs's ranges, an
    exercise's field outside its key, or anywhere in the file; a value changed, or deleted.
    """
    data = good
    for _ in range(draw(st.integers(1, 2))):
        where: tuple[Any, ...] = draw(st.sampled_from(paths(data)))
        values = VALUES
        kind = draw(st.integers(0, 7))
        if kind < 6 and isinstance(data.get("cards"), dict) and data["cards"]:
            key = draw(st.sampled_from(sorted(data["cards"])))
            field = draw(st.sampled_from(sorted(CARD_VALUES)))
            where, values = ("cards", key, field), CARD_VALUES[field]
            if kind >= 2 or not isinstance(data["cards"][key], dict):
                where, values = ("cards", key), fsrs_cards()
        elif kind == 6 and isinstance(data.get("exercises"), list) and data["exercises"]:
            k = draw(st.integers(0, len(data["exercises"]) - 1))
            if isinstance(data["exercises"][k], dict):
                field = draw(st.sampled_from(EXERCISE_FIELDS))
                inside = [p for p in paths(data["exercises"][k].get(field), ("exercises", k, field))]
                where = draw(st.sampled_from(inside))
        delete = kind in (0, 1, 6, 7) and bool(where) and draw(st.integers(0, 9)) == 0
        data = tamper(data, where, draw(values), delete)
        if not isinstance(data, dict):
            break
    return data


def test_random_tamperings_are_refused_at_open_or_practised_whole(tmp_path_factory, good):
    folder = tmp_path_factory.mktemp("tampered")
    outcomes = {"refused": 0, "practised": 0, "nothing due": 0}

    @settings(max_examples=100, derandomize=True, deadline=None, database=None,
              suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
    @given(tamperings(good))
    def check(data: Any) -> None:
        path = folder / "deck.json"
        before = write(path, data)
        try:
            deck = Deck.open(path)
        except NeedleError:
            assert path.read_bytes() == before
            outcomes["refused"] += 1
            return
        assert isinstance(deck, Deck)
        outcomes["practised" if practise(path) is not None else "nothing due"] += 1

    check()
    assert outcomes["refused"] >= 25 and outcomes["practised"] >= 25, outcomes
