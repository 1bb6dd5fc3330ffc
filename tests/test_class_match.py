"""Students play each other (classroom/match.py, issue 30 part 2): seating two a table (a bot at an odd
seat), every table the same deals as a duplicate movement (half the tables each way round, nobody playing a
deal twice), the room as
the game server (a move reaches the opponent's screen), the board's tables, a restart, and the twins at the
channel: two matches whose deals differ only in a card one student cannot see write byte-identical messages
for that student.
"""

from __future__ import annotations

import json
import random
from types import SimpleNamespace

import pytest
from conftest import pumped_class
from conftest import settle as pump
from test_class_twins import SECRET, Channel, as_action, opponent_secrets, twin_rooms, whole_frames
from test_class_twins import close as close_rooms
from test_class_twins import settle as settle_twin
from test_secrecy import touches, twin_decks

from needle_widget import Card, Game, classroom
from needle_widget.classroom import ClassError
from needle_widget.classroom import match as match_module
from needle_widget.classroom.seal import unseal


@pytest.fixture
def url(class_url):
    return class_url


@pytest.fixture(params=["folder", "redis"])
def channel(request, tmp_path):
    if request.param == "redis":
        return Channel("redis", tmp_path, request.getfixturevalue("redis_server"))
    return Channel("folder", tmp_path)


def play_round(room, students, rng, limit=400):
    """Every student moves whenever their screen lets them (a random legal move) until no one can."""
    for _ in range(limit):
        moved = False
        for s in students:
            state = s.state()
            if state["can_act"]:
                s.act(as_action(rng.choice(state["table"]["legal_actions"])))
                moved = True
        pump(room, *students)
        if not moved:
            return


def test_students_are_seated_two_a_table_and_a_bot_takes_the_odd_seat(url):
    with pumped_class(url, ("Ann", "Bob", "Cy")) as (room, (ann, bob, cy)):
        match = room.match(deals=1, seed=7)
        pump(room, ann, bob, cy)
        assert [t.players for t in match.tables] == [(0, 1), (2, None)]
        texts = [s.state()["follow"]["text"] for s in (ann, bob, cy)]
        assert texts == ["Match · deal 1 of 1 · you are Player 1, against Bob",
                         "Match · deal 1 of 1 · you are Player 2, against Ann",
                         "Match · deal 1 of 1 · you are Player 2, against the bot"]  # table 2 the other way round
        assert room.table_replay(1).players == ("Ann", "Bob")  # issue 45: the tables name who sits there
        assert room.table_replay(2).players == ("greedy", "Cy")
        assert [s.state()["mode"] for s in (ann, bob, cy)] == ["play"] * 3
        assert [s.state()["perspectives"] for s in (ann, bob, cy)] == [[0], [1], [1]]
        assert ann.state()["can_act"] and not bob.state()["can_act"]
        assert bob.state()["act_reason"] == "It is Player 1's move, not yours"


def test_a_move_reaches_the_opponent_s_screen_and_a_round_plays_to_its_end(url):
    with pumped_class(url, ("Ann", "Bob")) as (room, (ann, bob)):
        match = room.match(deals=2, seed=3)
        pump(room, ann, bob)
        needle = ann.state()["table"]["legal_actions"][0]
        ann.act(as_action(needle))
        pump(room, ann, bob)
        assert bob.state()["step"] == ann.state()["step"] == 1 and bob.state()["can_act"]
        assert bob.state()["events"][-1]["text"] == "Player 1 picked a needle."
        play_round(room, (ann, bob), random.Random(2))
        table = match.tables[0]
        assert table.over and len(table.results) == 1
        assert ann.state()["table"]["phase"] == bob.state()["table"]["phase"] == "over"
        assert ann.state()["offers"]["new_game"]["reason"] is None
        board = room.board_state("teacher")["match"]
        assert board["tables"][0]["players"] == ["Ann", "Bob"] and board["tables"][0]["status"] == "over"
        assert room.board_state("projector")["match"]["tables"][0]["players"] == ["Seat 1", "Seat 2"]


