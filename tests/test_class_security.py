"""Nobody gets in where they don't belong (issue 23, section 6), and hostile messages change nothing
(section 7): forged, moved, replayed, oversized, garbage or unknown messages are ignored with a log line;
tickets of another room or mistyped ones are refused; on Redis a student's own user is refused
everything but its own two boxes; on a shared folder the room sets the modes it can.
"""

from __future__ import annotations

import json
import logging
import os
import stat

import pytest
import redis
from conftest import settle

from needle_widget import classroom, examples
from needle_widget.classroom import TicketError
from needle_widget.classroom.errors import ClassError
from needle_widget.classroom.seal import MAGIC, MAX_MESSAGE, derive, seal
from needle_widget.classroom.tickets import Ticket, redis_user

LOGGER = "needle_widget.classroom"



@pytest.fixture
def url(class_url):
    return class_url


def raw_post(room, box, seq, data):
    """Put `data` in `box` as whoever can write there (a file in the folder; XADD as Redis's admin)."""
    room.channel.post(box, seq, data)


def lesson_with_question(url):
    room = classroom.open(url, start=False)
    ann = classroom.join(room.url, room.invite("Ann", seat=0).code, start=False)
    bob = classroom.join(room.url, room.invite("Bob", seat=0).code, start=False)
    settle(room, ann, bob)
    lesson = room.lead(examples.load("detective"), perspective=0)
    lesson.ask("needle", 6)
    settle(room, ann, bob)
    return room, ann, bob, lesson


def what_matters(room):
    """The room's record without the cursors (which move past an ignored message)."""
    state = room.state()
    for m in state["members"]:
        m.pop("last_in")
    state.pop("seq")
    return json.dumps(state, sort_keys=True)


def candidates(student):
    return student.state()["quiz_state"]["question"]["form"]["candidates"]


@pytest.mark.parametrize("attack", ["forged", "moved", "garbage", "oversized", "not a dict", "unknown kind",
                                    "no kind", "empty", "wrong magic"])
def test_a_hostile_message_is_ignored_with_a_log_line_and_changes_nothing(url, attack, caplog):
    room, ann, bob, lesson = lesson_with_question(url)
    before = what_matters(room)
    seq = ann._out + 1  # the next number in Ann's box (her own next message comes after it)
    key0 = ann._key
    if attack == "forged":
        data = seal(derive(b"x" * 32, "student", "sec", "0"), room.name, "out.0", seq,
                    {"t": "answer", "lesson": 1, "index": 0, "answer": candidates(ann)[:1]})
    elif attack == "moved":  # Bob's valid answer put in Ann's box: it does not open there
        data = seal(bob._key, room.name, "out.1", seq, {"t": "answer", "lesson": 1, "index": 0,
                                                         "answer": candidates(bob)[:1]})
    elif attack == "garbage":
        data = os.urandom(300)
    elif attack == "oversized":
        data = MAGIC + seq.to_bytes(8, "big") + b"\0" * (MAX_MESSAGE + 10)
    elif attack == "not a dict":
        data = seal(key0, room.name, "out.0", seq, [1, 2, 3])
    elif attack == "unknown kind":
        data = seal(key0, room.name, "out.0", seq, {"t": "drop_tables"})
    elif attack == "no kind":
        data = seal(key0, room.name, "out.0", seq, {"answer": 1})
    elif attack == "empty":
        data = b""
    else:
        data = b"XXXX" + seq.to_bytes(8, "big") + b"\0" * 40
    caplog.clear()
    with caplog.at_level(logging.WARNING, logger=LOGGER):
        raw_post(room, "out.0", seq, data)
        settle(room, ann, bob)
    assert any("out.0" in r.getMessage() or "Ann" in r.getMessage() for r in caplog.records
               if r.name == LOGGER), [r.getMessage() for r in caplog.records]
    assert any("ignored" in line for line in room.log)
    assert what_matters(room) == before
    assert lesson.asked[-1].answers == {}
    # Ann still answers, once
    ann.answer(candidates(ann)[:1])
    settle(room, ann, bob)
    assert list(lesson.asked[-1].answers) == [0]
    room.close(), ann.close(), bob.close()


