"""Variations in a class lesson (issue 32, part 3): the lines a teacher keeps beside the lesson's replay reach the
students whose seat may open them, as frames like the game's (a world drawn from seat s's view to seat s, one
drawn from the spectator's to everyone, the real cards to no one), from the steps the class has reached; the
teacher leads the class into one (`lesson.go(step, line=...)`, or the lead widget's move list and "Play from
here"), the students who have it follow and the others wait at its first step; a student's screen opens and
steps along the lines it has; a rejoin and a reopened room give them again. And the twins at the channel: two
lessons whose replays differ only in a card of Player 2's hand, with the same variations, write byte-identical
messages for a Player 1 student at every step, inside the lines too.
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from conftest import settle
from test_class_twins import Channel, close, twin_rooms
from test_class_twins import settle as settle_twin
from test_secrecy import play_twins

from needle_widget import classroom, examples
from needle_widget.classroom import ClassError
from needle_widget.classroom.activity import FRAMES_PER_MESSAGE
from needle_widget.classroom.lesson import AWAY
from needle_widget.classroom.seal import unseal
from needle_widget.engine import actions
from needle_widget.inference.worlds import world_for
from needle_widget.records.replay import Replay


@pytest.fixture(params=["folder", "redis"])
def channel(request: pytest.FixtureRequest, tmp_path: Any) -> Channel:
    if request.param == "redis":
        return Channel("redis", tmp_path, request.getfixturevalue("redis_server"))
    return Channel("folder", tmp_path)


REAL, MINE, THEIRS, EVERYONE = range(4)
"""The variations `with_lines` adds, by index: the real cards, worlds drawn from Player 1's, Player 2's and the
spectator's views."""


def with_lines(r: Replay, k: int, seed: int = 11) -> Replay:
    """`r` with four variations from step `k`, one move each: the real cards, then worlds drawn (with `seed`)
    from Player 1's, Player 2's and the spectator's views.
    """
    r.add_variation(k, r.branch(k).legal_actions()[:1], name="Real")
    for seat in (0, 1, "spectator"):
        world = world_for(r, k, seat, seed=seed)
        moves = r.line(r.add_variation(k, [], world=world)).final_game.legal_actions()[:1]
        r.remove_variation(-1)
        r.add_variation(k, moves, world=world)
    return r


def indexes(student: Any) -> list[int]:
    return [item["index"] for item in student.lines]


def follow_text(student: Any) -> str:
    return student.state()["follow"]["text"]


# ---- the twins at the channel ------------------------------------------------------------------------


@pytest.mark.parametrize("seed", [3, 8])
def test_twin_lessons_with_variations_write_byte_identical_messages_for_the_seat_that_cannot_tell_them_apart(
        channel: Channel, seed: int) -> None:
    a, b = list(play_twins(seed, hidden_owner=1, watcher=0, steps=60))[-1]
    records = [g.replay() for g in (a, b)]
    k = len(records[0]) // 2
    for r in records:
        with_lines(r, k)
    assert records[0].deck != records[1].deck  # the twins differ: in Player 2's hand
    assert records[0].variations[MINE] == records[1].variations[MINE]  # the same world from Player 1's view
    assert records[0].variations[THEIRS] != records[1].variations[THEIRS]  # drawn from views that differ
    rooms = twin_rooms(channel, [0, 1])  # S0 at Player 1's seat, S1 at Player 2's
    seen = [lead_the_lines(channel, twin, room, students, replay, k)
            for twin, ((room, students), replay) in enumerate(zip(rooms, records, strict=True))]
    close(rooms)

    mine = [channel.box(twin, 0) for twin in (0, 1)]
    assert len(mine[0]) >= 12
    assert mine[0] == mine[1], "Player 1's student's messages differ between the twins"
    assert seen[0] == seen[1]
    # the twins do differ where Player 1 cannot see: Player 2's student's messages, the teacher's real cards
    assert channel.box(0, 1) != channel.box(1, 1)
    teacher = [json.dumps(r.line(REAL).final_game.view("teacher")) for r in records]
    assert teacher[0] != teacher[1]
    # Player 1's student got its lines' frames (anew, then the new move alone), and nothing of the real cards'
    # line or Player 2's world
    room, (s0, _) = rooms[0]
    got: set[int] = set()
    chunks = []
    for data in mine[0]:
        message = unseal(s0._key, s0.room, "in.0", data)[1]
        got |= {item["index"] for item in message.get("lines") or []}
        got |= {message[key] for key in ("line", "live_line") if message.get(key) is not None}
        if message.get("line") is not None:
            chunks.append((message["line"], message["from"], message["first"]))
        text = json.dumps(message, ensure_ascii=False)
        assert "the real cards" not in text and "Player 2's view" not in text and '"Real"' not in text
    assert got == {MINE, EVERYONE}
    assert chunks == [(MINE, k, k), (EVERYONE, k, k), (MINE, k, k + 2)]


