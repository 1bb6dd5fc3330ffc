"""NeedleWidget in Python: every mode, requests from the browser, errors, secrecy, sync."""

from __future__ import annotations

import asyncio
import json
import logging
from typing import Any

import pytest
from test_secrecy import play_twins

from needle_widget import Game, NeedleError, NeedleWidget, Replay, actions, bots, play_game
from needle_widget.engine.cards import DECK


def state(widget: NeedleWidget) -> dict[str, Any]:
    data = widget.get_state()
    for key in ("_esm", "_css", "_anywidget_id", "layout"):  # layout: the id of another model
        data.pop(key, None)
    return data


def send(widget: NeedleWidget, **request: Any) -> None:
    widget._on_message(widget, request, [])


class Recorder:
    """Stands in for the comm: every message the widget sends to its views."""

    def __init__(self, widget: NeedleWidget) -> None:
        self.messages: list[dict] = []
        widget.comm.send = self.send  # type: ignore[method-assign]

    def send(self, data: Any = None, buffers: Any = None, **_: Any) -> None:
        self.messages.append(data)

    def updates(self) -> list[dict]:
        return [m["state"] for m in self.messages if m.get("method") == "update"]


# ---- constructors and repr ------------------------------------------------------------


def test_repr_is_stable() -> None:
    assert repr(NeedleWidget(game=Game(seed=1), perspective=0)) == "NeedleWidget(mode='live', step=0/0, perspective=0)"
    replay = play_game(bots.GreedyBot(), bots.GreedyBot(), seed=2).replay()
    widget = NeedleWidget.from_replay(replay, perspective="teacher", step=12)
    assert repr(widget) == f"NeedleWidget(mode='replay', step=12/{len(replay)}, perspective='teacher')"


def test_play_mode_you_against_a_bot() -> None:
    widget = NeedleWidget.play(opponent=bots.GreedyBot(), seed=3)
    assert (widget.mode, widget.perspective, widget.seats) == ("play", 0, ["You", "greedy"])
    assert widget.perspectives == [0, "spectator"] and widget.can_act
    card = widget.table["legal_actions"][0]["card"]
    send(widget, kind="act", action={"type": "choose_needle", "card": card})
    assert widget.game.needle(0).code == card
    assert widget.game.needle(1) is not None, "the bot picked at once (no event loop here)"
    assert widget.step == widget.steps == 2 and widget.table["phase"] == "draw"
    assert widget.events[0]["text"] == f"You picked {DECK[[c.code for c in DECK].index(card)]} as your needle."


def test_the_bot_moves_first_when_you_are_player_2() -> None:
    widget = NeedleWidget.play(opponent=bots.RandomBot(seed=1), seed=4, you=1)
    assert widget.game.needle(0) is not None and widget.game.to_move == 1
    assert widget.seats == ["random", "You"]


def test_a_whole_game_played_through_requests() -> None:
    widget = NeedleWidget.play(opponent=bots.GreedyBot(), seed=8)
    while widget.table["phase"] != "over":
        assert widget.can_act
        legal = widget.table["legal_actions"]
        send(widget, kind="act", action={k: v for k, v in legal[-1].items() if k not in ("label", "points")})
        assert widget.error is None
    assert widget.table["result"]["text"]
    assert widget.perspectives == [0, 1, "spectator", "teacher"], "all open once the round is over"
    assert Replay.from_json(widget.replay.to_json()).players == ("human", "greedy")


