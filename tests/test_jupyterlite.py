"""What the widget needs in JupyterLite (Pyodide in the browser; docs/JUPYTERLITE.md): a browser
`null` arrives as `pyodide.ffi.jsnull`, and there are no threads for the panels' worker.
"""

from __future__ import annotations

import asyncio
import threading
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
    """As in a Python without threads: the pool cannot start its worker. Each job then runs on the
    loop, and the pool (which queued the first job before failing) is dropped, so nothing piles up.
    """
    refused: list[Any] = []

    def no_threads(self: Any) -> None:
        refused.append(self)
        raise RuntimeError("can't start new thread")

    monkeypatch.setattr(threading.Thread, "start", no_threads)

    async def run() -> tuple[list[int], Any]:
        w = NeedleWidget.from_replay(examples.load("found_early"), perspective=0, step=5)
        w._on_message(w, {"kind": "worlds", "open": True, "seat": None, "model": None, "id": 1})
        seen = []
        for k in (6, 7, 8, 9):
            w._on_message(w, {"kind": "step", "to": k, "id": k})
            for _ in range(100):
                await asyncio.sleep(0.02)
                if w.worlds["status"] == "ready" and w.worlds["step"] == k:
                    break
            seen.append(w.worlds["step"] if w.worlds["status"] == "ready" else -1)
        return seen, w._runner._pool

    seen, pool = asyncio.run(run())
    assert seen == [6, 7, 8, 9]
    assert len(refused) == 1 and pool is None  # tried once, then never again
