"""A match's table watched by the teacher, as a screen source (`screen.source.Source`): the table's game from the
teacher's seat (every card shown), following each move and the table's next deals, each seat named for who holds
it; bound by the Jupyter adapter's `TableWidget` (`room.open_table(n)`).

The view watches: the teacher may step back through the deal and return to where the table is ({"kind": "step",
"to"}, {"kind": "live"}), and nothing else. It holds no game of its own, so no request turns it into one: a new
deal, the same deal again, a move or a branch is refused in words, and its frames offer none of them. Its state
is the replay's frames (`screen.frames.Frames`) with a follow bar naming the table, the deal and who plays: no
seed, which would let anything that reads the state foresee the match's next deals.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any, Protocol

from ..engine.errors import quote
from ..engine.seats import player_name
from ..records.replay import Replay
from ..screen.frames import Frames
from ..screen.stepping import whole_refusal
from .errors import ClassError
from .match import Match

__all__ = ["REFUSED", "TableRoom", "TableSource", "WATCHING"]

WATCHING = ("step", "live")
"""The requests a table's view answers: it steps through the deal and back to where the table is."""
REFUSED: dict[str, str] = {
    "new_game": "Table {n}'s students deal its next round (one of them asks once a deal is over): the teacher's view "
                "of a table watches and starts no game",
    "act": "Table {n}'s students play its moves: the teacher's view of a table watches",
    "branch": "The teacher's view of a table watches its game: open a finished round's replay "
              "(room.open_table({n}, round=...)) to play from a position",
    "autoplay": "The teacher's view of a table follows the table's moves as they come: it plays none by itself",
    "perspective": "The teacher's view of a table shows every card: it has no other perspective",
}
"""Why the requests a local screen makes and a table's view does not are refused, by kind ({n}: the table)."""


class TableRoom(Protocol):
    """What a table's view needs of a classroom room."""

    name: str

    def table_replay(self, table: int, round: int | None = None) -> Replay:
        """Table `table`'s game of the latest match, as the teacher's replay (a ClassError if there is none)."""

    def latest(self, kind: str) -> Any:
        """The activity of `kind` shown now or last, or None."""

    def subscribe(self, callback: Callable[[], None]) -> Callable[[], None]:
        """Call `callback()` (from any thread) after each change; returns the unsubscribe."""


