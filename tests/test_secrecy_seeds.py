"""No seed reaches a screen that is not a teacher's (issue 20).

A deal's seed gives every hidden card of the deal, and used to give every later deal too (New
game drew the next seeds from a generator seeded by the first). A player's screen that may open
the teacher's perspective once the round is over ("Play from here" with the real cards, then the
teacher's view of the branch) read "Branch from step k of seed S" in `branch_info`.

Here every mode a student's screen can be in is driven through the browser's requests (play,
live from a seat, hotseat, a replay and a spoiler-free review on a spectator's screen, a quiz, a
branch of each, New game with a new and the same deal), every perspective the screen may open is
shown, the panels are opened, and every message the widget sent, every synced state, every
`answer` and error text, and the HTML export of each perspective are scanned for every seed the
widget has used (each deal, a branch's game, a replay's) and the next ones the desk would draw.
Seeds are 63-bit, so their decimal (and hex) text cannot turn up by chance.
"""

from __future__ import annotations

import json
import random
import types
from collections.abc import Iterator
from typing import Any

import pytest
from test_widget import Recorder, send, state

from needle_widget import Game, NeedleWidget, Rules, bots, examples
from needle_widget.players.sim import play_game

SOURCE = random.Random("needle_widget tests: seeds")
SHORT = Rules(max_turns=6)
"""Short rounds: the graph of every step is computed at once (no event loop here)."""


def seed() -> int:
    return SOURCE.getrandbits(63) | 2**62


class Entropy:
    """The desk's fresh entropy, known to the test: what it gave and what it would give next."""

    def __init__(self) -> None:
        self.given: list[int] = []
        self.upcoming = [seed() for _ in range(4)]

    def randbits(self, _k: int) -> int:
        self.given.append(self.upcoming.pop(0))
        self.upcoming.append(seed())
        return self.given[-1]


@pytest.fixture
def entropy(monkeypatch: pytest.MonkeyPatch) -> Entropy:
    from needle_widget.screen import desk

    source = Entropy()
    monkeypatch.setattr(desk, "secrets", types.SimpleNamespace(randbits=source.randbits))
    return source


class Screen:
    """One widget driven as a browser would, keeping everything it was sent."""

    def __init__(self, widget: NeedleWidget) -> None:
        self.widget = widget
        self.recorder = Recorder(widget)
        self.texts: list[str] = [json.dumps(state(widget), ensure_ascii=False)]
        self.seeds: set[int] = set()
        self.graphed = False
        self.note_seeds()

    def note_seeds(self) -> None:
        w = self.widget
        self.seeds |= set(w.deals) | {w.replay.seed, w.game.seed}
        self.seeds |= {w._desk.home.full_record().seed}  # the home's record, while a branch is shown

    def ask(self, **request: Any) -> None:
        send(self.widget, **request, id=len(self.texts) % 1000)
        self.note_seeds()
        self.texts.append(json.dumps(state(self.widget), ensure_ascii=False))

    def python(self, change: Any) -> None:
        change()
        self.note_seeds()
        self.texts.append(json.dumps(state(self.widget), ensure_ascii=False))

    def sent(self) -> Iterator[str]:
        yield from self.texts
        for message in self.recorder.messages:
            yield json.dumps(message, ensure_ascii=False, default=str)

    def play_round(self) -> None:
        """Play the shown live round to its end: this screen acts when it may, Python moves otherwise."""
        w = self.widget
        for _ in range(2000):
            game = w.game
            if game.is_over:
                return
            if w.cover is not None:
                self.ask(kind="reveal")
            elif w.can_act:
                legal = w.table["legal_actions"]
                choice = next((a for a in legal if a["type"] in ("end_sets", "draw_pile")), legal[-1])
                self.ask(kind="act", action={k: v for k, v in choice.items() if k in ("type", "card", "cards")})
            else:
                view = game.player_view(game.to_move)
                self.python(lambda g=game, v=view: w.apply(bots.GreedyBot().choose(v, g.legal_actions())))
        raise AssertionError("the round did not end")

    def look_everywhere(self) -> None:
        """Every perspective (the ones refused too) at a few steps, then the panels in the last one open."""
        w = self.widget
        for perspective in (0, 1, "spectator", "teacher"):
            self.ask(kind="perspective", to=perspective)
            for step in (0, max(0, w.steps - 2), w.steps):
                self.ask(kind="step", to=step)
        self.ask(kind="step", to=max(0, w.steps - 1))
        self.ask(kind="worlds", open=True)
        self.ask(kind="playout")
        if not self.graphed:  # once per test: a graph point costs a fifth of a second, and its figures are numbers
            self.graphed = True
            self.ask(kind="graph", open=True)
        self.ask(kind="worlds", open=False)
        self.ask(kind="graph", open=False)

    def branch_and_look(self) -> None:
        """Play from here (each world this screen may choose) to the end, look at it from every
        perspective it then may open, and go back.
        """
        w = self.widget
        for perspective in ("teacher", 0, 1, "spectator"):
            self.ask(kind="perspective", to=perspective)
        for world in ("real", "sampled"):
            if w.steps == 0:
                return
            self.ask(kind="step", to=max(0, w.steps - 4))
            offer = w.offers["branch"]
            if offer["reason"] is not None or world not in offer["worlds"]:
                continue
            for opponent in ("greedy", "hotseat"):
                self.ask(kind="branch", seat=offer["seats"][0], opponent=opponent, world=world)
                if w.branch_info is None:
                    continue
                self.play_round()
                self.look_everywhere()
                self.ask(kind="back")

    def new_games(self) -> None:
        for deal in ("same", "new", "new"):
            if self.widget.offers["new_game"]["reason"] is not None:
                return
            self.ask(kind="new_game", deal=deal)
            self.play_round()
            self.look_everywhere()


