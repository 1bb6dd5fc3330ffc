"""`needle-widget lessons [FOLDER]` (issue 45): the lessons run on a copy, never on the repository's files. It copies
the lesson notebooks, the files they read and the rule book into a folder in the project's layout, never overwrites
a copy the reader changed, says how to open the first lesson (or opens it), and works from the wheel, which carries
the lessons, as from a clone.
"""

from __future__ import annotations

import io
import json
import re
import shutil
from pathlib import Path

import pytest
from wheel_env import wheel_env

from needle_widget.apps import cli, lessons
from needle_widget.engine.errors import NeedleError

ROOT = Path(__file__).resolve().parents[1]


def run(*argv: str) -> tuple[int, str]:
    out = io.StringIO()
    return cli.main(["lessons", *argv], stdout=out), out.getvalue()


def test_the_lessons_are_copied_in_the_project_s_layout(tmp_path):
    code, printed = run(str(tmp_path / "mine"))
    assert code == 0
    folder = tmp_path / "mine"
    for path in sorted((ROOT / "notebooks").glob("*.ipynb")):
        assert (folder / "notebooks" / path.name).read_bytes() == path.read_bytes(), path.name
    assert (folder / "docs" / "RULES.md").read_bytes() == (ROOT / "docs" / "RULES.md").read_bytes()
    assert (folder / "notebooks" / "data" / "needle_calibration.csv").is_file()
    assert (folder / "notebooks" / "answers" / "ada.jsonl").is_file()
    assert (folder / "notebooks" / "marimo" / "01_play.py").is_file()
    # lesson 01's link to the rule book opens in the copy as in the project
    book = (folder / "notebooks" / "01_play.ipynb").read_text(encoding="utf-8")
    for target in re.findall(r"\]\((\.\./[^)#\s]+)", book):
        assert (folder / "notebooks" / target).resolve().is_file(), target
    copied = json.loads((folder / lessons.MANIFEST).read_text())["files"]
    assert "notebooks/01_play.ipynb" in copied and "docs/RULES.md" in copied
    command = " ".join(lessons.open_command(folder))
    assert f"cd {folder} && {command}" in printed
    assert command.endswith("--ServerApp.root_dir=. notebooks/01_play.ipynb")
    assert f"The lessons are in {folder}: {len(copied)} files ({len(copied)} copied)." in printed


def test_a_changed_copy_is_never_overwritten_and_an_unchanged_one_is_brought_up_to_date(tmp_path):
    source = tmp_path / "project"
    shutil.copytree(ROOT / "notebooks", source / "notebooks", ignore=shutil.ignore_patterns(".*", "images"))
    (source / "docs").mkdir()
    shutil.copy(ROOT / "docs" / "RULES.md", source / "docs" / "RULES.md")
    folder = tmp_path / "copy"
    first = lessons.copy_lessons(folder, source)
    assert first.new and not (first.updated or first.kept or first.same)

    mine = folder / "notebooks" / "01_play.ipynb"
    mine.write_text('{"my": "answers"}')  # a student ran the lesson and saved it
    (source / "notebooks" / "01_play.ipynb").write_text('{"a": "newer lesson 01"}')  # and a newer package came
    (source / "notebooks" / "02_replay_and_hidden_information.ipynb").write_text('{"a": "newer lesson 02"}')
    (source / "notebooks" / "10_new.ipynb").write_text('{"a": "a new lesson"}')
    second = lessons.copy_lessons(folder, source)
    assert second.kept == ["notebooks/01_play.ipynb"] and mine.read_text() == '{"my": "answers"}'
    assert second.updated == ["notebooks/02_replay_and_hidden_information.ipynb"]
    assert (folder / "notebooks" / "02_replay_and_hidden_information.ipynb").read_text() == '{"a": "newer lesson 02"}'
    assert second.new == ["notebooks/10_new.ipynb"]

    third = lessons.copy_lessons(folder, source)  # the kept copy stays the student's, however often it is run
    assert third.kept == ["notebooks/01_play.ipynb"] and not third.new and not third.updated
    (folder / lessons.MANIFEST).unlink()  # no manifest: every differing file is the reader's
    assert lessons.copy_lessons(folder, source).kept == ["notebooks/01_play.ipynb"]


def test_only_the_lessons_are_copied_never_what_a_notebook_left_beside_them(tmp_path):
    source = tmp_path / "project"
    shutil.copytree(ROOT / "notebooks", source / "notebooks", ignore=shutil.ignore_patterns(".*"))
    (source / "docs").mkdir()
    shutil.copy(ROOT / "docs" / "RULES.md", source / "docs" / "RULES.md")
    for junk in (".ipynb_checkpoints/01_play-checkpoint.ipynb", "needle-class/monday/teacher/secret",
                 "handout/01-ann.ipynb", "results/gradebook.csv", "class-room/monday/room.json", ".hidden.ipynb"):
        (source / "notebooks" / junk).parent.mkdir(parents=True, exist_ok=True)
        (source / "notebooks" / junk).write_text("not a lesson")
    (source / "notebooks" / "linked.ipynb").symlink_to(source / "notebooks" / "01_play.ipynb")
    lessons_ = [f"notebooks/{p.name}" for p in (ROOT / "notebooks").glob("*.ipynb")]
    read = [f"notebooks/{p.relative_to(ROOT / 'notebooks').as_posix()}" for sub in ("answers", "data", "marimo")
            for p in (ROOT / "notebooks" / sub).iterdir() if p.is_file() and not p.name.startswith(".")]
    assert lessons.lesson_files(source) == sorted(lessons_ + read) + ["docs/RULES.md"]


