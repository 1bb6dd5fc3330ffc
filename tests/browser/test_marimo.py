"""The play widget in marimo (`mo.ui.anywidget(NeedleWidget.play(...))`), in `marimo edit` and in
`marimo run`, driven by headless Chromium: a whole turn played by clicking and the game read back
from a cell (a button re-runs it), the possible worlds computed on the worker thread arriving,
"Save picture" (from the button, and `save_png` from Python), the styles inside marimo's shadow DOM
in its light and dark themes, keys typed in the widget kept from marimo's shortcuts, and twins: two
games that differ only in a card Player 1 cannot see give Player 1's page the same DOM and the same
synced model. One marimo server per mode; screenshots (light and dark) in the artifacts folder.
"""

from __future__ import annotations

import importlib.util
import json
import os
import re
import shutil
import subprocess
import sys
import textwrap
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Locator, Page, expect

from needle_widget import Game

from .axe import audit
from .conftest import ARTIFACTS, REQUIRED, _free_port, stop_server, wait_until_up
from .test_keys_and_picture import _compare, _first_row_pixel, _png_size, written_png
from .test_widget_in_jupyterlab import PLAY_DECK

TWIN_SEED = 5
LESSON = Path(__file__).resolve().parents[2] / "notebooks" / "marimo" / "01_play.py"
LESSON_SEED = 1511  # the lesson's class deal, its default


def twin_decks(seed: int = TWIN_SEED) -> tuple[list[str], list[str], str, str]:
    """Deck A dealt from `seed`, and deck B with one card of Player 2's hand swapped with the pile's
    bottom card: Player 1 sees neither (as tests/test_secrecy.py's twins).
    """
    deck = [str(c) for c in Game(seed=seed).deck]
    k = 7 + 3  # Player 2's fourth card (the first seven cards are Player 1's)
    twin = deck[:]
    twin[k], twin[-1] = twin[-1], twin[k]
    return deck, twin, deck[k], deck[-1]


APP = '''
import marimo

app = marimo.App(width="full")


@app.cell
def _():
    import marimo as mo
    from needle_widget import Card, Game, NeedleWidget, bots
    from needle_widget.engine.cards import DECK
    return Card, DECK, Game, NeedleWidget, bots, mo


@app.cell
def _(Card, DECK, Game, NeedleWidget, bots, mo):
    first = [Card.parse(c) for c in {deck!r}]
    game = Game(seed=11, deck=first + [c for c in DECK if c not in first])
    w = mo.ui.anywidget(NeedleWidget.play(opponent=bots.GreedyBot(), game=game, bot_delay=0))
    w
    return (w,)


@app.cell
def _(mo):
    read = mo.ui.button(label="Read the game", value=0, on_click=lambda n: n + 1)
    save = mo.ui.button(label="Save from Python", value=0, on_click=lambda n: n + 1)
    mo.hstack([read, save], justify="start")
    return read, save


@app.cell
def _(mo, read, w):
    g = w.widget.game
    sets = " ".join(str(c) for s in g.sets(0) for c in s)
    mo.plain_text(f"GAME read={{read.value}} turn={{g.turn}} phase={{g.phase}} to_move={{g.to_move}} "
                  f"sets={{sets}} needle={{g.needle(0)}} actions={{len(g.replay())}}")
    return


@app.cell
def _(save, w):
    if save.value:
        w.save_png(f"from-python-{{save.value}}.png")
    return


@app.cell
def _(Card, Game, NeedleWidget, bots, mo):
    twins = [mo.ui.anywidget(NeedleWidget.play(opponent=bots.RandomBot(seed=1), bot_delay=0,
                                               game=Game(seed={seed}, deck=[Card.parse(c) for c in deck])))
             for deck in ({deck_a!r}, {deck_b!r})]
    mo.vstack(twins)
    return
'''

# The whole page's marimo-anywidget roots, through the shadow roots marimo renders them in.
ROOTS = """() => {
  const out = [];
  const walk = (node) => {
    for (const el of node.querySelectorAll('*')) {
      if (el.classList.contains('nw-root')) out.push(el);
      if (el.shadowRoot) walk(el.shadowRoot);
    }
  };
  walk(document);
  return out;
}"""

