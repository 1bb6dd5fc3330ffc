"""The class's record over a term: every finished game of a challenge or a match, each student's figure for
it, and standings that claim no more than the evidence.

Each finished game (an activity's `FinishedGame`) becomes one `RecordEntry` per student seat: the student, the deal and
seat they held (what pairs them with a classmate who held the same cards), the raw result, and once reviewed
the game's one figure: the **luck-adjusted score** of the student's seat, the review's `luck_adjusted`
(its start value plus its skill, `review.review` at `RECORD_WORLDS` worlds, on a seed the room derives from its
secret and the game, `seal.seed_of`, so no student's kernel can draw the same worlds), with its
**luck** (the result minus it). The Review panel opened on that game at its default budget shows the same
two numbers. The figures come from the seat's own view only, so what a student is shown of their own game
tells them nothing their seat did not see.

The standings (`review.standings`) compare students on what they share: the same deal from the same seat is
a paired comparison, else games matched by seat; a student is placed above another only by a claim that holds over
every pair of the class and every look (docs/REVIEW.md, "Standings that hold at every look"), else the board says
they cannot be told apart yet, and about how many games a claim would need.

A game a bot finished for a student who left it (`stood_in`: their move waited the match's `replace_after`) counts
as **lost** (`left_figure`): a loss in the raw results, and as its figure the lesser of 0 and the figure of the game
as finished less the result the bot reached, so leaving can never raise a student's figure (docs/REVIEW.md, "A game
the student left", has the rule, why it holds and the test). The entry keeps the seat's ledger of the game as
finished (`adjusted`, `skill`, `luck`), so records saved under the earlier rule load and count under this one.

The record is saved sealed in the room's channel beside the room's state (`to_dict`), each game's replay once
in its own entry, so a term of games costs one small save a game.
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping
from dataclasses import dataclass, field, fields
from typing import Any, cast

from ..engine.errors import quote
from ..engine.seats import player_name
from ..records.replay import Replay
from ..review import DEFAULT_WORLDS, review
from ..review.exercises import exercises
from ..review.matches import ledger
from ..review.standings import PROVISIONAL, Comparison, Standing, mean_interval, standings
from ..review.values import Valuation, score
from ..review.verdict import points_text, signed_points
from ..screen.reviewpanel import MARKS, REVIEW_SEED, review_dict, review_note
from .errors import ClassError

__all__ = ["FinishedGame", "RecordEntry", "Outcome", "Entry", "Record", "RECORD_WORLDS", "FIELDS", "left_figure",
           "review_exercises", "seat_figures", "seat_ledger", "seat_review", "review_state"]

RECORD_WORLDS = DEFAULT_WORLDS
"""Worlds per decision in the reviews behind the record's figures: the Review panel's default budget, so a
game's figure on the board is the one its Review panel shows. Measured (`needle-widget bench record`,
docs/REVIEW.md "A class's record"): 0.13 s a student's game on one core."""
FIELDS = ("adjusted", "result")
"""What `Record.scores` gives a game: its figure (`RecordEntry.figure`) or its result (`RecordEntry.scored`)."""
NOTE_RECORD = ("Luck-adjusted score, in points of win chance (a win is 100, a draw 50, a loss 0), a game: each game's "
               "result with the luck of the cards taken out (the student's decisions valued from what they could see, "
               "as the Review panel does), averaged over their games. Its range holds for every student at once, at "
               "every look, 95% of the time (for the average with each game's figure cut to −100..200), shown cut to "
               "0 to 100 (below 0 only for games left); one game's figure can pass 0 or 100, as the luck is "
               "estimated, and that noise averages out. A student is placed above "
               "another only when the games they share (the same deal from the same seat, else games matched by "
               "seat) lean one way by more than chance allows over every pair in the class, however often the board "
               "is looked at: equally strong students are shown in an order in at most 5 classes of 100. Otherwise "
               "they cannot be told apart yet, with about how many games a claim would need if they went on as so "
               "far. Rows by place, then by luck-adjusted score, then won–drew–lost. Provisional: fewer than {n} "
               "games. A game a bot finished for a student who left it counts as lost (a loss in won–drew–lost, at "
               "most 0 in the luck-adjusted score): leaving never raises a figure.")
LEVEL_SHOWN = 5
"""The students a row names as not yet told apart, the nearest to a claim first; the others are counted."""


