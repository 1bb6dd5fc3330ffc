"""whatif: the hypotheticals' JSON, built from one seat's view alone."""

from __future__ import annotations

import json

import pytest

from needle_widget import Card, Game, actions, bots, examples, knowledge, whatif, worlds
from needle_widget.engine.errors import ArgumentError, PerspectiveError
from needle_widget.players.search import SearchBot


@pytest.fixture(scope="module")
def long():
    return examples.load("long_with_reshuffle")


def _after_picks(seed: int = 7) -> Game:
    g = Game(seed=seed)
    g.apply(actions.ChooseNeedle(g.legal_actions()[-1].card))
    g.apply(actions.ChooseNeedle(g.legal_actions()[-1].card))
    return g


def _index(code: str) -> int:
    return Card.parse(code).index


def _shown(panel: dict, row: dict, q: str) -> list[str]:
    return sorted(panel["same"]["hands"][q] + row["hands"][q], key=_index)


def _check_rows(panel: dict, view: dict) -> None:
    """Every row, put together with `same`, is a world that fits the view."""
    size = min(whatif.PILE_SHOWN, view["pile_size"])
    assert len(panel["same"]["pile"]) == size
    public = set(view["discard_pile"]) | {c for p in view["players"] for s in p["sets"] for c in s["cards"]}
    for row in panel["rows"]:
        assert sorted(row["hands"]) == [str(q) for q in panel["hidden"]]
        for q in panel["hidden"]:
            hand = _shown(panel, row, str(q))
            assert len(hand) == len(set(hand)) == view["players"][q]["hand_size"]
            assert row["hands"][str(q)] == sorted(row["hands"][str(q)], key=_index)
            assert not set(hand) & public
            if view["perspective"] in (0, 1):
                assert not set(hand) & set(view["players"][view["perspective"]]["hand"])
                assert set(view["known_opponent_cards"]) <= set(hand)
            needle = panel["same"]["needles"].get(str(q), row["needles"].get(str(q)))
            if view["players"][q]["needle_chosen"]:
                assert needle is not None and needle not in hand
            else:
                assert needle is None
        assert len(row["pile"]) == size
        pile = [s if s is not None else r for s, r in zip(panel["same"]["pile"], row["pile"], strict=True)]
        assert all(c is not None for c in pile) and not set(pile) & public
        assert all(r is None for s, r in zip(panel["same"]["pile"], row["pile"], strict=True) if s is not None)


@pytest.mark.parametrize("seat", [0, 1])
@pytest.mark.parametrize("step", [0, 1, 2, 9, 30, 68])
def test_panel_rows_fit_the_view(long, step: int, seat: int) -> None:
    view = long.game_at(step).view(seat)
    panel = whatif.worlds_panel(view, seed=5)
    assert panel["seat"] == seat and panel["step"] == step and panel["hidden"] == [1 - seat]
    assert panel["n"] == len(panel["rows"]) == whatif.WORLDS_SHOWN
    assert [row["label"] for row in panel["rows"]] == [f"World {k}" for k in range(1, 7)]
    assert not any(row["real"] for row in panel["rows"])
    assert panel["ess"] is None and panel["particles"] is None and panel["pile_size"] == view["pile_size"]
    _check_rows(panel, view)


def test_same_is_common_to_the_sampled_worlds(long) -> None:
    view = long.game_at(30).view(1)
    panel = whatif.worlds_panel(view, seed=11)
    drawn = worlds.sample(view, whatif.WORLDS_SHOWN, seed=11)
    common = set.intersection(*({c.code for c in w.hand(0)} for w in drawn))
    assert set(panel["same"]["hands"]["0"]) == common
    for row, world in zip(panel["rows"], drawn, strict=True):
        assert _shown(panel, row, "0") == [c.code for c in world.hand(0)]
    for i, card in enumerate(panel["same"]["pile"]):
        tops = {w.draw_pile[i].code for w in drawn}
        assert card == (tops.pop() if len(tops) == 1 else None)
    needles = {w.needle(0).code for w in drawn}
    assert panel["same"]["needles"] == ({"0": needles.pop()} if len(needles) == 1 else {})


def test_real_row_first_only_with_real(long) -> None:
    game = long.game_at(30)
    view = game.view(0)
    panel = whatif.worlds_panel(view, seed=5, real=game)
    real, *rest = panel["rows"]
    assert real["real"] is True and real["label"] == "Real" and len(rest) == whatif.WORLDS_SHOWN
    assert _shown(panel, real, "1") == [c.code for c in game.hand(1)]
    assert panel["same"]["needles"].get("1", real["needles"].get("1")) == game.needle(1).code
    assert [row["label"] for row in rest] == [f"World {k}" for k in range(1, 7)] and not any(r["real"] for r in rest)
    _check_rows(panel, view)
    with pytest.raises(ArgumentError, match="real must be the Game"):
        whatif.worlds_panel(view, seed=5, real=long.game_at(31))


