"""The widget's policy without Jupyter (`needle_widget.screen.session`): screens, entitlement,
acting, autoplay, the bot guard; and a random state machine of browser requests and
Python calls in every mode, checking that no perspective outside the screen's
entitlement is ever shown.
"""

from __future__ import annotations

import json
import logging
import random
import re
import subprocess
import sys
import time
from collections.abc import Callable
from typing import Any

import pytest
from test_secrecy import twin_decks

from needle_widget import Game, NeedleError, Replay, actions, bots, play_game
from needle_widget.engine.views import PERSPECTIVES
from needle_widget.screen.guard import BotError
from needle_widget.screen.session import MODES, SCREENS, Session, quote
from needle_widget.screen.synced import Synced

ALL = PERSPECTIVES
CARD = re.compile(r"[♣♦♥♠]|\b(10|[2-9AJQK])[CDHScdhs]\b")
"""A card in words or as a code: public reasons (act_reason, hidden_reason) name none."""
PUBLIC_PAUSE = re.compile(
    r"^\w+ \(Player [12]\) (raised \w+|returned a \w+, not an action|made an illegal move); the game is paused\.$"
)


def finished_game(seed: int = 5) -> Game:
    return play_game(bots.RandomBot(seed=1), bots.RandomBot(seed=2), seed=seed)


def finished_replay(seed: int = 5) -> Replay:
    return finished_game(seed).replay()


def pick_needles(session: Session) -> None:
    """Both needle picks from Python: the first legal card for each player."""
    for _ in range(2):
        session.apply(session.game_at(session.steps).legal_actions()[0])


class Raising:
    """A bot that raises; its message names its hand (which must never reach a screen)."""

    name = "raising"

    def choose(self, view: Any, legal: list) -> Any:
        raise RuntimeError(f"I hold {[c.code for c in view.hand]}")


class Junk:
    name = "junk"

    def choose(self, view: Any, legal: list) -> Any:
        return "draw"


class Cheat:
    """Returns an action naming one of its own cards, illegal in every phase but discard."""

    name = "cheat"

    def choose(self, view: Any, legal: list) -> Any:
        return actions.ChooseNeedle(view.hand[0])


class BadExplain:
    name = "bad explain"

    def __init__(self, explain: Callable[[], Any]) -> None:
        self.explain = explain

    def choose(self, view: Any, legal: list) -> Any:
        return legal[0]


def boom() -> str:
    raise KeyError("7H")


# ---- construction ---------------------------------------------------------------------


@pytest.mark.parametrize("kwargs, message", [
    ({}, "exactly one of game= or replay="),
    ({"game": "x"}, "must be a needle_widget Game"),
    ({"replay": "x"}, "must be a needle_widget Replay"),
    ({"game": Game(seed=1), "mode": "chess"}, "mode 'chess'"),
    ({"game": Game(seed=1), "mode": "replay"}, "replay mode needs replay="),
    ({"replay": finished_replay(), "mode": "live"}, "live mode needs game="),
    ({"game": Game(seed=1), "perspective": 7}, "Unknown perspective"),
    ({"game": Game(seed=1), "mode": "play"}, "screen 'spectator' is not one of 0, 1 in play mode"),
    ({"game": Game(seed=1), "mode": "play", "screen": 1, "bots": {1: bots.RandomBot()}}, "take_seat"),
    ({"game": Game(seed=1), "mode": "hotseat", "screen": 0}, "screen 0 is not one of 'shared'"),
    ({"game": Game(seed=1), "mode": "watch", "screen": 0}, "in watch mode"),
    ({"game": Game(seed=1), "screen": "shared"}, "in live mode"),
    ({"game": Game(seed=1), "bots": {2: bots.RandomBot()}}, "player must be 0"),
    ({"game": Game(seed=1), "bots": {0: "greedy"}}, "is not a bot"),
    ({"game": Game(seed=1), "speed": 0}, "speed must be between 0.1 and 20"),
])
def test_bad_arguments_are_refused(kwargs: dict, message: str) -> None:
    with pytest.raises(NeedleError, match=re.escape(message)):
        Session(**kwargs)


@pytest.mark.parametrize("mode, perspective, screen", [
    ("live", 0, 0), ("live", "teacher", "teacher"), ("live", "spectator", "spectator"), ("play", 1, 1),
    ("hotseat", "spectator", "shared"), ("watch", 0, "teacher"), ("replay", 1, "teacher"),
])
def test_the_default_screen(mode: str, perspective: Any, screen: Any) -> None:
    kwargs: dict[str, Any] = {"replay": finished_replay()} if mode == "replay" else {"game": Game(seed=2)}
    assert Session(perspective=perspective, mode=mode, **kwargs).screen == screen


