"""JSON text read within bounds: every file and message a student or a file brings is parsed here.

Python's `json.loads` takes any nesting its stack allows and raises `RecursionError` (not a ValueError)
beyond it; a 200 kB text of nested lists is enough. `parse` measures the size and the nesting first, in
linear time and without recursion, and refuses what is over either bound, an invalid text, a number that
is not finite (NaN, Infinity, 1e999) or an integer longer than Python converts, all with the caller's
`NeedleError` subclass and a message that names what was read.

>>> parse('{"t": "go", "step": [4]}', "a message")
{'t': 'go', 'step': [4]}
>>> parse("[" * 100 + "]" * 100, "a message")
Traceback (most recent call last):
...
needle_widget.engine.errors.ArgumentError: a message: nested 100 deep, more than 64
>>> parse('{"p": NaN}', "a deck")
Traceback (most recent call last):
...
needle_widget.engine.errors.ArgumentError: a deck: not valid JSON (the number NaN is not finite)
"""

from __future__ import annotations

import array
import itertools
import json
import math
import re
from typing import Any

from ..engine.errors import ArgumentError, NeedleError

__all__ = ["MAX_DEPTH", "depth", "parse"]

MAX_DEPTH = 64
"""The deepest nesting of lists and objects any file or message of this package has (a screen's frames are
the deepest, about a dozen)."""
_STRINGS = re.compile(rb'"[^"\\]*(?:\\.[^"\\]*)*(?:"|\\?\Z)', re.DOTALL)
"""A string, or an unterminated one to the end of the text: every match ends where the scan does, so a text of
quotes without an end takes linear time, not quadratic."""
_STEPS = bytes.maketrans(b"[]{}", b"\x01\xff\x01\xff")
"""An opening bracket becomes 1, a closing one -1 (as a signed byte)."""
_NOT_BRACKETS = bytes(c for c in range(256) if c not in b"[]{}")


class _NotFinite(ValueError):
    pass


def depth(text: str | bytes) -> int:
    """The deepest nesting of lists and objects in JSON `text` (brackets inside strings do not count), in
    linear time and without recursion. For an invalid text, an upper bound of what a parser would meet.

    >>> depth('{"a": [1, {"b": "]]]["}]}'), depth("3")
    (3, 0)
    """
    raw = text.encode("utf-8", "surrogatepass") if isinstance(text, str) else bytes(text)
    outside = _STRINGS.sub(b"", raw) if b'"' in raw else raw
    return max(itertools.accumulate(array.array("b", outside.translate(_STEPS, _NOT_BRACKETS))), default=0)


def _constant(name: str) -> Any:
    raise _NotFinite(f"the number {name} is not finite")


def _float(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):
        raise _NotFinite(f"the number {text[:20]} is not finite")
    return value


def parse(text: str | bytes, what: str, error: type[NeedleError] = ArgumentError, *, max_bytes: int | None = None,
          max_depth: int = MAX_DEPTH) -> Any:
    """The value of JSON `text` (str, or UTF-8 bytes), or `error` naming `what` if it is larger than
    `max_bytes` (characters or bytes as given), nested deeper than `max_depth`, not UTF-8, not valid JSON,
    or holds a number that is not finite.
    """
    if isinstance(text, (bytes, bytearray)):
        if max_bytes is not None and len(text) > max_bytes:
            raise error(f"{what}: {len(text):,} bytes, more than {max_bytes:,}")
    elif not isinstance(text, str):
        raise error(f"{what}: JSON text is a str or bytes, not {type(text).__name__}")
    elif max_bytes is not None and len(text) > max_bytes:
        raise error(f"{what}: {len(text):,} characters, more than {max_bytes:,}")
    deepest = depth(text)
    if deepest > max_depth:
        raise error(f"{what}: nested {deepest:,} deep, more than {max_depth}")
    if not isinstance(text, str):
        try:
            text = bytes(text).decode("utf-8")
        except UnicodeDecodeError as bad:
            raise error(f"{what}: not UTF-8 text ({bad.reason} at byte {bad.start:,})") from None
    try:
        return json.loads(text, parse_constant=_constant, parse_float=_float)
    except _NotFinite as bad:
        raise error(f"{what}: not valid JSON ({bad})") from None
    except (ValueError, RecursionError) as bad:
        raise error(f"{what}: not valid JSON ({str(bad)[:120]})") from None
