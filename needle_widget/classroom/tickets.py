"""A student's ticket: who they are in a room, and the secret their messages are sealed with.

The room signs a ticket: its secret is HMAC(room secret, room | index), cut to 80 bits, so the
room checks any ticket (and recreates it after a restart) without storing it, and nobody makes
one without the room's secret. The ticket is written as a short code a student types or pastes,
"monday/3-KQ4M-7XPD-2HWN-9CTB": the room's name, the student's number, and the secret in base 32.

>>> t = Ticket("monday", 3, "Ann", bytes(10))
>>> t.code
'monday/3-AAAA-AAAA-AAAA-AAAA'
>>> read("monday/3-aaaa aaaa aaaa aaaa")[:2]
('monday', 3)
>>> redis_user("monday", 3, bytes(10), db=2)[0], in_database("nw.monday.3", 2)
('nw.monday@2.3', 'nw.monday@2.3')
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import re
from dataclasses import dataclass, field

from ..engine.errors import quote
from .errors import TicketError
from .seal import derive

__all__ = ["Ticket", "read", "sign", "MAX_STUDENTS", "student_key", "redis_user", "in_database", "invitation",
           "split_invitation"]

MAX_STUDENTS = 500
SECRET_BYTES = 10
_CODE = re.compile(r"(?:([A-Za-z0-9][A-Za-z0-9_-]{0,39})/)?(\d{1,3})-([A-Za-z2-7]{16})")


def sign(room_secret: bytes, room: str, index: int) -> bytes:
    """The secret of ticket `index` of `room` (80 bits of HMAC-SHA256 under the room's secret)."""
    return hmac.new(room_secret, f"ticket|{room}|{index}".encode(), hashlib.sha256).digest()[:SECRET_BYTES]


def student_key(room: str, index: int, secret: bytes) -> bytes:
    """The key of everything between the room and ticket `index`."""
    return derive(secret, "student", room, str(index))


def redis_user(room: str, index: int, secret: bytes, db: int | None = None) -> tuple[str, str]:
    """(user, password) of ticket `index`'s own Redis user in database `db`: ``nw.<room>@<db>.<N>``.
    Without `db`, ``nw.<room>.<N>``: the Redis channel names it in its own database (`in_database`).
    """
    user = f"nw.{room}.{index}"
    return in_database(user, db) if db is not None else user, derive(secret, "redis", room, str(index)).hex()[:64]


def in_database(user: str, db: int) -> str:
    """The Redis user ``nw.<room>.<N>`` of database `db`: ``nw.<room>@<db>.<N>`` (Redis users are the
    server's, not a database's); a name that names its database already is kept.
    """
    head, dot, index = user.rpartition(".")
    if not dot or "@" in head or not head.startswith("nw."):
        return user
    return f"{head}@{db}.{index}"


@dataclass(frozen=True)
class Ticket:
    """Student `index` of `room`, called `name`; `code` is what the student types."""

    room: str
    index: int
    name: str
    secret: bytes = field(repr=False)

    @property
    def code(self) -> str:
        """"room/index-XXXX-XXXX-XXXX-XXXX"."""
        text = base64.b32encode(self.secret).decode("ascii")
        return f"{self.room}/{self.index}-" + "-".join(text[i:i + 4] for i in range(0, 16, 4))

    def __str__(self) -> str:
        return self.code

    def _repr_html_(self) -> str:
        import html

        return f"<code>{html.escape(self.code)}</code> ({html.escape(self.name)})"


def read(code: object) -> tuple[str | None, int, bytes]:
    """(room or None, index, secret) of a ticket's code; TicketError if it is not one."""
    if isinstance(code, Ticket):
        return code.room, code.index, code.secret
    text = re.sub(r"\s+", "", code) if isinstance(code, str) and len(code) < 200 else ""
    room, _, rest = text.rpartition("/")
    index, _, secret = rest.partition("-")
    match = _CODE.fullmatch(f"{room + '/' if room else ''}{index}-{secret.replace('-', '')}")
    if not match or int(match.group(2)) >= MAX_STUDENTS:
        raise TicketError(f"Not a class ticket: {quote(code)} (a ticket reads like monday/3-KQ4M-7XPD-2HWN-9CTB)")
    return match.group(1), int(match.group(2)), base64.b32decode(match.group(3).upper())


def invitation(url: str, ticket: Ticket) -> str:
    """The one string a student joins with: the room's address and the ticket's code, "ADDRESS#CODE".

    >>> invitation("folder:/srv/class/monday", Ticket("monday", 3, "Ann", bytes(10)))
    'folder:/srv/class/monday#monday/3-AAAA-AAAA-AAAA-AAAA'
    >>> split_invitation(" folder:/srv/class/monday#monday/3-AAAA-AAAA-AAAA-AAAA ")
    ('folder:/srv/class/monday', 'monday/3-AAAA-AAAA-AAAA-AAAA')
    """
    return f"{url}#{ticket.code}"


def split_invitation(text: object) -> tuple[str, str]:
    """(address, ticket code) of an `invitation`; TicketError if `text` is not one."""
    if isinstance(text, str) and len(text) < 2000:
        url, _, code = text.strip().rpartition("#")
        if url and code.strip():
            return url, code.strip()  # the code is checked as a ticket's when it is used (`read`)
    raise TicketError(f"Not an invitation to a class: {quote(text)} (it reads like folder:/srv/class/monday#"
                      "monday/3-KQ4M-7XPD-2HWN-9CTB: the room's address, #, and your ticket)")
