"""The teacher's view of a match table (classroom/tablesource.py, issue 45 item 7): `room.open_table(n)` watches
table n from the teacher's seat, following each move and its next deal, each seat named for who holds it; it
steps back and returns to live, and no request turns it into a local game (no New deal, no Same deal, no move),
nor does its state offer one. The teacher's screen sees every card, but never a deal's seed.
"""

from __future__ import annotations

import json
import random

import pytest
from conftest import pumped_class
from conftest import settle as pump
from test_class_match import play_round
from test_class_twins import as_action

from needle_widget import NeedleError
from needle_widget.classroom import ClassError
from needle_widget.classroom.tablesource import TableSource


def move(room, students):
    """The student whose move it is plays their first legal move."""
    mover = next(s for s in students if s.state()["can_act"])
    mover.act(as_action(mover.state()["table"]["legal_actions"][0]))
    pump(room, *students)


@pytest.fixture
def url(tmp_path):
    return f"folder:{tmp_path}/room"


def no_seed(state, match):
    text = json.dumps(state)
    return "seed" not in text and not any(str(seed) in text for seed in match.seeds)


def test_a_table_view_follows_moves_and_the_next_deal_naming_both_seats(url):
    with pumped_class(url, ("Ann", "Bob")) as (room, (ann, bob)):
        match = room.match(deals=2, seed=3)
        pump(room, ann, bob)
        view = TableSource(room, 1)
        state = view.state()
        assert (state["perspective"], state["perspectives"], state["step"], state["steps"]) == ("teacher", ["teacher"],
                                                                                                0, 0)
        assert state["seats"] == ["Ann", "Bob"]
        assert all(p["hand"] is not None for p in state["table"]["players"])  # the teacher sees every card
        follow = state["follow"]
        assert follow["status"] == "live" and not follow["can_live"]
        assert follow["text"].startswith("Table 1 · deal 1 of 2 · Ann (Player 1) against Bob (Player 2)")
        assert not state["can_act"] and "watches table 1" in state["act_reason"]
        assert no_seed(state, match)

        move(room, (ann, bob))
        assert view.state()["step"] == view.state()["steps"] == len(match.tables[0].game) == 1
        play_round(room, (ann, bob), random.Random(4))
        over = view.state()
        assert over["table"]["phase"] == "over" and over["offers"] == {}  # no New deal, no Same deal again
        assert "the deal is over" in over["follow"]["text"]
        assert no_seed(over, match)

        ann.request({"kind": "new_game"})
        pump(room, ann, bob)
        second = view.state()
        assert second["step"] == 0 and view.replay.seed == match.seeds[1]
        assert second["seats"] == ["Bob", "Ann"]  # the seats swapped in the second round
        assert second["follow"]["text"].startswith("Table 1 · deal 2 of 2 · Bob (Player 1) against Ann (Player 2)")
        assert no_seed(second, match)


def test_the_teacher_steps_back_and_returns_to_live_while_the_table_moves_on(url):
    with pumped_class(url, ("Ann", "Bob")) as (room, (ann, bob)):
        room.match(deals=1, seed=5)
        pump(room, ann, bob)
        view = TableSource(room, 1)
        for _ in range(3):
            move(room, (ann, bob))
        view.request({"kind": "step", "to": 1})
        assert view.state()["step"] == 1 and view.state()["follow"]["status"] == "looking"
        move(room, (ann, bob))
        looking = view.state()
        assert (looking["step"], looking["steps"]) == (1, 4) and looking["follow"]["can_live"]
        assert looking["follow"]["text"].endswith("You are looking at step 1; the table is at step 4")
        with pytest.raises(ClassError, match="Cannot go to step 9: steps run from 0 to 4"):
            view.request({"kind": "step", "to": 9})
        view.request({"kind": "live"})
        assert view.state()["step"] == 4 and view.state()["follow"]["status"] == "live"
        view.request({"kind": "step", "to": 2})
        view.request({"kind": "step", "to": 4})  # the latest step is live again
        assert view.live and view.state()["follow"]["status"] == "live"


