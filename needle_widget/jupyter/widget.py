"""NeedleWidget: the game in Jupyter, a thin adapter over the screen (`needle_widget.screen`).

The session decides what this screen may see and do; `synced` builds what it receives; the
features (`screen.features`) add their traits and requests. Here: the traits, the constructors, and
the plumbing of a request (its id, its handler from the registry, the one place errors are shown).
The timers and the panels' worker are the `runner`'s; pictures for `save_png` are `pictures`'. The
methods of the notes (`notesmethods`), the drills, quiz and practice (`drillmethods`), and the panels
(`panelmethods`) are mixins of `NeedleWidget`, each saying what it needs of the widget.
"""

from __future__ import annotations

import datetime
import functools
import inspect
import logging
import os
from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager, contextmanager
from typing import Any

import traitlets

from ..classroom import join as join_class
from ..engine.errors import ArgumentError
from ..engine.game import Game
from ..engine.rules import Rules
from ..engine.seats import as_named
from ..engine.views import Perspective, check_perspective
from ..records.replay import Replay
from ..screen.desk import Desk
from ..screen.features import FEATURES, REQUESTS
from ..screen.guard import play_bots, seat_bots
from ..screen.plugin import Feature
from ..screen.session import MODES, Screen, Session, check_number, check_speed, new_or_given, quote
from ..screen.source import DeskSource
from ..teaching.answers import QuizRun
from ..teaching.practice import Deck
from ..teaching.practicerun import PracticeRun
from ..teaching.quiz import QUIZ_WORLDS, QuizQuestion, questions_from_notes
from .answering import MAX_ERROR, MAX_REQUEST_ID
from .bundles import MISSING as _MISSING  # noqa: F401 (the module as it was: tests read widget._MISSING)
from .drillmethods import PracticeMethods, QuizMethods
from .follow import FollowWidget
from .notesmethods import NotesMethods
from .panelmethods import PanelMethods
from .pictures import MAX_PICTURE, PNG_DATA_URL, Pictures
from .runner import SETTLE, Runner
from .screentraits import ScreenTraits
from .screenwidget import ScreenWidget, check_scale

__all__ = ["NeedleWidget", "MODES", "SPEEDS", "MAX_ERROR", "MAX_PICTURE", "MAX_REQUEST_ID", "PNG_DATA_URL", "REQUESTS",
           "SETTLE"]
SPEEDS = (0.5, 1.0, 2.0, 4.0, 8.0)
"""The autoplay speeds the browser offers (actions per second); Python accepts any from 0.1 to 20."""
log = logging.getLogger("needle_widget")


def _read(name: str, settable: bool = False) -> property:
    """A widget property that is the session's `name` (set from Python too, if settable)."""
    setter = (lambda self, value: self._python(setattr, self._session, name, value)) if settable else None
    return property(lambda self: getattr(self._session, name), setter, doc=getattr(Session, name).__doc__)


def _call(method: Callable[..., None], seats: tuple[str, ...] = ()) -> Callable[..., None]:
    """A widget method calling the session's (or the desk's) `method` from Python: errors are raised,
    bots answer and the open panels are computed at once. The parameters named in `seats` take a seat
    or perspective as people name it ("p2", "Player 1"), as well as the code's 0/1.
    """
    signature = inspect.signature(method)

    @functools.wraps(method)
    def call(self: NeedleWidget, *args: Any, **kwargs: Any) -> None:
        owner = self._desk if method.__qualname__.startswith("Desk.") else self._session
        if seats:
            bound = signature.bind(owner, *args, **kwargs)
            for name in seats:
                if name in bound.arguments:
                    bound.arguments[name] = as_named(bound.arguments[name])
            args, kwargs = bound.args[1:], bound.kwargs
        self._python(getattr(owner, method.__name__), *args, **kwargs)

    call.__doc__ = f"{method.__doc__}\n\nEvery open view follows; a bot to move answers at once."
    call.__module__, call.__qualname__ = __name__, f"NeedleWidget.{method.__name__}"
    return call


