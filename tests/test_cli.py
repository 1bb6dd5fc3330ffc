"""The `needle-widget` command line."""

from __future__ import annotations

import pytest

from needle_widget import cli
from needle_widget.bench import run


def test_bench_prints_each_figure(capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["bench", "--seconds", "0.05"]) == 0
    out = capsys.readouterr().out
    for label in ("decisions/s", "games/s", "view('teacher')", "µs"):
        assert label in out


def test_bench_returns_positive_figures() -> None:
    figures = run(0.02, out=lambda line: None)
    assert {f.unit for f in figures} == {"decisions/s", "games/s", "µs"}
    assert all(f.value > 0 for f in figures)


@pytest.mark.parametrize("argv", [[], ["bench", "--seconds", "zero"], ["bench", "--seconds", "-1"], ["nonsense"]])
def test_bad_arguments_exit_with_code_2(argv: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as info:
        cli.main(argv)
    assert info.value.code == 2
    assert "Traceback" not in capsys.readouterr().err
