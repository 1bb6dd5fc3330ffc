"""What the widget needs in JupyterLite (Pyodide in the browser; docs/JUPYTERLITE.md): a browser
`null` arrives as `pyodide.ffi.jsnull`, and there are no threads for the panels' worker.
"""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from needle_widget import NeedleWidget, examples


class JsNull:
    """Stands in for `pyodide.ffi.JsNull` (only its type's name is looked at)."""


def test_a_browser_null_from_pyodide_counts_as_none() -> None:
    w = NeedleWidget.from_replay(examples.load("found_early"), perspective="teacher", step=4)
    w._on_message(w, {"kind": "worlds", "open": True, "seat": JsNull(), "model": JsNull(), "id": 7})
    assert w.answer == {"id": 7, "ok": True, "error": None}
    assert w.worlds["status"] == "ready" and w.error is None
    w._on_message(w, {"kind": "act", "action": {"type": "discard", "card": JsNull()}, "id": 8})
    assert w.answer["ok"] is False and "jsnull" not in w.error["text"].lower()


def test_panels_are_computed_on_the_loop_where_threads_cannot_start(monkeypatch: pytest.MonkeyPatch) -> None:
    refused: list[Any] = []

    def no_threads(self: Any, executor: Any, func: Any, *args: Any) -> Any:
        refused.append(func)
        raise RuntimeError("can't start new thread")

    monkeypatch.setattr(asyncio.BaseEventLoop, "run_in_executor", no_threads)

    async def run() -> dict:
        w = NeedleWidget.from_replay(examples.load("found_early"), perspective=0, step=5)
        w._on_message(w, {"kind": "worlds", "open": True, "seat": None, "model": None, "id": 1})
        for _ in range(100):
            await asyncio.sleep(0.02)
            if w.worlds["status"] == "ready":
                break
        return w.worlds

    worlds = asyncio.run(run())
    assert worlds["status"] == "ready" and worlds["rows"] and refused
