"""What one screen receives: a session's synced state, built for the perspective it shows.

Every part that depends on hidden information (table, info, events, bots, nearby, and
the hypotheticals: worlds, graph, branch_info) is built from `display` and `whatif`
for `session.perspective` and nothing else, so a screen gets what that perspective
may know. No Jupyter import: the widget copies `state()` into
its traits, and tests compare it directly.
"""

from __future__ import annotations

from typing import Any

from . import display
from .desk import Desk
from .session import Session
from .views import Perspective


class Synced:
    """Builds `state()` for a desk's shown session (a Session alone is put on a desk of its own);
    the event list is rebuilt only when the perspective or the record's length changes.
    """

    def __init__(self, desk: Desk | Session) -> None:
        self._desk = desk if isinstance(desk, Desk) else Desk(desk)
        self._events_key: tuple | None = None
        self._events: list[dict[str, Any]] = []

    @property
    def _session(self) -> Session:
        return self._desk.session

    def state(self) -> dict[str, Any]:
        """Every synced trait of NeedleWidget except `error`, `answer` and `scale`, by name (see widget.py)."""
        s, desk = self._session, self._desk
        perspective = s.perspective
        game = s.game_at(s.step)
        whole = s.whole()
        act_reason = s.act_reason()
        key = (perspective, len(whole), id(whole))
        if key != self._events_key:
            self._events, self._events_key = display.events(whole, perspective), key
        return {
            "mode": s.mode,
            "perspective": perspective,
            "perspectives": list(s.entitled()),
            "steps": s.steps,
            "step": s.step,
            "table": display.table(game, perspective),
            "info": display.info(game, perspective),
            "events": self._events,
            "bots": s.reasons(perspective),
            "seats": s.names(),
            "nearby": self._nearby(perspective),
            "cover": s.cover,
            "playing": s.playing,
            "speed": s.speed,
            "busy": s.busy,
            "can_act": act_reason is None,
            "act_reason": act_reason,
            "hidden_reason": s.hidden_reason(),
            "paused": s.paused,
            "branch_info": desk.branch_info(),
            "offers": desk.offers(game),
            "worlds": desk.analysis.worlds_state(perspective),
            "graph": desk.analysis.graph_state(perspective),
        }

    def _nearby(self, perspective: Perspective) -> dict[str, Any]:
        """Steps step-1 and step+1 while browsing a record (not at the live edge of a game)."""
        s = self._session
        if s.live and s.step == s.steps:
            return {}
        record = s.record()
        out = {}
        for k in (s.step - 1, s.step + 1):
            if 0 <= k <= s.steps:
                game = record.game_at(k)
                out[str(k)] = {"table": display.table(game, perspective), "info": display.info(game, perspective)}
        return out
