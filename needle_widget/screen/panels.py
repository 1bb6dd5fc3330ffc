"""The desk's panels as features, like the notes and the review: the possible worlds, the game's graph,
"Play from here" (a branch) and "New game". Each declares its trait and its part of `offers`, and answers
its requests; the desk (`desk.Desk`, `desk.Analysis`) does the work and keeps what must outlive a branch.
"""

from __future__ import annotations

from typing import Any

from ..engine.errors import ArgumentError, PerspectiveError
from ..engine.seats import Perspective, player_name
from . import display, guard
from .desk import DEALS, HOTSEAT, Desk
from .plugin import Feature, Trait, request
from .session import quote

__all__ = ["BranchPanel", "GraphPanel", "LinesPanel", "NewGamePanel", "PANELS", "WorldsPanel"]


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


class LinesPanel(_Panel):
    """The variations kept beside the game (`Replay.variations`): the `variations` trait (those the screen's
    perspective of the real game may open, `Desk.real_perspective`, with their moves as it may know them, and the
    game's moves as it may know them), and the requests that open one, go back to the game, and promote, demote,
    rename or remove one (the teacher's view only).
    """

    name = "lines"
    absent = "the variations"
    traits = {"variations": Trait(None, """The variations the screen may open, for its perspective of the real game
        (`Desk.real_perspective`: in a branch the home's, whatever the branch shows): {current: the index of the one
        shown or None, from_step, label, source, list: [{index, label, step, end, source, real, events: [{step, turn,
        player, text}]}], main: the game's events while a variation is shown (else []), editable, reason,
        open_reason}; None when there are none and none is shown. A frame (a page, a class screen) carries the
        variations too, not editable.""")}

    CACHE = 256

    def __init__(self, desk: Desk) -> None:
        super().__init__(desk)
        self._events: dict[tuple, list[dict[str, Any]]] = {}
        self._main_key: tuple | None = None
        self._main_events: list[dict[str, Any]] = []

    def synced(self, perspective: Perspective) -> dict[str, Any]:
        """The variations, or None. They are the real game's: listed and narrated for the perspective the
        screen is entitled to for it (`Desk.real_perspective`), whatever `perspective` a branch shows.
        """
        desk = self._desk
        perspective = desk.real_perspective()
        lines = desk.lines(perspective)
        current = desk.line_index
        if not lines and current is None:
            return {"variations": None}
        book = desk.home.notes_book()
        items = [self._item(book, index, variation, perspective) for index, variation in lines]
        shown = next((item for item in items if item["index"] == current), None)
        if shown is None and current is not None:  # the branch's own line, not listed yet (no moves)
            shown = self._item(book, current, book.variations[current], perspective)
        main = self._main(perspective) if current is not None else []
        reason = desk.lines_editable(perspective)
        return {"variations": {
            "current": current, "from_step": shown["step"] if shown else None,
            "label": shown["label"] if shown else None, "source": shown["source"] if shown else None,
            "list": items, "main": main, "editable": reason is None, "reason": reason,
            "open_reason": desk.line_reason(),
        }}

    def _main(self, perspective: Perspective) -> list[dict[str, Any]]:
        """The game's events while a variation is shown, narrated once for each perspective and game (the
        game itself in the key, held: not its id).
        """
        whole = self._desk.home.whole()
        if self._main_key is None or self._main_key[0] != perspective or self._main_key[1] is not whole \
                or self._main_key[2] != len(whole):
            self._main_key, self._main_events = (perspective, whole, len(whole)), display.events(whole, perspective)
        return self._main_events

    def _item(self, book: Any, index: int, variation: Any, perspective: Perspective) -> dict[str, Any]:
        key = (perspective, variation)
        events = self._events.get(key)
        if events is None:
            events = display.events(book.line(variation).final_game, perspective)[variation.step:]
            if len(self._events) >= self.CACHE:
                self._events.clear()
            self._events[key] = events
        return {"index": index, "label": variation.label(index), "step": variation.step, "end": variation.end,
                "source": variation.source(), "real": variation.real, "events": events}

    @request("line", "variation", "to")
    def request_line(self, variation: Any, to: Any = None) -> None:
        """{kind: "line", variation: an index of `variations.list` or None (the game), to?}: show that line at
        step `to` (a variation's default: its first move; the game's: where it was).
        """
        if variation is None:
            desk = self._desk
            desk.main(desk.home.step if to is None else to)
        else:
            self._desk.open_line(variation, to)

    @request("line_edit", "variation", "how", "name")
    def request_line_edit(self, variation: Any, how: Any, name: Any = None) -> None:
        """{kind: "line_edit", variation, how: "promote" | "demote" | "rename" | "remove", name?}: the teacher's."""
        if how not in ("promote", "demote", "rename", "remove"):
            raise ArgumentError(f"Cannot {quote(how)} a variation: promote, demote, rename or remove it")
        if how != "rename" and name is not None:
            raise ArgumentError(f"A name is for renaming, not to {how}")
        self._desk.edit_line(variation, how, name)


PANELS: tuple[type[_Panel], ...] = (BranchPanel, WorldsPanel, GraphPanel, NewGamePanel, LinesPanel)
"""The desk's panels, in the order their offers were listed before they were features."""
