"""The `needle-widget` command line: simulate, show, play, bench; errors exit 2 in one line."""

from __future__ import annotations

import io
import subprocess
import sys
import time
from pathlib import Path

import pytest

from needle_widget import actions, bots, play_game
from needle_widget.apps import cli, terminal
from needle_widget.apps.bench import run
from needle_widget.apps.terminal import printable
from needle_widget.engine.cards import Card
from needle_widget.engine.game import Game
from needle_widget.players import sim
from needle_widget.records.replay import Replay


def run_cli(*argv: str, stdin: str = "") -> tuple[int, str]:
    out = io.StringIO()
    code = cli.main(list(argv), stdin=io.StringIO(stdin), stdout=out)
    return code, out.getvalue()


@pytest.mark.slow
def test_bench_prints_each_figure_and_returns_positive_ones(monkeypatch: pytest.MonkeyPatch) -> None:
    """One run of `needle-widget bench` (each run costs seconds): what it prints, and the figures it returns."""
    from needle_widget.apps import bench

    returned = []
    monkeypatch.setattr(bench, "run", lambda *a, **k: returned.extend(run(*a, **k)) or returned)
    code, out = run_cli("bench", "--seconds", "0.05")
    assert code == 0
    assert "\nbuild: pure Python\n" in out  # the build it measures (this test run's is the pure one)
    for label in ("decisions/s", "games/s", "view('teacher')", "game_at", "GreedyBot", "µs", "review: first entry",
                  "2 processes"):
        assert label in out
    assert {f.unit for f in returned} >= {"decisions/s", "games/s", "µs", "ms"}
    assert all(f.value > 0 for f in returned)


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


@pytest.mark.parametrize("perspective", ["1", "2", "spectator"])
def test_show_gives_the_deal_s_seed_to_the_teacher_only(tmp_path: Path, perspective: str) -> None:
    """The seed deals every hand: a player's or the spectator's printout must not carry it."""
    path = tmp_path / "game.json"
    play_game(bots.GreedyBot(), bots.GreedyBot(), seed=987654321).replay().save(path)
    code, out = run_cli("show", str(path), "--perspective", perspective)
    assert code == 0 and "987654321" not in out and "seed" not in out.splitlines()[0]
    code, out = run_cli("show", str(path), "--perspective", "teacher")
    assert code == 0 and "seed 987654321" in out.splitlines()[0]


def test_the_console_script_runs() -> None:
    done = subprocess.run([sys.executable, "-m", "needle_widget.apps.cli", "--version"], capture_output=True, text=True)
    assert done.returncode == 0 and "needle-widget" in done.stdout


# ---- issue 8: secrecy and robustness ------------------------------------------------------


def test_play_shows_the_seed_only_once_the_round_is_over() -> None:
    code, out = run_cli("play", "--opponent", "greedy", "--seed", "987654321", stdin="1\n" * 400)
    assert code == 0
    end = out.index("Round over")
    assert "987654321" not in out[:end]
    assert "seed was 987654321" in out[end:]


def test_play_does_not_show_the_seed_of_an_abandoned_game() -> None:
    code, out = run_cli("play", "--seed", "987654321", stdin="1\n")
    assert code == 0 and "Bye." in out and "987654321" not in out


def _hidden_throughout(game: Game, cards: set[Card]) -> bool:
    """Whether Player 1 never saw any of `cards` during `game` (omniscient check on its history)."""
    for event in game.history:
        shown = getattr(event.action, "cards", None) or (getattr(event.action, "card", None),)
        if type(event.action) in (actions.Discard, actions.LaySet) and set(shown) & cards:
            return False
        if event.player == 0 and set(event.cards) & cards:
            return False
    return game.needle(1) not in cards


