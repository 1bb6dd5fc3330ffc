"""One ledger palette (issue 29, item 7): the notebook's SVG ledger (`review.ledger`) and the widget's
(js/src/style.css) draw skill and luck in the same two hues, gain and loss by a bar's direction.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from needle_widget import examples
from needle_widget.review import ledger, review

STYLE = Path(__file__).resolve().parents[1] / "js" / "src" / "style.css"


def widget_colours() -> dict[str, str]:
    """style.css's `--nw-<name>: color-mix(in oklch, #hex N%, var(--nw-fg))`, by name."""
    found = re.findall(r"--nw-([a-z-]+): color-mix\(in oklch, (#[0-9a-fA-F]{6}) \d+%, var\(--nw-fg\)\);",
                       STYLE.read_text(encoding="utf-8"))
    return {name: hex_.lower() for name, hex_ in found}


def test_the_svg_palette_is_the_widgets() -> None:
    widget = widget_colours()
    assert {"skill", "luck"} <= set(ledger.COLOURS)
    for name, colour in ledger.COLOURS.items():
        assert widget.get(name) == colour.lower(), name
    assert (ledger.COLOURS["skill"], ledger.COLOURS["luck"]) == ("#cc79a7", "#009e73")


@pytest.fixture(scope="module")
def svg() -> str:
    return review(examples.load("found_early"), 0, worlds=4).ledger_svg()


def test_the_svg_uses_one_hue_for_skill_and_one_for_luck(svg: str) -> None:
    fills = set(re.findall(r'fill="(#[0-9a-fA-F]{6})"', svg))
    assert fills <= set(ledger.COLOURS.values())
    skill = set(re.findall(r'<rect class="skill"[^>]* fill="([^"]+)"', svg))
    luck = set(re.findall(r'<rect class="luck"[^>]* fill="([^"]+)"', svg))
    assert skill == {ledger.COLOURS["skill"]} and luck == {ledger.COLOURS["luck"]}
    for old in ("#2e7d32", "#c62828", "#1e88e5", "#ef6c00", "#5c6bc0"):  # green/red, blue/orange, indigo
        assert old not in svg


def test_the_svg_says_gain_and_loss_in_words_and_keeps_its_accessible_text(svg: str) -> None:
    assert "bar up: gained · down: lost" in svg
    assert "skill (a decision)" in svg and "luck (the cards)" in svg
    assert '<title id="ledger-title">Player 1\'s ledger</title>' in svg and '<desc id="ledger-desc">' in svg
    assert re.search(r"<title>Step \d+: [^<]+, skill [+-]\d+ points \(\w+\)</title>", svg)
    assert re.search(r"<title>Steps \d+-\d+: luck [+-]\d+ points</title>", svg)
