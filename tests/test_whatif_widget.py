"""Hypotheticals in the widget: play from here (real cards, a possible world), the possible-worlds
panel (resample, model, play-out), the game's graph (cache, progress, never holding up a request),
what a searching bot thought, and twins for every new trait.
"""

from __future__ import annotations

import asyncio
import json
from typing import Any

import pytest

from needle_widget import Game, NeedleError, NeedleWidget, bots, examples, whatif, worlds
from needle_widget.players.search import SearchBot
from needle_widget.players.sim import play_game


def send(widget: NeedleWidget, **request: Any) -> None:
    widget._on_message(widget, request, [])


def synced(widget: NeedleWidget) -> str:
    data = widget.get_state()
    for key in ("_esm", "_css", "_anywidget_id", "layout"):
        data.pop(key, None)
    return json.dumps(data, sort_keys=True)


def unfinished(seed: int = 4, steps: int = 24) -> Game:
    """A game of GreedyBots stopped after `steps` actions."""
    game, pair = Game(seed=seed), (bots.GreedyBot(), bots.GreedyBot())
    while len(game) < steps and game.phase != "over":
        p = game.to_move
        game.apply(pair[p].choose(game.player_view(p), game.legal_actions()))
    return game


def finished(seed: int = 2) -> Any:
    return play_game(bots.GreedyBot(), bots.GreedyBot(), seed=seed).replay()


# ---- play from here ------------------------------------------------------------------------------------


def test_a_branch_with_the_real_cards_plays_on_from_the_step_and_back_returns() -> None:
    replay = examples.load("long_with_reshuffle")
    w = NeedleWidget.from_replay(replay, perspective="teacher", step=9)
    w.branch(seat=0, opponent=bots.GreedyBot(), world="real")
    assert (w.mode, w.perspective, w.perspectives) == ("play", 0, [0, "spectator"])
    assert [e.action for e in w.game.history[:9]] == [e.action for e in replay.final_game.history[:9]]
    assert w.game.to_move == 0 and w.can_act, "the bot answered at once until it was Player 1's move"
    assert w.branch_info["from_step"] == 9 and w.branch_info["world"] == "real"
    assert w.branch_info["back"] == "Back to the replay" and w.branch_info["opponent"] == "GreedyBot"
    assert w.seats == ["You", "greedy"]
    send(w, kind="act", action={k: v for k, v in w.table["legal_actions"][0].items() if k != "label"})
    assert w.error is None and w.steps > 9
    send(w, kind="back")
    assert (w.mode, w.step, w.perspective, w.steps, w.branch_info) == ("replay", 9, "teacher", len(replay), None)


def test_the_seed_is_named_to_the_teacher_only() -> None:
    w = NeedleWidget.from_replay(examples.load("found_early"), perspective="teacher", step=3, allow_peek=True)
    w.branch(seat=0, opponent="hotseat", world="real")
    assert w.mode == "hotseat" and "of seed" not in w.branch_info["text"]
    w.perspective = "teacher"
    assert w.branch_info["text"] == f"Branch from step 3 of seed {w.replay.seed}: the real cards"


def test_a_branch_in_a_possible_world_keeps_the_seat_s_view_and_redraws_the_rest() -> None:
    replay = examples.load("long_with_reshuffle")
    real = replay.game_at(20)
    hands = set()
    for seed in range(4):
        w = NeedleWidget.from_replay(replay, perspective="teacher", step=20)
        w.branch(seat=1, opponent="hotseat", world="sampled", seed=seed)
        start = w._session.game_at(20)
        assert start.view(1) == real.view(1)
        hands.add(tuple(start.hand(0)))
        assert "drawn from Player 2's view" in w.branch_info["text"]
    assert len(hands) > 1


