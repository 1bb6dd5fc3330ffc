"""Simulation: play bots against each other, one game or whole tournaments."""

from __future__ import annotations

import copy
import csv
import os
from concurrent.futures import Executor, as_completed
from dataclasses import dataclass
from typing import Any, Optional, Sequence, Union

from .game import Game
from .rules import Rules
from .views import PlayerView


def play_game(bot0, bot1, seed: Optional[int] = None, rules: Optional[Rules] = None) -> Game:
    """Play one whole game between two bots (bot0 is Player 1) and return the finished Game.

    Each bot sees only its own `PlayerView`. A bot with a `new_game(seed, player)`
    method is told about the game first, so seeded bots play the same way
    whatever games they played before.

    >>> from needle_widget import bots
    >>> g = play_game(bots.RandomBot(seed=1), bots.RandomBot(seed=2), seed=5)
    >>> g.phase
    'over'
    """
    game = Game(rules=rules, seed=seed)
    players = (bot0, bot1)
    game.players = (str(getattr(bot0, "name", "bot")), str(getattr(bot1, "name", "bot")))
    for p, bot in enumerate(players):
        hook = getattr(bot, "new_game", None)
        if hook is not None:
            hook(game.seed, p)
    while game.phase != "over":
        p = game.to_move
        legal = game.legal_actions()
        game.apply(players[p].choose(PlayerView.of(game, p), legal) if len(legal) > 1 else legal[0])
    return game


@dataclass(frozen=True)
class GameSpec:
    """One game of a tournament: which two entrants, in which seats, with which seed."""

    index: int
    seed: int
    seats: tuple[int, int]
    """Entrant numbers in seat order: seats[0] is Player 1."""


def _play_specs(entrants: Sequence[Any], rules: Optional[Rules], specs: Sequence[GameSpec]) -> list[dict[str, Any]]:
    entrants = copy.deepcopy(list(entrants))  # bots keep state: each chunk gets its own, for any executor
    rows = []
    for spec in specs:
        a, b = spec.seats
        game = play_game(entrants[a], entrants[b], seed=spec.seed, rules=rules)
        result = game.result
        rows.append(
            {
                "game": spec.index,
                "seed": spec.seed,
                "player1": a,
                "player2": b,
                "winner": None if result.winner is None else spec.seats[result.winner],
                "reason": result.reason.value,
                "score1": result.scores[0],
                "score2": result.scores[1],
                "turns": game.turn,
            }
        )
    return rows


@dataclass
class Tournament:
    """What `tournament` returns: one row per game, and a summary per entrant.

    Rows name entrants by their labels (`names`); `summary` gives games, wins,
    losses, draws and the win rate among decided games.
    """

    names: list[str]
    rows: list[dict[str, Any]]

    @property
    def summary(self) -> list[dict[str, Any]]:
        out = []
        for name in self.names:
            played = [r for r in self.rows if name in (r["player1"], r["player2"])]
            wins = sum(1 for r in played if r["winner"] == name)
            draws = sum(1 for r in played if r["winner"] is None)
            losses = len(played) - wins - draws
            decided = wins + losses
            out.append(
                {
                    "bot": name,
                    "games": len(played),
                    "wins": wins,
                    "losses": losses,
                    "draws": draws,
                    "win_rate": round(wins / decided, 4) if decided else None,
                }
            )
        return out

    def table(self) -> str:
        """The summary as a plain-text table."""
        width = max([16] + [len(name) + 1 for name in self.names])
        head = f"{'bot':<{width}} {'games':>7} {'wins':>7} {'losses':>7} {'draws':>7} {'win %':>7}"
        lines = [head, "-" * len(head)]
        for s in self.summary:
            rate = "-" if s["win_rate"] is None else f"{100 * s['win_rate']:.1f}"
            lines.append(
                f"{s['bot']:<{width}} {s['games']:>7} {s['wins']:>7} {s['losses']:>7} {s['draws']:>7} {rate:>7}"
            )
        return "\n".join(lines)

    def reasons(self) -> dict[str, int]:
        """How many games ended for each reason."""
        counts: dict[str, int] = {}
        for r in self.rows:
            counts[r["reason"]] = counts.get(r["reason"], 0) + 1
        return dict(sorted(counts.items(), key=lambda kv: -kv[1]))

    def to_csv(self, path: Union[str, os.PathLike]) -> None:
        columns = ["game", "seed", "player1", "player2", "winner", "reason", "score1", "score2", "turns"]
        with open(path, "w", newline="", encoding="utf-8") as f:
            writer = csv.DictWriter(f, fieldnames=columns)
            writer.writeheader()
            for row in self.rows:
                writer.writerow({k: ("" if row[k] is None else row[k]) for k in columns})


def _labels(entrants: Sequence[Any]) -> list[str]:
    names = [str(getattr(bot, "name", type(bot).__name__)) for bot in entrants]
    return [f"{n}#{names[:i].count(n) + 1}" if names.count(n) > 1 else n for i, n in enumerate(names)]


def tournament(
    bots: Sequence[Any],
    games: int,
    seed: int = 0,
    executor: Optional[Executor] = None,
    progress: bool = True,
    rules: Optional[Rules] = None,
    chunk: int = 200,
) -> Tournament:
    """Every pair of `bots` plays `games` games, seats alternated; game i of a pair has seed `seed + i`.

    `executor`: any `concurrent.futures.Executor` runs the games in chunks, e.g.
    `ProcessPoolExecutor(2)` on one machine, or a dask.distributed cluster's
    `client.get_executor()`. Bots must then be picklable. Seeded bots are told
    each game's seed (`new_game`), so the same seeds give the same rows whatever
    the executor. `progress` shows a tqdm bar (a widget in notebooks).

    >>> from needle_widget import bots
    >>> t = tournament([bots.GreedyBot(), bots.RandomBot(seed=1)], games=20, seed=3, progress=False)
    >>> len(t.rows), [s["games"] for s in t.summary]
    (20, [20, 20])
    """
    if len(bots) < 2:
        raise ValueError(f"a tournament needs at least 2 bots, got {len(bots)}")
    if type(games) is not int or games < 1:
        raise ValueError(f"games must be a positive integer, not {games!r}")
    if type(seed) is not int or seed < 0:
        raise ValueError(f"seed must be a non-negative integer, not {seed!r}")
    names = _labels(bots)
    specs: list[GameSpec] = []
    for a in range(len(bots)):
        for b in range(a + 1, len(bots)):
            for i in range(games):
                seats = (a, b) if i % 2 == 0 else (b, a)
                specs.append(GameSpec(len(specs), seed + i, seats))
    chunks = [specs[i : i + chunk] for i in range(0, len(specs), chunk)]
    bar = None
    if progress:
        from tqdm.auto import tqdm

        bar = tqdm(total=len(specs), desc="games", unit="game")
    rows: list[dict[str, Any]] = []
    try:
        if executor is None:
            for part in chunks:
                rows += _play_specs(bots, rules, part)
                if bar is not None:
                    bar.update(len(part))
        else:
            futures = [executor.submit(_play_specs, list(bots), rules, part) for part in chunks]
            for future in as_completed(futures):
                part_rows = future.result()
                rows += part_rows
                if bar is not None:
                    bar.update(len(part_rows))
    finally:
        if bar is not None:
            bar.close()
    rows.sort(key=lambda r: r["game"])
    for r in rows:
        r["player1"], r["player2"] = names[r["player1"]], names[r["player2"]]
        r["winner"] = None if r["winner"] is None else names[r["winner"]]
    return Tournament(names, rows)
