"""Notes: a teacher's words tied to a step of a replay, for everyone or for one perspective.

A `Note` is a value: the `step` it belongs to (the position after that many actions,
as `Replay.game_at` counts: 0..len(replay)), its `text` (the teacher's own words, 1 to
MAX_TEXT_LENGTH characters; nothing here ever makes a note from the game's hidden
state), the `perspective` it is written for (None: everyone), and an optional
`question` for the class (`Question`). `Replay` keeps a replay's notes and saves them
(`Replay.add_note`, `Replay.notes_for`); this module holds the value types, their
JSON form (see `needle_widget.records.replay` for the file format) and the rule of who sees
which note (`Note.visible_to`):

| the note is written for | who sees it                                       |
| None                    | everyone: both players, the spectator, the teacher |
| 0 or 1 (a player)       | that player and the teacher                        |
| "spectator"             | the spectator and the teacher                      |
| "teacher"               | the teacher only                                   |

So the teacher sees every note, and a player never sees a note written for the other
player (it may speak of that player's hidden cards), nor one for the spectator or the
teacher.

A question asks the class something at the note's step, for the quiz to pose from the
seat's view; its `kind` is one of QUESTION_KINDS, its `prompt` optional words that
replace the default ones.

>>> note = Note(12, "Why steal here?", perspective=1, question="pile_or_steal")
>>> note.to_dict()
{'step': 12, 'text': 'Why steal here?', 'perspective': 1, 'question': {'kind': 'pile_or_steal'}}
>>> Note.from_dict(note.to_dict()) == note, note.visible_to(0), note.visible_to("teacher")
(True, False, True)
>>> Note(3, "   ")
Traceback (most recent call last):
...
needle_widget.records.notes.NoteTextError: note text '   ' is empty: write 1 to 2000 characters
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from ..engine.errors import PerspectiveError, ReplayError
from ..engine.errors import quote as _quote
from ..engine.seats import PERSPECTIVES, Perspective, player_name

__all__ = [
    "MAX_NOTES", "MAX_PROMPT_LENGTH", "MAX_TEXT_LENGTH", "QUESTION_KINDS", "Note", "NoteError", "NoteNotFound",
    "NotePerspectiveError", "NoteQuestionError", "NoteStepError", "NoteTextError", "Question", "check_viewer",
    "note_list",
]

MAX_TEXT_LENGTH = 2000
"""The longest note text, in characters (a few paragraphs: a note is read beside the table)."""
MAX_NOTES = 5000
"""The most notes a replay keeps (about three for every action of the longest round), and a variation."""
MAX_PROMPT_LENGTH = 500
"""The longest question prompt, in characters."""
QUESTION_KINDS: dict[str, str] = {
    "needle": "Which card is {opponent}'s needle?",
    "next_draw": "How likely is your next pile draw to find your needle?",
    "winner": "Who will win from here?",
    "pile_or_steal": "Which is the better draw here, pile or steal?",
    "your_move": "Your move: what would you play here?",
}
"""Each kind of question and its default prompt ({opponent}: the other player, seen from the seat asked)."""
_NOTE_KEYS = ("step", "text", "perspective", "question")
_QUESTION_KEYS = ("kind", "prompt")



class NoteError(ReplayError):
    """A note that cannot be kept, or one that is not there; the message quotes the bad input.

    A ReplayError (so a NeedleError and a ValueError): loading a file with a bad note
    raises it with the note's index in front ("note 3: ...").
    """


class NoteStepError(NoteError):
    """A note's step that is not an integer from 0 to the replay's length."""


class NoteTextError(NoteError):
    """A note's text that is not text, is empty (or only spaces), too long, or cannot be saved as UTF-8."""


class NotePerspectiveError(NoteError, PerspectiveError):
    """A note's perspective other than 0, 1, "spectator", "teacher" or None (also a PerspectiveError)."""


class NoteQuestionError(NoteError):
    """A question of an unknown kind or shape."""


class NoteNotFound(NoteError):
    """`edit_note` or `remove_note` given an index or a note the replay does not have."""


def _check_text(value: Any, what: str, limit: int, error: type[NoteError]) -> str:
    if not isinstance(value, str):
        raise error(f"{what} must be text, not {_quote(value)}")
    if not value.strip():
        raise error(f"{what} {_quote(value)} is empty: write 1 to {limit} characters")
    if len(value) > limit:
        raise error(f"{what} {_quote(value)} is too long: {len(value):,} characters, more than {limit}")
    try:
        value.encode("utf-8")
    except UnicodeEncodeError:
        raise error(f"{what} {_quote(value)} cannot be saved as UTF-8 (a lone surrogate)") from None
    return value


def check_viewer(perspective: object) -> Perspective:
    """The perspective of someone reading notes: 0, 1, "spectator" or "teacher" (not None);
    anything else raises PerspectiveError.
    """
    if type(perspective) in (int, str) and perspective in PERSPECTIVES:
        return perspective
    raise PerspectiveError(f"Unknown perspective {_quote(perspective)}; notes are read by 0, 1, "
                           "'spectator' or 'teacher'")