def _games_text(c: Comparison) -> str:
    parts = []
    if c.shared:
        parts.append(f"{c.shared} {'deal' if c.shared == 1 else 'deals'} in common")
    if c.matched:
        parts.append(f"{c.matched} {'game' if c.matched == 1 else 'games'} matched by seat")
    return " and ".join(parts)


def claim_text(name: str, c: Comparison) -> str:
    """A claim with its evidence, from the side placed above: "Ben (9 deals in common: ahead on 8, +21 a game)"."""
    diff = signed_points(c.difference or 0.0)
    return f"{name} ({_games_text(c)}: ahead on {c.ahead}, {diff} a game)"


def level_text(name: str, c: Comparison, level: float, me: str) -> str:
    """A pair not yet told apart, from `me`'s side against `name`, with what a claim would need at the rate so far:
    "Cai (+3 a game over 12 deals in common, ahead on 7; about 80 would place Ann above)"; "Dee (no games to
    compare yet)".
    """
    if not c.pairs:
        return f"{name} (no games to compare yet)"
    needed = c.needed(level)
    need = "no claim in sight yet" if needed is None or needed > 999 else \
        f"about {needed} would place {me if c.lean == 'a' else name} above"
    return f"{name} ({signed_points(c.difference or 0.0)} a game over {_games_text(c)}, ahead on {c.ahead}; {need})"


def left_figure(adjusted: float, result: float) -> float:
    """The figure of a game the student left, a bot finishing it (`RecordEntry.stood_in`):
    `min(0, adjusted - result)`, from the seat's ledger of the game as finished (`adjusted`, its luck-adjusted
    score) and its result (1, 1/2, 0).

    The game counts as lost: a loss (0) with the game's luck taken out is `adjusted - result` (0 minus the luck),
    and the record takes the luck out only where that lowers the figure, so it is never above 0 nor above the figure
    as finished. From the moment the student left, its expected value is at most minus the luck so far, while
    playing on was worth minus the luck so far plus the expected result of playing on (the review's luck terms
    having mean 0, as every figure assumes): leaving never pays, whenever the student leaves (docs/REVIEW.md).

    >>> left_figure(0.75, 1.0), left_figure(0.25, 0.0), left_figure(-0.5, 0.5)
    (-0.25, 0.0, -1.0)
    """
    return min(0.0, adjusted - result)


@dataclass(frozen=True)
class FinishedGame:
    """A finished game an activity hands the record: a `source` naming it uniquely ("match 1/table 2/deal 1"),
    the `deal` it was dealt from ("match 1 · deal 1": students who held its same seat are paired), its replay,
    the student at each seat (None: a bot, named `bot`), and the students a bot stood in for.
    """

    source: str
    deal: str
    replay: Replay
    seats: tuple[int | None, int | None]
    bot: str | None = None
    stood_in: tuple[int, ...] = ()


@dataclass
class RecordEntry:
    """One student's seat in one finished game: the raw result, and once reviewed its figure (`figure`: for a game
    the student left, `left_figure`). Its fields are what `Record.to_dict` saves, as they were before that rule.
    """

    game: int
    source: str
    deal: str
    student: int
    seat: int
    opponent: int | None
    bot: str | None
    result: float
    """1 won, 1/2 drew, 0 lost: the game as finished (by a bot, for a student who left; `scored` counts it lost)."""
    margin: int
    """The student's points minus the opponent's."""
    stood_in: bool = False
    """A bot finished the game for the student, who had left it: it counts as lost (`figure`, `scored`)."""
    adjusted: float | None = None
    """The luck-adjusted score of the seat in the game as finished (its review: start value + skill); None until
    reviewed. The record's figure is `figure`."""
    skill: float | None = None
    luck: float | None = None
    failed: bool = False

    @property
    def counted(self) -> bool:
        """Counted in the student's figure: reviewed (a game the student left counts too, as lost)."""
        return self.adjusted is not None

    @property
    def figure(self) -> float | None:
        """The game's figure in the student's record: the luck-adjusted score; for a game the student left,
        `left_figure` of it (at most 0); None until reviewed.
        """
        if self.adjusted is None:
            return None
        return left_figure(self.adjusted, self.result) if self.stood_in else self.adjusted

    @property
    def scored(self) -> float:
        """The result the record counts: the game's, or 0 (lost) for a game the student left."""
        return 0.0 if self.stood_in else self.result

    @property
    def key(self) -> tuple[str, int]:
        """What pairs it: the deal and the seat."""
        return self.deal, self.seat


