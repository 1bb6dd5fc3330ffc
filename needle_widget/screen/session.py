"""The policy of one widget, in plain Python (no Jupyter): who sits at the screen, what it may see and do.

A `Session` holds a live game (or a replay) and decides everything the widget does
that is not a trait or a timer:

- the mode, and whose screen this is (`screen`): a player's seat, a class screen
  ("spectator", "teacher"), or the shared hotseat screen ("shared");
- which perspectives the screen may see now (`entitled`), and which it shows;
- who may act from the browser (`can_act`), and why not in public words (`act_reason`,
  the one text the widget shows and `request_act` refuses with);
- the timeline of a live game (`step`, `steps`, the record so far), or of a replay, shown
  whole or, in spoiler-free review (`spoilers=False`), cut at the current step (`_shown`);
- the bots: who moves (each move behind `guard.move`; a failure pauses the bots), and autoplay: where
  it is allowed and what one tick does (`BotPlay`, in `needle_widget.screen.botplay`);
- quiz mode: a replay shown from one seat only, up to the step the quiz has reached
  (`horizon`, set by `needle_widget.screen.quizmode`), with no acting, autoplay or panels;
- practice mode: a live position shown from one seat only, whose moves are judged by a referee
  (`set_referee`, `needle_widget.screen.practicemode`) and never played: nothing after the
  position is ever shown. Quiz and practice are `DRILLS`: one seat, no panels.

What each mode allows is one table, `modes.MODE_RULES`: the session reads the rules of its mode
(`mode_rules`), never the mode's name. Which steps the browser may ask for is `needle_widget.screen.stepping`.

Browser requests arrive through the `request_*` methods, which check everything first
and change nothing on bad input (they raise a NeedleError, whose message the widget
shows). Python's own calls (`show`, `go`, `apply`, `advance`, `set_screen`,
`replace_bot`, `take_seat`, `new_game`) are trusted: Python may show any perspective, but that
never widens what the browser may switch to. `needle_widget.screen.synced` turns a session
into the JSON the browser receives. A live game changed outside the session (`game.apply`
from Python, another widget) is caught up with by `notice_moves`.

>>> from needle_widget import Game
>>> s = Session(Game(seed=3), perspective=0)
>>> s.screen, s.entitled()
(0, (0, 'spectator'))
>>> s.request_perspective("teacher")  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
needle_widget.engine.errors.PerspectiveError: Cannot switch to perspective 'teacher' now: allowed are Player 1, ...
"""

from __future__ import annotations

from typing import Any, Protocol

from ..engine import actions as A
from ..engine.errors import ArgumentError, IllegalAction, PerspectiveError, quote
from ..engine.game import Game
from ..engine.rules import Rules
from ..engine.seats import PERSPECTIVE_LABELS, PERSPECTIVES, Perspective, player_name
from ..engine.views import check_perspective
from ..records.notes import Note
from ..records.replay import Replay
from . import guard
from .botplay import BotPlay, check_number, check_speed
from .modes import AUTOPLAY_MODES, DRILLS, MODE_RULES, MODES, REPLAY_MODES, SCREENS, SEAT_MODES, ModeRules, Screen
from .plugin import request
from .stepping import quiz_refusal, spoiler_free_refusal, whole_refusal

__all__ = ["AUTOPLAY_MODES", "DRILLS", "LESSONS", "MODES", "REPLAY_MODES", "SCREENS", "SEAT_MODES", "Referee",
           "Screen", "Session", "check_number", "check_speed", "new_or_given"]

LESSONS = DRILLS
"""The earlier name of `DRILLS` (`modes.DRILLS`), kept for code that imports it from here."""


class Referee(Protocol):
    """Who judges the moves of a practice-mode session instead of playing them (`Session.set_referee`):
    `needle_widget.screen.practicemode.PracticeMode`.
    """

    def act_reason(self) -> str | None:
        """None if the screen may make an attempt now; else why not, in public words."""

    def attempt(self, action: A.Action) -> None:
        """Take the seat's attempt `action` (legal at the position: checked first, a refusal changes nothing)."""


