"""Every message of a class is sealed: encrypted and authenticated with a key only its two ends hold.

The room holds a secret (32 random bytes). A student's key is derived from the room's secret and the
student's ticket; the teacher's own state has a key of its own. A message is
``MAGIC + seq (8 bytes) + AES-SIV(key, json, associated data = room | box | seq)``:

- nobody without the key reads it (a shared folder's files, a Redis server's memory);
- nobody without the key writes one that opens: a forged message is refused, and so is one moved
  to another box or given another sequence number;
- AES-SIV is deterministic: the same message to the same box gives the same bytes, which is what
  lets the twin tests compare the bytes a student receives (RFC 5297; the `cryptography` package,
  imported the first time a message is sealed or opened: the widget, the engine and the review run
  where it is not installed, as in JupyterLite);
- a message that opens is read within bounds (`records.jsontext`: size, nesting, finite numbers): one
  that opens and does not read raises `UnreadableMessage`, which tells its reader to move past it.

A sequence number only grows (`next_seq`), so a message posted again (a replay of an old one) is
known by its number and ignored.

>>> key = derive(b"0" * 32, "student", "monday", "3")
>>> data = seal(key, "monday", "in.3", 1001, {"t": "go", "step": 4})
>>> unseal(key, "monday", "in.3", data)
(1001, {'t': 'go', 'step': 4})
>>> unseal(key, "monday", "in.4", data)
Traceback (most recent call last):
...
needle_widget.classroom.errors.ClassError: A message in in.4 does not open with its key (forged, damaged or moved)
"""

from __future__ import annotations

import hashlib
import hmac
import json
import struct
import time
from typing import Any

from ..records.jsontext import parse
from .errors import ClassError, UnreadableMessage

__all__ = ["MAGIC", "MAX_MESSAGE", "MAX_REQUEST", "derive", "seal", "unseal", "peek_seq", "next_seq", "seed_of",
           "require_cipher"]

MAGIC = b"NWC1"
MAX_MESSAGE = 1 << 20
"""The largest message a class sends or reads (bytes); a larger one is ignored with a log line."""
MAX_REQUEST = 16 << 10
"""The largest request a student's kernel sends the room (bytes of its JSON): a move, an answer or a hello is a
few hundred. The room reads no more of one (`unseal(limit=)`), so a student's valid but huge message costs the
room no more than a real one."""
_HEAD = len(MAGIC) + 8


def derive(secret: bytes, *parts: str) -> bytes:
    """A 64-byte key (AES-256-SIV) for `parts` from `secret` (HMAC-SHA512)."""
    return hmac.new(secret, "|".join(("needle-class-1", *parts)).encode("utf-8"), hashlib.sha512).digest()


def seed_of(secret: bytes, *parts: str) -> int:
    """A 63-bit seed for `parts` from `secret`: nobody without the secret can compute it.

    >>> seed_of(b"0" * 32, "review", "match 1/table 2/deal 1") == seed_of(b"1" * 32, "review", "match 1/table 2/deal 1")
    False
    """
    return int.from_bytes(derive(secret, "seed", *parts)[:8], "big") >> 1


def require_cipher() -> type[Any]:
    """The AES-SIV cipher (the `cryptography` package, imported only now: a class needs it, nothing else does),
    or ClassError saying so: `classroom.open` and `join` ask first.
    """
    try:
        from cryptography.hazmat.primitives.ciphers.aead import AESSIV
    except ImportError:
        raise ClassError("A class needs the 'cryptography' package to seal its messages: pip install cryptography "
                         "(the widget, the engine and the review run without it)") from None
    return AESSIV


def _siv(key: bytes) -> Any:
    return require_cipher()(key)


def _ad(room: str, box: str, seq: int) -> list[bytes]:
    return [f"{room}|{box}|{seq}".encode()]


def seal(key: bytes, room: str, box: str, seq: int, message: Any, *, limit: int = MAX_MESSAGE - 64) -> bytes:
    """`message` (JSON-ready) sealed for `box` of `room` with sequence number `seq`; ClassError if its JSON is
    longer than `limit` bytes (a student's request: MAX_REQUEST).
    """
    text = json.dumps(message, separators=(",", ":"), ensure_ascii=False, allow_nan=False).encode("utf-8")
    if len(text) > limit:
        raise ClassError(f"A message of {len(text):,} bytes is too large for a class (at most {limit:,})")
    return MAGIC + struct.pack(">Q", seq) + _siv(key).encrypt(text, _ad(room, box, seq))


def peek_seq(data: bytes) -> int | None:
    """The sequence number a sealed message claims (None if it is not one): read before opening it."""
    given: object = data  # checked: a box may hold anything
    if not isinstance(given, bytes) or len(data) < _HEAD + 16 or not data.startswith(MAGIC):
        return None
    return struct.unpack(">Q", data[len(MAGIC):_HEAD])[0]


def unseal(key: bytes, room: str, box: str, data: bytes, *, limit: int = MAX_MESSAGE) -> tuple[int, Any]:
    """(seq, message) of a message sealed for `box`. ClassError if it does not open with `key` (forged,
    damaged or moved: its number is not to be trusted); `UnreadableMessage` (a ClassError too) if it opens
    and its text is not JSON within bounds (at most `limit` bytes: a student's request, MAX_REQUEST), its
    sender sealed it: its number is theirs, and its reader moves past it.
    """
    seq = peek_seq(data)
    if seq is None or len(data) > MAX_MESSAGE:
        raise ClassError(f"A message in {box} is not a sealed class message of at most {MAX_MESSAGE:,} bytes")
    siv = _siv(key)
    from cryptography.exceptions import InvalidTag

    try:
        text = siv.decrypt(data[_HEAD:], _ad(room, box, seq))
    except (InvalidTag, ValueError):
        raise ClassError(f"A message in {box} does not open with its key (forged, damaged or moved)") from None
    return seq, parse(text, f"Message {seq} in {box}", UnreadableMessage, max_bytes=limit)


def next_seq(last: int) -> int:
    """A sequence number above `last` and above every earlier one of this clock (microseconds since
    1970), so numbers keep growing across a restart.
    """
    return max(last + 1, time.time_ns() // 1000)
