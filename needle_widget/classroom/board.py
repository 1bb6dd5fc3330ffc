"""The teacher's board as plain data: who joined, the class's calibration so far, each activity's part
(`Activity.board`: a lesson's question, its answers' distribution and Reveal; a challenge's games; a match's
tables) and the class's record (`Record.board`). The "projector" view has counts and distributions only: no
student's name.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ..engine.figures import interval, percent
from ..teaching.answers import calibration
from .activities import ACTIVITIES
from .lessonboard import BANDS

if TYPE_CHECKING:
    from .room import Room

__all__ = ["board_state", "BANDS"]


def board_state(room: Room, view: str) -> dict[str, Any]:
    """The board's state of `room` for `view` ("teacher" or "projector"); the room's lock is held."""
    members = room.members()
    state: dict[str, Any] = {
        "room": room.name, "url": room.url, "view": view, "showing": room.showing,
        "roster": {"invited": len(members), "joined": sum(m.joined for m in members)},
        "students": [{"name": m.name, "joined": m.joined, "online": m.joined} for m in members]
        if view == "teacher" else None,
        "calibration": _calibration(room),
        "connected": room.link.connected, "status": room.link.why,
        "record": room.record.board(view, {m.index: m.name for m in members}),
    }
    for cls in ACTIVITIES:
        latest = room.latest(cls.kind)
        parts = latest.board(view, members, room.record) if latest is not None else cls.board_empty(view, members)
        for key, value in parts.items():
            if key == "roster":
                state["roster"].update(value)
            elif key == "students":
                for row, more in zip(state["students"] or [], value or [], strict=True):
                    row.update(more)
            else:
                state[key] = value
    return state


def _calibration(room: Room) -> list[dict[str, Any]]:
    rows = []
    for band in calibration(room.answers, bins=BANDS):
        if band["count"]:
            hits = round(band["observed"] * band["count"])
            rows.append({"band": interval(band["lo"], band["hi"]), "count": band["count"],
                         "said": percent(band["mean_forecast"]),
                         "happened": f"{hits} of {band['count']} ({percent(band['observed'])})"})
    return rows
