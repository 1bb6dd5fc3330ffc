"""`needle-widget bench class --browsers`: real pages (a private JupyterLab, headless Chromium) join the class
beside the student processes, and their figures get rows of their own (not checked for speed).
"""

from __future__ import annotations

import threading

import pytest

from needle_widget.apps.classbench import class_figures


@pytest.mark.slow
def test_class_figures_with_two_browser_students() -> None:
    # a thread of its own: pytest-playwright's sync Playwright may already run an asyncio loop in this one
    lines: list[str] = []
    result: dict = {}

    def run() -> None:
        try:
            result["figures"] = class_figures(students=3, steps=2, channels=("folder",), out=lines.append, browsers=2)
        except BaseException as error:  # reported below
            result["error"] = error

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    thread.join(timeout=400)
    assert not thread.is_alive(), "the bench did not finish in 400 s"
    if "error" in result:
        raise result["error"]
    assert "1 student processes + 2 browsers x 2 steps" in lines[0]
    names = [f.name for f in result["figures"]]
    assert sum("step to screen" in n for n in names) == 3
    assert sum("step to a browser's screen" in n for n in names) == 3
    assert all(f.unit == "ms" and f.value > 0 for f in result["figures"])