def test_no_request_turns_the_view_into_a_local_game(url):
    with pumped_class(url, ("Ann", "Bob")) as (room, (ann, bob)):
        match = room.match(deals=2, seed=3)
        pump(room, ann, bob)
        view = TableSource(room, 1)
        play_round(room, (ann, bob), random.Random(4))
        before = json.dumps(view.state(), sort_keys=True)
        game = match.tables[0].game
        legal = view.state()["table"]["legal_actions"]
        for message, words in (({"kind": "new_game", "deal": "new"}, "deal its next round"),
                               ({"kind": "new_game", "deal": "same"}, "starts no game"),
                               ({"kind": "act", "action": {"type": "draw"}}, "students play its moves"),
                               ({"kind": "branch", "seat": 0, "opponent": "greedy", "world": "real"}, "watches"),
                               ({"kind": "perspective", "to": 0}, "every card"),
                               ({"kind": "note_add", "step": 1, "text": "hi"}, "not something"),
                               ("new_game", "not something")):
            with pytest.raises(ClassError, match=words):
                view.request(message)
        assert json.dumps(view.state(), sort_keys=True) == before and legal == []
        assert match.tables[0].game is game and match.tables[0].round == 0  # the table did not move on either


def test_a_bot_s_seat_is_named_for_the_bot(url):
    with pumped_class(url, ("Ann",)) as (room, (ann,)):
        room.match(deals=1, seed=7)
        pump(room, ann)
        text = TableSource(room, 1).state()["follow"]["text"]
        assert text.startswith("Table 1 · deal 1 of 1 · Ann (Player 1) against the bot, greedy (Player 2)")
        with pytest.raises(ClassError, match="There is no table 2"):
            TableSource(room, 2)


def test_open_table_is_a_watching_widget_over_the_view(url):
    from needle_widget.jupyter.classscreens import TableWidget

    with pumped_class(url, ("Ann", "Bob")) as (room, (ann, bob)):
        match = room.match(deals=2, seed=3)
        pump(room, ann, bob)
        widget = room.open_table(1)
        assert isinstance(widget, TableWidget) and isinstance(widget.source, TableSource)
        assert widget.perspective == "teacher" and widget.seats == ["Ann", "Bob"] and widget.follow["name"] == "Table 1"
        move(room, (ann, bob))
        assert widget.step == widget.steps == 1  # followed from the room's news, no request made
        widget.go(0)
        assert widget.step == 0 and widget.follow["status"] == "looking"
        widget.live()
        assert widget.step == 1
        play_round(room, (ann, bob), random.Random(4))
        assert widget.table["phase"] == "over" and widget.offers == {}
        widget._on_message(widget, {"kind": "new_game", "deal": "same", "id": 1})
        assert widget.answer["ok"] is False and "starts no game" in widget.answer["error"]
        assert widget.table["phase"] == "over" and match.tables[0].round == 0
        with pytest.raises(NeedleError, match="A table's live view is the teacher's"):
            room.open_table(1, perspective=0)
        widget.close()
        ann.request({"kind": "new_game"})
        pump(room, ann, bob)
        assert widget.table["phase"] == "over"  # a closed view follows no more


def test_a_table_the_latest_match_has_not_keeps_its_last_game_and_says_so(url):
    with pumped_class(url, ("Ann", "Bob")) as (room, (ann, bob)):
        room.match(deals=1, seed=5)
        pump(room, ann, bob)

        class Fewer:
            """The room, once a later match has no table 1 (fewer students seated)."""

            name, gone = room.name, False

            def table_replay(self, table, round=None):
                if self.gone:
                    raise ClassError("There is no table 1: the match has tables 1 to 0")
                return room.table_replay(table, round)

            def latest(self, kind):
                return room.latest(kind)

            def subscribe(self, callback):
                return room.subscribe(callback)

        fewer = Fewer()
        view = TableSource(fewer, 1)
        move(room, (ann, bob))
        assert view.state()["step"] == 1  # its widget asks at each change the room tells of
        fewer.gone = True
        state = view.state()
        assert state["step"] == 1 and state["follow"]["status"] == "waiting"
        assert state["follow"]["text"].endswith("its last game, at step 1. There is no table 1: the match has tables "
                                                "1 to 0")
        view.request({"kind": "step", "to": 0})
        assert view.state()["step"] == 0
        with pytest.raises(ClassError, match="A table's view needs a classroom Room"):
            TableSource(object(), 1)
