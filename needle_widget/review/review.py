"""A review of one seat's decisions: loss and marks per decision, and a ledger of skill and luck.

Every decision is judged from the seat's own view (`story`): worlds it could not tell apart are
sampled and every candidate is played on in each by the rollout policy (`values`). Here are the
judging (`review`, `reviews`, `Reviewer`, `judge`, `decide`); what it finds, the `Review` and its
entries and luck terms, is `results` (imported here too). docs/REVIEW.md explains the method, the
thresholds and the limits.

>>> from needle_widget import examples
>>> r = review(examples.load("found_early"), 0, worlds=8)
>>> [e.label for e in r.entries][:3], r.finished
(['best', 'best', 'best'], True)
>>> abs(r.start_value + r.skill_total + r.luck_total - r.end_value) < 1e-9
True
"""

from __future__ import annotations

import math
import secrets
from collections.abc import Callable, Iterator, Mapping, Sequence
from concurrent.futures import Executor
from functools import partial
from typing import Any

from ..engine import actions as A
from ..engine.actions import Action
from ..engine.errors import ArgumentError, BotError, NeedleError, quote
from ..inference.worlds import MAX_WORLDS
from ..records.replay import Replay
from . import marks
from .results import CandidateValue, Decision, Entry, LuckTerm, Review, doing
from .story import Moment, SeatStory, seat_story
from .values import Settings, Valuation, mean, sampled, score, std_error, value_decision, value_now

__all__ = ["DEFAULT_WORLDS", "MORE", "STEP", "CandidateValue", "Decision", "Entry", "LuckTerm", "Review", "Reviewer",
           "decide", "doing", "judge", "review", "reviews"]

DEFAULT_WORLDS = 96
"""Worlds per decision at the default budget (docs/REVIEW.md: noise, marks' stability and speed)."""

MORE = 3
"""A decision whose mark is in doubt (one standard error either way would change it) is valued on up to
MORE times as many worlds again, for its loss and mark only: the ledger keeps the first worlds' values,
a fixed budget, so its luck terms stay unbiased."""

STEP = 2
"""The extra worlds of a decision in doubt come 1/STEP of its worlds at a time (48 at the default 96), and stop
as soon as its mark is settled on all its worlds so far (`_in_doubt` says no), or at MORE times its worlds."""