def test_the_setup_helpers() -> None:
    from needle_widget.screen.guard import play_bots
    from needle_widget.screen.session import new_or_given

    game = Game(seed=1)
    seated = play_bots(game, None, 1)
    assert list(seated) == [0] and isinstance(seated[0], bots.GreedyBot) and game.players == ("greedy", "human")
    with pytest.raises(NeedleError, match="you must be 0"):
        play_bots(game, None, True)
    assert new_or_given(game, None, None) is game
    with pytest.raises(NeedleError, match="must be a needle_widget Game, not str"):
        new_or_given("game", None, None)  # type: ignore[arg-type]
    s = Session(replay=finished_replay())
    s.set_speed(8)
    assert s.speed == 8.0


# ---- entitlement ------------------------------------------------------------------------


@pytest.mark.parametrize("screen, allow_peek, expected", [
    (0, False, (0, "spectator")), (1, False, (1, "spectator")), ("spectator", False, ALL),
    ("teacher", False, ALL), (0, True, ALL),
])
def test_a_live_screen_sees_its_entitlement(screen: Any, allow_peek: bool, expected: tuple) -> None:
    assert Session(Game(seed=1), screen, allow_peek=allow_peek).entitled() == expected


def test_a_players_screen_keeps_its_entitlement_after_python_moves() -> None:
    """Issue 8 hole 2: the browser switched to spectator, then Python moved; all four opened."""
    s = Session(Game(seed=3), perspective=0)
    s.request_perspective("spectator")
    pick_needles(s)
    s.apply(actions.DrawPile())
    assert s.entitled() == (0, "spectator") and s.perspective == "spectator"
    with pytest.raises(NeedleError, match="perspective 'teacher' now: allowed are Player 1, Spectator"):
        s.request_perspective("teacher")
    with pytest.raises(NeedleError, match="Cannot switch to perspective 1"):
        s.request_perspective(1)


def test_a_python_peek_does_not_widen_what_the_browser_may_open() -> None:
    s = Session(Game(seed=3), perspective=0)
    s.show("teacher")
    assert s.perspective == "teacher" and s.entitled() == (0, "spectator")
    with pytest.raises(NeedleError):
        s.request_perspective(1)
    assert not s.can_act(), "a peek grants no moves"
    s.request_perspective(0)
    assert s.can_act()


def test_set_screen_changes_the_entitlement_and_leaves_a_perspective_it_may_not_see() -> None:
    s = Session(Game(seed=3), perspective="teacher")
    s.request_perspective(1)
    s.set_screen(0)
    assert (s.screen, s.entitled(), s.perspective) == (0, (0, "spectator"), 0)
    s.request_perspective("spectator")
    s.set_screen(1)
    assert (s.entitled(), s.perspective) == ((1, "spectator"), "spectator")
    with pytest.raises(NeedleError, match="screen 'shared' is not one of 0, 1, 'spectator', 'teacher' in live mode"):
        s.set_screen("shared")
    assert s.screen == 1


def test_play_mode_screen_moves_only_to_a_seat_without_a_bot() -> None:
    s = Session(Game(seed=3), perspective=0, mode="play", bots={1: bots.RandomBot(seed=1)})
    with pytest.raises(NeedleError, match=r"Player 2 is played by a bot; take_seat\(1\) first"):
        s.set_screen(1)
    s.take_seat(1)
    s.set_screen(1)
    assert s.names() == ["human", "You"] and s.entitled() == (1, "spectator")


@pytest.mark.parametrize("reveal_at_end, expected", [(True, ALL), (False, (0, "spectator"))])
def test_what_a_player_sees_once_the_round_is_over(reveal_at_end: bool, expected: tuple) -> None:
    game = finished_game()
    s = Session(game, perspective=0, reveal_at_end=reveal_at_end)
    assert s.entitled() == expected
    s.reveal_at_end = True
    assert s.entitled() == ALL
    s.request_perspective("teacher")
    s.reveal_at_end = False
    assert s.perspective == 0 and s.reveal_at_end is False


def test_allow_peek_can_be_withdrawn() -> None:
    s = Session(Game(seed=3), perspective=1, allow_peek=True)
    s.request_perspective("teacher")
    s.allow_peek = False
    assert (s.allow_peek, s.perspective, s.entitled()) == (False, 1, (1, "spectator"))


@pytest.mark.parametrize("mode", ["watch", "replay"])
def test_watch_and_replay_open_every_perspective(mode: str) -> None:
    kwargs: dict[str, Any] = {"replay": finished_replay()} if mode == "replay" else {"game": Game(seed=2)}
    s = Session(mode=mode, reveal_at_end=False, **kwargs)
    assert s.entitled() == ALL and not s.can_act()


# ---- hotseat --------------------------------------------------------------------------


