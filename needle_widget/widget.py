"""NeedleWidget: the game in Jupyter. Python owns the game; the browser shows one view and asks.

Only what the current perspective may see is synced (`display`); the browser's
requests (an action, a step, a perspective) arrive as messages that Python
validates, answering with new state or an error shown in the widget.
"""

from __future__ import annotations

import asyncio
import pathlib
from typing import Any, Optional, Sequence

import anywidget
import traitlets

from . import actions as A
from . import display
from .errors import NeedleError
from .game import Game
from .replay import Replay
from .rules import Rules
from .views import PERSPECTIVES, Perspective, check_perspective

_STATIC = pathlib.Path(__file__).parent / "static"
_MISSING = """
export default { render({ el }) {
  el.textContent = "needle_widget's front end is not built: run `pip install -e .` in the project folder.";
} };
"""
MODES = ("play", "hotseat", "watch", "replay", "live")
SPEEDS = (0.5, 1.0, 2.0, 4.0, 8.0)


class NeedleWidget(anywidget.AnyWidget):
    """Play, watch or replay Needle in a Card Stack in a notebook.

    Make one with a constructor: `NeedleWidget(game=g, perspective=0)` (a live game,
    seen by one perspective), `NeedleWidget.play(opponent=bot)`, `NeedleWidget.hotseat()`,
    `NeedleWidget.watch(bot0, bot1)` or `NeedleWidget.from_replay(replay)`.
    Set `step` and `perspective` from Python and every open view follows.

    >>> from needle_widget import Game
    >>> w = NeedleWidget(game=Game(seed=3), perspective="teacher")
    >>> w
    NeedleWidget(mode='live', step=0/0, perspective='teacher')
    """

    _esm = _STATIC / "widget.js" if (_STATIC / "widget.js").exists() else _MISSING
    _css = _STATIC / "widget.css" if (_STATIC / "widget.css").exists() else ""

    mode = traitlets.Unicode("live").tag(sync=True)
    perspective = traitlets.Union([traitlets.Int(), traitlets.Unicode()], default_value="spectator").tag(sync=True)
    perspectives = traitlets.List().tag(sync=True)
    step = traitlets.Int(0).tag(sync=True)
    steps = traitlets.Int(0).tag(sync=True)
    table = traitlets.Dict().tag(sync=True)
    events = traitlets.List().tag(sync=True)
    info = traitlets.Dict().tag(sync=True)
    seats = traitlets.List().tag(sync=True)
    bots = traitlets.List().tag(sync=True)
    cover = traitlets.Dict(allow_none=True, default_value=None).tag(sync=True)
    error = traitlets.Dict(allow_none=True, default_value=None).tag(sync=True)
    playing = traitlets.Bool(False).tag(sync=True)
    speed = traitlets.Float(1.0).tag(sync=True)
    scale = traitlets.Float(1.0).tag(sync=True)
    busy = traitlets.Bool(False).tag(sync=True)
    can_act = traitlets.Bool(False).tag(sync=True)
    nearby = traitlets.Dict().tag(sync=True)
    """The table and info of the steps next to `step` (replay browsing), so the browser
    can show them the moment a key is pressed, before Python's answer arrives."""

    def __init__(
        self,
        game: Optional[Game] = None,
        perspective: Perspective = "spectator",
        *,
        replay: Optional[Replay] = None,
        mode: Optional[str] = None,
        bots: Optional[dict[int, Any]] = None,
        allow_peek: bool = False,
        bot_delay: float = 0.6,
        speed: float = 1.0,
        scale: float = 1.0,
        **kwargs: Any,
    ) -> None:
        if (game is None) == (replay is None):
            raise ValueError("NeedleWidget needs exactly one of game= or replay=")
        if game is not None and not isinstance(game, Game):
            raise ValueError(f"game must be a needle_widget Game, not {type(game).__name__}")
        if replay is not None and not isinstance(replay, Replay):
            raise ValueError(f"replay must be a needle_widget Replay, not {type(replay).__name__}")
        mode = mode or ("replay" if replay is not None else "live")
        if mode not in MODES:
            raise ValueError(f"mode {mode!r} is not one of {', '.join(MODES)}")
        if not (isinstance(bot_delay, (int, float)) and 0 <= bot_delay <= 10):
            raise ValueError(f"bot_delay must be between 0 and 10 seconds, not {bot_delay!r}")
        perspective = check_perspective(perspective)
        self._game = game
        self._replay = replay
        self._bots: dict[int, Any] = dict(bots or {})
        self._you: Optional[int] = None
        self._reasons: list[tuple[int, int, str, str]] = []
        self._timeline: Optional[Replay] = None
        self._final: Optional[Game] = None
        self._events_key: Optional[tuple] = None
        self._timer: Optional[asyncio.TimerHandle] = None
        self._error_id = 0
        self.allow_peek = bool(allow_peek)
        self.bot_delay = float(bot_delay)
        super().__init__(mode=mode, scale=_check_scale(scale), speed=_check_speed(speed), **kwargs)
        with self.hold_sync():
            self.steps = len(self._replay) if self._replay is not None else len(self._game)
            self.step = self.steps if mode != "replay" else 0
            self.set_trait("perspective", perspective)
            self._update_permissions()
            self._refresh()
        self.on_msg(self._on_message)
        self.observe(self._on_view_change, names=["step", "perspective"])

    # ---- constructors ---------------------------------------------------------------

    @classmethod
    def play(cls, opponent: Any = None, seed: Optional[int] = None, you: int = 0,
             rules: Optional[Rules] = None, game: Optional[Game] = None, **kwargs: Any) -> "NeedleWidget":
        """You (Player `you + 1`) against a bot (GreedyBot by default), from a new deal or from `game`.

        The bot answers a move made in the browser after `bot_delay` seconds, so a
        class can follow; moves made from Python (`apply`) are answered at once.
        """
        from .bots import GreedyBot

        if you not in (0, 1) or type(you) is not int:
            raise ValueError(f"you must be 0 (Player 1) or 1 (Player 2), not {you!r}")
        opponent = opponent if opponent is not None else GreedyBot()
        _check_bot(opponent)
        game = _new_or_given(game, rules, seed)
        game.players = ("human", opponent.name) if you == 0 else (opponent.name, "human")
        _tell_bot(opponent, game, 1 - you)
        widget = cls(game=game, perspective=you, mode="play", bots={1 - you: opponent}, **kwargs)
        widget._you = you
        with widget.hold_sync():
            widget._update_permissions()
            widget._refresh()
        widget._run_bots_now()
        return widget

    @classmethod
    def hotseat(cls, seed: Optional[int] = None, rules: Optional[Rules] = None, game: Optional[Game] = None,
                **kwargs: Any) -> "NeedleWidget":
        """Two students at one screen: the table is covered ("Pass to Player 2") between turns."""
        game = _new_or_given(game, rules, seed)
        widget = cls(game=game, perspective="spectator", mode="hotseat", **kwargs)
        widget._cover_for(game.to_move)
        return widget

    @classmethod
    def watch(cls, bot0: Any, bot1: Any, seed: Optional[int] = None, rules: Optional[Rules] = None,
              speed: float = 1.0, autoplay: bool = True, game: Optional[Game] = None,
              **kwargs: Any) -> "NeedleWidget":
        """Two bots play each other, one action every 1/speed seconds while autoplay is on
        (in a notebook; elsewhere call `advance()`)."""
        _check_bot(bot0)
        _check_bot(bot1)
        game = _new_or_given(game, rules, seed)
        game.players = (bot0.name, bot1.name)
        _tell_bot(bot0, game, 0)
        _tell_bot(bot1, game, 1)
        kwargs.setdefault("perspective", "teacher")
        widget = cls(game=game, mode="watch", bots={0: bot0, 1: bot1}, speed=speed, **kwargs)
        if autoplay:
            widget._set_playing(True)
        return widget

    @classmethod
    def from_replay(cls, replay: Replay, perspective: Perspective = "spectator", step: int = 0,
                    **kwargs: Any) -> "NeedleWidget":
        """Step through a recorded game; every perspective is open."""
        widget = cls(replay=replay, perspective=perspective, **kwargs)
        widget.step = step
        return widget

    # ---- what Python sees -----------------------------------------------------------------

    @property
    def game(self) -> Game:
        """The live Game (play, hotseat, watch, live modes); in replay mode, the game at `step`."""
        if self._game is not None:
            return self._game
        return self._replay.game_at(self.step)

    @property
    def replay(self) -> Replay:
        """The record: the replay being shown, or the live game's record so far."""
        if self._replay is not None:
            return self._replay
        return self._live_timeline()

    def __repr__(self) -> str:
        return f"NeedleWidget(mode={self.mode!r}, step={self.step}/{self.steps}, perspective={self.perspective!r})"

    # ---- Python's own controls --------------------------------------------------------------

    def apply(self, action: A.Action) -> None:
        """Apply an action to the live game from Python (any seat); bots answer at once."""
        self._require_live()
        self._game.apply(action)
        self._after_action(schedule=False)
        self._run_bots_now()

    def advance(self, actions: int = 1) -> None:
        """Bots make `actions` moves now (watch and play modes), without waiting."""
        self._require_live()
        for _ in range(actions):
            if not self._bot_move_once():
                break
        self._after_action(schedule=False)

    def go(self, step: int) -> None:
        """Show the game after `step` actions (same as setting `step`)."""
        self.step = step

    # ---- traits -----------------------------------------------------------------------------

    @traitlets.validate("step")
    def _valid_step(self, proposal: dict) -> int:
        value = proposal["value"]
        if not 0 <= value <= self.steps:
            raise traitlets.TraitError(f"step {value} is out of range 0..{self.steps}")
        return value

    @traitlets.validate("perspective")
    def _valid_perspective(self, proposal: dict) -> Perspective:
        try:
            return check_perspective(proposal["value"])
        except NeedleError as error:
            raise traitlets.TraitError(str(error)) from None

    @traitlets.validate("speed")
    def _valid_speed(self, proposal: dict) -> float:
        return _check_speed(proposal["value"])

    @traitlets.validate("scale")
    def _valid_scale(self, proposal: dict) -> float:
        return _check_scale(proposal["value"])

    def set_state(self, sync_data: dict) -> None:
        """The browser may not write state; it sends requests (see `_on_message`)."""
        names = ", ".join(sorted(map(str, sync_data))) if isinstance(sync_data, dict) else "?"
        self._show_error(f"Ignored a direct change of {names} from the browser; send a request instead.")

    def _on_view_change(self, change: dict) -> None:
        self._refresh()

    # ---- requests from the browser -------------------------------------------------------

    def _on_message(self, _widget: Any, content: Any, _buffers: Any = None) -> None:
        with self.hold_sync():
            try:
                self._handle(content)
            except NeedleError as error:
                self._show_error(str(error))

    def _handle(self, content: Any) -> None:
        if not isinstance(content, dict) or not isinstance(content.get("kind"), str):
            raise NeedleError(f"Not a request: {content!r}"[:200])
        kind = content["kind"]
        if kind == "act":
            self._request_act(content.get("action"))
        elif kind == "step":
            to = content.get("to")
            if type(to) is not int or not 0 <= to <= self.steps:
                raise NeedleError(f"Cannot go to step {to!r}: steps run from 0 to {self.steps}")
            self.step = to
        elif kind == "perspective":
            to = content.get("to")
            if to not in self.perspectives or type(to) is bool:
                raise NeedleError(
                    f"Cannot switch to perspective {to!r} now: allowed are "
                    + ", ".join(display.PERSPECTIVE_LABELS.get(p, str(p)) for p in self.perspectives)
                )
            self.perspective = to
        elif kind == "autoplay":
            playing = content.get("playing")
            if not isinstance(playing, bool):
                raise NeedleError(f"autoplay needs playing: true or false, not {playing!r}")
            if "speed" in content:
                self.speed = _check_speed(content["speed"])
            self._set_playing(playing)
        elif kind == "reveal":
            if self.cover is None:
                raise NeedleError("Nothing to reveal: the table is not covered")
            player = self.cover["player"]
            with self.hold_sync():
                self.cover = None
                self._update_permissions(player)
                self._show(player)
        else:
            raise NeedleError(f"Unknown request kind {kind!r} (act, step, perspective, autoplay, reveal)")
        self._clear_error()

    def _request_act(self, raw: Any) -> None:
        action = A.from_dict(raw)
        game = self._game
        if game is None or self.mode in ("replay", "watch"):
            raise NeedleError(f"{action} not allowed: nobody plays from the browser in {self.mode} mode")
        if self.step != self.steps:
            raise NeedleError(f"{action} not allowed: go to the latest step ({self.steps}) to play")
        if not self._browser_controls(game.to_move):
            raise NeedleError(f"{action} not allowed: it is Player {game.to_move + 1}'s move, not yours")
        game.apply(action)
        self._after_action()

    def _browser_controls(self, player: int) -> bool:
        if self._game is None or self._game.phase == "over" or self.step != self.steps:
            return False
        if self.mode == "play":
            return player == self._you
        if self.mode == "hotseat":
            return self.cover is None and self.perspective == player
        if self.mode == "live":
            return self.perspective == player or self.perspective == "teacher"
        return False

    # ---- after each action ---------------------------------------------------------------

    def _after_action(self, schedule: bool = True) -> None:
        game = self._game
        following = self.step == self.steps
        with self.hold_sync():
            self.steps = len(game)
            if following:
                self.set_trait("step", self.steps)
            if self.mode == "hotseat" and game.phase != "over" and self.perspective != game.to_move:
                self._cover_for(game.to_move)
            else:
                self._update_permissions()
            self._refresh()
        if schedule:
            self._bots_move()

    def _cover_for(self, player: int) -> None:
        with self.hold_sync():
            self.cover = {"player": player, "text": f"Pass to Player {player + 1}"}
            self._update_permissions()
            self._show("spectator")

    def _show(self, perspective: Perspective) -> None:
        """Switch to `perspective` and rebuild the synced state once (the observer does it on a change)."""
        if self.perspective != perspective:
            self.perspective = perspective
        else:
            self._refresh()

    def _update_permissions(self, revealed: Optional[int] = None) -> None:
        game = self._game
        if game is None or game.phase == "over" or self.allow_peek or self.mode == "watch":
            allowed: list = list(PERSPECTIVES)
        elif self.mode == "play":
            allowed = [self._you, "spectator"] if self._you is not None else ["spectator"]
        elif self.mode == "hotseat":
            seat = revealed if revealed is not None else (None if self.cover else self.perspective)
            allowed = ([seat] if seat in (0, 1) else []) + ["spectator"]
        else:
            allowed = list(PERSPECTIVES) if self.perspective in ("teacher", "spectator") else [self.perspective, "spectator"]
        self.perspectives = allowed

    def _run_bots_now(self) -> None:
        if self.mode != "play":
            return
        moved = False
        while self._bot_move_once():
            moved = True
        if moved:
            self._after_action(schedule=False)
        self.busy = False

    def _bots_move(self) -> None:
        """In play mode, the bot answers a browser's move after `bot_delay` (at once with no event loop)."""
        if self.mode != "play" or self._bot_to_move() is None:
            self.busy = False
            return
        loop = _running_loop()
        if loop is None or self.bot_delay == 0:
            self._run_bots_now()
            return
        self.busy = True
        self._cancel_timer()
        self._timer = loop.call_later(self.bot_delay, self._bot_tick)

    def _bot_tick(self) -> None:
        self._timer = None
        if self._bot_move_once():
            self._after_action(schedule=False)
        self._bots_move()

    def _bot_to_move(self) -> Optional[Any]:
        game = self._game
        if game is None or game.phase == "over":
            return None
        return self._bots.get(game.to_move)

    def _bot_move_once(self) -> bool:
        bot = self._bot_to_move()
        if bot is None:
            return False
        game = self._game
        p = game.to_move
        legal = game.legal_actions()
        action = bot.choose(game.player_view(p), legal)
        game.apply(action)
        explain = getattr(bot, "explain", None)
        text = explain() if explain is not None else str(action)
        self._reasons.append((len(game), p, str(getattr(bot, "name", "bot")), text))
        return True

    # ---- autoplay -------------------------------------------------------------------------

    def _set_playing(self, playing: bool) -> None:
        self._cancel_timer()
        self.playing = playing
        if playing:
            self._schedule_tick()

    def _schedule_tick(self) -> None:
        loop = _running_loop()
        if loop is None:
            return
        self._timer = loop.call_later(1.0 / self.speed, self._autoplay_tick)

    def _autoplay_tick(self) -> None:
        self._timer = None
        if not self.playing:
            return
        if self.step < self.steps:
            self.step += 1
        elif self.mode == "watch" and self._bot_move_once():
            self._after_action(schedule=False)
        else:
            self.playing = False
            return
        self._schedule_tick()

    def _cancel_timer(self) -> None:
        timer = getattr(self, "_timer", None)  # absent if __init__ refused its arguments
        if timer is not None:
            timer.cancel()
            self._timer = None

    def close(self) -> None:
        self._cancel_timer()
        super().close()

    # ---- building the synced state -----------------------------------------------------------

    def _game_at_step(self) -> Game:
        if self._replay is not None:
            return self._replay.game_at(self.step)
        if self.step == len(self._game):
            return self._game
        return self._live_timeline().game_at(self.step)

    def _live_timeline(self) -> Replay:
        if self._timeline is None or len(self._timeline) != len(self._game):
            self._timeline = Replay.from_game(self._game)
        return self._timeline

    def _source_names(self) -> tuple[str, str]:
        names = self._replay.players if self._replay is not None else self._game.players
        if self.mode == "play" and self._you is not None:
            return tuple("You" if p == self._you else names[p] for p in (0, 1))  # type: ignore[return-value]
        return names

    def _refresh(self) -> None:
        perspective = self.perspective
        game = self._game_at_step()
        whole = self._replay_final() if self._replay is not None else self._game
        with self.hold_sync():
            self.table = display.table(game, perspective)
            self.info = display.info(game, perspective)
            key = (perspective, len(whole))
            if key != self._events_key:
                self.events = display.events(whole, perspective)
                self._events_key = key
            self.bots = self._visible_reasons(perspective)
            self.seats = list(self._source_names())
            self.nearby = self._nearby(perspective)
            if self._game is not None:
                self.can_act = self._browser_controls(self._game.to_move)

    def _nearby(self, perspective: Perspective) -> dict[str, Any]:
        """Steps step-1 and step+1 while browsing a record (not at the live edge of a game)."""
        if self._replay is None and self.step == self.steps:
            return {}
        record = self._replay if self._replay is not None else self._live_timeline()
        out = {}
        for k in (self.step - 1, self.step + 1):
            if 0 <= k <= self.steps:
                game = record.game_at(k)
                out[str(k)] = {"table": display.table(game, perspective), "info": display.info(game, perspective)}
        return out

    def _replay_final(self) -> Game:
        if self._final is None:
            self._final = self._replay.final_game
        return self._final

    def _visible_reasons(self, perspective: Perspective) -> list[dict[str, Any]]:
        """A bot's reasons may name its hidden cards: shown to its own seat and the teacher only."""
        latest: dict[int, dict[str, Any]] = {}
        for step, player, name, text in self._reasons:
            if step <= self.step and (perspective == player or perspective == "teacher"):
                latest[player] = {"player": player, "name": name, "text": text, "step": step}
        return [latest[p] for p in sorted(latest)]

    # ---- errors ------------------------------------------------------------------------------

    def _show_error(self, text: str) -> None:
        self._error_id += 1
        self.error = {"id": self._error_id, "text": text}

    def _clear_error(self) -> None:
        if self.error is not None:
            self.error = None

    def _require_live(self) -> None:
        if self._game is None:
            raise NeedleError("This widget shows a replay; there is no live game to play")


