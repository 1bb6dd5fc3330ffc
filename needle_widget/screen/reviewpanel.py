"""The review panel: each seat's decisions marked, a summary per seat, and the ledger of skill and luck,
as a screen may see them. No Jupyter.

The review itself is `needle_widget.review` (one seat's decisions judged from its own view); this
module decides who sees which review, when, and computes it in the background, one decision at a
time (`Reviewer.step`), as the desk's panels do (`next_job`: a `desk.Job`, run on the widget's worker).

Who sees what (`seats`, `reason`), all decided here, from the session's own predicates:

- no review while the record shown may still change or hides its end: never during a live round,
  never in a quiz before it is done, never in spoiler-free review before the step shown is the end
  (the record as shown must be the whole record, and the round over in it);
- a player's perspective sees its own seat's review (the review of seat q lists q's candidate
  actions: it is q's secret), and the opponent's only when everything is revealed at the end
  (`reveal_at_end`, and the screen may show the opponent's perspective);
- the teacher sees both; the spectator both, but only when everything is revealed at the end;
- a perspective the screen may not show (Python may show any) sees none.

Nothing is computed for a seat the perspective shown may not see, and each seat's review is
built from that seat's story alone (`review.story`), so twin games the seat cannot tell apart give
the same `review` trait. The trait does not depend on the step shown: the browser picks the
decision at the step itself, so a static page (`apps.export`) carries it once.

>>> from needle_widget import examples
>>> from needle_widget.screen.desk import Desk
>>> from needle_widget.screen.session import Session
>>> desk = Desk(Session(replay=examples.load("found_early"), perspective=1, reveal_at_end=False))
>>> panel = ReviewPanel(desk)
>>> panel.show(1, worlds=4)
>>> while (job := desk.next_job()) is not None:
...     job.run()
>>> state = panel.state(1)
>>> state["status"], [r["seat"] for r in state["reviews"]], state["reviews"][0]["done"]
('ready', [1], 4)
>>> panel.seats(0), panel.seats("teacher"), panel.seats("spectator")
([0], [0, 1], [])
"""

from __future__ import annotations

from collections import OrderedDict
from dataclasses import dataclass, field
from typing import Any

from ..engine.errors import ArgumentError, PerspectiveError, quote
from ..engine.seats import Perspective, player_name
from ..inference.worlds import MAX_WORLDS
from ..records.replay import Replay
from ..review import DEFAULT_WORLDS, LABELS, Decision, Review, Reviewer
from ..review.exercises import Exercise, exercises
from ..review.marks import DEFAULT_POINTS, NOISE, check_thresholds
from .desk import Desk, Job
from .plugin import Feature, Trait, request

__all__ = ["CANDIDATES_SHOWN", "MARKS", "REVIEW_SEED", "ReviewPanel", "check_worlds", "review_dict", "review_note"]

MARKS: dict[str, tuple[str, str, str]] = {
    "best": ("", "best", "best"),
    "good": ("", "good", "good"),
    "inaccuracy": ("?!", "inaccuracy", "inaccuracies"),
    "mistake": ("?", "mistake", "mistakes"),
    "blunder": ("??", "blunder", "blunders"),
}
"""Each label's symbol (chess's; none for best and good), its words for screen readers, and their plural."""
assert tuple(MARKS) == LABELS
CANDIDATES_SHOWN = 6
"""Candidates listed per decision (the best first), plus the chosen one if it is not among them."""
REVIEW_SEED = 0
"""The review's seed: the same replay and budget give the same review on every screen."""
CACHE = 4
"""Records whose reviews are kept (a branch, a new deal, another budget)."""
NOTE = ("Each decision is valued over {n} worlds drawn from what {who} could see, every choice played "
        "on by GreedyBot for both seats. Skill: the choice against GreedyBot's; luck: what the cards did "
        "between decisions.")


