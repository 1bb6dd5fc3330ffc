"""Paths given by a user, checked before anything is written: a clear NeedleError, never a raw
OSError, TypeError or a write into an open file descriptor.

`check_path` takes text or an `os.PathLike` giving text (not bytes, not an int: `open(3)` would
write into file descriptor 3 and close it), without a NUL character. `write_text` writes a whole
file next to its target and moves it into place, so a failed write leaves the old file as it was.

>>> check_path(3, "the replay")
Traceback (most recent call last):
...
needle_widget.engine.errors.ArgumentError: the replay: 3 is not a file path (give text or a pathlib.Path)
"""

from __future__ import annotations

import os
import pathlib
import stat
import tempfile

from .errors import ArgumentError, NeedleError, quote

__all__ = ["check_path", "write_text"]


def check_path(path: object, what: str, error: type[NeedleError] = ArgumentError) -> pathlib.Path:
    """`path` as a Path if it is text or an os.PathLike giving text, non-empty and without NUL; else `error`."""
    name = os.fspath(path) if isinstance(path, os.PathLike) else path
    if not isinstance(name, str):
        raise error(f"{what}: {quote(path)} is not a file path (give text or a pathlib.Path)")
    if not name or "\0" in name:
        raise error(f"{what}: {quote(name)} is not a file path" + (" (it holds a NUL character)" if name else ""))
    return pathlib.Path(name)


def write_text(path: object, text: str, what: str, error: type[NeedleError] = ArgumentError,
               mode: int = 0o644) -> pathlib.Path:
    """Write `text` (UTF-8, newlines as given) to `path`, checked (`check_path`), the folder existing, the
    target not a folder; written to a temporary file in the same folder, then moved into place (with the
    old file's permissions, or `mode` for a new one: rw-r--r-- by default).
    """
    target = check_path(path, what, error).expanduser()
    folder = target.parent if str(target.parent) else pathlib.Path(".")
    if target.is_dir():
        raise error(f"{what}: {quote(str(target))} is a folder: give a file name")
    if not folder.is_dir():
        raise error(f"{what}: the folder {quote(str(folder))} does not exist")
    try:
        fd, temporary = tempfile.mkstemp(dir=folder, prefix=f".{target.name}.", suffix=".part")
        try:
            with open(fd, "w", encoding="utf-8", newline="") as f:
                f.write(text)
            os.chmod(temporary, stat.S_IMODE(target.stat().st_mode) if target.exists() else mode)
            os.replace(temporary, target)
        except BaseException:
            os.unlink(temporary)
            raise
    except OSError as failure:
        raise error(f"{what}: cannot write {quote(str(target))}: {failure.strerror or failure}") from None
    return target
