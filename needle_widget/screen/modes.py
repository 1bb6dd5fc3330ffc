"""What each mode of a screen allows, in one table (`MODE_RULES`): a `Session` reads the rules of its mode
and never tests the mode's name.

The names the rest of the package knows the modes by (`MODES`, `AUTOPLAY_MODES`, `REPLAY_MODES`,
`DRILLS`, `SCREENS`, `SEAT_MODES`) are derived from the table; `needle_widget.jupyter.shared` sends some
of them to the front end.

>>> MODE_RULES["quiz"].one_seat, MODE_RULES["quiz"].replay, MODE_RULES["quiz"].autoplay
(True, True, False)
>>> [mode for mode, rules in MODE_RULES.items() if rules.people_play]
['play', 'hotseat', 'live', 'practice']
>>> MODE_RULES["hotseat"].default_screen(0), MODE_RULES["play"].default_screen(1)
('shared', 1)
"""

from __future__ import annotations

from dataclasses import dataclass

from ..engine.seats import Perspective

__all__ = ["AUTOPLAY_MODES", "DRILLS", "LESSONS", "MODES", "MODE_RULES", "REPLAY_MODES", "SCREENS", "SEAT_MODES",
           "ModeRules", "Screen"]

Screen = int | str
"""Whose screen a session is: a seat (0, 1), a class screen ("spectator", "teacher") or hotseat's "shared"."""


@dataclass(frozen=True)
class ModeRules:
    """What one mode allows: the screens it may be, what it shows, who plays and how.

    `screens`: the screens the mode allows; the first is the default, unless `seat_default` (the
    perspective given is the screen: the seat it plays). `replay`: it shows a replay, not a live game.
    `autoplay`: it has a play/pause button; `autoplay_bots`: past the record's end, autoplay goes on with the
    bots' moves. `people_play`: people play it from the browser. `own_seat`: the screen plays its own seat
    only, and the bots answer it by themselves. `shared`: one screen passed between the seats, covered for
    whoever is to move. `you`: the screen's seat is named "You". `judged`: its moves go to a referee, which
    judges them and plays none (no bots either). `horizon`: a quiz, shown up to the step it has reached, spoiler-free.
    `drill`: the mode is a drill, one seat trained on its own (it shows that seat only and closes the possible
    worlds, the graph, "Play from here", "New game" and the notes' editing): its name in a sentence ("a quiz");
    `closed`: why those panels are closed. A drill is not the classroom's `Lesson`, a replay the teacher leads.
    """

    screens: tuple[Screen, ...]
    seat_default: bool = False
    replay: bool = False
    autoplay: bool = False
    autoplay_bots: bool = False
    people_play: bool = False
    own_seat: bool = False
    shared: bool = False
    you: bool = False
    judged: bool = False
    horizon: bool = False
    drill: str | None = None
    closed: str | None = None

    @property
    def one_seat(self) -> bool:
        """A drill: the screen shows its own seat only."""
        return self.drill is not None

    @property
    def lesson(self) -> str | None:
        """The earlier name of `drill`, kept for code that reads it."""
        return self.drill

    def default_screen(self, perspective: Perspective) -> Screen:
        """The screen of a session made with `perspective` and no screen given."""
        return perspective if self.seat_default else self.screens[0]


MODE_RULES: dict[str, ModeRules] = {
    "play": ModeRules((0, 1), seat_default=True, people_play=True, own_seat=True, you=True),
    "hotseat": ModeRules(("shared",), people_play=True, shared=True),
    "watch": ModeRules(("teacher", "spectator"), autoplay=True, autoplay_bots=True),
    "replay": ModeRules(("teacher", "spectator"), replay=True, autoplay=True),
    "live": ModeRules((0, 1, "spectator", "teacher"), seat_default=True, autoplay=True, people_play=True),
    "quiz": ModeRules((0, 1), replay=True, horizon=True, drill="a quiz",
                      closed="the quiz reveals the models' figures once you have answered"),
    "practice": ModeRules((0, 1), seat_default=True, people_play=True, you=True, judged=True, drill="practice",
                          closed="find the better move from what you could see"),
}
"""Every mode's rules, in the order the modes are listed (`MODES`)."""

MODES = tuple(MODE_RULES)
AUTOPLAY_MODES = tuple(mode for mode, rules in MODE_RULES.items() if rules.autoplay)
"""Modes with a play/pause button (js/src/replaybar.js `hasAutoplay`); play and hotseat are played by people."""
REPLAY_MODES = tuple(mode for mode, rules in MODE_RULES.items() if rules.replay)
"""Modes that show a replay (the others a live game)."""
DRILLS: dict[str, tuple[str, str]] = {mode: (rules.drill, rules.closed or "") for mode, rules in MODE_RULES.items()
                                      if rules.drill is not None}
"""The drills, modes that train one seat on its own: they show that seat only, and close the possible worlds, the
graph, "Play from here", "New game" and the notes' editing. Each mode's name in a sentence ("Not during a quiz"),
and why the panels are closed."""
LESSONS = DRILLS
"""The earlier name of `DRILLS`, kept for code that imports it."""
SCREENS: dict[str, tuple[Screen, ...]] = {mode: rules.screens for mode, rules in MODE_RULES.items()}
"""The screens each mode allows; the first is the default where the perspective does not choose it."""
SEAT_MODES = tuple(mode for mode, rules in MODE_RULES.items() if rules.seat_default)
"""Modes whose screen is, by default, the perspective given (the seat it plays)."""
