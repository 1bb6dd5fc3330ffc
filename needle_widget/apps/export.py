"""A replay as one self-contained HTML file: the widget's own front end and one perspective's
synced state at every step, for a course page or an e-mail. No kernel, no network.

Only what that perspective may know goes into the file: each step's state is `Synced.state()`
of a replay session shown from that perspective (the state a widget would sync to the browser),
with the controls that need Python taken out (other perspectives, the panels, branches, notes
editing). Nothing else from the replay is written (not its seed, deck or actions), so twin
replays that differ only in what the perspective cannot see give byte-identical files.

With `review=True` the file also carries the review the perspective may see (the review panel's
rule, `screen.reviewpanel`): a player's page its own seat's review, and the opponent's only with
`reveal_at_end=True` (everything revealed at the end: the opponent's review lists the opponent's
cards, so twins that differ in them then differ in the file too); the teacher's page both; the
spectator's both with `reveal_at_end=True`, else none. Spoiler-free, the review is in the last
step's state only.

The variations the perspective may open (`Variation.open_to`; spoiler-free, only those playing a sampled
world) go in too: the states of each one's steps, from the step it starts at to its end, after the game's
("lines": [{index, from, end, first}], `first` the index of its first state), so the page opens them and
steps along them as the widget does.

Steps share most of their state, so the states are stored once as a pool of distinct JSON
values: every object or array that is not tiny becomes one pool entry, and a state refers to
its parts as ``{"$r": index}``. The page's script (js/src/standalone.js) rebuilds the states
and steps through them with the same buttons, slider, event list and keys as the widget.

>>> from needle_widget import examples
>>> page = to_html(examples.load("found_early"), perspective="teacher")
>>> page.startswith("<!DOCTYPE html>"), "the teacher's view" in page
(True, True)
"""

from __future__ import annotations

import base64
import hashlib
import html
import json
import os
import pathlib
import re
import warnings
from typing import Any

from .._version import __version__
from ..engine.errors import ArgumentError, quote
from ..engine.paths import check_path, write_text
from ..engine.views import Perspective, check_perspective, read_perspective
from ..records.replay import Replay
from ..screen.frames import FORMAT, REF, Frames, label, pack, unpack

__all__ = ["FORMAT", "GUESSABLE_SEED", "REF", "GuessableSeedWarning", "pack", "states", "to_html", "unpack"]


GUESSABLE_SEED = 2**48
"""Seeds below this can be tried one by one (a reader's laptop does billions of shuffles a day)."""


class GuessableSeedWarning(UserWarning):
    """A player's or the spectator's file of a replay dealt from a small seed: the file holds no
    seed, but its first hand lets a reader try seeds until one deals it, and so find every card.
    """


_STATIC = pathlib.Path(__file__).parent.parent / "static"

_label = label


def states(replay: Replay, perspective: Perspective = 0, spoilers: bool = True, *, review: bool = False,
           reveal_at_end: bool = False, review_worlds: int | None = None) -> list[dict[str, Any]]:
    """The synced state at every step (0 to the end) of `replay` seen from `perspective`, as a file
    shows it (spoiler-free review with `spoilers=False`: no step tells of a later one). `review`:
    with the review open, at `review_worlds` worlds per decision (default the review's own), for the
    seats the perspective may see (the opponent's only with `reveal_at_end`: see the module docstring).
    """
    frames = Frames(replay, read_perspective(perspective), spoilers, review=review, reveal_at_end=reveal_at_end,
                    review_worlds=review_worlds)
    return [frames.at(k) for k in range(len(replay) + 1)]


def _json(value: Any) -> str:
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False, allow_nan=False)


def _script_safe(text: str) -> str:
    """Text that cannot end or open anything inside a <script> element."""
    return text.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026") \
        .replace("\u2028", "\\u2028").replace("\u2029", "\\u2029")


def _asset(name: str) -> str:
    path = _STATIC / name
    if not path.is_file():
        raise FileNotFoundError(f"The front end is not built: {path} is missing (cd js && npm install && "
                                "npm run build)")
    return path.read_text(encoding="utf-8")


# The page around the widget: its own colours (no JupyterLab theme here), light or dark as the
# reader's system prefers; a policy that lets the file load nothing from anywhere.
_PAGE_CSS = """
:root { color-scheme: light dark; }
body { margin: 0; padding: 1.5rem; background: #f5f5f5; color: rgba(0, 0, 0, 0.87);
  font-family: system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; }
main { max-width: 72rem; margin: 0 auto; }
.needle-page-title { font-size: 1rem; font-weight: 600; margin: 0 0 0.75rem; }
.needle-page-foot { font-size: 0.8rem; color: rgba(0, 0, 0, 0.6); margin-top: 0.75rem; }
@media (prefers-color-scheme: dark) {
  body { background: #111111; color: rgba(255, 255, 255, 0.87); }
  .needle-page-foot { color: rgba(255, 255, 255, 0.6); }
  .nw-root {
    --jp-layout-color1: #212121; --jp-layout-color2: #424242; --jp-layout-color3: #616161;
    --jp-ui-font-color1: rgba(255, 255, 255, 0.87); --jp-ui-font-color2: rgba(255, 255, 255, 0.6);
    --jp-border-color2: #424242; --jp-brand-color1: #64b5f6; --jp-ui-inverse-font-color1: rgba(0, 0, 0, 0.8);
    --jp-error-color1: #ef9a9a;
  }
}
"""

