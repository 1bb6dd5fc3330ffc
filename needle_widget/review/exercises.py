r"""A review's marked decisions as exercises: "You played X. Find a better move."

`exercises(reviews)` takes the decisions a review marked (mistakes and blunders by default) and keeps, for
each, only what its seat knew then: the seat's view just before the decision and the game up to it in the
seat's words (`story`), with nothing after it. An attempt is judged as the review judges a decision: the
attempted action and every candidate valued on the same worlds (the review's seed, seat and step give
them), with the review's settings.

**Tolerance.** An attempt is accepted when the review would not mark it: its loss against the best
candidate does not clear the inaccuracy's 3 points by 1.5 standard errors (`marks.label` says "best" or
"good"). The move played was marked a mistake or blunder (its loss cleared 6 or 12 points by the same
noise), so between what made the exercise and what solves it there are at least 3 points; a move the
review would have let pass is not the mistake the exercise is about. The move played itself is never
accepted.

**One budget of worlds.** Every figure an exercise shows is on one set of worlds: its `values` (the solution and its
table) and every attempt are valued on `values_worlds` worlds of `seed`, the review's budget for the move played
(its `worlds`, or more where that move's mark was in doubt: `review.STEP`). An attempt is not valued again
on more worlds when its own mark is in doubt, as a review would: a move read as "61% of 96 worlds" in an attempt's
feedback and "67% of 384 worlds" in the table is one figure said twice. An exercise moved to the worlds of another
seed (`on_seed`: a class's practice, whose kernel is never sent the review's seed) has its values valued again
there, on the same budget.

>>> from needle_widget import examples
>>> from needle_widget.review import review
>>> replay = examples.load("found_early")
>>> x = exercise_at(replay, 0, worlds=8)      # Player 1's needle pick, as an exercise
>>> x.prompt(), len(x.history)
('Step 1: you played Choose needle A♣. Find a better move.', 0)
>>> x.check(x.played).outcome, x.check(x.best).solved
(<AttemptResult.SAME: 'the move played'>, True)
>>> exercises([review(replay, 0, worlds=8)])     # GreedyBot's game: nothing marked, nothing to practise
[]
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from enum import Enum
from typing import Any

from ..engine import actions as A
from ..engine.actions import Action
from ..engine.errors import ArgumentError, NeedleError, quote
from ..engine.figures import percent
from ..engine.game import Game
from ..engine.seats import player_name
from ..inference.worlds import MAX_WORLDS, sample
from ..players.bots import BOTS, make_bot
from ..records.replay import Replay
from .marks import DEFAULT_POINTS, LABELS, custom_thresholds, points
from .review import MORE, CandidateValue, Decision, Review, Reviewer, _entry, doing, judge
from .story import Moment, seat_story
from .values import Settings, sampled, value_decision

__all__ = ["FORMAT", "Attempt", "AttemptResult", "Exercise", "Outcome", "exercise_at", "exercise_from", "exercises"]

FORMAT = "needle-exercise-1"
"""The version of an exercise's JSON form (`Exercise.to_dict`)."""

ACCEPTED = ("best", "good")
"""The labels an accepted attempt gets: the review would not mark it."""

MAX_MOVES = 200
"""The most legal actions an exercise read from a file may offer (a needle pick has 45)."""

MAX_HISTORY = 2_000
"""The most lines of history an exercise read from a file may carry (a game of 300 turns has about 1,400)."""


class AttemptResult(Enum):
    """How an attempt went."""

    SOLVED = "solved"
    TRY_AGAIN = "try again"
    SAME = "the move played"


Outcome = AttemptResult
"""The earlier name of `AttemptResult`, kept for code that imports it."""


@dataclass(frozen=True)
class Attempt:
    """One attempt at an exercise: the outcome and the review's figures for the action attempted."""

    outcome: AttemptResult
    action: Action
    label: str
    loss: float
    """Win chance given up against the best candidate (0..1), as the review measures a decision's loss."""
    se: float
    value: float
    best: Action
    best_value: float
    worlds: int

    @property
    def solved(self) -> bool:
        """Whether the attempt is accepted."""
        return self.outcome is AttemptResult.SOLVED

    def message(self) -> str:
        """The feedback, told to the seat: "Good: ..." or "Try again: ..."."""
        points = round(100 * self.loss)
        if self.outcome is AttemptResult.SAME:
            return f"That is the move you played ({self.action}). Try another."
        if self.outcome is AttemptResult.SOLVED:
            close = ("the best found" if self.action == self.best else "as good as the best found, within the noise"
                     if points == 0 else f"within {points} point{'s' * (points != 1)} of the best found")
            return (f"Good: {doing(self.action, False)} wins {percent(self.value)} of {self.worlds:,} worlds you "
                    f"could not tell apart, {close}.")
        return (f"Try again: {doing(self.action, False)} gives up {points} point{'s' * (points != 1)} of win chance "
                f"(±{round(100 * self.se)}) against the best found.")


