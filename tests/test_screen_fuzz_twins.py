"""Fuzz twins of a whole screen: random sequences of the browser's requests (and Python's few calls) on two
widgets of twin games, which differ only in what the screen's perspective cannot see: a card of one seat's hand,
and in half the replays that seat's needle too (`twin_games`), and a teacher's note naming the card. After every
request both widgets' synced states are the same, byte for byte; and while the twins are still twins their
teacher's views differ (the cards are there to leak).

The screens: Player 1's and Player 2's live screens (`reveal_at_end=False`: their own seat and the spectator
only, even after the round), the spectator's review, and Player 2's spoiler-free review. The requests: every
kind the widget answers (`screen.features.REQUESTS`): steps, perspectives, "Play from here" in a sampled world
against every opponent offered (a bot, or two people: the hotseat's cover and its reveal), moves, back, the
possible worlds, the graph, the review, the variations (the real-cards line and a world drawn from each seat's
view are in the replays), notes, new games, autoplay; a quiz's and practice's requests are refused here, as on
any widget outside those modes (the same refusal on both twins).

A replay screen may open every perspective, by design (a replay's screen is a teacher's, `SCREENS`): there the
fuzz asks, at home and in a variation, only for the perspectives that cannot tell the twins apart, and plays
from here as the seat that cannot; inside a branch (a world drawn from that seat's view, the same for both
twins) it asks for any. The live screens' entitlement is the boundary itself: they are asked for anything.
Seeded (`random.Random`), bounded: the file takes about 20 s.
"""

from __future__ import annotations

import functools
import json
import random
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import pytest
from test_secrecy import touches, twin_decks

from needle_widget import NeedleWidget
from needle_widget.engine import actions as A
from needle_widget.engine.cards import Card
from needle_widget.engine.game import Game
from needle_widget.engine.seats import PERSPECTIVES, Perspective, player_name
from needle_widget.inference.worlds import world_for
from needle_widget.records.replay import Replay
from needle_widget.screen import whatif
from needle_widget.screen.desk import DEALS
from needle_widget.screen.features import REQUESTS

pytestmark = pytest.mark.untraced  # long loops of pure Python: see tests/conftest.py

REQUESTS_PER_RUN = 120
SEEDS = 5
NOISE = (None, -1, 999, "x", 2.5, True)
"""Values no field takes: each refused, on both twins the same."""


@dataclass(frozen=True)
class Case:
    """A screen: whose card differs between the twins (`hidden`), the perspectives that cannot tell them apart
    (`blind`, the screen's own first), and how the widget is made (`live`: a live game on the seat's screen;
    else a replay, `spoilers` or not).
    """

    name: str
    hidden: int
    blind: tuple[Perspective, ...]
    live: bool
    spoilers: bool = True
    reveal_at_end: bool = False

    @property
    def seat(self) -> int:
        """The seat that cannot see the card: the one this screen plays from here."""
        return 1 - self.hidden


CASES = (
    Case("p1", hidden=1, blind=(0, "spectator"), live=True),
    Case("p2", hidden=0, blind=(1, "spectator"), live=True),
    Case("spectator", hidden=1, blind=("spectator", 0), live=False),
    Case("p2 spoiler-free", hidden=0, blind=(1, "spectator"), live=False, spoilers=False),
)
"""`reveal_at_end=False` everywhere: with it (the default) the review shows the opponent's seat too once the round
is over, by design, and a branch's round over opens the teacher's perspective of its own game (the twins of
tests/test_screen_owner.py go there)."""


def synced(widget: NeedleWidget) -> str:
    """Every synced trait, as JSON with sorted keys (without the widget's own model ids)."""
    data = widget.get_state()
    for key in ("_esm", "_css", "_anywidget_id", "layout"):
        data.pop(key, None)
    return json.dumps(data, sort_keys=True, ensure_ascii=False)


def twin_games(seed: int, hidden: int, needles: bool) -> tuple[list[tuple[Game, Game]], set[Card]]:
    """Twin games after each action of one seeded script, and the two cards they differ in. The decks are
    `twin_decks`' (a card x of `hidden`'s hand swapped with the pile's bottom card y); with `needles`, `hidden`
    also looks for the pile's bottom card (y in the first, x in the second), so that its needle and its own
    events differ too (until the round is over: then the needles are shown to all). The other seat and the
    spectator cannot tell the twins apart: nobody touches x or y or draws the pile's bottom card, and the other
    seat never steals. The script stops when the round is over (or the pile is down to its bottom card).
    """
    deck_a, deck_b, x, y = twin_decks(seed, hidden)
    a, b = Game(seed=seed, deck=deck_a), Game(seed=seed, deck=deck_b)
    rng, avoid = random.Random(f"twin games {seed}"), {x, y}
    pairs = [(a.copy(), b.copy())]
    while a.phase != "over" and a.pile_size > 1 and len(a) < 200:
        legal = [act for act in a.legal_actions() if not touches(act, avoid)
                 and not (type(act) is A.Steal and a.to_move != hidden)]
        if not legal:
            break
        first = second = rng.choice(legal)
        if needles and a.phase == "needle" and a.to_move == hidden:
            first, second = A.ChooseNeedle(y), A.ChooseNeedle(x)
        a.apply(first)
        b.apply(second)
        pairs.append((a.copy(), b.copy()))
    return pairs, avoid