@dataclass(frozen=True)
class Question:
    """What a note asks the class: a `kind` from QUESTION_KINDS, and optional `prompt` words.

    >>> Question("needle").text(0), Question("winner", "Who wins now?").text(1)
    ("Which card is Player 2's needle?", 'Who wins now?')
    """

    kind: str
    prompt: str | None = None

    def __post_init__(self) -> None:
        if type(self.kind) is not str or self.kind not in QUESTION_KINDS:
            raise NoteQuestionError(
                f"question kind {_quote(self.kind)} is not one of {', '.join(QUESTION_KINDS)}"
            )
        if self.prompt is not None:
            _check_text(self.prompt, "question prompt", MAX_PROMPT_LENGTH, NoteQuestionError)

    def text(self, seat: Perspective | None = None) -> str:
        """The words to show: the prompt, or the kind's default as asked of `seat` (a player, or anyone)."""
        if self.prompt is not None:
            return self.prompt
        opponent = player_name(1 - seat) if seat in (0, 1) and type(seat) is int else "the opponent"
        return QUESTION_KINDS[self.kind].format(opponent=opponent)

    def to_dict(self) -> dict[str, Any]:
        """{"kind": ..., "prompt": ...}, without "prompt" when there is none."""
        return {"kind": self.kind} if self.prompt is None else {"kind": self.kind, "prompt": self.prompt}

    @classmethod
    def from_dict(cls, data: Any) -> Question:
        """The question a `to_dict` gave; anything else raises NoteQuestionError."""
        if not isinstance(data, dict):
            raise NoteQuestionError(f"question must be an object with a kind, not {_quote(data)}")
        unknown = sorted(str(key) for key in data if key not in _QUESTION_KEYS)
        if unknown:
            raise NoteQuestionError(f"question has unknown fields {', '.join(map(_quote, unknown))}; "
                                    f"a question has {' and '.join(_QUESTION_KEYS)}")
        if "kind" not in data:
            raise NoteQuestionError(f"question {_quote(data)} has no kind")
        return cls(data["kind"], data.get("prompt"))

    @classmethod
    def of(cls, value: Any) -> Question | None:
        """None, a Question, a kind ("needle") or a dict, as a Question (or None)."""
        if value is None or isinstance(value, Question):
            return value
        if isinstance(value, str):
            return cls(value)
        if isinstance(value, dict):
            return cls.from_dict(value)
        raise NoteQuestionError(f"question must be None, a kind, a dict or a Question, not {_quote(value)}")


@dataclass(frozen=True)
class Note:
    """A teacher's note at `step`, for `perspective` (None: everyone), with an optional `question`.

    Checked when made: `step` an integer >= 0 (the replay checks it is not past its
    end), `text` 1 to MAX_TEXT_LENGTH characters, `perspective` one of 0, 1,
    "spectator", "teacher" or None, `question` None, a kind, a dict or a Question
    (kept as a Question). Each problem raises its NoteError subclass.
    """

    step: int
    text: str
    perspective: Perspective | None = None
    question: Question | None = None

    if TYPE_CHECKING:  # the dataclass's own __init__, which also takes a question's kind or dict (kept as a Question)
        def __init__(self, step: int, text: str, perspective: Perspective | None = None,
                     question: Question | str | dict[str, Any] | None = None) -> None: ...

    def __post_init__(self) -> None:
        if type(self.step) is not int or self.step < 0:
            raise NoteStepError(f"note step {_quote(self.step)} is not an integer >= 0")
        _check_text(self.text, "note text", MAX_TEXT_LENGTH, NoteTextError)
        if self.perspective is not None and not (
            type(self.perspective) in (int, str) and self.perspective in PERSPECTIVES
        ):
            raise NotePerspectiveError(
                f"note perspective {_quote(self.perspective)} is not 0, 1, 'spectator', 'teacher' or None"
            )
        object.__setattr__(self, "question", Question.of(self.question))

    def visible_to(self, perspective: Perspective) -> bool:
        """Whether `perspective` may read this note (the table in the module docstring)."""
        viewer = check_viewer(perspective)
        return self.perspective is None or viewer == "teacher" or viewer == self.perspective

    def to_dict(self) -> dict[str, Any]:
        """The JSON form: step and text, then perspective and question only when given."""
        data: dict[str, Any] = {"step": self.step, "text": self.text}
        if self.perspective is not None:
            data["perspective"] = self.perspective
        if self.question is not None:
            data["question"] = self.question.to_dict()
        return data

    @classmethod
    def from_dict(cls, data: Any) -> Note:
        """The note a `to_dict` gave ("perspective" and "question" may be absent or null);
        anything else raises a NoteError.
        """
        if not isinstance(data, dict):
            raise NoteError(f"a note must be an object with a step and a text, not {_quote(data)}")
        unknown = sorted(str(key) for key in data if key not in _NOTE_KEYS)
        if unknown:
            raise NoteError(f"unknown fields {', '.join(map(_quote, unknown))}; a note has {', '.join(_NOTE_KEYS)}")
        for key, error in (("step", NoteStepError), ("text", NoteTextError)):
            if key not in data:
                raise error(f"the note has no {key}")
        question = data.get("question")
        if question is not None:
            question = Question.from_dict(question)
        return cls(data["step"], data["text"], data.get("perspective"), question)


def note_list(items: Any, steps: int, most: int = MAX_NOTES) -> list[Note]:
    """Notes (Notes or their dicts) checked, each at a step up to `steps`, at most `most` of them, in step
    order (notes at one step in their order); a bad one raises its NoteError with its index ("note 3: ...").
    """
    if not isinstance(items, list):
        raise ReplayError(f"notes: expected a list, got {type(items).__name__}")
    if len(items) > most:
        raise NoteError(f"notes: {len(items):,} notes, more than a replay keeps ({most})")
    notes = []
    for k, item in enumerate(items):
        try:
            note = item if isinstance(item, Note) else Note.from_dict(item)
            if note.step > steps:
                raise NoteStepError(f"note step {note.step} is out of range: this replay's steps are 0..{steps}")
        except NoteError as error:
            raise type(error)(f"note {k}: {error}") from None
        notes.append(note)
    return sorted(notes, key=lambda note: note.step)