class Reviewer:
    """A review computed one decision at a time (for a screen that shows entries as they come).

    `step()` values the next decision (False when all are done), `review` is the review so far.
    """

    def __init__(self, replay: Replay, seat: int, *, worlds: int | None = None, seed: int | None = 0,
                 model: Any = None, policy: Any = None, more: int = MORE, ledger: bool = False,
                 thresholds: Any = None, known: Mapping[int, Valuation] | None = None) -> None:
        self.settings = self.settings_for(worlds, seed, model, policy, more, ledger, thresholds)
        self.story: SeatStory = seat_story(replay, seat)
        self._known = self._check_known(known)
        self._valued: list[tuple[Valuation, Valuation | None]] = []
        self._entries: list[Decision] = []
        self._end: tuple[float, ...] | None = None

    @staticmethod
    def settings_for(worlds: Any, seed: Any, model: Any, policy: Any, more: Any = MORE,
                     ledger: Any = False, thresholds: Any = None) -> Settings:
        """The checked settings (ArgumentError quoting the first bad one)."""
        n = DEFAULT_WORLDS if worlds is None else worlds
        if type(n) is not int or not 2 <= n <= MAX_WORLDS:
            raise ArgumentError(f"worlds must be an integer from 2 to {MAX_WORLDS:,}, not {worlds!r}"[:200])
        if seed is not None and (type(seed) is not int or seed < 0):
            raise ArgumentError(f"seed must be a non-negative integer or None, not {seed!r}"[:200])
        if model is not None and not callable(getattr(model, "choose", getattr(model, "policy", None))):
            raise ArgumentError(f"model must be a bot or None, not {model!r}"[:200])
        if policy is not None and not callable(getattr(policy, "choose", None)):
            raise ArgumentError(f"policy must be a bot (an object with choose) or None, not {policy!r}"[:200])
        if type(more) is not int or not 0 <= more <= 10:
            raise ArgumentError(f"more must be an integer from 0 to 10, not {more!r}"[:200])
        if type(ledger) is not bool:
            raise ArgumentError(f"ledger must be True or False, not {ledger!r}"[:200])
        bars = None if thresholds is None else marks.custom_thresholds(thresholds)
        return Settings(n, secrets.randbits(63) if seed is None else seed, model, policy, more, ledger, bars)

    def _check_known(self, known: Mapping[int, Valuation] | None) -> dict[int, Valuation]:
        """`known` checked against the story: each a valuation of one of the seat's decisions, of its chosen
        action, on the settings' number of worlds (ArgumentError naming the first that is not).
        """
        if known is None:
            return {}
        if not isinstance(known, Mapping):
            raise ArgumentError(f"known must map steps to valuations (a ledger's), not {quote(known)}")
        if known and self.settings.ledger:
            raise ArgumentError("known valuations are a full review's: not for a review with ledger=True")
        chosen = {m.step: m.action for m in self.story.moments}
        for step, given in known.items():
            v: object = given  # a caller's mapping may hold anything
            if (not isinstance(v, Valuation) or step not in chosen or not v.rows
                    or len(v.rows[0]) != self.settings.worlds or v.candidates[v.chosen] != chosen[step]):
                raise ArgumentError(f"known[{quote(step)}] is not a valuation of the seat's decision at that step "
                                    f"on {self.settings.worlds} worlds")
        return dict(known)

    @property
    def done(self) -> bool:
        """Whether every decision (and an unfinished game's last position) has been valued."""
        return len(self._valued) == len(self.story.moments) and (self.story.result is not None or self._end is not None)

    def jobs(self) -> list[Callable[[], Any]]:
        """What is left to compute, in order, as picklable calls (for an executor); give each result to `add`."""
        story, settings = self.story, self.settings
        out: list[Callable[[], Any]] = [partial(decide, m.view, m.action, settings, f"{story.seat} {m.step}",
                                                self._known.get(m.step))
                                        for m in story.moments[len(self._valued):]]
        if story.result is None and self._end is None:
            out.append(partial(value_now, story.end_view, settings, f"{story.seat} end {story.length}"))
        return out

    def add(self, result: Any) -> None:
        """Take the result of the next job of `jobs()`."""
        if len(self._valued) < len(self.story.moments):
            self._valued.append(result)
        elif self.story.result is None and self._end is None:
            self._end = result
        else:
            raise ArgumentError("this review is complete: there is no job left to add a result to")

    def step(self) -> bool:
        """Value the next decision (or the last position); False if there was nothing left."""
        jobs = self.jobs()
        if not jobs:
            return False
        self.add(jobs[0]())
        return True

    def run(self) -> Review:
        """Every remaining decision; the whole review."""
        while self.step():
            pass
        return self.review

    def progress(self) -> Iterator[Review]:
        """The review after each decision valued (the last one complete)."""
        while self.step():
            yield self.review

    @property
    def review(self) -> Review:
        """The review so far."""
        story, settings = self.story, self.settings
        for k in range(len(self._entries), len(self._valued)):  # each entry made once, as its decision is valued
            self._entries.append(_entry(story.moments[k], self._valued[k], settings.thresholds))
        entries = tuple(self._entries)
        luck: list[LuckTerm] = []
        for i, entry in enumerate(entries):
            if i + 1 < len(entries):
                nxt = entries[i + 1]
                value = nxt.reference_value
                se = math.hypot(std_error(self._valued[i + 1][0].reference), self._chosen_se(i))
                end = nxt.step
            elif self.done:
                value, se = self._end_value(), math.hypot(self._end_se(), self._chosen_se(i))
                end = story.length
            else:
                break
            luck.append(LuckTerm(entry.step, end, story.seat, value - entry.chosen_value, se,
                                 _events(story, entry.step, end)))
        end_value = self._end_value() if self.done else (entries[-1].chosen_value if entries else 0.5)
        start = entries[0].reference_value if entries else end_value
        model = "none" if settings.model is None else getattr(settings.model, "name", type(settings.model).__name__)
        return Review(story.seat, entries, tuple(luck), start, end_value, story.result is not None,
                      story.result.describe() if story.result else None, settings.worlds, settings.seed, model,
                      complete=self.done, decisions=len(story.moments), story=story, settings=settings)

    def _chosen_se(self, i: int) -> float:
        """The standard error of decision i's chosen value on its first worlds (the ledger's)."""
        base = self._valued[i][0]
        return std_error(base.rows[base.chosen])

    def _end_value(self) -> float:
        if self.story.result is not None:
            return score(self.story.result, self.story.seat)
        return mean(self._end) if self._end else 0.5

    def _end_se(self) -> float:
        return 0.0 if self.story.result is not None or not self._end else std_error(self._end)


def reviews(replay: Replay, seats: Sequence[int] = (0, 1), *, executor: Executor | None = None,
            worlds: int | None = None, seed: int | None = 0, model: Any = None,
            policy: Any = None, more: int = MORE, ledger: bool = False, thresholds: Any = None) -> tuple[Review, ...]:
    """The reviews of several seats of one game (both by default), the same as `review` gives for each.

    `executor`: a `concurrent.futures.Executor` (e.g. `ProcessPoolExecutor(2)`, or a dask cluster's
    `client.get_executor()`) values the decisions of all seats in parallel; the numbers do not depend on it.
    """
    reviewers = [Reviewer(replay, seat, worlds=worlds, seed=seed, model=model, policy=policy, more=more,
                          ledger=ledger, thresholds=thresholds) for seat in seats]
    if executor is None:
        return tuple(r.run() for r in reviewers)
    futures = [[executor.submit(job) for job in r.jobs()] for r in reviewers]
    for r, mine in zip(reviewers, futures, strict=True):
        for future in mine:
            r.add(future.result())
    return tuple(r.review for r in reviewers)


