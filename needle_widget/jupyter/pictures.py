"""Pictures of a view for `NeedleWidget.save_png`: the files asked for, and each PNG a view sends back,
checked before a byte is written.

A picture is drawn in the browser (js/src/picture.js), from the view's own DOM: Python asks with a
custom message {kind: "picture", id} and an open view answers {kind: "picture", id, png: PNG data
URL}. `Pictures` numbers the requests, keeps at most MAX_PICTURES_ASKED of them waiting (asked with no
view open, they would pile up), and takes the first valid PNG for each id, once.

>>> pictures = Pictures()
>>> pictures.drawn({"kind": "picture", "id": 7, "png": PNG_DATA_URL}) is None  # nobody asked for 7
True
"""

from __future__ import annotations

import base64
import binascii
import logging
import os
import pathlib
from typing import Any

from ..engine.errors import ArgumentError, quote

__all__ = ["MAX_PICTURE", "MAX_PICTURES_ASKED", "PNG_DATA_URL", "Pictures", "png_bytes"]

MAX_PICTURE = 6 * 1024 * 1024
"""A picture a view sends back for `NeedleWidget.save_png` may have at most this many bytes (its
base64 and the message stay under the 10 MiB a Jupyter server's websocket takes by default)."""
MAX_PICTURES_ASKED = 16
"""Pictures asked for and not drawn yet that are remembered (the oldest is forgotten first)."""
PNG_DATA_URL = "data:image/png;base64,"
"""How a view's picture starts (a PNG data URL); the front end sends none longer than MAX_PICTURE allows."""
_PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"
log = logging.getLogger("needle_widget")


def png_bytes(value: Any) -> bytes:
    """The PNG in a data URL a view sent, checked: a PNG (its signature) of at most MAX_PICTURE bytes."""
    if not isinstance(value, str) or not value.startswith(PNG_DATA_URL):
        raise ArgumentError("not a PNG data URL")
    text = value[len(PNG_DATA_URL):]
    if len(text) > (MAX_PICTURE + 2) // 3 * 4:
        raise ArgumentError(f"larger than {MAX_PICTURE} bytes")
    try:
        data = base64.b64decode(text, validate=True)
    except (binascii.Error, ValueError):
        raise ArgumentError("not valid base64") from None
    if not data.startswith(_PNG_SIGNATURE):
        raise ArgumentError("not a PNG (no PNG signature)")
    return data


class Pictures:
    """The pictures asked of the views, by id, until one is drawn."""

    def __init__(self) -> None:
        self._asked: dict[int, pathlib.Path] = {}
        self._last = 0

    def ask(self, path: str | os.PathLike) -> int:
        """A new id for a picture to write at `path` (checked: a file name in a folder that exists)."""
        target = pathlib.Path(path).expanduser().absolute()
        if target.is_dir():
            raise ArgumentError(f"save_png: {quote(str(target))} is a folder: give the picture's file name")
        if not target.parent.is_dir():
            raise ArgumentError(f"save_png: the folder {quote(str(target.parent))} does not exist")
        self._last += 1
        self._asked[self._last] = target
        while len(self._asked) > MAX_PICTURES_ASKED:  # asked with no view open: forget the oldest
            del self._asked[min(self._asked)]
        return self._last

    def drawn(self, content: dict[str, Any]) -> tuple[pathlib.Path, bytes] | None:
        """A view's answer {kind: "picture", id, png}: (the file to write, its bytes) for the first valid
        PNG of an id asked for, once; None for anything else (logged).
        """
        picture_id = content.get("id")
        if type(picture_id) is not int or (target := self._asked.get(picture_id)) is None:
            if type(picture_id) is int and 0 < picture_id <= self._last:  # another view drew it first
                log.debug("needle_widget: a later view's picture for id %s, already saved or forgotten", picture_id)
            else:
                log.warning("needle_widget: ignored a picture nobody asked for (id %s)", quote(picture_id))
            return None
        try:
            data = png_bytes(content.get("png"))
        except ArgumentError as error:
            log.warning("needle_widget: ignored a picture for %s: %s", target, error)
            return None
        del self._asked[picture_id]
        return target, data
