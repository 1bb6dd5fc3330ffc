"""The errors of a class session: each a NeedleError whose message quotes the bad input."""

from __future__ import annotations

from ..engine.errors import NeedleError

__all__ = ["ClassError", "ChannelDown", "TicketError"]


class ClassError(NeedleError):
    """A class session's bad argument, request or state: "No question is open", a bad room address."""


class TicketError(ClassError):
    """A ticket that is not one of this room's: mistyped, of another room, or forged."""


class ChannelDown(ClassError):
    """The class's channel does not answer (Redis is down, the shared folder is gone); the reader retries."""