def review(replay: Replay, seat: int, *, worlds: int | None = None, seed: int | None = 0, model: Any = None,
           policy: Any = None, more: int = MORE, ledger: bool = False, thresholds: Any = None,
           known: Mapping[int, Valuation] | None = None) -> Review:
    """Review `seat`'s decisions (0: Player 1, 1: Player 2) in a recorded game, finished or not.

    Each decision is valued over `worlds` worlds sampled from the seat's own view (default
    `DEFAULT_WORLDS`; uniform over the worlds the view allows, or weighed by `model`, a bot
    modelling the opponent's choices), every candidate played to the end by `policy` on both seats
    (GreedyBot by default). The same replay, seat and settings give the same review on every
    machine; `seed=None` draws a fresh seed (kept in `Review.seed`). A decision whose mark is in doubt is
    valued on up to `more` times as many worlds again, a step at a time until its mark is settled, for its loss
    and mark (`MORE`, `STEP`; 0: never).

    `ledger=True` values only what the ledger needs (the chosen action and the reference player's: a
    few times faster): skill, luck and `luck_adjusted` are the same as in the full review, but each
    entry compares only those two actions, so its loss and mark are not the review's (a tournament's
    luck adjustment uses it).

    `thresholds`: the marks' thresholds in points of win chance, a teacher's choice (inaccuracy, mistake,
    blunder; default (3, 6, 12): docs/REVIEW.md says how those were chosen).

    `known`: decisions already valued at the same settings, by step (a ledger's `SeatLedger.valuations`,
    `review.matches.ledger`): taken as they are instead of being valued again; the review is the same.
    """
    return Reviewer(replay, seat, worlds=worlds, seed=seed, model=model, policy=policy, more=more,
                    ledger=ledger, thresholds=thresholds, known=known).run()


def judge(view: dict[str, Any], action: Action, step: int, *, worlds: int | None = None, seed: int = 0,
          model: Any = None, policy: Any = None, more: int = MORE, thresholds: Any = None) -> Decision:
    """The entry of one decision: `action` played from `view` (a seat's `game.view(seat)`) at `step` (the
    index of the action in its game), valued as `review` values it (the same worlds for the same seed).
    A view that is not a player's, an action not legal in it or a step that is not a count raises
    ArgumentError quoting it.
    """
    settings = Reviewer.settings_for(worlds, seed, model, policy, more, thresholds=thresholds)
    given: object = view  # checked: a caller may pass anything
    if not isinstance(given, dict) or view.get("perspective") not in (0, 1) or type(view.get("perspective")) is not int:
        raise ArgumentError(f"view must be a player's game.view(0) or game.view(1), not {quote(view)}")
    legal = view.get("legal_actions") or ()
    if not isinstance(action, Action):
        raise ArgumentError(f"action must be an Action (e.g. actions.parse('draw')), not {quote(action)}")
    if action.to_dict() not in legal:
        raise ArgumentError(f"{quote(action)} is not legal in this view: Player {view['perspective'] + 1} may play "
                            f"{', '.join(str(A.from_dict(a)) for a in list(legal)[:8]) or 'nothing'}")
    if type(step) is not int or step < 0:
        raise ArgumentError(f"step must be a non-negative integer (the action's index in its game), not {quote(step)}")
    moment = Moment(step, view, action, len(legal))
    return _entry(moment, decide(view, action, settings, f"{view['perspective']} {step}"), settings.thresholds)


def decide(view: dict[str, Any], chosen: Action, settings: Settings, key: str,
           base: Valuation | None = None) -> tuple[Valuation, Valuation | None]:
    """A decision valued on `settings.worlds` worlds (`base` if it was already), and on up to `settings.more`
    times as many again (at most MAX_WORLDS) when its mark is in doubt (`_settled`; None if not). A
    `settings.policy` that raises gives a BotError naming it and the decision, the bot's exception chained.
    """
    try:
        if base is None:
            base = value_decision(view, chosen, settings, key)
        if settings.more and not settings.ledger and _in_doubt(base, settings.thresholds):
            return base, _settled(view, chosen, settings, key, base)
    except NeedleError:
        raise
    except Exception as failure:
        if settings.policy is None:
            raise
        name = getattr(settings.policy, "name", None) or type(settings.policy).__name__
        text = (f"The review's policy {str(name)[:40]!r} raised {type(failure).__name__} while valuing decision "
                f"{key!r} (seat and step)")
        raise BotError(text, public=text, player=view.get("perspective", 0), bot=name, problem="raised",
                       cause=failure) from failure
    return base, None


