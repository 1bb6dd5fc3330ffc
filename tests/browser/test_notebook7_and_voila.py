"""The play widget where classes run it besides JupyterLab: the Notebook 7 UI (on the JupyterLab
tests' server) and Voila (notebook 01 served as an app, no code shown). A whole turn is played
by clicking in each, and light screenshots are kept in the artifacts folder.
"""

from __future__ import annotations

import importlib.util
import json
import os
import re
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Locator, Page, expect

from .axe import audit
from .conftest import ARTIFACTS, KERNEL_READY, REQUIRED, _free_port, stop_server, wait_until_up, write_notebook
from .test_widget_in_jupyterlab import PLAY_CELLS, kernel_print, set_theme, widget_root

REPO = Path(__file__).resolve().parents[2]
PLAY_NOTEBOOK = "notebooks/01_play.ipynb"


def _need(module: str) -> None:
    """Skip without `module` (the `notebook` or `voila` package), or fail where NEEDLE_REQUIRE_BROWSER=1."""
    if importlib.util.find_spec(module) is None:
        message = f"{module} is not installed (pip install -e '.[dev]')"
        if REQUIRED:
            pytest.fail(f"NEEDLE_REQUIRE_BROWSER=1 but {message}")
        pytest.skip(message)


# The session server is started with --LabApp.expose_app_in_browser only: turn Notebook 7's
# exposeAppInBrowser on in the page itself, once parsed and before its deferred scripts run, so that
# KERNEL_READY sees window.jupyterapp. (Rewriting the response with page.route would make Chromium
# treat the page as non-local and block its websockets to 127.0.0.1.)
EXPOSE_APP = """document.addEventListener('readystatechange', () => {
  const el = document.getElementById('jupyter-config-data');
  if (document.readyState !== 'interactive' || !el) return;
  const config = JSON.parse(el.textContent);
  config.exposeAppInBrowser = true;
  el.textContent = JSON.stringify(config);
});"""


def test_play_a_whole_turn_in_notebook7(jupyter: dict, page: Page) -> None:
    _need("notebook")
    page.set_default_timeout(60_000)
    expect.set_options(timeout=60_000)
    page.set_viewport_size({"width": 1500, "height": 1700})
    name = "nb7-play.ipynb"
    write_notebook(jupyter["root"] / name, PLAY_CELLS)
    url = f"{jupyter['base']}/notebooks/{name}"
    page.add_init_script(EXPOSE_APP)
    page.goto(f"{url}?token={jupyter['token']}")
    expect(page.locator("body[data-notebook='notebooks']")).to_have_count(1)  # the Notebook 7 UI, not Lab
    expect(page.locator(".jp-NotebookPanel:not(.lm-mod-hidden) .jp-Cell")).to_have_count(len(PLAY_CELLS))
    page.wait_for_function(KERNEL_READY)
    page.get_by_role("menuitem", name="Run", exact=True).click()
    page.get_by_role("menuitem", name=re.compile(r"^Run All Cells")).click()
    root = widget_root(page)
    expect(root).to_have_count(1)
    expect(root.locator(".nw-mode")).to_have_text("Playing")
    root.get_by_role("grid", name="Pick your needle").get_by_role("button", name="king of spades").click()
    draw = root.get_by_role("button", name="Draw from pile")
    expect(draw).to_be_enabled()
    set_theme(page, dark=False)
    shoot(root, "notebook7-play-light.png")
    hand = root.locator(".nw-zone-bottom .nw-hand")  # a group of cards, a grid while cards are selected (issue 33)
    expect(hand).to_have_attribute("aria-label", "Player 1's hand: 7 cards")
    draw.click()
    expect(hand).to_have_attribute("aria-label", "Player 1's hand: 8 cards")
    for card in ("4 of clubs", "5 of hearts", "6 of hearts"):
        hand.get_by_role("button", name=re.compile(f"^{card}")).click()
    lay = root.get_by_role("button", name="Lay set")
    expect(lay).to_contain_text("1 point")
    lay.click()
    sets = root.get_by_role("list", name="Player 1's sets")
    expect(sets.get_by_role("listitem")).to_have_count(1)
    expect(sets).to_contain_text("1 point")
    root.get_by_role("button", name="Done laying sets").click()
    expect(root.locator(".nw-controls-discard")).to_be_visible()  # else a card clicked first is unselected
    hand.get_by_role("button", name=re.compile("^9 of spades")).click()
    root.get_by_role("button", name="Discard", exact=True).click()
    expect(root.locator(".nw-status-line")).to_have_text("Turn 3 · Player 1 draws a card")  # the bot played
    expect(root.get_by_role("button", name="Draw from pile")).to_be_enabled()
    expect(hand.get_by_role("button", name=re.compile("^9 of spades"))).to_have_count(0)
    expect(root.locator(".nw-scoreline .nw-sr")).to_have_text(re.compile(r"^Score: Player 1 1,"))
    out = kernel_print(page, 1)
    turn, phase, to_move, *_ = out.replace("[", " ").replace("]", " ").replace(",", " ").replace("'", " ").split()
    assert (int(turn), phase, int(to_move)) == (3, "draw", 0), out
    assert "4♣" in out and "6♥" in out and out.endswith("K♠"), out
    shoot(root, "notebook7-play-light-turn3.png")