def test_bad_folders_get_one_line_and_exit_2(tmp_path, capsys):
    (tmp_path / "file").write_text("x")
    assert run(str(tmp_path / "file"))[0] == 2
    assert capsys.readouterr().err == f"needle-widget: error: {str(tmp_path / 'file')!r} is a file, not a folder\n"
    for own in (ROOT / "notebooks", ROOT / "notebooks" / "copy", ROOT / "docs", ROOT):
        assert run(str(own))[0] == 2
        err = capsys.readouterr().err
        assert err.count("\n") == 1 and "is where the lessons come from: give a folder of your own" in err, err
    assert not (ROOT / "notebooks" / "copy").exists()
    with pytest.raises(SystemExit) as exited:
        run(str(tmp_path), "--nope")
    assert exited.value.code == 2


def test_without_the_lessons_it_says_where_they_are(tmp_path):
    with pytest.raises(NeedleError, match=r"^the lesson notebooks are not in this installation .*: install "
                                          r"needle_widget from a wheel, which holds them, or run from a clone"):
        lessons.lessons_source(tmp_path / "site-packages" / "needle_widget")


def test_open_runs_jupyter_lab_in_the_copy(tmp_path, monkeypatch):
    seen = []
    monkeypatch.setattr(lessons, "_launch", lambda command, folder: seen.append((list(command), folder)) or 0)
    monkeypatch.setattr(lessons.shutil, "which", lambda name: f"/usr/bin/{name}")
    code, printed = run(str(tmp_path / "mine"), "--open")
    assert code == 0 and seen == [(lessons.open_command(tmp_path / "mine"), tmp_path / "mine")]
    assert seen[0][0][:2] == ["jupyter", "lab"] and seen[0][0][-1] == "notebooks/01_play.ipynb"
    assert lessons.open_command(tmp_path, as_root=True)[2] == "--allow-root"
    assert "--allow-root" not in lessons.open_command(tmp_path, as_root=False)


def test_open_without_jupyter_says_what_to_install(tmp_path, monkeypatch, capsys):
    monkeypatch.setattr(lessons.shutil, "which", lambda name: None)
    assert run(str(tmp_path / "mine"), "--open")[0] == 2
    assert capsys.readouterr().err == ('needle-widget: error: jupyter is not installed here: pip install '
                                       '"needle_widget[class]" brings JupyterLab\n')


def test_the_wheel_lists_every_lesson():
    tomllib = pytest.importorskip("tomllib")
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    included = project["tool"]["hatch"]["build"]["targets"]["wheel"]["force-include"]
    wanted = {f"notebooks/{p.name}" for p in (ROOT / "notebooks").glob("*.ipynb")}
    wanted |= {"notebooks/answers", "notebooks/data", "notebooks/marimo/01_play.py", "docs/RULES.md"}
    assert set(included) == wanted
    assert all(target == f"needle_widget/lessons/{source}" for source, target in included.items())
    extras = project["project"]["optional-dependencies"]
    assert "needle_widget[class]" in extras["dev"]
    tools = ("pytest", "nbval", "build", "playwright", "ruff", "mypy", "hypothesis", "jupyterhub")
    assert not any(req.startswith(tools) for req in extras["class"]), extras["class"]
    names = {re.split(r"[<>=\[]", r)[0] for r in extras["class"]}
    assert {"jupyterlab", "ipykernel"} <= names and "matplotlib" not in names  # the charts need no compiled package


@pytest.mark.slow
def test_the_installed_wheel_copies_its_own_lessons(tmp_path_factory, tmp_path):
    wheel = wheel_env(tmp_path_factory)
    done = wheel.run([str(wheel.bin / "needle-widget"), "lessons", str(tmp_path / "copy")])
    assert f"The lessons are in {tmp_path / 'copy'}" in done.stdout
    where = wheel.run([str(wheel.python), "-c", "from needle_widget.apps.lessons import lessons_source; "
                                                "print(lessons_source())"]).stdout.strip()
    assert Path(where).is_relative_to(wheel.venv) and where.endswith("needle_widget/lessons")
    for path in sorted((ROOT / "notebooks").glob("*.ipynb")):
        assert (tmp_path / "copy" / "notebooks" / path.name).read_bytes() == path.read_bytes(), path.name
    assert (tmp_path / "copy" / "docs" / "RULES.md").is_file()
