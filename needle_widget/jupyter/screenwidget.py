"""ScreenWidget: what every widget showing one screen of the game shares, whoever computes it.

`screen_traits()` declares the synced traits the front end (js/src/index.js) reads; the classes that
compute them (`widget.NeedleWidget` from a desk in this kernel, `follow.FollowWidget` from a class's
channel) each declare them in their own body (`locals().update(screen_traits())`), so each class's
own traits are the shared list (`shared.py`). `ScreenWidget` holds the front end's bundle and the
plumbing of a request (`answering`).
"""

from __future__ import annotations

from typing import Any

import anywidget
import traitlets

from ..screen.features import feature_traits
from ..screen.session import check_number
from .answering import Answering, answer_trait, error_trait
from .bundles import MISSING, bundle

__all__ = ["ScreenWidget", "check_scale", "screen_traits"]


def _trait(empty: Any, doc: str) -> traitlets.TraitType:
    """A synced trait for a feature's Trait: a list, a dict, or a value that may be None."""
    if isinstance(empty, list):
        return traitlets.List(default_value=list(empty), help=doc).tag(sync=True)
    if isinstance(empty, dict) or empty is None:
        return traitlets.Dict(allow_none=True, default_value=empty, help=doc).tag(sync=True)
    return traitlets.Any(default_value=empty, help=doc).tag(sync=True)


def _synced(trait: traitlets.TraitType, doc: str) -> traitlets.TraitType:
    """`trait`, documented by `doc` and synced with the browser."""
    trait.help = doc
    return trait.tag(sync=True)