@dataclass(frozen=True)
class Exercise:
    """One marked decision as an exercise (see the module docstring): what its seat knew then, the move played and
    the review's values for the decision. `key` names it (a deck keeps its schedule under it).
    """

    seat: int
    step: int
    view: dict[str, Any]
    """The seat's view just before the decision (`game.view(seat)`: what its screen showed)."""
    history: tuple[str, ...]
    """The game up to the decision, one line per action, in the seat's words."""
    played: Action
    label: str
    loss: float
    se: float
    best: Action
    values: tuple[CandidateValue, ...]
    worlds: int
    seed: int
    model: str
    """The opponent model of the worlds: "none" (uniform over what the view allows) or a bot's name."""
    more: int = MORE
    thresholds: tuple[float, float, float] | None = None
    """The marks' thresholds the review used (win chance); None: the default 3, 6 and 12 points."""
    valued: int = 0
    """How many worlds `values` are over: `worlds`, or more where the played move's mark was in doubt, up to
    (1 + `more`) times it (the review's further worlds, a step at a time: `review.STEP`; 0: `worlds`)."""
    settings: Settings | None = field(default=None, compare=False, repr=False)

    @property
    def values_worlds(self) -> int:
        """How many worlds `values` are over."""
        return self.valued or self.worlds

    @property
    def key(self) -> str:
        """A stable name: a hash of the position, the move played and the settings (16 hex digits)."""
        parts = [self.seat, self.step, self.view, self.played.to_dict(), self.worlds, self.seed, self.model]
        text = json.dumps(parts + ([list(self.thresholds)] if self.thresholds else []), sort_keys=True,
                          ensure_ascii=True)
        return hashlib.sha256(text.encode()).hexdigest()[:16]

    @property
    def legal(self) -> list[Action]:
        """The actions the seat could play."""
        return [A.from_dict(a) for a in self.view["legal_actions"]]

    def prompt(self) -> str:
        """The task, told to the seat: "Step 13: you played Discard A♦ (a blunder). Find a better move."."""
        article = "an" if self.label[:1] in "aeiou" else "a"
        mark = f" ({article} {self.label})" if self.label not in ACCEPTED else ""
        return f"Step {self.step + 1}: you played {self.played}{mark}. Find a better move."

    def solution(self) -> str:
        """The better move, with its value and the move played's, and over how many worlds."""
        best, mine = self.value_of(self.best), self.value_of(self.played)
        return (f"Better: {doing(self.best, False)} won {percent(best.value)} of {self.values_worlds:,} worlds you "
                f"could not tell apart, against {percent(mine.value)} for {doing(self.played, False)} "
                f"(a loss of {round(100 * self.loss)} points, ±{round(100 * self.se)}).")

    def position(self, seed: int = 0) -> Game:
        """A game its seat cannot tell from the real one at the decision: one world drawn from `view` alone
        (`worlds.sample`: the hidden cards are drawn, never the real ones), so `position().view(seat) == view`.
        """
        return sample(self.view, 1, seed=seed)[0]

    def value_of(self, action: Action) -> CandidateValue:
        """The review's value of a candidate it valued (ArgumentError quoting `action` if it did not)."""
        for v in self.values:
            if v.action == action:
                return v
        raise ArgumentError(f"{quote(action)} is not a candidate the review valued at step {self.step + 1}: "
                            f"{', '.join(str(v.action) for v in self.values[:8])}")

    def check(self, action: Action) -> Attempt:
        """Judge `action` as the review judges a decision, on the same worlds (ArgumentError if not legal here)."""
        given: object = action  # checked: a caller may pass anything
        if not isinstance(given, Action) or action.to_dict() not in self.view["legal_actions"]:
            legal = ", ".join(str(a) for a in self.legal[:8])
            raise ArgumentError(f"{quote(action)} is not legal at step {self.step + 1}: {player_name(self.seat)} may "
                                f"play {legal}")
        entry = self._judged(action)
        best = entry.value_of(entry.best)
        outcome = (AttemptResult.SAME if action == self.played
                   else AttemptResult.SOLVED if entry.label in ACCEPTED else AttemptResult.TRY_AGAIN)
        return Attempt(outcome, action, entry.label, entry.loss, entry.se, entry.value_of(action).value, entry.best,
                       best.value, entry.worlds)

    def on_seed(self, seed: int) -> Exercise:
        """The exercise judged on the worlds of `seed` (a class's practice: never the review's seed): the move
        played valued again there on the same budget (`values_worlds`), so that its values, loss and better move,
        and every attempt, are on one set of worlds. The mark stays the review's: the prompt says what the review
        said. Where the move played is the best found on these worlds, the better move is the best of the others.
        """
        if type(seed) is not int or not 0 <= seed < 2 ** 63:
            raise ArgumentError(f"seed must be a non-negative integer below 2**63, not {quote(seed)}")
        if seed == self.seed:
            return self
        settings = None if self.settings is None else dataclasses.replace(self.settings, seed=seed)
        moved = dataclasses.replace(self, seed=seed, settings=settings)
        entry = moved._judged(self.played)
        best = entry.best
        if best == self.played and len(entry.values) > 1:
            best = max((v for v in entry.values if v.action != self.played), key=lambda v: v.value).action
        return dataclasses.replace(moved, loss=entry.loss, se=entry.se, best=best, values=entry.values,
                                   valued=entry.worlds)

    def _judged(self, action: Action) -> Decision:
        """`action` valued on this exercise's one budget (the module docstring): `values_worlds` worlds of `seed`,
        the review's worlds and, where its values were refined, the review's further worlds, for every action alike.
        """
        settings = self.settings
        model = settings.model if settings is not None else _model(self.model)
        policy = settings.policy if settings is not None else None
        bars = None if self.thresholds is None else points(self.thresholds)
        if self.values_worlds <= self.worlds or not self.more:
            return judge(self.view, action, self.step, worlds=self.worlds, seed=self.seed, model=model, policy=policy,
                         more=0, thresholds=bars)
        chosen = Reviewer.settings_for(self.worlds, self.seed, model, policy, self.more, thresholds=bars)
        key = f"{self.seat} {self.step}"  # the review's (`Reviewer.jobs`, `judge`): the same worlds
        base = value_decision(self.view, action, chosen, key)
        further = sampled(self.view, chosen, f"{key} more", min(self.more * self.worlds, MAX_WORLDS))
        extra = value_decision(self.view, action, chosen, key, worlds=further[:self.values_worlds - self.worlds])
        moment = Moment(self.step, self.view, action, len(self.view["legal_actions"]))
        return _entry(moment, (base, extra), chosen.thresholds)

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready (`from_dict` reads it back); ArgumentError if its review used a rollout policy of its own."""
        if self.settings is not None and self.settings.policy is not None:
            raise ArgumentError("An exercise judged by a rollout policy of its own cannot be saved: review with the "
                                "default policy (GreedyBot)")
        return {"format": FORMAT, "seat": self.seat, "step": self.step, "view": self.view,
                "history": list(self.history), "played": self.played.to_dict(), "label": self.label,
                "loss": self.loss, "se": self.se, "best": self.best.to_dict(),
                "values": [{"action": v.action.to_dict(), "value": v.value, "se": v.se} for v in self.values],
                "worlds": self.worlds, "seed": self.seed, "model": self.model, "more": self.more,
                "thresholds": list(points(self.thresholds)), "valued": self.values_worlds}

    @classmethod
    def from_dict(cls, data: Any) -> Exercise:
        """An exercise from `to_dict`'s form; ArgumentError naming the first bad field."""
        if not isinstance(data, dict) or data.get("format") != FORMAT:
            raise ArgumentError(f"Not an exercise of format {FORMAT!r}: {quote(data)}")
        view = data.get("view")
        if not isinstance(view, dict) or type(view.get("perspective")) is not int or view["perspective"] not in (0, 1):
            raise ArgumentError(f"An exercise's view must be a player's view, not {quote(view)}")
        moves = view.get("legal_actions")
        if not isinstance(moves, list) or not 2 <= len(moves) <= MAX_MOVES:
            raise ArgumentError(f"An exercise's view must offer a choice of 2 to {MAX_MOVES} actions, not "
                                f"{quote(moves)}")
        legal = _Legal(moves)
        seat, step = data.get("seat"), data.get("step")
        if seat != view["perspective"] or type(step) is not int or step < 0:
            raise ArgumentError(f"An exercise's seat and step must be its view's seat and a count, not {quote(seat)}, "
                                f"{quote(step)}")
        history = data.get("history")
        if (not isinstance(history, list) or len(history) != step or len(history) > MAX_HISTORY
                or not all(isinstance(line, str) for line in history)):
            raise ArgumentError(f"An exercise's history must be its {quote(step)} lines of text")
        played, best = _action(data.get("played"), legal, "played"), _action(data.get("best"), legal, "best")
        values = data.get("values")
        if not isinstance(values, list) or not 1 <= len(values) <= len(moves) + 1:
            raise ArgumentError(f"An exercise's values must be a list of its candidates, not {quote(values)}")
        bad = [v for v in values if not isinstance(v, dict) or not {"action", "value", "se"} <= set(v)]
        if bad:
            raise ArgumentError(f"An exercise's candidate must have an action, a value and an se: {quote(bad[0])}")
        cands = tuple(CandidateValue(_action(v["action"], legal, "candidate"), _number(v["value"], "value", 1.0),
                                     _number(v["se"], "se", 1.0)) for v in values)
        valued = {v.action for v in cands}
        if played not in valued or best not in valued:
            raise ArgumentError(f"An exercise's values must hold its played and best moves, not only "
                                f"{quote(sorted(map(str, valued)))}")
        for name, high in (("worlds", MAX_WORLDS), ("seed", 2 ** 63), ("more", 10)):
            if type(data.get(name)) is not int or not (2 if name == "worlds" else 0) <= data[name] <= high:
                raise ArgumentError(f"An exercise's {name} must be a count up to {high:,}, not "
                                    f"{quote(data.get(name))}")
        if data.get("label") not in LABELS:
            raise ArgumentError(f"An exercise's label must be one of {', '.join(LABELS)}, not "
                                f"{quote(data.get('label'))}")
        _model(data.get("model"))
        bars = custom_thresholds(data.get("thresholds", DEFAULT_POINTS))
        return cls(seat, step, view, tuple(history), played, data["label"], _number(data.get("loss"), "loss", 1.0),
                   _number(data.get("se"), "se", 1.0), best, cands, data["worlds"], data["seed"], data["model"],
                   data["more"], bars, _valued(data.get("valued", 0), data["worlds"], data["more"]))


