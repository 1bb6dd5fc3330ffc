"""`needle-widget lite` (issue 47), the parts that need no network: what the site's lessons and answer files become,
which packages a browser install needs, and the folder it refuses. The site itself, built and run in Chromium, is
tests/browser/test_lite_site.py (CI's stage .ci/lite).
"""

from __future__ import annotations

import json
import math
import re
from pathlib import Path

import pytest

from needle_widget.apps import cli, lite
from needle_widget.apps.lite import (
    BROWSER_LESSONS,
    KERNEL_STUBS,
    NOT_IN_BROWSER,
    SITE_MARK,
    _check_target,
    _check_wheel,
    _download,
    _replace_site,
    _wheel_requires,
    browser_requirements,
    site_answers,
    site_files,
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


def test_the_package_s_own_requirements_ask_for_nothing_compiled_in_a_browser() -> None:
    import tomllib

    requires = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]["dependencies"]
    found = browser_requirements(requires, provided=KERNEL_STUBS)
    assert "cryptography" not in found and "redis" not in found and "cffi" not in found
    assert {"anywidget", "ipywidgets", "traitlets", "tqdm", "fsrs"} <= set(found)


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
    with pytest.raises(NeedleError, match="is not one this command wrote"):
        _check_target(tmp_path)
    (tmp_path / SITE_MARK).write_text(json.dumps({"files": ["jupyter-lite.json", "old"]}))
    (tmp_path / "old").mkdir()
    assert _check_target(tmp_path) == tmp_path.resolve()  # a site this built: replaced
    (tmp_path / "CNAME").write_text("class.example.org")  # added by its owner since: never removed
    with pytest.raises(NeedleError, match="'CNAME', which this command did not write"):
        _check_target(tmp_path)
    assert cli.main(["lite", str(tmp_path)]) == 2 and (tmp_path / "CNAME").read_text() == "class.example.org"
    capsys.readouterr()
    (tmp_path / "CNAME").unlink()
    with pytest.raises(NeedleError, match="must be apart"):
        lite.build_site(tmp_path, cache=tmp_path / "cache")
    file = tmp_path / "file"
    file.write_text("")
    assert cli.main(["lite", str(file)]) == 2
    assert "is a file, not a folder" in capsys.readouterr().err
    assert cli.main(["lite", str(tmp_path / "new"), "--wheel", str(tmp_path / "none.whl")]) == 2
    assert "no wheel at" in capsys.readouterr().err
    assert not (tmp_path / "new").exists()


def test_a_site_is_replaced_by_what_it_wrote_and_the_mark_comes_last(tmp_path: Path) -> None:
    target, built = tmp_path / "site", tmp_path / "built"
    for name in ("a.html", "lab"):
        (built / name).parent.mkdir(parents=True, exist_ok=True)
    (built / "a.html").write_text("one")
    (built / "lab").mkdir()
    _replace_site(built, target, {"lessons": []})
    assert json.loads((target / SITE_MARK).read_text())["files"] == ["a.html", "lab"]
    (built / "b.html").write_text("two")
    _replace_site(built, target, {"lessons": []})
    assert sorted(p.name for p in target.iterdir()) == [SITE_MARK, "b.html"]  # what the first wrote is gone


def test_only_a_pure_needle_widget_wheel_is_served(tmp_path: Path) -> None:
    for name, why in (("none.whl", "no wheel at"), ("needle_widget-1.0-cp311-cp311-linux_x86_64.whl", "not a pure"),
                      ("other-1.0-py3-none-any.whl", "not a pure"),
                      ("needle_widget-1.0-py3-none-any.whl", "not a pure")):  # not a zip
        if why != "no wheel at":
            (tmp_path / name).write_text("not a zip")
        with pytest.raises(NeedleError, match=why) as raised:
            _check_wheel(tmp_path / name)
        assert name in str(raised.value)


def test_the_lessons_keep_their_layout_so_their_links_resolve(tmp_path: Path) -> None:
    lessons = site_files(tmp_path)
    assert lessons == tuple(f"notebooks/{name}.ipynb" for name in BROWSER_LESSONS)
    links = 0
    for lesson in lessons:
        cells = json.loads((tmp_path / lesson).read_text(encoding="utf-8"))["cells"]
        for cell in (c for c in cells if c["cell_type"] == "markdown"):
            for target in re.findall(r"\]\((?!https?:|#|mailto:)([^)\s]+)\)", "".join(cell["source"])):
                assert (tmp_path / lesson).parent.joinpath(target.split("#")[0]).resolve().is_file(), (lesson, target)
                links += 1
    assert links >= 1  # lesson 01's rule book, docs/RULES.md
    assert (tmp_path / "notebooks" / "data" / "needle_calibration.csv").is_file()
    assert not list(tmp_path.rglob("*.jsonl")) and not list(tmp_path.rglob(".*"))


def test_wheels_are_kept_by_version_and_a_download_cut_short_leaves_nothing(tmp_path: Path, monkeypatch) -> None:
    calls: list[list[str]] = []

    def pip(command: list[str], log, cwd=None) -> None:  # noqa: ANN001
        calls.append(command)
        folder = Path(command[command.index("-d") + 1])
        for pin in command[command.index("-d") + 2:]:
            name, version = pin.split("==")
            if name == "broken":
                (folder / "broken-1.0-py3-none-any.whl").write_text("half")
                raise NeedleError("pip download ... failed")
            (folder / f"{name.replace('-', '_')}-{version}-py3-none-any.whl").write_text(pin)

    monkeypatch.setattr(lite, "_run", pip)
    first = _download(["anywidget==0.11.0", "typing-extensions==4.15.0"], tmp_path, print)
    assert sorted(p.name for p in first.values()) == ["anywidget-0.11.0-py3-none-any.whl",
                                                       "typing_extensions-4.15.0-py3-none-any.whl"]
    again = _download(["anywidget==0.11.0", "Typing_Extensions==4.15.0"], tmp_path, print)
    assert len(calls) == 1 and list(again.values()) == list(first.values())  # nothing downloaded again
    other = _download(["anywidget==0.11.1"], tmp_path, print)  # another version: its own wheel, and only it
    assert [p.name for p in other.values()] == ["anywidget-0.11.1-py3-none-any.whl"] and len(calls) == 2
    with pytest.raises(NeedleError, match="failed"):
        _download(["broken==1.0"], tmp_path, print)
    assert not (tmp_path / "broken-1.0-py3-none-any.whl").exists() and not list(tmp_path.glob(".part-*"))
