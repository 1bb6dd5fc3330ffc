"""The errors of needle_widget: each a ValueError whose message quotes the bad input."""

from __future__ import annotations


class NeedleError(ValueError):
    """Base class of every error this package raises on bad input."""


class CardError(NeedleError):
    """Text that is not a card, or a value that cannot be turned into one."""


class RulesError(NeedleError):
    """A `Rules` field outside what RULES.md allows."""


class IllegalAction(NeedleError):
    """An action the game does not allow now; the game is left unchanged."""


class PerspectiveError(NeedleError):
    """A perspective other than 0, 1, "spectator" or "teacher"."""


class ReplayError(NeedleError):
    """A replay file or record that is malformed or does not match the game it claims."""
