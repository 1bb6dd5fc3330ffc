"""A real term for a teacher (issue 45): presence from a heartbeat, seating those present, a latecomer, the roster
edited, endings the students see, the question in the follow bar, the board's headline, homework of one's own
games, a room another kernel holds, and a room opened only to read. On the folder channel and the real Redis.
"""

from __future__ import annotations

import csv
import random
import re
import time

import pytest
from conftest import pumped_class
from conftest import settle as pump
from test_class_match import play_round

from needle_widget import classroom, examples
from needle_widget.classroom import ClassError
from needle_widget.classroom.presence import HEARTBEAT, PRESENCE_TIMEOUT


@pytest.fixture
def url(class_url):
    return class_url


def online(board):
    return {row["name"]: row["online"] for row in board["students"]}


def test_online_is_a_heartbeat_not_having_joined_once(url, tmp_path):
    """Item 4: "Online" was "Joined". A student is online while their kernel speaks (a hello, a request, or its
    heartbeat every HEARTBEAT s), offline PRESENCE_TIMEOUT s after, at once when it says goodbye, and after the
    room reopens nobody is online until their kernel speaks again, though they stay joined.
    """
    assert PRESENCE_TIMEOUT == 3 * HEARTBEAT
    with pumped_class(url, ("Ann", "Bob")) as (room, (ann, bob)):
        assert online(room.board_state()) == {"Ann": True, "Bob": True}
        later = time.monotonic() + PRESENCE_TIMEOUT
        assert room.online(now=later) == []
        ann.beat()
        pump(room, ann)
        assert room.online(now=later) == ["Ann"]
        bob.close()
        pump(room)
        assert room.online() == ["Ann"] and room.board_state()["roster"]["online"] == 1
        room.close()
        reopened = classroom.open(url, start=False)
        try:
            board = reopened.board_state()
            assert [r["joined"] for r in board["students"]] == [True, True]
            assert online(board) == {"Ann": False, "Bob": False}
            ann.beat()
            pump(reopened, ann)
            assert reopened.online() == ["Ann"]
        finally:
            reopened.close()


def test_a_started_student_says_here_on_its_own(tmp_path, monkeypatch):
    """The heartbeat is the kernel's own: a started student's workers post "here" without being asked."""
    from needle_widget.classroom import student as student_module

    monkeypatch.setattr(student_module, "HEARTBEAT", 0.05)
    room = classroom.open(f"folder:{tmp_path}/room", start=False)
    ann = classroom.join(room.url, room.invite("Ann").code)
    try:
        deadline = time.monotonic() + 10
        heard = 0
        while time.monotonic() < deadline and heard < 3:
            before = time.monotonic()
            room.pump(0.2)
            heard += room.online() == ["Ann"] and time.monotonic() >= before
        assert room.online() == ["Ann"]
        stamp = room.members()[0].seen
        time.sleep(0.3)
        room.pump(0.2)
        assert room.members()[0].seen > stamp  # heard again: the heartbeat goes on
    finally:
        ann.close()
        room.close()


def test_a_match_seats_the_students_present_or_those_named(url):
    """Item 2: a match seated every invited student, present or not, and the teacher could not choose."""
    with pumped_class(url, ("Ann", "Bob", "Cy")) as (room, (ann, bob, cy)):
        absent = room.invite("Dee")
        assert [m.name for m in room.members()] == ["Ann", "Bob", "Cy", "Dee"] and absent
        match = room.match(deals=1, seed=7)
        assert [t.players for t in match.tables] == [(0, 1), (2, None)]  # Dee, never here, sits nowhere
        match = room.match(deals=1, seed=7, players=["Cy", "Ann"])
        pump(room, ann, bob, cy)
        assert [t.players for t in match.tables] == [(2, 0)]
        assert "you play in the next one" in bob.state()["follow"]["text"]
        for bad, words in [(["Ann", "Ann"], "named twice"), (["Zed"], "No student on the roster is called 'Zed'"),
                           ("Ann", "list of the students' names"), ([], "list of the students' names")]:
            with pytest.raises(ClassError, match=words):
                room.match(deals=1, players=bad)
    with pumped_class(url.replace("room", "empty") if url.startswith("folder") else url + "x", ()) as (room, _):
        room.invite("Ann")
        with pytest.raises(ClassError, match="Nobody is online"):
            room.match()


