"""Simulation: whole games between bots, and tournaments on any executor."""

from __future__ import annotations

import csv
import os
import stat
import time
import tracemalloc
from concurrent.futures import ProcessPoolExecutor, ThreadPoolExecutor
from pathlib import Path

import pytest

from needle_widget import Rules, bots, play_game
from needle_widget.engine.errors import NeedleError
from needle_widget.players.sim import MAX_GAMES, RoundRobin, TournamentError, round_robin
from needle_widget.records.replay import Replay


def test_play_game_returns_a_finished_game_with_the_bots_names() -> None:
    game = play_game(bots.GreedyBot(), bots.RandomBot(seed=1), seed=4)
    assert game.phase == "over" and game.result is not None
    assert game.players == ("greedy", "random")
    assert Replay.from_json(game.replay().to_json()).players == ("greedy", "random")


def test_play_game_is_reproducible() -> None:
    first = play_game(bots.RandomBot(seed=2), bots.RandomBot(seed=3), seed=11, rules=Rules(ace="wrap"))
    second = play_game(bots.RandomBot(seed=2), bots.RandomBot(seed=3), seed=11, rules=Rules(ace="wrap"))
    assert first.snapshot() == second.snapshot()


def test_tournament_rows_and_summary() -> None:
    result = round_robin([bots.GreedyBot(), bots.RandomBot(seed=1)], games=30, seed=5, progress=False)
    assert [r["game"] for r in result.rows] == list(range(30))
    assert [r["seed"] for r in result.rows] == list(range(5, 35))
    assert [r["player1"] for r in result.rows[:2]] == ["greedy", "random"]
    summary = {s["bot"]: s for s in result.summary}
    assert summary["greedy"]["wins"] == summary["random"]["losses"]
    assert summary["greedy"]["draws"] == summary["random"]["draws"]
    assert sum(result.reasons().values()) == 30
    assert "greedy" in result.table()


def test_three_bots_play_round_robin_and_same_names_are_told_apart() -> None:
    result = round_robin([bots.GreedyBot(), bots.GreedyBot(), bots.RandomBot(seed=1)], games=4, progress=False)
    assert result.names == ["greedy#1", "greedy#2", "random"]
    assert len(result.rows) == 12
    assert all(s["games"] == 8 for s in result.summary)


def test_the_same_seeds_give_the_same_rows_whatever_the_executor() -> None:
    entrants = [bots.RandomBot(seed=8), bots.GreedyBot()]
    serial = round_robin(entrants, games=60, seed=2, progress=False, chunk=7)
    with ProcessPoolExecutor(2) as pool:
        parallel = round_robin(entrants, games=60, seed=2, executor=pool, progress=False, chunk=7)
    with ThreadPoolExecutor(3) as pool:
        threaded = round_robin(entrants, games=60, seed=2, executor=pool, progress=False, chunk=5)
    assert serial.rows == parallel.rows == threaded.rows


def test_csv_output(tmp_path: Path) -> None:
    result = round_robin([bots.GreedyBot(), bots.RandomBot(seed=1)], games=6, progress=False)
    path = tmp_path / "rows.csv"
    result.to_csv(path)
    rows = list(csv.DictReader(path.open()))
    assert len(rows) == 6 and rows[0]["player1"] == "greedy"


def test_progress_bar(capsys: pytest.CaptureFixture[str]) -> None:
    round_robin([bots.GreedyBot(), bots.RandomBot(seed=1)], games=4, progress=True)
    assert "4/4" in capsys.readouterr().err


