"""Homework: each student practises the mistakes of their own class games (`Room.assign_practice`).

The room takes each student's finished games of the activities named (by default the latest match or challenge),
and from each game's review from the student's own seat (`record.seat_review`, the one the student's screen shows
after the game) its marked decisions as exercises. Each student is sent their own list only, whenever their kernel
joins (`outbox`); they practise it in their own kernel (`ownpractice`), on their class screen, and their kernel
reports each exercise done (solved, or the better move shown and moved on). The board shows who has done how many
(`board`), the gradebook exports it (`gradebook`).

What a student reports is what their own kernel says: homework, as on paper, is the student's word. An exercise
holds what the seat knew at its decision and nothing after it, so a student is sent nothing their seat did not see.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from ..engine.errors import quote
from .errors import ClassError

__all__ = ["Homework", "MAX_HOMEWORK_EXERCISES"]

MAX_HOMEWORK_EXERCISES = 64
"""The most exercises one student is given in one homework (the costliest first)."""


@dataclass
class Homework:
    """Homework `id`, called `title`, from the record's games of `sources` (activity names, "match 2"): each
    student's exercises (`Exercise.to_dict` each, by student index) and the ones they have done (by index in their
    list).
    """

    id: int
    title: str
    sources: tuple[str, ...]
    exercises: dict[int, list[dict[str, Any]]]
    done: dict[int, set[int]] = field(default_factory=dict)

    @classmethod
    def of(cls, ident: int, title: str, sources: Iterable[str],
           games: Mapping[int, Iterable[list[dict[str, Any]]]]) -> Homework:
        """Homework from each student's games' exercises (`games`: student index → each game's exercise list),
        the costliest mistakes first, at most MAX_HOMEWORK_EXERCISES a student.
        """
        exercises = {}
        for index, lists in games.items():
            mine = [x for xs in lists for x in xs]
            mine.sort(key=lambda x: -float(x.get("loss") or 0.0))
            exercises[index] = mine[:MAX_HOMEWORK_EXERCISES]
        return cls(ident, title, tuple(sources), exercises)

    def assigned(self, index: int) -> int:
        """How many exercises student `index` was given."""
        return len(self.exercises.get(index, ()))

    def count_done(self, index: int) -> int:
        """How many of them student `index` has done."""
        return len(self.done.get(index, ()))

    def report(self, index: int, done: Any) -> bool:
        """Student `index` says they have done exercises `done` (indices in their list); True if that is news.
        ClassError for anything but a list of their exercises' indices.
        """
        count = self.assigned(index)
        given: object = done
        if not isinstance(given, list) or len(done) > MAX_HOMEWORK_EXERCISES \
                or not all(type(i) is int and 0 <= i < count for i in done):
            raise ClassError(f"Homework {self.id}: done is a list of exercise numbers from 0 to {count - 1}, "
                             f"not {quote(done)}")
        mine = self.done.setdefault(index, set())
        before = len(mine)
        mine.update(done)
        return len(mine) > before

    def message(self, index: int) -> dict[str, Any] | None:
        """What student `index` is sent: their exercises and which they have done (None: they have none)."""
        if index not in self.exercises:
            return None
        return {"t": "homework", "id": self.id, "title": self.title, "exercises": self.exercises[index],
                "done": sorted(self.done.get(index, ()))}

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready (the room's saved state)."""
        return {"id": self.id, "title": self.title, "sources": list(self.sources),
                "exercises": {str(k): v for k, v in self.exercises.items()},
                "done": {str(k): sorted(v) for k, v in self.done.items()}}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Homework:
        """The inverse of `to_dict`."""
        return cls(int(data["id"]), str(data["title"]), tuple(data["sources"]),
                   {int(k): list(v) for k, v in data["exercises"].items()},
                   {int(k): set(v) for k, v in data["done"].items()})