def test_a_latecomer_takes_the_bot_s_seat_from_its_next_deal(url):
    with pumped_class(url, ("Ann", "Bob", "Cy")) as (room, (ann, bob, cy)):
        match = room.match(deals=2, seed=3)
        pump(room, ann, bob, cy)
        assert match.tables[1].players == (2, None)
        late = classroom.join(room.url, room.invite("Dee").code, start=False)
        pump(room, ann, bob, cy, late)
        assert late.state()["follow"]["text"].startswith("You take the bot's seat at table 2 from its next deal")
        assert match.tables[1].players == (2, None)  # Cy's game with the bot goes on
        play_round(room, (cy, late), random.Random(1))
        cy.request({"kind": "new_game"})
        pump(room, ann, bob, cy, late)
        assert match.tables[1].players == (2, 3)
        assert "against Cy" in late.state()["follow"]["text"] and "against Dee" in cy.state()["follow"]["text"]
        assert room.board_state()["match"]["tables"][1]["players"] == ["Cy", "Dee"]
        late.close()


def test_a_latecomer_sits_at_once_where_nobody_has_moved(url):
    with pumped_class(url, ("Ann",)) as (room, (ann,)):
        match = room.match(deals=1, seed=3)  # Ann against the bot: table 1, the bot at Player 2
        pump(room, ann)
        assert match.tables[0].players == (0, None) and len(match.tables[0].game.history) == 0
        late = classroom.join(room.url, room.invite("Bob").code, start=False)
        pump(room, ann, late)
        assert match.tables[0].players == (0, 1)
        assert "against Bob" in ann.state()["follow"]["text"] and "against Ann" in late.state()["follow"]["text"]
        late.close()


def test_the_roster_is_edited_and_a_removed_ticket_stops_working(url):
    with pumped_class(url, ("Ann", "Bob")) as (room, (ann, bob)):
        old = room.tickets[1]
        room.rename("Bob", "Robert")
        pump(room, ann, bob)
        assert bob.name == "Robert" and [m.name for m in room.members()] == ["Ann", "Robert"]
        with pytest.raises(ClassError, match="called 'Ann' already"):
            room.rename("Robert", "Ann")
        with pytest.raises(ClassError, match="No student on the roster is called 'Bob'"):
            room.rename("Bob", "Rob")
        room.remove("Robert")
        pump(room, ann, bob)
        if url.startswith("folder"):  # the room tells the kernel; it ignores what that kernel posts
            assert bob.state()["follow"]["text"] == ("The teacher took you off this class's roster: this ticket no "
                                                    "longer works")
        else:  # Redis deletes the ticket's user: the channel refuses it
            assert "refused this ticket's user" in bob.state()["follow"]["text"]
        assert [t.name for t in room.tickets] == ["Ann"] and room.online() == ["Ann"]
        assert [r["name"] for r in room.board_state()["students"]] == ["Ann"]
        lesson = room.lead(examples.load("detective"), perspective=0)
        lesson.go(3)
        pump(room, ann, bob)
        assert bob.step is None or bob.step != 3  # nothing of the lesson reaches a removed ticket
        again = room.invite("Robert")
        assert again.index == 2 and again.code != old.code
        rob = classroom.join(room.url, again.code, start=False)
        pump(room, ann, rob)
        assert rob.step == 3
        rob.close()
        reopened_state = room.state()
        assert [m["removed"] for m in reopened_state["members"]] == [False, True, False]


def test_the_end_of_a_lesson_and_the_room_s_closing_reach_every_screen(url):
    """Item 5: students were never told the lesson ended."""
    with pumped_class(url, ("Ann", "Bob")) as (room, students):
        room.lead(examples.load("detective"), perspective=0)
        pump(room, *students)
        room.end("The lesson is over: see you on Monday")
        pump(room, *students)
        for s in students:
            assert s.state()["follow"]["text"] == "The lesson is over: see you on Monday"
        assert room.board_state()["headline"] == {"kind": "idle", "text": "The lesson is over: see you on Monday"}
        room.close()
        pump(room, *students)
        for s in students:
            assert s.state()["follow"]["status"] == "closed"


