"""The widget's desk: the session on show, the branch it may have opened ("play from here") or the
variation opened from the move list, and each session's hypotheticals (the possible-worlds panel and
the game's graph: `analysis.Analysis`). No Jupyter.

`Desk.session` is the session the widget shows: the one it was made with (`home`), or a
branch: a live game from the home's current step, with the real cards or with the unseen
cards of a possible world, played from one seat against a bot or at one screen
(`branch`, `back`), or a variation of the home's record opened for reading (`open_line`). They
are the nodes of a small tree (`nodes`: the game at the root, a branch or a variation below it);
the desk's cursor (`node`) is the one shown. Each session has its `Analysis`: which panels are
open, for which seat and model, and what is cached. The work they need is done one job at a time
(`next_job`): the shown session's panels first, then the workers that features add (`add_worker`);
a `Job` may run on another thread (the widget's worker) while the kernel goes on answering requests.

Once a live round is over, `new_game` deals again at the home session (same rules, mode,
screen and bots): a new deal from fresh entropy (`secrets`, never derived from an earlier
seed), or the same deal again (the same cards in the same order, the same seed); the seeds
are recorded in `deals` and never sent to a screen. A seed reaches no screen but a
teacher's, and there only in the teacher's perspective (`branch_info`).

A branch is a game of its own: the perspective it shows (a hotseat cover's reveal passes the screen to the
seat to move; its round over opens more) is a seat of that game only. What the screen shows of the real game
beside it (the main line, the variations and their moves, the seed) is for the perspective the screen is
entitled to at home, decided in one place: `real_perspective()`. A variation opened from the move list is
shown within the home's entitlement (`Session(within=home)`).

What a screen may start is in `offers()`: a branch only from a finished round (or a replay),
only for a seat the screen may see, and with the real cards only if the screen may see every
perspective (and not in spoiler-free review: playing on with the real cards would draw the
recorded pile); a player's panels are its own seat's.

>>> from needle_widget import examples
>>> from needle_widget.screen.session import Session
>>> desk = Desk(Session(replay=examples.load("found_early"), perspective="teacher"))
>>> desk.session.go(5)
>>> desk.branch(seat=0, opponent="hotseat", world="real")
>>> desk.session.mode, desk.session.steps, desk.branch_info()["text"]
('hotseat', 5, 'Branch from step 5: the real cards')
>>> desk.back()
>>> desk.session.mode, desk.session.step
('replay', 5)
"""

from __future__ import annotations

import secrets
from dataclasses import replace
from typing import Any

from ..engine.errors import ArgumentError, PerspectiveError
from ..engine.game import Game
from ..engine.seats import Perspective
from ..records.replay import Replay
from ..records.variations import Variation, VariationNotFound
from . import guard
from .analysis import CACHE, Analysis, Job, Worker
from .nodes import HOTSEAT, WORLDS, BranchNode, GameNode, Node, VariationNode
from .session import Session, quote

__all__ = ["Analysis", "Desk", "Job", "DEALS", "WORLDS", "CACHE"]

DEALS = ("new", "same")
"""What "New game" may deal: a new deal, or the same deal again."""
_LABELS: dict[str, str] = {}


def _opponents() -> list[dict[str, str]]:
    """The opponents "Play from here" offers: the built-in bots by name and class, and two people."""
    bots = guard.builtin_bots()
    for name in bots:
        if name not in _LABELS:
            _LABELS[name] = type(bots[name](seed=0)).__name__
    return [{"id": name, "label": _LABELS[name]} for name in bots] + [{"id": HOTSEAT, "label": "Two people (hotseat)"}]


