"""BoardWidget: the teacher's board of a class (`room.board()`): who joined and answered, the
answers' distribution, the class's calibration, Reveal, and the challenge's ranking.

The room computes the board (`room.board_state(view)`) and says when it changed (`room.subscribe`); the
board's source (`classroom.boardsource.BoardSource`) holds the view shown and passes the other requests to
`room.board_request`; this widget binds it (`SourceWidget`) and shows the replays it opens.
"""

from __future__ import annotations

import html
from typing import Any, Protocol

import traitlets

from ..classroom.boardsource import VIEWS, BoardRoom, BoardSource, check_view
from ..engine.errors import ArgumentError
from ..screen.session import quote
from .bundles import bundle
from .screentraits import BoardTraits
from .sourcewidget import SourceWidget

__all__ = ["BoardWidget", "Room", "VIEWS", "check_view"]

_MISSING = """export default { render({ el }) {
  el.textContent = "needle_widget's board is not built: run `pip install -e .` in the project folder."; } };"""


class Room(BoardRoom, Protocol):
    """What `BoardWidget` needs of a classroom room: a board's (`BoardRoom`), and the replays it opens."""

    def open_replay(self, name: str) -> Any:
        """The widget of `name`'s challenge replay (teacher's perspective)."""


class BoardWidget(BoardTraits, SourceWidget):
    """The board of a class room: `BoardWidget(room, view="teacher")` (what `room.board()` returns).

    It binds the room's board as its source (`classroom.boardsource.BoardSource`): `board` follows the room (on
    the kernel's event loop when one runs). The browser's "Reveal" and "Open replay" go to the room (a refusal
    to `error` and `answer`); an opened replay is shown under the board (`replays`, an Output widget) and kept
    in `opened`. `view` ("teacher" | "projector") switches what is shown: the projector's view has no names.
    """

    _esm = bundle("board.js", _MISSING)
    _css = bundle("board.css", "")
    closes_source = False

    def __init__(self, room: Room, view: str = "teacher", **kwargs: Any) -> None:
        needs = ("board_state", "subscribe", "board_request", "open_replay")
        missing = [name for name in needs if not callable(getattr(room, name, None))]
        if missing:
            raise ArgumentError(f"BoardWidget needs a classroom Room, not {quote(room)}: "
                                f"it has no {', '.join(missing)}")
        source = BoardSource(room, view)
        self._room = room
        self.opened: Any = None
        """The replay widget opened last ("Open replay"), or None."""
        self._replays: Any = None
        super().__init__(**source.state(), **kwargs)
        self._bind(source)
        self.observe(self._view_set, names=["view"])

    @property
    def room(self) -> Room:
        """The room this board shows."""
        return self._room

    @property
    def replays(self) -> Any:
        """The output area under the board where an opened replay is shown (an ipywidgets Output)."""
        if self._replays is None:
            import ipywidgets

            self._replays = ipywidgets.Output()
        return self._replays

    def reveal(self) -> None:
        """Reveal the question asked, to every screen at once (as the board's Reveal button)."""
        self._ask({"kind": "reveal"})

    def open_replay(self, name: str) -> Any:
        """Open `name`'s challenge replay in the teacher's view, under the board; returns its widget."""
        self._ask({"kind": "open", "name": name})
        return self.opened

    @traitlets.validate("view")
    def _valid_view(self, proposal: dict) -> str:
        return check_view(proposal["value"])

    def _ask(self, message: dict[str, Any]) -> None:
        try:
            self._handle(message["kind"], message)
        finally:
            self._pull()

    def _view_set(self, change: dict[str, Any]) -> None:
        """`view` set from Python: the source shows it too."""
        source = self._source
        if isinstance(source, BoardSource) and source.view != change["new"]:
            source.request({"kind": "view", "view": change["new"]})
            self._pull()

    def _handle(self, kind: str, content: dict[str, Any]) -> None:
        super()._handle(kind, content)
        if kind == "open":
            name = content["name"]  # there: board_request checked that it names a challenge game
            self._show(self._room.open_replay(name), str(name))

    def _show(self, widget: Any, name: str) -> None:
        """Show an opened replay under the board, under a line naming whose it is (the Output captures
        it even from a browser's request).
        """
        from IPython.display import HTML, display

        previous, self.opened = self.opened, widget
        if previous is not None and previous is not widget and hasattr(previous, "close"):
            previous.close()
        self.replays.clear_output()
        with self.replays:
            display(HTML(f'<p class="nb-opened"><strong>{html.escape(name)}</strong>\'s challenge game, '
                         "in the teacher's view (every card)</p>"))
            display(widget)

    def _ipython_display_(self) -> None:
        """The board, and under it the area where an opened replay appears."""
        from IPython.display import display

        bundle = self._repr_mimebundle_()
        data, metadata = bundle if isinstance(bundle, tuple) else (bundle, {})
        display(data, metadata=metadata, raw=True)
        display(self.replays)

    def close(self) -> None:
        """Stop following the room, close an opened replay and the widget (the room stays open)."""
        try:
            for widget in (self.__dict__.get("opened"), self.__dict__.get("_replays")):
                if widget is not None and hasattr(widget, "close"):
                    widget.close()
        finally:
            super().close()

    def __repr__(self) -> str:
        board = self.board or {}
        return f"BoardWidget(room={board.get('room')!r}, view={self.view!r})"