def screen_traits() -> dict[str, traitlets.TraitType]:
    """New trait objects for every synced trait of a screen, by name: the game shown
    (`screen.synced.Synced.state()`), the features' traits (`screen.features`), `error`, `answer` and `scale`.
    """
    traits: dict[str, traitlets.TraitType] = {
        "mode": _synced(traitlets.Unicode("live"),
            """"play" | "hotseat" | "watch" | "replay" | "live" | "quiz", fixed at construction; a branch is "play"
            or "hotseat"."""),
        "perspective": _synced(traitlets.Union([traitlets.Int(), traitlets.Unicode()], default_value="spectator"),
            """Shown now: 0 | 1 | "spectator" | "teacher". Python may set any; the browser asks for one of
            `perspectives`."""),
        "perspectives": _synced(traitlets.List(),
            """What this screen may switch to now, e.g. [0, "spectator"]: decided by `screen`, never by
            `perspective`."""),
        "step": _synced(traitlets.Int(0),
            """The game after `step` actions is shown (0 <= step <= steps)."""),
        "steps": _synced(traitlets.Int(0),
            """Actions recorded so far (in spoiler-free review: the current step, the end of the replay as shown)."""),
        "spoilers": _synced(traitlets.Bool(True),
            """False in spoiler-free review (`from_replay(..., spoilers=False)`): nothing past `step` is sent, and
            the browser may still ask for the next step (Next and → stay enabled at `step == steps` until the
            round is over)."""),
        "table": _synced(traitlets.Dict(allow_none=True),
            """`display.table` at `step` for `perspective` (None on a class screen until the teacher starts):
            {perspective, phase, turn, to_move, scores,
            discard_pile, pile_size, players: [{hand: [codes] | None, hand_size, needle, sets, score, ...}] x2,
            legal_actions: [{type, card?, cards?, label, points?}], result: None | {winner, reason, text, ...}}."""),
        "events": _synced(traitlets.List(),
            """One line per action as `perspective` may know it: [{step, turn, player, text}]."""),
        "info": _synced(traitlets.Dict(),
            """{kind: "spectator"} | {kind: "player", player, opponent_needle: {grid, top, ...}, own_needle} |
            {kind: "teacher", needles, players, pile_top}."""),
        "seats": _synced(traitlets.List(),
            """The seats' names, [Player 1's, Player 2's], e.g. ["You", "greedy"]."""),
        "bots": _synced(traitlets.List(),
            """The bots' latest reasons, each shown to its own seat and the teacher only: [{player, name, text,
            step}]."""),
        "cover": _synced(traitlets.Dict(allow_none=True, default_value=None),
            """Hotseat: {player, text: "Pass to Player 2"} while the table waits for that player, else None."""),
        "error": error_trait(),
        "answer": answer_trait(),
        "paused": _synced(traitlets.Dict(allow_none=True, default_value=None),
            """A bot failed: {player, text: "OddsBot (Player 2) made an illegal move; ...", bots: [built-in names]}
            | None."""),
        "playing": _synced(traitlets.Bool(False),
            """Autoplay is running (never in play or hotseat mode)."""),
        "speed": _synced(traitlets.Float(1.0),
            """Autoplay speed, actions per second (0.1 to 20; the browser offers 0.5, 1, 2, 4, 8)."""),
        "scale": _synced(traitlets.Float(1.0),
            """Size of the whole widget (0.5 to 3; 1.5 for a projector)."""),
        "busy": _synced(traitlets.Bool(False),
            """Play mode: a bot is about to answer."""),
        "can_act": _synced(traitlets.Bool(False),
            """The browser may send "act" requests now."""),
        "act_reason": _synced(traitlets.Unicode(None, allow_none=True),
            """None when `can_act`; else why not, in public words (never a card): "It is Player 2's move, not
            yours", "Go to the latest step (12) to play", "The round is over"... (`Session.act_reason`; an "act"
            request refused for this reason quotes it)."""),
        "hidden_reason": _synced(traitlets.Unicode(None, allow_none=True),
            """Why the perspectives missing from `perspectives` are closed ("Hidden while the round is live"), or
            None."""),
        "nearby": _synced(traitlets.Dict(),
            """While browsing a record: {"<k>": {table, info}} for steps step-1 and step+1, shown at once on a key
            press."""),
        "branch_info": _synced(traitlets.Dict(allow_none=True, default_value=None),
            """In a branch ("play from here"): {from_step, world: "real" | "sampled", seat, opponent, back, text:
            "Branch from step 34: the real cards"} (the replay's seed is named to the teacher only); else None."""),
        "offers": _synced(traitlets.Dict(),
            """What this screen may start now: {branch: {seats, worlds, opponents: [{id, label}], reason}, worlds:
            {seats, models: [{id, label}], reason}, graph: {seats, models, reason}, new_game: {reason}, notes:
            ...} (reason: why not, in public words, or None)."""),
        "worlds": _synced(traitlets.Dict(allow_none=True, default_value=None),
            """The possible-worlds panel (`whatif.worlds_panel` for the shown step and seat) with status
            "computing" | "ready" | "failed" and playout (None, or `whatif.playout` with its status); None when
            closed."""),
        "graph": _synced(traitlets.Dict(allow_none=True, default_value=None),
            """The game's graph for one seat: {status, seat, model, n, done, total, steps, needle, points:
            [`whatif.graph_point`], markers: [`whatif.graph_markers`]}; None when closed."""),
    }
    traits.update({name: _trait(trait.empty, trait.doc) for name, trait in feature_traits().items()})
    return traits


def check_scale(value: Any) -> float:
    """`scale` checked: a number from 0.5 to 3."""
    return check_number(value, 0.5, 3, "scale must be between {low} and {high}")


class ScreenWidget(Answering, anywidget.AnyWidget):
    """The base of a widget that shows one screen of the game with the game's front end (widget.js):
    the bundle, the plumbing of requests (`Answering`). A subclass declares the traits
    (`locals().update(screen_traits())` in its body) and computes them.
    """

    _esm = bundle("widget.js", MISSING)
    _css = bundle("widget.css", "")

    def notify_change(self, change: Any) -> None:
        """A trait set from Python and all it changes reach the browser in one message."""
        with self.hold_sync():
            super().notify_change(change)

    @traitlets.validate("scale")
    def _valid_scale(self, proposal: dict) -> float:
        return check_scale(proposal["value"])

    def close(self) -> None:
        """Close the widget (and the layout ipywidgets leaves open)."""
        layout = self.__dict__.get("_trait_values", {}).get("layout")
        super().close()
        if layout is not None:
            layout.close()