# Every model message marimo's websocket delivered, as [model_id, method, state].
RECORD = """
  window.__nwModels = [];
  const Native = window.WebSocket;
  window.WebSocket = class extends Native {
    constructor(...args) {
      super(...args);
      this.addEventListener('message', (e) => {
        if (typeof e.data !== 'string' || !e.data.includes('model-lifecycle')) return;
        try {
          const d = JSON.parse(e.data).data;
          if (d && d.op === 'model-lifecycle') {
            window.__nwModels.push([d.model_id, d.message.method, d.message.state || null]);
          }
        } catch (err) { /* not ours */ }
      });
    }
  };
"""


def _need_marimo() -> None:
    if importlib.util.find_spec("marimo") is None:
        message = "marimo is not installed (pip install -e '.[dev]')"
        if REQUIRED:
            pytest.fail(f"NEEDLE_REQUIRE_BROWSER=1 but {message}")
        pytest.skip(message)



def _serve(mode: str, tmp_path_factory: pytest.TempPathFactory, source: Path | None = None) -> Iterator[dict]:
    """`marimo {mode} app.py` in a folder of its own: headless, a free port, no token, cells run on
    opening, the "system" theme (Chromium's prefers-color-scheme switches marimo's light and dark).
    app.py is the test's APP, or a copy of `source` (marimo's __marimo__/ then lands there, not in the repo).
    """
    _need_marimo()
    folder = tmp_path_factory.mktemp(f"marimo-{mode}")
    home = folder / "home"
    (home / ".config" / "marimo").mkdir(parents=True)
    (home / ".config" / "marimo" / "marimo.toml").write_text(
        '[runtime]\nauto_instantiate = true\n\n[display]\ntheme = "system"\n\n[server]\nbrowser = "default"\n')
    deck_a, deck_b, _, _ = twin_decks()
    if source is not None:
        shutil.copy(source, folder / "app.py")
    else:
        (folder / "app.py").write_text(textwrap.dedent(APP).format(deck=PLAY_DECK, seed=TWIN_SEED, deck_a=deck_a,
                                                                   deck_b=deck_b))
    env = {**os.environ, "HOME": str(home), "XDG_CONFIG_HOME": str(home / ".config"),
           "MARIMO_SKIP_UPDATE_CHECK": "1"}
    env.pop("ANYWIDGET_HMR", None)
    port = _free_port()
    base = f"http://127.0.0.1:{port}"
    log_path = folder / "marimo.log"
    with open(log_path, "w") as log:
        proc = subprocess.Popen(
            [sys.executable, "-m", "marimo", mode, "app.py", "--headless", "--host", "127.0.0.1", f"--port={port}",
             "--no-token", "--no-sandbox", *(["--skip-update-check"] if mode == "edit" else [])],
            cwd=folder, env=env, stdout=log, stderr=subprocess.STDOUT, start_new_session=True)
    wait_until_up(proc, f"{base}/health", f"marimo {mode}", log_path, 60, lambda: stop_server(proc))
    yield {"base": base, "folder": folder, "mode": mode, "log": log_path}
    stop_server(proc)


@pytest.fixture(scope="module")
def marimo_edit(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict]:
    yield from _serve("edit", tmp_path_factory)


@pytest.fixture(scope="module")
def marimo_run(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict]:
    yield from _serve("run", tmp_path_factory)


@pytest.fixture(scope="module")
def marimo_lesson(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict]:
    yield from _serve("run", tmp_path_factory, source=LESSON)


def open_app(page: Page, server: dict, dark: bool = False) -> Locator:
    """The app in the browser, every cell run and the game's widget drawn; the play widget's root."""
    page.set_default_timeout(60_000)
    expect.set_options(timeout=60_000)
    page.set_viewport_size({"width": 1400, "height": 1800})
    page.emulate_media(color_scheme="dark" if dark else "light")
    page.add_init_script(RECORD)
    page.goto(server["base"])
    roots = page.locator(".nw-root")
    expect(roots).to_have_count(3)  # the game, and the twins
    expect(game_text(page)).to_contain_text("read=0")
    idle(page)
    return roots.first


def idle(page: Page) -> None:
    """Marimo is connected and no cell is queued or running (buckaroo's lesson: wait for the kernel)."""
    page.wait_for_function("""() => {
      const app = document.querySelector('#App');
      if (app && app.dataset.connectionState && app.dataset.connectionState !== 'OPEN') return false;
      return !document.querySelector('[data-status="running"], [data-status="queued"]');
    }""")


