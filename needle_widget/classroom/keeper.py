"""A room kept in its channel: its secret, and its own documents sealed with the teacher's key (the room's
state, the class's record, each recorded game's replay), so a teacher whose kernel restarts reopens it.
"""

from __future__ import annotations

import json
import secrets
from typing import TYPE_CHECKING, Any

from .errors import ClassError
from .seal import seal, unseal

if TYPE_CHECKING:
    from .room import Room

__all__ = ["Keeper", "decode_secret", "encode_secret", "new_secret"]


class Keeper:
    """`room`'s documents in its channel, sealed with `key` (the teacher's). `save` seals at once, in the caller's
    thread (under the room's lock, if it holds it), and queues the saving on the room's link, in place of a saving
    of the same document still queued; `load` reads the channel at once.
    """

    def __init__(self, room: Room, key: bytes) -> None:
        self._room = room
        self._key = key

    def save(self, name: str, document: Any, what: str) -> None:
        """Seal `document` (JSON-ready) as `name` and queue its saving (`what`: the link's words for it)."""
        room = self._room
        data = seal(self._key, room.name, name, 1, document)

        def save() -> None:
            room.channel.save(name, data)

        room.link.do(what, save, key=name)

    def load(self, name: str) -> Any:
        """The document saved as `name`, or None if there is none."""
        data = self._room.channel.load(name)
        if data is None:
            return None
        return unseal(self._key, self._room.name, name, data)[1]


def new_secret() -> bytes:
    """32 random bytes: a new room's secret."""
    return secrets.token_bytes(32)


def encode_secret(secret: bytes) -> bytes:
    """A room's secret as the channel keeps it."""
    return json.dumps({"format": "needle-room-secret-1", "secret": secret.hex()}).encode()


def decode_secret(data: bytes) -> bytes:
    """The inverse of `encode_secret` (ClassError if the data is damaged)."""
    try:
        return bytes.fromhex(json.loads(data)["secret"])
    except (ValueError, KeyError, TypeError):
        raise ClassError("The room's secret is damaged: make a new room (another folder or room name)") from None