def test_panel_is_deterministic_and_follows_the_seed() -> None:
    view = _after_picks().view(0)
    one = whatif.worlds_panel(view, seed=3)
    assert json.dumps(one) == json.dumps(whatif.worlds_panel(view, seed=3))
    assert one["rows"] != whatif.worlds_panel(view, seed=4)["rows"]


def test_spectator_panel_and_model_errors(long) -> None:
    view = long.game_at(30).view("spectator")
    panel = whatif.worlds_panel(view, seed=2)
    assert panel["hidden"] == [0, 1] and panel["note"].startswith("6 worlds the spectator")
    _check_rows(panel, view)
    with pytest.raises(ArgumentError, match="'greedy' needs a player's view"):
        whatif.worlds_panel(view, seed=2, model="greedy")
    with pytest.raises(ArgumentError, match="model must be 'random' or 'greedy', not 'smart'"):
        whatif.worlds_panel(long.game_at(30).view(0), seed=2, model="smart")
    with pytest.raises(PerspectiveError):
        whatif.worlds_panel(long.game_at(30).view("teacher"), seed=2)
    with pytest.raises(ArgumentError, match="seed must be a non-negative integer, not -1"):
        whatif.worlds_panel(long.game_at(30).view(0), seed=-1)


def test_check_model_and_model_for() -> None:
    assert whatif.check_model("random") == "random"
    for bad in ("smart", 5, None, "Random"):
        with pytest.raises(ArgumentError, match=f"not {bad!r}"):
            whatif.check_model(bad)
    assert whatif.model_for("random") is None
    assert isinstance(whatif.model_for("greedy"), bots.GreedyBot)


def test_needle_before_picks_and_after_the_round(long) -> None:
    panel = whatif.worlds_panel(Game(seed=7).view(0), seed=1)
    assert panel["same"]["needles"] == {"1": None} and all(row["needles"] == {} for row in panel["rows"])
    final = long.game_at(len(long))
    panel = whatif.worlds_panel(final.view(0), seed=1)
    assert panel["same"]["needles"] == {"1": final.needle(1).code}
    assert all(row["needles"] == {} for row in panel["rows"])
    spectator = whatif.worlds_panel(final.view("spectator"), seed=1)
    assert spectator["same"]["needles"] == {"0": final.needle(0).code, "1": final.needle(1).code}


def test_greedy_panel(long) -> None:
    view = long.game_at(30).view(0)
    panel = whatif.worlds_panel(view, seed=4, model="greedy", n=4)
    assert panel["model"] == "greedy" and panel["model_label"] == whatif.MODELS["greedy"]
    assert panel["particles"] == whatif.MODEL_PARTICLES and 1 <= panel["ess"] <= whatif.MODEL_PARTICLES
    assert len(panel["rows"]) == 4 and "plays like GreedyBot" in panel["note"]
    _check_rows(panel, view)
    assert json.dumps(panel) == json.dumps(whatif.worlds_panel(view, seed=4, model="greedy", n=4))
    with pytest.raises(ArgumentError, match="at most 200"):
        whatif.worlds_panel(view, seed=4, model="greedy", n=201)


def test_twins_give_the_same_json(long) -> None:
    game = long.game_at(30)
    twin = worlds.sample(game.view(0), 1, seed=9)[0]
    assert twin.view(0) == game.view(0)
    assert (twin.hand(1), twin.draw_pile) != (game.hand(1), game.draw_pile)
    needle = whatif.graph_truth(long.game_at(len(long)).view(0))
    for model in ("random", "greedy"):
        a, b = game.view(0), twin.view(0)
        assert json.dumps(whatif.worlds_panel(a, seed=2, model=model)) == json.dumps(
            whatif.worlds_panel(b, seed=2, model=model))
        assert json.dumps(whatif.playout(a, seed=2, model=model, n=10)) == json.dumps(
            whatif.playout(b, seed=2, model=model, n=10))
        assert json.dumps(whatif.graph_point(a, step=30, seed=2, model=model, n=10, needle=needle)) == json.dumps(
            whatif.graph_point(b, step=30, seed=2, model=model, n=10, needle=needle))


@pytest.mark.parametrize("seat", [0, 1])
def test_playout(long, seat: int) -> None:
    out = whatif.playout(long.game_at(20).view(seat), seed=1, n=30)
    assert out["wins"] + out["draws"] + out["losses"] == out["n"] == 30
    assert out["who"] == f"Player {seat + 1}" and out["model"] == "random"
    assert out["text"].startswith(f"Player {seat + 1} wins ")
    assert out["win"] == round(out["wins"] / 30, 4)
    json.dumps(out)
    assert whatif.playout(long.game_at(20).view("spectator"), seed=1, n=5)["who"] == "Player 1"


