"""The teacher's board as plain data: who joined, the class's calibration so far, each activity's part
(`Activity.board`: a lesson's question, its answers' distribution and Reveal; a challenge's games; a match's
tables) and the class's record (`Record.board`). The "projector" view has counts and distributions only: no
student's name.
"""

from __future__ import annotations

import time
from typing import TYPE_CHECKING, Any

from ..engine.figures import interval, percent
from ..teaching.answers import calibration
from .activities import ACTIVITIES
from .lessonboard import BANDS
from .presence import PRESENCE_TIMEOUT, is_online

if TYPE_CHECKING:
    from .room import Room

__all__ = ["board_state", "BANDS"]


def board_state(room: Room, view: str) -> dict[str, Any]:
    """The board's state of `room` for `view` ("teacher" or "projector"); the room's lock is held."""
    members = room.members()
    now = time.monotonic()
    online = [is_online(m, now) for m in members]
    state: dict[str, Any] = {
        "room": room.name, "url": room.url, "view": view, "showing": room.showing,
        "roster": {"invited": len(members), "joined": sum(m.joined for m in members), "online": sum(online),
                   "timeout": PRESENCE_TIMEOUT},
        "students": [{"name": m.name, "joined": m.joined, "online": on} for m, on in zip(members, online, strict=True)]
        if view == "teacher" else None,
        "calibration": _calibration(room),
        "connected": room.link.connected, "status": room.link.why,
        "record": room.record.board(view, {m.index: m.name for m in members}, family=len(room.members(removed=True))),
    }
    for cls in ACTIVITIES:
        latest = room.latest(cls.kind)
        parts = latest.board(view, members, room.record) if latest is not None else cls.board_empty(view, members)
        for key, value in parts.items():
            if key == "roster":  # what is on the screens now: an earlier activity's counts are not
                if latest is room.activity:
                    state["roster"].update(value)
            elif key == "students":
                for row, more in zip(state["students"] or [], value or [], strict=True):
                    row.update(more)
            else:
                state[key] = value
    state["headline"] = _headline(room, state)
    state["homework"] = _homework(room, view)
    return state


def _homework(room: Room, view: str) -> dict[str, Any] | None:
    """The latest homework: who has done how many of their exercises (the projector: how many are done)."""
    homework = room.homework
    if homework is None:
        return None
    progress = room.homework_progress(homework)
    finished = sum(done >= given for done, given in progress.values())
    out: dict[str, Any] = {"id": homework.id, "title": homework.title, "students": len(progress),
                           "finished": finished, "rows": None}
    if view == "teacher":
        out["rows"] = [{"name": name, "done": done, "assigned": given} for name, (done, given) in progress.items()]
    return out


def _headline(room: Room, state: dict[str, Any]) -> dict[str, str]:
    """What is on the students' screens now, in a line for the top of the board (`Activity.headline`): an earlier
    lesson's open question never headlines what is shown after it.
    """
    activity = room.activity
    if activity is None:
        return {"kind": "idle", "text": room.ended or "The students' screens wait for the teacher"}
    return activity.headline(state)


def _calibration(room: Room) -> list[dict[str, Any]]:
    rows = []
    for band in calibration(room.answers, bins=BANDS):
        if band["count"]:
            hits = round(band["observed"] * band["count"])
            rows.append({"band": interval(band["lo"], band["hi"]), "count": band["count"],
                         "said": percent(band["mean_forecast"]),
                         "happened": f"{hits} of {band['count']} ({percent(band['observed'])})"})
    return rows
