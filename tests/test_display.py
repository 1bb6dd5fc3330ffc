"""What the widget syncs: tables, narrated events and info panels built from views only."""

from __future__ import annotations

import json

from js_fixtures import FIXTURES, example_states

from needle_widget import Game, actions, bots, play_game
from needle_widget.screen.display import events, info, table


def test_the_front_end_fixtures_are_what_python_sends_today() -> None:
    """js/test/fixtures.json feeds the JS tests; regenerate it with
    `python tests/js_fixtures.py` when this fails.
    """
    assert json.loads(FIXTURES.read_text(encoding="utf-8")) == json.loads(json.dumps(example_states()))


def test_legal_actions_carry_labels_and_set_points() -> None:
    game = next(g for g in (Game(seed=s) for s in range(300)) if _sets_possible(g))
    data = table(game, game.to_move)
    sets = [a for a in data["legal_actions"] if a["type"] == "lay_set"]
    assert sets and all(a["points"] in (1, 2) and a["label"].startswith("Lay set ") for a in sets)
    assert data["legal_actions"][-1] == {"type": "end_sets", "label": "Done laying sets"}
    assert "history" not in data


def _sets_possible(game: Game) -> bool:
    game.apply(game.legal_actions()[-1])
    game.apply(game.legal_actions()[-1])
    game.apply(actions.DrawPile())
    return game.phase == "sets" and len(game.legal_actions()) > 1


def test_events_and_info_per_perspective() -> None:
    game = play_game(bots.GreedyBot(), bots.RandomBot(seed=1), seed=4)
    lines = events(game, "spectator")
    assert [e["step"] for e in lines] == list(range(1, len(game) + 1))
    assert lines[-1]["text"].endswith(game.result.describe())
    assert info(game, "spectator") == {"kind": "spectator"}
    assert info(game, 0)["kind"] == "player" and info(game, 0)["player"] == 0
    teacher = info(game, "teacher")
    assert teacher["kind"] == "teacher" and len(teacher["pile_top"]) <= 5
    assert teacher["pile_top"] == [c.code for c in game.draw_pile[:5]]
    assert table(game, "spectator")["result"]["text"] == game.result.describe()


def test_a_refused_steal_reaches_the_mover_with_python_s_reason_and_no_one_else() -> None:
    states = example_states()
    assert states["draw_p1_no_steal"]["table"]["refusals"] == {
        "draw_pile": None, "steal": "Steal not allowed: Player 1 stole on turn 1; next steal on turn 7"}
    assert states["draw_p2_waiting"]["table"]["refusals"] == {}
    assert states["discard_spectator"]["table"]["refusals"] == {}


def test_the_opponent_s_needle_odds_wait_until_it_is_picked() -> None:
    """Issue 20: the odds panel showed figures for a needle not yet chosen."""
    game = Game(seed=7)
    waiting = {"waiting": "Player 2 has not picked a needle yet: the odds of where it is appear once it has."}
    assert info(game, 0)["opponent_needle"] == waiting
    assert info(game, "teacher")["players"][0]["opponent_needle"] == waiting
    game.apply(actions.ChooseNeedle("7h"))
    assert "grid" in info(game, 1)["opponent_needle"], "Player 1 has picked: Player 2 sees the odds"
    assert info(game, 0)["opponent_needle"] == waiting
    game.apply(actions.ChooseNeedle("QS"))
    assert "grid" in info(game, 0)["opponent_needle"]
    assert "grid" in info(game, "teacher")["players"][0]["opponent_needle"]


def test_the_cards_drawn_this_turn_are_marked_in_a_hand_shown() -> None:
    """Issue 20: a newly drawn card was not marked. `new_cards` lists the cards that entered a hand
    this turn and are still in it, while it is that player's turn, for a hand the perspective sees.
    """
    game = Game(seed=7)
    game.apply(actions.ChooseNeedle("7h"))
    game.apply(actions.ChooseNeedle("QS"))
    assert [p["new_cards"] for p in table(game, 0)["players"]] == [[], []]
    game.apply(actions.DrawPile())
    drawn = game.history[-1].cards[0].code
    for perspective, marked in ((0, [[drawn], []]), ("teacher", [[drawn], []]), (1, [[], []]),
                                ("spectator", [[], []])):
        assert [p["new_cards"] for p in table(game, perspective)["players"]] == marked, perspective
    game.apply(actions.EndSets())
    game.apply(actions.Discard(drawn))
    assert [p["new_cards"] for p in table(game, "teacher")["players"]] == [[], []], "discarded: nothing to mark"
    game.apply(actions.Steal())
    stolen = game.history[-1].cards[0].code
    assert table(game, 1)["players"][1]["new_cards"] == [stolen] and table(game, 0)["players"][1]["new_cards"] == []
    refills = [g for g in (play_game(bots.GreedyBot(), bots.GreedyBot(), seed=s) for s in range(3))]
    for finished in refills:
        for k in range(len(finished)):
            at = finished.replay().game_at(k)
            for p in (0, 1):
                new = table(at, p)["players"][p]["new_cards"]
                assert set(new) <= {c.code for c in at.hand(p)}
                if new:
                    assert at.to_move == p and at.history[-1].player == p
