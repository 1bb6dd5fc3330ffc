"""A replay's notes, kept and edited: `ReplayNotes`, the part of `Replay` that holds the teacher's notes
(the values themselves, and who may read which, are `needle_widget.records.notes`).

>>> from needle_widget import examples
>>> r = examples.load("found_early")
>>> r.add_note(3, "Why the pile?", perspective="p2")
Note(step=3, text='Why the pile?', perspective=1, question=None)
>>> r.notes_for(0), len(r.notes_for(1)), r.note_steps("teacher")
((), 1, (3,))
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING, Any

from ..engine.observers import Observers
from ..engine.seats import Perspective, as_seat, perspective_named
from .notes import MAX_NOTES, Note, NoteError, NoteNotFound, NoteStepError, Question, check_viewer, note_list
from .steps import Step

if TYPE_CHECKING:
    from .replay import Replay

__all__ = ["ReplayNotes"]

_KEEP: Any = type("Keep", (), {"__repr__": lambda self: "<keep>"})()
"""`edit_note`'s default: leave the field as it is."""


class ReplayNotes:
    """The notes of a replay, in step order, and their editing; part of `Replay`.

    It keeps the notes in `_notes` (a list in step order), counts its changes in `_revision` and tells
    them to `_observers`; `_keep_notes` starts them. It reads the replay's `steps` (how many there are).
    Its `_changed` is also what a change of the variations calls (`ReplayVariations`).
    """

    steps: tuple[Step, ...]
    _notes: list[Note]
    _revision: int
    _observers: Observers

    @property
    def notes(self) -> tuple[Note, ...]:
        """Every note, in step order (notes at one step in the order they were added).

        All of them, for Python and the teacher: what a perspective may read is `notes_for`.
        """
        return tuple(self._notes)

    def notes_for(self, perspective: Perspective, step: int | None = None, *,
                  until: int | None = None) -> tuple[Note, ...]:
        """The notes `perspective` may read, in step order: those for everyone (no perspective),
        and those written for it; the teacher reads every note (`notes.Note.visible_to`). A
        player never gets a note written for the other player, the spectator or the teacher.

        `step`: only the notes at that step; `until`: only those at or before it (nothing
        past the step shown). A bad perspective raises PerspectiveError, a bad step NoteStepError.
        """
        viewer = check_viewer(as_seat(perspective))
        if step is not None:
            self._check_step(step)
        if until is not None:
            self._check_step(until)
        return tuple(
            note for note in self._notes
            if note.visible_to(viewer) and (step is None or note.step == step)
            and (until is None or note.step <= until)
        )

    def note_steps(self, perspective: Perspective, *, until: int | None = None) -> tuple[int, ...]:
        """The steps holding a note `perspective` may read, each once, in order (the slider's marks)."""
        return tuple(sorted({note.step for note in self.notes_for(perspective, until=until)}))

    def add_note(self, step: int, text: str, *, perspective: Perspective | None = None,
                 question: Question | str | dict | None = None) -> Note:
        """Add a note at `step` (0..len(self)), after any already there, and return it.

        `perspective`: who it is written for ("p1" or 0, "p2" or 1, "spectator", "teacher"; None: everyone);
        `question`: a kind from `notes.QUESTION_KINDS`, {"kind": ..., "prompt": ...} or a
        `notes.Question`. Bad input raises a NoteError subclass and adds nothing.
        """
        note = Note(step, text, _as_named(perspective), question)
        self._check_step(note.step)
        if len(self._notes) >= MAX_NOTES:
            raise NoteError(f"this replay already has {len(self._notes)} notes, the most it keeps ({MAX_NOTES})")
        self._insert(note)
        self._changed()
        return note

    def edit_note(self, which: int | Note, *, step: int = _KEEP, text: str = _KEEP,
                  perspective: Perspective | None = _KEEP, question: Question | str | dict | None = _KEEP) -> Note:
        """Change the fields given of a note, chosen by its index in `notes` or by the Note itself
        (the first equal one), and return the new note. It keeps its place among the notes at
        its step, or goes after them if the step changes. Bad input changes nothing.
        """
        index = self._index(which)
        old = self._notes[index]
        new = Note(
            old.step if step is _KEEP else step, old.text if text is _KEEP else text,
            old.perspective if perspective is _KEEP else _as_named(perspective),
            old.question if question is _KEEP else question,
        )
        self._check_step(new.step)
        if new.step == old.step:
            self._notes[index] = new
        else:
            del self._notes[index]
            self._insert(new)
        self._changed()
        return new

    def remove_note(self, which: int | Note) -> Note:
        """Remove a note, chosen by its index in `notes` or by the Note itself, and return it."""
        note = self._notes.pop(self._index(which))
        self._changed()
        return note

    def replace_notes(self, notes: Iterable[Note | dict]) -> None:
        """Replace every note at once (Notes or their dicts; `()` removes them all); all are
        checked first, and a bad one changes nothing.
        """
        self._notes = self._checked_notes(notes)
        self._changed()

    @property
    def notes_revision(self) -> int:
        """A count that goes up at every change of the notes (to tell whether they changed)."""
        return self._revision

    def observe_notes(self, callback: Callable[[Replay], Any]) -> Callable[[], None]:
        """Call `callback(replay)` after every change of the notes; return a function that stops it.

        A bound method is held weakly (an observer that is gone is dropped); any other
        callable, strongly.
        """
        return self._observers.add(callback, TypeError, "observe_notes")

    def _keep_notes(self, notes: Iterable[Note | dict]) -> None:
        """Start this replay's notes: `notes`, checked against its steps; revision 0 and no observers yet."""
        self._notes, self._revision, self._observers = [], 0, Observers()
        self._notes = self._checked_notes(notes)

    def _changed(self) -> None:
        self._revision += 1
        self._observers.notify(self)

    def _checked_notes(self, notes: Iterable[Note | dict], steps: int | None = None) -> list[Note]:
        if isinstance(notes, (str, bytes, dict, Note)) or not isinstance(notes, Iterable):
            raise NoteError(f"notes must be a list of notes, not {notes!r}"[:200])
        return note_list(list(notes), len(self.steps) if steps is None else steps)

    def _check_step(self, step: Any) -> None:
        if type(step) is not int or not 0 <= step <= len(self.steps):
            raise NoteStepError(
                f"note step {step!r}"[:200] + f" is out of range: this replay's steps are 0..{len(self.steps)}"
            )

    def _insert(self, note: Note) -> None:
        at = len(self._notes)
        while at and self._notes[at - 1].step > note.step:
            at -= 1
        self._notes.insert(at, note)

    def _index(self, which: Any) -> int:
        count = len(self._notes)
        if isinstance(which, Note):
            if which not in self._notes:
                raise NoteNotFound(f"this replay has no note {which!r}"[:200])
            return self._notes.index(which)
        if type(which) is not int:
            raise NoteNotFound(f"choose a note by its index in notes or by the Note itself, not {which!r}"[:200])
        if not -count <= which < count:
            raise NoteNotFound(f"no note {which}: this replay has {count} note{'s' * (count != 1)}")
        return which % count


def _as_named(perspective: Perspective | None) -> Perspective | None:
    """`seats.as_named` for a note's perspective ("p2" -> 1, "Teacher" -> "teacher", else as given), typed:
    what it names, or the perspective itself.
    """
    named = perspective_named(perspective)
    return perspective if named is None else named