def test_every_table_plays_each_deal_once_half_of_them_the_other_way_round(url):
    """Duplicate: each round one deal at every table, half the tables with the seats swapped; a student
    alternates seats and never meets a deal twice (they would know the opponent's hand and the pile).
    """
    with pumped_class(url, ("Ann", "Bob", "Cy", "Di")) as (room, students):
        match = room.match(deals=3, seed=11)
        pump(room, *students)
        held: dict[int, list[tuple]] = {s.index: [] for s in students}
        for r in range(match.rounds):
            assert len({tuple(t.game.deck) for t in match.tables}) == 1  # every table holds the same deal
            seats = [s.state()["perspectives"][0] for s in students]
            assert seats == ([0, 1, 1, 0] if r % 2 == 0 else [1, 0, 0, 1])
            for s in students:
                held[s.index].append((tuple(match.table_of(s.index).game.deck), s.state()["perspectives"][0]))
            play_round(room, students, random.Random(r))
            assert all(t.over for t in match.tables)
            assert room.board_state("projector")["match"]["settled"] == r + 1
            if r + 1 < match.rounds:
                for k in (0, 2):
                    students[k].request({"kind": "new_game", "deal": "new"})
                pump(room, *students)
        for index, deals in held.items():
            assert len({deck for deck, _ in deals}) == match.rounds, index  # no deal twice
        for r in range(match.rounds):  # each deal held from both seats across the class
            assert {held[i][r][1] for i in held} == {0, 1}
        assert [len(t.results) for t in match.tables] == [3, 3]
        with pytest.raises(ClassError, match="last deal"):
            students[0].request({"kind": "new_game"})


def test_a_deal_s_results_stay_off_the_board_while_another_table_plays_it(url):
    with pumped_class(url, ("Ann", "Bob", "Cy", "Di")) as (room, (ann, bob, cy, di)):
        match = room.match(deals=1, seed=6)
        pump(room, ann, bob, cy, di)
        play_round(room, (ann, bob), random.Random(1))
        assert match.tables[0].over and not match.tables[1].over
        board = room.board_state("projector")["match"]
        assert board["settled"] == 0 and [t["margin"] for t in board["tables"]] == [[0, 0], [0, 0]]
        play_round(room, (cy, di), random.Random(2))
        board = room.board_state("projector")["match"]
        result = match.tables[0].results[0]
        ann_seat = result["seats"].index(0)
        assert board["settled"] == 1
        assert board["tables"][0]["margin"][0] == result["scores"][ann_seat] - result["scores"][1 - ann_seat]


def test_a_restarted_student_resumes_the_game_with_their_ticket(url):
    with pumped_class(url, ("Ann", "Bob")) as (room, (ann, bob)):
        room.match(deals=1, seed=4)
        pump(room, ann, bob)
        ann.act(as_action(ann.state()["table"]["legal_actions"][0]))
        pump(room, ann, bob)
        step = bob.state()["step"]
        bob.close()
        again = classroom.join(room.url, room.invite("Bob").code, start=False)
        pump(room, ann, again)
        state = again.state()
        assert state["step"] == step and state["can_act"] and state["perspectives"] == [1]
        again.act(as_action(state["table"]["legal_actions"][0]))
        pump(room, ann, again)
        assert ann.state()["step"] == step + 1
        again.close()


def test_the_teacher_opens_any_table_now_or_a_finished_round(url):
    with pumped_class(url, ("Ann", "Bob", "Cy")) as (room, students):
        with pytest.raises(ClassError, match="No match"):
            room.table_replay(1)
        match = room.match(deals=1, seed=8)
        pump(room, *students)
        assert len(room.table_replay(2)) == len(match.tables[1].game.replay())
        play_round(room, students, random.Random(3))
        finished = room.table_replay(1, round=1)
        assert finished.result is not None and finished.to_dict() == match.tables[0].game.replay().to_dict()
        for bad in (0, 3, "1"):
            with pytest.raises(ClassError, match="no table"):
                room.table_replay(bad)
        with pytest.raises(ClassError, match="has not finished round 2"):
            room.table_replay(1, round=2)


@pytest.fixture
def clock(monkeypatch):
    """The match's clock, set by hand: [seconds]."""
    now = [1000.0]
    monkeypatch.setattr(match_module, "time", SimpleNamespace(monotonic=lambda: now[0]))
    return now


