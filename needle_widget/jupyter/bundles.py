"""The front end's built files (needle_widget/static/), as anywidget takes them."""

from __future__ import annotations

import os
import pathlib

__all__ = ["STATIC", "MISSING", "bundle"]

STATIC = pathlib.Path(__file__).parent.parent / "static"
"""Where `npm run build` (js/package.json) writes the bundles."""
MISSING = """export default { render({ el }) {
  el.textContent = "needle_widget's front end is not built: run `pip install -e .` in the project folder."; } };"""
"""The module a widget gets when its bundle is not built: it says so in the page."""


def bundle(name: str, missing: str) -> str | pathlib.Path:
    """The front end's built file `name` as text, or `missing` if it is not built. As a path (which
    anywidget watches and reloads) only when hot reload is asked for (`ANYWIDGET_HMR=1`): anywidget
    ties every instance to a watched file's signal, so a closed widget would never be freed.
    """
    path = STATIC / name
    if not path.is_file():
        return missing
    if os.environ.get("ANYWIDGET_HMR") == "1":
        return path
    text = path.read_text(encoding="utf-8")
    return text if "\n" in text else text + "\n"  # one line could pass for a file name with anywidget
