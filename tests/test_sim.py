"""Simulation: whole games between bots, and tournaments on any executor."""

from __future__ import annotations

import csv
from concurrent.futures import ProcessPoolExecutor, ThreadPoolExecutor
from pathlib import Path

import pytest

from needle_widget import Rules, bots, play_game
from needle_widget.replay import Replay
from needle_widget.sim import tournament


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
    result = tournament([bots.GreedyBot(), bots.RandomBot(seed=1)], games=30, seed=5, progress=False)
    assert [r["game"] for r in result.rows] == list(range(30))
    assert [r["seed"] for r in result.rows] == list(range(5, 35))
    assert [r["player1"] for r in result.rows[:2]] == ["greedy", "random"]
    summary = {s["bot"]: s for s in result.summary}
    assert summary["greedy"]["wins"] == summary["random"]["losses"]
    assert summary["greedy"]["draws"] == summary["random"]["draws"]
    assert sum(result.reasons().values()) == 30
    assert "greedy" in result.table()


def test_three_bots_play_round_robin_and_same_names_are_told_apart() -> None:
    result = tournament([bots.GreedyBot(), bots.GreedyBot(), bots.RandomBot(seed=1)], games=4, progress=False)
    assert result.names == ["greedy#1", "greedy#2", "random"]
    assert len(result.rows) == 12
    assert all(s["games"] == 8 for s in result.summary)


def test_the_same_seeds_give_the_same_rows_whatever_the_executor() -> None:
    entrants = [bots.RandomBot(seed=8), bots.GreedyBot()]
    serial = tournament(entrants, games=60, seed=2, progress=False, chunk=7)
    with ProcessPoolExecutor(2) as pool:
        parallel = tournament(entrants, games=60, seed=2, executor=pool, progress=False, chunk=7)
    with ThreadPoolExecutor(3) as pool:
        threaded = tournament(entrants, games=60, seed=2, executor=pool, progress=False, chunk=5)
    assert serial.rows == parallel.rows == threaded.rows


def test_csv_output(tmp_path: Path) -> None:
    result = tournament([bots.GreedyBot(), bots.RandomBot(seed=1)], games=6, progress=False)
    path = tmp_path / "rows.csv"
    result.to_csv(path)
    rows = list(csv.DictReader(path.open()))
    assert len(rows) == 6 and rows[0]["player1"] == "greedy"


def test_progress_bar(capsys: pytest.CaptureFixture[str]) -> None:
    tournament([bots.GreedyBot(), bots.RandomBot(seed=1)], games=4, progress=True)
    assert "4/4" in capsys.readouterr().err


@pytest.mark.parametrize("kwargs, message", [
    ({"bots": [bots.GreedyBot()], "games": 3}, "at least 2 bots"),
    ({"bots": [bots.GreedyBot(), bots.GreedyBot()], "games": 0}, "games"),
    ({"bots": [bots.GreedyBot(), bots.GreedyBot()], "games": 2, "seed": -1}, "seed"),
])
def test_bad_arguments(kwargs, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        tournament(progress=False, **kwargs)


def test_the_table_fits_long_bot_names() -> None:
    class Named(bots.GreedyBot):
        name = "a greedy bot with a long name"

    lines = tournament([Named(), bots.RandomBot(seed=1)], games=2, progress=False).table().splitlines()
    assert len({len(line) for line in lines}) == 1