def test_hotseat_covers_reveals_and_limits_to_the_revealed_seat() -> None:
    s = Session(Game(seed=5), mode="hotseat")
    assert s.cover == {"player": 0, "text": "Pass to Player 1"} and s.entitled() == ("spectator",)
    with pytest.raises(NeedleError, match="not yours"):
        s.request_act({"type": "choose_needle", "card": "AS"})
    s.request_reveal()
    assert (s.cover, s.perspective, s.entitled(), s.can_act()) == (None, 0, (0, "spectator"), True)
    with pytest.raises(NeedleError, match="Nothing to reveal"):
        s.request_reveal()
    s.request_perspective("spectator")
    assert not s.can_act(), "the seat acts from its own perspective"
    s.request_perspective(0)
    s.request_act(s.game_at(s.steps).legal_actions()[0].to_dict())
    assert s.cover == {"player": 1, "text": "Pass to Player 2"} and s.perspective == "spectator"
    s.request_reveal()
    assert s.entitled() == (1, "spectator")


def test_hotseat_stays_open_for_the_player_who_keeps_the_move() -> None:
    s = Session(Game(seed=5), mode="hotseat")
    pick_needles(s)
    s.request_reveal()
    s.request_perspective("spectator")
    s.apply(actions.DrawPile())
    assert s.cover is None and s.entitled() == (s.game_at(s.steps).to_move, "spectator")


def test_hotseat_of_a_finished_game_is_not_covered() -> None:
    s = Session(finished_game(), mode="hotseat")
    assert s.cover is None and s.entitled() == ALL


# ---- acting ------------------------------------------------------------------------------


def test_who_may_act_in_live_mode() -> None:
    s = Session(Game(seed=2), perspective=1)
    assert not s.can_act()
    with pytest.raises(NeedleError, match="it is Player 1's move, not yours"):
        s.request_act({"type": "choose_needle", "card": "AS"})
    teacher = Session(Game(seed=2), perspective="teacher")
    assert teacher.can_act()
    teacher.request_perspective("spectator")
    assert not teacher.can_act()


def test_acting_is_refused_in_the_past_at_the_end_and_in_watch_mode() -> None:
    s = Session(Game(seed=2), perspective="teacher")
    pick_needles(s)
    s.request_step(1)
    with pytest.raises(NeedleError, match=r"go to the latest step \(2\)"):
        s.request_act({"type": "draw_pile"})
    done = Session(finished_game(), perspective="teacher")
    with pytest.raises(NeedleError, match="the round is over"):
        done.request_act({"type": "draw_pile"})
    watch = Session(Game(seed=2), mode="watch", bots={0: bots.RandomBot(), 1: bots.RandomBot()})
    with pytest.raises(NeedleError, match="nobody plays from the browser in watch mode"):
        watch.request_act({"type": "draw_pile"})


def test_nobody_acts_from_the_browser_for_a_bots_seat() -> None:
    s = Session(Game(seed=2), perspective="teacher", bots={0: bots.RandomBot(seed=1)})
    assert not s.can_act()


def test_python_calls_need_a_live_game_and_good_arguments() -> None:
    s = Session(replay=finished_replay())
    for call in (lambda: s.apply(actions.DrawPile()), lambda: s.advance(1), lambda: s.take_seat(0),
                 lambda: s.replace_bot(0, bots.RandomBot())):
        with pytest.raises(NeedleError, match="no live game"):
            call()
    live = Session(Game(seed=1), perspective="teacher")
    with pytest.raises(NeedleError, match="advance needs a number of actions from 0 to 10000, not -1"):
        live.advance(-1)
    with pytest.raises(NeedleError, match="Cannot go to step 3: steps run from 0 to 0"):
        live.go(3)
    with pytest.raises(NeedleError, match="Player 1 has no bot"):
        live.take_seat(0)
    with pytest.raises(NeedleError, match="is not a bot"):
        live.replace_bot(0, object())


# ---- autoplay ----------------------------------------------------------------------------------


@pytest.mark.parametrize("mode", ["play", "hotseat"])
def test_autoplay_is_refused_where_the_front_end_hides_it(mode: str) -> None:
    s = Session(Game(seed=1), perspective=0, mode=mode, bots={1: bots.RandomBot()} if mode == "play" else None)
    with pytest.raises(NeedleError, match=f"Autoplay is not available in {mode} mode"):
        s.request_autoplay(True, 2)
    with pytest.raises(NeedleError, match=f"Autoplay is not available in {mode} mode"):
        s.set_playing(True)
    assert not s.playing and s.speed == 1.0
    s.set_playing(False)


def test_autoplay_in_replay_mode_steps_to_the_end_and_stops() -> None:
    replay = finished_replay()
    s = Session(replay=replay)
    s.go(len(replay) - 2)
    s.request_autoplay(True, 4)
    assert (s.timer(), s.speed) == ("autoplay", 4.0)
    for _ in range(3):
        s.tick()
    assert s.step == len(replay) and not s.playing and s.timer() is None


def test_autoplay_in_watch_mode_lets_the_bots_play() -> None:
    s = Session(Game(seed=4), mode="watch", bots={0: bots.RandomBot(seed=1), 1: bots.RandomBot(seed=2)})
    s.set_playing(True)
    for _ in range(5):
        s.tick()
    assert s.step == s.steps == 5 and s.playing
    s.request_autoplay(False)
    assert not s.playing