def test_a_message_posted_again_is_ignored(url, caplog):
    room, ann, bob, lesson = lesson_with_question(url)
    sent = []
    post = ann.channel.post

    def recording(box, seq, data):
        sent.append((box, seq, data))
        post(box, seq, data)

    ann.channel.post = recording
    ann.answer(candidates(ann)[:1])
    settle(room, ann, bob)
    assert list(lesson.asked[-1].answers) == [0]
    box, seq, data = sent[-1]
    lesson.reveal()
    lesson.ask("needle", 8)
    settle(room, ann, bob)
    before = what_matters(room)
    if room.address.kind == "redis":  # the server takes no entry below the stream's last one
        with pytest.raises(ClassError, match="equal or smaller"):
            raw_post(room, box, seq, data)
    else:  # under its old number the room does not read it (its cursor is past it)
        raw_post(room, box, seq, data)
        settle(room, ann, bob)
    with caplog.at_level(logging.WARNING, logger=LOGGER):  # under a new number it does not open
        raw_post(room, box, ann._out + 1, data)
        settle(room, ann, bob)
    assert what_matters(room) == before and lesson.asked[-1].answers == {}
    assert any("ignored a message in out.0" in line for line in room.log)
    assert any(r.name == LOGGER and "ignored a message in out.0" in r.getMessage() for r in caplog.records)
    ann.answer(candidates(ann)[:1])  # and Ann's next answer is taken
    settle(room, ann, bob)
    assert list(lesson.asked[-1].answers) == [0]
    room.close(), ann.close(), bob.close()


def test_a_file_with_a_huge_number_in_another_s_out_box_does_not_silence_them(tmp_path, caplog):
    """out/N is writable by every student (mode 1733): a file named with the highest number must not
    move the room's cursor past the student's own next messages.
    """
    room, ann, bob, lesson = lesson_with_question(f"folder:{tmp_path}/dos")
    with caplog.at_level(logging.WARNING, logger=LOGGER):
        (tmp_path / "dos" / "out" / "0" / f"{10**20 - 1:020d}.msg").write_bytes(MAGIC + b"\xff" * 60)
        settle(room, ann, bob)
    assert any("ignored" in line for line in room.log)
    assert not any((tmp_path / "dos" / "out" / "0").glob("*.msg"))
    ann.answer(candidates(ann)[:1])
    settle(room, ann, bob)
    assert list(lesson.asked[-1].answers) == [0]
    room.close(), ann.close(), bob.close()


def test_five_thousand_garbage_files_are_read_in_bounded_batches_and_dropped(tmp_path):
    room = classroom.open(f"folder:{tmp_path}/junk", start=False)
    ann = classroom.join(room.url, room.invite("Ann").code, start=False)
    settle(room, ann)
    out = tmp_path / "junk" / "out" / "0"
    for n in range(5000):
        (out / f"{ann._out + 1 + n:020d}.msg").write_bytes(b"junk %d" % n)
    batches = []
    read = room.channel.read

    def counting(cursors, timeout=0.0, stop=None):
        found = read(cursors, timeout, stop)
        batches.append(len(found))
        return found

    room.channel.read = counting
    for _ in range(100):
        room.pump()
        if not any(out.glob("*.msg")):
            break
    assert not any(out.glob("*.msg"))
    assert sum(batches) >= 5000 and max(batches) <= 500
    assert len(room.log) <= 200
    # the room still works
    lesson = room.lead(examples.load("detective"), perspective=0)
    lesson.go(3)
    settle(room, ann)
    assert ann.step == 3
    room.close(), ann.close()


def test_the_student_ignores_what_does_not_open_with_its_key(tmp_path, caplog):
    room = classroom.open(f"folder:{tmp_path}/mine", start=False)
    ann = classroom.join(room.url, room.invite("Ann").code, start=False)
    bob = classroom.join(room.url, room.invite("Bob").code, start=False)
    room.lead(examples.load("detective"), perspective=0).go(4)
    settle(room, ann, bob)
    state = json.dumps(ann.state())
    with caplog.at_level(logging.WARNING, logger=LOGGER):
        # Bob's screen, copied into Ann's box, and a forged one
        for n, path in enumerate(sorted((tmp_path / "mine" / "in" / "1").glob("*.msg"))):
            (tmp_path / "mine" / "in" / "0" / f"{10**16 + n:020d}.msg").write_bytes(path.read_bytes())
        room.channel.post("in.0", 10**16 + 99, seal(derive(b"y" * 32, "x"), "mine", "in.0", 10**16 + 99,
                                                     {"t": "screen", "kind": "idle"}))
        ann.pump()
    assert json.dumps(ann.state()) == state
    assert sum("ignored a message" in r.getMessage() for r in caplog.records) >= 2
    room.close(), ann.close(), bob.close()


