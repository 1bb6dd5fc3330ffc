"""A deck of exercises and their spaced-repetition schedule, kept in a file across sessions.

Each exercise (`review.exercises`) is a card of the FSRS scheduler (the `fsrs` package, the algorithm Anki
uses): a practice session starts with the cards that are due, and how a student did sets when each comes back.

- Solved at the first attempt: `Rating.Good`; solved after a "Try again": `Rating.Hard`; the better move shown
  (or given up): `Rating.Again` (it comes back within minutes).
- The scheduler runs without fuzzing, so the same answers at the same times give the same schedule: nothing in
  a deck is random.
- `Deck.save` writes the exercises and their cards to one JSON file (written whole, then moved into place);
  `Deck.open(path)` reads it back, or starts an empty deck there.

What opens can be practised: `Deck.open` reads the file within bounds (`records.jsontext`) and checks every
exercise (its view is a position a game reaches) and every field of its card against what the scheduler
accepts (a state, its step, a stability and a difficulty in fsrs's ranges, times with a time zone from
`EARLIEST` to `LATEST_DUE`). A bad file, and a bad argument to any method, raises an ArgumentError quoting what
is wrong, and neither the deck nor its file is changed. Times are read as instants: any time zone, kept in UTC.

>>> from datetime import datetime, timezone
>>> deck = Deck()
>>> len(deck), deck.due(datetime(2026, 1, 1, tzinfo=timezone.utc))
(0, [])
>>> deck.due(datetime(9999, 1, 1, tzinfo=timezone.utc))  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
needle_widget.engine.errors.ArgumentError: now must be a datetime with a time zone from 1970 to 9799 ...
"""

from __future__ import annotations

import json
import os
import stat
from collections.abc import Iterable, Iterator, Sequence
from datetime import datetime, timedelta, timezone
from pathlib import Path
from typing import Any

from fsrs import Card, Rating, Scheduler, State
from fsrs.scheduler import MAX_DIFFICULTY, MIN_DIFFICULTY, STABILITY_MIN

from ..engine.errors import ArgumentError, NeedleError, finite, quote
from ..engine.paths import check_path, write_text
from ..records.jsontext import parse
from ..review.exercises import Attempt, Exercise

__all__ = ["EARLIEST", "FORMAT", "LATEST", "LATEST_DUE", "MAX_BYTES", "MAX_STABILITY", "Deck", "check_exercises",
           "check_now", "rating"]

FORMAT = "needle-deck-1"
MAX_BYTES = 50_000_000
"""The largest deck file read (about 10,000 exercises)."""
_SCHEDULER = Scheduler(enable_fuzzing=False)
EARLIEST = datetime(1970, 1, 1, tzinfo=timezone.utc)
"""The earliest time a deck is read or answered at, and its earliest date."""
LATEST = datetime(9800, 1, 1, tzinfo=timezone.utc)
"""The time a deck is read and answered before: the next due date, at most the scheduler's maximum interval
(100 years) later, stays within what a datetime holds."""
LATEST_DUE = LATEST + timedelta(days=_SCHEDULER.maximum_interval)
"""The latest due date a deck holds (an answer just before `LATEST`, put off as long as the scheduler puts off)."""
MAX_STABILITY = 1e10
"""The largest stability (in days) a card holds: fsrs sets no bound, and a float near its own limit overflows the
scheduler; no practice within `LATEST` comes near it, and an answer keeps a card under it."""
CARD_FIELDS = ("card_id", "state", "step", "stability", "difficulty", "due", "last_review")
"""A card's fields in a deck file, as fsrs's `Card.to_dict` writes them."""
_STEPS = {State.Learning: len(_SCHEDULER.learning_steps), State.Relearning: len(_SCHEDULER.relearning_steps)}