def _settled(view: dict[str, Any], chosen: Action, settings: Settings, key: str, base: Valuation) -> Valuation:
    """The extra worlds of a decision in doubt, valued a step at a time (`STEP`) until its mark is settled on
    the base and extra worlds together (`_in_doubt` says no), or all MORE times the base are valued. The extra
    worlds are drawn at once, so each step values the next of the same worlds: a longer run only adds to a
    shorter one, and a run to the end is the whole of them.
    """
    worlds = sampled(view, settings, f"{key} more", min(settings.more * settings.worlds, MAX_WORLDS))
    step = max(1, settings.worlds // STEP)
    rows: list[tuple[float, ...]] = [() for _ in base.candidates]
    reference: tuple[float, ...] = ()
    extra = base
    for start in range(0, len(worlds), step):
        part = value_decision(view, chosen, settings, key, worlds=worlds[start:start + step],
                              candidates=base.candidates)
        rows = [a + b for a, b in zip(rows, part.rows, strict=True)]
        reference += part.reference
        extra = Valuation(base.candidates, tuple(rows), base.chosen, reference)
        if not _in_doubt(_joined(base, extra), settings.thresholds):
            break
    return extra


def _joined(base: Valuation, extra: Valuation) -> Valuation:
    """One valuation of a decision on the worlds of both."""
    return Valuation(base.candidates, tuple(a + b for a, b in zip(base.rows, extra.rows, strict=True)), base.chosen,
                     base.reference + extra.reference)


def _in_doubt(v: Valuation, thresholds: tuple[float, float, float] | None = None) -> bool:
    """Whether one standard error either way would change the mark, or the plain gap to the best mean (biased
    up by the max) and the split-half loss disagree by more than a standard error.
    """
    loss, se, best = _loss(v.rows, v.chosen)
    mark = marks.label(loss, se, best, thresholds)
    means = [mean(r) for r in v.rows]
    gap = max(means) - means[v.chosen]
    return (marks.label(loss + se, se, False, thresholds) != mark
            or marks.label(max(0.0, loss - se), se, best, thresholds) != mark
            or gap - loss > max(se, marks.BEST_WITHIN))


def _loss(rows: Sequence[Sequence[float]], chosen: int) -> tuple[float, float, bool]:
    """The loss (best picked on one half of the worlds, measured on the other, both ways round, so the max
    over noisy means does not inflate it), its standard error, and whether the chosen action is the best on
    all the worlds.
    """
    n = len(rows[0])
    means = [mean(r) for r in rows]
    half = ([w for w in range(n) if w % 2 == 0], [w for w in range(n) if w % 2 == 1])
    pick = [_argmax([mean([r[w] for w in part]) for r in rows], chosen) for part in half]
    diffs = [rows[pick[1 - w % 2]][w] - rows[chosen][w] for w in range(n)]
    return max(0.0, mean(diffs)), std_error(diffs), _argmax(means, chosen) == chosen


def _entry(moment: Moment, valued: tuple[Valuation, Valuation | None],
           thresholds: tuple[float, float, float] | None = None) -> Decision:
    v, extra = valued
    rows = v.rows if extra is None else tuple(a + b for a, b in zip(v.rows, extra.rows, strict=True))
    n = len(rows[0])
    means = [mean(r) for r in rows]
    values = tuple(CandidateValue(a, m, std_error(r)) for a, m, r in zip(v.candidates, means, rows, strict=True))
    best = _argmax(means, v.chosen)
    loss, se, chosen_best = _loss(rows, v.chosen)
    skill_se = std_error([c - r for c, r in zip(v.rows[v.chosen], v.reference, strict=True)])
    return Decision(moment.step, moment.view["perspective"], moment.action, v.candidates[best], values, loss, se,
                 marks.label(loss, se, chosen_best, thresholds), mean(v.rows[v.chosen]), mean(v.reference), n,
                 moment.choices,
                 skill_se, std_error(v.rows[v.chosen]))


def _argmax(xs: list[float], prefer: int) -> int:
    """The index of the largest value; in a tie `prefer` if it is among the largest, else the first."""
    top = max(xs)
    return prefer if xs[prefer] == top else xs.index(top)


def _events(story: SeatStory, start: int, end: int) -> tuple[str, ...]:
    """What the seat heard from its decision at `start` up to the next at `end`: its own action's chance part
    (a draw, a steal) and everything after it.
    """
    first = start if story.kinds[start] in _CHANCY else start + 1
    return story.lines[first:end]


_CHANCY = frozenset({"DrawPile", "Steal", "EndSets"})
"""Actions with a chance part: the card drawn or stolen, the cards drawn to replenish after the sets."""
