"""The class channel on Redis under a hostile student (issue 29, items 4 and 5).

4. A student writes entries far over a message's size into its own out-stream: the teacher's memory
   stays bounded (the room reads its out-streams through a server-side script that sends only entries of
   at most MAX_MESSAGE bytes, a few MB a read, and deletes the larger ones), each is logged once, and
   the room keeps taking the student's real answers.
5. Two rooms of one name in two databases of one server: their students' Redis users and keys are
   their database's own, so neither room's invite touches the other's users, and no student reads the
   other room's streams after SELECTing its database.
"""

from __future__ import annotations

import logging
import time
import tracemalloc

import pytest
import redis
from conftest import settle

from needle_widget import classroom, examples
from needle_widget.classroom.address import parse
from needle_widget.classroom.seal import MAX_MESSAGE
from needle_widget.classroom.tickets import redis_user

LOGGER = "needle_widget.classroom"
MB = 1 << 20
LIMIT = 50 * MB
"""The acceptance's bound on the teacher's traced memory above its baseline."""


def a_question(url):
    room = classroom.open(url, start=False)
    ann = classroom.join(room.url, room.invite("Ann", seat=0).code, start=False)
    settle(room, ann)
    lesson = room.lead(examples.load("detective"), perspective=0)
    asked = lesson.ask("needle", 6)
    settle(room, ann)
    return room, ann, asked


def test_entries_of_8_to_64_mb_keep_the_teacher_s_memory_bounded_and_the_room_answering(redis_server, caplog):
    room, ann, asked = a_question(redis_server.fresh_url("hostile"))
    # Ann's own channel is her own Redis connection, as her ticket's ACL user: she writes what she likes
    hostile = []
    for size in [8 * MB, 16 * MB, 32 * MB, 64 * MB] + [MAX_MESSAGE] * 40:
        seq = time.time_ns() // 1000
        ann.channel.post("out.0", seq, b"\xff" * size)
        hostile.append((seq, size))
    ann.answer([ann.state()["quiz_state"]["question"]["form"]["candidates"][0]])
    ann.pump()
    caplog.set_level(logging.WARNING, logger=LOGGER)
    tracemalloc.start()
    try:
        baseline = tracemalloc.get_traced_memory()[0]
        for _ in range(30):
            room.pump()
            if 0 in asked.answers:
                break
        for _ in range(3):  # and nothing is read again
            room.pump()
        peak = tracemalloc.get_traced_memory()[1] - baseline
    finally:
        tracemalloc.stop()
    assert peak < LIMIT, f"the teacher's traced memory rose {peak / MB:.0f} MB above its baseline"
    assert 0 in asked.answers, room.log[-5:]
    channel_lines = [r.getMessage() for r in caplog.records if r.name == LOGGER]
    for seq, _ in hostile[:4]:
        assert sum(str(seq) in line for line in channel_lines) == 1, (seq, channel_lines)
    ignored = [line for line in room.log if "ignored a message in out.0" in line]
    assert len(ignored) == len(hostile), room.log
    # the room deleted them: the server no longer holds them
    admin = redis.Redis(host="127.0.0.1", port=redis_server.port, db=parse(room.url).db)
    left = admin.xrange(room.channel.key("out.0"))
    assert all(len(fields.get(b"m", b"")) <= MAX_MESSAGE for _, fields in left)
    admin.close()
    # and Ann still follows the room
    room.lesson.go(9)
    settle(room, ann)
    assert ann.step == 9
    room.close(), ann.close()


