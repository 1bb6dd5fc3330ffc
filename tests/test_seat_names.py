"""Where a person types a seat or a perspective, the names people use work: "p1"/"p2", "Player 1"."""

from __future__ import annotations

import pytest
from test_cli import run_cli

from needle_widget import Game, examples
from needle_widget.apps.export import states, to_html
from needle_widget.engine.errors import NeedleError
from needle_widget.jupyter.widget import NeedleWidget


@pytest.mark.parametrize(("name", "seat"), [("p1", 0), ("P2", 1), ("Player 1", 0), ("player 2", 1), (1, 1)])
def test_widget_constructors_take_seat_names(name: object, seat: int) -> None:
    assert NeedleWidget(game=Game(seed=3), perspective=name).perspective == seat
    assert NeedleWidget.play(seed=3, you=name).perspective == seat
    assert NeedleWidget.from_replay(examples.load("detective"), perspective=name).perspective == seat
    if seat == 0:  # the detective replay's notes ask Player 1
        assert NeedleWidget.quiz(examples.load("detective"), seat=name, n=20).perspective == seat


def test_the_perspective_trait_takes_seat_names() -> None:
    w = NeedleWidget.from_replay(examples.load("detective"))
    w.perspective = "p2"
    assert w.perspective == 1
    w.perspective = "Teacher"
    assert w.perspective == "teacher"
    with pytest.raises(Exception, match="'p3'"):
        w.perspective = "p3"


def test_unknown_seat_names_are_refused_with_the_name() -> None:
    with pytest.raises(NeedleError, match="'p3'"):
        NeedleWidget(game=Game(seed=3), perspective="p3")
    with pytest.raises(NeedleError, match="'p3'"):
        NeedleWidget.play(seed=3, you="p3")


def test_export_takes_seat_names() -> None:
    replay = examples.load("detective")
    assert to_html(replay, perspective="p2") == to_html(replay, perspective=1)
    assert states(replay, "Player 1") == states(replay, 0)


@pytest.mark.parametrize(("typed", "same"), [("p1", "1"), ("P2", "2"), ("player2", "2"), ("Teacher", "teacher")])
def test_cli_show_takes_seat_names(tmp_path, typed: str, same: str) -> None:
    path = tmp_path / "r.json"
    examples.load("detective").save(path)
    assert run_cli("show", str(path), "--perspective", typed) == run_cli("show", str(path), "--perspective", same)


def test_cli_play_and_review_take_seat_names(tmp_path) -> None:
    assert run_cli("play", "--seed", "4", "--you", "p2")[0] == run_cli("play", "--seed", "4", "--you", "2")[0] == 0
    assert run_cli("play", "--seed", "4", "--you", "p2") == run_cli("play", "--seed", "4", "--you", "2")
    from needle_widget.apps import cli
    parser = cli.build_parser()
    assert parser.parse_args(["review", "x.json", "--seat", "Player 2"]).seat == (1,)
    assert parser.parse_args(["export", "x.json", "-o", "y.html", "--perspective", "Player 2"]).perspective == 1


def test_the_widget_s_seat_parameters_take_seat_names() -> None:
    from needle_widget import bots

    w = NeedleWidget.play(seed=3)
    w.replace_bot("p2", bots.GreedyBot())
    w.take_seat("Player 2")
    assert w.game.players[1] == "human"
    w = NeedleWidget(game=Game(seed=3), perspective="p1", mode="play", screen="p1")
    assert w.screen == 0
    r = NeedleWidget.from_replay(examples.load("long_with_reshuffle"), perspective="teacher", step=20)
    r.show_worlds(seat="p2")
    assert r.worlds["seat"] == 1
    r.show_graph(seat="Player 2")
    assert r.graph["seat"] == 1
    r.add_note(12, "Why steal here?", perspective="p2")
    assert r.notes[-1].perspective == 1
    r.edit_note(len(r.notes) - 1, perspective="Player 1")
    assert r.notes[-1].perspective == 0
    b = NeedleWidget.from_replay(examples.load("long_with_reshuffle"), perspective="p1", step=20)
    b.branch(seat="p1", opponent=bots.GreedyBot(), world="sampled")
    assert b.mode == "play"


def test_a_replay_s_notes_take_seat_names() -> None:
    replay = examples.load("long_with_reshuffle")
    note = replay.add_note(3, "Look at the pile", perspective="p1")
    assert note.perspective == 0 and note in replay.notes_for("P1") and note not in replay.notes_for("p2")
    with pytest.raises(NeedleError, match="'p3'"):
        replay.add_note(3, "x", perspective="p3")


def test_a_room_leads_from_a_seat_named_as_people_do(tmp_path) -> None:
    from needle_widget import classroom

    room = classroom.open(f"folder:{tmp_path}/room", start=False)
    try:
        assert room.lead(examples.load("detective"), perspective="p2").perspective == 1
        assert room.lead(examples.load("detective"), perspective="Player 1").perspective == 0
        with pytest.raises(NeedleError, match="'p3'"):
            room.lead(examples.load("detective"), perspective="p3")
    finally:
        room.close()
