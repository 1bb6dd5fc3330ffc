"""The errors of a class session: each a NeedleError whose message quotes the bad input."""

from __future__ import annotations

from ..engine.errors import NeedleError

__all__ = ["ClassError", "ChannelDown", "TicketError", "UnreadableMessage"]


class ClassError(NeedleError):
    """A class session's bad argument, request or state: "No question is open", a bad room address."""


class TicketError(ClassError):
    """A ticket that is not one of this room's: mistyped, of another room, or forged."""


class ChannelDown(ClassError):
    """The class's channel does not answer (Redis is down, the shared folder is gone); the reader retries."""


class UnreadableMessage(ClassError):
    """A sealed message that opened with its key and does not read (too deep, too large, not JSON): its
    sender sealed it, so its reader takes its number and moves past it; it is never read again.
    """
