"""Simulation: play bots against each other, one game or a whole round robin (`round_robin`: every pair of
bots, raw rows; the review layer's `needle_widget.tournament` is this with the luck taken out).

A round robin may be a duplicate match (`duplicate=True`): every deal is played twice, with the
seats swapped, so what the deal gives one seat it gives each bot once. A `scorer` adds columns to
each game's row (the review layer's luck-adjusted scores: `needle_widget.review.matches`), and
`RoundRobin.summary` gives each bot's mean score with a 95% interval taken over deals, the unit
that is independent (both games of a deal share its cards).
"""

from __future__ import annotations

import contextlib
import copy
import csv
import itertools
import math
import os
import stat
import uuid
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import FIRST_COMPLETED, Executor, Future, wait
from dataclasses import dataclass
from typing import Any, TextIO

from ..engine.errors import TournamentError, quote
from ..engine.game import Game
from ..engine.playout import play_out
from ..engine.rules import Rules
from .bots import Bot, bot_seed

MAX_GAMES = 10_000_000
"""The most games per pair of bots that `round_robin` accepts (its rows are kept in memory)."""
Z95 = 1.959963984540054
"""The two-sided 95% quantile of the normal distribution: intervals are mean ± Z95 standard errors."""
COLUMNS = ("game", "seed", "player1", "player2", "winner", "reason", "score1", "score2", "turns")
"""The columns of every row (a duplicate match adds `deal`, a scorer its own columns)."""

Scorer = Callable[[Game], dict[str, Any]]
"""A per-game hook: called with each finished game (in the worker that played it) and returning extra
columns for its row. It must be picklable to run on an executor."""


def play_game(bot0: Bot, bot1: Bot, seed: int | None = None, rules: Rules | None = None) -> Game:
    """Play one whole game between two bots (bot0 is Player 1) and return the finished Game.

    Each bot sees only its own `PlayerView` (`engine.playout.play_out`: GreedyBots play on its trusted
    path, move for move as on the checked one). A bot with a `new_game(seed, player)` method is told
    `bots.bot_seed(deal seed, seat)` first (a number that does not deal the game again), so seeded
    bots play the same way whatever games they played before.

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
            hook(bot_seed(game.seed, p), p)
    play_out(game, players)
    return game


@dataclass(frozen=True)
class GameSpec:
    """One game of a round robin: which two entrants, in which seats, with which seed."""

    index: int
    seed: int
    seats: tuple[int, int]
    """Entrant numbers in seat order: seats[0] is Player 1."""
    deal: int | None = None
    """In a duplicate match, the deal's number within its pair of bots (both of its games share it)."""


