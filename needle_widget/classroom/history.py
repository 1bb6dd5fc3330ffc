"""A student's term as their own kernel holds it (`Student.history()`): their finished games with the record's figures
(from their own seat's review), their answers to the questions revealed, and their homework's progress. The room
sends it (`outbox`) when the student joins, when one of their games is reviewed and when homework is given: only
their own rows, the ones the teacher's `Room.history(name)` gives of them.
"""

from __future__ import annotations

import html
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

__all__ = ["History", "GAME_FIELDS"]

GAME_FIELDS = ("game", "activity", "deal", "seat", "opponent", "result", "luck_adjusted", "luck", "stood_in")
"""What a student's history shows of each game (the record's figures in points of win chance)."""


@dataclass(frozen=True)
class History:
    """A student's games, answers and homework (see the module docstring); `_repr_html_` shows them as tables in a
    notebook.
    """

    student: str = ""
    games: tuple[Mapping[str, Any], ...] = ()
    answers: tuple[Mapping[str, Any], ...] = ()
    homework: tuple[Mapping[str, Any], ...] = field(default=())

    @classmethod
    def from_message(cls, student: str, message: Mapping[str, Any]) -> History:
        """The history the room sent (`{"t": "history", "games", "answers", "homework"}`); a malformed part is
        left empty.
        """
        def rows(key: str) -> tuple[Mapping[str, Any], ...]:
            value = message.get(key)
            return tuple(r for r in value if isinstance(r, dict)) if isinstance(value, list) else ()

        return cls(student, rows("games"), rows("answers"), rows("homework"))

    def _repr_html_(self) -> str:
        def table(caption: str, columns: tuple[str, ...], rows: tuple[Mapping[str, Any], ...]) -> str:
            if not rows:
                return f"<p>{html.escape(caption)}: none yet.</p>"
            head = "".join(f"<th>{html.escape(c.replace('_', ' '))}</th>" for c in columns)
            body = "".join("<tr>" + "".join(f"<td>{html.escape('' if r.get(c) is None else str(r.get(c)))}</td>"
                                            for c in columns) + "</tr>" for r in rows)
            return f"<table><caption>{html.escape(caption)}</caption><tr>{head}</tr>{body}</table>"

        return (f"<h4>{html.escape(self.student or 'Your')} term</h4>"
                + table("Your games (figures in points of win chance)", GAME_FIELDS, self.games)
                + table("Your answers", ("lesson", "step", "kind", "score"), self.answers)
                + table("Your homework", ("homework", "done", "assigned"), self.homework))
