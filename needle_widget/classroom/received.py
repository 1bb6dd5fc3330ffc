"""What a student's kernel has received of the activity on its screen: the frames of the steps the room sent (whole,
or put together from their patches, `screen.patches`), the variations its seat may open with the frames of their
steps, and the exercises of its own finished game's review. Nothing else of the game is ever here.
"""

from __future__ import annotations

from typing import Any

from ..screen.frames import unpack
from ..screen.patches import apply
from .errors import ClassError
from .ownpractice import read_exercises

__all__ = ["LINES_REASON", "MAX_FRAMES", "MAX_LINE_FRAMES", "OutOfStep", "Received"]

MAX_FRAMES = 2000
MAX_LINE_FRAMES = 4000
"""The most frames of variations' steps a student's kernel keeps (beyond them a variation's later steps are
left out)."""
LINES_REASON = "In a class the teacher keeps the variations"
"""Why a student's screen cannot promote, rename or remove a variation."""


class OutOfStep(ClassError):
    """A message patches a frame this screen does not hold (one was lost on the way): it asks for the whole screen."""


class Received:
    """The frames, variations and exercises received for the activity shown (see the module docstring)."""

    def __init__(self) -> None:
        self.frames: dict[int, dict[str, Any]] = {}
        """The game's frames, by step."""
        self.lines: dict[int, dict[int, dict[str, Any]]] = {}
        """The frames of each variation received, by its index and step."""
        self.catalogue: dict[int, dict[str, Any]] = {}
        """The variations received: {index, label, step, end, source, real}, in the order sent."""
        self.exercises: tuple[Any, ...] = ()
        """The marked decisions of the student's own finished game, as exercises (`review.exercises.Exercise`)."""
        self._chain: tuple[int, int, dict[str, Any]] | None = None

    def clear(self) -> None:
        """Another activity, or the whole screen again: nothing received is kept but the last frame (the room's
        next frames may be patches of it).
        """
        self.frames, self.lines, self.catalogue, self.exercises = {}, {}, {}, ()

    def decode(self, m: dict[str, Any], seq: int) -> list[dict[str, Any]] | None:
        """The frames message `seq` brings, put together from their patches when it sends patches of the last
        frame received; OutOfStep when that frame is not the one held (a message lost on the way).
        """
        if not m.get("frames"):
            return None
        items = unpack(m["frames"])
        base = m.get("patch")
        if base is not None:
            chain = self._chain
            if chain is None or [chain[0], chain[1]] != base:
                raise OutOfStep(f"message {seq} patches frame {base}, and the last frame here is "
                                f"{None if chain is None else [chain[0], chain[1]]}")
            before, whole = chain[2], []
            for patch in items:
                before = apply(before, patch)
                whole.append(before)
            items = whole
        if not items or not all(isinstance(frame, dict) for frame in items):
            raise ValueError(f"message {seq} holds no frames")
        self._chain = (seq, len(items) - 1, items[-1])
        return items

    def take(self, m: dict[str, Any], frames: list[dict[str, Any]] | None) -> None:
        """Keep what message `m` brought: its list of variations, and `frames` (`decode`'s) of the game's steps or of
        its variation's (`m["line"]`) from step `m["first"]` on.
        """
        if m.get("lines") is not None:
            self.catalogue = {item["index"]: item for item in m["lines"]}
            self.lines = {index: kept for index, kept in self.lines.items() if index in self.catalogue}
        if frames is None:
            return
        line = m.get("line")
        if line is not None:
            kept = self.lines.setdefault(line, {})
            if m["first"] == m["from"]:  # the variation's frames anew
                kept.clear()
            room = MAX_LINE_FRAMES - sum(len(f) for f in self.lines.values())
            for k, frame in enumerate(frames, start=m["first"]):
                if k in kept or room > 0:
                    room -= k not in kept
                    kept[k] = frame
            return
        for k, frame in enumerate(frames, start=m["first"]):
            if len(self.frames) < MAX_FRAMES:
                self.frames[k] = frame
            if "class_exercises" in frame:
                self.exercises = read_exercises(frame.get("class_exercises"))

    def frame_at(self, line: int | None, step: int | None) -> dict[str, Any] | None:
        """The frame received of `step` of the game (`line` None) or of variation `line`, or None."""
        if step is None:
            return None
        if line is None:
            return self.frames.get(step)
        return self.lines.get(line, {}).get(step) if line in self.catalogue else None

    def variations(self, line: int | None, step: int) -> dict[str, Any] | None:
        """The `variations` trait of the screen at `step` of the game (`line` None) or of variation `line`: the
        variations received from steps up to there (the game's, up to where the variation starts), with their
        moves as received; None on the game when there are none.
        """
        anchor = step if line is None else self.catalogue[line]["step"]
        listed = [{**item, "events": self.events(index)} for index, item in self.catalogue.items()
                  if item["step"] <= anchor]
        if line is None and not listed:
            return None
        item = self.catalogue.get(line) if line is not None else None
        main = (self.frames.get(anchor) or {}).get("events") or [] if item is not None else []
        return {"current": line, "from_step": item["step"] if item else None, "label": item["label"] if item else None,
                "source": item["source"] if item else None, "list": listed, "main": main, "editable": False,
                "reason": LINES_REASON, "open_reason": None}

    def events(self, index: int) -> list[dict[str, Any]]:
        """The moves of variation `index` as received (its last frame's events after the step it starts from)."""
        kept = self.lines.get(index)
        if not kept:
            return []
        start = self.catalogue[index]["step"]
        return [e for e in kept[max(kept)].get("events") or [] if e["step"] > start]

    def label(self, line: int | None) -> str:
        """" of Variation 2" for a variation received, "" for the game."""
        item = self.catalogue.get(line) if line is not None else None
        return f" of {item['label']}" if item else ""
