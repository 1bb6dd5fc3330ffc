"""`needle-widget lite` (issue 47), the parts that need no network: what the site's lessons and answer files become,
which packages a browser install needs, and the folder it refuses. The site itself, built and run in Chromium, is
tests/browser/test_lite_site.py (CI's stage .ci/lite).
"""

from __future__ import annotations

import json
import math
from pathlib import Path

import pytest

from needle_widget.apps import cli
from needle_widget.apps.lite import (
    BROWSER_LESSONS,
    EMSCRIPTEN,
    NOT_IN_BROWSER,
    SITE_MARK,
    _check_target,
    _wheel_requires,
    browser_requirements,
    site_answers,
    site_notebook,
)
from needle_widget.engine.errors import NeedleError
from needle_widget.teaching.answers import class_table

ROOT = Path(__file__).resolve().parents[1]
NOTEBOOKS = ROOT / "notebooks"
NO_PROCESSES = ("ProcessPoolExecutor(", "ThreadPoolExecutor(", "LocalCluster(", "Client(", "executor=",
                "client.", "cluster.")


def _close(a: object, b: object) -> bool:
    if isinstance(a, float) and isinstance(b, float):
        return math.isclose(a, b, rel_tol=1e-6, abs_tol=1e-7)
    if isinstance(a, dict) and isinstance(b, dict):
        return a.keys() == b.keys() and all(_close(a[k], b[k]) for k in a)
    if isinstance(a, list | tuple) and isinstance(b, list | tuple):
        return len(a) == len(b) and all(_close(x, y) for x, y in zip(a, b, strict=True))
    return a == b


def _code(cell: dict) -> str:
    return "".join(cell["source"])


def test_the_site_carries_every_lesson_but_the_class_ones() -> None:
    names = sorted(p.stem for p in NOTEBOOKS.glob("*.ipynb"))
    assert set(BROWSER_LESSONS) == {n for n in names if not n.startswith("08_")}


@pytest.mark.parametrize("lesson", BROWSER_LESSONS)
def test_a_cell_that_needs_processes_or_threads_is_tagged_and_becomes_a_note(lesson: str) -> None:
    notebook = json.loads((NOTEBOOKS / f"{lesson}.ipynb").read_text(encoding="utf-8"))
    site = site_notebook(notebook)
    assert len(site["cells"]) == len(notebook["cells"])
    for before, after in zip(notebook["cells"], site["cells"], strict=True):
        tagged = NOT_IN_BROWSER in before.get("metadata", {}).get("tags", [])
        if before["cell_type"] != "code":
            assert after == before
        elif tagged:
            assert after["cell_type"] == "markdown" and _code(before) in after["source"]
        else:
            assert not any(word in _code(before) for word in NO_PROCESSES), (lesson, _code(before)[:200])
            assert after["outputs"] == [] and after["execution_count"] is None and after["source"] == before["source"]
    assert notebook == json.loads((NOTEBOOKS / f"{lesson}.ipynb").read_text(encoding="utf-8"))  # a copy


def test_lesson_04_keeps_its_cluster_section_as_notes() -> None:
    site = site_notebook(json.loads((NOTEBOOKS / "04_strategy_lab.ipynb").read_text(encoding="utf-8")))
    notes = [c for c in site["cells"] if NOT_IN_BROWSER in c.get("metadata", {}).get("tags", [])]
    assert len(notes) == 7 and all(c["cell_type"] == "markdown" for c in notes)
    assert any("LocalCluster" in c["source"] for c in notes)
    assert any("ProcessPoolExecutor" in c["source"] for c in notes)


def test_the_answer_files_go_as_csv_with_the_same_answers(tmp_path: Path) -> None:
    written = site_answers(NOTEBOOKS / "answers", tmp_path)
    assert not any("json" in name for name in written)  # JupyterLite parses such a file as one JSON document
    assert sorted(p.name for p in tmp_path.iterdir()) == written
    assert _close(class_table(tmp_path), class_table(NOTEBOOKS / "answers"))  # CSV keeps 7 significant digits
    (tmp_path / "clash").mkdir()
    (tmp_path / "clash" / "a.jsonl").write_text("")
    (tmp_path / "clash" / "a.csv").write_text("")
    with pytest.raises(NeedleError, match="would be one file"):
        site_answers(tmp_path / "clash", tmp_path / "out")


def test_a_browser_install_asks_for_no_compiled_package() -> None:
    requires = ["anywidget>=0.9", "cryptography>=42; sys_platform != 'emscripten'", "redis>=5; sys_platform != "
                "'emscripten'", "fsrs>=6", "dask; extra == 'cluster'", "pexpect; sys_platform != 'emscripten'"]
    tree = {"anywidget": ["psygnal>=0.8", "ipywidgets>=7"], "ipywidgets": ["comm", "widgetsnbextension~=4.0"],
            "psygnal": ["wrapt; extra == 'proxy'"], "fsrs": [], "comm": []}
    found = browser_requirements(requires, provided={"widgetsnbextension"}, installed=tree.get)
    assert found == ["anywidget", "comm", "fsrs", "ipywidgets", "psygnal"]
    assert EMSCRIPTEN["sys_platform"] == "emscripten"


def test_the_wheels_requirements_are_read_from_its_metadata(tmp_path: Path) -> None:
    import zipfile

    wheel = tmp_path / "x-1-py3-none-any.whl"
    with zipfile.ZipFile(wheel, "w") as archive:
        archive.writestr("x-1.dist-info/METADATA", "Name: x\nRequires-Dist: tqdm>=4\nRequires-Dist: dask; extra == "
                         "'cluster'\nRequires-Dist: redis; sys_platform != 'emscripten'\n")
    assert _wheel_requires(wheel) == ["tqdm>=4", "redis; sys_platform != 'emscripten'"]
    with zipfile.ZipFile(tmp_path / "bad.whl", "w") as archive:
        archive.writestr("x.txt", "")
    with pytest.raises(NeedleError, match="no METADATA"):
        _wheel_requires(tmp_path / "bad.whl")


def test_it_never_writes_over_a_folder_that_is_not_a_site(tmp_path: Path, capsys: pytest.CaptureFixture) -> None:
    (tmp_path / "notes.txt").write_text("mine")
    with pytest.raises(NeedleError, match="not empty"):
        _check_target(tmp_path)
    (tmp_path / "notes.txt").unlink()
    (tmp_path / "jupyter-lite.json").write_text("{}")  # a JupyterLite folder of someone's own: never replaced
    with pytest.raises(NeedleError, match="not empty"):
        _check_target(tmp_path)
    (tmp_path / SITE_MARK).write_text("{}")
    (tmp_path / "old").mkdir()
    assert _check_target(tmp_path) == tmp_path.resolve()  # a site this built: replaced
    file = tmp_path / "file"
    file.write_text("")
    assert cli.main(["lite", str(file)]) == 2
    assert "is a file, not a folder" in capsys.readouterr().err
    assert cli.main(["lite", str(tmp_path / "new"), "--wheel", str(tmp_path / "none.whl")]) == 2
    assert "no wheel at" in capsys.readouterr().err
    assert not (tmp_path / "new").exists()
