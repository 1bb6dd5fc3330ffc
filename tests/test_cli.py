"""The `needle-widget` command line: simulate, show, play, bench; errors exit 2 in one line."""

from __future__ import annotations

import io
import subprocess
import sys
from pathlib import Path

import pytest

from needle_widget import bots, cli, play_game
from needle_widget.bench import run


def run_cli(*argv: str, stdin: str = "") -> tuple[int, str]:
    out = io.StringIO()
    code = cli.main(list(argv), stdin=io.StringIO(stdin), stdout=out)
    return code, out.getvalue()


def test_bench_prints_each_figure() -> None:
    code, out = run_cli("bench", "--seconds", "0.05")
    assert code == 0
    for label in ("decisions/s", "games/s", "view('teacher')", "game_at", "GreedyBot", "µs"):
        assert label in out


def test_bench_returns_positive_figures() -> None:
    figures = run(0.02, out=lambda line: None)
    assert {f.unit for f in figures} >= {"decisions/s", "games/s", "µs", "ms"}
    assert all(f.value > 0 for f in figures)


def test_simulate_prints_a_summary_and_writes_csv(tmp_path: Path) -> None:
    out_csv = tmp_path / "r.csv"
    code, out = run_cli("simulate", "--bots", "greedy", "random", "--games", "20", "--seed", "1",
                        "--no-progress", "--out", str(out_csv))
    assert code == 0
    assert "greedy" in out and "random" in out and "endings:" in out
    assert len(out_csv.read_text().splitlines()) == 21


def test_simulate_with_jobs() -> None:
    code, out = run_cli("simulate", "--bots", "random", "random", "--games", "10", "--jobs", "2", "--no-progress")
    assert code == 0 and "random#1" in out


def test_show_narrates_a_replay(tmp_path: Path) -> None:
    path = tmp_path / "game.json"
    game = play_game(bots.GreedyBot(), bots.RandomBot(seed=1), seed=3)
    game.replay().save(path)
    code, out = run_cli("show", str(path), "--perspective", "teacher")
    assert code == 0
    assert "Turn 1" in out and "Round over" in out
    code, out = run_cli("show", str(path), "--perspective", "1", "--step", "3")
    assert code == 0 and "3 of" in out and "You picked" in out


def test_play_a_game_in_the_terminal(tmp_path: Path) -> None:
    path = tmp_path / "mine.json"
    moves = "\n".join(["1"] * 400)
    code, out = run_cli("play", "--opponent", "random", "--seed", "5", "--save", str(path), stdin=moves)
    assert code == 0
    assert "Round over" in out and path.exists()


def test_play_answers_bad_input_and_stops_at_end_of_input() -> None:
    code, out = run_cli("play", "--seed", "5", stdin="fly\ndiscard zz\n99\n")
    assert code == 0
    assert "Not an action: 'fly'" in out and "Bye." in out


@pytest.mark.parametrize("argv", [
    [], ["bench", "--seconds", "zero"], ["bench", "--seconds", "-1"], ["nonsense"],
    ["simulate", "--bots", "wizard", "random"], ["simulate", "--games", "0"], ["show"],
    ["show", "x.json", "--perspective", "3"], ["play", "--you", "3"],
])
def test_bad_arguments_exit_with_code_2(argv: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as info:
        cli.main(argv)
    assert info.value.code == 2
    err = capsys.readouterr().err
    assert "Traceback" not in err and "error" in err


@pytest.mark.parametrize("content", [None, "", "{", "[]", '{"format": "needle-replay", "version": 9}'])
def test_bad_replay_files_give_one_line_and_exit_2(tmp_path: Path, content: str | None,
                                                   capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "bad.json"
    if content is not None:
        path.write_text(content)
    assert cli.main(["show", str(path)]) == 2
    err = capsys.readouterr().err
    assert err.startswith("needle-widget: error: ") and err.count("\n") == 1


def test_step_past_the_end(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "game.json"
    play_game(bots.GreedyBot(), bots.GreedyBot(), seed=1).replay().save(path)
    assert cli.main(["show", str(path), "--step", "100000"]) == 2
    assert "past the end" in capsys.readouterr().err


def test_the_console_script_runs() -> None:
    done = subprocess.run([sys.executable, "-m", "needle_widget.cli", "--version"], capture_output=True, text=True)
    assert done.returncode == 0 and "needle-widget" in done.stdout
