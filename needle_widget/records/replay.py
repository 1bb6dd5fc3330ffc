"""Replay: one game's record, checked on load, any step in an instant, with the teacher's notes and
variations beside it.

`Replay` keeps the game's record (rules, deck, every action with its chance outcome, result) and steps
through it (`game_at`, `branch`, `cut`). Its file, the versioned JSON format of that record for tools
written around it, is `needle_widget.records.replayfile` (the format in its docstring; `to_dict`,
`to_json`, `save`, `load`, `from_json`, `from_dict` here). Its annotations are `ReplayNotes` (the
teacher's notes, `needle_widget.records.replaynotes`) and `ReplayVariations` (lines of play kept beside
the game, `needle_widget.records.replayvariations`), which `Replay` inherits.
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Sequence
from typing import Any

from ..engine.cards import Card
from ..engine.errors import ReplayError
from ..engine.game import Game
from ..engine.paths import write_text
from ..engine.result import Result
from ..engine.rules import Rules
from . import replayfile
from .notes import MAX_NOTES, Note
from .replayfile import FORMAT, MAX_FILE_BYTES, MAX_NAME_LENGTH, READS, VERSION
from .replaynotes import ReplayNotes
from .replayvariations import ReplayVariations
from .steps import Step, play
from .variations import Variation

__all__ = ["FORMAT", "MAX_FILE_BYTES", "MAX_NAME_LENGTH", "MAX_NOTES", "READS", "SNAPSHOT_EVERY", "VERSION", "Replay"]

SNAPSHOT_EVERY = 8
"""`game_at` keeps a copy of the game every SNAPSHOT_EVERY actions, and applies at most that many from one."""


class Replay(ReplayVariations, ReplayNotes):
    """A finished (or paused) game, step by step, with the teacher's notes.

    The game's record (rules, deck, steps, result) is fixed once made: it is checked by
    re-applying every action, and `game_at` relies on snapshots of it. The notes are
    not part of the game, and change in place (`add_note`, `edit_note`, `remove_note`,
    `replace_notes`): each note is a frozen `notes.Note`, and `notes` is a tuple, so
    what a caller holds never changes under it. `copy()` makes another replay sharing
    the fixed record (no re-applying) with notes of its own.

    >>> from needle_widget import Game, actions
    >>> g = Game(seed=7)
    >>> g.apply(actions.ChooseNeedle("7h")); g.apply(actions.ChooseNeedle("QS")); g.apply(actions.DrawPile())
    >>> r = Replay.from_json(g.replay().to_json())
    >>> len(r), r.game_at(2).phase, r.game_at(3).hand(0) == g.hand(0)
    (3, 'draw', True)
    >>> r.add_note(3, "Did the draw help?", perspective=0)
    Note(step=3, text='Did the draw help?', perspective=0, question=None)
    >>> r.notes_for(0), r.notes_for(1)
    ((Note(step=3, text='Did the draw help?', perspective=0, question=None),), ())
    """

    def __init__(self, rules: Rules, seed: int, deck: Sequence[Card], first_player: int,
                 players: Sequence[str], steps: Sequence[Step], result: dict | None = None, *,
                 notes: Iterable[Note | dict] = (), variations: Iterable[Variation | dict] = ()) -> None:
        self.rules = rules
        self.seed = seed
        self.deck: tuple[Card, ...] = tuple(deck)
        self.first_player = first_player
        self.players: tuple[str, str] = (players[0], players[1])
        self.steps: tuple[Step, ...] = tuple(steps)
        self._snapshots: list[Game] = []
        self._final: Game  # set by _rebuild
        self._rebuild(result)
        self._keep_notes(notes)
        self._keep_variations(variations)

    # ---- making, saving and reading -------------------------------------------------

    @classmethod
    def from_game(cls, game: Game, *, notes: Iterable[Note | dict] = (),
                  variations: Iterable[Variation | dict] = ()) -> Replay:
        """The record of `game` so far (`Game.replay()` calls this), with `notes` and `variations` if given."""
        steps = [Step.of(e) for e in game.history]
        result = game.result.to_dict() if game.result else None
        return cls(game.rules, game.seed, game.deck, game.first_player, game.players, steps, result, notes=notes,
                   variations=variations)

    def copy(self, *, notes: Iterable[Note | dict] | None = None,
             variations: Iterable[Variation | dict] | None = None) -> Replay:
        """Another replay of the same game, made at once (the record is shared, not re-applied),
        with a copy of these notes and variations or the `notes` and `variations` given:
        `r.copy(notes=r.notes_for(0), variations=r.variations_for(0))` is the replay to hand
        Player 1, with only the notes and variations Player 1 may read.
        """
        other = object.__new__(type(self))
        other.__dict__.update(self.__dict__)
        other._keep_notes(self.notes if notes is None else notes)
        if variations is None:
            other._share_variations(self)
        else:
            other._keep_variations(variations, made=self)
        return other

    def to_dict(self) -> dict[str, Any]:
        """The whole record as a JSON-ready dict (the format: `needle_widget.records.replayfile`); "notes" only
        if there are some, "variations" (and version 3) only if there are some, else version 2.
        """
        return replayfile.record(self)

    def to_json(self, indent: int | None = None) -> str:
        """The JSON text; one action and one note per line when `indent` is None (diff-friendly)."""
        return replayfile.json_text(self.to_dict(), indent)

    def save(self, path: str | os.PathLike) -> None:
        """Write `to_json()` to `path` (text or a pathlib.Path; anything else, a missing folder or a
        failed write raises ReplayError, and an old file at `path` is left as it was).
        """
        write_text(path, self.to_json(), "Replay.save", ReplayError)

    def to_html(self, path: str | os.PathLike | None = None, perspective: Any = 0, step: int = 0,
                spoilers: bool = True, *, review: bool = False, reveal_at_end: bool = False,
                review_worlds: int | None = None) -> str:
        """One self-contained HTML page of this replay seen from `perspective` (0, 1, "spectator",
        "teacher"), opening at `step`, that steps like the widget with no kernel: written to `path`
        if given, and returned. Only that perspective's view is in it (`needle_widget.apps.export`);
        `review=True` adds the review it may see (a player's own; the opponent's only with
        `reveal_at_end=True`).
        """
        from ..apps.export import to_html  # the page is built by the layers above this one

        return to_html(self, path, perspective=perspective, step=step, spoilers=spoilers, review=review,
                       reveal_at_end=reveal_at_end, review_worlds=review_worlds)

    @classmethod
    def load(cls, path: str | os.PathLike) -> Replay:
        """Read and check a replay file; any problem raises ReplayError naming the file."""
        text = replayfile.read(path)
        try:
            return cls.from_json(text)
        except ReplayError as error:  # the same class (a bad note's NoteError subclass), naming the file
            raise type(error)(f"{os.fspath(path)}: {error}") from None

    @classmethod
    def from_json(cls, text: str | bytes) -> Replay:
        """Read and check a replay from its JSON text (str, or UTF-8 bytes), parsed within bounds
        (`records.jsontext`: size, nesting, finite numbers); any problem raises ReplayError.
        """
        return cls.from_dict(replayfile.parsed(text))

    @classmethod
    def from_dict(cls, data: Any) -> Replay:
        """Check every field, then re-apply every action; raise ReplayError at the first problem."""
        f = replayfile.fields(data)
        return cls(f.rules, f.seed, f.deck, f.first_player, f.players, f.steps, f.result, notes=f.notes,
                   variations=f.variations)

    # ---- stepping -----------------------------------------------------------------

    def __len__(self) -> int:
        """The number of recorded actions."""
        return len(self.steps)

    @property
    def result(self) -> Result | None:
        """How the recorded game ended, or None if it is in progress."""
        return self._final.result

    @property
    def final_game(self) -> Game:
        """A copy of the game after every action."""
        return self._final.copy()

    def game_at(self, k: int) -> Game:
        """A new Game after the first `k` actions (0 = dealt, needles not yet picked; len(self) = the end).

        Fast for any k: it copies the nearest stored snapshot and applies at most
        a few recorded actions.
        """
        if type(k) is not int or not 0 <= k <= len(self.steps):
            raise ReplayError(f"step {k!r} is out of range 0..{len(self.steps)}")
        base = k // SNAPSHOT_EVERY
        game = self._snapshots[base].copy()
        for step in self.steps[base * SNAPSHOT_EVERY : k]:
            step.apply_to(game)
        return game

    def cut(self, k: int) -> Replay:
        """The replay of the first `k` actions: the record as it stood at step k, as if the game
        had been saved then (the same as `Replay.from_game(self.game_at(k))`): its result only if
        the round was over at step k, only the notes at steps up to k, and only the variations from
        steps up to k that play a sampled world (one with the real cards would tell the draws to
        come). Made at once (the record's snapshots are shared, nothing is re-applied); a bad k
        raises ReplayError.

        >>> from needle_widget import examples
        >>> r = examples.load("found_early")
        >>> c = r.cut(5)
        >>> len(c), c.result, c.to_dict() == Replay.from_game(r.game_at(5)).to_dict()
        (5, None, True)
        """
        if type(k) is not int or not 0 <= k <= len(self.steps):
            raise ReplayError(f"step {k!r} is out of range 0..{len(self.steps)}")
        other = object.__new__(type(self))
        other.__dict__.update(self.__dict__)
        other.steps = self.steps[:k]
        other._snapshots = self._snapshots[: k // SNAPSHOT_EVERY + 1]
        other._final = self._final if k == len(self.steps) else self.game_at(k)
        other._keep_notes([note for note in self.notes if note.step <= k])
        other._share_variations(self, lambda v: v.step <= k and not v.real)
        return other

    def branch(self, k: int) -> Game:
        """The real game after the first `k` actions, live and independent of this replay: "play from here".

        Its generator state is the one the original game had at that step (the
        replay re-applies each recorded chance outcome and advances the generator as
        the original did), so applying the recorded actions from here on with plain
        `apply` reproduces the original, steals and reshuffles included; any other
        action starts a new line of play. Fast for any k (as `game_at`); a bad k
        raises ReplayError.

        One record cannot tell two originals apart: a game dealt from a given deck
        under `first_player="random"` that drew the first player from the generator
        (`Game(deck=...)`) or was told it (`Game(deck=..., first_player=...)`); a
        branch follows the second. A game dealt by its seed alone is always exact.

        >>> from needle_widget import Game
        >>> g = Game(seed=7)
        >>> for _ in range(30):
        ...     g.apply(g.legal_actions()[-1])
        >>> b = g.replay().branch(10)
        >>> for event in g.history[10:]:
        ...     b.apply(event.action)
        >>> b.snapshot() == g.snapshot()
        True
        """
        return self.game_at(k)

    def _rebuild(self, result: dict | None) -> None:
        dealt = Game.dealt(self.rules, self.seed, self.deck, self.first_player)
        dealt.players = self.players
        game = dealt
        self._snapshots = [game.copy()]

        def keep(k: int, game: Game) -> None:
            if (k + 1) % SNAPSHOT_EVERY == 0:
                self._snapshots.append(game.copy())

        play(game, self.steps, each=keep)
        actual = game.result.to_dict() if game.result else None
        if result != actual:
            raise ReplayError(f"result: recorded {result!r}, but the actions give {actual!r}")
        self._final = game

    def __repr__(self) -> str:
        end = self.result.describe() if self.result else "in progress"
        count = len(self.notes)
        notes = f", {count} note{'s' * (count != 1)}" if count else ""
        count = len(self.variations)
        notes += f", {count} variation{'s' * (count != 1)}" if count else ""
        return f"<Replay seed={self.seed}, {len(self)} actions{notes}, {self.players[0]} vs {self.players[1]}: {end}>"