def test_hotseat_covers_the_table_between_turns() -> None:
    widget = NeedleWidget.hotseat(seed=5)
    assert widget.cover == {"player": 0, "text": "Pass to Player 1"}
    assert widget.perspective == "spectator" and not widget.can_act
    assert [p["hand"] for p in widget.table["players"]] == [None, None]
    send(widget, kind="act", action={"type": "draw_pile"})
    assert widget.error is not None and "not yours" in widget.error["text"]
    send(widget, kind="reveal")
    assert widget.cover is None and widget.perspective == 0 and widget.can_act
    assert widget.perspectives == [0, "spectator"]
    send(widget, kind="perspective", to=1)
    assert "Cannot switch to perspective 1" in widget.error["text"] and widget.perspective == 0
    send(widget, kind="act", action={"type": "choose_needle", "card": widget.table["legal_actions"][0]["card"]})
    assert widget.cover == {"player": 1, "text": "Pass to Player 2"}
    assert widget.perspective == "spectator" and widget.table["players"][0]["needle"] is None
    send(widget, kind="reveal")
    assert widget.perspective == 1 and widget.table["players"][1]["hand"] is not None


def test_watch_mode_bots_play_on_advance_and_explain_to_their_own_seat() -> None:
    widget = NeedleWidget.watch(bots.GreedyBot(), bots.RandomBot(seed=2), seed=6, autoplay=False)
    assert widget.seats == ["greedy", "random"] and widget.perspective == "teacher"
    widget.advance(5)
    assert widget.step == widget.steps == 5
    assert {b["player"] for b in widget.bots} == {0, 1}
    widget.perspective = 0
    assert [b["player"] for b in widget.bots] == [0]
    widget.perspective = "spectator"
    assert widget.bots == []
    send(widget, kind="act", action={"type": "draw_pile"})
    assert "nobody plays from the browser" in widget.error["text"]


async def until(condition, seconds: float = 20.0) -> None:
    """Wait on the event loop until `condition()` holds (no fixed sleeps: slow machines are fine)."""
    for _ in range(int(seconds / 0.01)):
        if condition():
            return
        await asyncio.sleep(0.01)
    raise AssertionError("condition not reached")


def test_watch_autoplay_runs_on_the_event_loop() -> None:
    async def main() -> NeedleWidget:
        widget = NeedleWidget.watch(bots.GreedyBot(), bots.GreedyBot(), seed=1, speed=20)
        await until(lambda: widget.steps >= 3)
        send(widget, kind="autoplay", playing=False)
        return widget

    widget = asyncio.run(main())
    assert widget.steps >= 3 and not widget.playing


def test_play_mode_bot_answers_a_browser_move_after_a_pause() -> None:
    async def main() -> tuple[int, int]:
        widget = NeedleWidget.play(opponent=bots.GreedyBot(), seed=3, bot_delay=0.05)
        send(widget, kind="act", action={"type": "choose_needle", "card": widget.table["legal_actions"][0]["card"]})
        during = widget.steps
        assert widget.busy
        await until(lambda: not widget.busy)
        return during, widget.steps

    during, after = asyncio.run(main())
    assert (during, after) == (1, 2)


def test_replay_mode_steps_and_every_perspective() -> None:
    replay = play_game(bots.GreedyBot(), bots.RandomBot(seed=1), seed=5).replay()
    widget = NeedleWidget.from_replay(replay)
    assert widget.perspectives == [0, 1, "spectator", "teacher"] and not widget.can_act
    send(widget, kind="step", to=len(replay))
    assert widget.step == len(replay) and widget.table["phase"] == "over"
    send(widget, kind="perspective", to="teacher")
    assert widget.info["kind"] == "teacher"
    assert widget.game.snapshot() == replay.game_at(len(replay)).snapshot()
    assert len(widget.events) == len(replay)


def test_autoplay_in_replay_mode_stops_at_the_end() -> None:
    replay = play_game(bots.GreedyBot(), bots.GreedyBot(), seed=5).replay()

    async def main() -> NeedleWidget:
        widget = NeedleWidget.from_replay(replay, step=len(replay) - 3)
        send(widget, kind="autoplay", playing=True, speed=20)
        await until(lambda: not widget.playing)
        return widget

    widget = asyncio.run(main())
    assert widget.step == len(replay) and not widget.playing


# ---- Python stays in charge -----------------------------------------------------------------


