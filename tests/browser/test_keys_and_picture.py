"""In a real JupyterLab: ←/→ step from every focusable part of the widget but a grid of cards (a native control that
needs the arrows keeps them) and JupyterLab never moves the cell selection while the focus is
inside it; "Save picture" downloads a PNG of the view, in the light and the dark theme, and its
graph looks as on screen (compared with a screenshot of the graph).
"""

from __future__ import annotations

import io
import re
import shutil
import struct
import time
import zlib
from pathlib import Path

from PIL import Image, ImageChops, ImageStat
from playwright.sync_api import Page, expect

from .conftest import ARTIFACTS
from .test_widget_in_jupyterlab import kernel_print, kernel_reaches, open_notebook, set_theme, shoot, widget_root

REPLAY_CELLS = [
    "from needle_widget import NeedleWidget, bots, play_game\n"
    "replay = play_game(bots.GreedyBot(), bots.RandomBot(seed=2), seed=12).replay()\n"
    "r = NeedleWidget.from_replay(replay, perspective='teacher', step=6)\n"
    "r.show_worlds(seat=0)\n"
    "r",
    "print('step', r.step)",
    "print('a cell below the widget')",
]
SHOTS = Path("/tmp/shots")

# Where the focus is, the step shown and the notebook's active cell, at once.
WHERE = """() => {
  const panel = document.querySelector('.jp-NotebookPanel:not(.lm-mod-hidden)');
  const root = panel.querySelector('.nw-root');
  const m = /^Step (\\d+) of/.exec(root.querySelector('.nw-live').textContent);
  const a = document.activeElement;
  return {step: m ? Number(m[1]) : null, cell: window.jupyterapp.shell.currentWidget.content.activeCellIndex,
          inside: root.contains(a), focus: a === root ? 'root' : (a.getAttribute('data-key') || a.tagName)};
}"""

# (name, selector inside the widget, whether ←/→ step there: a select keeps its arrows)
PARTS = [
    ("the widget itself", None, True),
    ("the step slider", "input.nw-slider[data-key=slider]", True),
    ("First step", "[data-key=first]", True),
    ("Previous step", "[data-key=prev]", True),
    ("Play", "[data-key=play]", True),
    ("Next step", "[data-key=next]", True),
    ("the current move in the list", ".nw-event-btn.nw-current", True),
    ("a perspective button", "[data-key=persp-p0]", True),
    ("Show all discards", "[data-key=toggle-discards]", True),
    ("Add a note", "[data-key=note-add]", True),
    ("Save picture", "[data-key=save-picture]", True),
    ("the Possible worlds toggle", "[data-key=tool-worlds]", True),
    ("the worlds panel's Resample", "[data-key=worlds-resample]", True),
    ("the speed select", "select[data-key=speed]", False),
    ("the worlds panel's seat select", "select[data-key=worlds-seat]", False),
]


def _where(page: Page) -> dict:
    return page.evaluate(WHERE)


# Everything a key press set going has happened: the kernel has answered whatever the widget asked of it (the
# widget sends a request at once, js/src/index.js `send`, with no timer; Python answers it in its comm handler; the
# kernel takes the widget's messages and this execute request in order), and the page has drawn two frames since.
SETTLED = """async () => {
  const kernel = window.jupyterapp.shell.currentWidget.sessionContext.session.kernel;
  await kernel.requestExecute({code: "", store_history: false}).done;
  await new Promise(done => requestAnimationFrame(() => requestAnimationFrame(done)));
}"""


def _press(page: Page, key: str, step: int | None = None) -> dict:
    """Press `key`; then wait until the view shows `step`, or (None: a key that must not step) until the press
    has settled (SETTLED; a fixed 250 ms before); where the focus, the step and the active cell are then.
    """
    page.keyboard.press(key)
    if step is not None:
        expect(widget_root(page).locator(".nw-live")).to_have_text(re.compile(rf"^Step {step} of"))
    else:
        page.evaluate(SETTLED)
    return _where(page)