def _valued(value: Any, worlds: int, more: int) -> int:
    """`valued` checked: 0, or a budget the review can have used: its worlds and up to `more` times as many again."""
    most = worlds + min(more * worlds, MAX_WORLDS)
    if type(value) is not int or not (value == 0 or worlds <= value <= most):
        raise ArgumentError(f"An exercise's valued must be 0 or a count of worlds from {worlds:,} to {most:,}, "
                            f"not {quote(value)}")
    return value


def _number(value: Any, name: str, high: float) -> float:
    if type(value) not in (int, float) or not 0 <= value <= high:
        raise ArgumentError(f"An exercise's {name} must be a number from 0 to {high:g}, not {quote(value)}")
    return float(value)


class _Legal:
    """A view's legal actions, looked up by their JSON form (a file's candidates are checked in linear time)."""

    def __init__(self, moves: list[Any]) -> None:
        self._keys = {json.dumps(m, sort_keys=True) for m in moves}

    def __contains__(self, value: Any) -> bool:
        try:
            return json.dumps(value, sort_keys=True) in self._keys
        except (TypeError, ValueError):
            return False


def _action(value: Any, legal: _Legal, name: str) -> Action:
    if value not in legal:
        raise ArgumentError(f"An exercise's {name} move must be legal in its view, not {quote(value)}")
    try:
        return A.from_dict(value)
    except (NeedleError, KeyError, TypeError, ValueError):
        raise ArgumentError(f"An exercise's {name} move is not an action: {quote(value)}") from None


