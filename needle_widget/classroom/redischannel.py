"""The class channel on Redis: each box a stream, each student a Redis user of their own.

Keys: ``nw:<room>:in:<N>`` and ``nw:<room>:out:<N>`` (streams; an entry's id is its sequence number,
its field "m" the sealed message), ``nw:<room>:teacher:<name>`` (the room's own state). A reader
blocks in XREAD, so a message arrives as soon as it is added; streams, unlike pub/sub, keep what a
student missed while away (a late or restarted student catches up from them).

`grant` makes student N's Redis user (ACL): it may read its own in-stream, add to and read its own
out-stream, and nothing else; no other key, no channel, no other command. The server refuses the rest.
Every call has a socket timeout, so a Redis that goes away gives `ChannelDown`, never a hang.
"""

from __future__ import annotations

import logging
import threading
import time

import redis
from redis.backoff import NoBackoff
from redis.retry import Retry

from ..engine.errors import quote
from .address import Address
from .channel import Message, box_parts
from .errors import ChannelDown, ClassError
from .seal import MAX_MESSAGE

__all__ = ["RedisChannel", "CONNECT_TIMEOUT", "STUDENT_COMMANDS"]

log = logging.getLogger("needle_widget.classroom")
CONNECT_TIMEOUT = 2.0
"""Seconds to wait for Redis to answer a connection or a command before calling it down."""
BLOCK = 0.5
"""Seconds one XREAD waits (a longer wait is several)."""
MAX_STREAM = 10_000
"""A box keeps about this many messages (XADD MAXLEN ~)."""
STUDENT_COMMANDS = ("xadd", "xread", "xrevrange", "ping", "select")
"""The only commands a student's Redis user may run."""


class RedisChannel:
    """A class on Redis (see the module docstring)."""

    def __init__(self, address: Address, create: bool, *, user: str | None = None,
                 password: str | None = None) -> None:
        self.address = address
        self._prefix = f"nw:{address.room}:"
        self._client = redis.Redis(
            host=address.host, port=address.port, db=address.db, username=user or address.username,
            password=password or address.password, socket_timeout=CONNECT_TIMEOUT + BLOCK,
            socket_connect_timeout=CONNECT_TIMEOUT, retry=Retry(NoBackoff(), 0), health_check_interval=0)
        self._call(self._client.ping)
        if create:
            self._call(self._client.set, self._prefix + "teacher:room", address.room)

    @property
    def where(self) -> str:
        """"host:port" of the server."""
        return f"{self.address.host}:{self.address.port}"

    def _call(self, fn, *args, **kwargs):  # type: ignore[no-untyped-def]
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

    def _key(self, box: str) -> str:
        side, index = box_parts(box)
        return f"{self._prefix}{side}:{index}"

    def post(self, box: str, seq: int, data: bytes) -> None:
        """XADD <box> <seq>-0 m <data>."""
        try:
            self._call(self._client.xadd, self._key(box), {"m": data}, id=f"{seq}-0", maxlen=MAX_STREAM,
                       approximate=True)
        except redis.exceptions.ResponseError as failure:
            raise ClassError(f"Redis refused message {seq} in {box}: {failure}") from None

    def read(self, cursors: dict[str, int], timeout: float = 0.0, stop: threading.Event | None = None) -> list[Message]:
        """XREAD the boxes after their cursors, blocking up to `timeout` (in BLOCK pieces, checking `stop`)."""
        keys = {self._key(box): box for box in cursors}
        if not keys:  # no student yet: XREAD takes no empty list of streams
            if stop is not None:
                stop.wait(timeout)
            else:
                time.sleep(timeout)
            return []
        end = time.monotonic() + timeout
        while True:
            wait = min(BLOCK, max(0.0, end - time.monotonic()))
            streams = {key: f"{cursors[box]}-0" for key, box in keys.items()}
            kwargs = {"block": max(1, int(wait * 1000))} if wait > 0 else {}
            found = self._call(self._client.xread, streams, count=500, **kwargs) or []
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

    def tail(self, box: str) -> int:
        """The id of the box's last entry."""
        last = self._call(self._client.xrevrange, self._key(box), count=1)
        return int(last[0][0].split(b"-")[0]) if last else 0

    def drop(self, box: str, upto: int) -> None:
        """XTRIM <box> MINID <upto + 1>."""
        self._call(self._client.xtrim, self._key(box), minid=f"{upto + 1}-0", approximate=False)

    def discard(self, box: str, seq: int) -> None:
        """XDEL <box> <seq>-0."""
        self._call(self._client.xdel, self._key(box), f"{seq}-0")

    def save(self, name: str, data: bytes) -> None:
        """SET nw:<room>:teacher:<name>."""
        self._call(self._client.set, f"{self._prefix}teacher:{name}", data)

    def load(self, name: str) -> bytes | None:
        """GET nw:<room>:teacher:<name>."""
        return self._call(self._client.get, f"{self._prefix}teacher:{name}")

    def grant(self, index: int, user: str, password: str) -> None:
        """Student `index`'s own Redis user: read in.N, add to and read out.N, nothing else."""
        inbox, outbox = self._key(f"in.{index}"), self._key(f"out.{index}")
        rules = ["reset", "on", f">{password}", f"%R~{inbox}", f"~{outbox}", "resetchannels", "-@all",
                 *(f"+{c}" for c in STUDENT_COMMANDS)]
        try:
            self._call(self._client.execute_command, "ACL", "SETUSER", user, *rules)
        except redis.exceptions.ResponseError as failure:
            raise ClassError(f"Redis at {self.where} would not make the student's user {quote(user)}: {failure} "
                             "(the teacher's Redis user needs the ACL command)") from None

    def nopass_default(self) -> bool:
        """Whether Redis lets anyone in as its default user (then the ACL protects nothing)."""
        try:
            data = self._client.acl_getuser("default") or {}
        except redis.exceptions.RedisError:
            return False
        flags = [f.decode() if isinstance(f, bytes) else f for f in data.get("flags") or []]
        return "nopass" in flags

    def close(self) -> None:
        """Close the connections."""
        try:
            self._client.close()
        except redis.exceptions.RedisError:
            pass