def test_setting_step_and_perspective_from_python_updates_every_view() -> None:
    replay = play_game(bots.GreedyBot(), bots.RandomBot(seed=1), seed=5).replay()
    widget = NeedleWidget.from_replay(replay)
    recorder = Recorder(widget)
    widget.step = 7
    widget.perspective = 1
    synced = {key for update in recorder.updates() for key in update}
    assert {"step", "perspective", "table", "events"} <= synced
    assert widget.table == widget.game.view(1) | {} or widget.table["turn"] == replay.game_at(7).turn
    with pytest.raises(Exception, match="out of range"):
        widget.step = len(replay) + 1
    with pytest.raises(Exception, match="Unknown perspective"):
        widget.perspective = "umpire"


def test_a_browser_request_is_answered_in_one_update() -> None:
    replay = play_game(bots.GreedyBot(), bots.GreedyBot(), seed=9).replay()
    widget = NeedleWidget.from_replay(replay)
    recorder = Recorder(widget)
    send(widget, kind="step", to=4)
    assert len(recorder.updates()) == 1
    assert {"step", "table"} <= set(recorder.updates()[0])


def test_python_may_peek_where_the_browser_may_not() -> None:
    widget = NeedleWidget.play(opponent=bots.GreedyBot(), seed=3)
    widget.perspective = "teacher"
    assert widget.table["players"][1]["hand"] is not None
    peeking = NeedleWidget.play(opponent=bots.GreedyBot(), seed=3, allow_peek=True)
    send(peeking, kind="perspective", to="teacher")
    assert peeking.error is None and peeking.perspective == "teacher"


# ---- bad requests change nothing ------------------------------------------------------------


BAD_REQUESTS = [
    None, [], "step", {}, {"kind": 3}, {"kind": "fly"}, {"kind": "step"}, {"kind": "step", "to": -1},
    {"kind": "step", "to": 999}, {"kind": "step", "to": "2"}, {"kind": "step", "to": True},
    {"kind": "perspective", "to": "teacher"}, {"kind": "perspective", "to": 1}, {"kind": "perspective", "to": [0]},
    {"kind": "act"}, {"kind": "act", "action": "draw"}, {"kind": "act", "action": {"type": "steal!"}},
    {"kind": "act", "action": {"type": ["draw_pile"]}}, {"kind": "act", "action": {"type": "discard", "card": "ZZ"}},
    {"kind": "act", "action": {"type": "discard", "card": "AS"}}, {"kind": "act", "action": {"type": "end_sets"}},
    {"kind": "autoplay"}, {"kind": "autoplay", "playing": "yes"}, {"kind": "autoplay", "playing": True, "speed": 0},
    {"kind": "reveal"},
]


@pytest.mark.parametrize("request_", BAD_REQUESTS, ids=lambda r: json.dumps(r)[:40])
def test_a_bad_request_shows_an_error_and_changes_nothing(request_: Any) -> None:
    widget = NeedleWidget.play(opponent=bots.GreedyBot(), seed=3)
    send(widget, kind="act", action={"type": "choose_needle", "card": "KS" if "KS" not in
         (widget.table["players"][0]["hand"] or []) else "KH"})
    before, snapshot = state(widget), widget.game.snapshot()
    widget._on_message(widget, request_, [])
    after = state(widget)
    assert after.pop("error")["text"]
    before.pop("error")
    assert after == before and widget.game.snapshot() == snapshot


def test_direct_writes_from_the_browser_are_ignored() -> None:
    widget = NeedleWidget.play(opponent=bots.GreedyBot(), seed=3)
    widget.set_state({"perspective": "teacher", "step": 0})
    assert widget.perspective == 0
    assert "Ignored a direct change of perspective, step" in widget.error["text"]


def test_acting_while_looking_at_the_past_is_refused() -> None:
    widget = NeedleWidget(game=Game(seed=2), perspective=0)
    widget.apply(actions.ChooseNeedle(next(c for c in DECK if c not in widget.game.hand(0))))
    widget.apply(actions.ChooseNeedle(next(c for c in DECK if c not in widget.game.hand(1))))
    send(widget, kind="step", to=1)
    send(widget, kind="act", action={"type": "draw_pile"})
    assert "go to the latest step" in widget.error["text"] and widget.game.phase == "draw"
    send(widget, kind="step", to=2)
    send(widget, kind="act", action={"type": "draw_pile"})
    assert widget.error is None and widget.game.phase == "sets"