def game_text(page: Page) -> Locator:
    return page.get_by_text(re.compile(r"^GAME read="))


def read_game(page: Page, times: int) -> dict[str, str]:
    """Click "Read the game" (the cell that reads `w.widget.game` runs again) and parse its output."""
    page.get_by_role("button", name="Read the game").click()
    text = game_text(page)
    expect(text).to_contain_text(f"read={times} ")
    idle(page)
    line = text.inner_text().strip()
    found = dict(re.findall(r"(\w+)=((?:(?! \w+=).)*)", line))
    return found


def play_a_turn(root: Locator) -> None:
    """As the JupyterLab test: pick K♠ as the needle, draw, lay 4♣ 5♥ 6♥, done, discard 9♠; the bot answers."""
    root.get_by_role("grid", name="Pick your needle").get_by_role("button", name="king of spades").click()
    draw = root.get_by_role("button", name="Draw from pile")
    expect(draw).to_be_enabled()
    hand = root.get_by_role("grid", name=re.compile(r"^Player 1's hand"))
    draw.click()
    expect(hand).to_have_attribute("aria-label", "Player 1's hand: 8 cards")
    for name in ("4 of clubs", "5 of hearts", "6 of hearts"):
        hand.get_by_role("button", name=re.compile(f"^{name}")).click()
    lay = root.get_by_role("button", name="Lay set")
    expect(lay).to_contain_text("1 point")
    lay.click()
    root.get_by_role("button", name="Done laying sets").click()
    expect(root.locator(".nw-controls-discard")).to_be_visible()  # else a card clicked first is unselected
    hand.get_by_role("button", name=re.compile("^9 of spades")).click()
    root.get_by_role("button", name="Discard", exact=True).click()
    expect(root.locator(".nw-status-line")).to_have_text("Turn 3 · Player 1 draws a card")  # the bot played
    expect(root.get_by_role("button", name="Draw from pile")).to_be_enabled()


def check_game(found: dict[str, str]) -> None:
    assert (found["turn"], found["phase"], found["to_move"]) == ("3", "draw", "0"), found
    assert found["sets"] == "4♣ 5♥ 6♥" and found["needle"] == "K♠", found
    assert int(found["actions"]) > 5, found


def set_dark(page: Page, dark: bool) -> None:
    """Marimo's "system" theme follows prefers-color-scheme: it marks <body> (class dark, data-theme)."""
    page.emulate_media(color_scheme="dark" if dark else "light")
    page.wait_for_function("d => document.body.classList.contains('dark') === d", arg=dark)
    page.wait_for_function(
        f"d => ({ROOTS})().every((r) => r.getAttribute('data-nw-theme') === (d ? 'dark' : 'light'))", arg=dark)
    page.wait_for_timeout(200)


# What the shadow root gives the widget: its background and text colour, a card's background, and
# whether the rule came from the widget's own CSS (a border radius only it sets).
LOOKS = """r => {
  const cs = getComputedStyle(r);
  const card = r.querySelector('.nw-card');
  const felt = r.querySelector('.nw-board, .nw-table, .nw-felt') || r;
  return {root: r.getRootNode().constructor.name, bg: cs.backgroundColor, fg: cs.color,
          radius: cs.borderTopLeftRadius, card: card && getComputedStyle(card).backgroundColor,
          cardRadius: card && getComputedStyle(card).borderTopLeftRadius,
          feltImage: getComputedStyle(felt).backgroundImage.slice(0, 15)};
}"""


def check_looks(root: Locator, dark: bool) -> dict:
    looks = root.evaluate(LOOKS)
    assert looks["root"] == "ShadowRoot", looks  # marimo's shadow DOM: and the styles still apply
    assert looks["bg"] == ("rgb(33, 33, 33)" if dark else "rgb(255, 255, 255)"), looks
    assert looks["fg"] == ("rgba(255, 255, 255, 0.87)" if dark else "rgba(0, 0, 0, 0.87)"), looks
    assert looks["card"] not in (None, "rgba(0, 0, 0, 0)", "transparent"), looks
    assert looks["cardRadius"] not in (None, "0px"), looks
    return looks


def expand_output(page: Page) -> None:
    """In `marimo edit` a tall output is clamped to a scrolled box: "Expand output" shows the widget whole."""
    cell = page.locator(".marimo-cell").nth(1)
    cell.hover()
    cell.get_by_test_id("expand-output-button").click()
    expect(cell.locator(".output-area")).to_have_css("max-height", "none")