def test_arrow_keys_step_from_every_focusable_part(jupyter: dict, page: Page) -> None:
    open_notebook(page, jupyter, "keys.ipynb", REPLAY_CELLS)
    root = widget_root(page)
    expect(root.locator(".nw-live")).to_have_text(re.compile(r"^Step 6 of"))
    expect(root.locator("[data-key=worlds-resample]")).to_be_visible()
    root.focus()  # the focus in its cell makes that cell the active one: no key must change it then
    cell = _where(page)["cell"]
    assert cell == 0
    report = []
    for name, selector, steps in PARTS:
        part = root if selector is None else root.locator(selector).first
        part.focus()
        start = _where(page)
        assert start["inside"], (name, start)
        s = start["step"]
        right = _press(page, "ArrowRight", s + 1 if steps else None)
        left = _press(page, "ArrowLeft", s if steps else None)
        down = _press(page, "ArrowDown")
        up = _press(page, "ArrowUp")
        report.append((name, [right["step"], left["step"], down["step"], up["step"]], up["focus"]))
        for after in (right, left, down, up):
            assert after["cell"] == cell, f"JupyterLab moved the cell selection from {name}: {after}"
            assert after["inside"], f"the focus left the widget from {name}: {after}"
        if not steps:
            assert (right["step"], left["step"]) == (s, s), (name, right, left)
        if selector is not None:
            root.locator(selector).first.focus()
        # Put back where it was: a select's own arrows may have changed the speed or the seat.
        if _where(page)["step"] != s:
            root.focus()
            page.keyboard.press("ArrowLeft" if _where(page)["step"] > s else "ArrowRight")
            expect(root.locator(".nw-live")).to_have_text(re.compile(rf"^Step {s} of"))
    print("arrow keys:", report)
    # ↓/↑ in the list of moves step too (↓ the next move), and the focus follows the move.
    root.locator(".nw-event-btn.nw-current").focus()
    s = _where(page)["step"]
    assert _press(page, "ArrowDown", s + 1)["focus"] == f"ev-{s + 1}"
    assert _press(page, "ArrowUp", s)["focus"] == f"ev-{s}"
    # The slider clicked with the mouse, as a person does, then the arrows: its steps reach Python.
    slider = root.locator("input.nw-slider[data-key=slider]")
    slider.click()
    shown = int(slider.input_value())  # the step the click chose: wait until it is the step shown
    expect(root.locator(".nw-live")).to_have_text(re.compile(rf"^Step {shown} of"))
    assert _where(page)["cell"] == cell
    _press(page, "ArrowRight", shown + 1)
    _press(page, "ArrowRight", shown + 2)
    assert _where(page)["cell"] == cell
    kernel_reaches(page, "print(r.step)", str(shown + 2))
    assert kernel_print(page, 1) == f"step {shown + 2}"


def written_png(path: Path, seconds: float = 30) -> bytes:
    """The PNG file `path` once written whole (its IEND chunk at the end), or whatever is there after `seconds`."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if path.exists() and (data := path.read_bytes()).endswith(PNG_END):
            return data
        time.sleep(0.1)
    assert path.exists(), f"{path.name} was not written"
    return path.read_bytes()


PNG_END = b"IEND\xaeB`\x82"
"""The last 8 bytes of a PNG file: its IEND chunk's type and CRC."""


def _png_size(data: bytes) -> tuple[int, int]:
    assert data[:8] == b"\x89PNG\r\n\x1a\n" and data[12:16] == b"IHDR"
    return struct.unpack(">II", data[16:24])