# ---- tickets ----------------------------------------------------------------------------------------


def test_tickets_of_another_room_or_mistyped_are_refused(tmp_path):
    room = classroom.open(f"folder:{tmp_path}/monday", start=False)
    other = classroom.open(f"folder:{tmp_path}/tuesday", start=False)
    ticket = room.invite("Ann")
    with pytest.raises(TicketError, match="for room 'monday'"):
        classroom.join(other.url, ticket.code, start=False)
    for bad in ("", "monday/3", "monday/3-KQ4M-7XPD-2HWN", "monday/3-KQ4M-7XPD-2HWN-9CT1", "monday/999-" + "A" * 16,
                "x" * 500, 42, None, "monday/3-KQ4M-7XPD-2HWN-9CTB-AAAA"):
        with pytest.raises(TicketError, match="Not a class ticket"):
            classroom.join(room.url, bad, start=False)
    room.close(), other.close()


def test_a_forged_ticket_gets_nothing_from_the_room(url, caplog):
    room = classroom.open(url, start=False)
    ann = classroom.join(room.url, room.invite("Ann").code, start=False)
    room.lead(examples.load("detective"), perspective=0).go(2)
    settle(room, ann)
    forged = Ticket(room.name, 0, "Ann", bytes(10))
    if room.address.kind == "redis":  # the server refuses the forged user outright
        with pytest.raises(ClassError, match="refused this ticket's user"):
            classroom.join(room.url, forged.code, start=False)
    else:  # the folder lets it write, the room does not open what it writes
        with caplog.at_level(logging.WARNING, logger=LOGGER):
            eve = classroom.join(room.url, forged.code, start=False)
            settle(room, eve)
        assert eve.state()["follow"]["status"] == "waiting" and eve.name is None
        assert any("does not open" in line for line in room.log)
        eve.close()
    room.close(), ann.close()


def test_a_student_cannot_answer_as_another(url):
    room, ann, bob, lesson = lesson_with_question(url)
    # Ann seals an answer for Bob's box with her key (a student knows only her own key)
    seq = bob._out + 1
    data = seal(ann._key, room.name, "out.1", seq, {"t": "answer", "lesson": 1, "index": 0,
                                                    "answer": candidates(ann)[:1]})
    room.channel.post("out.1", seq, data)
    settle(room, ann, bob)
    assert lesson.asked[-1].answers == {}
    bob.answer(candidates(bob)[-1:])
    settle(room, ann, bob)
    assert lesson.asked[-1].answers == {1: (candidates(bob)[-1],)}
    room.close(), ann.close(), bob.close()


# ---- Redis: the server enforces each student's own user --------------------------------------------


def subscribe(client, channel):
    pubsub = client.pubsub()
    pubsub.subscribe(channel)
    return pubsub.get_message(timeout=2)  # the refusal comes with the reply


