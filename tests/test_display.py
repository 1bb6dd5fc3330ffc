"""What the widget syncs: tables, narrated events and info panels built from views only."""

from __future__ import annotations

import json
from pathlib import Path

from needle_widget import Game, actions, bots, play_game
from needle_widget.display import events, example_states, info, table

FIXTURES = Path(__file__).resolve().parents[1] / "js" / "test" / "fixtures.json"


def test_the_front_end_fixtures_are_what_python_sends_today() -> None:
    """js/test/fixtures.json feeds the JS tests; regenerate it with
    `python -m needle_widget.display js/test/fixtures.json` when this fails.
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
