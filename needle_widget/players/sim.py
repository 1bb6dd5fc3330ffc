"""Simulation: play bots against each other, one game or whole tournaments."""

from __future__ import annotations

import contextlib
import copy
import csv
import itertools
import os
import stat
import uuid
from collections.abc import Iterator, Sequence
from concurrent.futures import FIRST_COMPLETED, Executor, Future, wait
from dataclasses import dataclass
from typing import Any, TextIO

from ..engine.errors import TournamentError
from ..engine.game import Game
from ..engine.playout import play_out
from ..engine.rules import Rules

MAX_GAMES = 10_000_000
"""The most games per pair of bots that `tournament` accepts (its rows are kept in memory)."""


def play_game(bot0, bot1, seed: int | None = None, rules: Rules | None = None) -> Game:
    """Play one whole game between two bots (bot0 is Player 1) and return the finished Game.

    Each bot sees only its own `PlayerView` (`engine.playout.play_out`: GreedyBots play on its trusted
    path, move for move as on the checked one). A bot with a `new_game(seed, player)` method is told
    about the game first, so seeded bots play the same way whatever games they played before.

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
    play_out(game, players)
    return game


@dataclass(frozen=True)
class GameSpec:
    """One game of a tournament: which two entrants, in which seats, with which seed."""

    index: int
    seed: int
    seats: tuple[int, int]
    """Entrant numbers in seat order: seats[0] is Player 1."""


def _play_specs(entrants: Sequence[Any], rules: Rules | None, specs: Sequence[GameSpec]) -> list[dict[str, Any]]:
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
        """Per entrant: games, wins, losses, draws and the win rate among decided games."""
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

    def to_csv(self, path: str | os.PathLike) -> None:
        """Write one row per game to the CSV file `path`, atomically.

        The rows go to a temporary file in the same directory, which then replaces
        `path` (`os.replace`): a failure part-way leaves any earlier file untouched.
        """
        columns = ["game", "seed", "player1", "player2", "winner", "reason", "score1", "score2", "turns"]
        with _atomic_text(path) as f:
            writer = csv.DictWriter(f, fieldnames=columns)
            writer.writeheader()
            for row in self.rows:
                writer.writerow({k: ("" if row[k] is None else row[k]) for k in columns})


@contextlib.contextmanager
def _atomic_text(path: str | os.PathLike) -> Iterator[TextIO]:
    """A text file to write that becomes `path` only once the `with` block succeeds."""
    target = os.path.realpath(path)  # through a symlink: the link stays, its file is replaced
    temp = os.path.join(os.path.dirname(target), f".{os.path.basename(target)}.{uuid.uuid4().hex[:12]}.tmp")
    fd = os.open(temp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666)  # the umask applies, as for open()
    try:
        with open(fd, "w", newline="", encoding="utf-8") as f:
            yield f
            f.flush()
            os.fsync(f.fileno())
        with contextlib.suppress(FileNotFoundError):
            os.chmod(temp, stat.S_IMODE(os.stat(target).st_mode))  # keep an existing file's permissions
        os.replace(temp, target)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(temp)
        raise


def _labels(entrants: Sequence[Any]) -> list[str]:
    names = [str(getattr(bot, "name", type(bot).__name__)) for bot in entrants]
    return [f"{n}#{names[:i].count(n) + 1}" if names.count(n) > 1 else n for i, n in enumerate(names)]


def _specs(entrants: int, games: int, seed: int) -> Iterator[GameSpec]:
    """Every game of a round robin, in order, made one at a time."""
    index = 0
    for a in range(entrants):
        for b in range(a + 1, entrants):
            for i in range(games):
                yield GameSpec(index, seed + i, (a, b) if i % 2 == 0 else (b, a))
                index += 1


def _chunks(specs: Iterator[GameSpec], size: int) -> Iterator[list[GameSpec]]:
    while part := list(itertools.islice(specs, size)):
        yield part


def _run_bounded(
    executor: Executor, entrants: list[Any], rules: Rules | None, chunks: Iterator[list[GameSpec]]
) -> Iterator[list[dict[str, Any]]]:
    """Each chunk's rows, in the order they finish, with a bounded number of chunks submitted at once."""
    window = max(64, 4 * (os.cpu_count() or 1))
    pending: set[Future] = set()
    try:
        for part in chunks:
            if len(pending) >= window:
                done, pending = wait(pending, return_when=FIRST_COMPLETED)
                for future in done:
                    yield future.result()
            pending.add(executor.submit(_play_specs, entrants, rules, part))
        while pending:
            done, pending = wait(pending, return_when=FIRST_COMPLETED)
            for future in done:
                yield future.result()
    finally:
        for future in pending:
            future.cancel()


def tournament(
    bots: Sequence[Any],
    games: int,
    seed: int = 0,
    executor: Executor | None = None,
    progress: bool = True,
    rules: Rules | None = None,
    chunk: int = 200,
) -> Tournament:
    """Every pair of `bots` plays `games` games, seats alternated; game i of a pair has seed `seed + i`.

    `executor`: any `concurrent.futures.Executor` runs the games in chunks, e.g.
    `ProcessPoolExecutor(2)` on one machine, or a dask.distributed cluster's
    `client.get_executor()`. Bots must then be picklable. Seeded bots are told
    each game's seed (`new_game`), so the same seeds give the same rows whatever
    the executor. `progress` shows a tqdm bar (a widget in notebooks).

    The games are made and submitted lazily, `chunk` at a time, with a bounded
    number of chunks in flight, so only the rows grow with `games`: at most
    `MAX_GAMES` per pair (about 350 bytes of memory per row). Bad arguments
    raise `TournamentError`.

    >>> from needle_widget import bots
    >>> t = tournament([bots.GreedyBot(), bots.RandomBot(seed=1)], games=20, seed=3, progress=False)
    >>> len(t.rows), [s["games"] for s in t.summary]
    (20, [20, 20])
    """
    if len(bots) < 2:
        raise TournamentError(f"a tournament needs at least 2 bots, got {len(bots)}")
    if type(games) is not int or games < 1:
        raise TournamentError(f"games must be a positive integer, not {games!r}")
    if games > MAX_GAMES:
        raise TournamentError(f"games must be at most {MAX_GAMES:,} per pair of bots, not {games!r}")
    if type(seed) is not int or seed < 0:
        raise TournamentError(f"seed must be a non-negative integer, not {seed!r}")
    if type(chunk) is not int or chunk < 1:
        raise TournamentError(f"chunk must be a positive integer, not {chunk!r}")
    names = _labels(bots)
    pairs = len(bots) * (len(bots) - 1) // 2
    chunks = _chunks(_specs(len(bots), games, seed), chunk)
    bar = None
    if progress:
        from tqdm.auto import tqdm

        bar = tqdm(total=pairs * games, desc="games", unit="game")
    rows: list[dict[str, Any]] = []
    try:
        if executor is None:
            for part in chunks:
                rows += _play_specs(bots, rules, part)
                if bar is not None:
                    bar.update(len(part))
        else:
            for part_rows in _run_bounded(executor, list(bots), rules, chunks):
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
