"""The class's record as a room keeps it: every finished game its activities hand over (`Activity.outcomes`)
recorded once and saved with its replay, and the reviews behind the record computed on the room's jobs
(`jobs`): the record's figures of each seat first, then the student's own review of their game, kept to be
shown on their screen.
"""

from __future__ import annotations

import collections
import threading
from collections.abc import Callable, Iterable
from concurrent.futures import Executor
from functools import partial
from typing import Any

from ..engine.errors import quote
from ..records.replay import Replay
from ..review.values import Valuation
from .activity import Activity
from .errors import ClassError
from .jobs import Jobs
from .keeper import Keeper
from .record import Record, RecordEntry, seat_ledger, seat_review
from .seal import seed_of

__all__ = ["MAX_PANELS", "Recorder"]

MAX_PANELS = 256
"""Students' reviews of their finished games kept in memory (computed again after a restart, as needed)."""


class Recorder:
    """The room's `record` (a new one with `worlds` worlds a decision, None: the record's default), its games
    saved by `keeper` and reviewed on `reviews` (any Executor; by default a process of its own). `activities()`
    gives the room's activities (the latest of each kind); `ended()` is told when a review ends, `ready(entry)`
    when a student's review of `entry`'s game is ready, under the room's `lock`.
    """

    def __init__(self, lock: threading.RLock, keeper: Keeper, secret: bytes,
                 activities: Callable[[], Iterable[Activity]], *, reviews: Executor | None, worlds: int | None,
                 ended: Callable[[], None], ready: Callable[[RecordEntry], None]) -> None:
        self._lock, self._keeper, self._secret, self._activities = lock, keeper, secret, activities
        self._ready = ready
        self.record = Record() if worlds is None else Record(worlds=worlds)
        """The class's record over the term (`classroom.record`)."""
        self._jobs = Jobs(reviews, ended=ended)
        self._panels: collections.OrderedDict[tuple[str, int], dict[str, Any]] = collections.OrderedDict()
        self._asked: set[tuple[str, int]] = set()

    def collect(self) -> None:
        """Record the activities' finished games not yet recorded, and queue their reviews (the lock is held)."""
        added: list[RecordEntry] = []
        for activity in self._activities():
            for outcome in activity.outcomes(self.record.games):
                added += self.record.add(outcome)
                number = self.record.games[outcome.source]
                self._keeper.save(f"game-{number}", outcome.replay.to_dict(), f"saving game {number}")
        if added:
            self._save()
        for entry in added:
            self._review(entry, self.replay(entry.game).to_dict())

    def replay(self, game: int) -> Replay:
        """The replay of the record's game number `game` (from its activity, or as saved)."""
        source = next((s for s, n in self.record.games.items() if n == game), None)
        if source is None:
            raise ClassError(f"The record has no game {quote(game)}: it has games 1 to {len(self.record)}")
        for activity in self._activities():
            for outcome in activity.outcomes(set(self.record.games) - {source}):
                if outcome.source == source:
                    return outcome.replay
        saved = self._keeper.load(f"game-{game}")
        if saved is None:
            raise ClassError(f"Game {game} of the record is not in the channel")
        return Replay.from_dict(saved)

    def take_up(self) -> None:
        """Take up the record as saved (reopening a room), and queue the reviews it still waits for."""
        saved = self._keeper.load("record")
        if saved is not None:
            self.record = Record.from_dict(saved)
        for entry in self.record.pending():
            self._review(entry, self.replay(entry.game).to_dict())

    def review_of(self, game: tuple[str, int]) -> dict[str, Any] | None:
        """The student's own review of `game` (its source, their seat), or None until it is computed:
        one reviewed before a restart is asked for again, once (the lock is held).
        """
        reviewed = self._panels.get(game)
        entry = self.record.entry(*game)
        if reviewed is None and entry is not None and entry.adjusted is not None and game not in self._asked:
            self._asked.add(game)  # reviewed before a restart: the student's review is made again
            self._jobs.submit(partial(seat_review, seed=self._seed(entry.source),
                                      practice_seed=self._practice_seed(entry.source)),
                              (self.replay(entry.game).to_dict(), game[1], self.record.worlds),
                              lambda result: self._reviewed(entry, result))
        return reviewed

    def wait(self, timeout: float) -> bool:
        """Wait (at most `timeout` seconds) until the reviews queued so far are done; True if they are."""
        return self._jobs.wait(timeout)

    def close(self) -> None:
        """Stop taking the reviews' results (`Jobs.close`)."""
        self._jobs.close()

    def _save(self) -> None:
        self._keeper.save("record", self.record.to_dict(), "saving the record")

    def _review(self, entry: RecordEntry, replay: dict[str, Any]) -> None:
        """Queue the figures of `entry` and then its student's review of the game."""
        worlds, seed = self.record.worlds, self._seed(entry.source)

        def figured(result: tuple[tuple[float, float, float], dict[int, Valuation]] | None) -> None:
            known = None
            with self._lock:
                if result is None:
                    entry.failed = True
                else:
                    (entry.adjusted, entry.skill, entry.luck), known = result
                self._save()
            self._jobs.submit(partial(seat_review, known=known, seed=seed,
                                      practice_seed=self._practice_seed(entry.source)), (replay, entry.seat, worlds),
                              lambda result: self._reviewed(entry, result))

        self._jobs.submit(partial(seat_ledger, seed=seed), (replay, entry.seat, worlds), figured)

    def _practice_seed(self, source: str) -> int:
        """The seed of the worlds a student's practice of game `source`'s mistakes judges attempts on: their own, from
        the room's secret, never the review's (`_seed`), which no student's kernel is sent.
        """
        return seed_of(self._secret, "practice", source)

    def _seed(self, source: str) -> int:
        """The seed of the worlds that value game `source`'s decisions in the record: from the room's secret, so
        no student's kernel can draw them and learn before moving which move the record will value highest.
        """
        return seed_of(self._secret, "review", source)

    def _reviewed(self, entry: RecordEntry, result: dict[str, Any] | None) -> None:
        """A student's review of their game is ready: kept, and `ready` told."""
        if result is None:
            return
        with self._lock:
            self._panels[(entry.source, entry.seat)] = result
            while len(self._panels) > MAX_PANELS:
                self._panels.popitem(last=False)
            self._ready(entry)
