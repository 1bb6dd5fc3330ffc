"""The desk's panels as features, like the notes and the review: the possible worlds, the game's graph,
"Play from here" (a branch) and "New game". Each declares its trait and its part of `offers`, and answers
its requests; the desk (`desk.Desk`, `desk.Analysis`) does the work and keeps what must outlive a branch.
"""

from __future__ import annotations

from typing import Any

from ..engine.errors import ArgumentError, PerspectiveError
from ..engine.seats import Perspective, player_name
from . import guard
from .desk import DEALS, HOTSEAT, Desk
from .plugin import Feature, Trait, request
from .session import quote

__all__ = ["BranchPanel", "GraphPanel", "NewGamePanel", "PANELS", "WorldsPanel"]


class _Panel(Feature):
    def __init__(self, desk: Desk) -> None:
        self._desk = desk


class BranchPanel(_Panel):
    """"Play from here": `offers["branch"]`, the `branch_info` trait, and the branch and back requests."""

    name = "branch"
    absent = "a branch"
    traits = {"branch_info": Trait(None, """In a branch ("play from here"): {from_step, world: "real" | "sampled",
        seat, opponent, back, text: "Branch from step 34: the real cards"} (the replay's seed is named to the
        teacher only); else None.""", fixed=True)}

    def synced(self, perspective: Perspective) -> dict[str, Any]:
        """The branch shown, if any."""
        return {"branch_info": self._desk.branch_info()}

    def offers(self, perspective: Perspective, game: Any = None) -> dict[str, Any]:
        """What "Play from here" may start now."""
        return {"branch": self._desk.branch_offer(game)}

    @request("branch", "seat", "opponent", "world")
    def request_branch(self, seat: Any, opponent: Any, world: Any) -> None:
        """{kind: "branch", seat, opponent (a built-in bot's name or "hotseat"), world}: checked against `offers`."""
        desk = self._desk
        offer = desk.branch_offer()
        if offer["reason"] is not None:
            raise ArgumentError(f"Cannot play from here: {offer['reason'][0].lower()}{offer['reason'][1:]}")
        if type(seat) is not int or seat not in offer["seats"]:
            raise PerspectiveError(f"Cannot play from here as {quote(seat)}: this screen may play "
                                   + (", ".join(player_name(p) for p in offer["seats"]) or "no seat"))
        if world not in offer["worlds"]:
            raise PerspectiveError(f"Cannot play from here with world {quote(world)}: this screen may choose "
                                   + " or ".join(map(repr, offer["worlds"])))
        bots = guard.builtin_bots()
        if opponent != HOTSEAT and (not isinstance(opponent, str) or opponent not in bots):
            raise ArgumentError(f"Cannot play against {quote(opponent)}: choose {', '.join(bots)} or {HOTSEAT!r}")
        made = desk.branches_made
        desk.branch(seat, HOTSEAT if opponent == HOTSEAT else bots[opponent](seed=made), world, seed=made)

    @request("back")
    def request_back(self) -> None:
        """{kind: "back"}: leave the branch."""
        self._desk.back()


class WorldsPanel(_Panel):
    """The possible worlds: the `worlds` trait, `offers["worlds"]`, and the worlds, resample and playout
    requests (the shown session's `Analysis` computes them).
    """

    name = "worlds"
    absent = "the possible worlds"
    traits = {"worlds": Trait(None, """The possible-worlds panel (`whatif.worlds_panel` for the shown step and
        seat) with status "computing" | "ready" | "failed" and playout (None, or `whatif.playout` with its
        status); None when closed.""", fixed=True)}

    def synced(self, perspective: Perspective) -> dict[str, Any]:
        """The panel for the shown step and seat, or None."""
        return {"worlds": self._desk.analysis.worlds_state(perspective)}

    def offers(self, perspective: Perspective, game: Any = None) -> dict[str, Any]:
        """Whose worlds, under which models, and why not."""
        return {"worlds": self._desk.analysis.offers(perspective)["worlds"]}

    @request("worlds", "open", "seat", "model")
    def request_worlds(self, open_: Any, seat: Any = None, model: Any = None) -> None:
        """{kind: "worlds", open, seat?, model?}: open or close the possible-worlds panel."""
        self._desk.analysis.show_worlds(self._desk.session.perspective, open_, seat, model)

    @request("resample")
    def request_resample(self) -> None:
        """{kind: "resample"}: other worlds."""
        self._desk.analysis.resample()

    @request("playout")
    def request_playout(self) -> None:
        """{kind: "playout"}: play the worlds out."""
        self._desk.analysis.play_out()


class GraphPanel(_Panel):
    """The game's graph: the `graph` trait, `offers["graph"]`, and the graph request."""

    name = "graph"
    absent = "the game's graph"
    traits = {"graph": Trait(None, """The game's graph for one seat: {status, seat, model, n, done, total, steps,
        needle, points: [`whatif.graph_point`], markers: [`whatif.graph_markers`]}; None when closed.""",
        fixed=True)}

    def synced(self, perspective: Perspective) -> dict[str, Any]:
        """The graph of the seat shown, or None."""
        return {"graph": self._desk.analysis.graph_state(perspective)}

    def offers(self, perspective: Perspective, game: Any = None) -> dict[str, Any]:
        """Whose graph, under which models, and why not."""
        return {"graph": self._desk.analysis.offers(perspective)["graph"]}

    @request("graph", "open", "seat", "model")
    def request_graph(self, open_: Any, seat: Any = None, model: Any = None) -> None:
        """{kind: "graph", open, seat?, model?}: open or close the game's graph."""
        self._desk.analysis.show_graph(self._desk.session.perspective, open_, seat, model)


class NewGamePanel(_Panel):
    """"New game": `offers["new_game"]` and the new_game request (the desk deals and records the seeds)."""

    name = "newgame"
    absent = "a new game"

    def offers(self, perspective: Perspective, game: Any = None) -> dict[str, Any]:
        """Whether a new deal may start now, and which deals."""
        return {"new_game": {"reason": self._desk.new_game_reason(), "deals": list(DEALS)}}

    @request("new_game", "deal")
    def request_new_game(self, deal: Any = None) -> None:
        """{kind: "new_game", deal?: "new" (the default) | "same"}: a new deal, or the round just played
        dealt again (checked against `offers`).
        """
        if deal not in (None, *DEALS):
            raise ArgumentError(f"Cannot deal {quote(deal)}: choose {' or '.join(map(repr, DEALS))}")
        self._desk.new_game(same_deal=deal == "same")


PANELS: tuple[type[Feature], ...] = (BranchPanel, WorldsPanel, GraphPanel, NewGamePanel)
"""The desk's panels, in the order their offers were listed before they were features."""