def lead_the_lines(channel: Channel, twin: int, room: Any, students: list[Any], replay: Replay,
                   k: int) -> list[tuple[Any, ...]]:
    """Twin `twin`'s lesson: to step k, into each of `with_lines`'s lines and along it, back to the game, a move
    added to Player 1's world, and to the end; checks what S0 (Player 1) and S1 (Player 2) follow. Returns what
    S0 showed after each step.
    """
    s0, s1 = students
    lesson = room.lead(replay, perspective="assigned")
    shown: list[tuple[Any, ...]] = []

    def step(*where: Any) -> None:
        lesson.go(*where)
        settle_twin(room, students, channel, twin)
        shown.append((s0.line, s0.step, follow_text(s0)))

    settle_twin(room, students, channel, twin)
    step(k - 1)
    assert s0.lines == [] and s1.lines == []  # the class has not reached the step the lines start from
    step(k)
    assert indexes(s0) == [MINE, EVERYONE] and indexes(s1) == [THEIRS, EVERYONE]
    for index in (REAL, MINE, THEIRS, EVERYONE):  # the teacher shows each line, step by step
        for at in (k, k + 1):
            step(at, index)
            for student, own in ((s0, MINE), (s1, THEIRS)):
                if index in (own, EVERYONE):
                    assert (student.line, student.step) == (index, at) and student.live
                    assert student.state()["variations"]["current"] == index
                else:
                    assert (student.line, student.step) == (None, k) and AWAY in follow_text(student)
                    assert student.state()["variations"]["current"] is None
    step(k + 2)
    # the teacher plays one more move on Player 1's world: it reaches S0 as the frame of the new step
    line = replay.line(replay.variations[MINE])
    replay.extend_variation(MINE, line.final_game.legal_actions()[:1])
    settle_twin(room, students, channel, twin)
    assert s0.lines[0]["end"] == k + 2 and s0.step == k + 2
    s0.open_line(MINE, k + 2)
    assert s0.state()["step"] == k + 2 and s0.state()["variations"]["current"] == MINE
    for refused in (REAL, THEIRS):
        with pytest.raises(ClassError, match=f"There is no variation {refused} on your screen"):
            s0.open_line(refused)
    s0.back_to_live()
    step(len(replay))
    shown.append((json.dumps(s0.state(), sort_keys=True),))
    return shown


# ---- the flow -------------------------------------------------------------------------------------------


