"""What one screen receives: a session's synced state, built for the perspective it shows.

Every part that depends on hidden information (table, info, events, bots, nearby, and
the hypotheticals: worlds, graph, branch_info; the features' traits, such as the notes and
the quiz) is built from `display`, `whatif` and each feature (`features.FEATURES`) for
`session.perspective` and nothing else, so a screen gets what that perspective may know. A
feature may change the info panel: in a quiz the seat's odds are hidden until the current
question is answered. No Jupyter import: the widget copies `state()` into
its traits, and tests compare it directly.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ..engine.views import Perspective
from . import display
from .desk import Desk
from .features import FEATURES, feature_traits
from .plugin import Feature
from .session import Session


class Synced:
    """Builds `state()` for a desk's shown session (a Session alone is put on a desk of its own), with
    the traits of each feature (`features`; by default each feature of `features.FEATURES` that
    attaches without options: the notes); the event list is rebuilt only when the perspective or the
    record's length changes.
    """

    def __init__(self, desk: Desk | Session, features: Sequence[Feature] | None = None) -> None:
        self._desk = desk if isinstance(desk, Desk) else Desk(desk)
        if features is None:
            features = [f for cls in FEATURES if (f := cls.attach(self._desk)) is not None]
        self.features: tuple[Feature, ...] = tuple(features)
        self._empty = {name: trait.empty for name, trait in feature_traits().items()}
        self._events_key: tuple | None = None
        self._events: list[dict[str, Any]] = []

    @property
    def _session(self) -> Session:
        return self._desk.session

    def state(self) -> dict[str, Any]:
        """Every synced trait of NeedleWidget except `error`, `answer` and `scale`, by name (see widget.py)."""
        s = self._session
        perspective = s.perspective
        game = s.game_at(s.step)
        whole = s.whole()
        act_reason = s.act_reason()
        # The game itself is in the key (held, not its id): a game gone (a variation closed) may leave its id
        # to another, of the same length, whose events would then be taken for its.
        key = (perspective, len(whole), whole)
        if self._events_key is None or key[:2] != self._events_key[:2] or whole is not self._events_key[2]:
            self._events, self._events_key = display.events(whole, perspective), key
        offers: dict[str, Any] = {}
        features = dict(self._empty)
        for feature in self.features:
            features.update(feature.synced(perspective))
            offers.update(feature.offers(perspective, game))
        return {
            "mode": s.mode,
            "perspective": perspective,
            "perspectives": list(s.entitled()),
            "steps": s.steps,
            "spoilers": s.spoilers,
            "step": s.step,
            "table": display.table(game, perspective),
            "info": self._info(game, perspective),
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
            "offers": offers,
            **features,
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
                out[str(k)] = {"table": display.table(game, perspective), "info": self._info(game, perspective)}
        return out

    def _info(self, game: Any, perspective: Perspective) -> dict[str, Any]:
        info = display.info(game, perspective)
        for feature in self.features:
            info = feature.info(info)
        return info