def test_play_output_does_not_depend_on_a_bot_card_the_human_never_sees(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # Two deals that differ only in swapping 2♦ (in the bot's hand) with 2♣ (deep in the pile).
    # Neither card ever reaches Player 1's eyes, so everything shown before the round ends must match.
    seed, x, y = 39, Card.parse("2d"), Card.parse("2c")
    deck = list(Game(seed=seed).deck)
    assert x in deck[7:14] and deck.index(y) >= 30
    twin = deck.copy()
    twin[deck.index(x)], twin[deck.index(y)] = y, x
    shown, games = [], []
    for n, cards in enumerate((deck, twin)):
        monkeypatch.setattr(terminal, "Game", lambda seed=None, cards=cards: Game(seed=seed, deck=cards))
        path = tmp_path / f"{n}.json"
        code, out = run_cli("play", "--opponent", "random", "--seed", str(seed), "--save", str(path),
                            stdin="1\n" * 400)
        assert code == 0
        shown.append(out[: out.index("Round over")])
        games.append(Replay.load(path).final_game)
    assert all(_hidden_throughout(game, {x, y}) for game in games)
    assert games[0].deck != games[1].deck and games[0].turn > 10  # a long game: a lot of output to compare
    assert shown[0] == shown[1]


def test_show_escapes_control_characters_in_player_names(tmp_path: Path) -> None:
    game = play_game(bots.GreedyBot(), bots.RandomBot(seed=1), seed=3)
    game.players = ("Eve\x1b[31m", "Bob\nMallory")
    path = tmp_path / "names.json"
    game.replay().save(path)
    code, out = run_cli("show", str(path))
    assert code == 0
    assert "\x1b" not in out
    head = out.splitlines()[0]
    assert head.startswith("Eve\\x1b[31m (Player 1) vs Bob\\nMallory (Player 2)")


def test_printable_escapes_only_what_a_terminal_would_act_on() -> None:
    assert printable("Ann\x1b[2J\r\t\u2028") == "Ann\\x1b[2J\\r\\t\\u2028"
    assert printable("Zoë ♠ 10♥") == "Zoë ♠ 10♥"


def _one_error_line(capsys: pytest.CaptureFixture[str]) -> str:
    err = capsys.readouterr().err
    assert err.startswith("needle-widget: error: ") and err.count("\n") == 1 and "Traceback" not in err
    return err


def test_simulate_refuses_a_huge_game_count_at_once(capsys: pytest.CaptureFixture[str]) -> None:
    started = time.perf_counter()
    with pytest.raises(SystemExit) as info:
        cli.main(["simulate", "--games", "1000000000000", "--no-progress"])
    assert info.value.code == 2 and time.perf_counter() - started < 5
    err = _one_error_line(capsys)
    assert "--games" in err and "10,000,000" in err and "1000000000000" in err


def test_simulate_accepts_the_largest_game_count(monkeypatch: pytest.MonkeyPatch) -> None:
    seen = {}

    def fake(entrants, games, seed, **kwargs):
        seen["games"] = games
        return sim.RoundRobin(["greedy", "random"], [])

    monkeypatch.setattr(sim, "round_robin", fake)
    code, _ = run_cli("simulate", "--games", str(sim.MAX_GAMES), "--no-progress")
    assert code == 0 and seen["games"] == sim.MAX_GAMES


def test_jobs_is_capped_at_the_number_of_cpus(monkeypatch: pytest.MonkeyPatch,
                                              capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setattr(cli.os, "cpu_count", lambda: 2)
    with pytest.raises(SystemExit) as info:
        cli.main(["simulate", "--games", "2", "--jobs", "3", "--no-progress"])
    assert info.value.code == 2
    err = _one_error_line(capsys)
    assert "--jobs" in err and "'3'" in err and "CPUs" in err


@pytest.mark.parametrize("seconds", ["inf", "-inf", "nan", "601", "1e9"])
def test_bench_seconds_must_be_finite_and_sane(seconds: str, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as info:
        cli.main(["bench", f"--seconds={seconds}"])
    assert info.value.code == 2
    err = _one_error_line(capsys)
    assert "--seconds" in err and repr(seconds) in err


@pytest.mark.parametrize("what", ["engine", "class", "match", "record"])
def test_bench_without_its_modules_says_it_runs_from_a_clone(what: str, monkeypatch: pytest.MonkeyPatch,
                                                             capsys: pytest.CaptureFixture[str]) -> None:
    """As from an installed wheel, which leaves the benchmarks out (tests/test_wheel.py runs the real one)."""
    for name in cli.BENCH_MODULES:
        monkeypatch.setitem(sys.modules, name, None)  # `import` of it now fails as a missing module
    assert cli.main(["bench", what]) == 2
    err = _one_error_line(capsys)
    assert "bench runs from a clone of the project" in err


def test_show_refuses_a_huge_file_before_reading_it(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                    capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "huge.json"
    with path.open("wb") as f:
        f.truncate(cli.MAX_REPLAY_BYTES + 1)  # sparse: no disk used

    def no_reading(*args, **kwargs):
        raise AssertionError("the replay was read")

    monkeypatch.setattr("needle_widget.records.replayfile.open", no_reading, raising=False)  # Replay.load's open
    assert cli.main(["show", str(path)]) == 2
    err = _one_error_line(capsys)
    assert "huge.json" in err and f"{cli.MAX_REPLAY_BYTES + 1:,} bytes" in err and "32 MB" in err


def test_show_refuses_what_is_not_a_regular_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["show", str(tmp_path)]) == 2
    assert "not a regular file" in _one_error_line(capsys)


@pytest.mark.parametrize("where", ["a directory", "no such directory", "under a file"])
def test_an_unwritable_out_fails_before_any_game(where: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                 capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "file").write_text("x")
    out = {"a directory": tmp_path, "no such directory": tmp_path / "nope" / "r.csv",
           "under a file": tmp_path / "file" / "r.csv"}[where]

    def no_games(*args, **kwargs):
        raise AssertionError("games were played")

    monkeypatch.setattr(sim, "round_robin", no_games)
    assert cli.main(["simulate", "--games", "10000000", "--no-progress", "--out", str(out)]) == 2
    err = _one_error_line(capsys)
    assert repr(str(out)) in err


@pytest.mark.parametrize("argv", [
    ["--bogus"], ["--bogus", "simulate"], ["simulate", "--bogus"], ["show", "--bogus"],
    ["show", "x.json", "--bogus"], ["play", "--bogus"], ["bench", "--bogus=3"],
])
def test_unknown_options_are_named(argv: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as info:
        cli.main(argv)
    assert info.value.code == 2
    err = _one_error_line(capsys)
    bogus = next(a for a in argv if a.startswith("--bogus"))
    assert f"unrecognized option {bogus!r}" in err


def test_a_missing_command_is_still_reported(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        cli.main([])
    assert "COMMAND" in _one_error_line(capsys)


def test_a_failure_while_writing_out_keeps_the_old_csv(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                       capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "results.csv"
    path.write_text("old results\n")

    class FullDisk(sim.csv.DictWriter):
        def writerow(self, row):
            if row["game"] == 3:
                raise OSError(28, "No space left on device")
            return super().writerow(row)

    monkeypatch.setattr(sim.csv, "DictWriter", FullDisk)
    assert cli.main(["simulate", "--games", "10", "--no-progress", "--out", str(path)]) == 2
    assert "No space left" in _one_error_line(capsys)
    assert path.read_text() == "old results\n" and sorted(p.name for p in tmp_path.iterdir()) == ["results.csv"]


def test_review_help_gives_the_default_worlds_the_command_uses() -> None:
    from needle_widget.review.review import DEFAULT_WORLDS

    parser = cli.build_parser()
    review_parser = parser._subparsers._group_actions[0].choices["review"]  # type: ignore[union-attr]
    text = review_parser.format_help()
    assert f"default {DEFAULT_WORLDS}" in " ".join(text.split())
    assert "default 48" not in text
