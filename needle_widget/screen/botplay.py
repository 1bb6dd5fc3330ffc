"""The bots and autoplay of a `Session` (`needle_widget.screen.session`), which inherits them from `BotPlay`.

The bots play their seats of a live game, each move behind `guard.move`: a failure pauses the bots
(`bot_error`, `paused`) until the seat gets another bot or people take it. In play mode a bot answers a
person's move by itself (`busy`, the widget's "bot" timer); where the mode has autoplay, each tick shows
the next recorded step, and in watch mode goes on with the bots' moves. The widget's timers call `tick`.

>>> from needle_widget import Game, bots
>>> from needle_widget.screen.session import Session
>>> s = Session(Game(seed=3), "teacher", mode="watch", bots={0: bots.RandomBot(seed=1), 1: bots.RandomBot(seed=2)})
>>> s.advance(4)
>>> s.step, s.timer(), s.paused
(4, None, None)
"""

from __future__ import annotations

from typing import Any

from ..engine.errors import ArgumentError, quote
from ..engine.game import Game
from ..engine.seats import Perspective
from . import guard
from .guard import BotError
from .modes import ModeRules, Screen

__all__ = ["BotPlay", "check_number", "check_speed"]


class BotPlay:
    """The bots, their reasons and autoplay of a Session: the seats bots play (given as `bots`), what one
    tick of the widget's timer does, and the pause after a bot failed.
    """

    mode: str
    mode_rules: ModeRules
    step: int
    speed: float

    def __init__(self, bots: dict[int, Any] | None = None) -> None:
        self._bots: dict[int, Any] = {}
        for player, bot in (bots or {}).items():
            self._bots[_check_player(player)] = guard.check_bot(bot)
        self.playing = False
        self._reasons: list[tuple[int, int, str, str, dict[str, Any] | None]] = []
        self._bot_error: BotError | None = None
        self._resume_playing = False

    # ---- what the session provides -------------------------------------------------------

    @property
    def screen(self) -> Screen:
        """Whose screen this is (`Session.screen`)."""
        raise NotImplementedError

    @property
    def end(self) -> int:
        """The furthest step Python may show (`Session.end`)."""
        raise NotImplementedError

    @property
    def live(self) -> bool:
        """Is there a live game (`Session.live`)?"""
        raise NotImplementedError

    def _require_live(self) -> Game:
        raise NotImplementedError

    def _moved(self, following: bool) -> None:
        raise NotImplementedError

    # ---- Python's calls -------------------------------------------------------------------

    def advance(self, actions: int = 1) -> None:
        """The bots make up to `actions` moves now (fewer if a person is to move or a bot fails)."""
        self._require_live()
        if type(actions) is not int or not 0 <= actions <= 10_000:
            raise ArgumentError(f"advance needs a number of actions from 0 to 10000, not {quote(actions)}")
        for _ in range(actions):
            if not self._bot_move():
                break

    def check_playing(self, playing: Any) -> bool:
        """`playing` if autoplay may be set to it: a bool, and never True in play or hotseat mode."""
        if not isinstance(playing, bool):
            raise ArgumentError(f"autoplay needs playing: true or false, not {quote(playing)}")
        if playing and not self.mode_rules.autoplay:
            raise ArgumentError(f"Autoplay is not available in {self.mode} mode: people play it")
        return playing

    def set_playing(self, playing: bool) -> None:
        """Start or stop autoplay (refused in play and hotseat modes, where people play)."""
        self.playing = self.check_playing(playing)
        self._resume_playing = False

    def set_speed(self, speed: float) -> None:
        """Autoplay speed in actions per second (0.1 to 20)."""
        self.speed = check_speed(speed)

    def replace_bot(self, player: int, bot: Any) -> None:
        """`bot` plays seat `player` from now on (told `new_game` first); a pause for that seat ends."""
        game = self._require_live()
        player = _check_player(player)
        if self.mode_rules.judged:
            raise ArgumentError("practice mode has no bots: the position waits for the seat's move")
        guard.check_bot(bot)
        if self.mode_rules.own_seat and player == self.screen:
            raise ArgumentError(f"Player {player + 1} is this screen's seat; set_screen to the other seat first")
        guard.tell(bot, game, player)
        self._bots[player] = bot
        self._name_seat(game, player, guard.bot_name(bot))
        self._unpause(player)

    def take_seat(self, player: int) -> None:
        """The bot at `player` leaves: the seat is played by people from now on (`apply` from
        Python, or the browser of a screen that may act for it); a pause for that seat ends.
        """
        game = self._require_live()
        player = _check_player(player)
        if player not in self._bots:
            raise ArgumentError(f"Player {player + 1} has no bot to take over from")
        del self._bots[player]
        self._name_seat(game, player, "human")
        self._unpause(player)

    @property
    def bot_error(self) -> BotError | None:
        """The failure that paused the bots, with the full detail (None while nothing failed)."""
        return self._bot_error

    @property
    def paused(self) -> dict[str, Any] | None:
        """What every perspective is told about a paused game (no hidden card), or None."""
        error = self._bot_error
        if error is None:
            return None
        return {"player": error.player, "text": error.public, "bots": sorted(guard.builtin_bots())}

    def reasons(self, perspective: Perspective) -> list[dict[str, Any]]:
        """The bots' latest reasons up to `step`: each shown to its own seat and the teacher only
        (a reason may name the bot's hidden cards), with what a searching bot thought
        (`whatif.thought` of its `last` decision; None for the others).
        """
        latest: dict[int, dict[str, Any]] = {}
        for step, player, name, text, thought in self._reasons:
            if step <= self.step and (perspective == player or perspective == "teacher"):
                latest[player] = {"player": player, "name": name, "text": text, "step": step, "thought": thought}
        return [latest[p] for p in sorted(latest)]

    # ---- the widget's timers --------------------------------------------------------------

    def bot_to_move(self) -> Any | None:
        """The bot whose move it is, unless the round is over or the bots are paused."""
        if not self.live or self._bot_error is not None:
            return None
        game = self._require_live()
        return None if game.phase == "over" else self._bots.get(game.to_move)

    @property
    def busy(self) -> bool:
        """Play mode: a bot is about to answer."""
        return self.mode_rules.own_seat and self.bot_to_move() is not None

    def timer(self) -> str | None:
        """What the widget should wait for: "bot" (play mode: a bot answers after a pause),
        "autoplay" (the next autoplay tick), or None.
        """
        if self.busy:
            return "bot"
        return "autoplay" if self.playing else None

    def run_bots(self) -> None:
        """Play mode: the bots move at once until a person is to move (or a bot fails)."""
        while self._bot_move():
            pass

    def tick(self) -> None:
        """One tick of the widget's timer: a bot's move in play mode, else one autoplay step
        (the next recorded step, or in watch mode a bot's move; autoplay stops at the end).
        """
        if self.busy:
            self._bot_move()
        elif self.playing:
            if self.step < self.end:
                self.step += 1
            elif not (self.mode_rules.autoplay_bots and self._bot_move()):
                self.playing = False

    # ---- for the session ------------------------------------------------------------------

    def _has_bot(self, player: Any) -> bool:
        """Is seat `player` played by a bot (paused or not)?"""
        return player in self._bots

    def _deal(self, game: Game) -> None:
        """A new deal: the bots are told of `game`; their reasons and a pause start afresh."""
        for player, bot in self._bots.items():
            guard.tell(bot, game, player)
        self._reasons, self._bot_error, self._resume_playing = [], None, False

    def _bot_move(self) -> bool:
        """One move by the bot to move, behind the guard (a failure pauses the bots). False if none moved."""
        bot = self.bot_to_move()
        if bot is None:
            return False
        game = self._require_live()  # a bot moves in a live game only
        following, player = self.step == len(game), game.to_move
        moved = guard.move(bot, game, player)  # (reason, None), or (None, error)
        if moved[1] is not None:
            self._bot_error = moved[1]
            self._resume_playing, self.playing = self.playing, False
            return False
        reason = moved[0]
        self._reasons.append((len(game), player, guard.bot_name(bot), reason, guard.thought(bot)))
        self._moved(following)
        return True

    @staticmethod
    def _name_seat(game: Game, player: int, name: str) -> None:
        names = list(game.players)
        names[player] = name
        game.players = (names[0], names[1])

    def _unpause(self, player: int) -> None:
        if self._bot_error is not None and self._bot_error.player == player:
            self._bot_error = None
            self.playing, self._resume_playing = self._resume_playing or self.playing, False


# ---- small checks shared with the widget -------------------------------------------------


def check_number(value: Any, low: float, high: float, what: str) -> float:
    """`value` as a float if it is a number from `low` to `high`, else ArgumentError naming `what`."""
    if not isinstance(value, (int, float)) or isinstance(value, bool) or not low <= value <= high:
        raise ArgumentError(f"{what.format(low=low, high=high)}, not {quote(value)}")
    return float(value)


def check_speed(value: Any) -> float:
    """Autoplay speed: 0.1 to 20 actions per second."""
    return check_number(value, 0.1, 20, "speed must be between {low} and {high} actions per second")


def _check_player(player: Any) -> int:
    if type(player) is not int or player not in (0, 1):
        raise ArgumentError(f"player must be 0 (Player 1) or 1 (Player 2), not {quote(player)}")
    return player