def shoot(page: Page, root: Locator, name: str) -> None:
    """The page and the widget alone: marimo-{name}-page.png, marimo-{name}.png."""
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    root.scroll_into_view_if_needed()
    page.wait_for_timeout(150)
    page.screenshot(path=str(ARTIFACTS / f"marimo-{name}-page.png"), animations="disabled")
    root.screenshot(path=str(ARTIFACTS / f"marimo-{name}.png"), animations="disabled")
    audit(page, root, f"marimo-{name}")


def check_worlds(root: Locator) -> None:
    """Possible worlds, computed on the widget's worker thread after the step settles, reach marimo's page."""
    root.locator('[data-key="tool-worlds"]').click()
    panel = root.get_by_role("region", name="Possible worlds", exact=True)
    expect(panel).to_contain_text("Possible worlds for Player 1")
    expect(panel.locator(".nw-worlds-table tbody tr")).not_to_have_count(0)
    expect(panel.locator("progress")).to_have_count(0)


def check_keys_stay(page: Page, root: Locator) -> None:
    """Keys typed in the widget never reach marimo's shortcuts: no new cell (a, b in command mode), no
    command palette, no cell deleted; and the same key on a cell (outside the widget) does add one.
    """
    cells = page.locator(".marimo-cell")
    n = cells.count()
    overlays = page.locator("[cmdk-root]:visible, [role=dialog]:visible, [role=menu]:visible")
    shown = overlays.count()
    root.get_by_role("button", name="Draw from pile").focus()
    for key in ("Escape", "a", "b", "ArrowDown", "ArrowUp", "ArrowLeft", "ArrowRight", "Shift+Backspace", "q", "x"):
        page.keyboard.press(key)
        page.wait_for_timeout(60)
    page.wait_for_timeout(300)
    assert cells.count() == n
    expect(overlays).to_have_count(shown)
    inside = page.evaluate("""() => { let a = document.activeElement;
        while (a && a.shadowRoot && a.shadowRoot.activeElement) a = a.shadowRoot.activeElement;
        return Boolean(a && a.closest && a.closest('.nw-root')); }""")
    assert inside, "the focus left the widget"
    # ←/→ were the widget's: it stepped back and forth and is at the last step again.
    expect(root.get_by_role("button", name="Draw from pile")).to_be_enabled()
    # The control: the same key on the cell itself (marimo's command mode) adds a cell.
    page.locator(".marimo-cell").nth(1).focus()
    page.keyboard.press("b")
    expect(cells).to_have_count(n + 1)


