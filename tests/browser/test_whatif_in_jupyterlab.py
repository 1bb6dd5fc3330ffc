"""The "What if?" tools in a real JupyterLab, driven by headless Chromium: open a replay, go to a step,
play from there against a bot for one turn, go back, open the possible worlds and resample
them, play them out, open the graph and click on it to jump to a step. Variations: play from the
same step again in a world drawn from Player 1's view, so the move list holds two lines under that
step; switch between them by clicking their moves and with [ and ], rename and promote one, then save
the record from a cell and load it into a new widget in a new cell, which lists both. The kernel's
state is read after each part from a re-run print cell. Also records key-to-DOM latency with the
panels open and closed and how long each panel takes to appear (reported, never asserted),
and screenshots in the light and dark themes.
"""

from __future__ import annotations

import json
import re
import statistics

from playwright.sync_api import Locator, Page, expect

from .axe import audit
from .conftest import ARTIFACTS
from .test_widget_in_jupyterlab import kernel_print, open_notebook, set_theme, widget_root

CELLS = [
    "from needle_widget import NeedleWidget, Replay, examples\n"
    "w = NeedleWidget.from_replay(examples.load('long_with_reshuffle'), perspective='teacher', bot_delay=0.3)\n"
    "w",
    "print(w.mode, w.step, w.steps, w.branch_info and w.branch_info['from_step'], w.game.phase, w.game.to_move)",
    "print(w.worlds and (w.worlds['seed'], w.worlds['step'], w.worlds['status'], w.worlds['model'],\n"
    "                    w.worlds['playout'] and w.worlds['playout']['status']),\n"
    "      w.graph and (w.graph['status'], w.graph['done'], w.graph['total']))",
    "v = w.variations or {'current': None, 'list': []}\n"
    "print(w.mode, w.step, w.steps, v['current'],\n"
    "      *(f\"{x['index']}:{x['step']}-{x['end']}:\" + ('real' if x['real'] else 'world') for x in v['list']))",
]
SAVED = "variations.json"
SAVE_CELL = (f"w.replay.save({SAVED!r})\n"
             f"print(Replay.load({SAVED!r}).to_dict()['version'], len(Replay.load({SAVED!r}).variations))")
LOAD_CELL = f"w2 = NeedleWidget.from_replay(Replay.load({SAVED!r}), perspective='teacher')\nw2"
WORLD = "a possible world drawn from Player 1's view"
STEPS = 72
# Player 1 is to draw here (turn 9); after it draws, lays nothing and discards A♥, GreedyBot
# answers with a whole turn and the round goes on (checked in Python: examples.load(...).branch(33)).
FROM = 33
DISCARD = "AH"
# graph.js: the SVG's viewBox and the plot's margins inside it
GRAPH_W, GRAPH_PAD_LEFT, GRAPH_PAD_RIGHT = 720, 42, 14

WATCH = """() => {
  const root = document.querySelector('.jp-NotebookPanel:not(.lm-mod-hidden) .nw-root');
  const live = root.querySelector('.nw-live');
  const nw = window.__nw = {clicks: {}, marks: {}, want: {}, keys: [], shown: {}, before: ''};
  const rows = () => [...root.querySelectorAll('.nw-worlds-table tbody tr')];
  const tests = {
    worlds_rows: () => rows().length > 0,
    worlds_new_rows: () => rows().length > 0 && rows().map((r) => r.innerText).join('|') !== nw.before,
    graph_ready: () => {
      const g = root.querySelector('.nw-graph');
      return Boolean(g) && !g.querySelector('progress') && g.querySelector('.nw-busy-text').textContent === ''
        && !g.querySelector('.nw-whatif-error');
    },
  };
  nw.rowsText = () => rows().map((r) => r.innerText).join('|');
  const check = () => {
    const now = performance.now();
    for (const name of Object.keys(nw.want)) {
      if (!(name in nw.marks) && tests[name]()) nw.marks[name] = now;
    }
  };
  nw.watch = (name) => {
    delete nw.marks[name];
    nw.want[name] = true;
    if (name === 'worlds_new_rows') nw.before = nw.rowsText();
  };
  new MutationObserver(check).observe(root, {subtree: true, childList: true, attributes: true, characterData: true});
  root.addEventListener('click', (e) => {
    const keyed = e.target.closest && e.target.closest('[data-key]');
    if (keyed) nw.clicks[keyed.getAttribute('data-key')] = performance.now();
  }, true);
  root.addEventListener('change', (e) => {
    const keyed = e.target.closest && e.target.closest('[data-key]');
    if (keyed) nw.clicks[keyed.getAttribute('data-key')] = performance.now();
  }, true);
  new MutationObserver(() => {
    const m = /^Step (\\d+) of/.exec(live.textContent);
    if (m && !(m[1] in nw.shown)) nw.shown[m[1]] = performance.now();
  }).observe(live, {childList: true, characterData: true, subtree: true});
  root.addEventListener('keydown', (e) => { if (e.key === 'ArrowRight') nw.keys.push(performance.now()); }, true);
}"""