class NeedleWidget(NotesMethods, QuizMethods, PracticeMethods, PanelMethods, ScreenTraits, ScreenWidget):
    """Play, watch or replay Needle in a Card Stack in a notebook: `NeedleWidget(game=g, perspective=0)`
    (a live game on Player 1's screen), `.play(opponent=bot)`, `.hotseat()`, `.watch(bot0, bot1)` or
    `.from_replay(replay)`. Set `step` and `perspective` from Python and every open view follows.

    `screen=` is whose screen this is (default: `perspective`, in live and play modes), changed only
    by Python (`set_screen`). While the round is live a player's screen may switch only between its
    seat and the spectator; "spectator" and "teacher" screens, watch and replay, and `allow_peek=True`
    open all four. When the round is over all four open for a review, unless `reveal_at_end=False`.

    A failing bot (it raises, or returns an illegal move) pauses the game: the widget names the bot
    and the error, never a card; `bot_error` has the detail (so does the "needle_widget" log);
    `replace_bot(player, bot)` or `take_seat(player)` goes on.

    The widget observes its live game (`Game.observe`): `game.apply(...)` from Python (or from
    another widget of the same game) moves it to the new last step if it was there, and a bot
    to move answers at once, as after `apply`. Once the round is over, `new_game()` (or the
    browser's "new_game" request) deals again with the same rules, mode, screen and bots.

    A picture of the view (for slides and worksheets) is drawn in the browser, from the widget's own
    DOM: its "Save picture" button downloads it, and `save_png(path)` asks an open view for one.

    >>> from needle_widget import Game
    >>> NeedleWidget(game=Game(seed=3), perspective="teacher")
    NeedleWidget(mode='live', step=0/0, perspective='teacher')
    """

    def __init__(self, game: Game | None = None, perspective: Perspective = "spectator", *,
                 replay: Replay | None = None, mode: str | None = None, screen: Screen | None = None,
                 bots: dict[int, Any] | None = None, allow_peek: bool = False, reveal_at_end: bool = True,
                 bot_delay: float = 0.6, speed: float = 1.0, scale: float = 1.0, spoilers: bool = True,
                 run: QuizRun | None = None, practice: PracticeRun | None = None, **kwargs: Any) -> None:
        delay = check_number(bot_delay, 0, 10, "bot_delay must be between {low} and {high} seconds")
        perspective, screen = as_named(perspective), as_named(screen)  # type: ignore[assignment]
        if (mode == "quiz") != (run is not None):
            raise ArgumentError("quiz mode needs run= (a QuizRun): use NeedleWidget.quiz(replay, seat)")
        if (mode == "practice") != (practice is not None):
            raise ArgumentError("practice mode needs practice= (a PracticeRun): use NeedleWidget.practice(exercises)")
        self._desk = Desk(Session(game, perspective, replay=replay, mode=mode, screen=screen, bots=bots,
                                  allow_peek=allow_peek, reveal_at_end=reveal_at_end, speed=speed,
                                  spoilers=spoilers))
        self._features: tuple[Feature, ...] = tuple(
            f for cls in FEATURES if (f := cls.attach(self._desk, run=run, clock=_now, practice=practice)) is not None)
        self._local = DeskSource(self._desk, self._features)
        self._syncing, self._error_id = False, 0
        self._runner = Runner(self._desk, bot_delay=delay, sync=self._sync, guard=self._guarded,
                              alive=lambda: self.comm is not None)
        self._pictures = Pictures()
        super().__init__(scale=check_scale(scale), **self._local.state(), **kwargs)
        self._follow_notes(replay)
        self.observe(self._from_python, names=["step", "perspective", "playing", "speed"])
        self._bind(self._local, follow=False)  # the runner copies the desk's changes, on the kernel's loop
        with self._runner.own_changes():
            self._runner.after(at_once=True)

    @classmethod
    def play(cls, opponent: Any = None, seed: int | None = None, you: int | str = 0,
             rules: Rules | None = None, game: Game | None = None, **kwargs: Any) -> NeedleWidget:
        """You (Player `you + 1`, this screen) against a bot (GreedyBot by default), from a new deal or `game`.
        The bot answers a browser's move after `bot_delay` seconds, a move made with `apply` at once.
        """
        game = new_or_given(game, rules, seed)  # `you` may name the seat as people do ("p1"): as_named reads it
        return cls(game=game, perspective=you, mode="play", bots=play_bots(game, opponent, as_named(you)), **kwargs)

    @classmethod
    def hotseat(cls, seed: int | None = None, rules: Rules | None = None, game: Game | None = None,
                **kwargs: Any) -> NeedleWidget:
        """Two students at one screen: the table is covered ("Pass to Player 2") between turns."""
        return cls(game=new_or_given(game, rules, seed), mode="hotseat", **kwargs)

    @classmethod
    def watch(cls, bot0: Any, bot1: Any, seed: int | None = None, rules: Rules | None = None,
              speed: float = 1.0, autoplay: bool = True, game: Game | None = None, **kwargs: Any) -> NeedleWidget:
        """Two bots play, one action every 1/speed seconds while autoplay is on (in a notebook; else `advance()`)."""
        game = new_or_given(game, rules, seed)
        kwargs.setdefault("perspective", "teacher")
        widget = cls(game=game, mode="watch", bots=seat_bots(game, {0: bot0, 1: bot1}), speed=speed, **kwargs)
        widget.playing = bool(autoplay)
        return widget

    @classmethod
    def from_replay(cls, replay: Replay, perspective: Perspective = "spectator", step: int = 0,
                    spoilers: bool = True, **kwargs: Any) -> NeedleWidget:
        """Step through a recorded game; every perspective is open.

        `spoilers=False`: spoiler-free review. The widget shows the replay as if it ended at the
        current step: the event list, the slider's end (`steps`), the result, the graph and every
        panel hold nothing past `step`, so a class meets each turn as the player did. The browser
        steps back to any step or on to the next one ("Last" and End go to the current step, the
        end as shown); Python may set `step` anywhere up to the real end, and the cut follows it.
        """
        widget = cls(replay=replay, perspective=perspective, spoilers=spoilers, **kwargs)
        widget.step = step
        return widget

    @classmethod
    def quiz(cls, replay: Replay, seat: int | str = 0, questions: Any = None, *, student: str = "student",
             replay_name: str = "replay", seed: int = 0, n: int = QUIZ_WORLDS, **kwargs: Any) -> NeedleWidget:
        """A quiz for `seat` (0 or 1) on `replay`: at each question's step the widget shows the seat's
        view (spoiler-free: nothing past the furthest question reached; the seat's odds hidden until
        it answers) and asks; the answer is checked, revealed beside the models' and scored, and locked.

        `questions`: QuizQuestions, their dicts, or (step, kind) pairs for `seat`; None takes the
        questions of the notes the seat may read (`quiz.questions_from_notes`). Each is checked
        at once (`quiz.check_question`). `student` and `replay_name` go into the answer records
        (`answers`, `save_answers`); `seed` and `n` make the reveal's figures (`quiz.reveal`).

        >>> from needle_widget import examples
        >>> w = NeedleWidget.quiz(examples.load("detective"), seat=0, student="ann", n=20)
        >>> w.quiz_state["question"]["prompt"], w.step
        ('Which is the better draw here, pile or steal?', 2)
        >>> w.answer_question("pile")
        >>> w.answers[0].answer, w.quiz_state["reveal"] is not None
        ('pile', True)
        """
        if not isinstance(replay, Replay):
            raise ArgumentError(f"replay must be a needle_widget Replay, not {type(replay).__name__}")
        named = as_named(seat)
        if type(named) is not int or named not in (0, 1):
            raise ArgumentError(f"seat must be 0 (Player 1) or 1 (Player 2), not {quote(named)}")
        seat = named
        if questions is None:
            questions = questions_from_notes(replay, seat)
        elif isinstance(questions, (str, bytes, dict)) or not hasattr(questions, "__iter__"):
            raise ArgumentError(f"questions must be a list of questions, not {quote(questions)}")
        else:
            questions = [QuizQuestion(q[0], q[1], seat) if isinstance(q, tuple) and len(q) == 2 else q
                         for q in questions]
        run = QuizRun(replay, questions, student=student, replay_name=replay_name, seed=seed, n=n)
        return cls(replay=replay, perspective=seat, mode="quiz", screen=seat, spoilers=False, run=run, **kwargs)

    @classmethod
    def practice(cls, exercises: Any, student: str = "student", deck: Deck | None = None, *, seed: int = 0,
                 now: datetime.datetime | None = None, **kwargs: Any) -> NeedleWidget:
        """Practise a review's marked decisions (`review.exercises(reviews)`), as lichess's "Learn from your
        mistakes" does: each exercise's position from its seat only ("You played X. Find a better move"),
        the game up to it in the event list, nothing after it. The student attempts a move with the normal
        buttons: it is judged by the review's rule on the same worlds (`Exercise.check`), never played; then
        "Try again", "Show the better move" (with every candidate's value) and "Next"; after the last, a
        summary. `practice_state` is what the browser shows, `practice_results` how each went.

        `exercises`: a list of Exercise, or a Deck (`teaching.practice.Deck`): then its exercises due now,
        the longest overdue first, and that deck is answered. `deck`: a Deck the practice of each exercise
        is answered in (`Deck.answer`) as the student moves on with Next, and saved if it has a file (the
        exercises not in it are added). `student` goes into the records; `seed` draws each position
        (`Exercise.position`: the hidden cards are sampled from the view, never the real ones); `now`
        fixes the deck's clock (default: the time of each answer).

        >>> from needle_widget import examples
        >>> from needle_widget.review.exercises import exercise_at
        >>> w = NeedleWidget.practice([exercise_at(examples.load("found_early"), 6, worlds=8)], student="ann")
        >>> w.practice_state["exercise"]["prompt"], w.perspectives, w.step
        ('Step 7: you played Discard 10♥. Find a better move.', [0], 6)
        >>> w.attempt(examples.load("found_early").steps[6].action)  # the move played in the game
        >>> w.practice_state["phase"], w.practice_results[0].attempts[0].outcome.name
        ('wrong', 'SAME')
        """
        run = PracticeRun(exercises, student=student, deck=deck, seed=seed, now=now)
        seat = run.exercises[0].seat
        return cls(game=run.position(), perspective=seat, mode="practice", screen=seat, practice=run, **kwargs)

    @classmethod
    def join(cls, url: str, ticket: str | None = None, **kwargs: Any) -> FollowWidget:
        """A student joins a class (`needle_widget.classroom`): what the teacher leads, at the teacher's
        step, from this student's perspective only. `url` is the class's channel (`folder:PATH` or
        `redis://HOST:PORT/DB`), `ticket` the one the teacher gave (`room.invite(name)`), or `url` alone the one
        string the teacher gave (`room.invitation(name)`: "ADDRESS#TICKET"); `kwargs` go to `FollowWidget`
        (`scale=`). The student may step back to look, and return to "live".
        """
        return FollowWidget(join_class(url, ticket), **kwargs)

    @property
    def _session(self) -> Session:
        return self._desk.session

    # ---- Python's side ------------------------------------------------------------------------

    @property
    def game(self) -> Game:
        """The live Game (play, hotseat, watch, live modes); in replay mode, the game at `step`."""
        s = self._session
        return s.whole() if s.live else s.game_at(s.step)

    @property
    def replay(self) -> Replay:
        """The record: the replay being shown (all of it, in spoiler-free review too), or the live
        game's record so far.
        """
        record = self._session.full_record()
        self._watch_notes(record)
        return record

    screen = _read("screen")
    allow_peek = _read("allow_peek", settable=True)
    reveal_at_end = _read("reveal_at_end", settable=True)
    bot_error = _read("bot_error")
    set_screen, apply, advance = _call(Session.set_screen, ("screen",)), _call(Session.apply), _call(Session.advance)
    replace_bot, take_seat = _call(Session.replace_bot, ("player",)), _call(Session.take_seat, ("player",))
    branch, back, new_game = _call(Desk.branch, ("seat",)), _call(Desk.back), _call(Desk.new_game)
    open_line = _call(Desk.open_line)

    @property
    def source(self) -> DeskSource:
        """The screen source this widget binds (`screen.source.DeskSource`): its desk, features and request table."""
        return self._local

    @property
    def deals(self) -> tuple[int, ...]:
        """The seed of each deal this widget has played, the first game's first (`new_game`; empty for a replay)."""
        return self._desk.deals

    def go(self, step: int) -> None:
        """Show the game after `step` actions (same as setting `step`)."""
        self.step = step

    def save_png(self, path: str | os.PathLike) -> None:
        """Save the view as shown in the browser as a PNG file at `path`, as its "Save picture" button does:
        drawn by an open view from its own DOM, twice the screen's resolution, the theme's background.

        Returns at once and never waits for the browser: the file appears once a view has drawn it
        (usually within a second or two). The first view to answer writes it; with no view open
        nothing happens. The picture shows what that view shows, nothing more.
        """
        self.send({"kind": "picture", "id": self._pictures.ask(path)})

    def _picture_drawn(self, content: dict) -> None:
        """A view's answer to `save_png`: the first valid PNG for an id asked for is written, once
        (`pictures.Pictures.drawn`); a failed write is shown in the widget.
        """
        drawn = self._pictures.drawn(content)
        if drawn is None:
            return
        target, data = drawn
        try:
            target.write_bytes(data)
        except OSError as error:
            log.error("needle_widget: could not write the picture %s", target, exc_info=error)
            with self.hold_sync():
                self._show_error(f"Could not save the picture to {target}: {error.strerror or error}")

    def __repr__(self) -> str:
        return f"NeedleWidget(mode={self.mode!r}, step={self.step}/{self.steps}, perspective={self.perspective!r})"

    @traitlets.validate("step", "perspective", "playing", "speed")
    def _valid(self, proposal: dict) -> Any:
        name, value = proposal["trait"].name, proposal["value"]
        if name == "step" and not 0 <= value <= self._session.end:
            raise traitlets.TraitError(f"step {value} is out of range 0..{self._session.end}")
        checks = {"perspective": lambda v: check_perspective(as_named(v)),
                  "playing": self._session.check_playing, "speed": check_speed}
        return checks[name](value) if name in checks else value

    def _from_python(self, change: dict) -> None:
        if not self._syncing:
            s = self._session
            setter = {"step": s.go, "perspective": s.show, "playing": s.set_playing, "speed": s.set_speed}
            self._python(setter[change["name"]], change["new"])

    def _python(self, change: Callable[..., None], *args: Any, **kwargs: Any) -> None:
        with self._runner.own_changes(), self.hold_sync():
            try:
                change(*args, **kwargs)
            finally:
                self._runner.after(at_once=True)

    @property
    def bot_delay(self) -> float:
        """Seconds a bot waits before it answers a browser's move (0 to 10; a Python move: at once)."""
        return self._runner.bot_delay

    @bot_delay.setter
    def bot_delay(self, seconds: float) -> None:
        self._runner.bot_delay = check_number(seconds, 0, 10, "bot_delay must be between {low} and {high} seconds")

    # ---- the browser's side -----------------------------------------------------------------------

    def _view_answer(self, content: dict[str, Any]) -> None:
        """A view's answer to `save_png`."""
        self._picture_drawn(content)

    def _changes(self) -> AbstractContextManager[Any]:
        """A browser request's changes are the widget's own: the runner follows after it (`_after`)."""
        return self._runner.own_changes()

    def _after(self, kind: str | None) -> None:
        """After a browser request: bots to move, timers and the panels' work are the runner's; it syncs."""
        self._runner.after(at_once=False, settle=kind == "step")

    def _sync(self) -> None:
        """Set every trait from the session (traitlets sends only what changed, in one message)."""
        self._syncing = True
        try:
            with self.hold_sync():
                self._copy(self._local.state())
        finally:
            self._syncing = False

    def close(self) -> None:
        """Stop the timers and the panels' work, and close the widget."""
        runner = self.__dict__.get("_runner")  # absent if __init__ refused its arguments
        if runner is not None:
            runner.close()
        self._stop_notes()
        super().close()

    @contextmanager
    def _guarded(self, what: str) -> Iterator[None]:
        """The runner's context: the traits' changes go out in one message, an error is shown naming `what`."""
        with self.hold_sync(), self._errors_shown(what):
            yield


def _now() -> str:
    """The kernel's time of an answer (UTC, seconds): the only clock read, for the answer records."""
    return datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds")

