"""The front end installed from the wheel, in a venv with no Node, renders in Chromium (issue 13, item 4):
a page `needle-widget export` wrote there, opened from disk, and the installed widget.js loaded by hand
as anywidget loads it.

The wheel and its venv: tests/wheel_env.py (built once per run, shared with tests/test_wheel.py).
"""

from __future__ import annotations

from pathlib import Path

import pytest
from playwright.sync_api import Page, Route, expect
from wheel_env import WheelEnv, wheel_env

ORIGIN = "http://wheel.test"

# anywidget's contract, by hand: a model whose `table` is null renders the "Loading the game…" screen.
MODULE_PAGE = """<!doctype html>
<html><head><meta charset="utf-8"><link rel="stylesheet" href="widget.css"></head>
<body><div id="host"></div>
<script type="module">
  const state = { table: null, perspectives: [], step: 0, steps: 0 };
  const listeners = {};
  const model = {
    get: (name) => state[name],
    set: (name, value) => { state[name] = value; },
    on: (event, callback) => { (listeners[event] ||= []).push(callback); },
    off: (event, callback) => { listeners[event] = (listeners[event] || []).filter((c) => c !== callback); },
    send: (msg) => { (window.sent ||= []).push(msg); },
    save_changes: () => {},
  };
  try {
    const widget = (await import("./widget.js")).default;
    await widget.render({ model, el: document.getElementById("host") });
    window.rendered = true;
  } catch (error) {
    window.failure = String(error && error.stack || error);
  }
</script></body></html>"""


@pytest.fixture(scope="module")
def wheel(tmp_path_factory: pytest.TempPathFactory) -> WheelEnv:
    return wheel_env(tmp_path_factory)


def serve(page: Page, files: dict[str, Path | str]) -> None:
    """Answer ORIGIN/<name> from `files` (a path or the text itself): a page with an origin, no server."""
    types = {".html": "text/html", ".js": "text/javascript", ".css": "text/css"}

    def answer(route: Route) -> None:
        name = route.request.url.removeprefix(ORIGIN + "/").split("?")[0] or "index.html"
        if name not in files:
            route.fulfill(status=404, body="")
            return
        body = files[name]
        route.fulfill(status=200, content_type=types[Path(name).suffix] + "; charset=utf-8",
                      body=body.read_bytes() if isinstance(body, Path) else body)

    page.route(f"{ORIGIN}/**", answer)


def test_the_installed_bundle_renders_as_an_anywidget_module(page: Page, wheel: WheelEnv) -> None:
    static = wheel.static
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    serve(page, {"index.html": MODULE_PAGE, "widget.js": static / "widget.js", "widget.css": static / "widget.css"})
    page.goto(f"{ORIGIN}/index.html")
    page.wait_for_function("() => window.rendered || window.failure", timeout=30_000)
    assert page.evaluate("window.failure || null") is None
    root = page.locator("#host .nw-root")
    expect(root).to_contain_text("Needle in a Card Stack", timeout=30_000)
    expect(root).to_contain_text("Loading the game…")
    # The wheel's stylesheet applies too (it defines the --nw-* colours on .nw-root).
    assert page.evaluate("getComputedStyle(document.querySelector('.nw-root')).getPropertyValue('--nw-felt')").strip()
    assert errors == []


def test_a_page_exported_in_the_venv_renders_from_disk(page: Page, wheel: WheelEnv, tmp_path: Path) -> None:
    replay = wheel.static.parent / "replays" / "found_early.json"
    html = tmp_path / "game.html"
    wheel.run([str(wheel.bin / "needle-widget"), "export", str(replay), "--perspective", "1", "-o", str(html)])
    errors: list[str] = []
    elsewhere: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.on("request", lambda request: None if request.url.startswith(("file:", "data:", "blob:"))
            else elsewhere.append(request.url))
    page.goto(html.as_uri())
    root = page.locator(".nw-root").first
    expect(root).to_contain_text("Needle in a Card Stack", timeout=30_000)
    expect(root).to_contain_text("Step 0 of 16")
    root.focus()
    page.keyboard.press("End")
    expect(root).to_contain_text("Step 16 of 16")
    assert errors == []
    assert elsewhere == [], "the exported page is not self-contained"