def test_two_rooms_of_one_name_in_two_databases_keep_their_users_and_keys_apart(redis_server):
    name = parse(redis_server.fresh_url("twodb")).room
    db_a, db_b = redis_server.spare_db(0), redis_server.spare_db(1)
    url_a = f"redis://127.0.0.1:{redis_server.port}/{db_a}?room={name}"
    url_b = f"redis://127.0.0.1:{redis_server.port}/{db_b}?room={name}"
    room_a = classroom.open(url_a, start=False)
    ann_ticket = room_a.invite("Ann")
    room_b = classroom.open(url_b, start=False)
    bob_ticket = room_b.invite("Bob")  # student 0 of the other room of that name
    assert ann_ticket.code.startswith(f"{name}/0-") and bob_ticket.code.startswith(f"{name}/0-")
    ann = classroom.join(url_a, ann_ticket.code, start=False)  # the second room's invite left Ann's user alone
    bob = classroom.join(url_b, bob_ticket.code, start=False)
    room_a.lead(examples.load("detective"), perspective=0).go(3)
    room_b.lead(examples.load("detective"), perspective=0).go(5)
    settle(room_a, ann), settle(room_b, bob)
    assert (ann.step, bob.step) == (3, 5)

    admin = redis.Redis(host="127.0.0.1", port=redis_server.port)
    users = {u.decode() if isinstance(u, bytes) else u for u in admin.acl_users()}
    ann_user, ann_password = redis_user(name, 0, ann_ticket.secret, db=db_a)
    bob_user, bob_password = redis_user(name, 0, bob_ticket.secret, db=db_b)
    assert ann_user != bob_user and {ann_user, bob_user} <= users
    admin.close()
    for (me, password, mine), (other_db, other_room) in (((bob_user, bob_password, db_b), (db_a, room_a)),
                                                         ((ann_user, ann_password, db_a), (db_b, room_b))):
        theirs = redis.Redis(host="127.0.0.1", port=redis_server.port, db=other_db)
        keys = theirs.keys(f"{other_room.channel.key_prefix}*")
        theirs.close()
        assert {k.decode().rsplit(":", 2)[-2] for k in keys} >= {"in", "out", "teacher"}, keys
        client = redis.Redis(host="127.0.0.1", port=redis_server.port, db=mine, username=me, password=password)
        client.execute_command("SELECT", other_db)
        for key in keys:
            for command in (("XREAD", "STREAMS", key, "0-0"), ("XRANGE", key, "-", "+"),
                            ("XREVRANGE", key, "+", "-", "COUNT", 1), ("GET", key), ("XADD", key, "*", "m", "x")):
                with pytest.raises(redis.exceptions.NoPermissionError):
                    client.execute_command(*command)
        client.close()
        assert other_room.channel.load("state") is not None

    # reopening a room finds its saved state, and its student's ticket still joins
    room_a.close(), ann.close()
    again = classroom.open(url_a, start=False)
    assert [t.code for t in again.tickets] == [ann_ticket.code] and again.lesson.step == 3
    ann = classroom.join(url_a, ann_ticket.code, start=False)
    again.lesson.go(4)
    settle(again, ann)
    assert ann.step == 4
    again.close(), ann.close(), room_b.close(), bob.close()


def test_an_entry_of_a_foreign_id_is_read_once_not_at_every_read(redis_server):
    """An id `<cursor>-1` (a student's are `<seq>-0`) lies after the room's cursor but numbers an old
    message: it was read again at every read (the cursor never passes it); now it is deleted and noted once.
    """
    room, ann, asked = a_question(redis_server.fresh_url("foreign"))
    address = parse(room.url)
    user, password = redis_user(address.room, 0, room.tickets[0].secret, db=address.db)
    me = redis.Redis(host="127.0.0.1", port=redis_server.port, db=address.db, username=user, password=password)
    last = room.members()[0].last_in
    me.xadd(room.channel.key("out.0"), {"m": b"x"}, id=f"{last}-1")
    me.close()
    for _ in range(5):
        room.pump()
    assert sum("ignored message" in line and "old number" in line for line in room.log) == 1, room.log
    ann.answer([ann.state()["quiz_state"]["question"]["form"]["candidates"][0]])
    settle(room, ann)
    assert 0 in asked.answers
    room.close(), ann.close()