def marks_note(points: tuple[float, float, float]) -> str:
    r"""The footnote's sentence on the marks: their thresholds, and whose they are.

    >>> print(marks_note((3, 6, 12)).replace(", by", ",\nby"))
    Marks: ?! an inaccuracy above 3, ? a mistake above 6, ?? a blunder above 12 points of win chance lost,
    by 1.5 standard errors.
    """
    a, b, c = (f"{p:g}" for p in points)
    whose = "" if tuple(points) == DEFAULT_POINTS else " (the teacher's thresholds; the default is 3, 6 and 12)"
    return (f"Marks: ?! an inaccuracy above {a}, ? a mistake above {b}, ?? a blunder above {c} points of win chance "
            f"lost, by {NOISE:g} standard errors{whose}.")


PRACTISED = ("mistake", "blunder")
"""The marks made into exercises; a teacher may add the inaccuracies (`ReviewPanel.inaccuracies`)."""


def practice_note(inaccuracies: bool) -> str:
    """The footnote's sentence on which marked decisions become exercises."""
    return ("Exercises: the mistakes, blunders and inaccuracies (the teacher's setting)." if inaccuracies else
            "Exercises: the mistakes and blunders (inaccuracies not included).")


def review_note(n: int, who: str, thresholds: tuple[float, float, float] = DEFAULT_POINTS,
                inaccuracies: bool | None = None) -> str:
    """A review's footnote: its budget and whose view (`NOTE`), the marks' thresholds, and, where the screen can
    make exercises of the review (`inaccuracies` not None), which marks they take.
    """
    parts = [NOTE.format(n=n, who=who), marks_note(thresholds)]
    return " ".join(parts if inaccuracies is None else [*parts, practice_note(inaccuracies)])


def check_worlds(worlds: Any) -> int:
    """The review's budget, worlds per decision: an integer from 2 to `MAX_WORLDS`, else ArgumentError.

    >>> check_worlds(8)
    8
    >>> check_worlds(1)
    Traceback (most recent call last):
    ...
    needle_widget.engine.errors.ArgumentError: worlds must be an integer from 2 to 100,000, not 1
    """
    if type(worlds) is not int or not 2 <= worlds <= MAX_WORLDS:
        raise ArgumentError(f"worlds must be an integer from 2 to {MAX_WORLDS:,}, not {quote(worlds)}")
    return worlds


def _r(x: float | None) -> float | None:
    return None if x is None else round(x, 4)


def _entry_dict(e: Decision) -> dict[str, Any]:
    chosen = e.value_of(e.action)
    best = e.value_of(e.best)
    ranked = sorted(e.values, key=lambda v: -v.value)
    shown = ranked[:CANDIDATES_SHOWN]
    if chosen not in shown:
        shown.append(chosen)
    symbol, words, _plural = MARKS[e.label]
    return {
        "step": e.step, "at": e.step + 1, "seat": e.seat, "label": e.label, "mark": symbol, "words": words,
        "text": str(e.action), "best_text": str(e.best), "is_best": e.best == e.action, "explain": e.explain(),
        "explain_about": e.explain(player_name(e.seat)),
        "loss": _r(e.loss), "se": _r(e.se), "skill": _r(e.skill), "accuracy": _r(e.accuracy),
        "chosen_value": _r(e.chosen_value), "chosen_shown": _r(chosen.value),
        "best_value": _r(best.value), "reference_value": _r(e.reference_value),
        "worlds": e.worlds, "choices": e.choices, "valued": len(e.values),
        "values": [{"text": str(v.action), "value": _r(v.value), "se": _r(v.se), "chosen": v.action == e.action,
                    "best": v.action == e.best} for v in shown],
    }