def key(root: Locator, name: str) -> Locator:
    return root.locator(f'[data-key="{name}"]')


def state(page: Page, cell: int) -> list[str]:
    """The kernel's answer from print cell `cell`, as words (no brackets, commas or quotes)."""
    return re.sub(r"[()\[\],']", " ", kernel_print(page, cell)).split()


def live_at(step: int, steps: int = STEPS) -> re.Pattern[str]:
    return re.compile(rf"^Step {step} of {steps}:")


FITS = """e => {
  let p = e.parentElement;
  while (p && !/(auto|scroll)/.test(getComputedStyle(p).overflowY)) p = p.parentElement;
  const a = e.getBoundingClientRect();
  const b = p ? p.getBoundingClientRect() : {top: 0, bottom: window.innerHeight};
  return a.height > 0 && a.top >= b.top - 1 && a.bottom <= b.bottom + 1;
}"""


def shoot_both(page: Page, name: str, prefix: str = "whatif") -> list[str]:
    """The whole widget in the light and the dark theme: {prefix}-{name}-light.png / -dark.png.

    A widget taller than the notebook's scroll area would come out with JupyterLab's bars over
    it and blank above, so the page is made tall enough for all of it first.
    """
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    root = widget_root(page)
    size = page.viewport_size
    height = root.evaluate("e => e.getBoundingClientRect().height")
    page.set_viewport_size({"width": size["width"], "height": max(size["height"], int(height) + 400)})
    root.evaluate("e => e.scrollIntoView({block: 'start'})")
    page.wait_for_function(FITS, arg=root.element_handle())
    paths = []
    for theme in ("light", "dark"):
        set_theme(page, dark=theme == "dark")
        path = ARTIFACTS / f"{prefix}-{name}-{theme}.png"
        root.screenshot(path=str(path), animations="disabled")
        audit(page, root, path.stem)
        paths.append(str(path))
    set_theme(page, dark=False)
    page.set_viewport_size(size)
    return paths


def shoot_moves(page: Page, name: str) -> list[str]:
    """The replay bar (the move list, and the bar of a variation shown) in the light and the dark theme:
    variations_{name}_light.png / _dark.png.
    """
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    moves = widget_root(page).locator(".nw-replay")
    moves.scroll_into_view_if_needed()
    page.wait_for_function(FITS, arg=moves.element_handle())
    paths = []
    for theme in ("light", "dark"):
        set_theme(page, dark=theme == "dark")
        path = ARTIFACTS / f"variations_{name}_{theme}.png"
        moves.screenshot(path=str(path), animations="disabled")
        audit(page, moves, path.stem)
        paths.append(str(path))
    set_theme(page, dark=False)
    return paths


UNDER = """b => {
  const heads = [];
  let li = b.closest('li').nextElementSibling;
  for (; li && li.classList.contains('nw-variation'); li = li.nextElementSibling) {
    heads.push(li.querySelector('.nw-variation-head').dataset.key);
  }
  return [heads, li && li.querySelector('button').dataset.key];
}"""


def under(root: Locator, step: int) -> list:
    """The variations' header keys listed right under the game's move `step`, and the key of the next row."""
    return key(root, f"ev-{step}").evaluate(UNDER)


ADD_CELL = """source => {
  const model = window.jupyterapp.shell.currentWidget.content.model;
  model.sharedModel.insertCell(model.cells.length, {cell_type: 'code', source});
  return model.cells.length - 1;
}"""


def new_cell(page: Page, source: str) -> tuple[int, str]:
    """Add a code cell at the end of the notebook shown, run it, and return its index and its output's text."""
    index = page.evaluate(ADD_CELL, source)
    expect(page.locator(".jp-NotebookPanel:not(.lm-mod-hidden) .jp-Cell")).to_have_count(index + 1)
    return index, kernel_print(page, index)