def test_an_open_question_shows_in_the_follow_bar_and_headlines_the_board_only_while_shown(url):
    """Item 10: the question sat below the widget with no hint; a stale one headlined the board above a match."""
    with pumped_class(url, ("Ann", "Bob")) as (room, (ann, bob)):
        lesson = room.lead(examples.load("detective"), perspective=0)
        lesson.go(4)
        lesson.ask("winner")
        pump(room, ann, bob)
        hint = ann.state()["follow"]["question"]
        assert hint == {"index": 0, "label": hint["label"], "answered": False} and hint["label"]
        headline = room.board_state()["headline"]
        assert headline["kind"] == "question" and headline["text"].startswith("Question 1 (")
        ann.answer(0.5)
        pump(room, ann, bob)
        assert ann.state()["follow"]["question"]["answered"] is True
        lesson.reveal()
        pump(room, ann, bob)
        score = room.board_state()["students"][0]["score"]  # the gradebook's points, and the Brier score they come from
        assert re.fullmatch(r"\d+ of 100 \(Brier 0\.\d{3}\)", score) and ann.state()["follow"]["question"] is None
        brier = float(score.split("Brier ")[1][:-1])
        assert int(score.split()[0]) == round(100 * (1 - brier))
        room.match(deals=1, seed=2)
        pump(room, ann, bob)
        assert ann.state()["follow"]["question"] is None
        assert room.board_state()["headline"]["kind"] == "match"
        assert room.board_state()["question"] is not None  # last lesson's question is still on the board, below


def test_homework_is_each_student_s_own_mistakes_on_their_own_screen(tmp_path):
    """Deliver 3: room.assign_practice gives each student the exercises of their own games; the board shows who has
    done how many; it survives a reopened room.
    """
    url = f"folder:{tmp_path}/room"
    room = classroom.open(url, start=False, secret=bytes(32))  # the reviews' worlds come from the secret: fixed
    ann, bob = (classroom.join(room.url, room.invite(name).code, start=False) for name in ("Ann", "Bob"))
    pump(room, ann, bob)
    with room:
        room.record.worlds = 8
        match = room.match(deals=1, seed=4)
        pump(room, ann, bob)
        play_round(room, (ann, bob), random.Random(2))
        assert all(t.over for t in match.tables)
        assert room.wait_for_reviews(120)
        homework = room.assign_practice()
        pump(room, ann, bob)
        assert homework.sources == ("match 1",)
        progress = room.homework_progress()
        assert set(progress) == {"Ann", "Bob"} and all(done == 0 for done, _ in progress.values())
        student = ann if progress["Ann"][1] else bob
        given = progress[student.name][1]
        assert given >= 1, progress
        assert student.state()["follow"]["homework"] == {"id": 1, "title": homework.title, "assigned": given,
                                                         "done": 0, "open": False}
        student.request({"kind": "homework", "open": True})
        state = student.state()
        assert state["mode"] == "practice" and state["follow"]["homework"]["open"] is True
        student.request({"kind": "practice_show", "index": state["practice_state"]["index"]})
        student.request({"kind": "practice_next", "index": state["practice_state"]["index"]})
        pump(room, ann, bob)
        assert room.homework_progress()[student.name] == (1, given)
        rows = room.board_state()["homework"]["rows"]
        assert {r["name"]: (r["done"], r["assigned"]) for r in rows}[student.name] == (1, given)
        projector = room.board_state("projector")["homework"]
        assert projector["rows"] is None and projector["students"] == 2
        student.request({"kind": "live"})
        assert student.state()["follow"]["homework"]["done"] == 1
        mine = student.history()  # the student's own term, as the room sent it
        assert [g["opponent"] for g in mine.games] == [("Bob" if student is ann else "Ann")]
        assert mine.games[0]["luck_adjusted"] is not None and "Your games" in mine._repr_html_()
        assert mine.homework == ({"homework": f"Homework 1: {homework.title}", "done": 0, "assigned": given},) or \
            mine.homework[0]["assigned"] == given
        teacher_side = room.history(student.name)
        assert [g["game"] for g in teacher_side["games"]] == [g["game"] for g in mine.games]
        with pytest.raises(ClassError, match="assign_practice takes the room's activities"):
            room.assign_practice("match 9")
        # the real room's gradebook counts the real homework, and leaves a removed student out
        room.export_gradebook(tmp_path / "grades.csv")
        rows = list(csv.DictReader((tmp_path / "grades.csv").read_text(encoding="utf-8-sig").splitlines()))
        column = next(c for c in rows[0] if c.startswith("Homework 1"))
        assert {r["Student"]: r[column] for r in rows}[student.name] == str(round(100 / given))
        other = bob if student is ann else ann
        room.remove(other.name)
        room.export_gradebook(tmp_path / "grades.csv")
        rows = list(csv.DictReader((tmp_path / "grades.csv").read_text(encoding="utf-8-sig").splitlines()))
        assert [r["Student"] for r in rows] == [student.name]
        assert room.export_games(tmp_path / "games.csv") == 1  # the removed student's game stays in the record
        games = list(csv.DictReader((tmp_path / "games.csv").read_text(encoding="utf-8-sig").splitlines()))
        assert sorted([games[0]["Player 1"], games[0]["Player 2"]]) == ["Ann", "Bob"]  # named, removed or not
        ann.close(), bob.close()
    reopened = classroom.open(url, start=False)
    try:
        assert reopened.homework_progress()[student.name] == (1, given)
    finally:
        reopened.close()


