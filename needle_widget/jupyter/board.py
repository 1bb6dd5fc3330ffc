"""BoardWidget: the teacher's board of a class (`room.board()`): who joined and answered, the
answers' distribution, the class's calibration, Reveal, and the challenge's ranking.

The room computes the board (`room.board_state(view)`) and says when it changed (`room.subscribe`);
this widget copies it into `board` and passes the browser's requests to `room.board_request`,
except the switch between the teacher's view and the projector's, which is its own.
"""

from __future__ import annotations

import html
from typing import Any, Protocol

import anywidget
import traitlets

from ..engine.errors import ArgumentError
from ..screen.contract import BOARD
from ..screen.session import quote
from .answering import Answering, no_jsnull
from .bundles import bundle
from .onloop import OnLoop, stop_following
from .traits import traits_of

__all__ = ["BoardWidget", "Room", "VIEWS"]

VIEWS = ("teacher", "projector")
"""The board's views: the teacher's (names) and the projector's (counts and distributions, no names)."""
_MISSING = """export default { render({ el }) {
  el.textContent = "needle_widget's board is not built: run `pip install -e .` in the project folder."; } };"""


class Room(Protocol):
    """What `BoardWidget` needs of a classroom room."""

    def board_state(self, view: str) -> dict[str, Any]:
        """The board, as the schema of the contract, for `view`."""

    def subscribe(self, callback: Any) -> Any:
        """Call `callback()` (from any thread) after each change; returns the unsubscribe."""

    def board_request(self, message: dict[str, Any]) -> None:
        """{"kind": "reveal"} or {"kind": "open", "name": ...}; a refusal raises a NeedleError."""

    def open_replay(self, name: str) -> Any:
        """The widget of `name`'s challenge replay (teacher's perspective)."""


def check_view(view: Any) -> str:
    """`view` checked: "teacher" or "projector"."""
    if view not in VIEWS:
        raise ArgumentError(f"view must be 'teacher' or 'projector', not {quote(view)}")
    return view


class BoardWidget(Answering, anywidget.AnyWidget):
    """The board of a class room: `BoardWidget(room, view="teacher")` (what `room.board()` returns).

    `board` follows the room (on the kernel's event loop when one runs). The browser's "Reveal" and
    "Open replay" go to the room (a refusal to `error` and `answer`); an opened replay is shown under
    the board (`replays`, an Output widget) and kept in `opened`. `view` ("teacher" | "projector")
    switches what is shown: the projector's view has no names.
    """

    _esm = bundle("board.js", _MISSING)
    _css = bundle("board.css", "")

    locals().update(traits_of(BOARD))  # board, view, error, answer: the screen contract's BOARD

    def __init__(self, room: Room, view: str = "teacher", **kwargs: Any) -> None:
        needs = ("board_state", "subscribe", "board_request", "open_replay")
        missing = [name for name in needs if not callable(getattr(room, name, None))]
        if missing:
            raise ArgumentError(f"BoardWidget needs a classroom Room, not {quote(room)}: "
                                f"it has no {', '.join(missing)}")
        self._room, self._closed = room, False
        self.opened: Any = None
        """The replay widget opened last ("Open replay"), or None."""
        view = check_view(view)
        super().__init__(view=view, board=room.board_state(view), **kwargs)
        self._replays: Any = None
        self._hop = OnLoop(self._pull)
        self._unsubscribe = room.subscribe(self._hop)
        self._pull()
        self.observe(lambda _change: self._pull(), names=["view"])
        self.on_msg(self._on_message)

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
        self._python({"kind": "reveal"})

    def open_replay(self, name: str) -> Any:
        """Open `name`'s challenge replay in the teacher's view, under the board; returns its widget."""
        self._python({"kind": "open", "name": name})
        return self.opened

    @traitlets.validate("view")
    def _valid_view(self, proposal: dict) -> str:
        return check_view(proposal["value"])

    def _python(self, message: dict[str, Any]) -> None:
        try:
            self._handle(message["kind"], message)
        finally:
            self._pull()

    def _pull(self) -> None:
        """Copy the room's board for the view shown into `board`."""
        if self._closed:
            return
        with self.hold_sync(), self._errors_shown("the board"):
            self.board = self._room.board_state(self.view)

    def _on_message(self, _widget: Any, content: Any, _buffers: Any = None) -> None:
        with self.hold_sync():
            self._answer(no_jsnull(content), self._handle, after=lambda _kind: self._pull())

    def _handle(self, kind: str, content: dict[str, Any]) -> None:
        if kind == "view":
            self.view = check_view(content.get("view"))
            return
        message = {key: value for key, value in content.items() if key != "id"}
        self._room.board_request(message)
        if kind == "open":
            name = message["name"]  # there: board_request checked that it names a challenge game
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
            stop_following(self)
            for widget in (self.__dict__.get("opened"), self.__dict__.get("_replays")):
                if widget is not None and hasattr(widget, "close"):
                    widget.close()
        finally:
            layout = self.__dict__.get("_trait_values", {}).get("layout")
            super().close()
            if layout is not None:
                layout.close()

    def __repr__(self) -> str:
        board = self.board or {}
        return f"BoardWidget(room={board.get('room')!r}, view={self.view!r})"
