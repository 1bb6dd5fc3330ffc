"""One session's hypotheticals: the possible-worlds panel and the game's graph (`Analysis`), and the
pieces of work they need (`Job`). No Jupyter.

Each session on show has its `Analysis`: which panels are open, for which seat and model, and what is
cached. The panels' figures are built by `whatif` from one seat's views alone; the work they need is
done one job at a time (`Analysis.next_job`, as every `Worker` of the desk does): a `Job` is made from
view dicts taken at once, so its computation reads nothing that changes and may run on another thread
(the widget's worker) while the kernel goes on answering requests.

In spoiler-free review (`Session.spoilers` False) the session's record ends at the current
step, so the panels are built from the record cut there: the graph covers steps 0 to the
current step, its markers and its needle truth come from the cut record (the truth appears
only once the round is over at the step shown), and nothing cached at a later step (a graph
point, the last worlds panel shown while the next one computes) is sent.

>>> from needle_widget import examples
>>> from needle_widget.screen.session import Session
>>> session = Session(replay=examples.load("found_early"), perspective=0)
>>> session.go(4)
>>> analysis = Analysis(session)
>>> analysis.show_worlds(0)
>>> while (job := analysis.next_job(0)) is not None:
...     job.run()
>>> panel = analysis.worlds_state(0)
>>> panel["status"], panel["step"], panel["seat"]
('ready', 4, 0)
"""

from __future__ import annotations

import logging
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Protocol

from ..engine.errors import ArgumentError, NeedleError, PerspectiveError
from ..engine.seats import PERSPECTIVE_LABELS, Perspective
from ..inference import worlds as W
from . import whatif
from .session import Session, quote

__all__ = ["Analysis", "CACHE", "Job", "Worker"]

CACHE = 64
"""Panels (and play-outs) kept per session; the graph keeps every step of each (seat, model)."""
log = logging.getLogger("needle_widget")


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


class Worker(Protocol):
    """Whatever has work for the desk's worker: the shown session's `Analysis`, or a feature's (the review)."""

    def next_job(self, perspective: Perspective) -> Job | None:
        """The next piece of work for `perspective`'s screen, or None."""

    def has_work(self, perspective: Perspective) -> bool:
        """Whether `next_job` would give a job (without taking it)."""


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
        _not_in_drill(self._session, open_)
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
        _not_in_drill(self._session, open_)
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


def _not_in_drill(session: Session, open_: bool) -> None:
    closed = session.closed_reason()
    if open_ and closed is not None:
        raise ArgumentError(closed)


def _check_bool(value: Any, what: str) -> bool:
    if not isinstance(value, bool):
        raise ArgumentError(f"{what} must be true or false, not {quote(value)}")
    return value
