"""The errors of needle_widget: each a ValueError whose message quotes the bad input."""

from __future__ import annotations

import itertools
import math
import numbers
import reprlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .actions import Action


class _Quote(reprlib.Repr):
    """reprlib's bounded repr, with a dict's keys in their own order (as the input had them)."""

    def repr_dict(self, x: dict[Any, Any], level: int) -> str:
        if not x:
            return "{}"
        if level <= 0:
            return "{...}"
        pieces = [f"{self.repr1(k, level - 1)}: {self.repr1(v, level - 1)}"
                  for k, v in itertools.islice(x.items(), self.maxdict)]
        return "{" + ", ".join(pieces + ["..."] * (len(x) > self.maxdict)) + "}"


_QUOTE = _Quote()
_QUOTE.maxstring = _QUOTE.maxother = 60
_QUOTE.maxlist = _QUOTE.maxdict = _QUOTE.maxtuple = 6
quote = _QUOTE.repr
"""repr() cut to a few dozen characters in bounded time, for echoing input in messages."""


def finite(value: Any) -> float | None:
    """`value` as a float if it is a real number (not a bool) with a finite float value, else None:
    an integer too large for a float is None, never an OverflowError.

    >>> finite(0.25), finite(3), finite(True), finite(10**400), finite(float("nan")), finite("1")
    (0.25, 3.0, None, None, None, None)
    """
    if not isinstance(value, numbers.Real) or isinstance(value, bool):
        return None
    try:
        x = float(value)
    except (OverflowError, ValueError, TypeError):
        return None
    return x if math.isfinite(x) else None


class NeedleError(ValueError):
    """Base class of every error this package raises on bad input."""


class ArgumentError(NeedleError):
    """An argument of the wrong kind or out of range (a seed, a count, a name) where no
    more specific error applies.
    """


class CardError(NeedleError):
    """Text that is not a card, or a value that cannot be turned into one."""


class RulesError(NeedleError):
    """A `Rules` field outside what docs/RULES.md allows."""


class IllegalAction(NeedleError):
    """An action the game does not allow now; the game is left unchanged."""


class InvalidAction(IllegalAction):
    """Something that is not an action at all: a malformed dict or text, or another object.

    Catch `InvalidAction` to tell malformed input from a real action that the rules do
    not allow now (python-chess's InvalidMoveError vs IllegalMoveError). It is also an
    `IllegalAction`, so code that catches refused actions catches both.
    """


class TournamentError(ArgumentError):
    """Arguments `sim.round_robin` (and so `needle_widget.tournament`) cannot run: too few bots, a bad game count
    or seed, an odd game count for a duplicate match, a bad review budget.
    """


class PerspectiveError(NeedleError):
    """A perspective other than 0, 1, "spectator" or "teacher"."""


class BotError(NeedleError):
    """A bot failed to move: it raised, returned something that is not an action, or an illegal action.

    `str(error)` is the full detail for Python (it may name the bot's hidden cards);
    `public` is what the widget shows every perspective: the bot, its seat and the kind
    of error, never a card. `cause` is the exception raised (with its traceback), if any.
    """

    def __init__(self, detail: str, *, public: str, player: int, bot: Any, problem: str, action: Any = None,
                 legal: tuple[Action, ...] = (), cause: BaseException | None = None) -> None:
        super().__init__(detail)
        self.public, self.player, self.bot, self.problem = public, player, bot, problem
        self.action, self.legal, self.cause = action, legal, cause
        self.__cause__ = cause


class ReplayError(NeedleError):
    """A replay file or record that is malformed or does not match the game it claims."""
