"""A deck of exercises and their spaced-repetition schedule, kept in a file across sessions.

Each exercise (`review.exercises`) is a card of the FSRS scheduler (the `fsrs` package, the algorithm Anki
uses): a practice session starts with the cards that are due, and how a student did sets when each comes back.

- Solved at the first attempt: `Rating.Good`; solved after a "Try again": `Rating.Hard`; the better move shown
  (or given up): `Rating.Again` (it comes back within minutes).
- The scheduler runs without fuzzing, so the same answers at the same times give the same schedule: nothing in
  a deck is random.
- `Deck.save` writes the exercises and their cards to one JSON file (written whole, then moved into place);
  `Deck.open(path)` reads it back, or starts an empty deck there. A bad file is an ArgumentError naming what is
  wrong, and the deck is not changed.

>>> from datetime import datetime, timezone
>>> deck = Deck()
>>> len(deck), deck.due(datetime(2026, 1, 1, tzinfo=timezone.utc))
(0, [])
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterable, Iterator, Sequence
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

from fsrs import Card, Rating, Scheduler

from ..engine.errors import ArgumentError, quote
from ..review.exercises import Attempt, Exercise

__all__ = ["FORMAT", "MAX_BYTES", "Deck", "rating"]

FORMAT = "needle-deck-1"
MAX_BYTES = 50_000_000
"""The largest deck file read (about 10,000 exercises)."""


def _now(now: object) -> datetime:
    if now is None:
        return datetime.now(timezone.utc)
    if not isinstance(now, datetime) or now.tzinfo is None:
        raise ArgumentError(f"now must be a datetime with a time zone (datetime.now(timezone.utc)), not {quote(now)}")
    return now


def rating(attempts: Sequence[Attempt], shown: bool = False) -> Rating:
    """How a practice of one exercise went, as FSRS rates a review (see the module docstring)."""
    solved = [k for k, a in enumerate(attempts) if a.solved]
    if shown or not solved:
        return Rating.Again
    return Rating.Good if solved[0] == 0 else Rating.Hard


class Deck:
    """Exercises with their schedule (see the module docstring); iterate for the exercises in the order added."""

    def __init__(self, exercises: Iterable[Exercise] = (), path: str | os.PathLike[str] | None = None,
                 now: datetime | None = None) -> None:
        self.path = None if path is None else Path(path)
        self._scheduler = Scheduler(enable_fuzzing=False)
        self._exercises: dict[str, Exercise] = {}
        self._cards: dict[str, Card] = {}
        self.add(exercises, now)

    @classmethod
    def open(cls, path: str | os.PathLike[str]) -> Deck:
        """The deck saved at `path`, or an empty one that will be saved there."""
        path = Path(path)
        if not path.exists():
            return cls(path=path)
        if path.stat().st_size > MAX_BYTES:
            raise ArgumentError(f"{str(path)!r} is larger than a deck may be ({MAX_BYTES:,} bytes)")
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
        except (UnicodeDecodeError, json.JSONDecodeError) as error:
            raise ArgumentError(f"{str(path)!r} is not a deck file (JSON): {error}") from None
        deck = cls.from_dict(data)
        deck.path = path
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
                exercise = Exercise.from_dict(item)
            except ArgumentError as error:
                raise ArgumentError(f"Exercise {k + 1} of the deck: {error}") from None
            deck._exercises[exercise.key] = exercise
            try:
                deck._cards[exercise.key] = Card.from_dict(cards[exercise.key])
            except (KeyError, TypeError, ValueError) as error:
                raise ArgumentError(f"Exercise {k + 1} of the deck has no valid card ({type(error).__name__}: "
                                    f"{str(error)[:80]})") from None
        return deck

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready: the exercises and each one's card."""
        return {"format": FORMAT, "exercises": [x.to_dict() for x in self._exercises.values()],
                "cards": {key: card.to_dict() for key, card in self._cards.items()}}

    def save(self, path: str | os.PathLike[str] | None = None) -> Path:
        """Write the deck to `path` (or where it was opened), whole: a new file moved over the old one."""
        target = Path(path) if path is not None else self.path
        if target is None:
            raise ArgumentError("This deck has no file yet: save(path)")
        text = json.dumps(self.to_dict(), ensure_ascii=False, separators=(",", ":")) + "\n"
        part = target.with_name(target.name + ".part")
        part.write_text(text, encoding="utf-8")
        os.replace(part, target)
        self.path = target
        return target

    def __len__(self) -> int:
        return len(self._exercises)

    def __iter__(self) -> Iterator[Exercise]:
        return iter(self._exercises.values())

    def add(self, exercises: Iterable[Exercise], now: datetime | None = None) -> int:
        """Add exercises not in the deck yet (by `Exercise.key`), each due at `now` (default: now); how many were
        new.
        """
        at, new = _now(now), 0
        for exercise in exercises:
            if not isinstance(exercise, Exercise):
                raise ArgumentError(f"A deck holds exercises (review.exercises(...)), not {quote(exercise)}")
            if exercise.key not in self._exercises:
                exercise.to_dict()  # an exercise the deck could not save is refused now, not at save()
                self._exercises[exercise.key] = exercise
                self._cards[exercise.key] = Card(card_id=int(exercise.key[:12], 16), due=at)
                new += 1
        return new

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
               now: datetime | None = None) -> datetime:
        """Record a practice of `exercise` (its attempts, and whether the better move was shown); when it is due
        next.
        """
        key = self._key(exercise)
        card, _log = self._scheduler.review_card(self._cards[key], rating(attempts, shown), _now(now))
        self._cards[key] = card
        return card.due

    def _key(self, exercise: object) -> str:
        key = exercise.key if isinstance(exercise, Exercise) else None
        if key is None or key not in self._exercises:
            raise ArgumentError(f"Not an exercise of this deck: {quote(exercise)}")
        return key
