"""A whole turn with the keyboard alone, in a real JupyterLab, as a screen reader user plays it (issue 33):
Tab into the needle picker, move through it by the arrows, Enter picks the needle, D draws, number keys select
three cards, L lays them, F finishes, a number key and D discard. What the live region announces names every
event in the seat's words ("You drew 8♣ from the pile.", "Player 2 stole 2♣ from you."), and neither it nor the
table read aloud (R) ever names a card Player 1 cannot see.
"""

from __future__ import annotations

import re

from playwright.sync_api import Page, expect

from .test_widget_in_jupyterlab import PLAY_CELLS, kernel_print, open_notebook, shoot, widget_root

HIDDEN = (
    "from needle_widget.engine.cards import DECK\n"
    "g = w.game\n"
    "seen = set(g.hand(0)) | {c for p in (0, 1) for s in g.sets(p) for c in s} | set(g.discard_pile) | {g.needle(0)}\n"
    "print(' '.join(c.code for c in DECK if c not in seen))"
)
CELLS = [*PLAY_CELLS, HIDDEN]

# Every text the live line and the table's reading (R) say, in order, as a screen reader hears them.
LISTEN = """() => {
  const root = document.querySelector('.jp-NotebookPanel:not(.lm-mod-hidden) .nw-root');
  window.__nwSaid = [];
  const hear = (el) => new MutationObserver(() => {
    const t = el.textContent;
    if (t && window.__nwSaid[window.__nwSaid.length - 1] !== t) window.__nwSaid.push(t);
  }).observe(el, {childList: true, characterData: true, subtree: true});
  hear(root.querySelector('.nw-live'));
  hear(root.querySelector('[data-key=readout]'));
}"""

FOCUS = """() => { const a = document.activeElement;
  if (!a || !a.closest('.nw-root')) return null;
  return a.getAttribute('data-key') || (a.classList.contains('nw-root') ? 'root' : a.tagName); }"""

RANKS = {"A": "ace", "J": "jack", "Q": "queen", "K": "king"}
SUITS = {"C": ("♣", "clubs"), "D": ("♦", "diamonds"), "H": ("♥", "hearts"), "S": ("♠", "spades")}


def _spoken(code: str) -> tuple[str, str]:
    """A card as the narration writes it ("K♠") and as the reading says it ("king of spades")."""
    rank, suit = code[:-1], code[-1]
    return f"{rank}{SUITS[suit][0]}", f"{RANKS.get(rank, rank)} of {SUITS[suit][1]}"


def _focus(page: Page) -> str | None:
    return page.evaluate(FOCUS)


def _said(page: Page) -> list[str]:
    return page.evaluate("() => window.__nwSaid")


def _key_of(root, name: str) -> str:  # noqa: ANN001
    """The number key a card of the hand shows (its aria-keyshortcuts)."""
    return root.get_by_role("button", name=re.compile(f"^{name}")).get_attribute("aria-keyshortcuts")


def test_a_whole_turn_by_keyboard(jupyter: dict, page: Page) -> None:
    open_notebook(page, jupyter, "keyboard-turn.ipynb", CELLS)
    root = widget_root(page)
    expect(root.get_by_role("grid", name="Pick your needle")).to_be_visible()
    page.evaluate(LISTEN)
    root.focus()

    # Tab reaches the picker's one tab stop, the first card that may be picked.
    for _ in range(30):
        page.keyboard.press("Tab")
        if (_focus(page) or "").startswith("needle-"):
            break
    assert _focus(page) == "needle-AC", _focus(page)
    # The grid as Chromium exposes it to a screen reader: rows of cells, a card of the hand says why it is out.
    tree = root.get_by_role("grid", name="Pick your needle").aria_snapshot()
    assert '- row "clubs"' in tree and '- gridcell "2 of clubs, in your hand"' in tree, tree[:600]
    page.keyboard.press("ArrowRight")
    assert _focus(page) == "needle-2C"
    expect(root.locator("[data-key=needle-2C]")).to_have_attribute("aria-disabled", "true")
    page.keyboard.press("Enter")  # a card of the hand: nothing is asked of Python
    for key in ("ArrowDown", "ArrowDown", "ArrowDown", "End"):
        page.keyboard.press(key)
    assert _focus(page) == "needle-KS"
    shoot(page, "keyboard-needle-light.png")  # and its audit (axe.py): the grid's roles, names and tab stop
    page.keyboard.press("Enter")
    expect(root.locator(".nw-live")).to_contain_text("Player 2 picked a needle.")
    assert _focus(page) == "root"  # the picker went away: the focus stays in the widget

    page.keyboard.press("r")
    reading = root.locator("[data-key=readout]")
    expect(reading).to_contain_text("You may: Draw from pile; Steal from opponent.")
    expect(root.get_by_role("button", name="Draw from pile")).to_have_attribute("aria-keyshortcuts", "D")
    page.keyboard.press("d")
    expect(root.locator(".nw-controls-sets")).to_be_visible()
    hand = root.get_by_role("grid", name=re.compile("^Player 1's hand"))
    expect(hand).to_be_visible()
    for name in ("4 of clubs", "5 of hearts", "6 of hearts"):
        page.keyboard.press(_key_of(root, name))
    lay = root.get_by_role("button", name="Lay set")
    expect(lay).to_contain_text("1 point")
    shoot(page, "keyboard-sets-light.png")  # each card's number key, the three selected, L on Lay set
    page.keyboard.press("l")
    expect(root.locator(".nw-live")).to_contain_text("You laid 4♣ 5♥ 6♥ for 1 point.")
    page.keyboard.press("f")
    expect(root.locator(".nw-controls-discard")).to_be_visible()
    page.keyboard.press(_key_of(root, "9 of spades"))
    expect(root.get_by_role("button", name="Discard")).to_contain_text("9♠")
    page.keyboard.press("d")
    expect(root.get_by_role("button", name="Draw from pile")).to_be_enabled()  # the bot played its turn
    page.keyboard.press("r")
    expect(reading).to_contain_text("your move")

    turn, phase, to_move, *rest = re.sub(r"[\[\],']", " ", kernel_print(page, 1)).split()
    assert (int(turn), phase, int(to_move)) == (3, "draw", 0)
    said = _said(page)
    heard = " ".join(said)
    print("heard:", *said, sep="\n  ")
    for event in ("You picked K♠ as your needle.", "Player 2 picked a needle.", "You drew 8♣ from the pile.",
                  "You laid 4♣ 5♥ 6♥ for 1 point.", "You discarded 9♠."):
        assert event in heard, event
    # The opponent's whole turn is heard, though it came in moves quicker than one at a time.
    theirs = [e for e in re.findall(r"Player 2 [^.]*\.", heard) if "needle" not in e]
    assert any(e.startswith("Player 2 discarded") for e in theirs), theirs
    assert len(set(theirs)) >= 3, theirs
    hidden = kernel_print(page, 2).split()
    assert len(hidden) > 20, hidden
    named = [code for code in hidden for word in _spoken(code)
             if re.search(rf"(?<![0-9A-Za-z]){re.escape(word)}", heard)]
    assert named == [], f"hidden cards named to Player 1: {named}"