def _running_loop() -> Optional[asyncio.AbstractEventLoop]:
    """The kernel's event loop when called from it (cells and messages run there), else None."""
    try:
        return asyncio.get_running_loop()
    except RuntimeError:
        return None


def _check_speed(value: Any) -> float:
    if not isinstance(value, (int, float)) or isinstance(value, bool) or not 0.1 <= value <= 20:
        raise NeedleError(f"speed must be between 0.1 and 20 actions per second, not {value!r}")
    return float(value)


def _check_scale(value: Any) -> float:
    if not isinstance(value, (int, float)) or isinstance(value, bool) or not 0.5 <= value <= 3:
        raise NeedleError(f"scale must be between 0.5 and 3, not {value!r}")
    return float(value)


def _new_or_given(game: Optional[Game], rules: Optional[Rules], seed: Optional[int]) -> Game:
    if game is None:
        return Game(rules=rules, seed=seed)
    if not isinstance(game, Game):
        raise ValueError(f"game must be a needle_widget Game, not {type(game).__name__}")
    if rules is not None or seed is not None:
        raise ValueError("give either game= or rules=/seed=, not both")
    return game


def _check_bot(bot: Any) -> None:
    if not callable(getattr(bot, "choose", None)):
        raise ValueError(f"{bot!r} is not a bot: it needs a choose(view, legal_actions) method")


def _tell_bot(bot: Any, game: Game, player: int) -> None:
    hook = getattr(bot, "new_game", None)
    if hook is not None:
        hook(game.seed, player)