def _model(name: Any) -> Any:
    """The worlds' opponent model named `name` ("none", or a bot's name)."""
    if name == "none":
        return None
    if not isinstance(name, str) or name not in BOTS:
        raise ArgumentError(f"An exercise's model must be 'none' or one of {', '.join(BOTS)}, not {quote(name)}")
    return make_bot(name)


def exercise_from(review: Review, entry: Decision) -> Exercise:
    """The exercise of one of `review`'s entries (its story must be kept: reviews from `review`/`Reviewer` keep it)."""
    given: tuple[object, object] = (review, entry)  # checked: a caller may pass anything
    if not isinstance(given[0], Review):
        raise ArgumentError(f"exercise_from needs a review (review(replay, seat)), not {quote(review)}")
    if not isinstance(given[1], Decision):
        raise ArgumentError(f"exercise_from needs one of the review's entries (review.entries), not {quote(entry)}")
    story = review.story
    if story is None:
        raise ArgumentError("This review keeps no story of its game: make it with review() or a Reviewer")
    moment = next((m for m in story.moments if m.step == entry.step), None)
    if moment is None or entry.seat != story.seat:
        raise ArgumentError(f"Step {entry.step + 1} is not a decision of {player_name(story.seat)} in this review")
    return Exercise(story.seat, entry.step, moment.view, story.lines[:entry.step], entry.action, entry.label,
                    entry.loss, entry.se, entry.best, entry.values, entry.worlds if review.settings is None
                    else review.settings.worlds, review.seed, review.model,
                    review.settings.more if review.settings is not None else MORE,
                    review.settings.thresholds if review.settings is not None else None, entry.worlds,
                    review.settings)