def test_the_browser_branches_as_its_offers_say_and_refusals_change_nothing() -> None:
    w = NeedleWidget.from_replay(finished(), perspective=1, step=10)
    offer = w.offers["branch"]
    assert offer["reason"] is None and offer["seats"] == [0, 1] and offer["worlds"] == ["real", "sampled"]
    assert {"id": "hotseat", "label": "Two people (hotseat)"} in offer["opponents"]
    before = synced(w)
    for bad in ({"seat": 2, "opponent": "greedy", "world": "real"},
                {"seat": 0, "opponent": "deep blue", "world": "real"},
                {"seat": 0, "opponent": "greedy", "world": "imagined"}):
        send(w, kind="branch", **bad, id=7)
        assert w.answer["ok"] is False and w.error is not None
        assert quote_of(bad) in w.error["text"]
        assert json.loads(synced(w))["mode"] == "replay" and _same_but_errors(before, synced(w))
    send(w, kind="branch", seat=1, opponent="search", world="sampled", id=8)
    assert w.answer == {"id": 8, "ok": True, "error": None} and w.mode == "play" and w.seats[0] == "search"
    send(w, kind="branch", seat=1, opponent="greedy", world="real", id=9)
    assert w.answer["ok"] is False and "back" in w.error["text"].lower()
    send(w, kind="back", id=10)
    assert w.answer["ok"] and w.mode == "replay" and w.step == 10
    send(w, kind="back", id=11)
    assert w.answer["ok"] is False and "nothing to go back to" in w.error["text"]


def quote_of(bad: dict) -> str:
    return {2: "2", "deep blue": "'deep blue'", "imagined": "'imagined'"}[
        next(v for v in bad.values() if v in (2, "deep blue", "imagined"))]


def _same_but_errors(a: str, b: str) -> bool:
    x, y = json.loads(a), json.loads(b)
    for d in (x, y):
        d.pop("error"), d.pop("answer")
    return x == y


def test_play_from_here_opens_once_the_round_is_over_and_only_for_what_the_screen_may_see() -> None:
    game = unfinished()
    live = NeedleWidget.play(game=game, opponent=bots.GreedyBot())
    assert live.offers["branch"]["reason"] == "Play from here opens once the round is over"
    send(live, kind="branch", seat=0, opponent="greedy", world="sampled")
    assert live.mode == "play" and live.branch_info is None and "once the round is over" in live.error["text"]
    while live.game.phase != "over":
        live.apply(live.game.legal_actions()[0])
    live.step = live.steps - 1
    assert live.offers["branch"]["reason"] is None and live.offers["branch"]["worlds"] == ["real", "sampled"]
    live.step = live.steps
    assert "over at this step" in live.offers["branch"]["reason"]
    hidden = NeedleWidget.play(game=unfinished(), opponent=bots.GreedyBot(), reveal_at_end=False)
    while hidden.game.phase != "over":
        hidden.apply(hidden.game.legal_actions()[0])
    hidden.step = 3
    offer = hidden.offers["branch"]
    assert offer["seats"] == [0] and offer["worlds"] == ["sampled"] and offer["reason"] is None
    send(hidden, kind="branch", seat=0, opponent="greedy", world="real")
    assert hidden.branch_info is None and "'real'" in hidden.error["text"]
    send(hidden, kind="branch", seat=1, opponent="greedy", world="sampled")
    assert hidden.branch_info is None
    send(hidden, kind="branch", seat=0, opponent="greedy", world="sampled")
    assert hidden.branch_info["back"] == "Back to the game" and hidden.perspectives == [0, "spectator"]


def test_peeking_rules_apply_to_a_branch() -> None:
    replay = finished()
    closed = NeedleWidget.from_replay(replay, perspective="teacher", step=6)
    closed.branch(seat=0, opponent=bots.GreedyBot(), world="real")
    send(closed, kind="perspective", to="teacher")
    assert closed.perspective == 0 and closed.table["players"][1]["hand"] is None
    peeking = NeedleWidget.from_replay(replay, perspective="teacher", step=6, allow_peek=True)
    peeking.branch(seat=0, opponent=bots.GreedyBot(), world="real")
    send(peeking, kind="perspective", to="teacher")
    assert peeking.perspective == "teacher" and peeking.table["players"][1]["hand"] is not None


