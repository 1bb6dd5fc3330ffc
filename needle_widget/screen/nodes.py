"""The desk's tree of sessions, as python-chess's `GameNode`: the game at the root (`GameNode`: the
session the desk was made with), and below it a variation opened from the move list for reading
(`VariationNode`) or a branch being played from one of the game's steps (`BranchNode`). Each node
holds its session and that session's `Analysis`; a child knows its `parent` and the `step` of the
game it starts from. The desk's cursor is the node it shows. No Jupyter.

A node is a value: when what it keeps changes (a note on the variation read, a move of the
branch, recorded in the game's variations), the desk puts the node's successor in its place.

>>> from needle_widget import examples
>>> from needle_widget.screen.session import Session
>>> home = Session(replay=examples.load("found_early"), perspective="teacher")
>>> home.go(5)
>>> game = GameNode.of(home)
>>> branch = BranchNode.start(game, 0, HOTSEAT, "real", None, print)
>>> branch.parent is game, branch.step, branch.session.mode, branch.index()
(True, 5, 'hotseat', 0)
>>> branch.close() is game, home.notes_book().variations
(True, ())
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Any

from ..engine.errors import ArgumentError
from ..engine.game import Game
from ..engine.seats import player_name
from ..inference import worlds as W
from ..records.replay import Replay
from ..records.steps import Step
from ..records.variations import Variation, VariationError, VariationNotFound, World
from . import guard
from .analysis import Analysis
from .session import Session, quote

__all__ = ["BranchNode", "GameNode", "HOTSEAT", "Node", "VariationNode", "WORLDS"]

WORLDS = ("real", "sampled")
"""The two kinds of branch: the game's own cards, or a possible world drawn from the seat's view."""
HOTSEAT = "hotseat"
"""The opponent of a branch played by two people at one screen."""


@dataclass(frozen=True, eq=False)
class GameNode:
    """The game: the session the desk was made with (the widget's own game or replay), at the root."""

    session: Session
    analysis: Analysis

    @classmethod
    def of(cls, session: Session) -> GameNode:
        """The root of a desk made with `session`, with its panels closed."""
        return cls(session, Analysis(session))

    @property
    def parent(self) -> None:
        """None: the game is the root."""
        return None

    def root(self) -> GameNode:
        """The game itself."""
        return self

    def index(self) -> int | None:
        """None: the game is no variation."""
        return None


@dataclass(frozen=True, eq=False)
class VariationNode:
    """A variation of the game's record opened for reading: its whole `line` as a replay of its own,
    shown within the game's entitlement (`Session(within=)`). `stop` ends the watch on its notes.
    """

    parent: GameNode
    session: Session
    analysis: Analysis
    variation: Variation
    line: Replay
    stop: Callable[[], None]

    @classmethod
    def open(cls, parent: GameNode, variation: Variation, to: Any,
             observer: Callable[[Replay], Any]) -> VariationNode:
        """`variation` (one of the game's) shown at step `to` of its line (None: its first move), in the
        game's perspective, on a screen that is the game's if a teacher's or a spectator's, else a
        spectator's; `observer(line)` hears of each change of the line's notes. Refused (nothing changes)
        for a step the line does not have.
        """
        home = parent.session
        line = home.notes_book().line(variation)
        to = variation.step + (1 if variation.steps else 0) if to is None else to
        if type(to) is not int or not 0 <= to <= len(line):
            raise ArgumentError(f"Cannot go to step {quote(to)} of this variation: its steps are 0 to {len(line)}")
        session = Session(replay=line, perspective=home.perspective, mode="replay",
                          screen=home.screen if home.screen in ("teacher", "spectator") else "spectator",
                          speed=home.speed, within=home)
        session.go(to)
        return cls(parent, session, Analysis(session), variation, line, line.observe_notes(observer))

    @property
    def step(self) -> int:
        """The game's step the variation starts from."""
        return self.variation.step

    def root(self) -> GameNode:
        """The game the variation is one of."""
        return self.parent

    def index(self) -> int | None:
        """The variation's index in the record's `variations`, or None once it is gone. Told of a change
        before this node follows it (a rename, a note), the same line (`Replay.line` keeps it).
        """
        book = self.parent.session.notes_book()
        found = _index(self.variation, book.variations)
        if found is None:
            found = next((k for k, v in enumerate(book.variations) if book.line(v) is self.line), None)
        return found

    def noted(self, line: Replay) -> VariationNode:
        """The node once its line's notes changed: its notes on the variation's moves go to the record."""
        notes = [note for note in line.notes if note.step > self.variation.step]
        if notes == list(self.variation.notes):
            return self
        try:
            return replace(self, variation=self.parent.session.notes_book().replace_variation_notes(
                self.variation, notes))
        except VariationError:
            return self

    def close(self) -> GameNode:
        """Stop watching the line and give the game back."""
        self.stop()
        return self.parent


@dataclass(frozen=True, eq=False)
class BranchNode:
    """A branch ("Play from here"): a live game of its own from the game's `step`, with the real cards
    (`world` "real") or a possible world drawn from `seat`'s view ("sampled", from `world_seed`), played
    as `seat` against `opponent` (a bot's class name, or HOTSEAT). Its moves go on at the end of its
    `variation` in `book` (the game's record of seed `seed`); `back` names the way back; `stop` ends
    the recording.
    """

    parent: GameNode
    session: Session
    analysis: Analysis
    step: int
    world: str
    seat: int
    opponent: str
    seed: int | None
    world_seed: int | None
    back: str
    variation: Variation
    book: Replay
    stop: Callable[[], None]

    @classmethod
    def start(cls, parent: GameNode, seat: int, opponent: Any, world: str, seed: Any,
              observer: Callable[[Game], Any]) -> BranchNode:
        """A branch from the step the game shows, as `seat` against `opponent` (a bot, GreedyBot for
        None, or HOTSEAT) with `world`'s cards (a sampled one from `seed`), keeping the game's `allow_peek`
        and `reveal_at_end`, recorded as a new variation with no moves; `observer(game)` hears of each of
        its moves. Refused (nothing changes) where the round is over.
        """
        home, k = parent.session, parent.session.step
        record = home.record()
        game = record.branch(k)
        if game.phase == "over":
            raise ArgumentError(f"Cannot play from step {k}: the round is over there")
        world_seed = None
        if world == "sampled":
            world_seed = W.check_seed(seed)
            game = W.sample(game.view(seat), 1, seed=world_seed)[0]
        peek, reveal = home.allow_peek, home.reveal_at_end
        if opponent == HOTSEAT:
            session, against = Session(game, mode="hotseat", allow_peek=peek, reveal_at_end=reveal), HOTSEAT
        else:
            bots = guard.play_bots(game, opponent, seat)
            session = Session(game, seat, mode="play", bots=bots, allow_peek=peek, reveal_at_end=reveal)
            against = type(bots[1 - seat]).__name__
        book = home.notes_book()
        variation = book.add_variation(k, [], world=None if world_seed is None else World.of(game, seat, world_seed))
        back = "Back to the replay" if home.mode == "replay" else "Back to the game"
        return cls(parent, session, Analysis(session), k, world, seat, against, record.seed, world_seed, back,
                   variation, book, game.observe(observer))

    def root(self) -> GameNode:
        """The game the branch is played from."""
        return self.parent

    def index(self) -> int | None:
        """The branch's variation's index in the record's `variations`, or None once it is gone. Told of
        a move before this node follows it, the variation with the branch's moves so far.
        """
        variations = self.parent.session.notes_book().variations
        found = _index(self.variation, variations)
        if found is None:
            old = self.variation
            moves = tuple(Step.of(e) for e in self.session.whole().history[old.step:])
            found = next((k for k, v in enumerate(variations)
                          if (v.step, v.world, v.steps) == (old.step, old.world, moves)), None)
        return found

    def played(self, game: Game) -> BranchNode:
        """The node once `game` (the branch's) moved: the new moves go on at the end of its variation."""
        if len(game) <= self.variation.end:
            return self
        steps = [Step.of(e) for e in game.history[self.variation.end:]]
        try:
            return replace(self, variation=self.book.extend_variation(self.variation, steps))
        except VariationNotFound:  # removed from Python meanwhile: the branch plays on, unrecorded
            self.stop()
        except VariationError:  # the same moves as another variation so far: recorded once they differ
            pass
        return self

    def close(self) -> GameNode:
        """Stop recording and give the game back: the moves stay in the record, a variation; one with no
        moves goes.
        """
        self.stop()
        if not self.variation.steps:
            try:
                self.book.remove_variation(self.variation)
            except VariationNotFound:
                pass
        return self.parent

    def info(self, seed: bool) -> dict[str, Any]:
        """Where the branch comes from: {"from_step", "world", "seat", "opponent", "back", "text"}, the
        text naming the record's seed if `seed` (the desk decides who may read it).
        """
        of = f" of seed {self.seed}" if seed else ""
        kind = ("the real cards" if self.world == "real"
                else f"a possible world, drawn from {player_name(self.seat)}'s view")
        return {"from_step": self.step, "world": self.world, "seat": self.seat, "opponent": self.opponent,
                "back": self.back, "text": f"Branch from step {self.step}{of}: {kind}"}


Node = GameNode | VariationNode | BranchNode
"""What the desk may show."""


def _index(variation: Variation, variations: tuple[Variation, ...]) -> int | None:
    return variations.index(variation) if variation in variations else None