def _first_row_pixel(data: bytes, x: int) -> tuple[int, ...]:
    """The RGBA pixel at (x, 0) of an 8-bit RGBA PNG (what a canvas writes), without an image library."""
    width, _ = _png_size(data)
    assert data[24:26] == bytes([8, 6]), "an 8-bit RGBA PNG"
    idat, at = b"", 8
    while at < len(data):
        length, kind = struct.unpack(">I4s", data[at:at + 8])
        if kind == b"IDAT":
            idat += data[at + 8:at + 8 + length]
        at += 12 + length
    raw = zlib.decompressobj().decompress(idat, 1 + width * 4)
    kind, row = raw[0], bytearray(raw[1:1 + width * 4])
    for i in range(len(row)):  # the first row: the row above is all zeros
        left = row[i - 4] if i >= 4 else 0
        row[i] = (row[i] + {0: 0, 1: left, 2: 0, 3: left // 2, 4: left}[kind]) & 0xFF
    return tuple(row[x * 4:x * 4 + 4])


def _save_picture(page: Page, name: str) -> tuple[Path, str]:
    root = widget_root(page)
    save = root.get_by_role("button", name="Save picture")
    with page.expect_download() as caught:
        save.click()
        expect(root.locator("[data-key=save-picture]")).to_have_text(re.compile("Sav"))
    download = caught.value
    SHOTS.mkdir(parents=True, exist_ok=True)
    path = SHOTS / name
    download.save_as(path)
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    shutil.copy(path, ARTIFACTS / name)
    expect(save).to_be_enabled()
    expect(save).to_have_text("Save picture")
    return path, download.suggested_filename


PICTURE_CELLS = [
    "from needle_widget import NeedleWidget, bots, play_game\n"
    "replay = play_game(bots.GreedyBot(), bots.RandomBot(seed=2), seed=12).replay()\n"
    "r = NeedleWidget.from_replay(replay, perspective='teacher', step=6)\n"
    "r",
    "asked = globals().get('asked', 0) + 1\n"
    "r.save_png(f'from-python-{asked}.png')\n"
    "print(f'from-python-{asked}.png')",
]


def test_save_picture_downloads_a_png_of_the_view(jupyter: dict, page: Page) -> None:
    open_notebook(page, jupyter, "picture.ipynb", PICTURE_CELLS)
    root = widget_root(page)
    expect(root.locator(".nw-live")).to_have_text(re.compile(r"^Step 6 of"))
    box = root.bounding_box()
    sizes = {}
    for dark in (False, True):
        set_theme(page, dark=dark)
        path, suggested = _save_picture(page, f"picture-{'dark' if dark else 'light'}.png")
        data = path.read_bytes()
        assert suggested == "needle-step-6-teacher.png"
        assert data[:8] == b"\x89PNG\r\n\x1a\n"
        assert 20_000 <= len(data) <= 5_000_000, len(data)
        width, height = _png_size(data)
        assert abs(width - 2 * box["width"]) <= 4 and abs(height - 2 * box["height"]) <= 40, (width, height, box)
        red, green, blue, alpha = _first_row_pixel(data, width // 2)
        light = (red + green + blue) / 3
        assert alpha == 255 and (light < 90 if dark else light > 200), (dark, red, green, blue, alpha)
        sizes["dark" if dark else "light"] = (len(data), width, height)
        shutil.copy(shoot(page, f"picture-live-{'dark' if dark else 'light'}.png"), SHOTS)  # the view, to compare
    print("pictures:", sizes)
    set_theme(page, dark=False)
    # Python's save_png returns at once; the open view draws the picture and sends it back.
    name = kernel_print(page, 1)  # Run All asked before the view was up, maybe: ask again, for another file
    assert name == "from-python-2.png", name
    target = jupyter["root"] / name
    data = written_png(target)
    assert data[:8] == b"\x89PNG\r\n\x1a\n" and len(data) > 20_000, len(data)
    shutil.copy(target, SHOTS / "picture-from-python.png")


# The largest view: a teacher's replay with the possible worlds, their play-out and the graph open.
GRAPH_CELLS = [
    "from needle_widget import NeedleWidget, examples\n"
    "w = NeedleWidget.from_replay(examples.load('long_with_reshuffle'), perspective='teacher', step=20)\n"
    "w.show_worlds(); w.play_out(); w.show_graph()\n"
    "w",
]


# In the page: when Save picture was clicked, and when its status said the picture was saved.
CLOCK = """() => {
  const root = document.querySelector('.jp-NotebookPanel:not(.lm-mod-hidden) .nw-root');
  const status = root.querySelector('.nw-picture-status');
  delete window.__nwSaved;
  root.addEventListener('click', () => { window.__nwClicked = performance.now(); }, {capture: true, once: true});
  const seen = new MutationObserver(() => {
    if (/^Saved/.test(status.textContent)) { window.__nwSaved = performance.now(); seen.disconnect(); }
  });
  seen.observe(status, {childList: true, characterData: true, subtree: true});
}"""


def _near_black(image: Image.Image) -> float:
    """The share of pixels with every channel at 8 or below: the SVG default fill (black), which no
    theme paints in the graph (the dark theme's background is #111).
    """
    red, green, blue = image.convert("RGB").split()
    brightest = ImageChops.lighter(ImageChops.lighter(red, green), blue).histogram()
    return sum(brightest[:9]) / (image.width * image.height)


def _compare(picture: bytes, shot: bytes, region: tuple[float, float, float, float]) -> dict[str, float]:
    """The picture's `region` (CSS px in the widget: x, y, width, height; the picture is at 2x) against
    a screenshot of that region: mean absolute difference per channel (0-255) and near-black shares.
    """
    seen = Image.open(io.BytesIO(shot)).convert("RGB")
    x, y, w, h = region
    crop = Image.open(io.BytesIO(picture)).convert("RGB").crop(
        (round(2 * x), round(2 * y), round(2 * (x + w)), round(2 * (y + h))))
    drawn = crop.resize(seen.size, Image.Resampling.BOX)
    diff = ImageStat.Stat(ImageChops.difference(drawn, seen)).mean
    return {"mean_diff": round(sum(diff) / 3, 2), "black_picture": round(_near_black(drawn), 4),
            "black_screen": round(_near_black(seen), 4)}


def _region(root, part) -> tuple[float, float, float, float]:
    box, at = root.bounding_box(), part.bounding_box()
    return (at["x"] - box["x"], at["y"] - box["y"], at["width"], at["height"])


def test_save_picture_draws_the_graph_as_shown(jupyter: dict, page: Page) -> None:
    open_notebook(page, jupyter, "picture-graph.ipynb", GRAPH_CELLS)
    page.set_viewport_size({"width": 1500, "height": 2400})  # the whole view on screen, to compare
    root = widget_root(page)
    graph = root.locator(".nw-graph")
    expect(graph.locator(".nw-line-win")).not_to_have_count(0)
    expect(root.locator(".nw-worlds-table")).to_be_visible()
    expect(root.locator(".nw-playout")).to_contain_text("Played out")
    report = {}
    for dark in (False, True):
        theme = "dark" if dark else "light"
        set_theme(page, dark=dark)
        root.scroll_into_view_if_needed()
        whole = root.screenshot(animations="disabled")
        shot = graph.screenshot(animations="disabled")
        region = _region(root, graph)
        save = root.get_by_role("button", name="Save picture")
        page.evaluate(CLOCK)
        started = time.monotonic()
        with page.expect_download() as caught:
            save.click()
        download = caught.value
        seconds = time.monotonic() - started
        page.wait_for_function("() => window.__nwSaved !== undefined")
        in_page = page.evaluate("() => (window.__nwSaved - window.__nwClicked) / 1000")
        path = SHOTS / f"picture-graph-{theme}.png"
        SHOTS.mkdir(parents=True, exist_ok=True)
        download.save_as(path)
        expect(save).to_have_text("Save picture")
        ARTIFACTS.mkdir(parents=True, exist_ok=True)
        shutil.copy(path, ARTIFACTS / path.name)
        (ARTIFACTS / f"picture-graph-{theme}-screen.png").write_bytes(shot)
        (ARTIFACTS / f"picture-whole-{theme}-screen.png").write_bytes(whole)
        figures = _compare(path.read_bytes(), shot, region)
        size = root.bounding_box()
        view = _compare(path.read_bytes(), whole, (0, 0, size["width"], size["height"]))
        report[theme] = {"graph": figures, "whole_view_mean_diff": view["mean_diff"], "seconds": round(seconds, 2),
                         "seconds_in_page": round(in_page, 2)}
        # The graph as on screen: lines, band, gridlines, labels, legend, markers, cursor in the theme's
        # colours. With the SVG's class styles lost, its shapes are filled black (the SVG default).
        assert figures["mean_diff"] < 12, (theme, figures)
        assert figures["black_picture"] <= figures["black_screen"] + 0.005, (theme, figures)
        assert view["mean_diff"] < 12, (theme, view)
    print("picture of the largest view (graph compared with the screen; seconds are not asserted):", report)
    set_theme(page, dark=False)
