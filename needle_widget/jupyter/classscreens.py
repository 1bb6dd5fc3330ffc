"""A class's screens in Jupyter, made when the classroom's conveniences ask for one: the teacher's board
(`room.board()`), a student's challenge game or a match table's finished round from the teacher's seat
(`room.open_replay(name)`, `room.open_table(n, round)`), a match table watched live (`room.open_table(n)`: a
`TableWidget` over `classroom.tablesource.TableSource`, which names the seats and starts no game) and the
teacher's widget that leads a lesson (`lesson.widget()`). The classroom imports this module inside those methods
only (the layer contract lists each such import), so importing the classroom imports nothing of Jupyter.
"""

from __future__ import annotations

from typing import Any, Protocol, cast

from ..classroom.tablesource import TableSource
from ..engine.errors import ArgumentError, NeedleError, quote
from ..records.replay import Replay
from .board import BoardWidget
from .screentraits import FollowTraits
from .screenwidget import ScreenWidget, check_scale
from .sourcewidget import OWN
from .widget import NeedleWidget

__all__ = ["TableWidget", "board", "lead", "position", "replay", "table"]


class Lesson(Protocol):
    """What `lead` needs of a classroom lesson: its replay, its step, where it is (`position`: a lesson without
    one follows the game only), and `go`.
    """

    replay: Any
    step: int

    @property
    def position(self) -> tuple[int | None, int]:
        """(None, the game's step) or (a variation's index, its step shown)."""

    def go(self, step: int, line: int | None = None) -> None:
        """Move the class to `step` of the game, or of variation `line`."""


def board(room: Any, view: str = "teacher") -> BoardWidget:
    """The room's live board: who joined and answered, the distribution, calibration, Reveal, the ranking."""
    return BoardWidget(room, view=view)


def replay(record: Replay, **kwargs: Any) -> NeedleWidget:
    """A replay from the teacher's seat (every card shown): a student's challenge game."""
    kwargs.setdefault("perspective", "teacher")
    return NeedleWidget.from_replay(record, **kwargs)


def lead(lesson: Lesson, **kwargs: Any) -> NeedleWidget:
    """The teacher's widget of `lesson`: its replay from the teacher's perspective where the lesson is. It is a
    screen of the lesson both ways: each step it shows (from its browser or from Python) moves the class with
    `lesson.go(step)`, and the lesson moved from elsewhere (`lesson.go`, `next`, `ask`, a restart's reopening)
    moves it, so that its next step goes on from where the class is. A variation it shows (opened from the move
    list, or played by "Play from here", which adds one) takes the class into it: `lesson.go(step, line=index)`;
    back to the game, the class follows back. While the teacher plays a branch, the widget stays on it; once the
    room leads a later lesson, this widget moves nothing and follows nothing.
    """
    kwargs.setdefault("perspective", "teacher")
    widget = NeedleWidget.from_replay(lesson.replay, step=lesson.step, **kwargs)
    room = getattr(lesson, "room", None)
    following = [False]  # the widget is being moved to where the lesson is: that move is not the teacher's

    def current() -> bool:
        return room is None or getattr(room, "lesson", lesson) is lesson  # a later lesson's room leaves this one

    def follow() -> None:
        if not current():
            return
        following[0] = True
        try:
            _show(widget, lesson)
        finally:
            following[0] = False

    def moved(_change: dict[str, Any]) -> None:
        shown = position(widget, lesson.replay)
        if following[0] or not current() or shown is None or shown == _at(lesson):
            return
        if shown[0] is None:
            lesson.go(shown[1])
        else:
            lesson.go(shown[1], line=shown[0])

    follow()
    widget.observe(moved, names=["step", "variations"])
    subscribe = getattr(room, "subscribe", None)
    if callable(subscribe):
        widget.on_changes(subscribe, follow)
    return widget


def _show(widget: NeedleWidget, lesson: Lesson) -> None:
    """Move `widget` to where `lesson` is, unless it is there already or the teacher plays a branch in it."""
    at = _at(lesson)
    if widget.branch_info is not None:
        return
    if position(widget, lesson.replay) == at:
        return
    line, step = at
    try:
        if line is not None:
            widget.open_line(line, step)
            return
        if (widget.variations or {}).get("current") is not None:
            widget.back()
        widget.go(step)
    except NeedleError:
        pass  # the widget shows the game at the step the variation starts from (its variation gone meanwhile)


def _at(lesson: Lesson) -> tuple[int | None, int]:
    """Where `lesson` is (a lesson of the game only, without variations, has just its step)."""
    return getattr(lesson, "position", None) or (None, lesson.step)


def position(widget: NeedleWidget, replay: Replay) -> tuple[int | None, int] | None:
    """Where `widget` is, as a lesson's position: (None, the game's step) or (a variation's index, its step);
    None where the class cannot follow (a line or branch whose variation is not in the replay as the desk knows
    it: gone, or being changed in Python meanwhile; a step of a branch before where it starts). Read from the
    widget's desk, not its traits: a trait's observer runs before the widget's other traits are copied.
    """
    desk = widget.source.desk
    index, step = desk.line_index, desk.session.step
    if index is None:  # the game; or a line the desk has not found in the replay (gone, or being changed)
        return (None, step) if desk.session is desk.home else None
    variation = replay.variations[index]
    if step < variation.step:
        return None
    return index, min(step, variation.end)


class TableWidget(FollowTraits, ScreenWidget):
    """Table `number`'s game of a room's match, live from the teacher's seat (every card shown), each seat named for
    who holds it: `TableWidget(room, number)` (what `room.open_table(n)` returns). It binds the table's view
    (`classroom.tablesource.TableSource`), which follows each move the room records and the table's next deals; its
    follow bar names the table, the deal and the players. The teacher may step back to look meanwhile (`go`) and
    return to where the table is (`live`, or "Back to live"); it offers no new deal and no move, and no request turns
    it into a game of its own. Closing it leaves the room open.
    """

    def __init__(self, room: Any, number: int, *, scale: float = 1.0, **kwargs: Any) -> None:
        perspective = kwargs.pop("perspective", "teacher")
        if perspective != "teacher":
            raise ArgumentError(f"A table's live view is the teacher's (every card shown), not {quote(perspective)}")
        source = TableSource(room, number)
        self._source = source
        self._names = frozenset(self.trait_names(sync=True)) - OWN
        super().__init__(scale=check_scale(scale), **self._source_state(), **kwargs)
        self._bind(source)

    @property
    def source(self) -> TableSource:
        """The table's view this widget binds."""
        return cast(TableSource, self._source)

    @property
    def number(self) -> int:
        """The table shown (numbered from 1)."""
        return self.source.number

    @property
    def replay(self) -> Replay:
        """The table's game now (the round it plays), as the teacher's replay (`TableSource.replay`)."""
        return self.source.replay

    def go(self, step: int) -> None:
        """Look at `step` of the deal shown (its latest step: live again)."""
        self._ask({"kind": "step", "to": step})

    def live(self) -> None:
        """Back to where the table is."""
        self._ask({"kind": "live"})

    def __repr__(self) -> str:
        follow = self.follow or {}
        return f"TableWidget(table={self.number}, step={self.step}/{self.steps}, status={follow.get('status')!r})"


def table(room: Any, number: int, **kwargs: Any) -> TableWidget:
    """Table `number`'s game live from the teacher's seat (`TableWidget`)."""
    return TableWidget(room, number, **kwargs)
