"""NotesMethods: `NeedleWidget`'s notes from Python (`notes_book`, `notes`, `add_note`, `edit_note`,
`remove_note`, `replace_notes`), and the following of the notes of the record shown, changed by anyone.
"""

from __future__ import annotations

from collections.abc import Callable
from contextlib import AbstractContextManager
from typing import TYPE_CHECKING, Any

from ..engine.views import Perspective
from ..records.notes import Note, Question
from ..records.replay import Replay

if TYPE_CHECKING:
    from ..screen.desk import Desk
    from ..screen.session import Session

__all__ = ["NotesMethods"]


class NotesMethods:
    """A mixin of `NeedleWidget`: the notes of the record shown. It holds `_watched` (the record followed
    besides the replay given, and how to stop) and `_home_notes` (how to stop following the replay given):
    `_follow_notes` starts, `_stop_notes` ends. It needs of the widget `_desk`, `_session`, `_syncing`
    (set while the traits are copied), `_sync()`, `_errors_shown(what)` and `hold_sync()`.
    """

    _watched: tuple[Replay, Callable[[], None]] | None
    _home_notes: Callable[[], None] | None

    if TYPE_CHECKING:
        _desk: Desk
        _syncing: bool

        @property
        def _session(self) -> Session: ...

        def _sync(self) -> None: ...

        def _errors_shown(self, what: str) -> Any: ...

        def hold_sync(self) -> AbstractContextManager[Any]:
            """The widget's: the traits' changes go out in one message."""

    @property
    def notes_book(self) -> Replay:
        """The replay whose notes this widget shows: the replay, or a live game's record so far."""
        book = self._session.notes_book()
        self._watch_notes(book)
        return book

    @property
    def notes(self) -> tuple[Note, ...]:
        """Every note of the record shown (the teacher's list: each perspective receives the ones
        it may read, `shown_notes`); set it to replace them all (`Replay.replace_notes`).
        """
        return self.notes_book.notes

    @notes.setter
    def notes(self, notes: Any) -> None:
        self.notes_book.replace_notes(notes)

    def add_note(self, step: int, text: str, *, perspective: Perspective | None = None,
                 question: Question | str | dict | None = None) -> Note:
        """`Replay.add_note` on the record shown; every open view follows."""
        return self.notes_book.add_note(step, text, perspective=perspective, question=question)

    def edit_note(self, which: int | Note, **changes: Any) -> Note:
        """`Replay.edit_note` (step=, text=, perspective=, question=) on the record shown."""
        return self.notes_book.edit_note(which, **changes)

    def remove_note(self, which: int | Note) -> Note:
        """`Replay.remove_note` on the record shown."""
        return self.notes_book.remove_note(which)

    def replace_notes(self, notes: Any) -> None:
        """`Replay.replace_notes` on the record shown (`()` removes every note)."""
        self.notes_book.replace_notes(notes)

    def _follow_notes(self, replay: Replay | None) -> None:
        """Follow the notes of `replay`, the replay given (if any), from the start."""
        self._watched = None
        self._home_notes = None if replay is None else replay.observe_notes(self._notes_changed)

    def _watch_notes(self, book: Replay) -> None:
        """Follow changes of `book`'s notes, made by anyone (`replay.add_note(...)` too): the replay
        given is followed from the start; a live record (or a branch's) once Python has it.
        """
        if book is self._desk.home.full_record() and self._home_notes is not None:
            return
        if self._watched is not None and self._watched[0] is book:
            return
        if self._watched is not None:
            self._watched[1]()
        self._watched = (book, book.observe_notes(self._notes_changed))

    def _notes_changed(self, _book: Replay) -> None:
        if not self._syncing:
            with self.hold_sync(), self._errors_shown("the notes"):
                self._sync()

    def _stop_notes(self) -> None:
        """Stop following every record's notes (also when `__init__` refused its arguments, before `_follow_notes`)."""
        watched, self._watched = getattr(self, "_watched", None), None
        if watched is not None:
            watched[1]()
        home, self._home_notes = getattr(self, "_home_notes", None), None
        if home is not None:
            home()