def test_students_receive_their_lines_and_follow_the_teacher_into_them(class_url: str) -> None:
    replay = with_lines(examples.load("long_with_reshuffle"), 10)
    room = classroom.open(class_url, start=False)
    tickets = [room.invite(name, seat=seat) for name, seat in (("Ann", 0), ("Bob", 1), ("Cy", 0))]
    ann, bob, cy = (classroom.join(room.url, t.code, start=False) for t in tickets)
    students = (ann, bob, cy)
    settle(room, *students)
    lesson = room.lead(replay, perspective="assigned")
    lesson.go(9)
    settle(room, *students)
    assert ann.lines == [] and ann.state()["variations"] is None
    lesson.go(12)
    settle(room, *students)
    assert indexes(ann) == indexes(cy) == [MINE, EVERYONE] and indexes(bob) == [THEIRS, EVERYONE]
    listed = ann.state()["variations"]
    assert listed["current"] is None and [x["index"] for x in listed["list"]] == [MINE, EVERYONE]
    assert [e["step"] for e in listed["list"][0]["events"]] == [11] and listed["editable"] is False
    # the teacher shows Player 1's world: Ann and Cy follow into it, Bob waits at step 10
    lesson.go(11, line=MINE)
    settle(room, *students)
    state = ann.state()
    assert (ann.line, ann.step, state["step"], state["steps"]) == (MINE, 11, 11, 11)
    assert state["variations"]["current"] == MINE and state["variations"]["from_step"] == 10
    assert len(state["variations"]["main"]) == 10 and state["follow"]["live_step"] == 11
    assert state["follow"]["text"] == "Following the teacher at step 11 of Variation 2"
    assert bob.step == 10 and bob.line is None and bob.state()["follow"]["text"] == \
        f"Following the teacher at step 10. {AWAY}"
    assert repr(lesson) == "Lesson('lesson', step=10/72, line=1 at step 11, questions=0)"
    lesson.back()
    settle(room, *students)
    assert (ann.line, ann.step) == (MINE, 10)
    # the real cards: nobody follows
    lesson.go(11, line=REAL)
    settle(room, *students)
    assert all((s.line, s.step) == (None, 10) and AWAY in follow_text(s) for s in students)
    # back to the game: everyone follows back
    lesson.go(12)
    settle(room, *students)
    assert all((s.line, s.step, s.live) == (None, 12, True) and AWAY not in follow_text(s) for s in students)
    with pytest.raises(ClassError, match="Cannot go to step 13 of variation 1: it has steps 10 to 11"):
        lesson.go(13, line=MINE)
    with pytest.raises(ClassError, match="There is no variation 7"):
        lesson.go(10, line=7)
    # added later (a world from Player 2's view at step 12), renamed, grown, removed: it reaches Bob only
    world = world_for(replay, 12, 1, seed=2)
    late = replay.add_variation(12, [], world=world)
    settle(room, *students)
    assert indexes(bob) == [THEIRS, EVERYONE, 4] and indexes(ann) == [MINE, EVERYONE]
    replay.rename_variation(4, "Later")
    replay.extend_variation(4, replay.line(late).final_game.legal_actions()[:1])
    settle(room, *students)
    assert bob.lines[-1] == {"index": 4, "label": "Later", "step": 12, "end": 13, "real": False,
                             "source": "a possible world drawn from Player 2's view"}
    bob.open_line(4, 13)
    assert bob.state()["variations"]["label"] == "Later" and bob.state()["step"] == 13
    bob.back_to_live()
    lesson.go(13, line=4)
    settle(room, *students)
    assert (bob.line, bob.step, bob.live) == (4, 13, True) and (ann.line, ann.step) == (None, 12)
    replay.remove_variation(4)  # the line shown goes: the class waits where it started
    settle(room, *students)
    assert lesson.position == (None, 12) and indexes(bob) == [THEIRS, EVERYONE]
    assert all((s.line, s.step, s.live) == (None, 12, True) and AWAY not in follow_text(s) for s in students)
    for s in students:
        s.close()
    room.close()


