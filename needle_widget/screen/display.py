"""What the widget shows: the JSON synced to the browser for one perspective at one step.

Everything here is built from `views.view()` and `knowledge` (which read only what
the perspective may know), plus public metadata. Nothing else reaches the browser.
The front end (js/) renders exactly these dicts; `tests/test_display.py` and the JS
tests share fixtures made from them (tests/js_fixtures.py).
"""

from __future__ import annotations

from typing import Any

from ..engine import actions as A
from ..engine.actions import from_dict
from ..engine.game import Game
from ..engine.narration import narrate
from ..engine.rules import set_points
from ..engine.seats import PERSPECTIVE_LABELS, player_name  # noqa: F401 - PERSPECTIVE_LABELS: the widget's labels
from ..engine.views import Perspective, view
from ..inference import knowledge


def _rounded(value: Any, digits: int = 4) -> Any:
    if isinstance(value, float):
        return round(value, digits)
    if isinstance(value, list):
        return [_rounded(v, digits) for v in value]
    if isinstance(value, dict):
        return {k: _rounded(v, digits) for k, v in value.items()}
    return value


def table(game: Game, perspective: Perspective) -> dict[str, Any]:
    """The view of `game` for `perspective`, without its history (the event list carries it),
    with a label on each legal action, points on each legal set, the end in words, and on each
    player `new_cards`: the cards of a hand shown that entered it this turn (the widget marks them).
    """
    data = view(game, perspective, history=False)
    labelled = []
    for raw in data["legal_actions"]:
        action = from_dict(raw)
        item = {**raw, "label": str(action)}
        if isinstance(action, A.LaySet):
            item["points"] = set_points(action.cards)
        labelled.append(item)
    data["legal_actions"] = labelled
    for p, player in enumerate(data["players"]):
        player["new_cards"] = _new_cards(game, p) if player["hand"] is not None else []
    if game.result is not None:
        data["result"]["text"] = game.result.describe()
    return data


def _new_cards(game: Game, player: int) -> list[str]:
    """The cards that entered `player`'s hand this turn (drawn, stolen, replenished) and are still
    there, while it is that player's turn: the widget marks them. Read only for a hand the
    perspective sees, so it tells nothing more.
    """
    if game.phase in ("needle", "over") or game.to_move != player:
        return []
    hand = game.hand(player)
    new: list[str] = []
    for event in reversed(game.history):
        if event.player != player or event.turn != game.turn:
            break
        new[:0] = [c.code for c in event.cards if c in hand]
    return new


def events(game: Game, perspective: Perspective) -> list[dict[str, Any]]:
    """One narrated line per action: {"step": k (the step after it), "turn", "player", "text"}; the
    action that ended the round also carries "over": True (public: its text says so), so a screen
    stepped back in a finished game knows the round is over and where it ended.
    """
    out = [
        {"step": k + 1, "turn": e.turn, "player": e.player, "text": text}
        for k, (e, text) in enumerate(zip(game.history, narrate(game, perspective), strict=False))
    ]
    if out and game.phase == "over":
        out[-1]["over"] = True
    return out


def info(game: Game, perspective: Perspective) -> dict[str, Any]:
    """The info panel: a player's knowledge figures, or the teacher's omniscient summary. While the
    opponent has not picked a needle, a player's `opponent_needle` is only {"waiting": words}: odds of
    a card not yet chosen are not figures to show.
    """
    if perspective == "teacher":
        summary = knowledge.teacher_summary(game)
        summary["players"] = [_waiting(game, p, figures) for p, figures in enumerate(summary["players"])]
        return _rounded({"kind": "teacher", **summary, "pile_top": [c.code for c in game.draw_pile[:5]]})
    if perspective in (0, 1):
        return _rounded({"kind": "player", **_waiting(game, perspective, knowledge.for_player(game, perspective))})
    return {"kind": "spectator"}


def _waiting(game: Game, player: int, figures: dict[str, Any]) -> dict[str, Any]:
    """`player`'s figures, with only words for the opponent's needle while it is not picked (public)."""
    opponent = 1 - player
    if game.phase == "needle" and game.needle(opponent) is None:
        figures["opponent_needle"] = {"waiting": f"{player_name(opponent)} has not picked a needle yet: "
                                                 "the odds of where it is appear once it has."}
    return figures