def elapsed(page: Page, mark: str, click: str) -> float:
    """Milliseconds from the click on `click` (a data-key) to the DOM condition `mark` first holding."""
    page.wait_for_function("m => m in window.__nw.marks", arg=mark)
    return round(page.evaluate("([m, c]) => window.__nw.marks[m] - window.__nw.clicks[c]", [mark, click]), 1)


def step_latency(page: Page, start: int, presses: int = 8) -> dict[str, float | int]:
    """Press → every 150 ms from `start` (the widget focused); ms from each key to its step in `.nw-live`."""
    root = widget_root(page)
    live = root.locator(".nw-live")
    expect(live).to_have_text(live_at(start))
    page.evaluate("() => { window.__nw.keys = []; window.__nw.shown = {}; }")
    root.focus()
    for _ in range(presses):
        page.keyboard.press("ArrowRight")
        page.wait_for_timeout(150)
    expect(live).to_have_text(live_at(start + presses))
    keys, shown = page.evaluate("() => [window.__nw.keys, window.__nw.shown]")
    assert len(keys) == presses, keys
    lags = [shown[str(start + i + 1)] - t for i, t in enumerate(keys) if str(start + i + 1) in shown]
    return {"presses": presses, "steps_shown": len(lags), "key_to_dom_ms_median": round(statistics.median(lags), 1),
            "key_to_dom_ms_max": round(max(lags), 1), "key_to_dom_ms": [round(x, 1) for x in lags]}