def left_waiting(room, ann, bob, now, seconds):
    """Ann moves; Bob's move then waits `seconds` on the room's clock."""
    pump(room, ann, bob)
    ann.act(as_action(ann.state()["table"]["legal_actions"][0]))
    pump(room, ann, bob)
    now[0] += seconds
    room.tick(now[0])
    pump(room, ann, bob)


def test_a_bot_stands_in_for_a_student_who_left_the_table_waiting(url, clock):
    now = clock
    with pumped_class(url, ("Ann", "Bob")) as (room, (ann, bob)):
        with pytest.raises(ClassError, match="replace_after is 1 to 3600"):
            room.match(replace_after=0)
        match = room.match(deals=2, seed=4, replace_after=60)
        left_waiting(room, ann, bob, now, 59)
        assert bob.state()["can_act"] and not match.tables[0].stand_ins
        now[0] += 2
        room.tick(now[0])
        pump(room, ann, bob)
        table = match.tables[0]
        assert 1 in table.stand_ins and room.board_state("teacher")["match"]["tables"][0]["status"] == "stood in"
        assert not bob.state()["can_act"] and bob.state()["act_reason"].startswith("A bot plays your seat")
        with pytest.raises(ClassError, match="Not your move now: A bot plays your seat"):
            bob.act({"type": "draw_pile"})
        play_round(room, (ann, bob), random.Random(5))
        assert table.over and table.results[0]["stood_in"] == [1]
        ann.request({"kind": "new_game"})
        pump(room, ann, bob)
        assert not table.stand_ins and bob.state()["perspectives"] == [0] and bob.state()["can_act"]


def test_a_stand_in_that_fails_gives_the_student_the_seat_back(url, clock, monkeypatch, caplog):
    """A table never waits for ever on a broken stand-in: its failure is logged and the seat is the student's."""

    class Broken:
        name = "broken"

        def choose(self, view, legal_actions):
            raise RuntimeError("no move")

        def explain(self):
            return ""

    with pumped_class(url, ("Ann", "Bob")) as (room, (ann, bob)):
        match = room.match(deals=1, seed=4, replace_after=60)
        monkeypatch.setattr(match_module, "make_bot", lambda name, seed=None: Broken())
        left_waiting(room, ann, bob, clock, 61)
        assert not match.tables[0].stand_ins and bob.state()["can_act"]
        assert "the bot standing in at table 1 failed" in caplog.text


def test_a_room_with_workers_ticks_its_activity(tmp_path, monkeypatch):
    from needle_widget.classroom import room as room_module

    monkeypatch.setattr(room_module, "TICK", 0.05)
    room = classroom.open(f"folder:{tmp_path}/room", start=True)
    ticks = []
    monkeypatch.setattr(room, "tick", lambda: ticks.append(1))
    room.close()
    room = classroom.open(f"folder:{tmp_path}/room", start=False)
    monkeypatch.setattr(room, "tick", lambda: ticks.append(1))
    room.start()
    import time
    deadline = time.monotonic() + 5
    while len(ticks) < 3 and time.monotonic() < deadline:
        time.sleep(0.02)
    room.close()
    assert len(ticks) >= 3


def test_a_student_invited_after_the_match_started_waits(url):
    with pumped_class(url, ("Ann", "Bob")) as (room, (ann, bob)):
        room.match(deals=1, seed=2)
        pump(room, ann, bob)
        late = classroom.join(room.url, room.invite("Cy").code, start=False)
        pump(room, ann, bob, late)
        assert late.state()["follow"]["text"] == "The match started before you joined: you play in the next one"
        assert not late.state()["can_act"] and ann.state()["can_act"]
        with pytest.raises(ClassError):
            late.act({"type": "draw_pile"})
        late.close()


def test_a_match_refuses_what_it_cannot_do(url):
    with pumped_class(url, ("Ann", "Bob")) as (room, (ann, bob)):
        with pytest.raises(ClassError, match="1 to 20 deals"):
            room.match(deals=0)
        with pytest.raises(ClassError, match="bot is one of"):
            room.match(opponent="nobody")
        room.match(deals=2, seed=1)
        pump(room, ann, bob)
        with pytest.raises(ClassError, match="Not your move now: It is Player 1's move"):
            bob.act({"type": "draw_pile"})
        with pytest.raises(ClassError, match="once this one is over"):
            ann.request({"kind": "new_game"})
        bob.post({"t": "new_game", "match": 1, "deal": "new"})
        bob.post({"t": "act", "match": 1, "action": {"type": "draw_pile"}})
        pump(room, ann, bob)
        assert bob.state()["follow"]["text"].endswith("not allowed: it is Player 1's move, not yours")
        bob.post({"t": "act", "match": 2, "action": {"type": "draw_pile"}})
        pump(room, ann, bob)
        assert bob.state()["follow"]["text"].endswith("No match is being played")


