"""Twins at the class channel (issue 23, "the key property"): a student's kernel receives only its own
seat's per-step states. Two rooms with the same secret and clock, leading twin replays (they differ
only in a card the student's seat cannot see), write byte-identical messages into that student's box,
on both channels; the twin student who can see the difference gets different bytes (the twins do
differ). A challenge's twin deals (the bot's hand and the pile's bottom card swapped) give the student
identical messages until its own view differs. And nothing a student receives, unsealed, holds the
replay's seed or the opponent's hidden cards.
"""

from __future__ import annotations

import itertools
import json
import random
from typing import Any

import pytest
import redis
from test_new_game import twins_over
from test_secrecy import twin_decks

from needle_widget import Game, classroom, examples
from needle_widget.classroom import challenge as challenge_module
from needle_widget.classroom.address import parse
from needle_widget.classroom.redischannel import key_prefix
from needle_widget.classroom.seal import unseal
from needle_widget.screen.frames import unpack
from needle_widget.screen.patches import apply

SECRET = bytes(range(32))


class Channel:
    """Two twin rooms on one channel ("folder" or "redis"), each box's messages gathered as they come."""

    def __init__(self, kind, tmp_path, redis_server=None):
        self.kind, self.tmp_path, self.server = kind, tmp_path, redis_server
        self.seen = [{}, {}]  # per twin: {(box, seq): bytes}
        # twin rooms of one name (their messages' associated data names the room) in two databases
        self.room = parse(redis_server.fresh_url("twin")).room if redis_server else "twin"

    def url(self, twin):
        if self.kind == "folder":
            return f"folder:{self.tmp_path}/{'ab'[twin]}/twin"
        return f"redis://127.0.0.1:{self.server.port}/{self.server.spare_db(twin)}?room={self.room}"

    def gather(self, twin, indexes):
        seen = self.seen[twin]
        for index in indexes:
            if self.kind == "folder":
                folder = self.tmp_path / "ab"[twin] / "twin" / "in" / str(index)
                for path in folder.iterdir():
                    if path.name.endswith(".msg"):
                        seen[f"in.{index}", int(path.name[:-4])] = path.read_bytes()
            else:
                client = redis.Redis(host="127.0.0.1", port=self.server.port, db=self.server.spare_db(twin))
                for entry_id, fields in client.xrange(f"{key_prefix(parse(self.url(twin)))}in:{index}"):
                    seen[f"in.{index}", int(entry_id.split(b"-")[0])] = fields[b"m"]
                client.close()

    def box(self, twin, index):
        return [data for (box, _), data in sorted(self.seen[twin].items()) if box == f"in.{index}"]


@pytest.fixture(params=["folder", "redis"])
def channel(request, tmp_path):
    if request.param == "redis":
        return Channel("redis", tmp_path, request.getfixturevalue("redis_server"))
    return Channel("folder", tmp_path)


def twin_rooms(channel, seats):
    """Two rooms (same secret, same clocks) with a student per seat in `seats`, all joined."""
    out = []
    for twin in (0, 1):
        room = classroom.open(channel.url(twin), secret=SECRET, start=False, clock=itertools.count(10_000).__next__)
        tickets = [room.invite(f"S{n}", seat=seat) for n, seat in enumerate(seats)]
        students = [classroom.join(room.url, t.code, start=False, clock=itertools.count(90_000 + 1000 * n).__next__)
                    for n, t in enumerate(tickets)]
        out.append((room, students))
    for twin in (0, 1):
        settle(*out[twin], channel, twin)
    return out


def settle(room, students, channel, twin):
    for _ in range(3):
        room.pump()
        for student in students:
            student.pump()
        channel.gather(twin, [s.index for s in students])


def an_answer(student):
    quiz = student.state()["quiz_state"]
    form = quiz["question"]["form"]
    return [form["candidates"][0]] if quiz["question"]["kind"] == "needle" else \
        "pile" if quiz["question"]["kind"] == "pile_or_steal" else 0.3


def as_action(entry):
    """A legal move as the screen lists it, as the widget sends it back."""
    return {k: v for k, v in entry.items() if k in ("type", "card", "cards")}


def close(rooms):
    for room, students in rooms:
        for student in students:
            student.close()
        room.close()