def test_play_from_here_in_the_lead_widget_takes_the_class_into_its_line(tmp_path: Any) -> None:
    from test_widget import send

    room = classroom.open(f"folder:{tmp_path}/room", start=False)
    ann, bob = (classroom.join(room.url, room.invite(n, seat=s).code, start=False) for n, s in (("Ann", 0), ("Bob", 1)))
    lesson = room.lead(examples.load("long_with_reshuffle"), perspective="assigned")
    widget = lesson.widget()
    try:
        widget.step = 10
        settle(room, ann, bob)
        send(widget, kind="branch", seat=0, opponent="hotseat", world="sampled", id=1)
        assert widget.answer["ok"], widget.error
        settle(room, ann, bob)
        assert lesson.position == (0, 10) and indexes(ann) == [0] and bob.lines == []
        for move in range(1, 4):  # each move of the branch reaches Ann, who follows; Bob waits at step 10
            widget.apply(widget.game.legal_actions()[0])
            settle(room, ann, bob)
            assert lesson.position == (0, 10 + move) and (ann.line, ann.step) == (0, 10 + move)
            assert ann.lines[0]["end"] == 10 + move and AWAY in follow_text(bob) and bob.step == 10
        send(widget, kind="back", id=2)
        settle(room, ann, bob)
        assert lesson.position == (None, 10) and (ann.line, ann.step) == (bob.line, bob.step) == (None, 10)
        send(widget, kind="line", variation=0, to=12, id=3)
        settle(room, ann, bob)
        assert lesson.position == (0, 12) and (ann.line, ann.step) == (0, 12)
        send(widget, kind="step", to=11, id=4)
        settle(room, ann, bob)
        assert (ann.line, ann.step) == (0, 11)
        send(widget, kind="line_edit", variation=0, how="rename", name="Her draw", id=5)
        settle(room, ann, bob)
        assert follow_text(ann) == "Following the teacher at step 11 of Her draw"
        send(widget, kind="line", variation=None, to=10, id=6)
        settle(room, ann, bob)
        assert lesson.position == (None, 10) and (ann.line, ann.step) == (None, 10)
        # a branch with the real cards: nobody follows, and its moves do not move the class along the game
        send(widget, kind="branch", seat=1, opponent="hotseat", world="real", id=7)
        widget.apply(widget.game.legal_actions()[0])
        settle(room, ann, bob)
        assert lesson.step == lesson.reached == 10 and lesson.position == (1, 11)
        assert all((s.line, s.step) == (None, 10) and AWAY in follow_text(s) for s in (ann, bob))
        # a new lead widget opens the line the class is in
        again = lesson.widget()
        assert again.variations["current"] == 1 and again.step == 11
        again.close()
    finally:
        widget.close()
    ann.close(), bob.close(), room.close()


