"""The plumbing of a browser request shared by the widgets: its id, the one place errors are
shown (`error`), and the answer (`answer`) to a request that carried an id.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from types import TracebackType
from typing import Any

import traitlets

from ..engine.errors import ArgumentError, NeedleError
from ..screen.contract import ANSWER, ERROR
from ..screen.session import quote
from .traits import slot_trait

__all__ = ["Answering", "MAX_ERROR", "MAX_REQUEST_ID", "answer_trait", "error_trait", "no_jsnull", "request_id"]

MAX_ERROR = 500
"""An error shown in the widget is cut to this many characters."""
MAX_REQUEST_ID = 2**31 - 1
"""A request's `id` is a whole number from 0 to this (the browser numbers its requests)."""
log = logging.getLogger("needle_widget")


def error_trait() -> traitlets.TraitType:
    """The `error` trait: the error line, {id, text} | None (`screen.contract.ERROR`)."""
    return slot_trait(ERROR)


def answer_trait() -> traitlets.TraitType:
    """The `answer` trait: Python's answer to the last request with an id, {id, ok, error} | None
    (`screen.contract.ANSWER`).
    """
    return slot_trait(ANSWER)


class Answering:
    """A mixin for an anywidget with `error` and `answer` traits: the browser sends requests (custom
    messages {kind, id, ...}) and never writes a trait; a refusal is shown in `error` and answered.
    """

    _error_id = 0
    error: Any
    """The error line, {id, text} | None (the widget's synced trait, `error_trait`)."""
    answer: Any
    """The answer to the last request with an id, {id, ok, error} | None (the widget's synced trait, `answer_trait`)."""

    def set_state(self, sync_data: object) -> None:
        """The browser may not write state; it sends requests."""
        names = ", ".join(sorted(map(str, sync_data))) if isinstance(sync_data, dict) else "?"
        self._show_error(f"Ignored a direct change of {names} from the browser; send a request instead.")

    def _answer(self, content: Any, handle: Callable[[str, dict], None],
                after: Callable[[str | None], None] | None = None) -> None:
        """Answer one request: `handle(kind, content)` does it (a NeedleError refuses it), `after(kind)`
        runs whether or not it was accepted, then `answer` names its id. The caller holds the sync, so
        the changes, the error line and the answer reach the browser in one update.
        """
        kind = content.get("kind") if isinstance(content, dict) else None
        ident, accepted = None, False
        with self._errors_shown(f"the {quote(kind)} request"):
            ident = request_id(content)
            if not isinstance(kind, str):
                raise NeedleError(f"Not a request: {quote(content)}")
            handle(kind, content)
            accepted = True
            if self.error is not None:
                self.error = None
        if after is not None:
            with self._errors_shown("updating the widget"):
                after(kind)
        if ident is not None:
            refusal = None if accepted or self.error is None else self.error["text"]
            self.answer = {"id": ident, "ok": accepted, "error": refusal}

    def _errors_shown(self, what: str) -> _ErrorsShown:
        """The one place errors reach the widget: a NeedleError's text, any other error as one
        short line (its traceback goes to the log); every text cut to MAX_ERROR characters.
        """
        return _ErrorsShown(self, what)

    def _show_error(self, text: str) -> None:
        self._error_id += 1
        self.error = {"id": self._error_id, "text": text if len(text) <= MAX_ERROR else text[: MAX_ERROR - 1] + "…"}


class _ErrorsShown:
    """`Answering._errors_shown(what)`: a block whose errors are shown in the widget, never raised (its
    `__exit__` returns a bool, so a type checker knows that the block may stop before its end).
    """

    def __init__(self, widget: Answering, what: str) -> None:
        self._widget, self._what = widget, what

    def __enter__(self) -> None:
        return None

    def __exit__(self, kind: type[BaseException] | None, error: BaseException | None,
                 traceback: TracebackType | None) -> bool:
        if isinstance(error, NeedleError):
            self._widget._show_error(str(error))
            return True
        if isinstance(error, Exception):
            log.error("needle_widget: %s failed", self._what, exc_info=error)
            self._widget._show_error(f"Something went wrong ({type(error).__name__}) with {self._what}; "
                                     "the details are in the kernel log.")
            return True
        return False


def request_id(content: Any) -> int | None:
    """The request's `id`, None if it has none; a bad id is refused (and so is the request)."""
    ident = content.get("id") if isinstance(content, dict) else None
    if ident is not None and (type(ident) is not int or not 0 <= ident <= MAX_REQUEST_ID):
        raise ArgumentError(f"A request id must be a whole number from 0 to {MAX_REQUEST_ID}, not {quote(ident)}")
    return ident


def no_jsnull(value: Any, depth: int = 0) -> Any:
    """A browser message's `null` as None: JupyterLite's Pyodide kernel hands it over as
    `pyodide.ffi.jsnull`. Deeper than a request goes, values are left as they are (and refused later).
    """
    if type(value).__name__ == "JsNull":
        return None
    if depth > 8:
        return value
    if isinstance(value, dict):
        return {key: no_jsnull(item, depth + 1) for key, item in value.items()}
    if isinstance(value, list):
        return [no_jsnull(item, depth + 1) for item in value]
    return value