@pytest.mark.parametrize("seed, perspective", [(0, 0), (3, 1), (0, "assigned"), (3, "assigned")])
def test_twin_lessons_write_byte_identical_messages_for_the_seat_that_cannot_see_the_difference(
        channel, seed, perspective):
    watcher = perspective if perspective != "assigned" else 0
    hidden_owner = 1 - watcher
    games = twins_over(seed, hidden_owner)
    replays = [g.replay() for g in games]
    assert replays[0].deck != replays[1].deck
    # "assigned": S0 sits at the watcher's seat, S1 at the hidden owner's (whose screen does differ)
    rooms = twin_rooms(channel, [watcher, hidden_owner] if perspective == "assigned" else [0, 1])
    for twin, ((room, students), replay) in enumerate(zip(rooms, replays, strict=True)):
        lesson = room.lead(replay, perspective=perspective)
        settle(room, students, channel, twin)
        for k, kind in ((3, "winner"), (6, "needle"), (9, "next_draw")):
            lesson.go(k - 1)
            settle(room, students, channel, twin)
            lesson.ask(kind, k)  # the open question before is revealed: its truth is the same in both twins
            settle(room, students, channel, twin)
            for student in students:
                student.answer(an_answer(student))
                settle(room, students, channel, twin)
            assert students[0].state()["quiz_state"]["waiting"]
        lesson.go(len(replay))
        settle(room, students, channel, twin)
        assert students[0].step == len(replay) and students[0].state()["follow"]["status"] == "live"
    close(rooms)

    mine = [channel.box(twin, 0) for twin in (0, 1)]
    assert len(mine[0]) >= 10
    assert mine[0] == mine[1], "the watcher's messages differ between twins"
    if perspective == "assigned":  # the student at the hidden owner's seat sees the swapped card
        assert channel.box(0, 1) != channel.box(1, 1)
    else:  # every student is shown the same seat: both see the same
        assert channel.box(0, 1) == channel.box(1, 1)


@pytest.mark.parametrize("seed", [0, 6])
def test_twin_challenge_deals_write_identical_messages_until_the_student_can_see_the_difference(
        channel, seed, monkeypatch):
    deck_a, deck_b, x, y = twin_decks(seed, hidden_owner=1)  # a card of the bot's hand and the pile's bottom
    rooms = twin_rooms(channel, [0])
    for twin, deck in enumerate((deck_a, deck_b)):
        room, students = rooms[twin]
        with monkeypatch.context() as m:
            m.setattr(challenge_module, "Game", lambda seed, rules, deck=deck: Game(seed=seed, rules=rules, deck=deck))
            room.challenge(seed=seed, opponent="greedy")
            settle(room, students, channel, twin)
    rng = [random.Random(seed), random.Random(seed)]
    compared = 0
    for _ in range(200):
        views = [json.dumps(room.challenge_game.games[0].game.view(0), sort_keys=True) for room, _ in rooms]
        boxes = [channel.box(twin, 0) for twin in (0, 1)]
        if views[0] != views[1] or rooms[0][0].challenge_game.games[0].finished:
            break
        assert boxes[0] == boxes[1], f"the student's messages differ at move {compared} while its view is the same"
        compared += 1
        for twin, (room, students) in enumerate(rooms):
            state = students[0].state()
            assert state["can_act"], state["act_reason"]
            legal = state["table"]["legal_actions"]
            students[0].act(as_action(rng[twin].choice(legal)))
            settle(room, students, channel, twin)
    assert compared >= 5
    games = [room.challenge_game.games[0].game for room, _ in rooms]
    assert games[0].snapshot() != games[1].snapshot()  # the deals do differ
    close(rooms)


# ---- nothing received holds the seed or a hidden card ---------------------------------------------


def opponent_secrets(game, seat):
    """JSON fragments that would give away what `seat` cannot see at this step: the opponent's hand (as
    the teacher's view writes it) when some of it is hidden, its needle, and the pile's top three.
    """
    teacher = game.view("teacher")
    opponent = teacher["players"][1 - seat]
    known = set(game.view(seat).get("known_opponent_cards") or [])
    out = []
    if len(opponent["hand"]) >= 2 and not set(opponent["hand"]) <= known:
        out.append(json.dumps(opponent["hand"]))
    if opponent["needle"] not in (None, teacher["players"][seat]["needle"]):  # (both may pick the same card)
        out.append(json.dumps({"needle": opponent["needle"]})[1:-1])
    pile = [c.code for c in game.draw_pile][:3]
    if len(pile) == 3:
        out.append(json.dumps(pile)[1:-1])
    return out, json.dumps(teacher)


def whole_frames(message, last, index):
    """The frames a message brings, whole: put together from their patches of the last frame received (`last`,
    by student, updated), as a student's kernel does (`Student._frames_of`).
    """
    items = unpack(message["frames"])
    if message.get("patch") is not None:
        whole = []
        for patch in items:
            last[index] = apply(last[index], patch)
            whole.append(last[index])
        items = whole
    last[index] = items[-1]
    return items