def leaks(screen: Screen, entropy: Entropy | None, exports: list[str] = ()) -> list[str]:
    seeds = set(screen.seeds)
    if entropy is not None:
        seeds |= set(entropy.given) | set(entropy.upcoming)
    assert all(s >= 2**40 for s in seeds), "every seed here is long: its text cannot turn up by chance"
    found = []
    for text in [*screen.sent(), *exports]:
        for s in seeds:
            for form in (str(s), f"{s:x}", f"{s:X}"):
                if form in text:
                    found.append(f"seed {s} as {form!r} in {text[max(0, text.find(form) - 80):text.find(form) + 40]!r}")
    return found


def exports_of(screen: Screen, perspectives: tuple = (0, 1, "spectator")) -> list[str]:
    record = screen.widget.replay
    if len(record) == 0:
        return []
    return [record.to_html(perspective=p, step=len(record) // 2, spoilers=spoilers)
            for p in perspectives for spoilers in (True, False)]


@pytest.mark.parametrize("reveal_at_end", [True, False])
@pytest.mark.parametrize("you", [0, 1])
def test_play_mode_a_student_s_screen_never_receives_a_seed(entropy: Entropy, reveal_at_end: bool, you: int) -> None:
    """The attack of issue 20: after the round, Play from here with the real cards, finish the
    branch, open the teacher's perspective; then New game, again and again.
    """
    screen = Screen(NeedleWidget.play(opponent=bots.GreedyBot(), seed=seed(), you=you, rules=SHORT,
                                      reveal_at_end=reveal_at_end))
    screen.play_round()
    screen.look_everywhere()
    screen.branch_and_look()
    screen.new_games()
    screen.branch_and_look()
    assert len(screen.widget.deals) == 4
    assert leaks(screen, entropy, exports_of(screen)) == []


@pytest.mark.parametrize("screen_of", [0, 1, "spectator"])
def test_live_mode_a_seat_s_or_the_spectator_s_screen_never_receives_a_seed(entropy: Entropy, screen_of: Any) -> None:
    screen = Screen(NeedleWidget(game=Game(rules=SHORT, seed=seed()), perspective=screen_of))
    screen.play_round()
    screen.look_everywhere()
    screen.branch_and_look()
    screen.new_games()
    assert leaks(screen, entropy, exports_of(screen)) == []


def test_hotseat_never_receives_a_seed(entropy: Entropy) -> None:
    screen = Screen(NeedleWidget.hotseat(seed=seed(), rules=SHORT))
    screen.play_round()
    screen.look_everywhere()
    screen.branch_and_look()
    screen.new_games()
    assert leaks(screen, entropy, exports_of(screen)) == []


def test_watch_on_a_spectator_s_screen_never_receives_a_seed(entropy: Entropy) -> None:
    widget = NeedleWidget.watch(bots.GreedyBot(), bots.RandomBot(seed=1), seed=seed(), rules=SHORT, autoplay=False,
                                screen="spectator", perspective="spectator")
    screen = Screen(widget)
    screen.python(lambda: widget.advance(10_000))
    screen.look_everywhere()
    screen.branch_and_look()
    screen.new_games()
    assert leaks(screen, entropy) == []


def _long_seeded_replay() -> Any:
    return play_game(bots.GreedyBot(), bots.GreedyBot(), seed=seed(), rules=Rules(max_turns=12)).replay()


@pytest.mark.parametrize("spoilers", [True, False])
def test_a_replay_on_a_spectator_s_screen_never_receives_a_seed(spoilers: bool) -> None:
    replay = _long_seeded_replay()
    widget = NeedleWidget.from_replay(replay, perspective=0, spoilers=spoilers, screen="spectator")
    screen = Screen(widget)
    for k in range(0, len(replay) + 1, 7):
        screen.python(lambda k=k: setattr(widget, "step", k))
    screen.look_everywhere()
    screen.branch_and_look()
    assert leaks(screen, None, exports_of(screen, (0, 1, "spectator", "teacher"))) == []


def test_a_quiz_never_receives_a_seed() -> None:
    replay = examples.load("detective")
    replay = type(replay).from_dict({**replay.to_dict(), "seed": seed()})
    widget = NeedleWidget.quiz(replay, seat=0, student="ann", n=20)
    screen = Screen(widget)
    answers = {"pile_or_steal": "steal", "next_draw": 0.25, "winner": 0.5}
    for index in range(len(widget.questions)):
        question = widget.quiz_state["question"]
        answer = answers.get(question["kind"]) or question["form"]["candidates"][:2]
        screen.ask(kind="quiz_answer", index=index, answer=answer)
        if index + 1 < len(widget.questions):
            screen.ask(kind="quiz_go", index=index + 1)
    screen.look_everywhere()
    screen.branch_and_look()
    assert leaks(screen, None) == []


def test_a_teacher_s_screen_still_names_the_seed_of_a_branch_in_the_teacher_s_perspective() -> None:
    replay = _long_seeded_replay()
    widget = NeedleWidget.from_replay(replay, perspective="teacher", step=5)
    widget.branch(seat=0, opponent="hotseat", world="real")
    widget.perspective = "teacher"
    assert widget.branch_info["text"] == f"Branch from step 5 of seed {replay.seed}: the real cards"
    widget.perspective = 0
    assert str(replay.seed) not in widget.branch_info["text"], "not in a player's perspective, even here"
