"""PanelMethods: `NeedleWidget`'s panels from Python: the possible worlds, the game's graph and the
review (with its settings and its exercises).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from ..engine.errors import ArgumentError
from ..engine.seats import as_named
from ..engine.views import Perspective
from ..review.exercises import Exercise
from ..screen.plugin import Feature
from ..screen.reviewpanel import ReviewPanel, check_worlds
from ..screen.session import quote

if TYPE_CHECKING:
    from ..screen.desk import Desk
    from ..screen.session import Session

__all__ = ["PanelMethods"]


class PanelMethods:
    """A mixin of `NeedleWidget`: open, close and set the panels from Python; from Python a panel is computed at
    once. It needs of the widget `_desk` (its `analysis` holds the worlds and the graph), `_session` (the
    perspective shown), `_features` (the review is one) and `_python(change, ...)`, which makes a change from
    Python (errors raised, every open view following).
    """

    if TYPE_CHECKING:
        _desk: Desk
        _features: tuple[Feature, ...]

        @property
        def _session(self) -> Session: ...

        def _python(self, change: Callable[..., None], *args: Any, **kwargs: Any) -> None: ...

    def show_worlds(self, seat: Perspective | None = None, model: str | None = None, seed: int | None = None) -> None:
        """Open the possible-worlds panel at the shown step: the worlds `seat` cannot tell apart (a
        player's perspective shows its own; the teacher's chooses, default Player 1, beside the real
        one), the opponent modelled as `model` ("random" or "greedy"), drawn from `seed`.
        """
        self._python(self._desk.analysis.show_worlds, self._session.perspective, True, as_named(seat), model, seed)

    def close_worlds(self) -> None:
        """Close the possible-worlds panel."""
        self._python(self._desk.analysis.show_worlds, self._session.perspective, False)

    def resample(self) -> None:
        """Other possible worlds (the seed goes up by one)."""
        self._python(self._desk.analysis.resample)

    def play_out(self) -> None:
        """Play the possible worlds out with bots: the seat's win / draw / loss shares (`worlds["playout"]`)."""
        self._python(self._desk.analysis.play_out)

    def show_graph(self, seat: int | None = None, model: str | None = None) -> None:
        """Draw the game's graph for `seat` (a player's perspective: its own; the teacher's chooses):
        its win share from its own view at every step, and its belief in the opponent's true needle.
        From Python every step is computed at once; from the browser it fills in between requests.
        """
        self._python(self._desk.analysis.show_graph, self._session.perspective, True, as_named(seat), model)

    def close_graph(self) -> None:
        """Close the game's graph (its figures stay cached)."""
        self._python(self._desk.analysis.show_graph, self._session.perspective, False)

    @property
    def _review(self) -> ReviewPanel:
        return next(f for f in self._features if isinstance(f, ReviewPanel))

    def show_review(self, worlds: int | None = None) -> None:
        """Open the review: each decision of the seats the shown perspective may see marked (best, good,
        inaccuracy ?!, mistake ?, blunder ??), a summary per seat and the ledger of skill and luck
        (`needle_widget.review`). A player sees its own seat's review once the round is over (never
        during a live round, a quiz not yet done, or spoiler-free review short of the end), the opponent's
        only when everything is revealed at the end; the teacher sees both (`ReviewPanel.seats`); until
        then the panel says why it is empty. `worlds`: worlds per decision (default
        `review.DEFAULT_WORLDS`; fewer is faster and noisier). From Python the review is computed at
        once; from the browser it fills in between requests, one decision at a time.
        """
        self._python(self._review.show, self._session.perspective, True, worlds)

    def close_review(self) -> None:
        """Close the review (what was computed stays cached)."""
        self._python(self._review.show, self._session.perspective, False)

    @property
    def review_worlds(self) -> int:
        """The review's budget: worlds per decision (default `review.DEFAULT_WORLDS`), for the review opened
        from Python or from the browser; set it before opening (fewer is faster and noisier).
        """
        return self._review.worlds

    @review_worlds.setter
    def review_worlds(self, worlds: int) -> None:
        self._python(setattr, self._review, "worlds", check_worlds(worlds))

    @property
    def review_thresholds(self) -> tuple[float, float, float]:
        """The marks' thresholds in points of win chance (inaccuracy, mistake, blunder; default (3, 6, 12)): a
        teacher's setting, said in the review panel's footnote; set it before opening the review.
        """
        return self._review.thresholds

    @review_thresholds.setter
    def review_thresholds(self, points: tuple[float, float, float]) -> None:
        self._python(self._review.set_thresholds, points)

    @property
    def review_inaccuracies(self) -> bool:
        """Whether `exercises()` includes the review's inaccuracies (default False: mistakes and blunders): a
        teacher's setting, said in the review panel's footnote.
        """
        return self._review.inaccuracies

    @review_inaccuracies.setter
    def review_inaccuracies(self, value: bool) -> None:
        if not isinstance(value, bool):
            raise ArgumentError(f"review_inaccuracies must be True or False, not {quote(value)}")
        self._python(setattr, self._review, "inaccuracies", value)

    def exercises(self) -> list[Exercise]:
        """The review's marked decisions as exercises (`review.exercises`), of the finished reviews this screen may
        see: mistakes and blunders, and inaccuracies too with `review_inaccuracies`. For
        `NeedleWidget.practice(w.exercises(), student=...)`.
        """
        return self._review.exercises(self._session.perspective)