def save_picture(page: Page, root: Locator, name: str, dark: bool) -> bytes:
    """"Save picture" downloads a PNG of the widget drawn with its styles (read from the shadow root)."""
    root.scroll_into_view_if_needed()
    shot = root.screenshot(animations="disabled")
    box = root.bounding_box()
    with page.expect_download() as caught:
        root.get_by_role("button", name="Save picture").click()
    path = ARTIFACTS / name
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    caught.value.save_as(path)
    expect(root.get_by_role("button", name="Save picture")).to_have_text("Save picture")
    data = path.read_bytes()
    width, height = _png_size(data)
    assert abs(width - 2 * box["width"]) <= 4 and abs(height - 2 * box["height"]) <= 40, (width, height, box)
    red, green, blue, alpha = _first_row_pixel(data, width // 2)
    light = (red + green + blue) / 3
    assert alpha == 255 and (light < 90 if dark else light > 200), (dark, red, green, blue, alpha)
    # As on screen: without the widget's rules (the shadow root's, not the document's) the felt, the
    # cards and the buttons would be drawn unstyled.
    figures = _compare(data, shot, (0, 0, box["width"], box["height"]))
    assert figures["mean_diff"] < 12, figures
    return data


def model_states(page: Page, root: Locator) -> dict:
    """The synced state of `root`'s model as marimo delivered it (the open message, then each update)."""
    model_id = root.evaluate("r => JSON.parse(r.getRootNode().host.getAttribute('data-model-id'))")
    state: dict = {}
    for mid, _method, update in page.evaluate("() => window.__nwModels"):
        if mid == model_id and update:
            state.update(update)
    assert state, f"no state seen for model {model_id}"
    # ipywidgets' own references (the `layout` model's id) differ between any two widgets.
    return {k: v for k, v in state.items() if not (isinstance(v, str) and v.startswith("IPY_MODEL_"))}


def check_twins(page: Page) -> None:
    """Player 1's page of two games that differ only in a card it cannot see (a card of Player 2's hand
    swapped with the pile's bottom card) holds the same DOM and the same synced model: no hidden card.
    """
    roots = page.locator(".nw-root")
    a, b = roots.nth(1), roots.nth(2)
    _, _, x, y = twin_decks()
    for root in (a, b):
        expect(root.get_by_role("grid", name="Pick your needle")).to_be_visible()
    html = [r.evaluate("r => r.innerHTML.replace(/\\bnw\\d+-/g, 'nw-')") for r in (a, b)]
    assert html[0] == html[1], "the twins' DOMs differ"
    text = a.inner_text()
    assert "Player 1" in text
    states = [model_states(page, r) for r in (a, b)]
    assert json.dumps(states[0], sort_keys=True) == json.dumps(states[1], sort_keys=True), "the twins' models differ"
    # Neither swapped card shows anywhere but in the needle picker (every card of the deck, to choose from).
    for card in (x, y):
        shown = a.evaluate("""(r, code) => [...r.querySelectorAll(`[data-card="${code}"]`)]
            .filter((e) => !e.closest('[aria-label="Pick your needle"]')).length""", card_code(card))
        assert shown == 0, f"the hidden card {card} is in Player 1's DOM"


def card_code(card: str) -> str:
    from needle_widget import Card
    return Card.parse(card).code


def test_play_a_whole_turn_in_marimo_edit(marimo_edit: dict, page: Page) -> None:
    root = open_app(page, marimo_edit)
    check_looks(root, dark=False)
    check_twins(page)
    play_a_turn(root)
    check_game(read_game(page, 1))
    check_worlds(root)
    expand_output(page)
    shoot(page, root, "edit-light")
    set_dark(page, True)
    check_looks(root, dark=True)
    shoot(page, root, "edit-dark")
    set_dark(page, False)
    check_keys_stay(page, root)


def test_play_a_whole_turn_in_marimo_run(marimo_run: dict, page: Page) -> None:
    root = open_app(page, marimo_run)
    # An app: no code, no cell editor.
    expect(page.locator(".cm-editor")).to_have_count(0)
    check_looks(root, dark=False)
    check_twins(page)
    play_a_turn(root)
    check_game(read_game(page, 1))
    check_worlds(root)
    save_picture(page, root, "marimo-picture-light.png", dark=False)
    shoot(page, root, "run-light")
    set_dark(page, True)
    check_looks(root, dark=True)
    save_picture(page, root, "marimo-picture-dark.png", dark=True)
    shoot(page, root, "run-dark")
    # save_png from Python: a custom message to the view, answered with the PNG (another custom message).
    page.get_by_role("button", name="Save from Python").click()
    data = written_png(marimo_run["folder"] / "from-python-1.png")
    assert data[:8] == b"\x89PNG\r\n\x1a\n" and len(data) > 20_000, len(data)
    shutil.copy(marimo_run["folder"] / "from-python-1.png", ARTIFACTS / "marimo-picture-from-python.png")
    set_dark(page, False)


def test_play_lesson01_in_marimo_run(marimo_lesson: dict, page: Page) -> None:
    """notebooks/marimo/01_play.py (a copy) as the app a student gets: no code; the play widget (its
    "Playing" chip) plays a whole turn on the class deal by clicking, the bot answers, the line that
    follows `w.game` moves on, and Player 2's hand is backs only in Player 1's page.
    """
    page.set_default_timeout(60_000)
    expect.set_options(timeout=60_000)
    page.set_viewport_size({"width": 1400, "height": 1800})
    page.emulate_media(color_scheme="light")
    page.goto(marimo_lesson["base"])
    roots = page.locator(".nw-root")
    expect(roots).to_have_count(4)  # the set worth 2, the needle found (teacher), the play widget, hotseat
    play = roots.filter(has=page.locator(".nw-mode", has_text=re.compile("^Playing$")))
    expect(play).to_have_count(1)
    line = page.get_by_text(re.compile(r"^turn \d+ · "))
    expect(line).to_have_text(re.compile(r"^turn 0 · needle · "))
    idle(page)
    expect(page.locator(".cm-editor")).to_have_count(0)  # an app: no code, no cell editor
    for label in ("Your seat", "The bot", "The deal"):
        expect(page.get_by_text(label, exact=True)).to_be_visible()
    before = line.inner_text()

    # Player 2's dealt cards (the class deal, as Game(seed=1511) deals it): nowhere in Player 1's page
    # but the needle picker (every card of the deck, to choose from).
    theirs = [c.code for c in Game(seed=LESSON_SEED).hand(1)]
    shown = play.evaluate("""(r, codes) => codes.filter((code) => [...r.querySelectorAll(`[data-card="${code}"]`)]
        .some((e) => !e.closest('[aria-label="Pick your needle"]')))""", theirs)
    assert shown == [], f"Player 2's cards {shown} are in Player 1's DOM"

    # The needle: the first card the picker offers (the cards in the hand are disabled there).
    needle = play.get_by_role("grid", name="Pick your needle").locator("button:not([aria-disabled=true])").first
    needle_name = needle.get_attribute("aria-label")
    needle.click()
    expect(play.get_by_role("img", name=f"{needle_name}, Player 1's needle")).to_have_count(1)
    draw = play.get_by_role("button", name="Draw from pile")
    expect(draw).to_be_enabled()
    hand = play.get_by_role("grid", name=re.compile(r"^Player 1's hand"))
    draw.click()
    expect(hand).to_have_attribute("aria-label", "Player 1's hand: 8 cards")
    # The lesson's text: the 9♥ drawn makes 8♦ 9♥ 10♣ (one of the three sets it offers).
    for name in ("8 of diamonds", "9 of hearts", "10 of clubs"):
        hand.get_by_role("button", name=re.compile(f"^{name}")).click()
    lay = play.get_by_role("button", name="Lay set")
    expect(lay).to_contain_text("1 point")
    lay.click()
    play.get_by_role("button", name="Done laying sets").click()
    expect(play.locator(".nw-controls-discard")).to_be_visible()  # else a card clicked first is unselected
    expect(hand).to_have_attribute("aria-label", "Player 1's hand: 8 cards")  # 3 laid, 3 drawn to replace them
    expect(hand.get_by_role("button", name=re.compile(", just drawn$"))).to_have_count(3)
    mine = [b.get_attribute("data-card") for b in hand.get_by_role("button").all()]
    card = hand.get_by_role("button").first
    discarded = card.get_attribute("data-card")
    card.click()
    play.get_by_role("button", name="Discard", exact=True).click()
    expect(play.locator(".nw-status-line")).to_have_text("Turn 3 · Player 1 draws a card")  # the bot played
    expect(draw).to_be_enabled()
    expect(hand.locator(f"[data-card='{discarded}']")).to_have_count(0)
    expect(play.get_by_role("list", name="Player 1's sets")).to_contain_text("1 point")
    # The line that reads `w.game` ran again after the moves (mine and the bot's).
    expect(line).to_have_text(re.compile(r"^turn 3 · draw · scores "))
    assert line.inner_text() != before

    # Player 2's hand in Player 1's page: backs, but for a card the bot stole from Player 1 (both know it).
    theirs_view = play.get_by_role("group", name=re.compile(r"^Player 2's hand: \d+ cards?$"))
    expect(theirs_view).to_have_count(1)
    size = int(re.search(r"(\d+) cards?$", theirs_view.get_attribute("aria-label")).group(1))
    faces = theirs_view.locator(".nw-card:not(.nw-back)")
    known = [f.get_attribute("data-card") for f in faces.all()]
    assert size > len(known), (size, known)
    expect(theirs_view.locator(".nw-card.nw-back:not(.nw-needle-hidden)")).to_have_count(size - len(known))
    expect(theirs_view.locator("[data-card]:not(.nw-known)")).to_have_count(0)
    assert set(known) <= set(mine) - {discarded}, (known, mine, discarded)

    idle(page)
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    controls = page.get_by_text("Your seat", exact=True)
    for dark in (False, True):
        set_dark(page, dark)
        controls.evaluate("e => e.scrollIntoView({block: 'start'})")
        page.wait_for_timeout(150)
        page.screenshot(path=str(ARTIFACTS / f"marimo-lesson01-run-{'dark' if dark else 'light'}.png"),
                        animations="disabled")
    set_dark(page, False)
