"""`needle-widget bench class` runs (a handful of student processes; the figures are not checked for speed)."""

from __future__ import annotations

import io

from needle_widget.apps import cli
from needle_widget.apps.classbench import class_figures, step_latencies


def test_step_latencies_of_a_few_student_processes(tmp_path) -> None:
    latencies, records = step_latencies(f"folder:{tmp_path}/room", students=3, steps=2, pause=0)
    assert len(latencies) == 3 * 2 and all(ms > 0 for ms in latencies)
    assert [r["error"] for r in records] == [None] * 3
    assert all({1, 2} <= set(r["steps"]) and r["duplicates"] == 0 for r in records)


def test_class_figures_print_median_p95_max_beside_the_target() -> None:
    lines: list[str] = []
    figures = class_figures(students=2, steps=2, channels=("folder",), out=lines.append)
    assert [f.name.split(", ")[-1].split(" (")[0] for f in figures] == ["median", "p95", "max"] * 2
    assert all(f.unit == "ms" and f.value > 0 for f in figures)
    assert "target 300 ms" in lines[0]
    assert "folder: go() under rejoins, max (target 100 ms)" in figures[-1].name  # issue 29's hostile rejoiner
    assert "rejoins in a loop, 2 calls" in lines[4]


def test_bench_class_from_the_command_line() -> None:
    out = io.StringIO()
    assert cli.main(["bench", "class", "--students", "2", "--steps", "1"], stdout=out) == 0
    text = out.getvalue()
    assert "bench class" in text and "folder: step to screen, median" in text
    assert "redis" in text  # its figures, or why they were skipped


def test_bench_class_without_a_browser_says_so_in_one_line(monkeypatch) -> None:
    from needle_widget.apps import classbrowsers

    monkeypatch.setattr(classbrowsers, "missing", lambda: "Chromium not found at /nowhere")
    lines: list[str] = []
    figures = class_figures(students=2, steps=1, channels=("folder",), out=lines.append, browsers=2)
    assert lines[0] == "browsers: skipped (Chromium not found at /nowhere)"
    assert "2 student processes x 1 steps" in lines[1]  # every student a process, then
    assert len(figures) == 6 and not any("browser" in f.name for f in figures)


def test_bench_class_refuses_more_browsers_than_students(capsys) -> None:
    assert cli.main(["bench", "class", "--students", "2", "--browsers", "3"], stdout=io.StringIO()) == 2
    assert "--browsers 3 is more than --students 2" in capsys.readouterr().err