def check_now(now: object) -> datetime | None:
    """`now` in UTC if it is a datetime with a time zone from `EARLIEST` to before `LATEST` (None stays None: the
    clock); else ArgumentError quoting it.
    """
    if now is None:
        return None
    if not isinstance(now, datetime) or now.utcoffset() is None or not EARLIEST <= now < LATEST:
        raise ArgumentError(f"now must be a datetime with a time zone from {EARLIEST.year} to {LATEST.year - 1} "
                            f"(datetime.now(timezone.utc)), not {quote(now)}")
    return now.astimezone(timezone.utc)


def _now(now: object) -> datetime:
    return check_now(now) or datetime.now(timezone.utc)


def rating(attempts: Sequence[Attempt], shown: bool = False) -> Rating:
    """How a practice of one exercise went, as FSRS rates a review (see the module docstring)."""
    given: object = attempts  # checked: a caller may pass anything
    if not isinstance(given, (list, tuple)) or not all(isinstance(a, Attempt) for a in given):
        raise ArgumentError(f"attempts must be a list of Attempts (Exercise.check(action)), not {quote(attempts)}")
    if not isinstance(shown, bool):
        raise ArgumentError(f"shown must be True or False, not {quote(shown)}")
    solved = [k for k, a in enumerate(attempts) if a.solved]
    if shown or not solved:
        return Rating.Again
    return Rating.Good if solved[0] == 0 else Rating.Hard


def _time(value: Any, name: str, latest: datetime) -> datetime:
    """A card's time from its ISO 8601 text: with a time zone, from EARLIEST to `latest`, in UTC."""
    try:
        at = datetime.fromisoformat(value) if isinstance(value, str) else None
    except ValueError:
        at = None
    if at is None or at.utcoffset() is None or not EARLIEST <= at <= latest:
        raise ArgumentError(f"{name} must be a time with a time zone (ISO 8601) from {EARLIEST.year} to "
                            f"{latest.year}, not {quote(value)}")
    return at.astimezone(timezone.utc)


def _count(value: Any, name: str, stop: int) -> int:
    if type(value) is not int or not 0 <= value < stop:
        raise ArgumentError(f"{name} must be an integer from 0 to {stop - 1:,}, not {quote(value)}")
    return value


def _memory(data: dict[str, Any], state: State) -> tuple[float | None, float | None]:
    """A card's stability and difficulty: both numbers in fsrs's ranges, or (a new card, Learning) both None."""
    stability, difficulty = data["stability"], data["difficulty"]
    if stability is None and difficulty is None and state is State.Learning:
        return None, None
    s, d = finite(stability), finite(difficulty)
    if s is None or not STABILITY_MIN <= s <= MAX_STABILITY:
        raise ArgumentError(f"stability must be a number from {STABILITY_MIN} to {MAX_STABILITY:g} days "
                            f"(None with the difficulty, for a new card), not {quote(stability)}")
    if d is None or not MIN_DIFFICULTY <= d <= MAX_DIFFICULTY:
        raise ArgumentError(f"difficulty must be a number from {MIN_DIFFICULTY:g} to {MAX_DIFFICULTY:g} "
                            f"(None with the stability, for a new card), not {quote(difficulty)}")
    return s, d


def _card_from(data: Any) -> Card:
    """An fsrs Card from its `Card.to_dict` form, every field checked so that the scheduler can answer it (see
    the module docstring); ArgumentError quoting the first bad field.
    """
    if not isinstance(data, dict) or set(data) != set(CARD_FIELDS):
        missing = [f for f in CARD_FIELDS if not isinstance(data, dict) or f not in data]
        raise ArgumentError(f"a card is a mapping of {', '.join(CARD_FIELDS)}"
                            + (f" (it has no {', '.join(missing)})" if isinstance(data, dict) and missing else "")
                            + f", not {quote(data)}")
    state = data["state"]
    if type(state) is not int or state not in tuple(State):
        raise ArgumentError(f"state must be 1 (learning), 2 (review) or 3 (relearning), not {quote(state)}")
    state = State(state)
    step = data["step"]
    if state is State.Review and step is not None:
        raise ArgumentError(f"step must be None in the review state, not {quote(step)}")
    if state is not State.Review:
        _count(step, "step", _STEPS[state])
    stability, difficulty = _memory(data, state)
    last = None if data["last_review"] is None else _time(data["last_review"], "last_review", LATEST)
    return Card(card_id=_count(data["card_id"], "card_id", 2 ** 63), state=state, step=step, stability=stability,
                difficulty=difficulty, due=_time(data["due"], "due", LATEST_DUE), last_review=last)