class Session(BotPlay):
    """One screen's view of a live game or a replay, and every rule of what it may see and do.

    `screen` is whose screen this is, fixed at construction and changed only by Python
    (`set_screen`): never derived from the perspective shown. Defaults: in live and play
    modes, the `perspective` given; in hotseat, "shared"; in watch and replay, "teacher".

    `within`: the session whose screen shows this one in its place (a variation opened from its move
    list, `Desk.open_line`): this one opens no perspective that one may not (`entitled`), so what a
    screen may see of the real game is decided at home whatever it shows.
    """

    def __init__(
        self,
        game: Game | None = None,
        perspective: Perspective = "spectator",
        *,
        replay: Replay | None = None,
        mode: str | None = None,
        screen: Screen | None = None,
        bots: dict[int, Any] | None = None,
        allow_peek: bool = False,
        reveal_at_end: bool = True,
        speed: float = 1.0,
        spoilers: bool = True,
        within: Session | None = None,
    ) -> None:
        if (game is None) == (replay is None):
            raise ArgumentError("NeedleWidget needs exactly one of game= or replay=")
        if game is not None and not isinstance(game, Game):
            raise ArgumentError(f"game must be a needle_widget Game, not {type(game).__name__}")
        if replay is not None and not isinstance(replay, Replay):
            raise ArgumentError(f"replay must be a needle_widget Replay, not {type(replay).__name__}")
        mode = mode or ("replay" if replay is not None else "live")
        given: object = mode  # checked: a caller may pass anything
        rules = MODE_RULES.get(given) if isinstance(given, str) else None
        if rules is None:
            raise ArgumentError(f"mode {quote(mode)} is not one of {', '.join(MODES)}")
        if rules.replay != (replay is not None):
            raise ArgumentError(f"{mode} mode needs {'replay=' if rules.replay else 'game='}")
        if not isinstance(spoilers, bool):
            raise ArgumentError(f"spoilers must be True or False, not {quote(spoilers)}")
        if not spoilers and replay is None:
            raise ArgumentError("spoilers=False is for a replay: a live game shows nothing past its latest step")
        if rules.horizon and spoilers:
            raise ArgumentError(f"{mode} mode is spoiler-free: give spoilers=False")
        if rules.judged and bots:
            raise ArgumentError(f"{mode} mode has no bots: the position waits for the seat's move")
        if within is not None and not isinstance(within, Session):
            raise ArgumentError(f"within must be a Session, not {type(within).__name__}")
        self._within = within
        self.perspective: Perspective = check_perspective(perspective)
        """The perspective shown now (Python may set any; the browser only one of `entitled()`)."""
        self.mode = mode
        self.mode_rules: ModeRules = rules
        """What the mode allows (`modes.MODE_RULES`)."""
        self._game, self._source, self._spoilers = game, replay, spoilers
        self._cut: tuple[tuple[int, int], Replay] | None = None
        self._horizon: int | None = 0 if rules.horizon else None
        super().__init__(bots)
        self._referee: Referee | None = None
        self._screen = self._check_screen(screen if screen is not None else rules.default_screen(perspective))
        self._allow_peek, self._reveal_at_end = bool(allow_peek), bool(reveal_at_end)
        self.speed = check_speed(speed)
        self.step = len(game) if game is not None else 0
        self._seen = self.step  # the live game's length when this session last caught up with it
        self._seat: int | None = None  # hotseat: the seat revealed by the last "reveal"
        self._cover: int | None = None  # hotseat: the player the table waits for
        self._timeline: Replay | None = None
        self._final: tuple[Replay, Game] | None = None
        self._cover_if_needed()
        self._fit()

    # ---- who sits here ----------------------------------------------------------------

    @property
    def screen(self) -> Screen:
        """Whose screen this is: 0 or 1 (a player's), "spectator" or "teacher" (the class's),
        or "shared" (hotseat: the seat of whoever took it with "reveal").
        """
        return self._screen

    def set_screen(self, screen: Screen) -> None:
        """Python only: make this the screen of `screen` (one of `SCREENS[mode]`)."""
        self._screen = self._check_screen(screen)
        self._fit()

    @property
    def allow_peek(self) -> bool:
        """True: every perspective is open to the browser, even while the round is live."""
        return self._allow_peek

    @allow_peek.setter
    def allow_peek(self, value: bool) -> None:
        self._allow_peek = bool(value)
        self._fit()

    @property
    def reveal_at_end(self) -> bool:
        """True (the default): once the round is over every perspective opens, for a review.
        False: a player's screen stays limited to its own seat and the spectator.
        """
        return self._reveal_at_end

    @reveal_at_end.setter
    def reveal_at_end(self, value: bool) -> None:
        self._reveal_at_end = bool(value)
        self._fit()

    @property
    def drill(self) -> str | None:
        """A mode of `DRILLS` (quiz, practice): its name in a sentence ("a quiz", "practice"); else None."""
        return self.mode_rules.drill

    @property
    def lesson(self) -> str | None:
        """The earlier name of `drill`, kept for code that reads it."""
        return self.drill

    def closed_reason(self) -> str | None:
        """Why the possible worlds, the graph and "Play from here" are closed in this mode (`DRILLS`), or None."""
        rules = self.mode_rules
        return None if rules.drill is None else f"Not during {rules.drill}: {rules.closed}"

    @property
    def judged(self) -> bool:
        """Practice mode: the browser's moves go to a referee (`set_referee`), which judges them; none is played."""
        return self.mode_rules.judged

    @property
    def shows_replay(self) -> bool:
        """Does this mode show a replay (replay and quiz, `REPLAY_MODES`), not a live game?"""
        return self.mode_rules.replay

    def set_referee(self, referee: Referee) -> None:
        """Practice mode: `referee` judges the screen's moves from now on (`request_act` hands them to it)."""
        if not self.judged:
            raise ArgumentError(f"A referee judges practice-mode moves; this session is in {self.mode} mode")
        self._referee = referee

    def entitled(self) -> tuple[Perspective, ...]:
        """The perspectives this screen may see now, in the order of PERSPECTIVES (within those of `within`)."""
        own = self._entitled_here()
        if self._within is None:
            return own
        home = self._within.entitled()
        return tuple(p for p in own if p in home)

    def _entitled_here(self) -> tuple[Perspective, ...]:
        """The perspectives this session's own mode, screen and round open (`within` aside)."""
        if self.mode_rules.one_seat:
            return (self._screen,)
        if self._allow_peek or self._screen in ("spectator", "teacher"):  # watch and replay: always a class screen
            return PERSPECTIVES
        if self._require_live().phase == "over" and self._reveal_at_end:
            return PERSPECTIVES
        seat = self._seat if self.mode_rules.shared else self._screen
        return (seat, "spectator") if seat in (0, 1) else ("spectator",)

    def can_act(self) -> bool:
        """May the browser act now (for the player to move)? Never for a bot's seat or from a peek."""
        return self.act_reason() is None

    def act_reason(self) -> str | None:
        """None if the browser may act now; else why not, as a sentence every perspective may read
        (it names seats, steps and modes, never a card): "It is Player 2's move, not yours",
        "Go to the latest step (12) to play", "The round is over". `request_act` refuses with it.
        """
        game, rules = self._game, self.mode_rules
        if game is None or not rules.people_play:
            bots_play = ": the bots play" if game is not None else ""
            return f"Nobody plays from the browser in {self.mode} mode{bots_play}"
        if self.step != len(game):
            return f"Go to the latest step ({len(game)}) to play"
        if game.phase == "over":
            return "The round is over"
        player, shown, allowed = game.to_move, self.perspective, self.entitled()
        mover = player_name(player)
        if self._has_bot(player):
            return f"It is {mover}'s move: a bot plays that seat"
        if shown not in allowed:
            return f"This screen may not play as {PERSPECTIVE_LABELS[shown]}"
        if self.judged:
            return "No exercise is open" if self._referee is None else self._referee.act_reason()
        if self._cover is not None:  # hotseat
            return f"It is {mover}'s move, not yours: pass to {mover}"
        if rules.own_seat and player != self._screen:
            return f"It is {mover}'s move, not yours"
        if shown == player or (shown == "teacher" and not rules.shared):
            return None
        return f"Switch to {mover} to play" if player in allowed else f"It is {mover}'s move, not yours"

    def hidden_reason(self) -> str | None:
        """Why the perspectives missing from `entitled()` are closed to this screen (public words), or None."""
        if len(self.entitled()) == len(PERSPECTIVES):
            return None
        if self._within is not None and len(self._entitled_here()) == len(PERSPECTIVES):
            return self._within.hidden_reason()  # closed by the screen this one is shown on
        if self.drill is not None:
            return f"{self.drill[0].upper()}{self.drill[1:]} shows one seat's view"
        if self._require_live().phase == "over":
            return "Hidden on this screen, even after the round"
        return "Hidden while the round is live"

    @property
    def cover(self) -> dict[str, Any] | None:
        """Hotseat: {"player": p, "text": "Pass to Player p+1"} while the table waits for p, else None
        (always None once the round is over).
        """
        if self._cover is None:
            return None
        return {"player": self._cover, "text": f"Pass to Player {self._cover + 1}"}

    def names(self) -> list[str]:
        """The seats' names as shown: the record's, with "You" on a play-mode screen's seat."""
        names = list(self._source.players if self._source is not None else self._require_live().players)
        if self.mode_rules.you and isinstance(self._screen, int):  # a seat, in these modes
            names[self._screen] = "You"
        return names

    # ---- the timeline -------------------------------------------------------------------

    @property
    def live(self) -> bool:
        """Is there a live game (every mode but replay)?"""
        return self._game is not None

    @property
    def spoilers(self) -> bool:
        """True (the default): the whole replay is shown. False (spoiler-free review, replay mode
        only): the replay is shown as if it ended at the current step (`record()` is the replay
        cut there, `Replay.cut`), so nothing past the step reaches the screen; the browser may
        step back, or on to the next step only (`request_step`); Python may go anywhere.
        """
        return self._spoilers

    @property
    def steps(self) -> int:
        """Actions recorded so far (the shown replay's length in replay mode: the current step
        in spoiler-free review).
        """
        shown = self._shown()
        return len(self._require_live()) if shown is None else len(shown)

    @property
    def end(self) -> int:
        """For Python only: the furthest step it may show: the real record's length (the whole
        replay's, even in spoiler-free review), or in a quiz the step it has reached (`horizon`).
        """
        if self._horizon is not None:
            return self._horizon
        return len(self._require_live()) if self._source is None else len(self._source)

    @property
    def horizon(self) -> int | None:
        """Quiz mode: the step the quiz has reached (the record is cut there); else None."""
        return self._horizon

    def set_horizon(self, k: int, step: int | None = None) -> None:
        """Quiz mode (`needle_widget.screen.quizmode`): cut the record at `k` and show `step` (default k)."""
        if not self.mode_rules.horizon:
            raise ArgumentError(f"set_horizon is for quiz mode, not {self.mode} mode")
        source = self.full_record()  # quiz mode shows a replay: its source
        if type(k) is not int or not 0 <= k <= len(source):
            raise ArgumentError(f"Cannot cut the quiz at step {quote(k)}: steps run from 0 to {len(source)}")
        self._horizon = k
        self.go(k if step is None else step)

    def game_at(self, k: int) -> Game:
        """The game after `k` actions (the live game itself at the live edge)."""
        shown = self._shown()
        if shown is not None:
            return shown.game_at(k)
        game = self._require_live()
        if k == len(game):
            return game
        return self.record().game_at(k)

    def whole(self) -> Game:
        """The live game, or the shown replay's final game: what the event list narrates."""
        replay = self._shown()
        if replay is None:
            return self._require_live()
        if self._final is None or self._final[0] is not replay:
            self._final = (replay, replay.final_game)
        return self._final[1]

    def record(self) -> Replay:
        """The replay shown (cut at the current step in spoiler-free review), or the live game's
        record so far (cached while the game stands still).
        """
        shown = self._shown()
        if shown is not None:
            return shown
        game, old = self._require_live(), self._timeline
        if old is not None and len(old) == len(game):
            return old
        self._timeline = timeline = Replay.from_game(game, notes=old.notes if old is not None else (),
                                                     variations=old.variations if old is not None else ())
        return timeline

    def notes_book(self) -> Replay:
        """The replay that holds this screen's notes: the replay shown (the whole one, in
        spoiler-free review and quizzes), or the live game's record (its notes carry over
        as the game goes on).
        """
        return self.full_record()

    def readable_notes(self, perspective: Perspective) -> list[tuple[int, Note]]:
        """(index in `notes_book().notes`, note) for the notes `perspective` may read, up to the
        end of the record as shown (`steps`): nothing past the step in spoiler-free review.
        """
        if self._source is None and (self._timeline is None or not self._timeline.notes):
            return []
        until = self.steps
        return [(i, note) for i, note in enumerate(self.notes_book().notes)
                if note.step <= until and note.visible_to(perspective)]

    def full_record(self) -> Replay:
        """For Python only: `record()`, but the whole replay in spoiler-free review."""
        return self._source if self._source is not None else self.record()

    def _shown(self) -> Replay | None:
        """The one place of the cut: the replay as shown (None for a live game). In spoiler-free
        review it is `Replay.cut` at the current step, so whatever reads the record through this
        session (the synced state, the panels, a branch) sees nothing past the step.
        """
        source = self._source
        if source is None or self._spoilers:
            return source
        key = (self.step if self._horizon is None else self._horizon, source.notes_revision)
        if self._cut is None or self._cut[0] != key:
            self._cut = (key, source.cut(key[0]))
        return self._cut[1]

    # ---- Python's calls -------------------------------------------------------------------

    def show(self, perspective: Perspective) -> None:
        """Python shows any perspective (a peek does not widen `entitled()`)."""
        self.perspective = check_perspective(perspective)

    def go(self, step: int) -> None:
        """Show the game after `step` actions (Python: in spoiler-free review too, up to the real end)."""
        refusal = whole_refusal(step, self.end)
        if refusal is not None:
            reached = f" (the quiz has reached step {self.end})" if self._horizon is not None else ""
            raise ArgumentError(f"{refusal}{reached}")
        self.step = step

    def apply(self, action: A.Action) -> None:
        """Python applies an action for any seat (IllegalAction changes nothing); refused in practice mode,
        where moves are judged, never played.
        """
        game = self._require_live()
        if self.judged:
            raise ArgumentError("In practice mode a move is judged, not played: attempt(action)")
        following = self.step == len(game)
        game.apply(action)
        self._moved(following)

    def notice_moves(self) -> bool:
        """Catch up with the live game after it changed outside this session (`game.apply(...)`
        from Python, another widget of the same game): follow the live edge if this screen was
        on it, and in hotseat cover the table for the player to move. False if nothing changed.
        The widget calls it when the game tells its observers (`Game.observe`).
        """
        game = self._game
        if game is None or len(game) == self._seen:
            return False
        self._moved(self.step == self._seen)
        return True

    def new_game(self, game: Game) -> None:
        """Python (`Desk.new_game`): play `game`, a new deal, from now on, with the same mode, screen,
        bots (told `new_game` first) and options; the seats keep their names. The step, the record,
        the bots' reasons, a pause and hotseat's seat start afresh, and the perspectives narrow to
        what this screen may see while the new round is live.
        """
        old = self._require_live()
        if not isinstance(game, Game):
            raise ArgumentError(f"game must be a needle_widget Game, not {type(game).__name__}")
        game.players = old.players
        self._deal(game)
        self._game = game
        self.step = self._seen = len(game)
        self._seat = self._cover = None
        self._timeline, self._final = None, None
        self._cover_if_needed()
        self._fit()

    # ---- the browser's requests -----------------------------------------------------------

    @request("act", "action")
    def request_act(self, raw: Any) -> None:
        """{kind: "act", action}: the player at this screen acts, if it may now (else `act_reason`); in
        practice mode the move goes to the referee, which judges it: the game does not move.
        """
        action = A.from_dict(raw)
        reason = self.act_reason()
        if reason is not None:
            raise IllegalAction(f"{action} not allowed: {reason[0].lower()}{reason[1:]}")
        if self._referee is not None:
            self._referee.attempt(action)
        else:
            self.apply(action)

    @request("step", "to")
    def request_step(self, to: Any) -> None:
        """{kind: "step", to}: show the game after `to` actions. In spoiler-free review, any step up
        to the current one, or the next one: past the real end that is refused with "The replay
        ends at step N" (the current step: what the player learns there too); any step further is
        refused whatever the replay's length, so a refusal tells nothing of what comes after.
        """
        if self._horizon is not None:
            refusal = quiz_refusal(to, self._horizon)
        else:
            refusal = None if self._spoilers else spoiler_free_refusal(to, self.step, self.end)
        if refusal is not None:
            raise ArgumentError(refusal)
        self.go(to)

    @request("perspective", "to")
    def request_perspective(self, to: Any) -> None:
        """{kind: "perspective", to}: switch among the entitled perspectives only."""
        allowed = self.entitled()
        if type(to) not in (int, str) or to not in allowed:
            labels = ", ".join(PERSPECTIVE_LABELS[p] for p in allowed)
            raise PerspectiveError(f"Cannot switch to perspective {quote(to)} now: allowed are {labels}")
        self.perspective = to

    @request("autoplay", "playing", "speed")
    def request_autoplay(self, playing: Any, speed: Any = None) -> None:
        """{kind: "autoplay", playing, speed?}: start or stop autoplay (not in play or hotseat mode)."""
        if not self.mode_rules.autoplay:
            raise ArgumentError(f"Autoplay is not available in {self.mode} mode: people play it")
        self.check_playing(playing)
        self.speed = check_speed(self.speed if speed is None else speed)
        self.set_playing(playing)

    @request("reveal")
    def request_reveal(self) -> None:
        """{kind: "reveal"}: hotseat: the player the table waits for takes the seat."""
        if self._cover is None:
            raise ArgumentError("Nothing to reveal: the table is not covered")
        self._seat, self._cover = self._cover, None
        self.perspective = self._seat

    @request("resume", "bot")
    def request_resume(self, name: Any) -> None:
        """{kind: "resume", bot}: after a bot failed, a built-in bot (by name) takes its seat."""
        error = self.bot_error
        if error is None:
            raise ArgumentError("Nothing to resume: no bot has failed")
        factories = guard.builtin_bots()
        if not isinstance(name, str) or name not in factories:
            raise ArgumentError(f"Cannot resume with {quote(name)}: the bots are {', '.join(sorted(factories))}")
        self.replace_bot(error.player, factories[name](seed=0))

    # ---- helpers -------------------------------------------------------------------------

    def _moved(self, following: bool) -> None:
        """After any move: follow the live edge if we were on it; hotseat covers for the next player."""
        game = self._require_live()
        if following:
            self.step = len(game)
        self._seen = len(game)
        self._cover_if_needed()

    def _cover_if_needed(self) -> None:
        """Hotseat: cover the table for the player to move unless that player holds the seat. Once the
        round is over the cover goes, however the last move was made (by Python, a bot, another widget):
        nobody is waited for, and the screen shows what `entitled` allows after the round (with
        `reveal_at_end`, every perspective and the review).
        """
        if not self.mode_rules.shared:
            return
        game = self._require_live()
        if game.phase == "over":
            self._cover = None
        elif self._seat != game.to_move:
            self._seat, self._cover, self.perspective = None, game.to_move, "spectator"

    def _fit(self) -> None:
        """After the entitlement narrowed: show the screen's own seat (or the spectator) if needed."""
        allowed = self.entitled()
        if self.perspective not in allowed:
            self.perspective = self._screen if self._screen in allowed else "spectator"

    def _check_screen(self, screen: Any) -> Screen:
        rules = self.mode_rules
        if type(screen) not in (int, str) or screen not in rules.screens:
            raise ArgumentError(f"screen {quote(screen)} is not one of {', '.join(map(repr, rules.screens))} "
                                f"in {self.mode} mode" + (" (the seat this screen plays)" if rules.own_seat else ""))
        if rules.own_seat and self._has_bot(screen):
            raise ArgumentError(f"screen {screen!r}: Player {screen + 1} is played by a bot; take_seat({screen}) first")
        return screen

    def _require_live(self) -> Game:
        if self._game is None:
            raise ArgumentError("This widget shows a replay; there is no live game to play")
        return self._game


# ---- shared with the widget --------------------------------------------------------------


def new_or_given(game: Game | None, rules: Rules | None, seed: int | None) -> Game:
    """`game`, or a new Game from `rules` and `seed` (not both)."""
    if game is None:
        return Game(rules=rules, seed=seed)
    if not isinstance(game, Game):
        raise ArgumentError(f"game must be a needle_widget Game, not {type(game).__name__}")
    if rules is not None or seed is not None:
        raise ArgumentError("give either game= or rules=/seed=, not both")
    return game
