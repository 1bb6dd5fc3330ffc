"""A class room's address: `folder:PATH` (a shared folder, the default) or `redis://HOST:PORT/DB`.

A Redis address may name the room (`?room=monday`, default "class") and, for the teacher, the
Redis user that may create the students' users (`redis://teacher:pw@host:6379/0`). Students join
with the address without a user: their ticket gives them their own Redis user.

>>> parse("folder:/srv/class/monday").kind, parse("folder:/srv/class/monday").room
('folder', 'monday')
>>> a = parse("redis://127.0.0.1:6390/2?room=tuesday")
>>> a.kind, a.host, a.port, a.db, a.room, a.public
('redis', '127.0.0.1', 6390, 2, 'tuesday', 'redis://127.0.0.1:6390/2?room=tuesday')
>>> parse("http://example.com")
Traceback (most recent call last):
...
needle_widget.classroom.errors.ClassError: A class address is folder:PATH or redis://HOST:PORT/DB, not 'http://example.com'
"""

from __future__ import annotations

import os
import pathlib
import re
import urllib.parse
from dataclasses import dataclass

from ..engine.errors import quote
from .errors import ClassError

__all__ = ["Address", "parse", "ROOM_NAME"]

ROOM_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9_-]{0,39}")
"""A room's name: letters, digits, - and _, up to 40 (it is part of every key, file and Redis user name, where
"@", "." and ":" separate it from the database and the student's number)."""
MAX_ADDRESS = 2000


@dataclass(frozen=True)
class Address:
    """A parsed class address (see the module docstring)."""

    kind: str
    room: str
    path: pathlib.Path | None = None
    host: str = ""
    port: int = 0
    db: int = 0
    username: str | None = None
    password: str | None = None

    @property
    def public(self) -> str:
        """The address to give students: no user, no password."""
        if self.kind == "folder":
            return f"folder:{self.path}"
        return f"redis://{self.host}:{self.port}/{self.db}?room={self.room}"

    def __repr__(self) -> str:
        return f"Address({self.public!r})"


def _room(name: str, where: str) -> str:
    if not ROOM_NAME.fullmatch(name):
        raise ClassError(f"A room's name is 1 to 40 letters, digits, - or _ (starting with a letter or digit), "
                         f"not {quote(name)} (from {quote(where)})")
    return name


def parse(url: object) -> Address:
    """The Address of `url` (text or a Path, which is a folder), or ClassError quoting it."""
    if isinstance(url, os.PathLike):
        url = "folder:" + os.fspath(url)
    if not isinstance(url, str) or not url or len(url) > MAX_ADDRESS or "\0" in url:
        raise ClassError(f"A class address is folder:PATH or redis://HOST:PORT/DB, not {quote(url)}")
    if url.startswith("folder:"):
        path = pathlib.Path(url[len("folder:"):]).expanduser()
        if not str(path) or str(path) == ".":
            raise ClassError(f"A folder address needs a path: folder:/srv/class, not {quote(url)}")
        path = path.absolute()
        return Address("folder", _room(path.name.replace(".", "_")[:40] or "class", url), path=path)
    if url.startswith("redis://"):
        try:
            parts = urllib.parse.urlsplit(url)
            port = parts.port or 6379
        except ValueError:
            raise ClassError(f"Not a Redis address (redis://HOST:PORT/DB): {quote(url)}") from None
        if not parts.hostname:
            raise ClassError(f"A Redis address needs a host: redis://127.0.0.1:6379/0, not {quote(url)}")
        db_text = parts.path.strip("/") or "0"
        if not db_text.isdigit() or int(db_text) > 10_000:
            raise ClassError(f"A Redis address's database is a number (redis://HOST:PORT/0), not {quote(db_text)}")
        query = urllib.parse.parse_qs(parts.query)
        room = _room((query.get("room") or ["class"])[0], url)
        user = urllib.parse.unquote(parts.username) if parts.username else None
        password = urllib.parse.unquote(parts.password) if parts.password else None
        return Address("redis", room, host=parts.hostname, port=port, db=int(db_text), username=user,
                       password=password)
    raise ClassError(f"A class address is folder:PATH or redis://HOST:PORT/DB, not {quote(url)}")