def test_graph_point(long) -> None:
    final = long.game_at(len(long))
    needle = whatif.graph_truth(final.view(0))
    assert needle == final.needle(1).code
    assert whatif.graph_truth(long.game_at(30).view(0)) is None
    assert whatif.graph_truth(final.view("spectator")) is None
    last = whatif.graph_point(final.view(0), step=len(long), seed=1, n=20, needle=needle)
    assert last["certain"] is True and last["win"] in (0.0, 1.0) and last["lo"] == last["hi"] == last["win"]
    assert last["belief"] == 1.0 and last["step"] == len(long)
    game = long.game_at(30)
    point = whatif.graph_point(game.view(0), step=30, seed=1, n=20, needle=needle)
    assert point["certain"] is False and point["lo"] <= point["win"] <= point["hi"]
    assert set(point) == {"step", "win", "lo", "hi", "draw", "certain", "belief"}
    assert point["belief"] == round(knowledge.opponent_needle_odds(game.player_view(0)).of(needle), 4)
    assert whatif.graph_point(game.view(0), step=30, seed=1, n=20)["belief"] is None
    assert whatif.graph_point(long.game_at(1).view(0), step=1, seed=1, n=5, needle=needle)["belief"] is None
    greedy = whatif.graph_point(game.view(0), step=30, seed=1, n=10, model="greedy", needle=needle)
    odds = knowledge.opponent_needle_odds(game.view(0), bots.GreedyBot(), n=10, seed=1)
    assert greedy["belief"] == round(odds.of(needle), 4)


def test_graph_markers(long) -> None:
    view = long.game_at(len(long)).view(0)
    markers = whatif.graph_markers(view)
    history = view["history"]
    steals = [k + 1 for k, e in enumerate(history) if e["type"] == "steal"]
    sets = [k + 1 for k, e in enumerate(history) if e["type"] == "lay_set"]
    assert [m["step"] for m in markers if m["kind"] == "steal"] == steals and steals[:2] == [3, 6]
    assert [m["step"] for m in markers if m["kind"] == "set"] == sets and sets[0] == 7
    reshuffles = [m for m in markers if m["kind"] == "reshuffle"]
    assert [(m["step"], m["player"]) for m in reshuffles] == [(55, 0)]
    first = markers[0]
    assert first == {"step": 3, "kind": "steal", "player": 0, "text": "Player 1 steals"}
    assert next(m for m in markers if m["kind"] == "set")["text"] == "Player 2 lays 9♦ 10♥ J♣"
    assert whatif.graph_markers(long.game_at(len(long)).view("spectator")) == markers
    assert whatif.graph_markers(Game(seed=1).view(1)) == []


def test_thought_of_a_real_decision() -> None:
    game = _after_picks(3)
    bot = SearchBot(seed=1, worlds=4)
    while bot.last is None:
        p = game.to_move
        legal = game.legal_actions()
        game.apply(bot.choose(game.player_view(p, record=True), legal) if len(legal) > 1 else legal[0])
    out = whatif.thought(bot.last.to_dict())
    assert set(out) == {"chosen", "worlds", "rollouts", "legal", "kept", "values"}
    assert out["chosen"] == str(bot.last.chosen) and out["worlds"] == 4 and 1 <= len(out["values"]) <= 8
    assert all(set(v) == {"action", "value", "count"} for v in out["values"])
    json.dumps(out)


def test_thought_refuses_garbage_and_bounds_the_rest() -> None:
    for garbage in (None, 5, "x", [], {"values": "x"}, {"chosen": "a", "worlds": 1, "rollouts": 1, "legal": 1,
                                                        "values": [{"action": "a", "value": "high", "count": 1}]}):
        assert whatif.thought(garbage) is None
    long_text = "x" * 200
    data = {"chosen": long_text, "worlds": 16, "rollouts": 96, "legal": 30, "kept": False, "seconds": 0.5,
            "values": [{"action": long_text, "value": 1 / 3, "count": 16} for _ in range(20)]}
    out = whatif.thought(data)
    assert len(out["values"]) == 8 and len(out["chosen"]) == 80 and len(out["values"][0]["action"]) == 80
    assert out["values"][0]["value"] == 0.3333 and "seconds" not in out


def test_same_in_every_world_is_what_the_seat_knows_not_a_coincidence_of_the_rows() -> None:
    """With few unseen cards left, six rows often share a card by chance; `same` must not call it known."""
    replay = examples.load("discarded_by_opponent")
    for k in range(20, len(replay) + 1, 3):
        game = replay.game_at(k)
        view = game.view(0)
        known = set(view["known_opponent_cards"]) if view["result"] is None else set()
        for seed in range(5):
            panel = whatif.worlds_panel(view, seed=seed, n=2)
            assert set(panel["same"]["hands"]["1"]) <= known | set(game.view(1)["players"][1]["hand"]), (k, seed)
            if view["result"] is None:
                assert set(panel["same"]["hands"]["1"]) == known, (k, seed, panel["same"], known)


def test_worlds_text_puts_each_row_back_together() -> None:
    game = examples.load("discarded_by_opponent").final_game
    panel = whatif.worlds_panel(game.view(1), seed=2)
    text = whatif.worlds_text(panel).splitlines()
    assert text[0] == panel["note"] and text[1].startswith("Same in every world: Player 1 holds")
    assert len(text) == 2 + len(panel["rows"])
    hand = len(game.hand(0))
    for line in text[2:]:
        held = line.split("holds ")[1].split(",")[0].split()
        assert len(held) == hand and "needle K♣" in line  # Player 1's needle, revealed at the end