Outcome = FinishedGame
"""The earlier name of `FinishedGame`, kept for code that imports it."""
Entry = RecordEntry
"""The earlier name of `RecordEntry`, kept for code that imports it."""


def seat_figures(replay: dict[str, Any], seat: int, worlds: int = RECORD_WORLDS,
                 seed: int = REVIEW_SEED) -> tuple[float, float, float]:
    """(luck-adjusted score, skill, luck) of `seat` in a finished game (a replay's dict): the review's
    `luck_adjusted`, `skill_total` and `luck_total` at `worlds` and `seed`, computed by `review.matches.ledger`
    (the same numbers at a fraction of the cost). A plain function of plain data: it runs on any executor.
    """
    return seat_ledger(replay, seat, worlds, seed)[0]


def seat_ledger(replay: dict[str, Any], seat: int, worlds: int = RECORD_WORLDS,
                seed: int = REVIEW_SEED) -> tuple[tuple[float, float, float], dict[int, Valuation]]:
    """`seat_figures`, and the decisions valued for them by step: the review (`seat_review(known=...)`) takes
    those as they are instead of valuing them again. Runs on any executor.
    """
    mine = ledger(Replay.from_dict(replay), seat, worlds=worlds, seed=seed)
    return (mine.luck_adjusted, mine.skill, mine.luck), dict(mine.valuations)


def seat_review(replay: dict[str, Any], seat: int, worlds: int = RECORD_WORLDS,
                seed: int = REVIEW_SEED, known: Mapping[int, Valuation] | None = None,
                practice_seed: int | None = None) -> dict[str, Any]:
    """The review of `seat` (the Review panel's `reviews[i]`, `screen.reviewpanel.review_dict`), from that seat's
    story alone: what its student is shown of their own finished game, with its marked decisions as exercises
    under "exercises" (`review.exercises`, each `Exercise.to_dict`: what the seat knew then, nothing after),
    which the student practises in their own kernel, their values and attempts on worlds of `practice_seed` (the
    review's `seed` stays the room's: default, the review's own); `known`: the decisions `seat_ledger` valued (the
    same review, sooner). Runs on any executor.
    """
    reviewed = review(Replay.from_dict(replay), seat, worlds=worlds, seed=seed, known=known)
    marked = exercises([reviewed], seed=practice_seed)  # valued again on the practice's worlds (`Exercise.on_seed`)
    return {**review_dict(reviewed, "ready"), "exercises": [x.to_dict() for x in marked]}


def review_exercises(reviewed: dict[str, Any]) -> list[dict[str, Any]]:
    """The exercises `seat_review` made of a review's marked decisions (none for a review made without them)."""
    return list(reviewed.get("exercises") or [])


def review_state(reviewed: dict[str, Any], worlds: int = RECORD_WORLDS) -> dict[str, Any]:
    """The `review` trait of a screen showing one seat's finished review (as the Review panel's `state`)."""
    legend = [{"label": label, "mark": mark, "words": words, "plural": plural}
              for label, (mark, words, plural) in MARKS.items()]
    seat = reviewed["seat"]
    reviewed = {key: value for key, value in reviewed.items() if key != "exercises"}
    return {"status": "ready", "reason": None, "worlds": worlds, "seats": [seat], "reviews": [reviewed],
            "legend": legend, "note": review_note(worlds, player_name(seat))}


