"""Bots behind one guard: a bot's move never raises into the kernel and never shows a hidden card.

`move(bot, game, player)` asks the bot, checks what it returned and applies it. A bot
that raises, returns something that is not an action, or returns an illegal action
leaves the game unchanged and gives a `BotError`: its `public` line names the bot, its
seat and the kind of error (never a card), its `str()` is the full detail for Python,
and the detail with the traceback goes to the "needle_widget" log. No Jupyter import.

>>> from needle_widget import Game, bots
>>> class Broken:
...     def choose(self, view, legal):
...         return "draw"
>>> game = Game(seed=1)
>>> reason, error = move(Broken(), game, 0)
>>> error.public, len(game)
('Broken (Player 1) returned a str, not an action; the game is paused.', 0)
"""

from __future__ import annotations

import logging
import sys
from reprlib import repr as quote
from typing import Any

from ..engine import actions as A
from ..engine.errors import ArgumentError, BotError
from ..engine.game import Game
from ..engine.observation import reads_history
from ..players.bots import bot_seed

MAX_REASON = 500
"""A bot's explanation is cut to this many characters."""
MAX_NAME = 40
"""A bot's name (shown on its seat) is cut to this many characters."""

log = logging.getLogger("needle_widget")
if not log.handlers:  # the kernel's own log (the terminal running Jupyter), never a notebook's output
    log.addHandler(logging.StreamHandler(sys.__stderr__) if sys.__stderr__ is not None else logging.NullHandler())

_ACTIONS = tuple(A.ACTION_TYPES.values())


def move(bot: Any, game: Game, player: int) -> tuple[str, None] | tuple[None, BotError]:
    """`bot` moves for `player` (the player to move): (its reason, None), or (None, the BotError)
    with `game` unchanged. Only the bot's own `PlayerView` is passed to it.
    """
    legal, view = tuple(game.legal_actions()), game.player_view(player, record=reads_history(bot))
    try:
        action = bot.choose(view, list(legal))
    except Exception as error:  # a bot's bug pauses the game, never the kernel
        return None, _failed(player, bot, "raised", legal, cause=error)
    if not isinstance(action, _ACTIONS):
        return None, _failed(player, bot, "not an action", legal, action=action)
    try:
        game.apply(action)
    except Exception as error:  # IllegalAction, or anything else apply refuses
        return None, _failed(player, bot, "illegal", legal, action=action, cause=error)
    return _explain(bot, player, action), None


def _failed(player: int, bot: Any, problem: str, legal: tuple, *, action: Any = None,
            cause: BaseException | None = None) -> BotError:
    who = f"{type(bot).__name__} (Player {player + 1})"
    public = {
        "raised": f"{who} raised {type(cause).__name__}",
        "not an action": f"{who} returned a {type(action).__name__}, not an action",
        "illegal": f"{who} made an illegal move",
    }[problem] + "; the game is paused."
    told = {"raised": f"raised {cause!r}", "not an action": f"returned {quote(action)}, which is not an action",
            "illegal": f"returned {action}, which is illegal: {cause}"}[problem]
    detail = (f"{who} {told}. Legal were: {', '.join(map(str, legal))}. "
              f"Go on with replace_bot({player}, bot) or take_seat({player}).")
    log.error("%s", detail, exc_info=cause)
    return BotError(detail, public=public, player=player, bot=bot, problem=problem, action=action, legal=legal,
                    cause=cause)


def _explain(bot: Any, player: int, action: A.Action) -> str:
    """The bot's reason for its move (its action if it has no explain()); a failing explain()
    is logged and named, never raised.
    """
    explain = getattr(bot, "explain", None)
    try:
        text = explain() if callable(explain) else str(action)
        if not isinstance(text, str):
            raise TypeError(f"explain() returned a {type(text).__name__}, not a str")
    except Exception as error:
        log.warning("%s (Player %d): explain() failed", type(bot).__name__, player + 1, exc_info=error)
        return f"(explain() failed: {type(error).__name__})"
    return text if len(text) <= MAX_REASON else text[: MAX_REASON - 1] + "…"


def thought(bot: Any) -> dict[str, Any] | None:
    """What a searching bot thought for its last move (`whatif.thought` of `bot.last.to_dict()`), else None.
    A failing `to_dict` is logged, never raised.
    """
    to_dict = getattr(getattr(bot, "last", None), "to_dict", None)
    if not callable(to_dict):
        return None
    try:
        data = to_dict()
    except Exception as error:
        log.warning("%s: last.to_dict() failed", type(bot).__name__, exc_info=error)
        return None
    from .whatif import thought as bounded

    return bounded(data)


# ---- seating bots ------------------------------------------------------------------------


def check_bot(bot: Any) -> Any:
    """`bot` if it has a choose(view, legal_actions) method, else ArgumentError."""
    if not callable(getattr(bot, "choose", None)):
        raise ArgumentError(f"{quote(bot)} is not a bot: it needs a choose(view, legal_actions) method")
    return bot


def bot_name(bot: Any) -> str:
    """The name a bot plays under (its `name`, else its class name), cut to MAX_NAME characters."""
    name = getattr(bot, "name", None)
    return (name if isinstance(name, str) and name else type(bot).__name__)[:MAX_NAME]


def tell(bot: Any, game: Game, player: int) -> None:
    """Call the bot's optional new_game(seed, player) hook with `bot_seed(deal seed, player)`, never the deal's seed."""
    hook = getattr(bot, "new_game", None)
    if callable(hook):
        hook(bot_seed(game.seed, player), player)


def seat_bots(game: Game, bots: dict[int, Any]) -> dict[int, Any]:
    """Check the bots, name their seats in `game.players` ("human" elsewhere) and tell them the game."""
    for bot in bots.values():
        check_bot(bot)
    game.players = tuple(bot_name(bots[p]) if p in bots else "human" for p in (0, 1))  # type: ignore[assignment]
    for player, bot in bots.items():
        tell(bot, game, player)
    return bots


def play_bots(game: Game, opponent: Any, you: Any) -> dict[int, Any]:
    """Play mode: `opponent` (GreedyBot if None) takes the seat that is not `you`'s, seated by `seat_bots`."""
    if type(you) is not int or you not in (0, 1):
        raise ArgumentError(f"you must be 0 (Player 1) or 1 (Player 2), or 'p1' / 'p2', not {quote(you)}")
    if opponent is None:
        from ..players.bots import GreedyBot

        opponent = GreedyBot()
    return seat_bots(game, {1 - you: opponent})


def builtin_bots() -> dict[str, Any]:
    """The built-in bots by name (`bots.BOTS`), offered to go on after a failure."""
    from ..players.bots import BOTS  # imported on first use: the bots module is the heaviest

    return BOTS
