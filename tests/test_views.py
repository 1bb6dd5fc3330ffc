"""Views (docs/RULES.md "Who knows what"): what each perspective sees, as JSON-ready dicts."""

from __future__ import annotations

import json
import random

import pytest
from conftest import pure_arguments

from needle_widget import Card, Game, PerspectiveError, Rules, actions
from needle_widget.engine.cards import DECK

PERSPECTIVES = (0, 1, "spectator", "teacher")


def deck_of(hand0: str, hand1: str, pile: str = "") -> list[Card]:
    first = [Card.parse(c) for c in (hand0 + " " + hand1 + " " + pile).split()]
    return first + [c for c in DECK if c not in first]


def started(hand0: str, hand1: str, pile: str = "", needles: tuple[str, str] = ("KS", "KH"), **rules) -> Game:
    h = len(hand0.split())
    game = Game(rules=Rules(hand_size=h, **rules), seed=1, deck=deck_of(hand0, hand1, pile))
    game.apply(actions.ChooseNeedle(needles[0]))
    game.apply(actions.ChooseNeedle(needles[1]))
    return game


def test_hands_are_seen_by_their_owner_and_the_teacher_only() -> None:
    game = Game(seed=5)
    hand0, hand1 = [c.code for c in game.hand(0)], [c.code for c in game.hand(1)]
    assert game.view(0)["players"][0]["hand"] == hand0
    assert game.view(0)["players"][1]["hand"] is None
    assert game.view(1)["players"][1]["hand"] == hand1
    assert game.view(1)["players"][0]["hand"] is None
    assert [p["hand"] for p in game.view("spectator")["players"]] == [None, None]
    assert [p["hand"] for p in game.view("teacher")["players"]] == [hand0, hand1]
    for perspective in PERSPECTIVES:
        assert [p["hand_size"] for p in game.view(perspective)["players"]] == [7, 7]


def test_only_the_teacher_sees_the_draw_pile_order() -> None:
    game = Game(seed=5)
    assert game.view("teacher")["draw_pile"] == [c.code for c in game.draw_pile]
    for perspective in (0, 1, "spectator"):
        view = game.view(perspective)
        assert "draw_pile" not in view
        assert view["pile_size"] == 38


def test_needles_are_secret_until_the_round_ends() -> None:
    game = started("2C 3C 9D", "4H 8S JD", pile="5D 6D 7D", needles=("5D", "QH"))
    assert game.view(0)["players"][0]["needle"] == "5D"
    assert game.view(0)["players"][1]["needle"] is None
    assert game.view(1)["players"][1]["needle"] == "QH"
    assert game.view(1)["players"][0]["needle"] is None
    assert [p["needle"] for p in game.view("spectator")["players"]] == [None, None]
    assert [p["needle_chosen"] for p in game.view("spectator")["players"]] == [True, True]
    assert [p["needle"] for p in game.view("teacher")["players"]] == ["5D", "QH"]
    assert "card" not in game.view(1)["history"][0]
    assert game.view(0)["history"][0]["card"] == "5D"
    game.apply(actions.DrawPile())  # E1: Player 1 draws 5♦, their needle
    assert game.phase == "over"
    for perspective in PERSPECTIVES:
        assert [p["needle"] for p in game.view(perspective)["players"]] == ["5D", "QH"]


def test_a_pile_draw_is_seen_by_the_drawer_only() -> None:
    game = started("2C 3C 9D", "4H 8S JD", pile="5D 6D 7D")
    game.apply(actions.DrawPile())
    mine, theirs = game.view(0)["history"][-1], game.view(1)["history"][-1]
    assert mine["type"] == theirs["type"] == "draw_pile"
    assert mine["cards"] == ["5D"]
    assert theirs["cards"] is None and theirs["count"] == 1
    assert game.view("spectator")["history"][-1]["cards"] is None
    assert game.view("teacher")["history"][-1]["cards"] == ["5D"]


