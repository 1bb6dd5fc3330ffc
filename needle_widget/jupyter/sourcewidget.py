"""SourceWidget: the one widget class that binds a screen source (`screen.source.Source`): the local screen, a
student's seat in a class, or the teacher's board.

It copies the source's `state()` into its synced traits (on the kernel's event loop, after each change the source
tells of, from any thread), answers the browser's requests through the source (`request`; a refusal is shown in
`error` and `answer`), and closes the source with itself. A subclass declares the traits and the front end
(`_esm`), and adds what its screen has in Python (`NeedleWidget`'s timers and methods, `FollowWidget`'s
navigation, `BoardWidget`'s opened replays).
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from contextlib import AbstractContextManager, nullcontext
from typing import Any

import anywidget

from ..engine.errors import ArgumentError
from ..screen.session import quote
from ..screen.source import Source
from .answering import Answering, no_jsnull
from .onloop import OnLoop

__all__ = ["SourceWidget"]

log = logging.getLogger("needle_widget")
OWN = frozenset({"error", "answer", "scale"})
"""The widget's own traits: never the source's."""
NEEDS = ("state", "request", "subscribe", "close")


class SourceWidget(Answering, anywidget.AnyWidget):
    """A widget bound to a screen source (see the module docstring). `_bind(source)` binds it, after the traits
    are made; `closes_source`: closing the widget closes the source too (a student's client: the class is left).
    """

    _source: Source | None = None
    _closed = False
    _hop: OnLoop | None = None
    _unsubscribe: Callable[[], None] | None = None
    closes_source = True

    def _check_source(self, source: Any, what: str) -> None:
        """Refuse an object that is no screen source (it lacks one of the protocol's methods)."""
        missing = [name for name in NEEDS if not callable(getattr(source, name, None))]
        if missing:
            raise ArgumentError(f"{type(self).__name__} needs {what}, not {quote(source)}: it has no "
                                f"{', '.join(missing)}")

    def _bind(self, source: Source, *, follow: bool = True) -> None:
        """Bind `source`: its changes reach the traits (when `follow`), the browser's requests reach it."""
        self._source = source
        self._names = frozenset(self.trait_names(sync=True)) - OWN
        if follow:
            self.on_changes(source.subscribe, self._pull)
        self.on_msg(self._on_message)

    def on_changes(self, subscribe: Callable[[Callable[[], None]], Callable[[], None]],
                   pull: Callable[[], None]) -> None:
        """Run `pull` on the kernel's loop after each change `subscribe` tells of (from any thread), and once now
        (a change between the first state and the subscription); closing the widget stops it.
        """
        self._hop = OnLoop(pull)
        self._unsubscribe = subscribe(self._hop)
        pull()

    def _source_state(self) -> dict[str, Any]:
        """The source's state, the traits this widget has (anything else is left out, with a log line)."""
        assert self._source is not None
        state = self._source.state()
        if not isinstance(state, dict):
            raise ArgumentError(f"A screen source's state must be a dict, not {quote(state)}")
        unknown = sorted(str(name) for name in state if name not in self._names)
        if unknown:
            log.debug("needle_widget: %s leaves out the state's %s", type(self).__name__, ", ".join(unknown))
        return {name: value for name, value in state.items() if name in self._names}

    def _pull(self) -> None:
        """Copy the source's state into the traits (only what changed reaches the browser, in one message)."""
        if self._closed or self._source is None:
            return
        with self.hold_sync(), self._errors_shown("updating the screen"):
            self._copy(self._source_state())

    def _copy(self, state: dict[str, Any]) -> None:
        for name, value in state.items():
            setattr(self, name, value)

    # ---- the browser's side -------------------------------------------------------------------------

    def _on_message(self, _widget: Any, content: Any, _buffers: Any = None) -> None:
        """One browser request, answered at once: the changes, the error line and (if it had an id) `answer`
        reach the browser in one update. A view's answer to a question of Python's (`_view_answer`) is no request.
        """
        content = no_jsnull(content)
        if isinstance(content, dict) and content.get("kind") == "picture":
            self._view_answer(content)
            return
        with self._changes(), self.hold_sync():
            self._answer(content, self._handle, after=self._after)

    def _view_answer(self, content: dict[str, Any]) -> None:
        """A view's answer to a question Python asked it (a picture): none is asked here."""

    def _changes(self) -> AbstractContextManager[Any]:
        """The context a request is answered in (`NeedleWidget`'s: its runner's own changes)."""
        return nullcontext()

    def _handle(self, kind: str, content: dict[str, Any]) -> None:
        """A request to the source, without the widget's `id`."""
        assert self._source is not None
        self._source.request({key: value for key, value in content.items() if key != "id"})

    def _after(self, kind: str | None) -> None:
        """After a request, accepted or not: the traits follow the source."""
        self._pull()

    def _ask(self, message: dict[str, Any]) -> None:
        """A request from Python: refusals are raised; the traits follow at once."""
        assert self._source is not None
        try:
            self._source.request(message)
        finally:
            self._pull()

    def close(self) -> None:
        """Stop following the source (and close it, `closes_source`), and close the widget."""
        self._closed = True
        hop, self._hop = self.__dict__.get("_hop"), None
        if hop is not None:
            hop.stop()
        unsubscribe, self._unsubscribe = self.__dict__.get("_unsubscribe"), None
        source = self.__dict__.get("_source")
        try:
            if callable(unsubscribe):
                unsubscribe()
            if source is not None and self.closes_source:
                source.close()
        finally:
            layout = self.__dict__.get("_trait_values", {}).get("layout")
            super().close()
            if layout is not None:
                layout.close()
