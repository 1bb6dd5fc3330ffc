"""The seeded generator's draws: where a game's generator starts (`Start`), and a steal's and a reshuffle's draws
made as `random.Random.randrange` and `random.Random.shuffle` make them, in fewer Python calls.

What `Game` and its rollouts (`engine.rollout`) draw with, so both draw the same numbers. A rollout reads the
generator's words from its start (`Stream`) instead of making a generator: seeding one costs about 6 us, a
rollout's draws a few words, and every rollout from one world reads the same words, made once.
"""

from __future__ import annotations

import random
from typing import Any, Final, TypeVar

from mypy_extensions import mypyc_attr

__all__ = ["WORDS", "Start", "Stream", "below", "shuffle"]

_T = TypeVar("_T")


@mypyc_attr(serializable=True)  # a game's field: pickled and deep-copied with it (made in compiled code only:
class Start:  # a serializable class made from Python has no fields in the compiled build, mypyc/mypyc#1172)
    """Where a generator starts: from a seed (state None), or from a state `random.Random.getstate()` gave. Games
    share one (`Game.copy`); each makes its own generator from it when it first draws (`make`).
    """

    def __init__(self, seed: int, state: tuple[Any, ...] | None) -> None:
        self.seed = seed
        self.state = state
        self.words: list[int] | None = None
        """The generator's first `WORDS` 32-bit words from this start (`getrandbits(32)` in turn), made when a
        rollout first reads them (`Stream`) and kept for every rollout from here."""

    def make(self) -> random.Random:
        """A new generator at this start."""
        state = self.state
        if state is None:
            return random.Random(self.seed)
        rng = random.Random.__new__(random.Random)  # not seeded from the OS: its state is set at once
        rng.setstate(state)
        return rng

    def first_words(self) -> list[int]:
        """`words`, made on first use: the same list for every caller (made again, the same, where two threads
        race to make it first).
        """
        words = self.words
        if words is None:
            bits = self.make().getrandbits
            words = self.words = [bits(32) for _ in range(WORDS)]
        return words


WORDS: Final = 64
"""How many of a start's words its rollouts share (`Start.words`): most rollouts read fewer than 20, and one that
reads more goes on from a generator of its own."""

_BITS: Final = tuple(n.bit_length() for n in range(53))


def below(rng: random.Random, n: int) -> int:
    """`rng.randrange(n)`: the same number and the same generator state after, without randrange's checks
    (for n outside 1..52, or a generator of another kind, randrange itself).
    """
    # CPython's own Random methods, which typeshed leaves out (private): a subclass's _randbelow answers itself.
    if type(rng)._randbelow is not random.Random._randbelow_with_getrandbits or not 0 < n <= 52:  # type: ignore[attr-defined]
        return rng.randrange(n)
    k = _BITS[n]
    r = rng.getrandbits(k)
    while r >= n:
        r = rng.getrandbits(k)
    return r


def shuffle(rng: random.Random, x: list[_T]) -> None:
    """`rng.shuffle(x)`: the same permutation and the same generator state after, in one Python loop
    (random.shuffle makes a Python call per card: the deal was a tenth of a random game's time).
    A generator of another kind shuffles itself.
    """
    # CPython's own Random methods, which typeshed leaves out (private): as in `below`.
    if type(rng)._randbelow is not random.Random._randbelow_with_getrandbits or len(x) > 52:  # type: ignore[attr-defined]
        rng.shuffle(x)
        return
    getrandbits = rng.getrandbits
    for i in range(len(x) - 1, 0, -1):
        n = i + 1
        k = _BITS[n]
        j = getrandbits(k)
        while j >= n:
            j = getrandbits(k)
        x[i], x[j] = x[j], x[i]


_WORDS_DRAW: Final = random.Random(7).getrandbits(5) == random.Random(7).getrandbits(32) >> 27
"""Whether this Python's generator draws `getrandbits(k)` for k <= 32 as the top k bits of its next 32-bit word
(CPython's does): then a `Stream` reads the words; else it asks a generator."""


class Stream:
    """A rollout's draws from a `Start`: the same numbers `below` and `shuffle` give from a generator made there,
    read from the start's words (`Start.words`), made once for all the rollouts that share the start; or a
    game's draws from its own generator (`rng`), which the game then keeps. Only the start's words are shared:
    nothing else is written that another rollout reads.
    """

    def __init__(self, start: Start, rng: random.Random | None = None) -> None:
        self.start = start
        self.rng: random.Random | None = rng if rng is not None or _WORDS_DRAW else start.make()
        """The generator drawn from instead of the words: a game's own, live one (`rng`); one made at the start
        where this Python's generator does not draw from its words (`_WORDS_DRAW`); or, once a rollout has read
        all the start's words, one made there and moved on past them."""
        self.words = start.first_words() if self.rng is None else []
        self.at = 0
        """How many words were read."""

    def _bits(self, k: int) -> int:
        """`getrandbits(k)` for 0 < k <= 32 from the generator at this point."""
        at = self.at
        words = self.words
        if at < len(words):
            self.at = at + 1
            return words[at] >> (32 - k)
        rng = self.rng
        if rng is None:  # past the shared words: a generator of its own, on from them
            rng = self.rng = self.start.make()
            bits = rng.getrandbits
            for _ in range(at):
                bits(32)
        return rng.getrandbits(k)

    def below(self, n: int) -> int:
        """`below(generator, n)` for 0 < n <= 52."""
        rng = self.rng
        if rng is not None:
            return below(rng, n)
        k = _BITS[n]
        r = self._bits(k)
        while r >= n:
            r = self._bits(k)
        return r

    def shuffle(self, x: list[int]) -> None:
        """`shuffle(generator, x)` for at most 52 items."""
        rng = self.rng
        if rng is not None:
            shuffle(rng, x)
            return
        for i in range(len(x) - 1, 0, -1):
            j = self.below(i + 1)
            x[i], x[j] = x[j], x[i]