def test_a_whole_lesson_gives_the_student_neither_the_seed_nor_a_hidden_card(tmp_path):
    replay = examples.load("detective")
    seed = str(replay.to_dict()["seed"])
    assert len(seed) >= 12
    room = classroom.open(f"folder:{tmp_path}/lesson", start=False)
    students = [classroom.join(room.url, room.invite(name).code, start=False) for name in ("Ann", "Bob")]
    frames = {0: {}, 1: {}}  # per student: step -> frame, as received
    last: dict[int, Any] = {}  # per student: the last frame received (the next ones come as patches of it)
    plaintexts = {0: [], 1: []}

    def collect():
        for s in students:
            folder = tmp_path / "lesson" / "in" / str(s.index)
            for path in sorted(folder.glob("*.msg")):
                _, message = unseal(s._key, s.room, f"in.{s.index}", path.read_bytes())
                text = json.dumps(message)
                if text not in plaintexts[s.index]:
                    plaintexts[s.index].append(text)
                    if message.get("frames"):
                        for k, frame in enumerate(whole_frames(message, last, s.index), start=message["first"]):
                            frames[s.index][k] = frame

    def settle():
        for _ in range(3):
            room.pump()
            for s in students:
                s.pump()
            collect()

    settle()
    lesson = room.lead(replay, perspective="assigned")
    states = {0: [], 1: []}
    for k in range(len(replay) + 1):
        lesson.go(k)
        if k in (4, 12, 20):
            lesson.ask("needle")
        settle()
        for s in students:
            if s.state()["quiz_state"] and not s.state()["quiz_state"]["question"]["answered"] and k in (4, 12, 20):
                s.answer(an_answer(s))
            states[s.index].append((k, json.dumps(s.state())))
    lesson.reveal()
    settle()
    for s in students:
        for k in range(len(replay) + 1):
            s.go(k)
            states[s.index].append((k, json.dumps(s.state())))
        s.back_to_live()

    for s in students:
        seat = s.index % 2
        everything = "\n".join(plaintexts[s.index]) + "\n".join(t for _, t in states[s.index])
        assert seed not in everything, "the replay's seed reached a student"
        assert seed not in repr(vars(s)) and seed not in repr(vars(s.link))
        assert set(frames[s.index]) == set(range(len(replay) + 1))
        hidden_checked = 0
        for k in range(len(replay) + 1):
            game = replay.game_at(k)
            if game.is_over:
                continue
            secrets_, teacher = opponent_secrets(game, seat)
            shown = [json.dumps(frames[s.index][k])] + [t for step, t in states[s.index] if step == k]
            for fragment in secrets_:
                assert fragment in teacher  # the search finds it where it is
                for text in shown:
                    assert fragment not in text, (s.index, k, fragment)
                hidden_checked += 1
            table = frames[s.index][k]["table"]
            assert table["players"][1 - seat]["hand"] is None and table["players"][1 - seat]["needle"] is None
        assert hidden_checked >= 2 * len(replay)
    for s in students:
        s.close()
    room.close()


def test_a_challenge_gives_the_student_neither_the_seed_nor_the_bot_s_hand(tmp_path):
    seed = 7_777_777_777_777_777
    room = classroom.open(f"folder:{tmp_path}/deal", start=False)
    student = classroom.join(room.url, room.invite("Ann").code, start=False)
    room.challenge(seed=seed)
    texts, seen, last = [], set(), {}
    rng = random.Random(1)
    for _ in range(400):
        for _ in range(2):
            room.pump()
            student.pump()
        game = room.challenge_game.games[0].game
        for path in sorted((tmp_path / "deal" / "in" / "0").glob("*.msg")):
            if path.name in seen:
                continue
            seen.add(path.name)
            message = unseal(student._key, student.room, "in.0", path.read_bytes())[1]
            texts.append(json.dumps(message))
            if message.get("frames"):
                frames = whole_frames(message, last, 0)
            if not game.is_over and message.get("frames"):
                frame = json.dumps(frames[-1])
                if message["live"] == len(game.replay()):
                    secrets_, teacher = opponent_secrets(game, 0)
                    for fragment in secrets_:
                        assert fragment in teacher and fragment not in frame
        state = student.state()
        texts.append(json.dumps(state))
        if game.is_over:
            break
        legal = state["table"]["legal_actions"]
        assert state["can_act"] and legal
        student.act(as_action(rng.choice(legal)))
    assert room.challenge_game.games[0].finished
    assert not any(str(seed) in text for text in texts)
    assert str(seed) not in repr(vars(student))
    student.close()
    room.close()