def test_a_reopened_room_takes_the_match_up_where_it_was(tmp_path):
    url = f"folder:{tmp_path}/room"
    room = classroom.open(url, secret=SECRET, start=False)
    students = [classroom.join(room.url, room.invite(n).code, start=False) for n in ("Ann", "Bob", "Cy")]
    pump(room, *students)
    match = room.match(deals=1, seed=5)
    pump(room, *students)
    rng = random.Random(4)
    for _ in range(6):
        for s in students:
            if s.state()["can_act"]:
                s.act(as_action(rng.choice(s.state()["table"]["legal_actions"])))
        pump(room, *students)
    before = [(t.round, t.game.snapshot()) for t in match.tables]
    room.close()
    again = classroom.open(url, secret=SECRET, start=False)
    pump(again, *students)
    assert again.showing == "match"
    assert [(t.round, t.game.snapshot()) for t in again.latest("match").tables] == before
    play_round(again, students, random.Random(9))
    assert all(t.over for t in again.latest("match").tables)
    for s in students:
        s.close()
    again.close()


def test_a_match_gives_a_student_neither_a_seed_nor_the_opponent_s_hidden_cards(tmp_path):
    room = classroom.open(f"folder:{tmp_path}/deal", start=False)
    students = [classroom.join(room.url, room.invite(n).code, start=False) for n in ("Ann", "Bob")]
    pump(room, *students)
    match = room.match(deals=1, seed=7_777_777_777_777_777)
    texts, rng, seen, last = [], random.Random(1), set(), {}
    for _ in range(400):
        pump(room, *students)
        game = match.tables[0].game
        for index, student in enumerate(students):
            for path in sorted((tmp_path / "deal" / "in" / str(index)).glob("*.msg")):
                if (index, path.name) in seen:
                    continue
                seen.add((index, path.name))
                message = unseal(student._key, student.room, f"in.{index}", path.read_bytes())[1]
                texts.append(json.dumps(message))
                frames = whole_frames(message, last, index) if message.get("frames") else None
                if not game.is_over and frames and message["live"] == len(game.replay()):
                    frame = json.dumps(frames[-1])
                    for fragment in opponent_secrets(game, index)[0]:
                        assert fragment not in frame
            texts.append(json.dumps(student.state()))
        if game.is_over:
            break
        mover = next(s for s in students if s.state()["can_act"])
        mover.act(as_action(rng.choice(mover.state()["table"]["legal_actions"])))
    assert match.tables[0].over
    assert not any(str(seed) in text for text in texts for seed in match.seeds)
    for s in students:
        s.close()
    room.close()


@pytest.mark.parametrize("seed", [0, 6])
def test_twin_matches_write_identical_messages_for_the_student_who_cannot_see_the_difference(
        channel, seed, monkeypatch):
    """Ann (Player 1) cannot see one of Bob's cards (swapped with the pile's bottom card in the twin): her
    messages are byte-identical while Bob never plays the swapped cards and she never steals; Bob's differ.
    """
    deck_a, deck_b, x, y = twin_decks(seed, hidden_owner=1)
    swapped = {x, y}
    rooms = twin_rooms(channel, [0, 1])
    for twin, deck in enumerate((deck_a, deck_b)):
        room, students = rooms[twin]
        with monkeypatch.context() as m:
            m.setattr(match_module, "Game", lambda seed, rules, deck=deck: Game(seed=seed, rules=rules, deck=deck))
            room.match(deals=1, seed=seed)
            settle_twin(room, students, channel, twin)
    rng = [random.Random(seed), random.Random(seed)]
    compared = 0
    for _ in range(300):
        games = [room.latest("match").tables[0].game for room, _ in rooms]
        if games[0].is_over or games[0].pile_size <= 1:
            break
        assert channel.box(0, 0) == channel.box(1, 0), f"Ann's messages differ after {compared} moves"
        compared += 1
        for twin, (room, students) in enumerate(rooms):
            mover = next(s for s in students if s.state()["can_act"])
            legal = [a for a in mover.state()["table"]["legal_actions"]
                     if not touches(_action(a), swapped) and not (mover.index == 0 and a["type"] == "steal")]
            legal.sort(key=lambda a: json.dumps(a, sort_keys=True))
            mover.act(as_action(rng[twin].choice(legal)))
            settle_twin(room, students, channel, twin)
    assert compared >= 10
    assert channel.box(0, 1) != channel.box(1, 1)  # Bob sees his own hand: the twins do differ
    close_rooms(rooms)


