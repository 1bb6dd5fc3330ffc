"""The notebook check has teeth: an altered stored output makes strict nbval fail."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

NOTEBOOKS = Path(__file__).resolve().parents[1] / "notebooks"
READY_TO_RUN = ("08_lead_a_class.ipynb",)
"""Notebooks saved without outputs, ready for a class to run, and left out of nbval (pyproject.toml's addopts): the
teacher's notebook opens a real room. tests/test_class_notebooks.py runs it."""


def run_nbval(path: Path) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "pytest", "--nbval", "--nbval-current-env", "-p", "no:cacheprovider", "-q",
         "-o", "addopts=", "--rootdir", str(path.parent), str(path)],
        capture_output=True, text=True, timeout=300, cwd=path.parent,
    )


def test_every_notebook_is_saved_with_its_outputs() -> None:
    for path in sorted(NOTEBOOKS.glob("*.ipynb")):
        cells = [c for c in json.loads(path.read_text())["cells"] if c["cell_type"] == "code"]
        if path.name in READY_TO_RUN:
            assert cells and not any(c["execution_count"] or c["outputs"] for c in cells), path.name
            continue
        assert cells and all(c["execution_count"] for c in cells), f"{path.name} is not saved executed"
        assert any(c["outputs"] for c in cells), path.name


def test_nbval_leaves_out_only_the_notebooks_ready_to_run() -> None:
    tomllib = pytest.importorskip("tomllib")
    project = tomllib.loads((NOTEBOOKS.parent / "pyproject.toml").read_text(encoding="utf-8"))
    options = project["tool"]["pytest"]["ini_options"]["addopts"].split()
    ignored = sorted(o.removeprefix("--ignore=") for o in options if o.startswith("--ignore=notebooks/"))
    assert ignored == sorted(["notebooks/marimo", *(f"notebooks/{name}" for name in READY_TO_RUN)])


@pytest.mark.slow
def test_an_altered_stored_output_fails_nbval(tmp_path: Path) -> None:
    copy = tmp_path / "01_play.ipynb"
    shutil.copy(NOTEBOOKS / "01_play.ipynb", copy)
    book = json.loads(copy.read_text())
    cell = next(c for c in book["cells"] if c["cell_type"] == "code" and any(
        o.get("name") == "stdout" and "point(s)" in "".join(o["text"]) for o in c["outputs"]))
    stream = next(o for o in cell["outputs"] if o.get("name") == "stdout")
    text = "".join(stream["text"])
    stream["text"] = text.replace("J♦ Q♦ K♦ -> 2 point(s)", "J♦ Q♦ K♦ -> 3 point(s)")
    assert stream["text"] != text
    copy.write_text(json.dumps(book))
    done = run_nbval(copy)
    assert done.returncode == 1, done.stdout[-2000:]
    assert "3 point(s)" in done.stdout and "1 failed" in done.stdout
