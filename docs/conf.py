"""The documentation site (Sphinx, MyST): `sphinx-build -W -b html docs SITE` (docs/DEVELOPMENT.md, "The
documentation site"). The pages are the Markdown files beside this one; the API reference is read from the
docstrings; the live games in it are replays exported as one-file HTML pages (no kernel).
"""

from __future__ import annotations

import atexit
import pathlib
import shutil
import tempfile

from needle_widget import __version__, examples

project = "needle_widget"
author = "the needle_widget authors"
copyright = "2026, the needle_widget authors"  # noqa: A001 (Sphinx's own name)
release = version = __version__
extensions = ["myst_parser", "sphinx.ext.autodoc"]
source_suffix = {".md": "markdown"}
root_doc = "index"
exclude_patterns = ["_build"]
myst_heading_anchors = 4
myst_enable_extensions = ["colon_fence"]
default_role = "code"  # `name` in a docstring is code, as in the Markdown pages
autodoc_member_order = "bysource"
autodoc_typehints = "description"
html_theme = "furo"
html_title = f"needle_widget {__version__}"
html_static_path: list[str] = []

# The live games: replays exported as the command line exports them, seen from one perspective.
_pages = pathlib.Path(tempfile.mkdtemp(prefix="needle-docs-"))
atexit.register(shutil.rmtree, _pages, ignore_errors=True)
(_pages / "replays").mkdir()
examples.load("found_early").to_html(_pages / "replays" / "found_early_p1.html", perspective=0)
html_extra_path = [str(_pages)]