def test_autoplay_in_live_mode_catches_up_then_stops() -> None:
    s = Session(Game(seed=4), perspective="teacher")
    pick_needles(s)
    s.go(0)
    s.set_playing(True)
    for _ in range(3):
        s.tick()
    assert s.step == 2 and not s.playing


def test_bad_autoplay_requests_change_nothing() -> None:
    s = Session(replay=finished_replay())
    for playing, speed, message in [("yes", None, "playing: true or false, not 'yes'"), (True, 0, "speed"),
                                    (True, True, "speed")]:
        with pytest.raises(NeedleError, match=message):
            s.request_autoplay(playing, speed)
        assert not s.playing and s.speed == 1.0


# ---- bots: one guard for every move ---------------------------------------------------------


def test_play_mode_bots_answer_and_explain_to_their_seat_and_the_teacher_only() -> None:
    s = Session(Game(seed=3), perspective=0, mode="play", bots={1: bots.GreedyBot()})
    s.apply(actions.ChooseNeedle(next(c for c in s.game_at(0).draw_pile)))
    assert s.busy and s.timer() == "bot"
    s.run_bots()
    assert not s.busy and s.steps == 2
    assert s.reasons(0) == [] and s.reasons("spectator") == []
    assert [r["player"] for r in s.reasons(1)] == [1] == [r["player"] for r in s.reasons("teacher")]


@pytest.mark.parametrize("bot, problem, public", [
    (Raising(), "raised", "Raising (Player 2) raised RuntimeError; the game is paused."),
    (Junk(), "not an action", "Junk (Player 2) returned a str, not an action; the game is paused."),
    (Cheat(), "illegal", "Cheat (Player 2) made an illegal move; the game is paused."),
])
def test_a_failing_bot_pauses_the_game_without_showing_its_cards(bot: Any, problem: str, public: str,
                                                                 caplog: pytest.LogCaptureFixture) -> None:
    s = Session(Game(seed=3), perspective=0, mode="play", bots={1: bot})
    hand = [c.code for c in s.game_at(0).hand(1)]
    s.apply(actions.ChooseNeedle(s.game_at(0).draw_pile[0]))
    with caplog.at_level(logging.ERROR, logger="needle_widget"):
        s.run_bots()
    error = s.bot_error
    assert isinstance(error, BotError) and (error.player, error.problem, error.public) == (1, problem, public)
    assert s.paused == {"player": 1, "text": public, "bots": ["greedy", "odds", "random", "search"]}
    assert PUBLIC_PAUSE.match(public) and not any(code in public for code in hand)
    assert s.steps == 1 and not s.busy and s.timer() is None and s.bot_to_move() is None
    assert "Legal were: Choose needle" in str(error) and "replace_bot(1, bot) or take_seat(1)" in str(error)
    assert caplog.records[-1].name == "needle_widget" and str(error) in caplog.text
    if problem != "not an action":
        assert error.cause is not None and error.__cause__ is error.cause
    assert json.dumps(Synced(s).state()["paused"]) == json.dumps(s.paused)


def test_replace_bot_goes_on_and_take_seat_hands_the_seat_to_people() -> None:
    s = Session(Game(seed=3), perspective=0, mode="play", bots={1: Raising()})
    s.apply(actions.ChooseNeedle(s.game_at(0).draw_pile[0]))
    s.run_bots()
    with pytest.raises(NeedleError, match="Player 1 is this screen's seat"):
        s.replace_bot(0, bots.RandomBot())
    s.replace_bot(1, bots.RandomBot(seed=1))
    assert s.bot_error is None and s.names() == ["You", "random"] and s.busy
    s.run_bots()
    assert s.steps == 2
    s.take_seat(1)
    assert s.names() == ["You", "human"] and s.bot_to_move() is None


def test_resume_from_the_browser_with_a_built_in_bot() -> None:
    s = Session(Game(seed=3), perspective=0, mode="play", bots={1: Junk()})
    with pytest.raises(NeedleError, match="Nothing to resume"):
        s.request_resume("greedy")
    s.apply(actions.ChooseNeedle(s.game_at(0).draw_pile[0]))
    s.run_bots()
    for bad in ("wizard", None, "x" * 1_000_000):
        with pytest.raises(NeedleError, match="the bots are greedy, odds, random") as caught:
            s.request_resume(bad)
        assert len(str(caught.value)) < 200 and s.bot_error is not None
    s.request_resume("odds")
    assert s.bot_error is None and s.names() == ["You", "odds"]


def test_a_pause_stops_watch_autoplay_and_a_replacement_resumes_it() -> None:
    s = Session(Game(seed=4), mode="watch", bots={0: bots.RandomBot(seed=1), 1: Raising()})
    s.set_playing(True)
    s.tick()
    s.tick()
    assert not s.playing and s.bot_error is not None and s.steps == 1
    s.take_seat(0)  # another seat: the pause stays
    assert s.bot_error is not None and not s.playing
    s.replace_bot(1, bots.RandomBot(seed=2))
    assert s.playing and s.bot_error is None
    s.tick()
    assert s.steps == 2