def review_dict(review: Review, status: str | None = None) -> dict[str, Any]:
    """One seat's review as the `review` trait holds it (`reviews[i]`): the summary's figures, the
    entries (each with its mark, the better move and the candidates' values) and the luck terms.
    """
    done = len(review.entries)
    return {
        "seat": review.seat, "name": player_name(review.seat),
        "status": status or ("ready" if review.complete else "computing"), "error": None,
        "done": done, "total": review.decisions, "complete": review.complete,
        "accuracy": _r(review.accuracy), "counts": review.counts,
        "start_value": _r(review.start_value), "end_value": _r(review.end_value),
        "skill_total": _r(review.skill_total), "luck_total": _r(review.luck_total),
        "luck_adjusted": _r(review.luck_adjusted), "finished": review.finished, "result": review.result,
        "summary": review.summary() if review.complete else None,
        "verdict": review.verdict() if review.complete else None,
        "verdict_about": review.verdict(player_name(review.seat)) if review.complete else None,
        "entries": [_entry_dict(e) for e in review.entries],
        "luck": [{"start": t.start, "end": t.end, "luck": _r(t.luck), "se": _r(t.se), "sentence": t.sentence(),
                  "sentence_about": t.sentence(player_name(t.seat))} for t in review.luck],
    }


def _told(state: dict[str, Any], to_seat: bool) -> dict[str, Any]:
    """A seat's review state in the words for the screen: to the seat itself ("you could not tell apart"),
    or about it for another perspective ("Player 2 could not tell apart").
    """
    def pick(item: dict[str, Any], key: str) -> dict[str, Any]:
        about = item.get(f"{key}_about")
        out = {k: v for k, v in item.items() if k != f"{key}_about"}
        if not to_seat and about is not None:
            out[key] = about
        return out

    entries = [pick(e, "explain") for e in state.get("entries", [])]
    luck = [pick(t, "sentence") for t in state.get("luck", [])]
    return {**pick(state, "verdict"), "entries": entries, "luck": luck}


def _waiting(seat: int) -> dict[str, Any]:
    """A seat's review before its first decision is valued."""
    return {"seat": seat, "name": player_name(seat), "status": "computing", "error": None, "done": 0, "total": None,
            "complete": False, "accuracy": None, "counts": dict.fromkeys(LABELS, 0), "start_value": None,
            "end_value": None, "skill_total": None, "luck_total": None, "luck_adjusted": None, "finished": None,
            "result": None, "summary": None, "verdict": None, "verdict_about": None, "entries": [], "luck": []}


@dataclass
class _Work:
    """One seat's review of one record: the reviewer (made by the first job), the last state stored, and
    whether a job is in hand. Only the job in hand touches the reviewer; the screen reads `state`.
    """

    seat: int
    state: dict[str, Any]
    reviewer: Reviewer | None = None
    pending: bool = False
    made: dict[str, Any] = field(default_factory=dict)

    @property
    def finished(self) -> bool:
        return self.state["status"] in ("ready", "failed")


