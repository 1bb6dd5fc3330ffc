"""What changed from one frame to the next, as boardgame.io's master sends each player a patch of their view
(`src/master/master.ts`, `createPatch`) rather than the whole of it: a class screen receives its frames as
patches of the frame before (`classroom.outbox`), and its kernel puts each frame together again (`apply`).

A patch is one operation, JSON-ready:

- ``["=", value]``: the value, whole;
- ``["+", items]``: a list that goes on: the old list, then `items`;
- ``["@", [[index, patch], ...]]``: a list of the same length with some items changed, each by its own patch;
- ``["~", {key: patch}, [keys gone]]``: a dict with some keys changed (each by its own patch) or gone; the keys
  keep their order, new ones last (a dict whose keys change order is sent whole).

`diff(a, b)` is None when nothing changed. A patch is made from the two frames alone, so twin frames (equal for
the perspective) give equal patches.

>>> old = {"mode": "play", "seats": ["You", "greedy"], "step": 3, "events": [{"step": 1}, {"step": 2}],
...        "table": {"turn": 2, "pile": 30, "hand": ["AC", "7H"]}, "busy": False}
>>> new = {"mode": "play", "seats": ["You", "greedy"], "step": 4, "events": [{"step": 1}, {"step": 2}, {"step": 3}],
...        "table": {"turn": 2, "pile": 29, "hand": ["AC", "7H"]}}
>>> patch = diff(old, new)
>>> patch
['~', {'step': ['=', 4], 'events': ['+', [{'step': 3}]], 'table': ['~', {'pile': ['=', 29]}, []]}, ['busy']]
>>> apply(old, patch) == new
True
"""

from __future__ import annotations

import json
from typing import Any

__all__ = ["VERSION", "apply", "diff"]

VERSION = 1
"""The version of patches a class screen's kernel takes (its hello says it: an earlier release gets whole frames)."""

_SMALL = 64
"""A dict or a list whose patch would be about as long as itself is sent whole (a rough count of its items)."""


def diff(a: Any, b: Any) -> list[Any] | None:
    """The patch that makes `b` of `a` (see the module docstring), or None when they are equal."""
    if _same(a, b):
        return None
    if isinstance(a, dict) and isinstance(b, dict):
        changed: dict[str, Any] = {}
        for key, value in b.items():
            if key in a:
                op = diff(a[key], value)
                if op is not None:
                    changed[key] = op
            else:
                changed[key] = ["=", value]
        gone = [key for key in a if key not in b]
        kept_order = [key for key in a if key in b] + [key for key in b if key not in a]
        if list(b) != kept_order or (len(changed) + len(gone) >= max(len(b), 1) and len(b) <= _SMALL // 8):
            return ["=", b]  # keys in another order (`apply` keeps `a`'s), or nearly all of it changed
        return ["~", changed, gone]
    if isinstance(a, list) and isinstance(b, list) and 0 < len(a) <= len(b) and _same(b[:len(a)], a):
        return ["+", b[len(a):]]
    if isinstance(a, list) and isinstance(b, list) and len(a) == len(b):
        items = [[i, op] for i, (x, y) in enumerate(zip(a, b, strict=True)) if (op := diff(x, y)) is not None]
        if _size(items) < _size(b):
            return ["@", items]
    return ["=", b]


def _size(value: Any) -> int:
    return len(json.dumps(value, separators=(",", ":"), ensure_ascii=False))


def _same(a: Any, b: Any) -> bool:
    """`a` and `b` are the same JSON (1, 1.0 and True are three values; a dict's keys in the same order)."""
    if type(a) is not type(b):
        return False
    if isinstance(a, dict):
        return list(a) == list(b) and all(_same(a[key], b[key]) for key in a)
    if isinstance(a, list):
        return len(a) == len(b) and all(_same(x, y) for x, y in zip(a, b, strict=True))
    return bool(a == b)


def apply(a: Any, patch: Any) -> Any:
    """`a` changed by `patch` (a new value: `a` is left as it was). A malformed patch raises ValueError."""
    if patch is None:
        return a
    if not isinstance(patch, list) or not patch or patch[0] not in ("=", "+", "@", "~"):
        raise ValueError(f"not a patch: {str(patch)[:80]}")
    kind = patch[0]
    if kind == "=" and len(patch) == 2:
        return patch[1]
    if kind == "+" and len(patch) == 2 and isinstance(a, list) and isinstance(patch[1], list):
        return [*a, *patch[1]]
    if kind == "@" and len(patch) == 2 and isinstance(a, list) and isinstance(patch[1], list):
        out_list = list(a)
        for item in patch[1]:
            if not (isinstance(item, list) and len(item) == 2 and type(item[0]) is int and 0 <= item[0] < len(a)):
                raise ValueError(f"not an item's patch: {str(item)[:80]}")
            out_list[item[0]] = apply(a[item[0]], item[1])
        return out_list
    if kind == "~" and len(patch) == 3 and isinstance(a, dict) and isinstance(patch[1], dict) \
            and isinstance(patch[2], list):
        out = {key: value for key, value in a.items() if key not in patch[2]}
        for key, op in patch[1].items():
            out[key] = apply(a.get(key), op)
        return out
    raise ValueError(f"a patch of {kind!r} does not fit a {type(a).__name__}")