def test_advance_stops_at_a_failing_bot() -> None:
    s = Session(Game(seed=4), mode="watch", bots={0: bots.RandomBot(seed=1), 1: Cheat()})
    s.advance(10)
    assert s.steps == 1 and s.bot_error.problem == "illegal"
    s.advance(10)
    assert s.steps == 1
    s.apply(actions.ChooseNeedle(s.game_at(1).draw_pile[0]))  # Python may move for the paused seat
    assert s.steps == 2 and s.bot_error is not None


@pytest.mark.parametrize("explain, text", [
    (boom, "(explain() failed: KeyError)"),
    (lambda: 42, "(explain() failed: TypeError)"),
    (lambda: "x" * 10_000, "x" * 499 + "…"),
])
def test_a_bad_explanation_is_named_not_raised(explain: Callable, text: str, caplog: pytest.LogCaptureFixture) -> None:
    s = Session(Game(seed=4), mode="watch", bots={0: BadExplain(explain), 1: bots.RandomBot(seed=2)})
    s.advance(1)
    assert s.steps == 1 and s.bot_error is None
    assert s.reasons("teacher")[0]["text"] == text


def test_a_bot_without_explain_is_explained_by_its_action_to_its_own_seat() -> None:
    class Plain:
        def choose(self, view: Any, legal: list) -> Any:
            return legal[0]

    s = Session(Game(seed=4), mode="watch", bots={0: Plain(), 1: Plain()})
    s.advance(2)
    assert s.names() == ["human", "human"]  # named by seat_bots only
    assert s.reasons(0) == [{"player": 0, "name": "Plain", "text": str(s.game_at(2).history[0].action), "step": 1,
                            "thought": None}]


def test_twin_games_give_identical_synced_state_when_a_bot_fails() -> None:
    """The failing bot's move names a card that differs between the twins; the human
    (and the spectator) must get byte-identical state.
    """
    for hidden_owner in (0, 1):
        watcher = 1 - hidden_owner
        deck_a, deck_b, x, y = twin_decks(11, hidden_owner)

        class Swapped:
            name = "swapped"

            def choose(self, view: Any, legal: list, swapped: tuple = (x, y)) -> Any:
                return actions.Discard(next(c for c in view.hand if c in swapped))

        for bot in (Raising(), Swapped()):
            states = []
            for deck in (deck_a, deck_b):
                s = Session(Game(seed=11, deck=deck), perspective=watcher, mode="play", bots={hidden_owner: bot})
                if watcher == 0:
                    s.apply(actions.ChooseNeedle(next(c for c in deck[14:] if c not in (x, y))))
                s.run_bots()
                assert s.bot_error is not None
                out = []
                for p in (watcher, "spectator"):
                    s.request_perspective(p)
                    out.append(json.dumps(Synced(s).state()))
                states.append(out)
            assert states[0] == states[1], (hidden_owner, type(bot).__name__)


# ---- bad input: clear, bounded, nothing changed -------------------------------------------------


@pytest.mark.parametrize("request_", [
    ("request_act", {"type": "discard", "card": "x" * 1_000_000}),
    ("request_act", {"type": "x" * 1_000_000}),
    ("request_step", "9" * 1_000_000),
    ("request_step", list(range(200_000))),
    ("request_perspective", "t" * 1_000_000),
    ("request_autoplay", "y" * 1_000_000),
    ("request_resume", "g" * 1_000_000),
])
def test_huge_requests_get_short_errors_quickly(request_: tuple) -> None:
    s = Session(Game(seed=2), perspective=0)
    method, arg = request_
    before = (s.perspective, s.step, s.steps, s.playing, s.speed)
    start = time.perf_counter()
    with pytest.raises(NeedleError) as caught:
        getattr(s, method)(arg)
    assert time.perf_counter() - start < 1.0
    assert (s.perspective, s.step, s.steps, s.playing, s.speed) == before
    text = str(caught.value)
    assert text and (len(text) < 500 or method == "request_act")  # the widget cuts every shown error


def test_quote_is_short_for_anything() -> None:
    assert "..." in quote("a" * 10**6) and len(quote("a" * 10**6)) < 100
    assert len(quote([[[[[[[1]]]]]]])) < 30 and quote(3) == "3"