def test_play_accepts_a_replay_s_branch() -> None:
    replay = finished()
    w = NeedleWidget.play(game=replay.branch(8), opponent=bots.GreedyBot(), you=replay.game_at(8).to_move)
    assert w.mode == "play" and w.steps == 8 and w.can_act


# ---- the possible-worlds panel --------------------------------------------------------------------------


def test_the_worlds_panel_follows_the_step_the_seed_and_the_model() -> None:
    replay = examples.load("long_with_reshuffle")
    w = NeedleWidget.from_replay(replay, perspective=0, step=12)
    assert w.worlds is None and w.offers["worlds"]["seats"] == [0]
    w.show_worlds()
    panel = w.worlds
    assert (panel["status"], panel["seat"], panel["step"], panel["model"], len(panel["rows"])) == (
        "ready", 0, 12, "random", whatif.WORLDS_SHOWN)
    assert panel == {**whatif.worlds_panel(replay.game_at(12).view(0), seed=0), "status": "ready", "playout": None}
    w.resample()
    assert w.worlds["seed"] == 1 and w.worlds["rows"] != panel["rows"]
    send(w, kind="worlds", open=True, model="greedy", id=3)
    assert w.answer["ok"] and w.worlds["model"] == "greedy" and w.worlds["particles"]
    send(w, kind="playout")
    out = w.worlds["playout"]
    assert out["status"] == "ready" and out["wins"] + out["draws"] + out["losses"] == out["n"]
    w.step = 13
    assert (w.worlds["step"], w.worlds["playout"]["step"], w.worlds["playout"]["status"]) == (13, 13, "ready")
    send(w, kind="worlds", open=False)
    assert w.worlds is None


def test_worlds_requests_are_checked() -> None:
    w = NeedleWidget.from_replay(finished(), perspective="spectator", step=12)
    for request, words in (({"kind": "resample"}, "open the possible worlds first"),
                           ({"kind": "playout"}, "open the possible worlds first"),
                           ({"kind": "worlds", "open": "yes"}, "'yes'"),
                           ({"kind": "worlds", "open": True, "seat": 0}, "Cannot show the worlds of 0"),
                           ({"kind": "worlds", "open": True, "model": "greedy"}, "drawn at random"),
                           ({"kind": "worlds", "open": True, "model": "clever"}, "'clever'")):
        send(w, **request)
        assert words in w.error["text"] and w.worlds is None
    send(w, kind="worlds", open=True)
    assert w.worlds["hidden"] == [0, 1] and w.offers["worlds"]["models"] == [
        {"id": "random", "label": "plays at random"}]


def test_the_teacher_sees_the_real_world_beside_the_worlds_of_the_seat_chosen() -> None:
    w = NeedleWidget.from_replay(finished(), perspective="teacher", step=12)
    send(w, kind="worlds", open=True, seat=1)
    rows = w.worlds["rows"]
    assert w.worlds["seat"] == 1 and rows[0]["real"] and not any(r["real"] for r in rows[1:])
    w.perspective = 0
    assert w.worlds["seat"] == 0 and not any(r["real"] for r in w.worlds["rows"])


def test_the_panel_is_computed_after_the_answer_in_the_notebook_loop() -> None:
    """In a kernel a step request is answered at once; the panel follows once the steps settle
    (quick steps run no panel work in between).
    """
    async def run() -> tuple[list[dict], dict, dict]:
        w = NeedleWidget.from_replay(finished(), perspective=0, step=5)
        w.show_worlds()
        w.play_out()
        seen = []
        for k in (6, 7, 8):
            send(w, kind="step", to=k, id=k)
            for _ in range(5):
                await asyncio.sleep(0)
            seen.append({"answer": w.answer["ok"], "status": w.worlds["status"], "step": w.worlds["step"]})
        for _ in range(200):
            await asyncio.sleep(0.02)
            if w.worlds["status"] == "ready" and w.worlds["playout"]["status"] == "ready":
                break
        return seen, w.worlds, w.worlds["playout"]

    seen, later, playout = asyncio.run(run())
    assert seen == [{"answer": True, "status": "computing", "step": 5}] * 3
    assert (later["status"], later["step"], playout["status"], playout["step"]) == ("ready", 8, "ready", 8)