class ReviewPanel(Feature):
    """The review panel of a desk's shown session: the `review` trait, `offers["review"]`, the "review"
    request, and the work of computing it (`next_job`, on the desk's worker).
    """

    name = "review"
    absent = "the review"
    traits = {"review": Trait(None, "The review panel: None (closed) | {status: 'computing' | 'ready' | 'failed' | "
                                    "'hidden', reason (why hidden, public words), worlds, seats, reviews: [{seat, "
                                    "name, status, done, total, accuracy, counts, start_value, end_value, skill_total, "
                                    "luck_total, luck_adjusted, result, summary, entries: [{step, at, label, mark, "
                                    "words, text, best_text, explain, loss, se, skill, chosen_value, best_value, "
                                    "values}], luck: [{start, end, luck, se, sentence}]}] (the seats the perspective "
                                    "may see: `reviewpanel.ReviewPanel.seats`), legend, note}.")}

    def __init__(self, desk: Desk) -> None:
        self._desk = desk
        self.open = False
        self.worlds = DEFAULT_WORLDS
        """Worlds per decision (the library's default; Python may set fewer for speed, `show(worlds=)`)."""
        self.thresholds: tuple[float, float, float] = DEFAULT_POINTS
        """The marks' thresholds in points of win chance (inaccuracy, mistake, blunder): a teacher's setting."""
        self.inaccuracies = False
        """Whether the exercises made from the review (`exercises`) include its inaccuracies: a teacher's setting."""
        self._cache: OrderedDict[tuple, tuple[Replay, dict[int, _Work]]] = OrderedDict()
        desk.add_worker(self)

    # ---- who sees what ------------------------------------------------------------------------------

    def _record(self) -> Replay | None:
        """The record to review if the screen may see a review of it now: the whole record shown (not a
        spoiler-free or quiz cut short of the end), with the round over in it; else None.
        """
        s = self._desk.session
        if s.whole().phase != "over":
            return None
        record = s.full_record()
        return record if s.steps == len(record) else None

    def reason(self, perspective: Perspective) -> str | None:
        """None if `perspective` may see a review now; else why not, in public words (the mode, the round
        and the screen's settings, never a card).
        """
        s = self._desk.session
        if s.judged:
            return f"Not during {s.drill}: moves are judged here, and the round is not played on"
        if self._record() is None:
            if s.horizon is not None and s.horizon < len(s.full_record()):
                return "The review opens once the quiz is done"
            return "The review opens once the round is over"
        if self.seats(perspective):
            return None
        if perspective == "spectator":
            return ("The reviews show the players' cards: the spectator sees them only when everything is "
                    "revealed at the end")
        return "This screen may not show this perspective's review"

    def seats(self, perspective: Perspective) -> list[int]:
        """The seats whose review `perspective` may see now (see the module docstring); [] before the
        record is complete.
        """
        s = self._desk.session
        if self._record() is None:
            return []
        allowed = s.entitled()
        if perspective not in allowed:
            return []
        if perspective == "teacher":
            return [0, 1]
        if perspective in (0, 1):
            other = 1 - perspective
            return [perspective] + ([other] if s.reveal_at_end and other in allowed else [])
        return [0, 1] if s.reveal_at_end and 0 in allowed and 1 in allowed else []

    # ---- the trait and the offer ---------------------------------------------------------------------

    def synced(self, perspective: Perspective) -> dict[str, Any]:
        """{"review": `state(perspective)`}."""
        return {"review": self.state(perspective)}

    def offers(self, perspective: Perspective, game: Any = None) -> dict[str, Any]:
        """{"review": {seats, worlds, reason}}: whether the browser may open the review now (nothing where
        moves are judged, not played: practice reviews nothing).
        """
        if self._desk.session.judged:
            return {}
        return {"review": {"seats": self.seats(perspective), "worlds": self.worlds, "reason": self.reason(perspective)}}

    def state(self, perspective: Perspective) -> dict[str, Any] | None:
        """The `review` trait: None while closed; else the reviews `perspective` may see, as far as computed."""
        if not self.open:
            return None
        seats = self.seats(perspective)
        legend = [{"label": label, "mark": mark, "words": words, "plural": plural}
                  for label, (mark, words, plural) in MARKS.items()]
        out: dict[str, Any] = {"status": "hidden", "reason": self.reason(perspective), "worlds": self.worlds,
                               "seats": seats, "reviews": [], "legend": legend, "note": None}
        if not seats:
            return out
        _record, works = self._works()
        reviews = [_told(works[seat].state, perspective == seat) if seat in works else _waiting(seat)
                   for seat in seats]
        statuses = {r["status"] for r in reviews}
        who = player_name(seats[0]) if len(seats) == 1 else "each player"
        out.update(status="failed" if "failed" in statuses else "computing" if "computing" in statuses else "ready",
                   reviews=reviews, note=review_note(self.worlds, who, self.thresholds, self.inaccuracies))
        return out

    def exercises(self, perspective: Perspective) -> list[Exercise]:
        """The marked decisions of the finished reviews `perspective` may see, as exercises (mistakes and
        blunders, and inaccuracies too where `inaccuracies` is set): `review.exercises`, for `practice`.
        """
        if not self.open:
            raise ArgumentError("Open the review first (show_review): its exercises are its marked decisions")
        _record, works = self._works()
        done = [w.reviewer.review for seat in self.seats(perspective) if (w := works.get(seat)) is not None
                and w.reviewer is not None and w.state["status"] == "ready"]
        return exercises(done, marks=PRACTISED + ("inaccuracy",) * self.inaccuracies)

    def set_thresholds(self, points: Any) -> None:
        """The marks' thresholds in points of win chance (inaccuracy, mistake, blunder; default 3, 6, 12): a
        teacher's setting, said in the panel's footnote. ArgumentError quoting anything else, nothing changed.
        """
        check_thresholds(points)
        self.thresholds = tuple(points)

    # ---- Python's calls and the browser's request -----------------------------------------------------

    def show(self, perspective: Perspective, open_: Any = True, worlds: Any = None) -> None:
        """Open (or close, open_=False) the review; `worlds` sets the budget (worlds per decision). Python
        may open it before a review may be seen: it stays hidden, with its reason, until then.
        """
        if not isinstance(open_, bool):
            raise ArgumentError(f"open must be true or false, not {quote(open_)}")
        if worlds is not None:
            self.worlds = check_worlds(worlds)
        self.open = open_

    @request("review", "open")
    def request_review(self, open_: Any) -> None:
        """{kind: "review", open}: open or close the review (opening only as `offers["review"]` allows)."""
        if not isinstance(open_, bool):
            raise ArgumentError(f"open must be true or false, not {quote(open_)}")
        if open_:
            reason = self.reason(self._desk.session.perspective)
            if reason is not None:
                raise PerspectiveError(f"Cannot open the review: {reason[0].lower()}{reason[1:]}")
        self.open = open_

    # ---- work --------------------------------------------------------------------------------------

    def _works(self) -> tuple[Replay, dict[int, _Work]]:
        """The record shown and its seats' work (at this budget), made empty the first time. The cache
        holds the record itself, so its id names it while it is kept.
        """
        record = self._record()
        assert record is not None
        key = (id(record), len(record), self.worlds, self.thresholds)
        if key not in self._cache:
            self._cache[key] = (record, {})
            while len(self._cache) > CACHE:
                self._cache.popitem(last=False)
        self._cache.move_to_end(key)
        return self._cache[key]

    def _next(self, perspective: Perspective) -> tuple[Replay, _Work] | None:
        if not self.open:
            return None
        seats = self.seats(perspective)
        if not seats:
            return None
        record, works = self._works()
        for seat in seats:
            work = works.setdefault(seat, _Work(seat, _waiting(seat)))
            if not work.finished and not work.pending:
                return record, work
        return None

    def has_work(self, perspective: Perspective) -> bool:
        """Whether a seat `perspective` may see has a decision left to value, not in hand."""
        return self._next(perspective) is not None

    def next_job(self, perspective: Perspective) -> Job | None:
        """The next decision to value, for a seat `perspective` may see (its own first), or None. The job's
        computation touches only its seat's reviewer (made by the first job from the record, which it
        only reads); the screen reads the state it stores.
        """
        found = self._next(perspective)
        if found is None:
            return None
        record, work = found
        worlds, seat, thresholds = self.worlds, work.seat, self.thresholds
        work.pending = True
        reviewer, made = work.reviewer, work.made

        def compute() -> dict[str, Any]:
            mine = reviewer or Reviewer(record, seat, worlds=worlds, seed=REVIEW_SEED, thresholds=thresholds)
            made["reviewer"] = mine
            mine.step()
            return review_dict(mine.review)

        def store(value: dict[str, Any]) -> None:
            work.pending = False
            work.reviewer = made.get("reviewer", work.reviewer)
            if value.get("status") == "failed":
                value = {**work.state, "status": "failed", "error": value.get("error")}
            work.state = value

        return Job(compute, store)
