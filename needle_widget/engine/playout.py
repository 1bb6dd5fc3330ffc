"""Playing a game to its end with two bots: the one loop behind games, tournaments, play-outs,
rollouts and the quiz's figures.

Each bot sees only its own `PlayerView` (with the history if it reads it: `observation.reads_history`)
and is asked only when it has a choice, as a person would be; every action goes through `Game.apply`,
which checks it (`why_not`).

The trusted path: when both bots are *trusted* (a bot with `choose_trusted(view)`, reading no
history, as GreedyBot), the loop asks them where they have a choice (`Game.forced_action` plays the
others), without handing them the list of legal actions, and applies their actions with
`Game.apply_trusted`, without checking them again. A trusted
bot promises that `choose_trusted(view)` is exactly the action `choose(view, legal_actions)` would give
in every position (and the only legal action where there is one), so the game goes exactly as on the
checked path, move for move; the test run checks it over 10,000 rollouts, and `needle-widget bench`
prints both speeds.

On masks: a trusted bot whose own class also chooses from the fields of its view it reads
(`choose_masks(rules, phase, hand_mask, table_mask, known_opponent_mask, may_steal)`, as GreedyBot) is
played on the game's numbers in one loop (`engine.rollout`): `play_out` plays the game through in place
(`Game.play_through`, history and generator kept), and `rollout` gives the result of playing on from a
game without copying it (`Game.play_on`), what a review asks thousands of times. tests/test_rollout.py
holds both to the checked path, move for move.

>>> from needle_widget import Game
>>> from needle_widget.players.bots import GreedyBot
>>> a, b = Game(seed=5), Game(seed=5)
>>> play_out(a, (GreedyBot(), GreedyBot())) == play_out(b, (GreedyBot(), GreedyBot()), trusted=False)
True
>>> a.history == b.history
True
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from .actions import Action
from .game import Game
from .observation import reads_history
from .result import Result
from .rollout import Chooser
from .rules import Rules

__all__ = ["Failure", "is_trusted", "play_out", "rollout", "rollouts"]

Failure = Callable[[Any, int, str, Sequence[Action], Any, BaseException], Exception]
"""What `play_out` raises when a bot fails: fail(bot, player, problem ("raised", "not an action" or
"illegal"), the legal actions (empty on the trusted path), the action returned or None, the error)."""


def is_trusted(bot: Any) -> bool:
    """Whether `bot` may play on the trusted path: its own class (not a base class) defines `choose_trusted`,
    and it reads no history. A subclass that changes how a trusted bot chooses (a GreedyBot that never
    steals) is played on the checked path unless it defines its own `choose_trusted`.
    """
    trusted = type(bot).__dict__.get("choose_trusted")
    return callable(trusted) and not reads_history(bot)


def rollouts(bots: Sequence[Any]) -> Callable[[Game, Action | None], Result]:
    """`rollout(game, bots, first)` as a function of (game, first), the path for these bots chosen once: what a
    review asks thousands of times with the same bots.
    """
    first_bot, second_bot = bots[0], bots[1]
    if _on_masks(first_bot) and _on_masks(second_bot):
        choose = (first_bot.choose_masks, second_bot.choose_masks)

        def on_masks(game: Game, first: Action | None = None) -> Result:
            if type(game) is Game:
                return game.play_on(choose, first)
            return rollout(game, bots, first)

        return on_masks

    def on_a_copy(game: Game, first: Action | None = None) -> Result:
        return rollout(game, bots, first)

    return on_a_copy


def rollout(game: Game, bots: Sequence[Any], first: Action | None = None) -> Result:
    """The result of playing on from `game`: `first` if given (checked as `Game.apply` checks it), then `bots[p]`
    choosing for player p, to the end of the round; `game` itself is unchanged.

    Where both bots are trusted and choose from masks (`choose_masks`, as GreedyBot) and `game` is a plain
    Game, this is `Game.play_on`: no copy, no views, no history (`engine.rollout`). Else it is `play_out` on a
    copy. Either way the same result, move for move.
    """
    first_bot, second_bot = bots[0], bots[1]
    if type(game) is Game and _on_masks(first_bot) and _on_masks(second_bot):
        return game.play_on((first_bot.choose_masks, second_bot.choose_masks), first)
    copy = game.copy()
    if first is not None:
        copy.apply(first)
    return play_out(copy, bots)


def _reporting(bot: Any, player: int, fail: Failure) -> Chooser:
    """`bot.choose_masks`, raising `fail(...)` where it raises."""
    choose = bot.choose_masks

    def chooser(rules: Rules, phase: str, hand: int, table: int, known: int, may_steal: bool) -> Action:
        try:
            return choose(rules, phase, hand, table, known, may_steal)  # type: ignore[no-any-return]
        except Exception as error:
            raise fail(bot, player, "raised", (), None, error) from error

    return chooser


def _on_masks(bot: Any) -> bool:
    """Whether `bot` is trusted and its own class chooses from masks (`choose_masks`), as it does from views."""
    return is_trusted(bot) and callable(type(bot).__dict__.get("choose_masks"))


def play_out(game: Game, bots: Sequence[Any], *, trusted: bool = True, fail: Failure | None = None) -> Result:
    """Play `game` in place to its end, `bots[p]` choosing for player p; its Result.

    `trusted=True` (the default) takes the trusted path when both bots are trusted (`is_trusted`),
    else the checked one. A bot that raises, returns something that is not an action or an illegal
    action raises `fail(...)` if given (see `Failure`), else the error itself.
    """
    first, second = bots[0], bots[1]
    if trusted and _on_masks(first) and _on_masks(second):
        if fail is None:
            return game.play_through((first.choose_masks, second.choose_masks))
        return game.play_through((_reporting(first, 0, fail), _reporting(second, 1, fail)))
    if trusted and is_trusted(first) and is_trusted(second):
        choosers = (first.choose_trusted, second.choose_trusted)
        view, apply, only = game.player_view, game.apply_trusted, game.forced_action
        while game.phase != "over":
            action = only()
            if action is not None:  # no choice: as on the checked path, the bot is not asked
                apply(action)
                continue
            p = game.to_move
            try:
                action = choosers[p](view(p))
            except Exception as error:
                if fail is None:
                    raise
                raise fail(bots[p], p, "raised", (), None, error) from error
            apply(action)
        assert game.result is not None  # a round over has its result
        return game.result
    record = (reads_history(first), reads_history(second))
    while game.phase != "over":
        legal = game.legal_actions()
        if len(legal) == 1:
            game.apply(legal[0])
            continue
        p = game.to_move
        bot = bots[p]
        try:
            action = bot.choose(game.player_view(p, record=record[p]), legal)
        except Exception as error:
            if fail is None:
                raise
            raise fail(bot, p, "raised", legal, None, error) from error
        try:
            game.apply(action)
        except Exception as error:  # IllegalAction, InvalidAction, or whatever a strange object causes
            if fail is None:
                raise
            problem = "illegal" if isinstance(action, Action) else "not an action"
            raise fail(bot, p, problem, legal, action, error) from error
    assert game.result is not None  # a round over has its result
    return game.result
