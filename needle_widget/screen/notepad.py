"""The notes on a widget: what the shown perspective reads, and the teacher's note requests. No Jupyter.

The notes live in the record the widget shows (`Session.notes_book`: the replay, or a live
game's record); `Notepad` reads and edits them through the desk's shown session:

- `shown(perspective)`: the `notes` trait, the notes that perspective may read up to the
  end of the record as shown (nothing past the step in spoiler-free review or a quiz),
  each with its number (`index`) only where the notes may be edited;
- `offer(perspective)`: `offers["notes"]`, whether this screen may edit them and the choices;
- `request_note_add`, `request_note_edit`, `request_note_remove`: the browser's edits, allowed
  on the teacher perspective outside a quiz, checked first (a refusal changes nothing).

Who reads which note is `notes.Note.visible_to`: a player never receives a note written
for the other player, the spectator or the teacher, nor learns that one exists.

>>> from needle_widget import examples
>>> from needle_widget.screen.desk import Desk
>>> from needle_widget.screen.session import Session
>>> pad = Notepad(Desk(Session(replay=examples.load("found_early").copy(), perspective="teacher")))
>>> pad.request_note_add(0, "Watch Player 2's first draw.", 1, None)
>>> [(n["step"], n["for_label"], n["index"]) for n in pad.shown("teacher")], pad.shown(0)
([(0, 'Player 2', 0)], [])
"""

from __future__ import annotations

from typing import Any

from ..engine.errors import PerspectiveError, quote
from ..engine.seats import PERSPECTIVE_LABELS, PERSPECTIVES, Perspective
from ..records.notes import QUESTION_KINDS, Note, NoteError, Question
from .desk import Desk
from .plugin import Feature, Trait, request

__all__ = ["Notepad", "KIND_LABELS", "FOR_CHOICES"]

KIND_LABELS = {"needle": "Which is the opponent's needle?", "next_draw": "Will the next pile draw find the needle?",
               "winner": "Who will win?", "pile_or_steal": "Pile or steal?", "your_move": "Your move"}
"""The question kinds as the note form names them."""
FOR_CHOICES: tuple[Perspective | None, ...] = (None, *PERSPECTIVES)
"""Whom a note may be written for (None: everyone)."""


def _for_label(perspective: Perspective | None) -> str:
    return "Everyone" if perspective is None else PERSPECTIVE_LABELS[perspective]


def note_dict(note: Note, perspective: Perspective, index: int | None) -> dict[str, Any]:
    """One note as the `notes` trait holds it (the question's words as `perspective` reads them)."""
    question = note.question
    seat = perspective if perspective in (0, 1) else note.perspective if note.perspective in (0, 1) else None
    return {
        "step": note.step, "text": note.text, "perspective": note.perspective,
        "for_label": _for_label(note.perspective),
        "question": None if question is None else {"kind": question.kind, "prompt": question.prompt,
                                                   "text": question.text(seat)},
        "index": index,
    }


class Notepad(Feature):
    """The notes of the desk's shown session, as a screen reads them and a teacher edits them: the
    `shown_notes` trait, `offers["notes"]`, and the note requests.
    """

    name = "notes"
    absent = "the notes"
    traits = {"shown_notes": Trait([], "The notes the shown perspective may read, up to `steps`: [{step, text, "
                                       "perspective, for_label, question: None | {kind, prompt, text}, index}] (index: "
                                       "the note's number, on the teacher's view only).", view="notes")}

    def __init__(self, desk: Desk) -> None:
        self._desk = desk

    def synced(self, perspective: Perspective) -> dict[str, Any]:
        """{"shown_notes": `shown(perspective)`}."""
        return {"shown_notes": self.shown(perspective)}

    def offers(self, perspective: Perspective, game: Any = None) -> dict[str, Any]:
        """{"notes": `offer(perspective)`}."""
        return {"notes": self.offer(perspective)}

    def editable(self, perspective: Perspective) -> str | None:
        """None if the browser may edit the notes now; else why not (public words)."""
        session = self._desk.session
        if session.drill is not None:
            return f"Notes cannot be changed during {session.drill}"
        if perspective != "teacher":
            return "Switch to the teacher's view to write notes"
        return None

    def shown(self, perspective: Perspective) -> list[dict[str, Any]]:
        """The `notes` trait: the notes `perspective` may read in the record as shown, in step order."""
        numbered = self.editable(perspective) is None
        return [note_dict(note, perspective, i if numbered else None)
                for i, note in self._desk.session.readable_notes(perspective)]

    def offer(self, perspective: Perspective) -> dict[str, Any]:
        """`offers["notes"]`: {editable, reason, perspectives: [{id, label}], kinds: [{id, label}]}."""
        reason = self.editable(perspective)
        return {
            "editable": reason is None, "reason": reason,
            "perspectives": [{"id": p, "label": _for_label(p)} for p in FOR_CHOICES],
            "kinds": [{"id": None, "label": "No question"}]
            + [{"id": kind, "label": KIND_LABELS[kind]} for kind in QUESTION_KINDS],
        }

    # ---- the browser's requests --------------------------------------------------------------------

    def _check(self, what: str) -> None:
        reason = self.editable(self._desk.session.perspective)
        if reason is not None:
            raise PerspectiveError(f"Cannot {what}: {reason[0].lower()}{reason[1:]}")

    def _index(self, index: Any) -> int:
        """A note this screen reads now (never one past the step in spoiler-free review)."""
        session = self._desk.session
        shown = [i for i, _ in session.readable_notes(session.perspective)]
        if type(index) is not int or index not in shown:
            raise NoteError(f"There is no note {quote(index)} on this screen: the notes shown are numbered "
                            f"0 to {len(shown) - 1}" if shown else f"There is no note {quote(index)} on this screen")
        return index

    @request("note_add", "step", "text", "perspective", "question")
    def request_note_add(self, step: Any, text: Any, perspective: Any, question: Any) -> None:
        """{kind: "note_add", step, text, perspective, question}: a note at `step` (up to the shown end)."""
        self._check("add a note")
        session = self._desk.session
        if type(step) is int and step > session.steps:
            raise NoteError(f"Cannot add a note at step {step}: the record shown ends at step {session.steps}")
        session.notes_book().add_note(step, text, perspective=perspective, question=Question.of(question))

    @request("note_edit", "index", "text", "perspective", "question")
    def request_note_edit(self, index: Any, text: Any, perspective: Any, question: Any) -> None:
        """{kind: "note_edit", index, text, perspective, question}: change a note's words, reader and question."""
        self._check("edit a note")
        book = self._desk.session.notes_book()
        i = self._index(index)
        old, new = book.notes[i].question, Question.of(question)
        keep = old is not None and new is not None and new.kind == old.kind and new.prompt is None
        book.edit_note(i, text=text, perspective=perspective, question=old if keep else new)

    @request("note_remove", "index")
    def request_note_remove(self, index: Any) -> None:
        """{kind: "note_remove", index}: remove a note."""
        self._check("remove a note")
        self._desk.session.notes_book().remove_note(self._index(index))
