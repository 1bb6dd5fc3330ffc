"""`needle-widget bench match` runs (two student processes at one table; the figures are not checked for speed)."""

from __future__ import annotations

import io

import pytest

from needle_widget.apps import cli
from needle_widget.apps.matchbench import match_figures, match_latencies
from needle_widget.classroom import ClassError


def test_a_table_of_two_processes_times_each_move_to_the_opponent_s_screen(tmp_path) -> None:
    latencies = match_latencies(f"folder:{tmp_path}/room", students=2, moves=6)
    assert len(latencies) == 6 and all(ms > 0 for ms in latencies)


def test_match_figures_print_median_p95_max_beside_the_target() -> None:
    lines: list[str] = []
    figures = match_figures(students=2, moves=4, channels=("folder",), out=lines.append)
    assert [f.name.split(", ")[-1].split(" (")[0] for f in figures] == ["median", "p95", "max"]
    assert "2 student processes at 1 tables, 4 moves (target 150 ms)" in lines[0]


def test_bench_match_seats_an_even_number_of_students(tmp_path, capsys) -> None:
    with pytest.raises(ClassError, match="even number"):
        match_latencies(f"folder:{tmp_path}/room", students=3)
    assert cli.main(["bench", "match", "--students", "3"], stdout=io.StringIO()) == 2
    assert "--students 3 is odd" in capsys.readouterr().err