def _play_specs(entrants: Sequence[Any], rules: Rules | None, specs: Sequence[GameSpec],
                scorer: Scorer | None = None) -> list[dict[str, Any]]:
    entrants = copy.deepcopy(list(entrants))  # bots keep state: each chunk gets its own, for any executor
    rows = []
    for spec in specs:
        a, b = spec.seats
        game = play_game(entrants[a], entrants[b], seed=spec.seed, rules=rules)
        result = game.result
        assert result is not None  # play_game plays the round to its end
        row = {
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
        if spec.deal is not None:
            row["deal"] = spec.deal
        if scorer is not None:
            row.update(scorer(game))
        rows.append(row)
    return rows


@dataclass
class RoundRobin:
    """What `round_robin` returns: one row per game, and a summary per entrant.

    Rows name entrants by their labels (`names`); `summary` gives games, wins,
    losses, draws and the win rate among decided games. A duplicate match (`duplicate`),
    or one with extra per-seat scores (`scores`: names whose rows carry `<name>1` and
    `<name>2`, each seat's score in 0..1), adds each entrant's mean score with its 95% interval.
    """

    names: list[str]
    rows: list[dict[str, Any]]
    duplicate: bool = False
    """Whether every deal was played twice, the seats swapped (rows carry `deal`)."""
    scores: tuple[str, ...] = ()
    """Extra per-seat scores the summary reports (e.g. `("adjusted",)`: columns `adjusted1`, `adjusted2`)."""

    @property
    def summary(self) -> list[dict[str, Any]]:
        """Per entrant: games, wins, losses, draws and the win rate among decided games.

        For a duplicate match or with `scores`, also `deals` (how many deals it played), `score`
        (its mean result per game: win 1, draw 1/2, loss 0) and `score_low`, `score_high` (the 95%
        interval), and the same for each of `scores`. The interval treats each deal as one
        observation, the entrant's mean over its games of that deal: both games of a deal (and a
        deal's games against other entrants, which share its seed) are not independent, deals are.
        """
        out = []
        scored = self.duplicate or bool(self.scores)
        for name in self.names:
            played = [r for r in self.rows if name in (r["player1"], r["player2"])]
            wins = sum(1 for r in played if r["winner"] == name)
            draws = sum(1 for r in played if r["winner"] is None)
            losses = len(played) - wins - draws
            decided = wins + losses
            entry: dict[str, Any] = {
                "bot": name,
                "games": len(played),
                "wins": wins,
                "losses": losses,
                "draws": draws,
                "win_rate": round(wins / decided, 4) if decided else None,
            }
            if scored:
                entry["deals"] = len({r["seed"] for r in played})
                for column in ("score", *self.scores):
                    mean, low, high = interval(_by_deal(played, name, column))
                    entry[column], entry[f"{column}_low"], entry[f"{column}_high"] = mean, low, high
            out.append(entry)
        return out

    def table(self) -> str:
        """The summary as a plain-text table (with each score and its 95% interval where `summary` has them)."""
        summary = self.summary
        scored = self.duplicate or bool(self.scores)
        columns = ("score", *self.scores) if scored else ()
        width = max([16] + [len(name) + 1 for name in self.names])
        head = f"{'bot':<{width}} {'games':>7} {'wins':>7} {'losses':>7} {'draws':>7} {'win %':>7}"
        head += "".join(f" {c + ' (95%)':>22}" for c in columns)
        lines = [head, "-" * len(head)]
        for s in summary:
            rate = "-" if s["win_rate"] is None else f"{100 * s['win_rate']:.1f}"
            line = f"{s['bot']:<{width}} {s['games']:>7} {s['wins']:>7} {s['losses']:>7} {s['draws']:>7} {rate:>7}"
            line += "".join(f" {_shown(s[c], s[c + '_low'], s[c + '_high']):>22}" for c in columns)
            lines.append(line)
        if scored:
            unit = "deal (both seats)" if self.duplicate else "deal"
            lines.append(f"95% intervals over deals: one observation per {unit} and bot.")
        return "\n".join(lines)

    def reasons(self) -> dict[str, int]:
        """How many games ended for each reason."""
        counts: dict[str, int] = {}
        for r in self.rows:
            counts[r["reason"]] = counts.get(r["reason"], 0) + 1
        return dict(sorted(counts.items(), key=lambda kv: -kv[1]))

    def to_csv(self, path: str | os.PathLike[str]) -> None:
        """Write one row per game to the CSV file `path`, atomically.

        The rows go to a temporary file in the same directory, which then replaces
        `path` (`os.replace`): a failure part-way leaves any earlier file untouched.
        The columns are `COLUMNS`, then `deal` and a scorer's columns where the rows have them.
        """
        columns = list(COLUMNS)
        if self.rows:
            columns += [k for k in self.rows[0] if k not in COLUMNS]
        with _atomic_text(path) as f:
            writer = csv.DictWriter(f, fieldnames=columns)
            writer.writeheader()
            for row in self.rows:
                writer.writerow({k: ("" if row[k] is None else row[k]) for k in columns})


def seat_score(row: dict[str, Any], name: str, column: str = "score") -> float:
    """`name`'s score in the game of `row`: for `column="score"` its result (win 1, draw 1/2, loss 0), else
    the row's `<column>1` or `<column>2`, by the seat it played.
    """
    if column == "score":
        return 0.5 if row["winner"] is None else float(row["winner"] == name)
    return float(row[f"{column}1"] if row["player1"] == name else row[f"{column}2"])


def _by_deal(played: Sequence[dict[str, Any]], name: str, column: str) -> list[float]:
    """`name`'s mean `column` score over its games of each deal (games sharing a seed), deal by deal."""
    deals: dict[int, list[float]] = {}
    for r in played:
        deals.setdefault(r["seed"], []).append(seat_score(r, name, column))
    return [math.fsum(xs) / len(xs) for xs in deals.values()]


def interval(values: Sequence[float]) -> tuple[float | None, float | None, float | None]:
    """The mean of independent `values` and its 95% interval (normal approximation, mean ± Z95 standard
    errors, with the n - 1 variance); (None, None, None) without values, no interval from one value.

    >>> [round(x, 3) for x in interval([0.0, 1.0, 0.5, 0.5])]
    [0.5, 0.1, 0.9]
    """
    n = len(values)
    if not n:
        return None, None, None
    mean = math.fsum(values) / n
    if n < 2:
        return mean, None, None
    half = Z95 * math.sqrt(math.fsum((x - mean) ** 2 for x in values) / (n - 1) / n)
    return mean, mean - half, mean + half


def _shown(mean: float | None, low: float | None, high: float | None) -> str:
    if mean is None:
        return "-"
    if low is None or high is None:
        return f"{mean:.3f}"
    return f"{mean:.3f} [{low:.3f}, {high:.3f}]"


@contextlib.contextmanager
def _atomic_text(path: str | os.PathLike[str]) -> Iterator[TextIO]:
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


def _specs(entrants: int, games: int, seed: int, duplicate: bool = False) -> Iterator[GameSpec]:
    """Every game of a round robin, in order, made one at a time. Each pair plays `games` games: game i
    has seed `seed + i` and the seats alternated; in a duplicate match deal k has seed `seed + k` and is
    games 2k (the pair in order) and 2k + 1 (the seats swapped).
    """
    index = 0
    for a in range(entrants):
        for b in range(a + 1, entrants):
            for i in range(games):
                if duplicate:
                    yield GameSpec(index, seed + i // 2, (a, b) if i % 2 == 0 else (b, a), deal=i // 2)
                else:
                    yield GameSpec(index, seed + i, (a, b) if i % 2 == 0 else (b, a))
                index += 1


def _chunks(specs: Iterator[GameSpec], size: int) -> Iterator[list[GameSpec]]:
    while part := list(itertools.islice(specs, size)):
        yield part


def _run_bounded(
    executor: Executor, entrants: list[Any], rules: Rules | None, chunks: Iterator[list[GameSpec]],
    scorer: Scorer | None = None,
) -> Iterator[list[dict[str, Any]]]:
    """Each chunk's rows, in the order they finish, with a bounded number of chunks submitted at once."""
    window = max(64, 4 * (os.cpu_count() or 1))
    pending: set[Future[list[dict[str, Any]]]] = set()
    try:
        for part in chunks:
            if len(pending) >= window:
                done, pending = wait(pending, return_when=FIRST_COMPLETED)
                for future in done:
                    yield future.result()
            pending.add(executor.submit(_play_specs, entrants, rules, part, scorer))
        while pending:
            done, pending = wait(pending, return_when=FIRST_COMPLETED)
            for future in done:
                yield future.result()
    finally:
        for future in pending:
            future.cancel()


def round_robin(
    bots: Sequence[Any],
    games: int,
    seed: int = 0,
    executor: Executor | None = None,
    progress: bool = True,
    rules: Rules | None = None,
    chunk: int = 200,
    *,
    duplicate: bool = False,
    scorer: Scorer | None = None,
    scores: Sequence[str] = (),
) -> RoundRobin:
    """Every pair of `bots` plays `games` games, seats alternated; game i of a pair has seed `seed + i`.

    `duplicate=True` makes it a duplicate match: deal k of a pair (seed `seed + k`) is played twice,
    the pair in order (game 2k) and the seats swapped (game 2k + 1), and the rows carry `deal` (k);
    `games` must then be even. `scorer(game)` is called after each game, in the process that played
    it, and its columns are added to the row (`Scorer`); `scores` names the per-seat scores among them
    that the summary reports (`RoundRobin.scores`). The luck-adjusted match of the review layer
    (`needle_widget.tournament`) is this with a scorer that reviews both seats.

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
    >>> t = round_robin([bots.GreedyBot(), bots.RandomBot(seed=1)], games=20, seed=3, progress=False)
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
    if type(duplicate) is not bool:
        raise TournamentError(f"duplicate must be True or False, not {quote(duplicate)}")
    if duplicate and games % 2:
        raise TournamentError(f"a duplicate match plays every deal twice: games must be even, not {games!r}")
    if scorer is not None and not callable(scorer):
        raise TournamentError(f"scorer must be a function of the finished game, or None, not {quote(scorer)}")
    names_given: Sequence[object] = scores  # checked as given: a caller may pass anything
    if isinstance(scores, str) or not all(isinstance(name, str) and name for name in names_given):
        raise TournamentError(f"scores must be a sequence of column names, not {quote(scores)}")
    names = _labels(bots)
    pairs = len(bots) * (len(bots) - 1) // 2
    chunks = _chunks(_specs(len(bots), games, seed, duplicate), chunk)
    bar = None
    if progress:
        from tqdm.auto import tqdm

        bar = tqdm(total=pairs * games, desc="games", unit="game")
    rows: list[dict[str, Any]] = []
    try:
        if executor is None:
            for part in chunks:
                rows += _play_specs(bots, rules, part, scorer)
                if bar is not None:
                    bar.update(len(part))
        else:
            for part_rows in _run_bounded(executor, list(bots), rules, chunks, scorer):
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
    return RoundRobin(names, rows, duplicate, tuple(scores))


tournament = round_robin
"""The earlier name of `round_robin`, kept for code that calls it (the luck-adjusted `needle_widget.tournament`
is `review.matches.tournament`)."""
Tournament = RoundRobin
"""The earlier name of `RoundRobin`, kept for code that imports it."""