def test_a_student_s_redis_user_is_refused_everything_but_its_own_boxes(redis_server):
    url = redis_server.fresh_url("acl")
    room = classroom.open(url, start=False)
    name = room.name  # "acl", or "acl-gw0" on CI's shared server
    tickets = [room.invite(name) for name in ("Ann", "Bob")]
    ann = classroom.join(room.url, tickets[0].code, start=False)
    bob = classroom.join(room.url, tickets[1].code, start=False)
    room.lead(examples.load("detective"), perspective=0).go(3)
    settle(room, ann, bob)
    user, password = redis_user(name, 0, tickets[0].secret, db=redis_server.db)
    me = redis.Redis(host="127.0.0.1", port=redis_server.port, db=redis_server.db, username=user, password=password)
    prefix = room.channel.key_prefix  # nw:<room>@<db>:
    mine_in, mine_out = f"{prefix}in:0", f"{prefix}out:0"
    # allowed: XREAD of its own in-box, XADD and XREAD of its own out-box
    assert me.xread({mine_in: "0-0"})
    me.xadd(mine_out, {"m": b"x"}, id="99999999999999999-0")
    assert me.xread({mine_out: "0-0"}) is not None
    refused = {
        "GET the teacher's state": lambda: me.get(f"{prefix}teacher:state"),
        "GET the room's secret": lambda: me.get(f"{prefix}teacher:secret"),
        "XREAD another's in-box": lambda: me.xread({f"{prefix}in:1": "0-0"}),
        "XREAD another's out-box": lambda: me.xread({f"{prefix}out:1": "0-0"}),
        "XADD to its own in-box": lambda: me.xadd(mine_in, {"m": b"x"}),
        "XADD to another's out-box": lambda: me.xadd(f"{prefix}out:1", {"m": b"x"}),
        "XADD to another's in-box": lambda: me.xadd(f"{prefix}in:1", {"m": b"x"}),
        "XRANGE another's in-box": lambda: me.xrange(f"{prefix}in:1"),
        "XTRIM its own in-box": lambda: me.xtrim(mine_in, maxlen=0),
        "DEL its own in-box": lambda: me.delete(mine_in),
        "SET": lambda: me.set(f"{prefix}out:0", "x"),
        "KEYS": lambda: me.keys("*"),
        "SCAN": lambda: me.scan(0),
        "TYPE": lambda: me.type(f"{prefix}teacher:state"),
        "SUBSCRIBE": lambda: subscribe(me, f"nw:{name}"),
        "PUBLISH": lambda: me.publish(f"nw:{name}", "x"),
        "CONFIG GET": lambda: me.config_get("*"),
        "FLUSHALL": lambda: me.flushall(),
        "FLUSHDB": lambda: me.flushdb(),
        "ACL LIST": lambda: me.acl_list(),
        "ACL SETUSER": lambda: me.acl_setuser(user, enabled=True, commands=["+@all"], keys=["*"]),
        "EVAL": lambda: me.eval("return redis.call('GET', KEYS[1])", 1, f"{prefix}teacher:state"),
        "FUNCTION LIST": lambda: me.function_list(),
        "CLIENT LIST": lambda: me.client_list(),
        "INFO": lambda: me.info(),
        "SHUTDOWN": lambda: me.execute_command("SHUTDOWN", "NOSAVE"),
        "MONITOR": lambda: me.execute_command("MONITOR"),
        "MIGRATE": lambda: me.execute_command("MIGRATE", "127.0.0.1", "1", "", "0", "1", "KEYS", mine_in),
        "XREAD of its in-box via XREADGROUP": lambda: me.xreadgroup("g", "c", {mine_in: ">"}),
    }
    for what, call in refused.items():
        with pytest.raises(redis.exceptions.RedisError) as refusal:
            call()
        assert isinstance(refusal.value, redis.exceptions.NoPermissionError) or "NOPERM" in str(refusal.value) \
            or "no permissions" in str(refusal.value).lower(), (what, refusal.value)
    me.close()
    # and nothing was changed by the attempts: Bob still follows
    room.lesson.go(5)
    settle(room, ann, bob)
    assert bob.step == 5 and room.channel.load("state") is not None
    room.close(), ann.close(), bob.close()


# ---- a shared folder: the modes the room sets --------------------------------------------------------


def test_the_folder_room_sets_modes_that_keep_the_teacher_s_files_and_the_out_boxes_private(tmp_path):
    """What the modes do: teacher/ (0700) and its secret and state (0600) are the teacher's user's alone;
    in/ and out/ (01733) take anyone's new box but nobody else may list them or remove another's box;
    in/N and out/N (02770, made by student N's own kernel as they join) are N's account's and N's own
    group's, of which the teacher's account is a member, and the messages in them (0640) are sealed with
    the student's own key. What they do not do: they protect nothing from the teacher's own user or root,
    nor between students who share one Unix user (a JupyterHub with one user for all): there the seal (a
    key per student) is all that keeps a student from reading another's messages or writing as another,
    and nothing keeps one from deleting another's in-box files or filling the folder up.
    tests/test_class_folder_permissions.py has the rest; tests/browser/test_class_on_jupyterhub.py shows
    it with an account per user.
    """
    room = classroom.open(f"folder:{tmp_path}/modes", start=False)
    room.invite("Ann")
    root = tmp_path / "modes"
    room.pump()

    def mode(path):
        return stat.S_IMODE(path.stat().st_mode)

    assert mode(root / "teacher") == 0o700
    assert mode(root / "teacher" / "secret") == 0o600
    assert mode(root / "teacher" / "state") == 0o600
    assert mode(root / "in") == mode(root / "out") == 0o1733
    assert mode(root / "room.json") == 0o644
    ann = classroom.join(room.url, room.tickets[0].code, start=False)
    settle(room, ann)
    assert mode(root / "out" / "0") == mode(root / "in" / "0") == 0o2770
    files = [p for p in (root / "in" / "0").iterdir()]
    assert files and all(mode(p) == 0o640 for p in files)
    assert all(p.read_bytes().startswith(MAGIC) and b"Ann" not in p.read_bytes() for p in files)
    room.close(), ann.close()