def test_what_if_in_jupyterlab(jupyter: dict, page: Page) -> None:
    open_notebook(page, jupyter, "whatif.ipynb", CELLS)
    root = widget_root(page)
    live = root.locator(".nw-live")
    expect(live).to_have_text(live_at(0))
    page.evaluate(WATCH)
    figures: dict[str, object] = {}

    # ---- go to a step where Player 1 is to draw, by the event list ---------------------------------
    key(root, f"ev-{FROM}").click()
    expect(live).to_have_text(live_at(FROM))
    assert state(page, 1) == ["replay", str(FROM), str(STEPS), "None", "draw", "0"]

    # ---- Play from here: Player 1 against GreedyBot with the real cards ------------------------------
    tool = key(root, "tool-branch")
    expect(tool).to_have_accessible_name("Play from here…")
    tool.click()
    expect(tool).to_have_attribute("aria-pressed", "true")
    form = root.get_by_role("group", name="Play from here")
    expect(form).to_be_visible()
    key(root, "branch-seat").select_option(label="Player 1")
    key(root, "branch-opponent").select_option(label="GreedyBot")
    key(root, "branch-world-real").check()
    expect(key(root, "branch-seat")).to_have_value("0")
    expect(key(root, "branch-opponent")).to_have_value("greedy")
    expect(key(root, "branch-world-real")).to_be_checked()
    expect(key(root, "branch-world-sampled")).not_to_be_checked()
    play = key(root, "branch-play")
    expect(play).to_have_text(f"Play from step {FROM}")
    figures["screenshots"] = {"branch-form": shoot_both(page, "branch-form")}
    play.click()
    banner = key(root, "branch-banner")
    expect(banner).to_contain_text(f"Branch from step {FROM}")
    # branch_info['opponent'] is the bot's id ("greedy"), not the form's label "GreedyBot" (reported)
    expect(banner).to_contain_text(re.compile(r"Player 1 plays against (GreedyBot|greedy)\."))
    expect(form).to_have_count(0)
    assert state(page, 1) == ["play", str(FROM), str(FROM), str(FROM), "draw", "0"]

    # ---- one whole turn by clicking: draw, lay nothing, discard; then the bot answers ----------------
    draw = root.get_by_role("button", name="Draw from pile")
    expect(draw).to_be_enabled()
    draw.click()
    done = root.get_by_role("button", name="Done laying sets")
    expect(done).to_be_enabled()
    done.click()
    card = key(root, f"hand-{DISCARD}")
    expect(root.get_by_role("button", name=re.compile("^Discard"))).to_be_visible()
    card.click()
    expect(card).to_have_attribute("aria-pressed", "true")
    discard = root.get_by_role("button", name=re.compile("^Discard"))
    expect(discard).to_contain_text("Discard A♥")  # and its key, D
    discard.click()
    expect(root.get_by_role("button", name="Draw from pile")).to_be_enabled()  # the bot played its turn
    mode, step, steps, from_step, phase, to_move = state(page, 1)
    assert (mode, from_step, phase, to_move) == ("play", str(FROM), "draw", "0")
    assert int(steps) >= FROM + 4 and step == steps, (step, steps)
    expect(root.locator(".nw-step-count")).to_have_text(f"{steps} / {steps}")
    figures["screenshots"]["branch"] = shoot_both(page, "branch")

    # ---- back to the replay, where it was ----------------------------------------------------------------
    back = key(root, "branch-back")
    expect(back).to_have_text("Back to the replay")
    back.click()
    expect(banner).to_have_count(0)
    expect(live).to_have_text(live_at(FROM))
    assert state(page, 1) == ["replay", str(FROM), str(STEPS), "None", "draw", "0"]
    end = int(steps)  # the branch stays: a variation from FROM to `end`, with the real cards

    # ---- variations: play from the same step again, in a world drawn from Player 1's view; one move --------
    lines = root.locator(".nw-events > li.nw-variation")
    expect(lines).to_have_count(1)
    tool.click()
    expect(form).to_be_visible()
    key(root, "branch-seat").select_option(label="Player 1")
    key(root, "branch-opponent").select_option(label="GreedyBot")
    key(root, "branch-world-sampled").check()
    expect(key(root, "branch-world-sampled")).to_be_checked()
    play.click()
    expect(banner).to_contain_text(f"Branch from step {FROM}")
    root.get_by_role("button", name="Draw from pile").click()
    expect(done).to_be_enabled()
    back.click()
    expect(banner).to_have_count(0)
    expect(live).to_have_text(live_at(FROM))
    assert state(page, 3) == ["replay", str(FROM), str(STEPS), "None", f"0:{FROM}-{end}:real",
                              f"1:{FROM}-{FROM + 1}:world"]

    # ---- both in the move list, indented under their step ----------------------------------------------------
    expect(lines).to_have_count(2)
    expect(key(root, "line-0")).to_have_attribute("title", "Variation 1: the real cards")
    expect(key(root, "line-1")).to_have_attribute("title", f"Variation 2: {WORLD}")
    expect(root.locator(".nw-variation-moves").nth(0).locator("button")).to_have_count(end - FROM)
    expect(root.locator(".nw-variation-moves").nth(1).locator("button")).to_have_count(1)
    assert under(root, FROM) == [["line-0", "line-1"], f"ev-{FROM + 1}"]
    indent = key(root, f"line-1-{FROM + 1}").bounding_box()["x"] - key(root, f"ev-{FROM + 1}").bounding_box()["x"]
    assert indent >= 16, indent
    expect(root.locator(".nw-hint")).to_contain_text("[ ] switch line")

    # ---- switch lines: click a variation's move, then [ and ] (→ steps along the line shown) -----------------
    line_bar = root.locator(".nw-line-bar")
    expect(line_bar).to_have_count(0)
    key(root, f"line-1-{FROM + 1}").click()
    expect(line_bar).to_have_text(re.compile(rf"^Variation 2 from step {FROM}: {WORLD}\.Back to the game"))
    expect(live).to_have_text(live_at(FROM + 1, FROM + 1))
    expect(key(root, f"line-1-{FROM + 1}")).to_have_attribute("aria-current", "step")
    root.focus()
    page.keyboard.press("[")
    expect(line_bar).to_contain_text(f"Variation 1 from step {FROM}: the real cards.")
    expect(live).to_have_text(live_at(FROM + 1, end))
    page.keyboard.press("ArrowRight")
    expect(live).to_have_text(live_at(FROM + 2, end))
    expect(key(root, f"line-0-{FROM + 2}")).to_have_attribute("aria-current", "step")
    page.keyboard.press("[")  # the game, at the same step
    expect(line_bar).to_have_count(0)
    expect(live).to_have_text(live_at(FROM + 2))
    expect(key(root, f"ev-{FROM + 2}")).to_have_attribute("aria-current", "step")
    page.wait_for_function(FITS, arg=key(root, f"ev-{FROM + 2}").element_handle())  # in sight in the list
    page.keyboard.press("]")
    expect(line_bar).to_contain_text("Variation 1 from step")
    expect(live).to_have_text(live_at(FROM + 2, end))
    page.keyboard.press("]")  # the world's line has one move: its last step
    expect(line_bar).to_contain_text("Variation 2 from step")
    expect(live).to_have_text(live_at(FROM + 1, FROM + 1))
    # the kernel is read here, not after the click too: a re-run print cell must print something new
    assert state(page, 3)[:4] == ["replay", str(FROM + 1), str(FROM + 1), "1"]

    # ---- the teacher names it and promotes it: first under its step ------------------------------------------
    name = key(root, "line-name")
    expect(name).to_have_value("Variation 2")
    name.fill("Drawn world")
    name.press("Enter")
    expect(key(root, "line-1")).to_have_attribute("title", f"Drawn world: {WORLD}")
    expect(line_bar).to_contain_text(f"Drawn world from step {FROM}")
    key(root, "line-promote").click()
    expect(key(root, "line-0")).to_have_attribute("title", f"Drawn world: {WORLD}")
    expect(key(root, "line-1")).to_have_attribute("title", "Variation 2: the real cards")
    expect(key(root, f"line-0-{FROM + 1}")).to_have_attribute("aria-current", "step")
    page.wait_for_function(FITS, arg=key(root, f"line-0-{FROM + 1}").element_handle())
    assert under(root, FROM) == [["line-0", "line-1"], f"ev-{FROM + 1}"]
    assert state(page, 3) == ["replay", str(FROM + 1), str(FROM + 1), "0", f"0:{FROM}-{FROM + 1}:world",
                              f"1:{FROM}-{end}:real"]
    figures["screenshots"]["variations"] = shoot_moves(page, "moves")

    # ---- back to the game, where the variation starts --------------------------------------------------------
    key(root, "line-back").click()
    expect(line_bar).to_have_count(0)
    expect(live).to_have_text(live_at(FROM))
    expect(lines).to_have_count(2)

    # ---- possible worlds: open, resample, GreedyBot as the model, play them out -----------------------------
    worlds_panel = root.get_by_role("region", name="Possible worlds", exact=True)
    rows = root.locator(".nw-worlds-table tbody tr")
    page.evaluate("() => window.__nw.watch('worlds_rows')")
    key(root, "tool-worlds").click()
    figures["worlds_open_to_rows_ms"] = elapsed(page, "worlds_rows", "tool-worlds")
    expect(worlds_panel).to_have_attribute("aria-busy", "false")
    expect(worlds_panel).to_contain_text(f"Possible worlds for Player 1 at step {FROM}")
    assert rows.count() > 1
    first = rows.all_inner_texts()
    assert state(page, 2) == ["0", str(FROM), "ready", "random", "None", "None"]
    page.evaluate("() => window.__nw.watch('worlds_new_rows')")
    key(root, "worlds-resample").click()
    figures["resample_to_new_rows_ms"] = elapsed(page, "worlds_new_rows", "worlds-resample")
    expect(worlds_panel).to_have_attribute("aria-busy", "false")
    second = rows.all_inner_texts()
    assert second != first
    assert state(page, 2) == ["1", str(FROM), "ready", "random", "None", "None"]
    key(root, "worlds-model").select_option("greedy")
    expect(key(root, "worlds-model")).to_have_value("greedy")
    expect(worlds_panel.locator(".nw-note").first).to_contain_text("as if Player 2 plays like GreedyBot")
    expect(worlds_panel).to_have_attribute("aria-busy", "false")
    assert state(page, 2) == ["1", str(FROM), "ready", "greedy", "None", "None"]
    key(root, "worlds-playout").click()
    bar = worlds_panel.locator(".nw-outcome-bar")
    expect(bar).to_be_visible()
    expect(bar).to_have_attribute("aria-label", re.compile(r"^Player 1 wins \d+% .* of 200 worlds$"))
    assert state(page, 2) == ["1", str(FROM), "ready", "greedy", "ready", "None"]
    figures["screenshots"]["worlds"] = shoot_both(page, "worlds")

    # ---- the graph: open, wait until ready, click at 3/4 of its width, then → ------------------------------
    page.evaluate("() => window.__nw.watch('graph_ready')")
    key(root, "tool-graph").click()
    graph = root.get_by_role("region", name="Graph", exact=True)
    expect(graph).to_be_visible()
    figures["graph_open_to_ready_ms"] = elapsed(page, "graph_ready", "tool-graph")
    expect(graph.get_by_role("progressbar", name="Graph progress")).to_have_count(0)
    assert state(page, 2)[-3:] == ["ready", str(STEPS + 1), str(STEPS + 1)]  # steps 0 to STEPS
    box = key(root, "graph-box")
    expect(box).to_have_attribute("role", "slider")
    expect(box).to_have_accessible_name("Step on the graph")
    expect(box).to_have_attribute("aria-valuenow", str(FROM))
    box.scroll_into_view_if_needed()
    at = box.bounding_box()
    svg = box.locator("svg").bounding_box()
    assert at and svg
    x = at["x"] + 0.75 * at["width"]
    plot = GRAPH_W - GRAPH_PAD_LEFT - GRAPH_PAD_RIGHT
    mapped = round(max(0.0, min(1.0, ((x - svg["x"]) * GRAPH_W / svg["width"] - GRAPH_PAD_LEFT) / plot)) * STEPS)
    page.mouse.click(x, at["y"] + at["height"] / 2)
    expect(box).to_have_attribute("aria-valuenow", re.compile(r"^\d+$"))
    expect(box).not_to_have_attribute("aria-valuenow", str(FROM))
    expect(live).not_to_have_text(live_at(FROM))
    mode, step, *_ = state(page, 1)
    clicked = int(step)
    assert mode == "replay" and abs(clicked - mapped) <= 2, (clicked, mapped)
    assert abs(clicked - 0.75 * STEPS) <= 6, clicked
    expect(live).to_have_text(live_at(clicked))
    expect(root.locator(".nw-step-count")).to_have_text(f"{clicked} / {STEPS}")
    expect(box).to_have_attribute("aria-valuenow", str(clicked))
    figures["graph_click"] = {"x_fraction": 0.75, "maps_to_step": mapped, "kernel_step": clicked}
    figures["screenshots"]["graph"] = shoot_both(page, "graph")
    box.focus()
    page.keyboard.press("ArrowRight")
    expect(live).to_have_text(live_at(clicked + 1))
    expect(box).to_have_attribute("aria-valuenow", str(clicked + 1))
    expect(box).to_be_focused()
    assert state(page, 1)[:2] == ["replay", str(clicked + 1)]

    # ---- key-to-DOM latency: both panels open, then both closed ----------------------------------------------
    root.focus()
    page.keyboard.press("Home")
    figures["panels_open"] = step_latency(page, 0)
    key(root, "tool-worlds").click()
    key(root, "tool-graph").click()
    expect(worlds_panel).to_have_count(0)
    expect(graph).to_have_count(0)
    root.focus()
    page.keyboard.press("Home")
    figures["panels_closed"] = step_latency(page, 0)
    assert state(page, 1)[:2] == ["replay", "8"]
    assert state(page, 2) == ["None", "None"]

    # ---- save the record (the game is shown: w.replay is its record), load it into a new widget ---------------
    assert state(page, 3)[3] == "None"
    _, saved = new_cell(page, SAVE_CELL)
    assert saved.split() == ["3", "2"]  # format version 3, two variations
    shown, _ = new_cell(page, LOAD_CELL)
    w2 = page.locator(".jp-NotebookPanel:not(.lm-mod-hidden) .jp-Cell").nth(shown).locator(".nw-root")
    expect(w2.locator(".nw-events > li.nw-variation")).to_have_count(2)
    expect(key(w2, "line-0")).to_have_attribute("title", f"Drawn world: {WORLD}")
    expect(key(w2, "line-1")).to_have_attribute("title", "Variation 2: the real cards")
    expect(w2.locator(".nw-variation-moves").nth(1).locator("button")).to_have_count(end - FROM)
    assert under(w2, FROM) == [["line-0", "line-1"], f"ev-{FROM + 1}"]
    key(w2, f"line-1-{FROM + 2}").click()
    expect(w2.locator(".nw-live")).to_have_text(live_at(FROM + 2, end))
    expect(w2.locator(".nw-line-bar")).to_contain_text(f"Variation 2 from step {FROM}: the real cards.")

    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    (ARTIFACTS / "whatif-figures.json").write_text(json.dumps(figures, indent=1))
    print("what if:", json.dumps({k: v for k, v in figures.items() if k != "screenshots"}))  # never asserted