class Desk:
    """The session on show (`session`): the widget's own (`home`) or a branch played from it."""

    def __init__(self, session: Session) -> None:
        self._node: Node = GameNode.of(session)
        self._made = 0
        self._workers: list[Worker] = []
        first = session.whole() if session.live else None
        self._deals: list[int] = [] if first is None else [first.seed]

    @property
    def node(self) -> Node:
        """The node shown: the game (`nodes.GameNode`), a variation opened for reading or a branch."""
        return self._node

    @property
    def session(self) -> Session:
        """The session on show: the home's, a branch's, or a variation's opened from the move list."""
        return self._node.session

    @property
    def home(self) -> Session:
        """The session the desk was made with: the widget's own game or replay."""
        return self._node.root().session

    @property
    def branches_made(self) -> int:
        """How many branches this desk has made (a new branch's bot and world are seeded with it)."""
        return self._made

    @property
    def analysis(self) -> Analysis:
        """The shown session's panels."""
        return self._node.analysis

    def real_perspective(self) -> Perspective:
        """The one place that decides the perspective this screen is entitled to for the real game (the home's
        record: the main line, its variations and their moves, the seed): the perspective shown at home, or in
        a variation opened from the move list (shown within the home's entitlement: `Session(within=)`). In a
        branch ("Play from here") it is the home's, whatever the branch shows: a hotseat cover's reveal, or the
        branch's round over, opens a seat of the branch's own game, never one of the real game.
        """
        return self.home.perspective if isinstance(self._node, BranchNode) else self.session.perspective

    def _in_branch(self, to: str) -> str | None:
        """Why a branch refuses what the game allows ("This is a branch: back to the game `to`"), or None."""
        node = self._node
        return f"This is a branch: {node.back.lower()} {to}" if isinstance(node, BranchNode) else None

    # ---- play from here ----------------------------------------------------------------------------

    def branch_reason(self, game: Game | None = None) -> str | None:
        """Why "Play from here" is closed now (public words), or None."""
        s = self.session
        closed = s.closed_reason()
        if closed is not None:
            return closed
        in_branch = self._in_branch("to branch again")
        if in_branch is not None:
            return in_branch
        if isinstance(self._node, VariationNode):
            return "This is a variation: go back to the game to play from one of its steps"
        if s.live and s.whole().phase != "over":
            return "Play from here opens once the round is over"
        if (game or s.game_at(s.step)).phase == "over":
            return "The round is over at this step: go back a step to play from there"
        if not any(p in s.entitled() for p in (0, 1)):
            return "This screen may not play a seat"
        return None

    def branch_offer(self, game: Game | None = None) -> dict[str, Any]:
        """{"seats", "worlds", "opponents": [{id, label}], "reason"}: what "Play from here" may start."""
        allowed = self.session.entitled()
        return {
            "seats": [p for p in (0, 1) if p in allowed],
            "worlds": list(WORLDS) if "teacher" in allowed and self.session.spoilers else ["sampled"],
            "opponents": _opponents(),
            "reason": self.branch_reason(game),
        }

    # ---- a new game -----------------------------------------------------------------------------

    def new_game_reason(self) -> str | None:
        """Why "New game" is closed now (public words: modes and the round, never a card or a seed), or None."""
        s = self.session
        if s.drill is not None:
            return f"Not during {s.drill}"
        if not s.live:
            return "New game is for a live game, not a replay"
        in_branch = self._in_branch("for a new game")
        if in_branch is not None:
            return in_branch
        if isinstance(self._node, VariationNode):
            return "This is a variation: go back to the game for a new game"
        if s.whole().phase != "over":
            return "A new game starts once the round is over"
        return None

    @property
    def deals(self) -> tuple[int, ...]:
        """For Python only (a seed is hidden information): the seed of each deal played at this
        desk, the first game's first (empty for a replay).
        """
        return tuple(self._deals)

    def new_game(self, seed: int | None = None, *, same_deal: bool = False) -> None:
        """Python: once the round is over, deal a new game with the same rules, mode, screen and
        bots: from `seed`, or (None) from a fresh 63-bit seed (`secrets`: never derived from an
        earlier one, so no screen that saw a seed can know the next deal); `same_deal=True` deals
        the round just played again (the same cards in the same order and the same seed, so the
        same draws follow the same moves). Every seed is recorded in `deals`. Refused (nothing
        changes) before the round is over, in a replay, a quiz or a branch. The old Game is left
        as it was; the session (and a widget's `game`) plays the new one, and the panels start afresh.
        """
        reason = self.new_game_reason()
        if reason is not None:
            raise ArgumentError(f"Cannot start a new game: {reason[0].lower()}{reason[1:]}")
        if not isinstance(same_deal, bool):
            raise ArgumentError(f"same_deal must be True or False, not {quote(same_deal)}")
        if same_deal and seed is not None:
            raise ArgumentError("give seed= or same_deal=True, not both: the same deal keeps its seed")
        old = self.home.whole()
        if same_deal:
            game = old.dealt_again()
        else:
            game = Game(rules=old.rules, seed=secrets.randbits(63) if seed is None else seed)
        self.home.new_game(game)
        self._deals.append(game.seed)
        self._node = replace(self._node.root(), analysis=self.analysis.fresh())

    def branch(self, seat: Any = 0, opponent: Any = None, world: Any = "real", seed: Any = None) -> None:
        """Python: play on from the shown step in a new live game, as `seat` against `opponent` (a bot,
        GreedyBot for None, or "hotseat"), with the real cards (`world="real"`) or a possible world
        drawn from `seat`'s view (`"sampled"`, from `seed`). The branch keeps the widget's
        `allow_peek` and `reveal_at_end`; `back()` returns to where the widget was.
        """
        node = self._node
        if isinstance(node, BranchNode):
            raise ArgumentError(f"Already in a branch from step {node.step}: back() first")
        if isinstance(node, VariationNode):
            raise ArgumentError("This is a variation: go back to the game to play from one of its steps")
        if type(seat) is not int or seat not in (0, 1):
            raise ArgumentError(f"seat must be 0 (Player 1) or 1 (Player 2), not {quote(seat)}")
        if world not in WORLDS:
            raise ArgumentError(f"world must be 'real' or 'sampled', not {quote(world)}")
        branch = BranchNode.start(node, seat, opponent, world, seed, self._recorded)
        if self.home.playing:
            self.home.set_playing(False)
        self._made += 1
        self._node = branch

    def back(self) -> None:
        """Leave the branch (its moves stay in the record, a variation; one with no moves goes) or the
        variation shown: the widget shows its own game or replay again, where it was.
        """
        node = self._node
        if isinstance(node, GameNode):
            raise ArgumentError("Not in a branch: there is nothing to go back to")
        self._node = node.close()

    def _recorded(self, game: Game) -> None:
        """A move in the branch: it goes on at the end of the branch's variation."""
        node = self._node
        if isinstance(node, BranchNode):
            self._node = node.played(game)

    # ---- variations ------------------------------------------------------------------------------

    def lines(self, perspective: Perspective) -> list[tuple[int, Variation]]:
        """The variations `perspective` may open here, with their index in the record's `variations`: the
        record as shown (`Session.record`: in spoiler-free review only the sampled worlds up to the step);
        none during a drill (a quiz, practice), which shows one line. A screen lists those of its
        `real_perspective()`.
        """
        home = self.home
        if home.drill is not None:
            return []
        book = home.notes_book()
        shown = set(home.record().variations_for(perspective)) if book.variations else set()
        return [(k, v) for k, v in enumerate(book.variations) if v in shown]

    def line_reason(self) -> str | None:
        """Why no variation may be opened now (public words), or None."""
        if self.home.drill is not None:
            return f"Not during {self.home.drill}"
        return self._in_branch("to open a variation")

    @property
    def line_index(self) -> int | None:
        """The index (in the record's `variations`) of the variation shown: opened, or the branch's; else None."""
        return self._node.index()

    def open_line(self, index: Any, to: Any = None) -> None:
        """Show the variation `index` (of the record's `variations`, one this screen's perspective may open)
        at step `to` of its line (default: its first move), as a replay of its own; `back()` (or `main`)
        returns to the game. Refused (nothing changes) in a branch, a drill, or for a variation not open here.
        """
        reason = self.line_reason()
        if reason is not None:
            raise ArgumentError(f"Cannot open a variation: {reason[0].lower()}{reason[1:]}")
        shown = dict(self.lines(self.real_perspective()))
        if type(index) is not int or index not in shown:
            raise VariationNotFound(f"There is no variation {quote(index)} on this screen"
                                    + (f": the variations shown are {', '.join(map(str, sorted(shown)))}"
                                       if shown else ""))
        node = self._node
        opened = VariationNode.open(node.root(), shown[index], to, self._variation_notes)
        if isinstance(node, VariationNode):
            node.close()
        if self.home.playing:
            self.home.set_playing(False)
        self._node = opened

    def main(self, to: Any) -> None:
        """Leave the variation shown (if any) for the game, at step `to` (as the browser may step there)."""
        node = self._node
        if isinstance(node, BranchNode):
            raise ArgumentError(f"Cannot go to the game's step {quote(to)}: this is a branch: "
                                f"{node.back.lower()} first")
        perspective = self.session.perspective
        self.home.request_step(to)  # checked first: a refusal leaves the variation shown
        if isinstance(node, VariationNode):
            self._node = node.close()
            self.home.perspective = perspective if perspective in self.home.entitled() else self.home.perspective

    def _variation_notes(self, line: Replay) -> None:
        """A note changed in the variation shown: its notes on the variation's moves go to the record."""
        node = self._node
        if isinstance(node, VariationNode):
            self._node = node.noted(line)

    def lines_editable(self, perspective: Perspective) -> str | None:
        """None if the browser may promote, remove or rename variations now; else why not (public words)."""
        if self.home.drill is not None:
            return f"Variations cannot be changed during {self.home.drill}"
        if perspective != "teacher":
            return "Switch to the teacher's view to change variations"
        return self._in_branch("to change variations")

    def edit_line(self, index: Any, how: str, name: Any = None) -> None:
        """Promote ("promote"), demote ("demote"), remove ("remove") or rename ("rename", `name`: None for
        the default) a variation this screen shows. Refused (nothing changes) where `lines_editable` says.
        """
        perspective = self.real_perspective()
        reason = self.lines_editable(perspective)
        if reason is not None:
            raise PerspectiveError(f"Cannot {how} a variation: {reason[0].lower()}{reason[1:]}")
        shown = dict(self.lines(perspective))
        if type(index) is not int or index not in shown:
            raise VariationNotFound(f"There is no variation {quote(index)} on this screen")
        book = self.home.notes_book()
        variation, node = shown[index], self._node
        reading = node if isinstance(node, VariationNode) and node.variation == variation else None
        if how == "promote":
            book.promote(variation)
        elif how == "demote":
            book.demote(variation)
        elif how == "rename":
            renamed = book.rename_variation(variation, None if name in (None, "") else name)
            if reading is not None:
                self._node = replace(reading, variation=renamed)
        elif how == "remove":
            if reading is not None:
                self._node = reading.close()
            book.remove_variation(variation)
        else:
            raise ArgumentError(f"Cannot {quote(how)} a variation: promote, demote, rename or remove it")

    def branch_info(self) -> dict[str, Any] | None:
        """The `branch_info` trait: None, or where the branch comes from. The replay's seed is named only
        on a teacher's screen (`Session.screen`, fixed by Python) showing the teacher's perspective, of the
        branch and of the real game (`real_perspective`), and not in spoiler-free review (a seed tells the
        draws to come): a player's screen that may open the teacher's perspective after the round, or the
        teacher's perspective of a branch's own game, never sees it.
        """
        node = self._node
        if not isinstance(node, BranchNode):
            return None
        home = self.home
        teacher = (home.screen == "teacher" and home.spoilers
                   and self.session.perspective == self.real_perspective() == "teacher")
        return node.info(seed=teacher)

    # ---- work ------------------------------------------------------------------------------------

    def add_worker(self, worker: Worker) -> None:
        """A feature with work of its own (the review): `worker.next_job(perspective)` gives a `Job` or None,
        `worker.has_work(perspective)` says whether it would. Its jobs come after the panels' own.
        """
        self._workers.append(worker)

    def _working(self) -> list[Worker]:
        """Who has work for this screen, in order: the shown session's panels, then the added workers."""
        return [self.analysis, *self._workers]

    def next_job(self) -> Job | None:
        """The next piece of work of the shown session's panels (see `Analysis.next_job`), then of the
        workers (`add_worker`), or None.
        """
        perspective = self.session.perspective
        return next((job for worker in self._working() if (job := worker.next_job(perspective)) is not None), None)

    def has_work(self) -> bool:
        """Whether the shown session's panels (or a worker) have work left that is not in hand."""
        perspective = self.session.perspective
        return any(worker.has_work(perspective) for worker in self._working())
