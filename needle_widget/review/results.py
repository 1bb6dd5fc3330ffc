"""What a review finds: each `Decision` (its candidates' `CandidateValue`s, its loss and mark), the
`LuckTerm`s between decisions, and the whole `Review` of one seat with its summaries, all in words and as JSON.
They are made by `needle_widget.review.review` (`review`, `Reviewer`, `judge`).

>>> from needle_widget import actions
>>> doing(actions.parse("steal"), True), doing(actions.ChooseNeedle("10C"), whose="Ann's")
('Stealing', "choosing 10♣ as Ann's needle")
"""

from __future__ import annotations

import math
import re
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from ..engine import actions as A
from ..engine.actions import Action
from ..engine.figures import percent
from ..engine.seats import player_name
from . import marks
from .story import SeatStory
from .values import Settings, mean

__all__ = ["CandidateValue", "Decision", "Entry", "LuckTerm", "Review", "doing"]


@dataclass(frozen=True)
class CandidateValue:
    """One candidate of a decision: its value (the seat's expected score, 0..1) and standard error."""

    action: Action
    value: float
    se: float

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready: the action as its JSON form and its text."""
        return {"action": self.action.to_dict(), "text": str(self.action), "value": self.value, "se": self.se}


@dataclass(frozen=True)
class Decision:
    """One decision of the seat with more than one legal action (see the module docstring).

    `loss` is the best candidate's value minus the chosen one's, never negative, with its paired
    standard error `se`; the best is picked on one half of the worlds and valued on the other (and
    the other way round), so the max over noisy estimates does not inflate it. `skill` is the chosen
    action's value minus the value of playing as the rollout policy would (`reference`).
    """

    step: int
    seat: int
    action: Action
    best: Action
    values: tuple[CandidateValue, ...]
    loss: float
    se: float
    label: str
    chosen_value: float
    reference_value: float
    worlds: int
    choices: int
    """How many actions were legal (a needle pick has 45; `values` lists those valued)."""
    skill_se: float = 0.0
    """The standard error of `skill`: of the chosen action's scores minus the reference's, world by world
    (0 when the seat chose as the reference would)."""
    chosen_se: float = 0.0
    """The standard error of `chosen_value` (on the same worlds as it, the ledger's)."""

    @property
    def skill(self) -> float:
        """The chosen action's value minus the reference player's: positive when the choice beat it."""
        return self.chosen_value - self.reference_value

    @property
    def accuracy(self) -> float:
        """0-100 (`marks.accuracy`)."""
        return marks.accuracy(self.loss)

    def value_of(self, action: Action) -> CandidateValue:
        """The candidate value of `action` (KeyError if it was not valued)."""
        for v in self.values:
            if v.action == action:
                return v
        raise KeyError(str(action))

    def explain(self, who: str | None = None) -> str:
        """The decision in a sentence, with the best alternative, its value and the chosen one's; told to the
        seat ("worlds you could not tell apart"), or about `who` (a name: "worlds Player 2 could not tell apart").
        """
        mine, best = self.value_of(self.action), self.value_of(self.best)
        whose = "your" if who is None else f"{who}'s"
        worlds = f"{self.worlds:,} worlds {who or 'you'} could not tell apart"
        said = doing(self.action, True, whose)
        if self.best == self.action:
            others = sorted((v for v in self.values if v.action != self.action), key=lambda v: -v.value)
            text = f"{said} was the best choice found: it won {percent(mine.value)} of {worlds}"
            if others:
                text += f"; the next best, {doing(others[0].action, False, whose)}, won {percent(others[0].value)}"
            return text + "."
        if self.label == "best":
            return (f"{said} won {percent(mine.value)} of {worlds}; {doing(self.best, False, whose)} won "
                    f"{percent(best.value)}, "
                    "too close to tell apart from chance.")
        return (f"{said} gave up {_points(self.loss)} of win chance (±{round(100 * self.se)}): "
                f"{doing(self.best, False, whose)} instead won {percent(best.value)} of {worlds}, against "
                f"{percent(mine.value)}.")

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready."""
        return {"step": self.step, "seat": self.seat, "action": self.action.to_dict(), "text": str(self.action),
                "best": self.best.to_dict(), "best_text": str(self.best), "values": [v.to_dict() for v in self.values],
                "loss": self.loss, "se": self.se, "label": self.label, "skill": self.skill,
                "accuracy": self.accuracy, "chosen_value": self.chosen_value,
                "reference_value": self.reference_value, "skill_se": self.skill_se, "chosen_se": self.chosen_se,
                "worlds": self.worlds, "choices": self.choices, "explain": self.explain()}


Entry = Decision
"""The earlier name of `Decision`, kept for code that imports it."""


@dataclass(frozen=True)
class LuckTerm:
    """What the game did to the seat between two of its decisions (or after its last): the value before
    the next decision minus the chosen action's value. `start` is the step of the decision, `end` the
    step of the next one (or the game's length).
    """

    start: int
    end: int
    seat: int
    luck: float
    se: float
    events: tuple[str, ...]

    def sentence(self, who: str | None = None) -> str:
        """"Steps 14-16: Player 2 drew a card from the pile. ... You drew 6♦ from the pile. Your chances rose
        11 points (±4).": told to the seat, or about `who` (a name: "Player 1 drew 6♦ ... Player 1's chances").
        """
        moved = "rose" if self.luck > 0 else "fell" if self.luck < 0 else "stayed"
        size = f" {_points(abs(self.luck))} (±{round(100 * self.se)})" if self.luck else ""
        more = len(self.events) - 4
        told = " ".join(self.events[:4]) + (f" And {more} more action{'s' * (more > 1)}." if more > 0 else "")
        where = f"step {self.start + 1}" if self.end == self.start + 1 else f"steps {self.start + 1}-{self.end}"
        text = f"{where.capitalize()}: {told} Your chances {moved}{size}.".replace("  ", " ")
        return text if who is None else _about(text, who)

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready."""
        return {"start": self.start, "end": self.end, "seat": self.seat, "luck": self.luck, "se": self.se,
                "events": list(self.events), "sentence": self.sentence()}


@dataclass(frozen=True)
class Review:
    """One seat's review: the entries (a `Decision` per decision with a choice), the luck terms and the ledger.

    `start_value + skill_total + luck_total == end_value` (to rounding), by telescoping. `complete`
    is False while a `Reviewer` is still working (then the ledger covers the entries so far).
    """

    seat: int
    entries: tuple[Decision, ...]
    luck: tuple[LuckTerm, ...]
    start_value: float
    end_value: float
    finished: bool
    """Whether the game is over (then `end_value` is the result, else the last position's value)."""
    result: str | None
    worlds: int
    seed: int
    model: str
    complete: bool = True
    decisions: int = field(default=0, compare=False)
    """How many decisions the full review has (entries so far: `len(entries)`)."""
    story: SeatStory | None = field(default=None, compare=False, repr=False)
    """What the seat saw (its views, the game in its words): where `exercises` finds each decision's position."""
    settings: Settings | None = field(default=None, compare=False, repr=False)
    """How it valued: an exercise's attempt is judged with the same settings, on the same worlds."""

    @property
    def skill_total(self) -> float:
        """The sum of the entries' skill."""
        return math.fsum(e.skill for e in self.entries)

    @property
    def luck_total(self) -> float:
        """The sum of the luck terms."""
        return math.fsum(t.luck for t in self.luck)

    @property
    def thresholds(self) -> tuple[float, float, float]:
        """The marks' thresholds this review used, in points of win chance (inaccuracy, mistake, blunder)."""
        return marks.points(self.settings.thresholds if self.settings is not None else None)

    @property
    def skill_se(self) -> float:
        """The standard error of `skill_total` (the entries' errors, taken as independent)."""
        return math.sqrt(math.fsum(e.skill_se ** 2 for e in self.entries))

    @property
    def luck_se(self) -> float:
        """The standard error of `luck_total`. The terms telescope: of a finished game, `luck_total` is the
        result (exact) minus `luck_adjusted` = the first decision's chosen value plus the later decisions'
        skill, so its error is theirs (taken as independent). Of an unfinished game, the terms' errors.
        """
        if not self.finished or not self.entries or not self.complete:
            return math.sqrt(math.fsum(t.se ** 2 for t in self.luck))
        first, *rest = self.entries
        return math.sqrt(first.chosen_se ** 2 + math.fsum(e.skill_se ** 2 for e in rest))

    @property
    def luck_adjusted(self) -> float:
        """The result minus the luck: `end_value - luck_total` (= start value + skill)."""
        return self.end_value - self.luck_total

    @property
    def accuracy(self) -> float | None:
        """The mean of the entries' accuracy, 0-100 (None without entries)."""
        return mean([e.accuracy for e in self.entries]) if self.entries else None

    @property
    def counts(self) -> dict[str, int]:
        """How many entries have each label."""
        seen = Counter(e.label for e in self.entries)
        return {name: seen[name] for name in marks.LABELS}

    def summary(self) -> str:
        """One line: accuracy, marks, result, luck and the luck-adjusted result."""
        counts = ", ".join(f"{n} {name}" for name, n in self.counts.items() if n and name not in ("best", "good"))
        acc = "–" if self.accuracy is None else f"{self.accuracy:.0f}"
        return (f"{player_name(self.seat)}: accuracy {acc}, {counts or 'no marks'}; result {_share(self.end_value)}, "
                f"luck {_signed(self.luck_total)}, luck-adjusted {_share(self.luck_adjusted)}.")

    def verdict(self, who: str | None = None) -> str:
        """The answer in words: did the decisions or the cards decide the game (`verdict.verdict`), told to the
        seat or about `who`.
        """
        from .verdict import verdict

        return verdict(self, who)

    def __repr__(self) -> str:
        state = "" if self.complete else f", {len(self.entries)} of {self.decisions} decisions so far"
        return f"<Review {self.summary()[:-1]}{state}>"

    def ledger_svg(self) -> str:
        """The ledger drawn as SVG (`ledger.ledger_svg`)."""
        from .ledger import ledger_svg

        return ledger_svg(self)

    def _repr_html_(self) -> str:
        from .ledger import review_html

        return review_html(self)

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready, the same numbers on every machine for the same seed."""
        return {"seat": self.seat, "entries": [e.to_dict() for e in self.entries],
                "luck": [t.to_dict() for t in self.luck],
                "start_value": self.start_value, "end_value": self.end_value, "skill_total": self.skill_total,
                "luck_total": self.luck_total, "luck_adjusted": self.luck_adjusted, "accuracy": self.accuracy,
                "counts": self.counts, "finished": self.finished, "result": self.result, "worlds": self.worlds,
                "seed": self.seed, "model": self.model, "complete": self.complete, "decisions": self.decisions,
                "skill_se": self.skill_se, "luck_se": self.luck_se, "thresholds": list(self.thresholds),
                "summary": self.summary(),
                "verdict": self.verdict()}


def _about(text: str, who: str) -> str:
    """A sentence told to a seat ("You drew 6♦", "stole 10♥ from you", "Your chances") told about `who`."""
    text = re.sub(r"\bYour\b", f"{who}'s", text)
    text = re.sub(r"\byour\b", f"{who}'s", text)
    text = re.sub(r"\bYou\b", who, text)
    return re.sub(r"\byou\b", who, text)


def doing(action: Action, capital: bool = False, whose: str = "your") -> str:
    """"Discarding A♦", "choosing 10♣ as your needle": an action as the review words it (whose: "your", or a name's)."""
    if type(action) is A.Discard:
        text = f"discarding {action.card}"
    elif type(action) is A.LaySet:
        text = "laying " + " ".join(map(str, action.cards))
    elif type(action) is A.EndSets:
        text = "laying no more sets"
    elif type(action) is A.ChooseNeedle:
        text = f"choosing {action.card} as {whose} needle"
    elif type(action) is A.Steal:
        text = "stealing"
    else:
        text = "drawing from the pile"
    return text[0].upper() + text[1:] if capital else text


def _points(share: float) -> str:
    n = round(100 * share)
    return f"{n} point" + ("" if n == 1 else "s")


def _share(value: float) -> str:
    return f"{value:.2f}"


def _signed(value: float) -> str:
    return f"{value:+.2f}"