def exercise_at(replay: Replay, step: int, action: Action | None = None, *, worlds: int | None = None, seed: int = 0,
                model: Any = None, thresholds: Any = None) -> Exercise:
    """The exercise of the decision at `step` of `replay` (its mover's), with `action` as the move played
    (default: the one played; another legal action plants it), judged as `review` would with these settings.
    """
    if not isinstance(replay, Replay):
        raise ArgumentError(f"exercise_at needs a Replay (game.replay(), Replay.load), not {quote(replay)}")
    if type(step) is not int or not 0 <= step < len(replay):
        raise ArgumentError(f"step must be a step of the replay (0 to {len(replay) - 1}), not {quote(step)}")
    seat = replay.steps[step].player
    story = seat_story(replay, seat)
    moment = next((m for m in story.moments if m.step == step), None)
    if moment is None:
        raise ArgumentError(f"Step {step + 1} is not a decision: {player_name(seat)} had one legal action")
    chosen = moment.action if action is None else action
    settings = Reviewer.settings_for(worlds, seed, model, None, thresholds=thresholds)  # seed None: a fresh one
    entry = judge(moment.view, chosen, step, worlds=settings.worlds, seed=settings.seed, model=model,
                  thresholds=thresholds)
    name = "none" if model is None else getattr(model, "name", type(model).__name__)
    return Exercise(seat, step, moment.view, story.lines[:step], chosen, entry.label, entry.loss, entry.se, entry.best,
                    entry.values, settings.worlds, settings.seed, name, settings.more, settings.thresholds,
                    entry.worlds, settings)


def exercises(reviews: Iterable[Review], marks: Sequence[str] = ("mistake", "blunder"),
              seed: int | None = None) -> list[Exercise]:
    """The decisions of `reviews` (any seats, any games) marked one of `marks`, as exercises, in order; `seed`:
    judged on the worlds of that seed instead of the review's (`Exercise.on_seed`).
    """
    kinds: object = marks  # checked: a caller may pass anything
    if isinstance(kinds, (str, bytes, dict)) or not isinstance(kinds, Iterable):
        raise ArgumentError(f"marks must be a list of some of {', '.join(LABELS)}, not {quote(marks)}")
    chosen: tuple[object, ...] = tuple(kinds)
    if not chosen or any(not isinstance(m, str) or m not in LABELS for m in chosen):
        raise ArgumentError(f"marks must be some of {', '.join(LABELS)}, not {quote(marks)}")
    many: object = reviews
    if isinstance(many, (str, bytes, dict, Review)) or not isinstance(many, Iterable):
        raise ArgumentError(f"exercises needs a list of reviews ([review(replay, seat)]), not {quote(reviews)}")
    out: list[Exercise] = []
    for r in reviews:
        if not isinstance(r, Review):
            raise ArgumentError(f"exercises needs reviews (review(replay, seat)), not {quote(r)}")
        out += [exercise_from(r, e) for e in r.entries if e.label in chosen]
    return out if seed is None else [x.on_seed(seed) for x in out]