def test_the_session_imports_no_jupyter() -> None:
    code = ("import sys, needle_widget.screen.session, needle_widget.screen.synced, needle_widget.screen.guard; "
            "print(sorted(m for m in ('anywidget', 'ipywidgets', 'traitlets', 'IPython') if m in sys.modules))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]"


# ---- the state machine: random browser requests and Python calls in every mode -----------------


class Flaky:
    """Plays at random, and now and then fails: raises, returns junk or an illegal move, or explains badly."""

    name = "flaky"

    def __init__(self, seed: int, failing: float) -> None:
        self.rng, self.failing = random.Random(seed), failing

    def choose(self, view: Any, legal: list) -> Any:
        r = self.rng.random()
        if r < self.failing:
            raise ValueError(f"my hand is {view.hand}")
        if r < 2 * self.failing:
            return {"type": "draw_pile"}
        if r < 3 * self.failing:
            return actions.ChooseNeedle(view.hand[0])
        return self.rng.choice(legal)

    def explain(self) -> str:
        if self.rng.random() < 0.05:
            raise RuntimeError("no words")
        return "I picked at random."


REPLAYS = [finished_replay(seed) for seed in (5, 6, 7)]


class Model:
    """An independent statement of the policy: what a screen may see, and hotseat's seat."""

    def __init__(self, mode: str, screen: Any, allow_peek: bool, reveal_at_end: bool, game: Game | None) -> None:
        self.mode, self.screen, self.allow_peek, self.reveal_at_end = mode, screen, allow_peek, reveal_at_end
        self.seat: int | None = None
        self.cover: int | None = None
        self.peek: Any = None
        self.moves = len(game) if game is not None else 0
        if mode == "hotseat" and game.phase != "over":
            self.cover = game.to_move

    def entitled(self, game: Game | None) -> tuple:
        if self.mode in ("watch", "replay") or self.allow_peek or self.screen in ("spectator", "teacher"):
            return ALL
        if game.phase == "over" and self.reveal_at_end:
            return ALL
        seat = self.seat if self.mode == "hotseat" else self.screen
        return (seat, "spectator") if seat in (0, 1) else ("spectator",)

    def after(self, game: Game | None) -> None:
        """After each operation: hotseat covers when the move passed to the other seat, and the cover
        goes once the round is over (issue 29: it hid the review).
        """
        if game is None or len(game) == self.moves:
            return
        self.moves = len(game)
        if self.mode == "hotseat" and game.phase == "over":
            self.cover = None
        elif self.mode == "hotseat" and self.seat != game.to_move:
            self.seat, self.cover = None, game.to_move


class Driver:
    """Random operations on one session, checked against `Model` after each."""

    def __init__(self, seed: int) -> None:
        rng = self.rng = random.Random(seed)
        self.seed = seed
        # quiz and practice: tests/test_quiz_widget.py, tests/test_practice_widget.py
        mode = rng.choice([m for m in MODES if m not in ("quiz", "practice")])
        allow_peek, reveal_at_end = rng.random() < 0.1, rng.random() < 0.5
        game = replay = None
        seated: dict[int, Any] = {}
        if mode == "replay":
            replay = rng.choice(REPLAYS)
        else:
            game = Game(seed=rng.randrange(10**6))
            if rng.random() < 0.15:  # start near the end sometimes
                for _ in range(rng.randrange(60)):
                    if game.phase != "over":
                        game.apply(rng.choice(game.legal_actions()))
        if mode == "play":
            you = rng.choice((0, 1))
            seated = {1 - you: self.bot()}
            screen, perspective = you, you
        elif mode == "watch":
            seated = {0: self.bot(), 1: self.bot()}
            screen, perspective = None, rng.choice(ALL)
        elif mode == "live":
            screen = rng.choice(SCREENS["live"])
            perspective, screen = (screen, None) if rng.random() < 0.5 else (screen, screen)
        else:
            screen, perspective = None, rng.choice(ALL)
        self.open(game=game, replay=replay, mode=mode, perspective=perspective, screen=screen, bots=seated,
                  allow_peek=allow_peek, reveal_at_end=reveal_at_end)
        default = {"live": perspective, "play": perspective, "hotseat": "shared"}.get(mode, "teacher")
        self.model = Model(mode, screen if screen is not None else default, allow_peek, reveal_at_end, self.live())
        self.mode = mode
        self.log: list[str] = []

    def bot(self) -> Any:
        r = self.rng.random()
        if r < 0.5:
            return bots.RandomBot(seed=self.rng.randrange(100))
        return Flaky(self.rng.randrange(100), failing=self.rng.choice((0.01, 0.05, 0.2)))

    # -- the backend: a Session here; the widget's test drives a NeedleWidget instead --

    def open(self, **kwargs: Any) -> None:
        self.s = Session(**kwargs)

    def live(self) -> Game | None:
        return self.s.whole() if self.s.live else None

    def now(self) -> tuple[int, Any]:
        """(steps, the perspective shown)."""
        return self.s.steps, self.s.perspective

    def browser(self, method: str, *args: Any) -> bool:
        """A browser request; True if it was accepted."""
        try:
            getattr(self.s, f"request_{method}")(*args)
            return True
        except NeedleError:
            return False

    def python(self, method: str, *args: Any) -> bool:
        try:
            getattr(self.s, method)(*args)
        except NeedleError:
            return False
        return True

    def timer(self) -> None:
        """What the widget's timer does: play-mode bots (at once, or one move), or an autoplay tick."""
        wait = self.s.timer()
        if wait == "bot" and self.rng.random() < 0.5:
            self.s.run_bots()
        elif wait is not None:
            self.s.tick()

    def shown(self) -> tuple[Any, tuple, dict | None]:
        """(perspective shown, perspectives offered, the full synced state when it is checked)."""
        full = Synced(self.s).state() if self.rng.random() < 0.04 else None
        return self.s.perspective, self.s.entitled(), full

    def check_state(self, entitled: tuple, full: dict | None) -> None:
        pass

    # -- the operations --

    def step(self) -> None:
        rng, m = self.rng, self.model
        game = self.live()
        steps, shown = self.now()
        entitled = m.entitled(game)
        r = rng.random()
        if r < 0.22:
            target: Any = rng.choice(ALL + ("umpire", True, 2, None))
            ok = self.browser("perspective", target)
            self.log.append(f"browser perspective {target!r} -> {ok}")
            assert ok == (type(target) in (int, str) and target in entitled), self.log
        elif r < 0.34:
            to = rng.choice([rng.randrange(steps + 1), -1, steps + 1, "1"])
            self.log.append(f"browser step {to!r} -> {self.browser('step', to)}")
        elif r < 0.52:
            raw: Any = {"type": "draw_pile"}
            if game is not None and game.phase != "over" and rng.random() < 0.9:
                raw = rng.choice(game.legal_actions()).to_dict()
            seat = game.to_move if game is not None else None
            ok = self.browser("act", raw)
            self.log.append(f"browser act {raw} -> {ok}")
            if ok:  # only for a seat this screen may see, from an entitled perspective
                assert entitled == ALL or seat in entitled, self.log
                assert shown in entitled and self.mode in ("live", "play", "hotseat"), self.log
        elif r < 0.57:
            covered = m.cover
            ok = self.browser("reveal")
            self.log.append(f"browser reveal -> {ok}")
            assert ok == (covered is not None), self.log
            if ok:
                m.seat, m.cover = covered, None
        elif r < 0.62:
            playing = rng.random() < 0.7
            ok = self.browser("autoplay", playing, rng.choice((None, 2, 8)))
            self.log.append(f"browser autoplay {playing} -> {ok}")
            assert ok == (self.mode in ("watch", "replay", "live")), self.log
        elif r < 0.65:
            self.log.append(f"browser resume -> {self.browser('resume', rng.choice(('random', 'greedy', 'wizard')))}")
        elif r < 0.72 and game is not None and game.phase != "over":
            action = rng.choice(game.legal_actions())
            self.log.append(f"python apply {action} -> {self.python('apply', action)}")
        elif r < 0.76:
            self.log.append(f"python advance -> {self.python('advance', rng.randrange(4))}")
        elif r < 0.80:
            self.log.append(f"python go -> {self.python('go', rng.randrange(steps + 1))}")
        elif r < 0.84:
            target = rng.choice(ALL)
            self.python("show", target)
            m.peek = target if target not in entitled else None
            self.log.append(f"python show {target!r}")
        elif r < 0.87:
            screen = rng.choice(SCREENS[self.mode] + (0, "teacher"))
            ok = self.python("set_screen", screen)
            self.log.append(f"python set_screen {screen!r} -> {ok}")
            if ok:
                m.screen, m.peek = screen, None
        elif r < 0.89:
            m.allow_peek = rng.random() < 0.3
            self.python("__setattr__", "allow_peek", m.allow_peek)
            m.peek = None
            self.log.append(f"python allow_peek {m.allow_peek}")
        elif r < 0.91:
            m.reveal_at_end = rng.random() < 0.5
            self.python("__setattr__", "reveal_at_end", m.reveal_at_end)
            m.peek = None
            self.log.append(f"python reveal_at_end {m.reveal_at_end}")
        elif r < 0.94 and self.mode in ("play", "watch"):
            player = rng.choice((0, 1))
            if rng.random() < 0.6:
                ok = self.python("replace_bot", player, self.bot())
            else:
                ok = self.python("take_seat", player)
            self.log.append(f"python seat {player} -> {ok}")
        else:
            self.timer()
            self.log.append("timer")
        m.after(self.live())
        self.check()

    def check(self) -> None:
        m = self.model
        game = self.live()
        entitled = m.entitled(game)
        shown, offered, full = self.shown()
        assert offered == entitled, self.log
        assert shown in entitled or shown == m.peek, self.log
        if shown in entitled:
            m.peek = None
        if self.mode == "hotseat":
            cover = self.cover()
            assert cover == (None if m.cover is None else {"player": m.cover, "text": f"Pass to Player {m.cover + 1}"})
            if m.cover is not None and entitled != ALL:  # (peeking or the round over: all may open)
                assert shown in ("spectator", m.peek), self.log
        self.check_state(entitled, full)

    def cover(self) -> dict | None:
        return self.s.cover


def check_synced(state: dict, entitled: tuple, peek: Any) -> None:
    """Everything synced was built for the perspective shown, and it was entitled (or Python's peek)."""
    p = state["perspective"]
    assert p in entitled or p == peek
    assert state["table"]["perspective"] == p
    seen = set(entitled) | ({peek} if peek is not None else set())
    for seat, player in enumerate(state["table"]["players"]):
        if player["hand"] is not None:
            assert seat == p or p == "teacher"
            assert seat in seen or "teacher" in seen
    assert state["info"]["kind"] == ("teacher" if p == "teacher" else "player" if p in (0, 1) else "spectator")
    assert all(b["player"] == p or p == "teacher" for b in state["bots"])
    for near in state["nearby"].values():
        assert near["table"]["perspective"] == p
    if state["paused"] is not None:
        assert PUBLIC_PAUSE.match(state["paused"]["text"])
    assert state["can_act"] == (state["act_reason"] is None)
    for reason in (state["act_reason"], state["hidden_reason"]):
        assert reason is None or not CARD.search(reason), reason


class CheckedDriver(Driver):
    def check_state(self, entitled: tuple, full: dict | None) -> None:
        if full is not None:
            check_synced(full, entitled, self.model.peek)


SEQUENCES = 2000
OPERATIONS = 40


@pytest.mark.parametrize("chunk", range(10))
def test_no_screen_is_ever_shown_a_perspective_beyond_its_entitlement(chunk: int) -> None:
    """2,000 random sequences (10 chunks of 200) of browser requests, Python calls and timer ticks."""
    per = SEQUENCES // 10
    for seed in range(chunk * per, (chunk + 1) * per):
        driver = CheckedDriver(seed)
        driver.check()
        for _ in range(OPERATIONS):
            driver.step()


# ---- why the browser may not act, in public words ---------------------------------------------


def _act_reason_cases() -> list[tuple[str, Callable[[], Session], str | None]]:
    def past() -> Session:
        s = Session(Game(seed=2), perspective="teacher")
        pick_needles(s)
        s.request_step(1)
        return s

    def peek() -> Session:
        s = Session(Game(seed=3), perspective=0)
        s.show("teacher")
        return s

    def hotseat_revealed_then_spectator() -> Session:
        s = Session(Game(seed=5), mode="hotseat")
        s.request_reveal()
        s.request_perspective("spectator")
        return s

    def play_other_seat_human() -> Session:
        s = Session(Game(seed=3), perspective=1, mode="play", bots={0: bots.RandomBot(seed=1)})
        s.take_seat(0)
        return s

    return [
        ("replay", lambda: Session(replay=finished_replay()), "Nobody plays from the browser in replay mode"),
        ("watch", lambda: Session(Game(seed=2), mode="watch", bots={0: bots.RandomBot(), 1: bots.RandomBot()}),
         "Nobody plays from the browser in watch mode: the bots play"),
        ("past", past, "Go to the latest step (2) to play"),
        ("over", lambda: Session(finished_game(), perspective="teacher"), "The round is over"),
        ("bot", lambda: Session(Game(seed=2), perspective="teacher", bots={0: bots.RandomBot(seed=1)}),
         "It is Player 1's move: a bot plays that seat"),
        ("peek", peek, "This screen may not play as Teacher"),
        ("covered", lambda: Session(Game(seed=5), mode="hotseat"),
         "It is Player 1's move, not yours: pass to Player 1"),
        ("hotseat spectator", hotseat_revealed_then_spectator, "Switch to Player 1 to play"),
        ("live other seat", lambda: Session(Game(seed=2), perspective=1), "It is Player 1's move, not yours"),
        ("live spectator screen", lambda: Session(Game(seed=2), perspective="spectator"), "Switch to Player 1 to play"),
        ("play other seat", play_other_seat_human, "It is Player 1's move, not yours"),
        ("live teacher", lambda: Session(Game(seed=2), perspective="teacher"), None),
        ("live own seat", lambda: Session(Game(seed=2), perspective=0), None),
        ("play own seat", lambda: Session(Game(seed=3), perspective=0, mode="play", bots={1: bots.RandomBot()}), None),
    ]


@pytest.mark.parametrize("name, make, reason", _act_reason_cases(), ids=[c[0] for c in _act_reason_cases()])
def test_act_reason_says_why_and_request_act_refuses_with_it(name: str, make: Callable[[], Session],
                                                              reason: str | None) -> None:
    s = make()
    assert s.act_reason() == reason and s.can_act() == (reason is None)
    if reason is None:
        return
    steps = s.steps
    with pytest.raises(NeedleError) as refused:
        s.request_act({"type": "draw_pile"})
    assert str(refused.value) == f"Draw from pile not allowed: {reason[0].lower()}{reason[1:]}" and s.steps == steps


def test_hidden_reason_says_why_perspectives_are_closed() -> None:
    assert Session(Game(seed=1), perspective=0).hidden_reason() == "Hidden while the round is live"
    assert Session(Game(seed=1), perspective="teacher").hidden_reason() is None
    assert Session(finished_game(), perspective=0).hidden_reason() is None
    closed = Session(finished_game(), perspective=0, reveal_at_end=False)
    assert closed.hidden_reason() == "Hidden on this screen, even after the round"