# ---- the game's graph -----------------------------------------------------------------------------------


def test_the_graph_covers_every_step_with_the_true_needle_and_the_markers() -> None:
    replay = examples.load("long_with_reshuffle")
    w = NeedleWidget.from_replay(replay, perspective=1)
    w.show_graph()
    g = w.graph
    assert (g["status"], g["seat"], g["done"], g["total"], g["steps"]) == (
        "ready", 1, len(replay) + 1, len(replay) + 1, len(replay))
    assert [p["step"] for p in g["points"]] == list(range(len(replay) + 1))
    assert g["needle"] == replay.final_game.needle(0).code
    assert g["points"][-1]["certain"] and g["points"][-1]["belief"] == 1.0
    assert {m["kind"] for m in g["markers"]} >= {"reshuffle"}
    send(w, kind="graph", open=True, seat=0)
    assert "Cannot draw the graph of 0" in w.error["text"]
    w.perspective = "spectator"
    assert w.graph is None and w.offers["graph"]["reason"].startswith("The graph follows a player")


def test_the_graph_is_cached_per_seat_and_model_across_a_branch(monkeypatch: pytest.MonkeyPatch) -> None:
    calls: list[int] = []
    real = whatif.graph_point
    monkeypatch.setattr(whatif, "graph_point", lambda view, **kw: calls.append(kw["step"]) or real(view, **kw))
    replay = examples.load("found_early")
    w = NeedleWidget.from_replay(replay, perspective="teacher", step=4)
    w.show_graph(seat=0)
    assert len(calls) == len(replay) + 1
    w.close_graph()
    w.branch(seat=0, opponent="hotseat", world="real")
    w.back()
    w.show_graph(seat=0)
    assert len(calls) == len(replay) + 1 and w.graph["status"] == "ready"
    send(w, kind="graph", open=True, seat=1, model="greedy")
    assert len(calls) == 2 * (len(replay) + 1) and w.graph["model"] == "greedy"


@pytest.mark.slow
def test_the_graph_fills_in_on_a_worker_while_requests_are_answered_coarse_steps_first() -> None:
    async def run() -> tuple[list, list, dict, dict]:
        w = NeedleWidget.from_replay(finished(), perspective=0)
        send(w, kind="graph", open=True)
        first = [p["step"] for p in w.graph["points"]]
        while len(w.graph["points"]) < 2:
            await asyncio.sleep(0.01)
        second = [p["step"] for p in w.graph["points"]]
        send(w, kind="step", to=3, id=5)
        answered = {"answer": w.answer, "status": w.graph["status"], "step": w.step}
        while w.graph["status"] == "computing":
            await asyncio.sleep(0.01)
        return first, second, answered, w.graph

    first, second, answered, graph = asyncio.run(run())
    assert first == [] and second and all(k % 8 == 0 for k in second[:2])
    assert answered == {"answer": {"id": 5, "ok": True, "error": None}, "status": "computing", "step": 3}
    assert graph["status"] == "ready" and len(graph["points"]) == graph["total"]


def test_closing_the_widget_stops_its_panel_work() -> None:
    async def run() -> tuple[int, int]:
        w = NeedleWidget.from_replay(finished(), perspective=0)
        send(w, kind="graph", open=True)
        while not w.graph["points"]:
            await asyncio.sleep(0.01)
        w.close()
        done = len(w.graph["points"])
        await asyncio.sleep(0.5)
        return done, len(w.graph["points"])

    done, later = asyncio.run(run())
    assert later == done


# ---- what the bot thought --------------------------------------------------------------------------------