def with_lines(record: Replay, seed: int) -> Replay:
    """`record` with variations from its middle: the real cards, and a world drawn from each view (the hidden
    seat's world holds the card: only the teacher and that seat may open it), each with a move.
    """
    k = len(record) // 2
    if record.game_at(k).phase == "over":
        return record
    record.add_variation(k, record.branch(k).legal_actions()[:1], name="Real")
    for seat in (0, 1, "spectator"):
        world = world_for(record, k, seat, seed=seed)
        moves = record.line(record.add_variation(k, [], world=world)).final_game.legal_actions()[-1:]
        record.remove_variation(-1)
        record.add_variation(k, moves, world=world)
    return record


class Twins:
    """Two widgets of twin games, sent the same requests; `check()` compares them."""

    def __init__(self, case: Case, seed: int) -> None:
        self.case, self.rng = case, random.Random(f"screen fuzz {case.name} {seed}")
        needles = not case.live and seed % 2 == 1  # a live round goes on to its end, where the needles are shown
        pairs, self.avoid = twin_games(seed, case.hidden, needles)
        self.twins = True
        """The home games differ (False once Python deals both a new game from one seed)."""
        self.differed = 0
        self.seen: set[str] = set()
        """What the requests reached: "branch <opponent>", "revealed", "line", "moved", "new game"."""
        self.ids = iter(range(1, 10**6))
        if case.live:  # the round over (where the twins' script ended it) or in its second half
            a, b = pairs[-1] if self.rng.random() < 0.5 else pairs[self.rng.randrange(len(pairs) // 2, len(pairs))]
            self.widgets = [NeedleWidget(game=g, perspective=case.seat, reveal_at_end=case.reveal_at_end)
                            for g in (a, b)]
        else:  # the whole round; with the needles differing, up to the step before its end
            a, b = pairs[-2] if needles and pairs[-1][0].phase == "over" else pairs[-1]
            records = [with_lines(g.replay(), seed) for g in (a, b)]
            step = self.rng.randrange(len(records[0]) + 1)
            self.widgets = [NeedleWidget.from_replay(r, perspective=case.blind[0], spoilers=case.spoilers, step=step,
                                                     reveal_at_end=case.reveal_at_end) for r in records]
        for w, g in zip(self.widgets, (a, b), strict=True):
            w.review_worlds = 2
            held = next(c for c in g.hand(case.hidden) if c in self.avoid)
            w.add_note(0, f"{player_name(case.hidden)} holds {held}.", perspective="teacher")  # the teacher's only
        self.check("made")

    # ---- what both twins are shown ----------------------------------------------------------------

    @property
    def w(self) -> NeedleWidget:
        """The first twin (the same as the second, as far as anything shown goes)."""
        return self.widgets[0]

    @property
    def at_home(self) -> bool:
        """Neither a branch nor a variation is shown: the real game is."""
        lines = self.w.variations
        return self.w.branch_info is None and (lines is None or lines["current"] is None)

    def check(self, what: Any) -> None:
        """Both twins show the same; and at home, while they are twins, the teacher sees them differ."""
        first, second = (synced(w) for w in self.widgets)
        assert first == second, (self.case.name, what)
        if self.twins and self.at_home:
            a, b = (w.replay.game_at(w.step).view("teacher") for w in self.widgets)
            assert a != b, (self.case.name, what, "the twins are twins")
            self.differed += 1

    def ask(self, **request: Any) -> None:
        """The browser's request, to both (the same id)."""
        request_id = next(self.ids)
        before = self._where()
        for w in self.widgets:
            w._on_message(w, {**request, "id": request_id}, [])
        self.check(request)
        self._note(before)

    def python(self, call: Callable[[NeedleWidget], None], what: str) -> None:
        """Python's call, on both."""
        before = self._where()
        for w in self.widgets:
            call(w)
        self.check(what)
        self._note(before)

    def _where(self) -> tuple[int, bool, int]:
        return self.w.steps, self.w.cover is not None, len(self.w.deals)

    def _note(self, before: tuple[int, bool, int]) -> None:
        info, lines = self.w.branch_info, self.w.variations
        if info is not None:
            self.seen.add(f"branch {info['opponent']}")
            if before[1] and self.w.cover is None:
                self.seen.add("revealed")
        elif lines is not None and lines["current"] is not None:
            self.seen.add("line")
        if self.w.steps > before[0]:
            self.seen.add("moved")
        if len(self.w.deals) > before[2]:
            self.seen.add("new game")

    # ---- choices ----------------------------------------------------------------------------------

    def perspective(self) -> Perspective:
        """Any perspective where the screen's entitlement is the boundary (a live seat's screen, a branch's own
        game); else one that cannot tell the twins apart.
        """
        free = self.case.live or self.w.branch_info is not None
        return self.rng.choice(PERSPECTIVES if free else self.case.blind)

    def safe_moves(self) -> list[A.Action]:
        """The home game's moves that keep the twins twins: legal in both, touching neither differing card, no
        draw of the pile's bottom card (a set is laid only while the replenish after it, at most 6 cards, leaves
        it in the pile), and no steal: the twins share a seed and differ in their decks, and only the first's is
        the one its seed deals, so the same deal again (`Game.dealt_again`) steals with another generator in each.
        """
        a, b = (w.game for w in self.widgets)
        if not self.at_home or not self.case.live or a.phase == "over":
            return []
        other = set(b.legal_actions())
        return [act for act in a.legal_actions() if act in other and not touches(act, self.avoid)
                and type(act) is not A.Steal
                and not (type(act) is A.DrawPile and a.pile_size < 2)
                and not (type(act) is A.LaySet and a.pile_size < 8)]


# ---- the requests -------------------------------------------------------------------------------------


def ask_step(t: Twins) -> None:
    w, rng = t.w, t.rng
    t.ask(kind="step", to=rng.choice([rng.randint(0, w.steps), w.step + 1, w.step - 1, w.steps, *NOISE]))


def ask_perspective(t: Twins) -> None:
    t.ask(kind="perspective", to=t.perspective() if t.rng.random() < 0.9 else t.rng.choice(NOISE))


def ask_branch(t: Twins) -> None:
    """Play from here, in a sampled world, against any opponent offered (the seat: see the module docstring)."""
    rng, offer = t.rng, t.w.offers["branch"]
    if offer["reason"] is not None and t.at_home and t.w.steps and rng.random() < 0.8:
        t.ask(kind="step", to=rng.randrange(t.w.steps))  # the round is over at the step shown (or not yet over)
        offer = t.w.offers["branch"]
    seat = rng.choice((0, 1)) if t.case.live else t.case.seat
    offered = [o["id"] for o in offer["opponents"]]
    opponent = "hotseat" if rng.random() < 0.4 else rng.choice([*offered, "nobody"])
    # the real cards only where they are refused: a replay's screen may play them, by design (they are the teacher's)
    refused = "real" not in offer["worlds"] or offer["reason"] is not None
    world = "real" if refused and rng.random() < 0.1 else "sampled"
    t.ask(kind="branch", seat=seat, opponent=opponent, world=world)


def ask_move(t: Twins) -> None:
    """A move from the browser where the screen may make one (at home, one that keeps the twins twins), else
    the opponent's at home from Python, else a move the screen may not make (refused).
    """
    w, rng = t.w, t.rng
    if w.step < w.steps and w.branch_info is None and rng.random() < 0.7:
        t.ask(kind="step", to=w.steps)  # on to the latest step first, as "Last" does
    legal = w.table["legal_actions"]
    safe = t.safe_moves()
    if w.can_act and legal:
        choices = [a for a in legal if not t.at_home or A.from_dict(_action(a)) in safe]
        if choices:
            t.ask(kind="act", action=_action(rng.choice(choices)))
            return
    if safe and w.step == w.steps and t.w.game.to_move != t.case.seat:
        action = rng.choice(safe)
        t.python(lambda widget: widget.apply(action), f"apply {action}")
        return
    t.ask(kind="act", action={"type": "draw_pile"} if rng.random() < 0.5 else rng.choice(NOISE))


def _action(item: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in item.items() if k in ("type", "card", "cards")}


def ask_panels(t: Twins) -> None:
    rng = t.rng
    kind = rng.choice(("worlds", "graph", "resample", "playout", "review"))
    if kind in ("worlds", "graph"):
        seat = rng.choice((None, None, 0, 1, "spectator"))
        # the graph under the greedy model reads a posterior at every step: a second a replay, even at these budgets
        model = rng.choice((None, "random", "greedy") if kind == "worlds" else (None, "random"))
        t.ask(kind=kind, open=rng.random() < 0.7, seat=seat, model=model)
    elif kind == "review":
        t.ask(kind="review", open=rng.random() < 0.7)
    else:
        t.ask(kind=kind)


def ask_line(t: Twins) -> None:
    """Open a variation listed (or one not listed), at a step of it, or go back to the game."""
    w, rng = t.w, t.rng
    listed = [item["index"] for item in (w.variations or {}).get("list", [])]
    index = rng.choice([*listed, *listed, None, 0, 1, 2, 3, 7])
    t.ask(kind="line", variation=index, to=rng.choice([None, rng.randint(0, max(1, w.steps + 2))]))


def ask_edit(t: Twins) -> None:
    """The teacher's edits: of a variation, or a note (refused on every perspective but the teacher's)."""
    rng = t.rng
    kind = rng.choice(("line_edit", "note_add", "note_edit", "note_remove"))
    if kind == "line_edit":
        t.ask(kind=kind, variation=rng.randint(0, 3), how=rng.choice(("promote", "demote", "rename", "remove")),
              name=None)
    elif kind == "note_add":
        t.ask(kind=kind, step=t.w.step, text="Look here.", perspective=rng.choice((None, 0, 1)), question=None)
    elif kind == "note_edit":
        t.ask(kind=kind, index=0, text="Look again.", perspective=None, question=None)
    else:
        t.ask(kind=kind, index=0)


def ask_new_game(t: Twins) -> None:
    """The same deal again from the browser; a new deal from Python, from one seed for both twins (the
    browser's new deal draws fresh entropy: asked only where it is refused).
    """
    rng, offer = t.rng, t.w.offers["new_game"]
    if offer["reason"] is not None:
        t.ask(kind="new_game", deal=rng.choice([*DEALS, "shuffled"]))
        return
    if rng.random() < 0.8:  # a new round is dealt now and then: "Play from here" and the lines need the round over
        return
    if rng.random() < 0.5:
        t.ask(kind="new_game", deal="same")
        return
    seed = rng.getrandbits(40)
    t.twins = False
    t.python(lambda widget: widget.new_game(seed), f"new_game({seed})")


def ask_back(t: Twins) -> None:
    """Back from a branch or a variation (refused at home)."""
    t.ask(kind="back")


def ask_small(t: Twins) -> None:
    """Requests with little to say: the hotseat's reveal, autoplay, resume; a quiz's and practice's."""
    rng = t.rng
    kind = rng.choice(("reveal", "autoplay", "resume", "quiz_answer", "quiz_go", "practice_retry", "practice_show",
                       "practice_next"))
    fields = {field: rng.choice((0, 1, *NOISE)) for field in REQUESTS[kind].fields}
    if kind == "autoplay":
        fields = {"playing": rng.random() < 0.3, "speed": rng.choice((None, 2.0))}
    elif kind == "resume":
        fields = {"bot": "greedy"}
    t.ask(kind=kind, **fields)


ASKS: tuple[tuple[Callable[[Twins], None], int], ...] = (
    (ask_step, 10), (ask_perspective, 10), (ask_branch, 10), (ask_move, 30), (ask_panels, 6), (ask_line, 8),
    (ask_edit, 3), (ask_new_game, 4), (ask_back, 4), (ask_small, 10),
)
"""Each kind of request with its weight."""


def run(case: Case, seed: int) -> Twins:
    """REQUESTS_PER_RUN random requests on the twins of `case` from `seed`, compared after each."""
    t = Twins(case, seed)
    asks, weights = zip(*ASKS, strict=True)
    for _ in range(REQUESTS_PER_RUN):
        if t.w.cover is not None and t.rng.random() < 0.6:
            t.ask(kind="reveal")
        else:
            t.rng.choices(asks, weights)[0](t)
    return t


@pytest.fixture
def small_budgets(monkeypatch: pytest.MonkeyPatch) -> None:
    """The panels at small budgets: the graph at 8 worlds a point, the play-out at 16 worlds, the worlds panel's
    "same in every world" checked against 20 more, the greedy model's posterior at 24 particles. Their figures are
    compared, not judged: a leak shows at any budget (at the full ones the play-outs took three quarters of the time).
    """
    monkeypatch.setattr(whatif, "GRAPH_WORLDS", 8)
    monkeypatch.setattr(whatif, "SAME_WORLDS", 20)
    monkeypatch.setattr(whatif, "MODEL_PARTICLES", 24)
    monkeypatch.setattr(whatif, "playout", functools.partial(whatif.playout, n=16))


@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_twins_a_screen_shows_the_same_whatever_it_is_asked(case: Case, small_budgets: None) -> None:
    seen: set[str] = set()
    differed = 0
    for seed in range(SEEDS):
        t = run(case, seed)
        seen, differed = seen | t.seen, differed + t.differed
    # what the requests reached (seeded: the same every run); the twins' teacher's views differed at home each time
    assert differed >= 10 * SEEDS, differed
    assert {"branch hotseat", "revealed", "line", "moved"} <= seen, seen
    assert len({s for s in seen if s.startswith("branch ")}) >= 2, seen  # two people, and a bot
    assert not case.live or "new game" in seen, seen
