"""Hands as 52-bit masks: bit `card.index`, one 4-bit nibble per rank (rank-major).

Precomputed tables turn a mask into cards, discards, needle choices and the sets
it holds without looping over 52 bits; this is what keeps the engine fast.
"""

from __future__ import annotations

from collections.abc import Iterable
from itertools import product
from typing import Final, TypeVar

from . import actions as A
from .cards import DECK, Card

FULL: Final = (1 << 52) - 1
RANK_LOW_BITS: Final = sum(1 << (4 * k) for k in range(13))
_BYTES = range(7)

_T = TypeVar("_T")
_Table = tuple[tuple[tuple[_T, ...], ...], ...]
"""Per byte k of a mask (0..6), per value b of that byte (0..255): the items of the bits set in b."""


def _byte_table(items: tuple[_T, ...]) -> _Table[_T]:
    return tuple(
        tuple(tuple(items[8 * k + i] for i in range(8) if b >> i & 1 and 8 * k + i < 52) for b in range(256))
        for k in _BYTES
    )


_CARDS: Final = _byte_table(DECK)
_DISCARDS: Final = _byte_table(A.DISCARD)
_NEEDLES: Final = _byte_table(A.CHOOSE_NEEDLE)


def _expand(mask: int, table: _Table[_T]) -> list[_T]:
    out: list[_T] = []
    k = 0
    while mask:
        b = mask & 255
        if b:
            out += table[k][b]
        mask >>= 8
        k += 1
    return out


def cards_of(mask: int) -> list[Card]:
    """The cards of `mask`, in index order."""
    return _expand(mask, _CARDS)


def discards_of(mask: int) -> list[A.Discard]:
    """A Discard for each card of `mask`, by card index."""
    return _expand(mask, _DISCARDS)


def needles_outside(mask: int) -> list[A.ChooseNeedle]:
    """A ChooseNeedle for each card outside `mask`, by card index."""
    return _expand(FULL & ~mask, _NEEDLES)


def mask_of(cards: Iterable[Card]) -> int:
    """The mask holding `cards`."""
    m = 0
    for c in cards:
        m |= 1 << c.index
    return m


def rank_nibble(mask: int, rank: int) -> int:
    """The four suit bits of `rank` (1..13) in `mask`."""
    return (mask >> (4 * (rank - 1))) & 15


_SET_CACHE: Final[dict[int, tuple[A.LaySet, ...]]] = {}
_LAY_SETS: Final[dict[tuple[int, ...], A.LaySet]] = {}


def _lay_set(indices: tuple[int, ...]) -> A.LaySet:
    """The one LaySet of these three card indices (at most 13 x 64 of them, made once)."""
    key = tuple(sorted(indices))
    found = _LAY_SETS.get(key)
    if found is None:
        found = _LAY_SETS[key] = A.LaySet(tuple(DECK[i] for i in key))
    return found


def _sets_for(rank: int, mask: int) -> tuple[A.LaySet, ...]:
    """The sets of `mask` on ranks rank, rank+1, rank+2 (wrapping past K), cached by those 12 bits."""
    ranks = [(rank + k - 1) % 13 + 1 for k in range(3)]
    window = rank_nibble(mask, ranks[0]) | rank_nibble(mask, ranks[1]) << 4 | rank_nibble(mask, ranks[2]) << 8
    key = rank << 12 | window
    found = _SET_CACHE.get(key)
    if found is None:
        groups = [[(r - 1) * 4 + s for s in range(4) if window >> (4 * k + s) & 1] for k, r in enumerate(ranks)]
        found = _SET_CACHE[key] = tuple(_lay_set(combo) for combo in product(*groups))
    return found


def sets_in(mask: int, extra_starts: tuple[int, ...] = ()) -> list[A.LaySet]:
    """Every set (T3) in `mask`: runs r..r+2 for r = 1..11, then the ace variants' `extra_starts` (12, 13)."""
    present = (mask | mask >> 1 | mask >> 2 | mask >> 3) & RANK_LOW_BITS
    starts = present & (present >> 4) & (present >> 8)
    out: list[A.LaySet] = []
    while starts:
        low = starts & -starts
        shift = low.bit_length() - 1
        key = (shift // 4 + 1) << 12 | (mask >> shift) & 0xFFF
        found = _SET_CACHE.get(key)
        out += found if found is not None else _sets_for(shift // 4 + 1, mask)
        starts ^= low
    for rank in extra_starts:
        if all(present >> (4 * ((rank + k - 1) % 13)) & 1 for k in range(3)):
            out += _sets_for(rank, mask)
    return out


def has_set(mask: int, extra_starts: tuple[int, ...] = ()) -> bool:
    """Whether `mask` holds a set (T3): `sets_in(mask, extra_starts)` is not empty, without listing them."""
    present = (mask | mask >> 1 | mask >> 2 | mask >> 3) & RANK_LOW_BITS
    if present & (present >> 4) & (present >> 8):
        return True
    for rank in extra_starts:
        if all(present >> (4 * ((rank + k - 1) % 13)) & 1 for k in range(3)):
            return True
    return False