@dataclass
class Record:
    """The room's record: every finished game's entries (see the module docstring)."""

    entries: list[RecordEntry] = field(default_factory=list)
    games: dict[str, int] = field(default_factory=dict)
    """Each recorded game's source -> its number (1, 2, ...)."""
    worlds: int = RECORD_WORLDS
    _standings: dict[Any, list[Standing]] = field(default_factory=dict, repr=False, compare=False)
    """The latest standings, under what they were computed from (`standings`): the board asks again at every change
    of the room, the record changes only when a game is added or reviewed."""

    def __len__(self) -> int:
        return len(self.games)

    def add(self, outcome: FinishedGame) -> list[RecordEntry]:
        """Record a finished game (once: a source already recorded adds nothing); its new entries."""
        if outcome.source in self.games:
            return []
        result = outcome.replay.game_at(len(outcome.replay)).result
        if result is None:
            raise ValueError(f"the record takes finished games; {outcome.source!r} is not over")
        number = len(self.games) + 1
        self.games[outcome.source] = number
        new = []
        for seat, student in enumerate(outcome.seats):
            if student is None:
                continue
            new.append(RecordEntry(number, outcome.source, outcome.deal, student, seat, outcome.seats[1 - seat],
                             outcome.bot if outcome.seats[1 - seat] is None else None,
                             score(result, seat), result.scores[seat] - result.scores[1 - seat],
                             student in outcome.stood_in))
        self.entries.extend(new)
        return new

    def entry(self, source: str, seat: int) -> RecordEntry | None:
        """The entry of `source`'s seat `seat`, if a student held it."""
        number = self.games.get(source)
        return next((e for e in self.entries if e.game == number and e.seat == seat), None)

    def pending(self) -> list[RecordEntry]:
        """Entries still to review."""
        return [e for e in self.entries if e.adjusted is None and not e.failed]

    def scores(self, field_: str = "adjusted") -> dict[int, dict[tuple[str, int], float]]:
        """Each student's counted games: key (deal, seat) -> `field_`: "adjusted" (`RecordEntry.figure`) or
        "result" (`RecordEntry.scored`); a game the student left counts as lost in both. Another field raises
        ClassError.
        """
        if field_ not in FIELDS:
            raise ClassError(f"The record scores by {' or '.join(map(repr, FIELDS))}, not {quote(field_)}")
        out: dict[int, dict[tuple[str, int], float]] = {}
        for e in self.entries:
            if e.counted:
                value = e.figure if field_ == "adjusted" else e.scored
                assert value is not None  # counted: reviewed
                out.setdefault(e.student, {})[e.key] = value
        return out

    def compared(self, field_: str = "adjusted") -> dict[int, dict[tuple[str, int], float]]:
        """What the standings compare students on: for "adjusted", each game's figure less its start (what the deal
        gave the seat before any move: the same for two students who held the same cards, so a shared deal's
        difference is their figures', while across deals the deal's own worth drops out); for "result", the result
        the record counts.
        """
        if field_ != "adjusted":
            return self.scores(field_)
        out: dict[int, dict[tuple[str, int], float]] = {}
        for e in self.entries:
            if e.counted:
                assert e.figure is not None and e.adjusted is not None and e.skill is not None
                out.setdefault(e.student, {})[e.key] = e.figure - (e.adjusted - e.skill)
        return out

    def order(self) -> dict[int, dict[tuple[str, int], int]]:
        """When each student's counted games were recorded: student -> key -> game number."""
        out: dict[int, dict[tuple[str, int], int]] = {}
        for e in self.entries:
            if e.counted:
                out.setdefault(e.student, {})[e.key] = e.game
        return out

    def standings(self, students: list[int] | None = None, field_: str = "adjusted",
                  family: int | None = None) -> list[Standing]:
        """The standings by luck-adjusted score (`review.standings.standings`), over the pairs of `students` (the
        class: default, those with games): each interval cut to the range its student's mean can take
        (`mean_range`); students compared on `compared`, in the order played; rows by place, then mean, then
        won–drew–lost (`results`: most points, then most wins, then fewest losses). `field_="result"`: by raw results.
        `family`: the students the pairs are counted over, if more than `students` (the room's: everyone ever on its
        roster, so that taking a student off never lowers the bar of the claims left).
        """
        version = (None if students is None else tuple(students), field_, family, len(self.entries),
                   sum(e.counted for e in self.entries), len(self.games))
        if version in self._standings:
            return self._standings[version]
        scores, against, order = self.scores(field_), self.compared(field_), self.order()
        if students is not None:
            scores = {s: v for s, v in scores.items() if s in students}
        ranges: dict[Hashable, tuple[float, float]] = {
            s: self.mean_range(s) if field_ == "adjusted" else (0.0, 1.0) for s in scores}

        def tiebreak(student: Hashable) -> tuple[float, int, int]:
            won, drew, lost = self.results(cast(int, student))
            return -(won + drew / 2), -won, lost

        # `standings` takes any keys, but typed as Hashable (invariant in a Mapping): it keeps these, student indices
        rows = standings(cast("Mapping[Hashable, Mapping[Hashable, float]]", scores), ranges=ranges, tiebreak=tiebreak,
                         against=cast("Mapping[Hashable, Mapping[Hashable, float]]", against),
                         order=cast("Mapping[Hashable, Mapping[Hashable, float]]", order),
                         family=max(len(students) if students is not None else 0, family or 0) or None)
        self._standings.clear()
        self._standings[version] = rows
        return rows

    def results(self, student: int) -> tuple[int, int, int]:
        """Student `student`'s won, drew and lost, as the board shows them (a game a bot finished for them: lost)."""
        mine = [e for e in self.entries if e.student == student]
        won, drew, lost = (sum(e.scored == r for e in mine) for r in (1, 0.5, 0))
        return won, drew, lost

    def mean_range(self, student: int) -> tuple[float, float]:
        """The range the expected value of the student's mean figure can take, to which the interval shown is cut.

        A played game's figure is its result with the luck taken out: as the luck terms have mean 0 (what every
        figure assumes), its expected value is the game's expected result, 0 to 1, though one game's figure can
        pass either end (the review's noise). A game the student left has a figure of at most 0 (`left_figure`), of
        expected value from -1 (a loss less a whole game of luck) to 0. Over n counted games of which k were left:
        -k/n to (n - k)/n.
        """
        counted = [e for e in self.entries if e.student == student and e.counted]
        if not counted:
            return 0.0, 1.0
        left = sum(e.stood_in for e in counted)
        return -left / len(counted), (len(counted) - left) / len(counted)

    def board(self, view: str, names: Mapping[int, str], family: int | None = None) -> dict[str, Any] | None:
        """The board's "record" section: a row a student (teacher's view), or counts only (projector); its figures
        (`adjusted`, `interval`, `raw_mean`) in points of win chance (`review.verdict.UNIT`); `family` as
        `standings` takes it.
        """
        if not self.games:
            return None
        out: dict[str, Any] = {"games": len(self.games), "worlds": self.worlds, "provisional": PROVISIONAL,
                               "pending": len(self.pending()), "note": NOTE_RECORD.format(n=PROVISIONAL),
                               "rows": None}
        if self.worlds != RECORD_WORLDS:
            out["note"] += f" Reviewed at {self.worlds} worlds a decision."
        table = self.standings(list(names), family=family)
        if view != "teacher":
            out["placed"] = sum(s.first == s.last for s in table)
            out["students"] = len(table)
            return out
        raw = self.scores("result")
        out["rows"] = [self._row(s, names, raw) for s in table]
        return out

    def _row(self, s: Standing, names: Mapping[int, str], raw: dict[int, dict[tuple[str, int], float]]
             ) -> dict[str, Any]:
        """A student's row of the teacher's board: the games they played to the end, and (`stood_in`) the counted
        games a bot finished for them, which won–drew–lost and both means count as lost.
        """
        student = cast(int, s.student)  # the key `standings` was given: a student index
        won, drew, lost = self.results(student)
        left = sum(e.stood_in and e.counted for e in self.entries if e.student == student)
        rmean, _, _ = mean_interval(list(raw.get(student, {}).values()))
        evidence = s.evidence or {}
        above = [claim_text(names.get(cast(int, o), "?"), evidence[o]) for o in s.above]
        nearest = sorted(s.level, key=lambda o: (evidence[o].needed(s.next_level) or 10**9,
                                                 names.get(cast(int, o), "")))
        me = names.get(student, "?")
        level = [level_text(names.get(cast(int, o), "?"), evidence[o], s.next_level, me)
                 for o in nearest[:LEVEL_SHOWN]]
        if len(nearest) > LEVEL_SHOWN:
            level.append(f"and {len(nearest) - LEVEL_SHOWN} more")
        interval = None if s.low is None or s.high is None else f"{points_text(s.low)} to {points_text(s.high)}"
        return {"place": s.places, "name": names.get(student, "?"), "games": s.games - left,
                "adjusted": None if s.mean is None else points_text(s.mean), "interval": interval,
                "raw": f"{won}–{drew}–{lost}", "raw_mean": None if rmean is None else points_text(rmean),
                "provisional": s.provisional, "stood_in": left, "above": above or None, "level": level or None}

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready (the replays are saved apart, one a game)."""
        columns = [f.name for f in fields(RecordEntry)]
        return {"format": "needle-record-1", "worlds": self.worlds, "games": self.games, "columns": columns,
                "entries": [[getattr(e, c) for c in columns] for e in self.entries]}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Record:
        """The inverse of `to_dict`."""
        columns = data["columns"]
        return cls([RecordEntry(**dict(zip(columns, row, strict=True))) for row in data["entries"]],
                   dict(data["games"]), data.get("worlds", RECORD_WORLDS))