def test_a_stolen_card_is_seen_by_both_players_but_not_the_spectator() -> None:
    game = started("2C", "4H", pile="5D 6D 7D")
    game.apply(actions.Steal())
    assert game.view(0)["history"][-1]["cards"] == ["4H"]
    assert game.view(1)["history"][-1]["cards"] == ["4H"]
    assert game.view("spectator")["history"][-1]["cards"] is None
    assert game.view("teacher")["history"][-1]["cards"] == ["4H"]
    assert game.view(1)["known_opponent_cards"] == ["4H"]
    assert game.view(0)["known_opponent_cards"] == []
    game.apply(actions.EndSets())
    game.apply(actions.Discard("4H"))
    assert game.view(1)["known_opponent_cards"] == []


def test_steal_limits_are_public() -> None:
    game = started("2C", "4H", pile="5D 6D 7D 8D 9D 10D 2H 3H 4S")
    game.apply(actions.Steal())
    game.apply(actions.EndSets())
    game.apply(actions.Discard("2C"))
    for perspective in PERSPECTIVES:
        p1 = game.view(perspective)["players"][0]
        assert (p1["may_steal"], p1["last_steal_turn"], p1["next_steal_turn"]) == (False, 1, 7)


def test_replenished_cards_are_seen_by_their_owner_only() -> None:
    game = started("4C 5H 6H 9S", "2D 3D 8C 10H", pile="JD AC KC QC 2S")
    game.apply(actions.DrawPile())
    game.apply(actions.LaySet(("4C", "5H", "6H")))
    game.apply(actions.EndSets())
    assert game.view(0)["history"][-1]["cards"] == ["AC", "KC", "QC"]
    assert game.view(1)["history"][-1] == {"index": 4, "turn": 1, "player": 0, "type": "end_sets",
                                           "cards": None, "count": 3}
    assert game.view("spectator")["players"][0]["sets"] == [{"cards": ["4C", "5H", "6H"], "points": 1}]


def test_reshuffle_order_is_the_teachers_alone() -> None:
    game = Game(rules=Rules(hand_size=20), seed=2)
    game.apply(game.legal_actions()[0])
    game.apply(game.legal_actions()[0])
    while game.phase != "over" and not any("reshuffles" in e for e in game.view("teacher")["history"]):
        game.apply([a for a in game.legal_actions() if type(a) is not actions.Steal][-1])
    teacher_event = next(e for e in game.view("teacher")["history"] if "reshuffles" in e)
    player_event = next(e for e in game.view(0)["history"] if "reshuffles" in e)
    assert all(isinstance(order, list) for order in teacher_event["reshuffles"])
    assert player_event["reshuffles"] == [len(order) for order in teacher_event["reshuffles"]]


def test_legal_actions_go_to_the_player_to_move_and_the_teacher() -> None:
    game = started("2C 3C 9D", "4H 8S JD", pile="5D 6D 7D")
    assert game.view(0)["legal_actions"] == [{"type": "draw_pile"}, {"type": "steal"}]
    assert game.view("teacher")["legal_actions"] == [{"type": "draw_pile"}, {"type": "steal"}]
    assert game.view(1)["legal_actions"] == []
    assert game.view("spectator")["legal_actions"] == []


def test_views_are_json_ready_at_every_step() -> None:
    rng = random.Random(0)
    for seed in range(30):
        game = Game(seed=seed)
        while True:
            for perspective in PERSPECTIVES:
                view = game.view(perspective)
                assert json.loads(json.dumps(view)) == view
                assert view["perspective"] == perspective
            if game.phase == "over":
                break
            game.apply(rng.choice(game.legal_actions()))
        assert game.view("spectator")["result"]["reason"] == game.result.reason.value


@pytest.mark.parametrize("bad", [2, -1, "Teacher", pytest.param(None, marks=pure_arguments), True, "player 1"])
def test_an_unknown_perspective_is_refused(bad: object) -> None:
    with pytest.raises(PerspectiveError, match="Unknown perspective") as info:
        Game(seed=1).view(bad)  # type: ignore[arg-type]
    assert repr(bad) in str(info.value)
    assert isinstance(info.value, ValueError)


def test_a_result_round_trips_through_its_json_form() -> None:
    from needle_widget import Result, bots, play_game

    for seed in range(20):
        result = play_game(bots.GreedyBot(), bots.RandomBot(seed=seed), seed=seed).result
        assert Result.from_dict(json.loads(json.dumps(result.to_dict()))) == result