def _action(entry):
    from needle_widget.engine import actions as A

    held = dict(entry)
    if "card" in held:
        held["card"] = Card.parse(held["card"]).code
    return A.from_dict({k: v for k, v in held.items() if k in ("type", "card", "cards")})


def test_a_stand_in_survives_a_restart(tmp_path, clock):
    url = f"folder:{tmp_path}/room"
    room = classroom.open(url, secret=SECRET, start=False)
    ann, bob = (classroom.join(room.url, room.invite(n).code, start=False) for n in ("Ann", "Bob"))
    pump(room, ann, bob)
    room.match(deals=1, seed=4, replace_after=30)
    left_waiting(room, ann, bob, clock, 31)
    assert 1 in room.latest("match").tables[0].stand_ins
    room.close()
    again = classroom.open(url, secret=SECRET, start=False)
    pump(again, ann, bob)
    assert 1 in again.latest("match").tables[0].stand_ins
    assert bob.state()["act_reason"].startswith("A bot plays your seat")
    play_round(again, (ann, bob), random.Random(3))
    assert again.latest("match").tables[0].results[0]["stood_in"] == [1]
    for s in (ann, bob):
        s.close()
    again.close()


def test_one_student_s_failing_screen_keeps_neither_the_others_nor_the_sender_from_going_on(url, monkeypatch):
    with pumped_class(url, ("Ann", "Bob")) as (room, (ann, bob)):
        real = match_module.Match.screens

        def screens(self, member, reset):
            if member.index == 0:
                raise RuntimeError("a bug in Ann's screen")
            return real(self, member, reset)

        monkeypatch.setattr(match_module.Match, "screens", screens)
        room.match(deals=1, seed=2)
        pump(room, ann, bob)
        assert bob.state()["follow"]["text"].startswith("Match · deal 1 of 1")
        done = []
        room.link.do("an operation with a bug", lambda: 1 / 0)
        room.link.do("the next operation", lambda: done.append(1))
        room.pump()
        assert done == [1]


def test_the_teacher_opens_a_table_live_and_each_finished_round(url):
    """room.open_table(n) follows the table's moves and its next deal; open_table(n, round) is that round's replay."""
    with pumped_class(url, ("Ann", "Bob")) as (room, (ann, bob)):
        match = room.match(deals=2, seed=3)
        pump(room, ann, bob)
        live = room.open_table(1)
        assert live.perspective == "teacher" and live.steps == 0 and live.seats == ["Ann", "Bob"]
        ann.act(as_action(ann.state()["table"]["legal_actions"][0]))
        pump(room, ann, bob)
        assert live.steps == len(match.tables[0].game) == 1 and live.step == 1
        play_round(room, (ann, bob), random.Random(4))
        table_game = match.tables[0].game
        assert live.table["phase"] == "over" and live.offers == {}  # no New deal: the view watches
        assert live.replay.to_dict() == table_game.replay().to_dict()
        ann.request({"kind": "new_game"})
        pump(room, ann, bob)
        assert live.replay.seed == match.seeds[1] and live.steps == len(match.tables[0].game)
        first = room.open_table(1, round=1)
        assert first.mode == "replay" and first.replay.to_dict() == table_game.replay().to_dict()
        with pytest.raises(ClassError, match="There is no table 3"):
            room.open_table(3)
        live.close()
        mover = next(s for s in (ann, bob) if s.state()["can_act"])  # seats swapped this round
        mover.act(as_action(mover.state()["table"]["legal_actions"][0]))
        pump(room, ann, bob)  # a closed view follows no more
        assert live.steps < len(match.tables[0].game)