class TableSource:
    """Table `number` of `room`'s latest match, from the teacher's seat (see the module docstring). `state()` is the
    frame of the step looked at (the table's latest, "live", unless the teacher stepped back) with the `follow`
    bar; a new deal at the table (or a new match) brings the view back to live. Closing it leaves the room open.
    """

    def __init__(self, room: TableRoom, number: int) -> None:
        needs = ("table_replay", "latest", "subscribe")
        missing = [name for name in needs if not callable(getattr(room, name, None))]
        if missing:
            raise ClassError(f"A table's view needs a classroom Room, not {quote(room)}: it has no "
                             f"{', '.join(missing)}")
        self.room, self.number = room, number
        self._lock = threading.RLock()
        self._replay = room.table_replay(number)  # a bad table number, or no match, fails here
        self._frames = Frames(self._replay, perspective="teacher")
        self._match = room.latest(Match.kind)
        self._looking: int | None = None
        self._gone: str | None = None
        """Why the latest match has no table `number` (its last game stays on show), or None."""

    def __repr__(self) -> str:
        return f"TableSource(table {self.number}, step {self.step} of {len(self._replay)}, live={self.live})"

    @property
    def replay(self) -> Replay:
        """The table's game now (the round it plays; its last game seen, where the latest match has no such table)."""
        with self._lock:
            self._catch_up()
            return self._replay

    @property
    def step(self) -> int:
        """The step shown: the table's latest, unless the teacher looks at an earlier one."""
        with self._lock:
            return len(self._replay) if self._looking is None else self._looking

    @property
    def live(self) -> bool:
        """The view shows where the table is."""
        return self._looking is None

    # ---- following the table --------------------------------------------------------------------------

    def _catch_up(self) -> None:
        """Take the table's latest game: a move more, or a new deal (or a new match), which shows it live."""
        try:
            latest = self.room.table_replay(self.number)
        except ClassError as gone:  # a later match with fewer tables: the last game stays on show
            self._gone = str(gone)
            return
        self._gone = None
        match, old = self.room.latest(Match.kind), self._replay
        new_deal = (match is not self._match or latest.seed != old.seed or len(latest) < len(old)
                    or latest.steps[:len(old)] != old.steps)
        if new_deal:
            self._looking = None
        if new_deal or len(latest) != len(old) or latest.players != old.players:
            self._replay, self._match = latest, match
            self._frames = Frames(latest, perspective="teacher")

    def _deal(self) -> tuple[int, int] | None:
        """(the deal shown, numbered from 1, the match's deals), or None where the match says nothing of it."""
        match = self._match
        if not isinstance(match, Match) or self._replay.seed not in match.seeds:
            return None
        return match.seeds.index(self._replay.seed) + 1, match.rounds

    def _seat_name(self, seat: int) -> str:
        """Who holds `seat` in the deal shown: the student's name, or the bot's ("the bot, greedy")."""
        name = self._replay.players[seat]
        match = self._match
        table = next((t for t in match.tables if t.number == self.number), None) if isinstance(match, Match) else None
        if table is not None and match.seeds[table.round] == self._replay.seed and table.at_seat(seat) is None:
            return f"the bot, {name}"
        return name

    def _follow(self, end: int) -> dict[str, Any]:
        deal = self._deal()
        who = " against ".join(f"{self._seat_name(s)} ({player_name(s)})" for s in (0, 1))
        title = " · ".join(part for part in (f"Table {self.number}",
                                             None if deal is None else f"deal {deal[0]} of {deal[1]}", who) if part)
        over = self._replay.result is not None
        if self._looking is not None:
            status, text = "looking", f"{title}. You are looking at step {self._looking}; the table is at step {end}"
        elif self._gone is not None:
            status, text = "waiting", f"{title}: its last game, at step {end}. {self._gone}"
        elif over and deal is not None and deal[0] >= deal[1]:
            status, text = "live", f"{title}: the deal is over (step {end}), the match's last at this table"
        elif over:
            status, text = "live", (f"{title}: the deal is over (step {end}); the table's next deal shows here "
                                    "once one of its students asks for it")
        else:
            status, text = "live", f"{title}: watching live, step {end}"
        connected = getattr(getattr(self.room, "link", None), "connected", True)
        return {"status": status, "text": text, "live_step": end, "can_live": self._looking is not None,
                "name": f"Table {self.number}", "room": getattr(self.room, "name", ""), "connected": connected,
                "kind": "table", "title": title, "live_reason": f"You are watching table {self.number} live"}

    # ---- the source -------------------------------------------------------------------------------

    def state(self) -> dict[str, Any]:
        """The frame of the step shown, from the teacher's seat, with the follow bar; nothing to ask Python for but
        the steps (no offers: no new deal, no branch; no moves).
        """
        with self._lock:
            self._catch_up()
            end = len(self._replay)
            watches = f"The teacher watches table {self.number}: its students play it"
            state = self._frames.at(end if self._looking is None else self._looking,
                                    hidden_reason="The teacher's view of a table shows every card")
            state.update(can_act=False, act_reason=watches, follow=self._follow(end))
            return state

    def request(self, message: Any) -> None:
        """{"kind": "step", "to"}: look at a step of the deal (its last: live again); {"kind": "live"}: back to where
        the table is. Anything else is refused with a ClassError (a new deal, a move: `REFUSED`); nothing changes.
        """
        kind = message.get("kind") if isinstance(message, dict) else None
        with self._lock:
            if kind == "step":
                self._catch_up()
                to, end = message.get("to"), len(self._replay)
                refusal = whole_refusal(to, end)
                if refusal is not None:
                    raise ClassError(refusal)
                self._looking = None if to == end else to
            elif kind == "live":
                self._catch_up()
                self._looking = None
            elif isinstance(kind, str) and kind in REFUSED:
                raise ClassError(REFUSED[kind].format(n=self.number))
            else:
                raise ClassError(f"{quote(kind)} is not something the teacher's view of a table does (it watches: "
                                 f"{', '.join(WATCHING)})")

    def subscribe(self, callback: Callable[[], None]) -> Callable[[], None]:
        """The room's changes (each move at any table, a next deal, a new match)."""
        return self.room.subscribe(callback)

    def close(self) -> None:
        """The room stays open; the view follows nothing once its widget stops asking."""
