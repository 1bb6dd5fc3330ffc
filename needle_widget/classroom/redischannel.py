"""The class channel on Redis: each box a stream, each student a Redis user of their own.

Keys: ``nw:<room>@<db>:in:<N>`` and ``nw:<room>@<db>:out:<N>`` (streams; an entry's id is its sequence
number, its field "m" the sealed message), ``nw:<room>@<db>:teacher:<name>`` (the room's own state).
Streams, unlike pub/sub, keep what a student missed while away (a late or restarted student catches up).

`grant` makes student N's Redis user ``nw.<room>@<db>.<N>`` (ACL): it may read its own in-stream, add to
and read its own out-stream, and nothing else; no other key, no channel, no other command. Redis users
are the server's and a key pattern names no database, so both carry the database: a room of the same
name in another database has users and keys of its own, and a student who SELECTs it is refused there.

A student reads its in-stream (written by the teacher alone) with a blocking XREAD. The room reads the
out-streams, which students write, through a server-side script (`READ_SCRIPT`): it sends entries of at
most MAX_MESSAGE bytes and at most READ_BUDGET bytes a read, and deletes a larger entry, reporting only
its id and size, so the teacher's memory stays bounded whatever a student writes (an ACL cannot bound
an XADD: a script's or function's commands are checked against the caller's user). A script cannot
block, so the room polls every POLL seconds.
Every call has a socket timeout, so a Redis that goes away gives `ChannelDown`, never a hang.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable
from typing import Any, cast

import redis
from redis.backoff import NoBackoff
from redis.retry import Retry

from ..engine.errors import quote
from .address import Address
from .channel import PER_BOX, PER_BOX_BYTES, Message, box_parts
from .errors import ChannelDown, ClassError
from .seal import MAX_MESSAGE
from .tickets import in_database

__all__ = ["RedisChannel", "CONNECT_TIMEOUT", "STUDENT_COMMANDS", "READ_SCRIPT", "READ_BUDGET", "POLL",
           "key_prefix"]

log = logging.getLogger("needle_widget.classroom")
CONNECT_TIMEOUT = 2.0
"""Seconds to wait for Redis to answer a connection or a command before calling it down."""
BLOCK = 0.5
"""Seconds one XREAD waits (a longer wait is several)."""
MAX_STREAM = 10_000
"""A box keeps about this many messages (XADD MAXLEN ~)."""
STUDENT_COMMANDS = ("xadd", "xread", "xrevrange", "ping", "select")
"""The only commands a student's Redis user may run."""
POLL = 0.02
"""Seconds between two looks of the room at its out-streams."""
READ_BUDGET = 4 << 20
"""Bytes of messages one read of the room's takes at most (and one more message)."""
READ_COUNT = 500
"""Messages one read takes at most."""
OVERSIZED_BUDGET = 128 << 20
"""Bytes of oversized entries one run of the script looks at before it returns (the rest wait for the
next run: the server runs nothing else meanwhile)."""
READ_SCRIPT = """
local limit, budget, count, oversized = tonumber(ARGV[1]), tonumber(ARGV[2]), tonumber(ARGV[3]), tonumber(ARGV[4])
local perbox, perbytes = tonumber(ARGV[5]), tonumber(ARGV[6])
local out, total, looked = {}, 0, 0
for i, key in ipairs(KEYS) do
  local start = '(' .. ARGV[6 + i] .. '-0'
  local taken, bytes = 0, 0
  while (total < budget or taken == 0) and #out < count and looked < oversized and taken < perbox
      and bytes < perbytes do
    taken = taken + 1
    local entry = redis.call('XRANGE', key, start, '+', 'COUNT', 1)[1]
    if not entry then break end
    local id, fields, data = entry[1], entry[2], ''
    start = '(' .. id
    for j = 1, #fields, 2 do
      if fields[j] == 'm' then data = fields[j + 1] end
    end
    if #data > limit then
      redis.call('XDEL', key, id)
      out[#out + 1] = {i, id, #data}
      looked = looked + #data
      entry, fields, data = nil, nil, nil
      collectgarbage('collect')
      break
    elseif string.sub(id, -2) ~= '-0' then
      redis.call('XDEL', key, id)
      out[#out + 1] = {i, id, -1}
    else
      out[#out + 1] = {i, id, data}
      total = total + #data
      bytes = bytes + #data
    end
  end
end
return out
"""
"""The room's read of its out-streams (KEYS; ARGV: MAX_MESSAGE, READ_BUDGET, READ_COUNT, OVERSIZED_BUDGET,
PER_BOX, PER_BOX_BYTES, then each stream's cursor): each stream's first entry after its cursor whatever the others
took, then more while the read and the stream are within their budgets: {stream's number, id, data} for each
entry after the cursor, but {number, id, size} for an entry larger than MAX_MESSAGE and {number, id, -1} for
one whose id is not ``<seq>-0`` (no student's message is), both of which it deletes, so they are read once.
After an oversized entry it goes on to the next stream."""