@pytest.fixture(scope="module")
def voila(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """`voila notebooks/01_play.ipynb` on a free port, no token; its base URL."""
    _need("voila")
    home = tmp_path_factory.mktemp("voila")
    env = {**os.environ, "JUPYTER_CONFIG_DIR": str(home / "config"), "JUPYTER_RUNTIME_DIR": str(home / "runtime"),
           "IPYTHONDIR": str(home / "ipython")}
    env.pop("ANYWIDGET_HMR", None)
    port = _free_port()
    base = f"http://127.0.0.1:{port}"
    log_path = home / "voila.log"
    with open(log_path, "w") as log:
        proc = subprocess.Popen(
            [sys.executable, "-m", "voila", PLAY_NOTEBOOK, "--no-browser", f"--port={port}",
             "--Voila.ip=127.0.0.1", "--Voila.port_retries=0", "--Voila.auto_token=False",
             "--VoilaConfiguration.show_tracebacks=True"],
            cwd=REPO, env=env, stdout=log, stderr=subprocess.STDOUT, start_new_session=True)
    # A static file: asking for the page itself would start a kernel.
    wait_until_up(proc, f"{base}/voila/static/voila.js", "voila", log_path, 60, lambda: stop_server(proc))
    yield base
    stop_server(proc)



def test_play_a_whole_turn_in_voila(voila: str, page: Page) -> None:
    page.set_default_timeout(60_000)
    expect.set_options(timeout=60_000)
    page.set_viewport_size({"width": 1500, "height": 1700})
    page.goto(voila, timeout=110_000)  # voila runs every cell before it answers
    roots = page.locator(".nw-root")
    play = roots.filter(has=page.locator(".nw-mode", has_text=re.compile("^Playing$")))
    expect(play).to_have_count(1, timeout=110_000)
    # A student gets an app: the markdown and the outputs, no code.
    expect(page.locator(".jp-MarkdownCell").first).to_be_visible()
    assert page.locator(".jp-CodeCell").count() > 0
    expect(page.locator(".jp-CodeCell:not(.jp-mod-noInput)")).to_have_count(0)
    expect(page.locator(".jp-CodeCell .jp-InputArea, .jp-InputPrompt, .cm-editor, .CodeMirror")).to_have_count(0)
    book = json.loads((REPO / PLAY_NOTEBOOK).read_text())
    play_line = next(line.strip() for cell in book["cells"] if cell["cell_type"] == "code"
                     for line in "".join(cell["source"]).splitlines() if "NeedleWidget.play(" in line)
    assert play_line not in page.locator("body").inner_text()
    picker = play.get_by_role("grid", name="Pick your needle")
    needle = picker.locator("button:not([aria-disabled=true])").first
    needle_name = needle.get_attribute("aria-label")
    needle.click()
    draw = play.get_by_role("button", name="Draw from pile")
    expect(draw).to_be_enabled()
    expect(play.get_by_role("img", name=f"{needle_name}, Player 1's needle")).to_have_count(1)
    play.scroll_into_view_if_needed()
    shoot(play, "voila-play-light.png")
    page.screenshot(path=str(_artifact("voila-page-light.png")), animations="disabled")
    hand = play.locator(".nw-zone-bottom .nw-hand")  # a group of cards, a grid while cards are selected (issue 33)
    expect(hand).to_have_attribute("aria-label", "Player 1's hand: 7 cards")
    draw.click()
    expect(hand).to_have_attribute("aria-label", "Player 1's hand: 8 cards")
    play.get_by_role("button", name="Done laying sets").click()
    expect(play.locator(".nw-controls-discard")).to_be_visible()  # else a card clicked first is unselected
    card = hand.get_by_role("button").first
    discarded = card.get_attribute("data-card")
    card.click()
    play.get_by_role("button", name="Discard", exact=True).click()
    expect(play.locator(".nw-status-line")).to_have_text("Turn 3 · Player 1 draws a card")  # the bot played
    expect(play.get_by_role("button", name="Draw from pile")).to_be_enabled()
    expect(hand.locator(f"[data-card='{discarded}']")).to_have_count(0)
    expect(play.locator(".nw-discard .nw-count")).to_have_text("2 cards")  # mine and the bot's
    shoot(play, "voila-play-light-turn3.png")
    play.get_by_role("button", name="Show all discards").click()
    expect(play.locator(".nw-discard-list li").first.locator(f"[data-card='{discarded}']")).to_have_count(1)


def _artifact(name: str) -> Path:
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    return ARTIFACTS / name


def shoot(root: Locator, name: str) -> Path:
    """`root` as shown, in the artifacts folder; and its accessibility audit (axe.py)."""
    path = _artifact(name)
    root.screenshot(path=str(path), animations="disabled")
    audit(root.page, root, path.stem)
    return path