def test_a_student_s_screen_opens_and_steps_along_its_lines_and_refusals_change_nothing(tmp_path: Any) -> None:
    from test_widget import send

    from needle_widget.jupyter.follow import FollowWidget

    room = classroom.open(f"folder:{tmp_path}/room", start=False)
    ann = classroom.join(room.url, room.invite("Ann", seat=0).code, start=False)
    lesson = room.lead(with_lines(examples.load("long_with_reshuffle"), 10), perspective="assigned")
    lesson.go(14)
    settle(room, ann)
    widget = FollowWidget(ann)
    try:
        assert [x["index"] for x in widget.variations["list"]] == [MINE, EVERYONE]
        send(widget, kind="line", variation=MINE, id=1)  # its first move
        assert widget.answer["ok"] and (widget.step, widget.steps) == (11, 11)
        assert widget.variations["current"] == MINE and widget.follow["status"] == "looking"
        assert widget.follow["text"] == "You are looking at step 11 of Variation 2; the class is at step 14"
        send(widget, kind="step", to=10, id=2)
        assert widget.step == 10 and widget.variations["current"] == MINE
        send(widget, kind="line", variation=EVERYONE, to=11, id=3)
        assert widget.variations["current"] == EVERYONE and widget.variations["source"].endswith("spectator's view")
        before = {name: getattr(widget, name) for name in ("step", "steps", "variations", "table", "follow")}
        for request, words in ((dict(kind="line", variation=REAL), "There is no variation 0 on your screen"),
                               (dict(kind="line", variation=THEIRS, to=11), "There is no variation 2"),
                               (dict(kind="line", variation=MINE, to=12), "Cannot show step 12 of Variation 2"),
                               (dict(kind="step", to=12), "Cannot show step 12 of Variation 4: it has steps 10 to 11"),
                               (dict(kind="line", variation=None, to=15), "Cannot show step 15 of the game")):
            send(widget, **request, id=9)
            assert widget.answer["ok"] is False and words in widget.error["text"], (request, widget.error)
            assert {name: getattr(widget, name) for name in before} == before
        send(widget, kind="step", to=6, id=4)  # before the line starts: the game's step
        assert widget.variations is None and widget.step == 6 and widget.steps == 14  # no line starts by step 6
        send(widget, kind="line", variation=MINE, to=11, id=5)
        send(widget, kind="line", variation=None, id=6)  # back to the game where the class is
        assert widget.variations["current"] is None and widget.step == 14 and widget.follow["status"] == "live"
        send(widget, kind="line", variation=MINE, to=10, id=7)
        lesson.go(11, line=MINE)  # the teacher comes to where Ann looks: she is live again
        settle(room, ann)
        widget._pull()
        assert widget.follow["status"] == "looking"  # she still looks at step 10
        send(widget, kind="live", id=8)
        assert (widget.step, widget.variations["current"], widget.follow["status"]) == (11, MINE, "live")
    finally:
        widget.close()
    room.close()


def test_a_rejoining_student_and_a_reopened_room_get_the_lines_and_the_position_again(class_url: str) -> None:
    room = classroom.open(class_url, start=False)
    ticket = room.invite("Ann", seat=1)
    ann = classroom.join(room.url, ticket.code, start=False)
    replay = with_lines(examples.load("long_with_reshuffle"), 10, seed=5)
    for _ in range(20):  # a long line: its frames come in two messages
        legal = replay.line(replay.variations[EVERYONE]).final_game.legal_actions()
        on = [a for a in legal if type(a) in (actions.DrawPile, actions.EndSets)] or \
            [a for a in legal if type(a) is actions.Discard][-1:]
        replay.extend_variation(EVERYONE, on[:1])
    end = replay.variations[EVERYONE].end
    assert end - 10 + 1 > FRAMES_PER_MESSAGE
    lesson = room.lead(replay, perspective="assigned", title="Lines")
    lesson.go(11, line=THEIRS)
    settle(room, ann)
    assert (ann.line, ann.step) == (THEIRS, 11)
    again = classroom.join(room.url, ticket.code, start=False)  # a new kernel: hello, the whole screen again
    settle(room, ann, again)
    assert indexes(again) == [THEIRS, EVERYONE] and (again.line, again.step) == (THEIRS, 11)
    assert again.state()["variations"] == ann.state()["variations"]
    again.open_line(EVERYONE, end)
    assert again.state()["step"] == again.state()["steps"] == end and again.lines[1]["end"] == end
    assert [e["step"] for e in again.state()["variations"]["list"][1]["events"]] == list(range(11, end + 1))
    room.close()

    room = classroom.open(class_url, start=False)  # the teacher's kernel restarted
    lesson = room.lesson
    assert lesson.title == "Lines" and lesson.position == (THEIRS, 11) and len(lesson.replay.variations) == 4
    assert "line" in room.state()["lesson"]
    latest = classroom.join(room.url, ticket.code, start=False)
    settle(room, latest)
    assert indexes(latest) == [THEIRS, EVERYONE] and (latest.line, latest.step) == (THEIRS, 11)
    lesson.go(20, line=EVERYONE)
    settle(room, latest)
    assert (latest.line, latest.step) == (EVERYONE, 20)
    assert latest.state()["variations"] == again.state()["variations"] | {"current": EVERYONE}
    for s in (ann, again, latest):
        s.close()
    room.close()