def check_exercises(exercises: object, *, or_: str = "") -> list[Exercise]:
    """`exercises` as a list if it is an iterable of Exercises; else ArgumentError quoting it (`or_`: what else the
    caller takes, named in the words).
    """
    if isinstance(exercises, (str, bytes, dict, Exercise)) or not isinstance(exercises, Iterable):
        raise ArgumentError(f"exercises must be a list of exercises (review.exercises(...)){or_}, "
                            f"not {quote(exercises)}")
    chosen = list(exercises)
    for x in chosen:
        if not isinstance(x, Exercise):
            raise ArgumentError(f"exercises must be Exercises (review.exercises(...)), not {quote(x)}")
    return chosen


class Deck:
    """Exercises with their schedule (see the module docstring); iterate for the exercises in the order added."""

    def __init__(self, exercises: Iterable[Exercise] = (), path: str | os.PathLike[str] | None = None,
                 now: datetime | None = None) -> None:
        self.path = None if path is None else check_path(path, "Deck").expanduser()
        self._scheduler = _SCHEDULER
        self._exercises: dict[str, Exercise] = {}
        self._cards: dict[str, Card] = {}
        self.add(exercises, now)

    @classmethod
    def open(cls, path: str | os.PathLike[str]) -> Deck:
        """The deck saved at `path`, or an empty one that will be saved there; ArgumentError naming the file and
        what is wrong with it.
        """
        target = check_path(path, "Deck.open").expanduser()
        name = quote(str(target))
        try:
            info = os.stat(target)
            if not stat.S_ISREG(info.st_mode):
                raise ArgumentError(f"{name} is not a deck file: not a regular file")
            if info.st_size > MAX_BYTES:
                raise ArgumentError(f"{name} is larger than a deck may be ({MAX_BYTES:,} bytes)")
            with open(target, "rb") as f:
                raw = f.read(MAX_BYTES + 1)
        except FileNotFoundError:
            return cls(path=target)
        except OSError as error:
            raise ArgumentError(f"Cannot read the deck {name}: {error.strerror or error}") from None
        data = parse(raw, f"{name} is not a deck file", ArgumentError, max_bytes=MAX_BYTES)
        try:
            deck = cls.from_dict(data)
        except ArgumentError as error:
            raise ArgumentError(f"{name}: {error}") from None
        deck.path = target
        return deck

    @classmethod
    def from_dict(cls, data: Any) -> Deck:
        """A deck from `to_dict`'s form; ArgumentError naming the first bad exercise or card."""
        if not isinstance(data, dict) or data.get("format") != FORMAT or not isinstance(data.get("exercises"), list):
            raise ArgumentError(f"Not a deck of format {FORMAT!r}: {quote(data)}")
        cards = data.get("cards")
        if not isinstance(cards, dict):
            raise ArgumentError(f"A deck's cards must be a mapping of exercise to card, not {quote(cards)}")
        deck = cls()
        for k, item in enumerate(data["exercises"]):
            try:
                exercise = _playable(Exercise.from_dict(item))
            except ArgumentError as error:
                raise ArgumentError(f"Exercise {k + 1} of the deck: {error}") from None
            try:
                card = _card_from(cards.get(exercise.key))
            except ArgumentError as error:
                raise ArgumentError(f"Exercise {k + 1} of the deck has no valid card ({exercise.key!r}): "
                                    f"{error}") from None
            deck._exercises[exercise.key] = exercise
            deck._cards[exercise.key] = card
        return deck

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready: the exercises and each one's card."""
        return {"format": FORMAT, "exercises": [x.to_dict() for x in self._exercises.values()],
                "cards": {key: card.to_dict() for key, card in self._cards.items()}}

    def save(self, path: str | os.PathLike[str] | None = None) -> Path:
        """Write the deck to `path` (or where it was opened), whole: a new file moved over the old one; if it
        cannot be written, an ArgumentError naming it, and the old file as it was.
        """
        target = self.path if path is None else check_path(path, "Deck.save")
        if target is None:
            raise ArgumentError("This deck has no file yet: save(path)")
        text = json.dumps(self.to_dict(), ensure_ascii=False, separators=(",", ":")) + "\n"
        self.path = write_text(target, text, "Deck.save")
        return self.path

    def __len__(self) -> int:
        return len(self._exercises)

    def __iter__(self) -> Iterator[Exercise]:
        return iter(self._exercises.values())

    def add(self, exercises: Iterable[Exercise], now: datetime | None = None) -> int:
        """Add exercises not in the deck yet (by `Exercise.key`), each due at `now` (default: now); how many were
        new. A bad exercise or time is refused before any is added.
        """
        chosen, at = check_exercises(exercises), _now(now)
        new = {x.key: x for x in chosen if x.key not in self._exercises}
        for exercise in new.values():
            exercise.to_dict()  # an exercise the deck could not save is refused now, not at save()
        for key, exercise in new.items():
            self._exercises[key] = exercise
            self._cards[key] = Card(card_id=int(key[:12], 16), due=at)
        return len(new)

    def due(self, now: datetime | None = None) -> list[Exercise]:
        """The exercises due at `now` (default: now), the longest overdue first, then in the order added."""
        at = _now(now)
        order = {key: k for k, key in enumerate(self._exercises)}
        keys = sorted((key for key, card in self._cards.items() if card.due <= at),
                      key=lambda key: (self._cards[key].due, order[key]))
        return [self._exercises[key] for key in keys]

    def when(self, exercise: Exercise) -> datetime:
        """When `exercise` is due next."""
        return self._cards[self._key(exercise)].due

    def answer(self, exercise: Exercise, attempts: Sequence[Attempt], shown: bool = False,
               now: datetime | None = None, *, save: bool = False) -> datetime:
        """Record a practice of `exercise` (its attempts, and whether the better move was shown); when it is due
        next. `save`: write the deck to its file with the answer, and if the file cannot be written, refuse the
        answer (the deck is as before).
        """
        key, grade, at = self._key(exercise), rating(attempts, shown), _now(now)
        if not isinstance(save, bool):
            raise ArgumentError(f"save must be True or False, not {quote(save)}")
        if save and self.path is None:
            raise ArgumentError("This deck has no file yet: answer(..., save=False), or save(path) first")
        before = self._cards[key]
        card, _log = self._scheduler.review_card(before, grade, at)
        if card.stability is not None and card.stability > MAX_STABILITY:
            card.stability = MAX_STABILITY
        self._cards[key] = card
        if save:
            try:
                self.save()
            except NeedleError:
                self._cards[key] = before
                raise
        return card.due

    def _key(self, exercise: object) -> str:
        key = exercise.key if isinstance(exercise, Exercise) else None
        if key is None or key not in self._exercises:
            raise ArgumentError(f"Not an exercise of this deck: {quote(exercise)}")
        return key


def _playable(exercise: Exercise) -> Exercise:
    """`exercise` if a position can be drawn from its view (as a practice draws one), else ArgumentError."""
    try:
        exercise.position(0)
    except Exception as error:  # a view read from a file: whatever it breaks, the deck does not open
        raise ArgumentError(f"its view is no position a game reaches ({type(error).__name__}: "
                            f"{str(error)[:160]})") from None
    return exercise
