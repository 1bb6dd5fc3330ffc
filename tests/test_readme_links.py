"""README's quick start serves the project folder, so the lessons' relative links (the rule book) resolve
inside what JupyterLab serves; every such link names a file that exists.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
LINK = re.compile(r"\]\((?!https?:|#|mailto:)([^)\s]+)\)")


def test_the_quick_start_serves_the_project_folder() -> None:
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    quick = text[text.index("## Quick start"):text.index("Run every test")]
    command = next(line for line in quick.splitlines() if "jupyter lab" in line and "pip install" in line)
    assert "jupyter lab --ServerApp.root_dir=. notebooks/01_play.ipynb" in command


def test_every_relative_link_in_the_lessons_stays_in_the_project_and_exists() -> None:
    seen = 0
    for path in sorted((ROOT / "notebooks").glob("*.ipynb")):
        for cell in json.loads(path.read_text(encoding="utf-8"))["cells"]:
            if cell["cell_type"] != "markdown":
                continue
            for target in LINK.findall("".join(cell["source"])):
                file = (path.parent / target.split("#")[0]).resolve()
                assert file.is_relative_to(ROOT) and file.exists(), (path.name, target)
                seen += 1
    assert seen >= 1


def test_lesson_01_names_the_deal_buttons_as_they_read() -> None:
    labels = (ROOT / "js" / "src" / "table.js").read_text(encoding="utf-8")
    assert 'label: "New deal"' in labels and 'label: "Same deal again"' in labels
    for path in (ROOT / "notebooks" / "01_play.ipynb", ROOT / "notebooks" / "marimo" / "01_play.py"):
        text = path.read_text(encoding="utf-8")
        assert "**New deal**" in text and "**Same deal again**" in text and "**New game**" not in text, path.name