@pytest.mark.parametrize("kwargs, message", [
    ({}, "exactly one of game= or replay="),
    ({"game": "not a game"}, "must be a needle_widget Game"),
    ({"game": Game(seed=1), "perspective": 2}, "Unknown perspective"),
    ({"game": Game(seed=1), "mode": "chess"}, "mode 'chess'"),
    ({"game": Game(seed=1), "scale": 9}, "scale"),
    ({"game": Game(seed=1), "speed": -1}, "speed"),
    ({"game": Game(seed=1), "bot_delay": -1}, "bot_delay"),
])
def test_bad_arguments(kwargs: dict, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        NeedleWidget(**kwargs)


def test_bad_constructor_arguments() -> None:
    with pytest.raises(ValueError, match="you must be 0"):
        NeedleWidget.play(you=2)
    with pytest.raises(ValueError, match="is not a bot"):
        NeedleWidget.watch("greedy", bots.GreedyBot())
    with pytest.raises(ValueError, match="either game= or rules=/seed="):
        NeedleWidget.play(game=Game(seed=1), seed=2)
    with pytest.raises(ValueError, match="no live game"):
        NeedleWidget.from_replay(Game(seed=1).replay()).apply(actions.DrawPile())


# ---- secrecy: twin games give identical synced state --------------------------------------


def twin_scripts(seed: int, hidden_owner: int) -> tuple[Game, Game, list]:
    *_, (a, b) = play_twins(seed, hidden_owner, 1 - hidden_owner)
    script = [e.action for e in a.history]
    return Game(seed=seed, deck=a.deck), Game(seed=seed, deck=b.deck), script


@pytest.mark.parametrize("seed", [0, 3, 7])
@pytest.mark.parametrize("hidden_owner", [1, 0])
@pytest.mark.parametrize("mode", ["live", "play", "hotseat", "replay"])
def test_twin_games_give_identical_synced_state(seed: int, hidden_owner: int, mode: str) -> None:
    watcher = 1 - hidden_owner
    game_a, game_b, script = twin_scripts(seed, hidden_owner)
    if mode == "replay":
        played = []
        for game in (game_a, game_b):
            for action in script:
                game.apply(action)
            played.append(NeedleWidget.from_replay(game.replay(), perspective=watcher))
        for k in range(len(script) + 1):
            for w in played:
                w.step = k
            assert state(played[0]) == state(played[1]), k
        return
    widgets = []
    for game in (game_a, game_b):
        if mode == "play":
            widgets.append(NeedleWidget(game=game, perspective=watcher, mode="play", screen=watcher))
        else:
            widgets.append(NeedleWidget(game=game, perspective=watcher, mode=mode))
    for k, action in enumerate(script):
        for w in widgets:
            w.apply(action)
            if w.cover is not None and w.cover["player"] == watcher:
                send(w, kind="reveal")
        assert state(widgets[0]) == state(widgets[1]), (mode, k)
        for w in widgets:
            w.perspective = "spectator"
        assert state(widgets[0]) == state(widgets[1]), (mode, k, "spectator")
        for w in widgets:
            w.perspective = watcher


def test_synced_state_per_step_stays_small_on_a_long_replay() -> None:
    from needle_widget.apps.bench import long_game

    replay = long_game().replay()
    widget = NeedleWidget.from_replay(replay, perspective="teacher")
    recorder = Recorder(widget)
    sizes = []
    for k in range(0, len(replay), 37):
        recorder.messages.clear()
        send(widget, kind="step", to=k)
        sizes.append(len(json.dumps(recorder.updates())))
    assert max(sizes) < 20_000, max(sizes)


# ---- whose screen this is (issue 8, hole 2) ------------------------------------------------

ALL = [0, 1, "spectator", "teacher"]


def test_a_live_players_screen_stays_limited_after_moves_from_python() -> None:
    widget = NeedleWidget(game=Game(seed=3), perspective=0)
    assert widget.screen == 0 and widget.perspectives == [0, "spectator"]
    send(widget, kind="perspective", to="spectator")
    widget.apply(actions.ChooseNeedle(next(c for c in DECK if c not in widget.game.hand(0))))
    widget.apply(actions.ChooseNeedle(next(c for c in DECK if c not in widget.game.hand(1))))
    assert widget.perspectives == [0, "spectator"]
    send(widget, kind="perspective", to="teacher")
    assert "Cannot switch to perspective 'teacher' now" in widget.error["text"]
    assert widget.perspective == "spectator" and widget.table["players"][1]["hand"] is None


def test_whose_screen_it_is_changes_only_from_python() -> None:
    widget = NeedleWidget(game=Game(seed=3), perspective="teacher")
    assert widget.screen == "teacher" and widget.perspectives == ALL
    with pytest.raises(AttributeError):
        widget.screen = 0  # type: ignore[misc]
    widget.set_screen(1)
    assert (widget.screen, widget.perspective, widget.perspectives) == (1, 1, [1, "spectator"])
    assert widget.table["players"][0]["hand"] is None
    with pytest.raises(NeedleError, match="screen 'shared' is not one of"):
        widget.set_screen("shared")
    widget.set_state({"screen": 0})
    assert widget.screen == 1 and "Ignored a direct change of screen" in widget.error["text"]
    assert NeedleWidget(game=Game(seed=3), perspective="teacher", screen=0).perspective == 0


@pytest.mark.parametrize("reveal_at_end, opened", [(True, ALL), (False, [0, "spectator"])])
def test_what_a_player_may_see_once_the_round_is_over(reveal_at_end: bool, opened: list) -> None:
    widget = NeedleWidget.play(opponent=bots.GreedyBot(), seed=8, reveal_at_end=reveal_at_end)
    assert widget.reveal_at_end is reveal_at_end
    while widget.table["phase"] != "over":
        legal = widget.table["legal_actions"]
        send(widget, kind="act", action={k: v for k, v in legal[-1].items() if k not in ("label", "points")})
    assert widget.perspectives == opened
    assert all(p["needle"] for p in widget.table["players"]), "both needles at round end (RULES.md)"
    assert widget.table["players"][1]["hand"] is None
    widget.reveal_at_end = True
    assert widget.perspectives == ALL


def test_allow_peek_can_be_changed_from_python() -> None:
    widget = NeedleWidget.play(opponent=bots.GreedyBot(), seed=3)
    widget.allow_peek = True
    assert widget.allow_peek and widget.perspectives == ALL
    send(widget, kind="perspective", to="teacher")
    widget.allow_peek = False
    assert (widget.perspective, widget.perspectives) == (0, [0, "spectator"])


@pytest.mark.parametrize("make", [lambda: NeedleWidget.play(opponent=bots.GreedyBot(), seed=3),
                                  lambda: NeedleWidget.hotseat(seed=3)], ids=["play", "hotseat"])
def test_autoplay_is_refused_where_the_front_end_hides_it(make: Any) -> None:
    widget = make()
    send(widget, kind="autoplay", playing=True, speed=2)
    assert "Autoplay is not available" in widget.error["text"] and not widget.playing and widget.speed == 1
    with pytest.raises(NeedleError, match="Autoplay is not available"):
        widget.playing = True
    assert not widget.playing


# ---- errors: capped, and never only in the log --------------------------------------------

MB = 1_000_000
HUGE_REQUESTS = [
    {"kind": "x" * MB}, {"kind": "act", "action": {"type": "discard", "card": "x" * MB}},
    {"kind": "act", "action": {"type": "x" * MB}}, {"kind": "act", "action": ["x" * MB]},
    {"kind": "step", "to": "9" * MB}, {"kind": "step", "to": list(range(MB // 8))},
    {"kind": "perspective", "to": "t" * MB}, {"kind": "autoplay", "playing": "y" * MB},
    {"kind": "autoplay", "playing": True, "speed": "s" * MB}, {"kind": "reveal", "x": "x" * MB},
    {"kind": "resume", "bot": "g" * MB}, {"x": "x" * MB}, ["x" * MB], "x" * MB,
]


@pytest.mark.parametrize("request_", HUGE_REQUESTS, ids=lambda r: json.dumps(r)[:30])
def test_a_huge_request_gets_a_short_error_and_changes_nothing(request_: Any) -> None:
    from needle_widget.jupyter.widget import MAX_ERROR

    widget = NeedleWidget(game=Game(seed=3), perspective=0)
    before = state(widget)
    recorder = Recorder(widget)
    widget._on_message(widget, request_, [])
    after = state(widget)
    text = after.pop("error")["text"]
    before.pop("error")
    assert after == before and 0 < len(text) <= MAX_ERROR
    assert len(json.dumps(recorder.updates())) < 2 * MAX_ERROR


def test_a_huge_direct_write_gets_a_short_error() -> None:
    from needle_widget.jupyter.widget import MAX_ERROR

    widget = NeedleWidget(game=Game(seed=3), perspective=0)
    widget.set_state({"x" * MB: 1})
    assert len(widget.error["text"]) == MAX_ERROR and widget.error["text"].endswith("…")


def test_an_unexpected_error_reaches_the_widget_short_and_the_log_in_full(monkeypatch: pytest.MonkeyPatch,
                                                                           caplog: pytest.LogCaptureFixture) -> None:
    from needle_widget.screen.session import Session

    widget = NeedleWidget.from_replay(play_game(bots.GreedyBot(), bots.GreedyBot(), seed=2).replay())

    def broken(self: Any, to: Any) -> None:
        raise KeyError("7H is a secret")

    monkeypatch.setattr(Session, "request_step", broken)
    with caplog.at_level(logging.ERROR, logger="needle_widget"):
        send(widget, kind="step", to=3)
    assert widget.error["text"] == ("Something went wrong (KeyError) with the 'step' request; "
                                    "the details are in the kernel log.")
    assert "7H is a secret" in caplog.text and "Traceback" in caplog.text and widget.step == 0


def test_a_failing_timer_stops_autoplay_and_says_so(monkeypatch: pytest.MonkeyPatch) -> None:
    from needle_widget.screen.session import Session

    widget = NeedleWidget.from_replay(play_game(bots.GreedyBot(), bots.GreedyBot(), seed=2).replay())
    widget.playing = True
    widget._runner.tick()
    assert widget.step == 1 and widget.playing

    def broken(self: Any) -> None:
        raise ZeroDivisionError

    monkeypatch.setattr(Session, "tick", broken)
    widget._runner.tick()
    assert not widget.playing and "Something went wrong (ZeroDivisionError) with a timer" in widget.error["text"]
    widget.speed = 4
    assert widget.speed == 4.0 and widget.replay is not None


# ---- answers: each request with an id is answered with that id ---------------------------


def test_a_request_with_an_id_is_answered_with_that_id_in_the_same_update() -> None:
    replay = play_game(bots.GreedyBot(), bots.GreedyBot(), seed=9).replay()
    widget = NeedleWidget.from_replay(replay)
    recorder = Recorder(widget)
    send(widget, kind="step", to=4, id=7)
    assert widget.answer == {"id": 7, "ok": True, "error": None} and widget.step == 4 and widget.error is None
    [update] = recorder.updates()
    assert update["answer"] == {"id": 7, "ok": True, "error": None} and {"step", "table"} <= set(update)
    send(widget, kind="step", to=999, id=8)
    assert widget.answer == {"id": 8, "ok": False, "error": widget.error["text"]} and widget.step == 4
    assert "Cannot go to step 999" in widget.answer["error"]
    send(widget, kind="step", to=5)  # no id: still answered through the traits, `answer` unchanged
    assert widget.step == 5 and widget.error is None and widget.answer["id"] == 8


@pytest.mark.parametrize("request_", [r for r in BAD_REQUESTS if isinstance(r, dict)], ids=lambda r: json.dumps(r)[:40])
def test_a_bad_request_with_an_id_is_answered_not_ok_and_changes_nothing_else(request_: dict) -> None:
    widget = NeedleWidget(game=Game(seed=3), perspective=0)
    before = state(widget)
    widget._on_message(widget, {**request_, "id": 41}, [])
    after = state(widget)
    answer, error = after.pop("answer"), after.pop("error")
    assert answer == {"id": 41, "ok": False, "error": error["text"]} and error["text"]
    before.pop("answer"), before.pop("error")
    assert after == before


@pytest.mark.parametrize("bad_id", [-1, 2**31, "7", 1.5, True, [1], {"id": 1}, "9" * 1_000_000])
def test_a_bad_request_id_is_refused_and_changes_nothing(bad_id: Any) -> None:
    widget = NeedleWidget.from_replay(play_game(bots.GreedyBot(), bots.GreedyBot(), seed=9).replay())
    send(widget, kind="step", to=2, id=1)
    before = state(widget)
    widget._on_message(widget, {"kind": "step", "to": 3, "id": bad_id}, [])
    after = state(widget)
    text = after.pop("error")["text"]
    before.pop("error")
    assert after == before and widget.step == 2 and widget.answer["id"] == 1
    assert text.startswith("A request id must be a whole number from 0 to 2147483647, not ") and len(text) < 200


def test_answers_follow_the_order_of_the_requests() -> None:
    widget = NeedleWidget.from_replay(play_game(bots.GreedyBot(), bots.GreedyBot(), seed=9).replay())
    recorder = Recorder(widget)
    for k in range(1, 11):
        send(widget, kind="step", to=k, id=100 + k)
    answers = [u["answer"]["id"] for u in recorder.updates()]
    steps = [u["step"] for u in recorder.updates()]
    assert answers == list(range(101, 111)) and steps == list(range(1, 11)) and widget.step == 10


# ---- why not: act_reason and hidden_reason, in public words ------------------------------


def test_act_reason_is_synced_with_can_act_and_quoted_by_a_refused_act() -> None:
    widget = NeedleWidget.play(opponent=bots.GreedyBot(), seed=3)
    assert widget.can_act and widget.act_reason is None and widget.hidden_reason == "Hidden while the round is live"
    send(widget, kind="perspective", to="spectator")
    assert not widget.can_act and widget.act_reason == "Switch to Player 1 to play"
    send(widget, kind="act", action={"type": "choose_needle", "card": "KS"}, id=3)
    assert widget.answer["error"].endswith("not allowed: switch to Player 1 to play")
    hotseat = NeedleWidget.hotseat(seed=5)
    assert hotseat.act_reason == "It is Player 1's move, not yours: pass to Player 1"
    replay = NeedleWidget.from_replay(play_game(bots.GreedyBot(), bots.GreedyBot(), seed=9).replay())
    assert replay.act_reason == "Nobody plays from the browser in replay mode" and replay.hidden_reason is None


def screen_traits_of(cls: type) -> set[str]:
    """The synced traits a widget class declares beyond anywidget's own (its screen's)."""
    import anywidget

    return set(cls.class_traits(sync=True)) - set(anywidget.AnyWidget.class_traits(sync=True))


def test_the_widget_s_traits_are_the_shared_list() -> None:
    from needle_widget.jupyter.shared import shared_constants
    from needle_widget.screen.synced import Synced

    widget = NeedleWidget(game=Game(seed=1), perspective=0)
    traits = shared_constants()["TRAITS"]
    assert set(traits) == set(screen_traits_of(NeedleWidget))
    assert set(Synced(widget._session).state()) | {"error", "answer", "scale"} == set(traits)
    assert set(traits) <= set(state(widget))
