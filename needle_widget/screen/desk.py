"""The widget's desk: the session on show, the branch it may have opened ("play from here"),
and each session's hypotheticals (the possible-worlds panel and the game's graph). No Jupyter.

`Desk.session` is the session the widget shows: the one it was made with (`home`), or a
branch: a live game from the home's current step, with the real cards or with the unseen
cards of a possible world, played from one seat against a bot or at one screen
(`branch`, `back`). Each session has its `Analysis`: which panels are open, for which seat
and model, and what is cached. The panels' figures are built by `whatif` from one seat's
views alone; the work they need is done one job at a time (`next_job`): a `Job` is made
from view dicts taken at once, so its computation reads nothing that changes and may run
on another thread (the widget's worker) while the kernel goes on answering requests.

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

In spoiler-free review (`Session.spoilers` False) the session's record ends at the current
step, so the panels are built from the record cut there: the graph covers steps 0 to the
current step, its markers and its needle truth come from the cut record (the truth appears
only once the round is over at the step shown), and nothing cached at a later step (a graph
point, the last worlds panel shown while the next one computes) is sent.

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

import logging
import secrets
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from ..engine.errors import ArgumentError, NeedleError, PerspectiveError
from ..engine.game import Game
from ..engine.seats import PERSPECTIVE_LABELS, Perspective, player_name
from ..inference import worlds as W
from ..records.replay import Replay
from ..records.steps import Step
from ..records.variations import Variation, VariationError, VariationNotFound, World
from . import guard, whatif
from .session import Session, quote

__all__ = ["Analysis", "Desk", "Job", "DEALS", "WORLDS", "CACHE"]

DEALS = ("new", "same")
"""What "New game" may deal: a new deal, or the same deal again."""
WORLDS = ("real", "sampled")
"""The two kinds of branch: the game's own cards, or a possible world drawn from the seat's view."""
CACHE = 64
"""Panels (and play-outs) kept per session; the graph keeps every step of each (seat, model)."""
HOTSEAT = "hotseat"
log = logging.getLogger("needle_widget")


_LABELS: dict[str, str] = {}


def _opponents() -> list[dict[str, str]]:
    """The opponents "Play from here" offers: the built-in bots by name and class, and two people."""
    bots = guard.builtin_bots()
    for name in bots:
        if name not in _LABELS:
            _LABELS[name] = type(bots[name](seed=0)).__name__
    return [{"id": name, "label": _LABELS[name]} for name in bots] + [{"id": HOTSEAT, "label": "Two people (hotseat)"}]


def _models(seat: Perspective) -> list[dict[str, str]]:
    names = ["random"] if seat == "spectator" else list(whatif.MODELS)
    return [{"id": name, "label": whatif.MODELS[name]} for name in names]


def _graph_order(last: int) -> list[int]:
    """Steps 0..last, coarse first (every 8th, then the 4ths between...), so the graph fills in across its width."""
    seen: set[int] = set()
    order: list[int] = []
    for stride in (8, 4, 2, 1):
        for k in [*range(0, last + 1, stride), last]:
            if k not in seen:
                seen.add(k)
                order.append(k)
    return order


@dataclass(frozen=True)
class Job:
    """One piece of the panels' work. `result()` computes it from the inputs it was made with
    (view dicts, copies): nothing it reads changes, so it may run on another thread; a failure
    becomes {"status": "failed", "error"} (a NeedleError's text, else a generic line, logged),
    never an exception. `store(value)` puts the value where its panel reads it: call it where
    the desk lives. `run()` does both, here.
    """

    compute: Callable[[], dict[str, Any]]
    store: Callable[[dict[str, Any]], None]

    def result(self) -> dict[str, Any]:
        """The computed value, or the failure as a value."""
        try:
            return self.compute()
        except NeedleError as error:
            return {"status": "failed", "error": str(error)[:300]}
        except Exception as error:  # a bug must not stop the widget or repeat forever
            log.error("needle_widget: computing a panel failed", exc_info=error)
            return {"status": "failed", "error": f"Something went wrong ({type(error).__name__}); "
                                                 "the details are in the kernel log."}

    def run(self) -> None:
        """Compute and store, on this thread."""
        self.store(self.result())


class Analysis:
    """One session's possible-worlds panel and game graph: what is open, for which seat and model,
    the cache, and the next piece of work.

    The seat follows the perspective shown: a player's panels are its own, the spectator's
    worlds the spectator's (model-free; it has no graph), and the teacher chooses a seat.
    """

    def __init__(self, session: Session) -> None:
        self._session = session
        self.worlds_open = False
        self.graph_open = False
        self.seed = 0
        """The possible worlds' seed ("Resample" adds one)."""
        self._worlds_seat: Perspective = 0
        self._worlds_model = "random"
        self._playout = False
        self._graph_seat = 0
        self._graph_model = "random"
        self._panels: OrderedDict[tuple, dict[str, Any]] = OrderedDict()
        self._playouts: OrderedDict[tuple, dict[str, Any]] = OrderedDict()
        self._last: dict[tuple, dict[str, Any]] = {}
        self._pending: set[tuple] = set()
        self._points: dict[tuple, dict[int, dict[str, Any]]] = {}
        self._markers: tuple[tuple, list[dict[str, Any]]] | None = None

    def fresh(self) -> Analysis:
        """A new Analysis of the same session with the same panels open, for the same seats and
        models, and nothing cached (for a new deal: no figure of the old one may be shown).
        """
        new = Analysis(self._session)
        new.worlds_open, new.graph_open = self.worlds_open, self.graph_open
        new._worlds_seat, new._worlds_model = self._worlds_seat, self._worlds_model
        new._graph_seat, new._graph_model = self._graph_seat, self._graph_model
        return new

    # ---- which seat, which model -----------------------------------------------------------

    def worlds_seats(self, perspective: Perspective) -> list[Perspective]:
        """The seats whose worlds `perspective` may see: its own; the teacher's, any."""
        return [0, 1, "spectator"] if perspective == "teacher" else [perspective]

    def graph_seats(self, perspective: Perspective) -> list[int]:
        """The seats whose graph `perspective` may see: a player's own; the teacher's, either; the spectator's, none."""
        if perspective == "teacher":
            return [0, 1]
        return [perspective] if perspective in (0, 1) else []

    def worlds_seat(self, perspective: Perspective) -> Perspective:
        """The seat whose worlds `perspective` is shown (the teacher's choice, else its own)."""
        return self._worlds_seat if perspective == "teacher" else perspective

    def worlds_model(self, perspective: Perspective) -> str:
        """The opponent model of the worlds shown ("random" for the spectator, which has no opponent)."""
        return "random" if self.worlds_seat(perspective) == "spectator" else self._worlds_model

    def graph_seat(self, perspective: Perspective) -> int | None:
        """The seat whose graph `perspective` is shown, None for the spectator."""
        seats = self.graph_seats(perspective)
        if not seats:
            return None
        return self._graph_seat if perspective == "teacher" else seats[0]

    def offers(self, perspective: Perspective) -> dict[str, Any]:
        """What `perspective` may open: {"worlds": {seats, models, reason}, "graph": {seats, models, reason}}."""
        closed = self._session.closed_reason()
        if closed is not None:
            return {name: {"seats": [], "models": [], "reason": closed} for name in ("worlds", "graph")}
        graph = self.graph_seats(perspective)
        return {
            "worlds": {"seats": self.worlds_seats(perspective),
                       "models": _models(self.worlds_seat(perspective)), "reason": None},
            "graph": {"seats": graph, "models": _models(0) if graph else [],
                      "reason": None if graph else "The graph follows a player: switch to Player 1, Player 2 "
                                                   "or the teacher"},
        }

    # ---- requests (checked first: a refusal changes nothing) -------------------------------------

    def show_worlds(self, perspective: Perspective, open_: Any = True, seat: Any = None, model: Any = None,
                    seed: Any = None) -> None:
        """Open (or close, open_=False) the possible-worlds panel, for `seat` (the teacher's choice)
        with opponent `model` ("random" or "greedy"); `seed` starts the worlds from that seed.
        """
        open_ = _check_bool(open_, "open")
        _not_in_lesson(self._session, open_)
        seats = self.worlds_seats(perspective)
        if seat is not None and (type(seat) not in (int, str) or seat not in seats):
            raise PerspectiveError(f"Cannot show the worlds of {quote(seat)} in the {PERSPECTIVE_LABELS[perspective]}"
                                   f" perspective: allowed {', '.join(map(repr, seats))}")
        if model is not None:
            model = whatif.check_model(model)
            shown = seats[0] if seat is None and perspective != "teacher" else (
                self._worlds_seat if seat is None else seat)
            if model != "random" and shown == "spectator":
                raise ArgumentError(f"The spectator's worlds are drawn at random: model {quote(model)} needs a "
                                    "player's seat (the model reads the opponent's decisions from that seat)")
        if seed is not None:
            seed = W.check_seed(seed)
        if seat is not None and perspective == "teacher":
            self._worlds_seat = seat
        if model is not None:
            self._worlds_model = model
        if seed is not None:
            self.seed = seed
        self.worlds_open = open_
        if not open_:
            self._playout = False

    def resample(self) -> None:
        """Draw other worlds (the seed goes up by one)."""
        self._require_worlds("Resample")
        self.seed += 1

    def play_out(self) -> None:
        """Play the worlds out with bots (`whatif.playout`), at this step and the next ones while the panel is open."""
        self._require_worlds("Play them out")
        self._playout = True

    def show_graph(self, perspective: Perspective, open_: Any = True, seat: Any = None, model: Any = None) -> None:
        """Open (or close) the game's graph for `seat` (the teacher's choice) and opponent `model`."""
        open_ = _check_bool(open_, "open")
        _not_in_lesson(self._session, open_)
        seats = self.graph_seats(perspective)
        if open_ and not seats:
            raise PerspectiveError(self.offers(perspective)["graph"]["reason"])
        if seat is not None and (type(seat) is not int or seat not in seats):
            raise PerspectiveError(f"Cannot draw the graph of {quote(seat)} in the {PERSPECTIVE_LABELS[perspective]}"
                                   f" perspective: allowed {', '.join(map(repr, seats)) or 'none'}")
        if model is not None:
            model = whatif.check_model(model)
        if seat is not None and perspective == "teacher":
            self._graph_seat = seat
        if model is not None:
            self._graph_model = model
        self.graph_open = open_

    def _require_worlds(self, what: str) -> None:
        if not self.worlds_open:
            raise ArgumentError(f"{what}: open the possible worlds first")

    # ---- what the screen receives ------------------------------------------------------------------

    def _worlds_key(self, perspective: Perspective) -> tuple:
        return (self._session.step, self.worlds_seat(perspective), self.worlds_model(perspective), self.seed,
                perspective == "teacher")

    def worlds_state(self, perspective: Perspective) -> dict[str, Any] | None:
        """The `worlds` trait: None (closed), or the panel with its status and play-out."""
        if not self.worlds_open:
            return None
        key = self._worlds_key(perspective)
        step, seat, model, seed, _teacher = key
        panel = self._panels.get(key)
        if panel is not None:
            out = {**panel, "status": panel.get("status", "ready")}
        else:
            last = self._last.get((key[1], key[2], key[4]))
            if last is not None and last.get("step", 0) > self._session.steps:
                last = None  # spoiler-free review went back: a panel of a later step would tell the future
            out = {**(last or {"seat": seat, "step": step, "model": model, "model_label": whatif.MODELS[model],
                               "seed": seed, "n": whatif.WORLDS_SHOWN, "hidden": [], "rows": [],
                               "same": {"hands": {}, "needles": {}, "pile": []}}), "status": "computing"}
        playout = None
        if self._playout:
            done = self._playouts.get(key)
            playout = {**done, "status": done.get("status", "ready")} if done else {"status": "computing", "step": step}
        out["playout"] = playout
        return out

    def graph_state(self, perspective: Perspective) -> dict[str, Any] | None:
        """The `graph` trait: None (closed, or the spectator's), or the points computed so far."""
        seat = self.graph_seat(perspective)
        if not self.graph_open or seat is None:
            return None
        key, order = self._graph_key(seat), _graph_order(self._session.steps)
        points = {k: p for k, p in self._points.get(key, {}).items() if k <= self._session.steps}
        failed = next((p for p in points.values() if p.get("status") == "failed"), None)
        done = sum(1 for k in order if k in points)
        return {
            "status": "failed" if failed else ("ready" if done == len(order) else "computing"),
            "error": failed["error"] if failed else None,
            "seat": seat, "model": key[1], "model_label": whatif.MODELS[key[1]], "n": whatif.GRAPH_WORLDS,
            "done": done, "total": len(order), "steps": self._session.steps, "needle": key[2],
            "points": [points[k] for k in sorted(points) if points[k].get("status") != "failed"],
            "markers": self._graph_markers(seat),
        }

    def _graph_key(self, seat: int) -> tuple:
        return (seat, self._graph_model, whatif.graph_truth(self._session.whole().view(seat)))

    def _graph_markers(self, seat: int) -> list[dict[str, Any]]:
        whole = self._session.whole()
        key = (id(whole), len(whole), seat)
        if self._markers is None or self._markers[0] != key:
            self._markers = (key, whatif.graph_markers(whole.view(seat)))
        return self._markers[1]

    # ---- work ----------------------------------------------------------------------------------------

    def next_job(self, perspective: Perspective) -> Job | None:
        """The next piece of work the open panels need (None when all is done, or when what is
        left is in hand): a panel, a play-out, or one step of the graph. It stays in hand until
        its value is stored.
        """
        found = self._next(perspective)
        return None if found is None else found()

    def has_work(self, perspective: Perspective) -> bool:
        """Whether `next_job` would give a job (without taking it)."""
        return self._next(perspective) is not None

    def _next(self, perspective: Perspective) -> Callable[[], Job] | None:
        if self.worlds_open:
            key = self._worlds_key(perspective)
            if key not in self._panels and ("panel", key) not in self._pending:
                return lambda: self._job(("panel", key), self._panel(key), self._panels, key, remember=True)
            if self._playout and key not in self._playouts and ("playout", key) not in self._pending:
                return lambda: self._job(("playout", key), self._play(key), self._playouts, key)
        seat = self.graph_seat(perspective)
        if self.graph_open and seat is not None:
            key = self._graph_key(seat)
            points = self._points.setdefault(key, {})
            missing = next((k for k in _graph_order(self._session.steps)
                            if k not in points and ("point", key, k) not in self._pending), None)
            if missing is not None:
                return lambda: self._job(("point", key, missing), self._point(key, missing), points, missing,
                                         bounded=False)
        return None

    def _panel(self, key: tuple) -> Callable[[], dict[str, Any]]:
        step, seat, model, seed, teacher = key
        game = self._session.game_at(step)
        view, real = game.view(seat), game.copy() if teacher else None
        return lambda: whatif.worlds_panel(view, seed=seed, model=model, real=real)

    def _play(self, key: tuple) -> Callable[[], dict[str, Any]]:
        step, seat, model, seed, _teacher = key
        view = self._session.game_at(step).view(seat)
        return lambda: {**whatif.playout(view, seed=seed, model=model), "step": step}

    def _point(self, key: tuple, k: int) -> Callable[[], dict[str, Any]]:
        seat, model, needle = key
        view = self._session.game_at(k).view(seat)
        n = whatif.GRAPH_WORLDS
        return lambda: whatif.graph_point(view, step=k, seed=k, model=model, needle=needle, n=n)

    def _job(self, name: tuple, compute: Callable[[], dict[str, Any]], cache: Any, key: Any, *,
             remember: bool = False, bounded: bool = True) -> Job:
        self._pending.add(name)

        def store(value: dict[str, Any]) -> None:
            self._pending.discard(name)
            cache[key] = value
            if bounded:
                while len(cache) > CACHE:
                    cache.popitem(last=False)
            if remember and value.get("status") != "failed":
                self._last[(key[1], key[2], key[4])] = value

        return Job(compute, store)


class Desk:
    """The session on show (`session`): the widget's own (`home`) or a branch played from it."""

    def __init__(self, session: Session) -> None:
        self.home = session
        self.session = session
        self._branch: dict[str, Any] | None = None
        self._line: dict[str, Any] | None = None
        self._analyses: dict[int, Analysis] = {id(session): Analysis(session)}
        self._made = 0
        self._workers: list[Any] = []
        first = session.whole() if session.live else None
        self._deals: list[int] = [] if first is None else [first.seed]

    @property
    def branches_made(self) -> int:
        """How many branches this desk has made (a new branch's bot and world are seeded with it)."""
        return self._made

    @property
    def analysis(self) -> Analysis:
        """The shown session's panels."""
        return self._analyses[id(self.session)]

    def real_perspective(self) -> Perspective:
        """The one place that decides the perspective this screen is entitled to for the real game (the home's
        record: the main line, its variations and their moves, the seed): the perspective shown at home, or in
        a variation opened from the move list (shown within the home's entitlement: `Session(within=)`). In a
        branch ("Play from here") it is the home's, whatever the branch shows: a hotseat cover's reveal, or the
        branch's round over, opens a seat of the branch's own game, never one of the real game.
        """
        return self.home.perspective if self._branch is not None else self.session.perspective

    # ---- play from here ----------------------------------------------------------------------------

    def branch_reason(self, game: Game | None = None) -> str | None:
        """Why "Play from here" is closed now (public words), or None."""
        s = self.session
        closed = s.closed_reason()
        if closed is not None:
            return closed
        if self._branch is not None:
            return f"This is a branch: {self._branch['back'].lower()} to branch again"
        if self._line is not None:
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
        if s.lesson is not None:
            return f"Not during {s.lesson}"
        if not s.live:
            return "New game is for a live game, not a replay"
        if self._branch is not None:
            return f"This is a branch: {self._branch['back'].lower()} for a new game"
        if self._line is not None:
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
        self._analyses[id(self.home)] = self.analysis.fresh()

    def branch(self, seat: Any = 0, opponent: Any = None, world: Any = "real", seed: Any = None) -> None:
        """Python: play on from the shown step in a new live game, as `seat` against `opponent` (a bot,
        GreedyBot for None, or "hotseat"), with the real cards (`world="real"`) or a possible world
        drawn from `seat`'s view (`"sampled"`, from `seed`). The branch keeps the widget's
        `allow_peek` and `reveal_at_end`; `back()` returns to where the widget was.
        """
        if self._branch is not None:
            raise ArgumentError(f"Already in a branch from step {self._branch['from_step']}: back() first")
        if self._line is not None:
            raise ArgumentError("This is a variation: go back to the game to play from one of its steps")
        if type(seat) is not int or seat not in (0, 1):
            raise ArgumentError(f"seat must be 0 (Player 1) or 1 (Player 2), not {quote(seat)}")
        if world not in WORLDS:
            raise ArgumentError(f"world must be 'real' or 'sampled', not {quote(world)}")
        home, k = self.session, self.session.step
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
            new, against = Session(game, mode="hotseat", allow_peek=peek, reveal_at_end=reveal), HOTSEAT
        else:
            bots = guard.play_bots(game, opponent, seat)
            new = Session(game, seat, mode="play", bots=bots, allow_peek=peek, reveal_at_end=reveal)
            against = type(bots[1 - seat]).__name__
        book = home.notes_book()
        variation = book.add_variation(k, [], world=None if world_seed is None else World.of(game, seat, world_seed))
        if self._line is not None:
            self._close_line()
        if home.playing:
            home.set_playing(False)
        self._made += 1
        self._branch = {"from_step": k, "world": world, "seat": seat, "opponent": against, "seed": record.seed,
                        "world_seed": world_seed, "back": "Back to the replay" if home.mode == "replay"
                        else "Back to the game", "variation": variation, "book": book,
                        "stop": game.observe(self._recorded)}
        self.session = new
        self._analyses[id(new)] = Analysis(new)

    def back(self) -> None:
        """Leave the branch (its moves stay in the record, a variation; one with no moves goes) or the
        variation shown: the widget shows its own game or replay again, where it was.
        """
        if self._line is not None:
            self._close_line()
            return
        if self._branch is None:
            raise ArgumentError("Not in a branch: there is nothing to go back to")
        b = self._branch
        b["stop"]()
        if not b["variation"].steps:
            try:
                b["book"].remove_variation(b["variation"])
            except VariationNotFound:
                pass
        del self._analyses[id(self.session)]
        self.session, self._branch = self.home, None

    def _recorded(self, game: Game) -> None:
        """A move in the branch: it goes on at the end of the branch's variation."""
        b = self._branch
        if b is None or len(game) <= b["variation"].end:
            return
        steps = [Step.of(e) for e in game.history[b["variation"].end:]]
        try:
            b["variation"] = b["book"].extend_variation(b["variation"], steps)
        except VariationNotFound:  # removed from Python meanwhile: the branch plays on, unrecorded
            b["stop"]()
        except VariationError:  # the same moves as another variation so far: recorded once they differ
            pass

    # ---- variations ------------------------------------------------------------------------------

    def lines(self, perspective: Perspective) -> list[tuple[int, Variation]]:
        """The variations `perspective` may open here, with their index in the record's `variations`: the
        record as shown (`Session.record`: in spoiler-free review only the sampled worlds up to the step);
        none during a lesson (a quiz, practice), which shows one line. A screen lists those of its
        `real_perspective()`.
        """
        home = self.home
        if home.lesson is not None:
            return []
        book = home.notes_book()
        shown = set(home.record().variations_for(perspective)) if book.variations else set()
        return [(k, v) for k, v in enumerate(book.variations) if v in shown]

    def line_reason(self) -> str | None:
        """Why no variation may be opened now (public words), or None."""
        if self.home.lesson is not None:
            return f"Not during {self.home.lesson}"
        if self._branch is not None:
            return f"This is a branch: {self._branch['back'].lower()} to open a variation"
        return None

    @property
    def line_index(self) -> int | None:
        """The index (in the record's `variations`) of the variation shown: opened, or the branch's; else None."""
        current = self._line or self._branch
        if current is None:
            return None
        book = self.home.notes_book()
        variations = book.variations
        if current["variation"] in variations:
            return variations.index(current["variation"])
        # Told of a change before the desk's own copy follows it (a rename, a note, the branch's next move):
        # the same line (`Replay.line` keeps it for a rename or a note), or the branch's moves so far.
        if self._line is not None:
            return next((k for k, v in enumerate(variations) if book.line(v) is current["line"]), None)
        old, game = current["variation"], self.session.whole()
        moves = tuple(Step.of(e) for e in game.history[old.step:])
        return next((k for k, v in enumerate(variations)
                     if (v.step, v.world, v.steps) == (old.step, old.world, moves)), None)

    def open_line(self, index: Any, to: Any = None) -> None:
        """Show the variation `index` (of the record's `variations`, one this screen's perspective may open)
        at step `to` of its line (default: its first move), as a replay of its own; `back()` (or `main`)
        returns to the game. Refused (nothing changes) in a branch, a lesson, or for a variation not open here.
        """
        reason = self.line_reason()
        if reason is not None:
            raise ArgumentError(f"Cannot open a variation: {reason[0].lower()}{reason[1:]}")
        home = self.home
        shown = dict(self.lines(self.real_perspective()))
        if type(index) is not int or index not in shown:
            raise VariationNotFound(f"There is no variation {quote(index)} on this screen"
                                    + (f": the variations shown are {', '.join(map(str, sorted(shown)))}"
                                       if shown else ""))
        variation = shown[index]
        line = home.notes_book().line(variation)
        to = variation.step + (1 if variation.steps else 0) if to is None else to
        if type(to) is not int or not 0 <= to <= len(line):
            raise ArgumentError(f"Cannot go to step {quote(to)} of this variation: its steps are 0 to {len(line)}")
        if self._line is not None:
            self._close_line()
        new = Session(replay=line, perspective=self.session.perspective, mode="replay",
                      screen=home.screen if home.screen in ("teacher", "spectator") else "spectator",
                      speed=home.speed, within=home)
        new.go(to)
        if home.playing:
            home.set_playing(False)
        self._line = {"variation": variation, "line": line, "stop": line.observe_notes(self._line_notes)}
        self.session = new
        self._analyses[id(new)] = Analysis(new)

    def main(self, to: Any) -> None:
        """Leave the variation shown (if any) for the game, at step `to` (as the browser may step there)."""
        if self._branch is not None:
            raise ArgumentError(f"Cannot go to the game's step {quote(to)}: this is a branch: "
                                f"{self._branch['back'].lower()} first")
        perspective = self.session.perspective
        if self._line is not None:
            self.home.request_step(to)  # checked first: a refusal leaves the variation shown
            self._close_line()
            self.home.perspective = perspective if perspective in self.home.entitled() else self.home.perspective
            return
        self.home.request_step(to)

    def _close_line(self) -> None:
        line = self._line
        if line is None:
            return
        line["stop"]()
        self._analyses.pop(id(self.session), None)
        self.session, self._line = self.home, None

    def _line_notes(self, line: Replay) -> None:
        """A note changed in the variation shown: its notes on the variation's moves go to the record."""
        current = self._line
        if current is None:
            return
        variation = current["variation"]
        notes = [note for note in line.notes if note.step > variation.step]
        if notes != list(variation.notes):
            try:
                current["variation"] = self.home.notes_book().replace_variation_notes(variation, notes)
            except VariationError:
                pass

    def lines_editable(self, perspective: Perspective) -> str | None:
        """None if the browser may promote, remove or rename variations now; else why not (public words)."""
        if self.home.lesson is not None:
            return f"Variations cannot be changed during {self.home.lesson}"
        if perspective != "teacher":
            return "Switch to the teacher's view to change variations"
        if self._branch is not None:
            return f"This is a branch: {self._branch['back'].lower()} to change variations"
        return None

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
        variation = shown[index]
        if how == "promote":
            book.promote(variation)
        elif how == "demote":
            book.demote(variation)
        elif how == "rename":
            renamed = book.rename_variation(variation, None if name in (None, "") else name)
            if self._line is not None and self._line["variation"] == variation:
                self._line["variation"] = renamed
        elif how == "remove":
            if self._line is not None and self._line["variation"] == variation:
                self._close_line()
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
        b = self._branch
        if b is None:
            return None
        home = self.home
        teacher = (home.screen == "teacher" and home.spoilers
                   and self.session.perspective == self.real_perspective() == "teacher")
        of = f" of seed {b['seed']}" if teacher else ""
        kind = ("the real cards" if b["world"] == "real"
                else f"a possible world, drawn from {player_name(b['seat'])}'s view")
        return {"from_step": b["from_step"], "world": b["world"], "seat": b["seat"], "opponent": b["opponent"],
                "back": b["back"], "text": f"Branch from step {b['from_step']}{of}: {kind}"}

    def add_worker(self, worker: Any) -> None:
        """A feature with work of its own (the review): `worker.next_job(perspective)` gives a `Job` or None,
        `worker.has_work(perspective)` says whether it would. Its jobs come after the panels' own.
        """
        self._workers.append(worker)

    def next_job(self) -> Job | None:
        """The next piece of work of the shown session's panels (see `Analysis.next_job`), then of the
        workers (`add_worker`), or None.
        """
        perspective = self.session.perspective
        job = self.analysis.next_job(perspective)
        for worker in self._workers:
            if job is not None:
                break
            job = worker.next_job(perspective)
        return job

    def has_work(self) -> bool:
        """Whether the shown session's panels (or a worker) have work left that is not in hand."""
        perspective = self.session.perspective
        return self.analysis.has_work(perspective) or any(w.has_work(perspective) for w in self._workers)


def _not_in_lesson(session: Session, open_: bool) -> None:
    closed = session.closed_reason()
    if open_ and closed is not None:
        raise ArgumentError(closed)


def _check_bool(value: Any, what: str) -> bool:
    if not isinstance(value, bool):
        raise ArgumentError(f"{what} must be true or false, not {quote(value)}")
    return value