def test_what_a_searching_bot_thought_reaches_its_seat_and_the_teacher_only() -> None:
    w = NeedleWidget.watch(SearchBot(seed=1, worlds=4, rollouts=16), bots.GreedyBot(), seed=5, autoplay=False)
    w.advance(8)
    mine = {b["player"]: b for b in w.bots}
    assert mine[0]["thought"] is not None and mine[1]["thought"] is None
    assert {"chosen", "worlds", "values"} <= set(mine[0]["thought"])
    w.perspective = 1
    assert [b["player"] for b in w.bots] == [1]
    w.perspective = "spectator"
    assert w.bots == []


# ---- twins: every new trait ----------------------------------------------------------------------------


def twin_pair(seat: int, seed: int) -> tuple[Game, Game]:
    """A game and a possible world of it for `seat`: they differ only in what `seat` cannot see."""
    game = unfinished(seed=seed)
    twin = worlds.sample(game.view(seat), 1, seed=seed + 100)[0]
    assert twin.view(seat) == game.view(seat) and twin.snapshot() != game.snapshot()
    return game, twin


@pytest.mark.slow
@pytest.mark.untraced  # tests/conftest.py
@pytest.mark.parametrize("seat, seed", [(0, 4), (1, 6)])
def test_twins_give_identical_worlds_playouts_graphs_and_branches(seat: int, seed: int) -> None:
    game, twin = twin_pair(seat, seed)
    texts = []
    for g in (game, twin):
        w = NeedleWidget.from_replay(g.replay(), perspective=seat, step=len(g) - 3)
        w.show_worlds(model="greedy")
        w.play_out()
        w.show_graph()
        out = [synced(w)]
        for k in (len(g) - 2, len(g)):
            w.step = k
            w.resample()
            out.append(synced(w))
        w.step = len(g) - 1
        send(w, kind="branch", seat=seat, opponent="greedy", world="sampled")
        for _ in range(4):
            if w.game.phase != "over":
                w.apply(w.game.legal_actions()[-1])
            out.append(synced(w))
        texts.append(out)
    assert texts[0] == texts[1]


def test_twins_in_a_live_game_give_identical_panels_on_a_player_s_screen() -> None:
    """(Live mode: no bot, whose moves would differ with its hidden cards.)"""
    game, twin = twin_pair(0, 8)
    states = []
    for g in (game, twin):
        w = NeedleWidget(game=g.copy(), perspective=0)
        w.show_worlds()
        w.play_out()
        w.show_graph()
        states.append(synced(w))
    assert states[0] == states[1]


def test_a_refused_branch_changes_nothing_autoplay_included() -> None:
    w = NeedleWidget.from_replay(finished(), perspective="teacher", step=3)
    w.playing = True
    before = synced(w)
    for bad in ({"world": "imagined"}, {"seat": 2}, {"opponent": object()}):
        with pytest.raises(NeedleError):
            w.branch(**{"seat": 0, "world": "real", **bad})
        assert synced(w) == before and w.playing
    w.playing = False
    w.step = w.steps
    with pytest.raises(NeedleError, match="the round is over there"):
        w.branch(seat=0)
    assert w.branch_info is None and w.mode == "replay"


@pytest.mark.slow
@pytest.mark.untraced  # tests/conftest.py
@pytest.mark.parametrize("seed, watcher", [(0, 0), (1, 1)])
def test_twins_that_differ_in_a_reshuffle_s_order_give_identical_panels(seed: int, watcher: int) -> None:
    """After a reshuffle whose order the seat cannot see: the worlds (GreedyBot model), the play-out
    and (in the first case only: a whole game's graph takes 11 s a twin, 148 steps) the graph are the same
    for both twins. The graph's twins for the other seat are the hand twins above.
    """
    from test_secrecy_reshuffle import twins

    compared = 0
    for a, b, step in twins(seed, watcher, horizon=12):
        if step % 4:
            continue
        states = []
        for game in (a, b):
            w = NeedleWidget(game=game.copy(), perspective=watcher)
            w.show_worlds(model="greedy")
            w.play_out()
            if not compared and watcher == 0:
                w.show_graph()
            states.append(synced(w))
        assert states[0] == states[1], (seed, watcher, step)
        compared += 1
    assert compared