@pytest.mark.parametrize("kwargs, message", [
    ({"bots": [bots.GreedyBot()], "games": 3}, "at least 2 bots"),
    ({"bots": [bots.GreedyBot(), bots.GreedyBot()], "games": 0}, "games"),
    ({"bots": [bots.GreedyBot(), bots.GreedyBot()], "games": 2, "seed": -1}, "seed"),
])
def test_bad_arguments(kwargs, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        round_robin(progress=False, **kwargs)


def test_the_table_fits_long_bot_names() -> None:
    class Named(bots.GreedyBot):
        name = "a greedy bot with a long name"

    lines = round_robin([Named(), bots.RandomBot(seed=1)], games=2, progress=False).table().splitlines()
    assert len({len(line) for line in lines}) == 1


# ---- issue 8: bounded tournaments, atomic CSV ---------------------------------------------


class Boom(bots.GreedyBot):
    """Fails at the game of seed 5: stops a tournament early, whatever its size."""

    def new_game(self, seed: int, player: int) -> None:
        if seed >= 5:
            raise RuntimeError("boom")
        super().new_game(seed, player)


def test_games_are_made_lazily_so_a_huge_tournament_starts_at_once() -> None:
    tracemalloc.start()
    started = time.perf_counter()
    try:
        with pytest.raises(RuntimeError, match="boom"):
            round_robin([Boom(), bots.RandomBot(seed=1)], games=MAX_GAMES, progress=False)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert time.perf_counter() - started < 5 and peak < 50 * 2**20


class CountingPool(ThreadPoolExecutor):
    def __init__(self, workers: int) -> None:
        super().__init__(workers)
        self.submitted = 0

    def submit(self, *args, **kwargs):  # type: ignore[override]
        self.submitted += 1
        return super().submit(*args, **kwargs)


def test_an_executor_gets_a_bounded_window_of_chunks() -> None:
    with CountingPool(2) as pool:
        with pytest.raises(RuntimeError, match="boom"):
            round_robin([Boom(), bots.RandomBot(seed=1)], games=MAX_GAMES, executor=pool, progress=False, chunk=1)
    assert pool.submitted < 1000


def test_more_chunks_than_the_window_give_the_same_rows() -> None:
    entrants = [bots.RandomBot(seed=8), bots.GreedyBot(), bots.RandomBot(seed=9)]
    serial = round_robin(entrants, games=100, seed=4, progress=False, chunk=1)
    with CountingPool(2) as pool:
        threaded = round_robin(entrants, games=100, seed=4, executor=pool, progress=False, chunk=1)
    assert pool.submitted == 300
    assert serial.rows == threaded.rows
    assert [r["game"] for r in threaded.rows] == list(range(300))


@pytest.mark.parametrize("kwargs, message", [
    ({"bots": [bots.GreedyBot()], "games": 3}, "at least 2 bots"),
    ({"bots": [bots.GreedyBot(), bots.GreedyBot()], "games": MAX_GAMES + 1}, f"at most {MAX_GAMES:,}.*{MAX_GAMES + 1}"),
    ({"bots": [bots.GreedyBot(), bots.GreedyBot()], "games": 10**12}, "1000000000000"),
    ({"bots": [bots.GreedyBot(), bots.GreedyBot()], "games": 2, "seed": -1}, "seed"),
    ({"bots": [bots.GreedyBot(), bots.GreedyBot()], "games": 2, "chunk": 0}, "chunk"),
])
def test_bad_arguments_raise_a_needle_error(kwargs, message: str) -> None:
    with pytest.raises(TournamentError, match=message) as info:
        round_robin(progress=False, **kwargs)
    assert isinstance(info.value, NeedleError)


def _small() -> RoundRobin:
    return round_robin([bots.GreedyBot(), bots.RandomBot(seed=1)], games=6, progress=False)


def test_a_failed_csv_write_leaves_the_old_file_untouched(tmp_path: Path) -> None:
    path = tmp_path / "rows.csv"
    path.write_text("old results\n")
    result = _small()
    broken = RoundRobin(result.names, result.rows[:3] + [{}] + result.rows[3:])  # fails after 3 rows
    with pytest.raises(KeyError):
        broken.to_csv(path)
    assert path.read_text() == "old results\n"
    assert os.listdir(tmp_path) == ["rows.csv"]  # no temporary file left behind


def test_csv_files_keep_the_usual_permissions(tmp_path: Path) -> None:
    umask = os.umask(0o022)
    os.umask(umask)
    fresh = tmp_path / "fresh.csv"
    _small().to_csv(fresh)
    assert stat.S_IMODE(fresh.stat().st_mode) == 0o666 & ~umask
    private = tmp_path / "private.csv"
    private.write_text("old")
    private.chmod(0o600)
    _small().to_csv(private)
    assert stat.S_IMODE(private.stat().st_mode) == 0o600 and len(private.read_text().splitlines()) == 7


def test_csv_written_through_a_symlink_keeps_the_link(tmp_path: Path) -> None:
    real = tmp_path / "real.csv"
    real.write_text("old")
    link = tmp_path / "link.csv"
    link.symlink_to(real)
    _small().to_csv(link)
    assert link.is_symlink() and len(real.read_text().splitlines()) == 7