def test_a_second_kernel_holding_the_room_is_warned_and_a_read_only_one_writes_nothing(tmp_path):
    """The "Also" item: opening a room another kernel holds gave no warning. A room opened read_only (an export)
    writes nothing, and the students hear nothing of it.
    """
    url = f"folder:{tmp_path}/room"
    room = classroom.open(url, start=False)
    room.pump()
    try:
        other = classroom.open(url, start=False)
        assert any("another kernel holds this room" in line for line in other.log), list(other.log)
        other.close()
        room.pump()
        ann = classroom.join(room.url, room.invite("Ann").code, start=False)
        pump(room, ann)
        files = sorted((p, p.stat().st_mtime_ns) for p in (tmp_path / "room").rglob("*") if p.is_file())
        look = classroom.open(url, read_only=True)
        assert look.read_only and [m.name for m in look.members()] == ["Ann"]
        look.lead(examples.load("detective"))
        look.close()
        assert sorted((p, p.stat().st_mtime_ns) for p in (tmp_path / "room").rglob("*") if p.is_file()) == files
        pump(room, ann)
        assert ann.state()["follow"]["status"] == "waiting"
        ann.close()
    finally:
        room.close()
    with pytest.raises(ClassError, match="no room"):
        classroom.open(f"folder:{tmp_path}/nothing", read_only=True)


def test_lesson_of_names_the_lesson_an_activity_followed(url):
    with pumped_class(url, ("Ann", "Bob")) as (room, students):
        room.match(deals=1, seed=1)
        room.lead(examples.load("detective"))
        room.lead(examples.load("found_early"))
        room.match(deals=1, seed=2)
        assert room.lesson_of("match 1/table 1/deal 1") == 0
        assert room.lesson_of("match 2/table 1/deal 1") == 2
        assert room.lesson_of("challenge 7/student 0") is None


def test_a_student_joins_with_one_string(url):
    """Deliver 5: students join with one string, the room's address and their ticket."""
    from needle_widget.classroom import TicketError

    with pumped_class(url, ("Ann",)) as (room, (ann,)):
        room.invite("Bob")
        text = room.invitation("Bob")
        assert text == f"{room.url}#{room.tickets[1].code}"
        bob = classroom.join(text, start=False)
        pump(room, ann, bob)
        assert bob.name == "Bob" and room.online() == ["Ann", "Bob"]
        bob.close()
        with pytest.raises(TicketError, match="Not an invitation to a class"):
            classroom.join(f"{room.url}#", start=False)
        with pytest.raises(TicketError, match="Not a class ticket"):  # an address alone: no ticket
            classroom.join(room.url, start=False)
        with pytest.raises(ClassError, match="No student on the roster is called 'Zed'"):
            room.invitation("Zed")


def test_heartbeats_posted_while_the_room_was_closed_say_nothing_of_who_is_online(tmp_path):
    """The term's browser test found it: a student beat while the room was closed, then their kernel died; the room
    reopened a while later and read the old heartbeat as a student online now. And a kernel told the room closed
    stops beating (the beats piled up in the folder until the room reopened).
    """
    url = f"folder:{tmp_path}/room"
    room = classroom.open(url, start=False)
    ann = classroom.join(room.url, room.invite("Ann").code, start=False)
    pump(room, ann)
    ann.beat()  # posted, never read: the room closes
    room.close()
    ann.link.flush()
    reopened = classroom.open(url, start=False)
    try:
        pump(reopened)
        assert reopened.online() == []  # her kernel may be gone: a backlog is no presence
        ann.pump()
        assert ann.state()["follow"]["status"] != "closed"  # the reopened room sent her screen again
        ann.beat()
        pump(reopened, ann)
        assert reopened.online() == ["Ann"]
        reopened.close()
        ann.pump()
        box = tmp_path / "room" / "out" / "0"
        before = len(list(box.iterdir()))
        ann.beat()
        ann.link.flush()
        assert len(list(box.iterdir())) == before  # closed: no beat
    finally:
        ann.close()