_POLICY = ("default-src 'none'; script-src '{script}'; style-src 'unsafe-inline'; img-src data: blob:; "
           "base-uri 'none'; form-action 'none'")


def _foot(actions: int, label: str, spoilers: bool) -> str:
    """The line under the widget (the replay's length only with spoilers: it tells when the round ends)."""
    length = f"A replay of {actions} actions, seen" if spoilers else "A replay seen"
    keys = "Step with the buttons, the slider, the event list or the ← → keys."
    return f"{length} as {html.escape(label)} saw it. {keys}"


def to_html(replay: Replay, path: str | os.PathLike | None = None, perspective: Perspective = 0, step: int = 0,
            spoilers: bool = True, *, review: bool = False, reveal_at_end: bool = False,
            review_worlds: int | None = None) -> str:
    """The replay seen from `perspective` as one HTML page, opening at `step`; written to `path`
    if given (the page is returned either way). `spoilers=False`: the reader sees nothing past the
    step shown until stepping there. `review=True`: the page carries the review `perspective` may
    see (its own seat's for a player; the opponent's too only with `reveal_at_end=True`), at
    `review_worlds` worlds per decision. See the module's docstring for what the file holds.
    """
    perspective = check_perspective(read_perspective(perspective))
    if path is not None:
        check_path(path, "to_html")
    if not isinstance(spoilers, bool):
        raise ArgumentError(f"spoilers must be True or False, not {quote(spoilers)}")
    if type(step) is not int or not 0 <= step <= len(replay):
        raise ArgumentError(f"Cannot open the file at step {quote(step)}: the replay has steps 0 to {len(replay)}")
    if perspective != "teacher" and replay.seed < GUESSABLE_SEED:
        warnings.warn(GuessableSeedWarning(
            f"This replay was dealt from a small seed: the file holds no seed, but a reader of {_label(perspective)}'s "
            "file could try seeds until one deals the hand it shows, and so find every hidden card. For replays to "
            "share, deal with a fresh seed (Game() or NeedleWidget.play() without seed=)."), stacklevel=2)
    script = re.sub(r"</(script)", r"<\\/\1", _asset("standalone.js"), flags=re.IGNORECASE)
    css = re.sub(r"</(style)", r"<\\/\1", _asset("widget.css"), flags=re.IGNORECASE)
    digest = base64.b64encode(hashlib.sha256(script.encode("utf-8")).digest()).decode("ascii")
    frames = Frames(replay, perspective, spoilers, review=review, reveal_at_end=reveal_at_end,
                    review_worlds=review_worlds)
    main = [frames.at(k) for k in range(len(replay) + 1)]
    lines: list[dict[str, Any]] = []
    more: list[dict[str, Any]] = []
    for index, variation in frames.lines():
        lines.append({"index": index, "from": variation.step, "end": variation.end,
                      "first": len(main) + len(more)})
        more += [frames.line_at(index, k) for k in range(variation.step, variation.end + 1)]
    data = {**pack(main + more), "step": step, "lines": lines}
    label = _label(perspective)
    title = f"Needle in a Card Stack: {label}'s view"
    page = "\n".join([
        "<!DOCTYPE html>",
        '<html lang="en">',
        "<head>",
        '<meta charset="utf-8">',
        f'<meta http-equiv="Content-Security-Policy" content="{_POLICY.format(script="sha256-" + digest)}">',
        '<meta name="viewport" content="width=device-width, initial-scale=1">',
        f'<meta name="generator" content="needle_widget {html.escape(__version__)}">',
        f"<title>{html.escape(title)}</title>",
        f"<style>{_PAGE_CSS}{css}</style>",
        "</head>",
        "<body>",
        "<main>",
        f'<h1 class="needle-page-title">{html.escape(title)}</h1>',
        '<div id="needle-widget"></div>',
        "<noscript>This replay needs JavaScript to step through it.</noscript>",
        f'<p class="needle-page-foot">{_foot(len(replay), label, spoilers)}</p>',
        "</main>",
        f'<script type="application/json" id="needle-data">{_script_safe(_json(data))}</script>',
        f"<script>{script}</script>",
        "</body>",
        "</html>",
        "",
    ])
    if path is not None:
        write_text(path, page, "to_html")
    return page