def key_prefix(address: Address) -> str:
    """The prefix of every key of the room at `address`: ``nw:<room>@<db>:``."""
    return f"nw:{address.room}@{address.db}:"


class RedisChannel:
    """A class on Redis (see the module docstring)."""

    def __init__(self, address: Address, create: bool, *, user: str | None = None,
                 password: str | None = None) -> None:
        self.address = address
        self.key_prefix = key_prefix(address)
        self._turn = 0
        self._client = redis.Redis(
            host=address.host, port=address.port, db=address.db,
            username=in_database(user, address.db) if user else address.username,
            password=password or address.password, socket_timeout=CONNECT_TIMEOUT + BLOCK,
            socket_connect_timeout=CONNECT_TIMEOUT, retry=Retry(NoBackoff(), 0), health_check_interval=0)
        self._script = self._client.register_script(READ_SCRIPT)
        self._call(self._client.ping)
        if create:
            self._call(self._client.set, self.key_prefix + "teacher:room", address.room)

    @property
    def where(self) -> str:
        """"host:port" of the server."""
        return f"{self.address.host}:{self.address.port}"

    def _call(self, fn: Callable[..., Any], *args: Any, **kwargs: Any) -> Any:
        """`fn(*args, **kwargs)` (a call on the client: redis-py's own answer, as loosely typed as Redis's replies),
        with its failures as the class's errors.
        """
        try:
            return fn(*args, **kwargs)
        except redis.exceptions.AuthenticationError:  # a ConnectionError to redis-py: caught first
            raise ClassError(f"Redis at {self.where} refused this ticket's user: the ticket is not one of "
                             f"room {self.address.room!r}'s, or the room was closed") from None
        except (redis.exceptions.ConnectionError, redis.exceptions.TimeoutError) as failure:
            raise ChannelDown(f"The class's Redis server at {self.where} does not answer ({failure}); "
                              "retrying") from None
        except redis.exceptions.NoPermissionError as failure:
            raise ClassError(f"Redis at {self.where} refused: {failure}") from None

    def key(self, box: str) -> str:
        """The stream of `box`: ``nw:<room>@<db>:<in|out>:<N>``."""
        side, index = box_parts(box)
        return f"{self.key_prefix}{side}:{index}"

    def post(self, box: str, seq: int, data: bytes) -> None:
        """XADD <box> <seq>-0 m <data>."""
        try:
            self._call(self._client.xadd, self.key(box), {"m": data}, id=f"{seq}-0", maxlen=MAX_STREAM,
                       approximate=True)
        except redis.exceptions.ResponseError as failure:
            raise ClassError(f"Redis refused message {seq} in {box}: {failure}") from None

    def read(self, cursors: dict[str, int], timeout: float = 0.0, stop: threading.Event | None = None) -> list[Message]:
        """The messages after the boxes' cursors, waiting up to `timeout` (checking `stop`): a student's
        in-box by a blocking XREAD, the room's out-boxes by READ_SCRIPT every POLL seconds.
        """
        if not cursors:  # no student yet
            if stop is not None:
                stop.wait(timeout)
            else:
                time.sleep(timeout)
            return []
        if any(box_parts(box)[0] == "out" for box in cursors):
            return self._poll(cursors, timeout, stop)
        return self._block(cursors, timeout, stop)

    def _block(self, cursors: dict[str, int], timeout: float, stop: threading.Event | None) -> list[Message]:
        keys = {self.key(box): box for box in cursors}
        end = time.monotonic() + timeout
        while True:
            wait = min(BLOCK, max(0.0, end - time.monotonic()))
            streams = {key: f"{cursors[box]}-0" for key, box in keys.items()}
            kwargs = {"block": max(1, int(wait * 1000))} if wait > 0 else {}
            found = self._call(self._client.xread, streams, count=READ_COUNT, **kwargs) or []
            out: list[Message] = []
            for key, entries in found:
                box = keys[key.decode() if isinstance(key, bytes) else key]
                for entry_id, fields in entries:
                    seq = int(entry_id.split(b"-")[0])
                    data = fields.get(b"m", b"")
                    if len(data) > MAX_MESSAGE:
                        log.warning("class: ignored message %d in %s: larger than %d bytes", seq, box, MAX_MESSAGE)
                        data = b""
                    out.append((box, seq, data))
            if out or time.monotonic() >= end or (stop is not None and stop.is_set()):
                return out

    def _poll(self, cursors: dict[str, int], timeout: float, stop: threading.Event | None) -> list[Message]:
        end = time.monotonic() + timeout
        while True:
            out = self._run_script(cursors)
            left = end - time.monotonic()
            if out or left <= 0 or (stop is not None and stop.is_set()):
                return out
            if stop is not None:
                stop.wait(min(POLL, left))
            else:
                time.sleep(min(POLL, left))

    def _run_script(self, cursors: dict[str, int]) -> list[Message]:
        boxes = list(cursors)
        self._turn = (self._turn + 1) % len(boxes)  # each box in turn first: one student's flood delays the others less
        boxes = boxes[self._turn:] + boxes[:self._turn]
        args = [MAX_MESSAGE, READ_BUDGET, READ_COUNT, OVERSIZED_BUDGET, PER_BOX, PER_BOX_BYTES,
                *(cursors[box] for box in boxes)]
        found = self._call(self._read_script, [self.key(box) for box in boxes], args)
        out: list[Message] = []
        for number, entry_id, data in found or []:
            box = boxes[int(number) - 1]
            seq = int(entry_id.split(b"-")[0])
            if isinstance(data, int):
                what = f"{data:,} bytes, over {MAX_MESSAGE:,}" if data >= 0 else f"its id {entry_id.decode()!r}"
                log.warning("class: deleted entry %d of %s: %s", seq, box, what)
                data = b""
            out.append((box, seq, data))
        return out

    def _read_script(self, keys: list[str], args: list[int]) -> list[Any]:
        try:
            return self._script(keys=keys, args=args)
        except redis.exceptions.NoPermissionError as failure:
            raise ClassError(f"Redis at {self.where} refused the room's read of its students' boxes ({failure}): "
                             "the teacher's Redis user needs EVALSHA and SCRIPT LOAD (the room reads by a script)") \
                from None
        except redis.exceptions.ResponseError as failure:
            raise ClassError(f"Redis at {self.where} would not run the room's read of its students' boxes: "
                             f"{failure}") from None

    def tail(self, box: str) -> int:
        """The id of the box's last entry."""
        last = self._call(self._client.xrevrange, self.key(box), count=1)
        return int(last[0][0].split(b"-")[0]) if last else 0

    def drop(self, box: str, upto: int) -> None:
        """XTRIM <box> MINID <upto + 1>."""
        self._call(self._client.xtrim, self.key(box), minid=f"{upto + 1}-0", approximate=False)

    def discard(self, box: str, seq: int) -> None:
        """XDEL <box> <seq>-0."""
        self._call(self._client.xdel, self.key(box), f"{seq}-0")

    def save(self, name: str, data: bytes) -> None:
        """SET nw:<room>@<db>:teacher:<name>."""
        self._call(self._client.set, f"{self.key_prefix}teacher:{name}", data)

    def load(self, name: str) -> bytes | None:
        """GET nw:<room>@<db>:teacher:<name>."""
        return self._call(self._client.get, f"{self.key_prefix}teacher:{name}")

    def grant(self, index: int, user: str, password: str) -> None:
        """Student `index`'s own Redis user (`user` in this database): read in.N, add to and read out.N,
        nothing else.
        """
        user = in_database(user, self.address.db)
        inbox, outbox = self.key(f"in.{index}"), self.key(f"out.{index}")
        rules = ["reset", "on", f">{password}", f"%R~{inbox}", f"~{outbox}", "resetchannels", "-@all",
                 *(f"+{c}" for c in STUDENT_COMMANDS)]
        try:
            self._call(self._client.execute_command, "ACL", "SETUSER", user, *rules)
        except redis.exceptions.ResponseError as failure:
            raise ClassError(f"Redis at {self.where} would not make the student's user {quote(user)}: {failure} "
                             "(the teacher's Redis user needs the ACL command)") from None

    def revoke(self, index: int, user: str) -> None:
        """ACL DELUSER student `index`'s user (its connection is closed: Redis drops a deleted user's clients)."""
        try:
            self._call(self._client.execute_command, "ACL", "DELUSER", in_database(user, self.address.db))
        except redis.exceptions.ResponseError as failure:
            raise ClassError(f"Redis at {self.where} would not delete the student's user {quote(user)}: "
                             f"{failure}") from None

    def nopass_default(self) -> bool:
        """Whether Redis lets anyone in as its default user (then the ACL protects nothing)."""
        try:
            data = self._client.acl_getuser("default") or {}
        except redis.exceptions.RedisError:
            return False
        # redis-py types every field of ACL GETUSER alike; "flags" is a list of names
        flags = [f.decode() if isinstance(f, bytes) else f for f in cast("list[str | bytes]", data.get("flags") or [])]
        return "nopass" in flags

    def close(self) -> None:
        """Close the connections."""
        try:
            self._client.close()
        except redis.exceptions.RedisError:
            pass
