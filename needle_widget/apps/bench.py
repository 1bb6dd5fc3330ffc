"""`needle-widget bench`: how fast the engine plays, measured through the public API."""

from __future__ import annotations

import importlib
import random
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from ..engine.actions import ChooseNeedle, Steal, cards_of
from ..engine.game import Game
from ..engine.rules import MAX_TURNS, Rules
from ..engine.views import PERSPECTIVES

if TYPE_CHECKING:
    from ..engine.seats import Perspective
    from ..records.replay import Replay


@dataclass(frozen=True)
class Figure:
    """One measured figure: what, how much, in which unit."""

    name: str
    value: float
    unit: str

    def __str__(self) -> str:
        return f"{self.name:<66} {self.value:>10,.1f} {self.unit}"


OLD_SELFPLAY_RATIO = 7.93
"""Random self-play against OpenSpiel's gin_rummy in the same loop, decisions per second, before the one
legality predicate (346k decisions/s then, on this project's 2-core machine); measured since in one process."""


def random_selfplay(seconds: float, seed: int = 0) -> tuple[Figure, Figure]:
    """Random self-play: `legal_actions()` + `apply()` at every decision, whole games."""
    rand = random.Random(seed).random
    for warm in range(_warm(seconds, 300)):  # warm up the set tables' cache
        game = Game(seed=100_000 + warm)
        while game.phase != "over":
            legal = game.legal_actions()
            game.apply(legal[int(rand() * len(legal))])
    decisions = games = 0
    start = time.perf_counter()
    deadline = start + seconds
    while time.perf_counter() < deadline:
        for _ in range(50):
            game = Game(seed=seed + games)
            games += 1
            while game.phase != "over":
                legal = game.legal_actions()
                game.apply(legal[int(rand() * len(legal))])
                decisions += 1
    elapsed = time.perf_counter() - start
    return (
        Figure("random self-play decisions", decisions / elapsed, "decisions/s"),
        Figure("random self-play games", games / elapsed, "games/s"),
    )


def _midgame(seed: int = 3, decisions: int = 120) -> Game:
    rng = random.Random(seed)
    best = None
    for s in range(seed, seed + 200):
        game = Game(seed=s)
        for _ in range(decisions):
            if game.phase == "over":
                break
            legal = game.legal_actions()
            game.apply(legal[rng.randrange(len(legal))])
        if game.phase != "over":
            return game
        best = game
    assert best is not None  # pragma: no cover - 200 games were dealt
    return best  # pragma: no cover


def long_game(seed: int = 3) -> Game:
    """A game that runs to the turn limit (300 turns): random players who peek to avoid
    ending the round (never steal their own needle, discard or lay the opponent's).
    """
    rand = random.Random(seed).random
    game = Game(seed=seed)
    while game.phase != "over":
        p = game.to_move
        mine, theirs = game.needle(p), game.needle(1 - p)
        legal = [
            a for a in game.legal_actions()
            if not (type(a) is Steal and mine in game.hand(1 - p)) and theirs not in cards_of(a)
        ] or game.legal_actions()
        game.apply(legal[int(rand() * len(legal))])
    return game


def endless_game(actions: int, seed: int = 1) -> Game:
    """A legal game of exactly `actions` actions (when the turn limit allows): each player picks
    a needle in the other's hand and never steals, discards or lays one, so only E5 can end it.
    """
    rng = random.Random(seed)
    game = Game(rules=Rules(max_turns=min(MAX_TURNS, actions)), seed=seed)
    while len(game) < actions and game.phase != "over":
        p = game.to_move
        if game.phase == "needle":
            game.apply(ChooseNeedle(rng.choice(game.hand(1 - p))))
            continue
        theirs = game.needle(1 - p)
        legal = [a for a in game.legal_actions() if type(a) is not Steal and theirs not in cards_of(a)]
        game.apply(legal[rng.randrange(len(legal))])
    return game


def replay_memory(actions: int) -> tuple[float, float]:
    """Seconds and peak MB (tracemalloc) to load and check a replay of `actions` actions from JSON."""
    import tracemalloc

    from ..records.replay import Replay

    text = endless_game(actions).replay().to_json()
    start = time.perf_counter()
    Replay.from_json(text)
    seconds = time.perf_counter() - start
    tracemalloc.start()
    try:
        Replay.from_json(text)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    return seconds, peak / 2**20


def _warm(seconds: float, most: int) -> int:
    """Warm-up rounds: `most` for a real run (a second or more), fewer for a quick one (the test run's)."""
    return most if seconds >= 1 else max(10, int(most * seconds))


def against_openspiel(seconds: float) -> list[Figure]:
    """Random self-play decisions per second over OpenSpiel's gin_rummy (random play, the same loop: chance
    outcomes drawn, a legal action drawn at every decision) in this process, beside the old ratio; empty
    unless `pyspiel` (OpenSpiel's `open_spiel` package) is installed.
    """
    try:
        import pyspiel  # type: ignore[import-not-found]
    except ImportError:
        return []
    game, rand = pyspiel.load_game("gin_rummy"), random.Random(0).random
    ratios = []
    for _ in range(3):  # alternate the two, so a busy machine slows both alike
        ours = random_selfplay(seconds / 3)[0].value
        decisions, start = 0, time.perf_counter()
        while time.perf_counter() < start + seconds / 3:
            state = game.new_initial_state()
            while not state.is_terminal():
                if state.is_chance_node():
                    outcomes = state.chance_outcomes()
                    state.apply_action(outcomes[int(rand() * len(outcomes))][0])
                else:
                    legal = state.legal_actions()
                    state.apply_action(legal[int(rand() * len(legal))])
                    decisions += 1
        ratios.append(ours / (decisions / (time.perf_counter() - start)))
    return [Figure("random self-play over OpenSpiel gin_rummy, same loop (median of 3)", sorted(ratios)[1], "x"),
            Figure("  the same before the one legality predicate", OLD_SELFPLAY_RATIO, "x")]


def rollouts(seconds: float) -> list[Figure]:
    """GreedyBot against GreedyBot played to the end from worlds of a mid-game view (Player 1's, turn 8): on a copy
    by the checked path (legal actions listed, every action checked) and by the trusted one (`engine.playout`,
    which for two GreedyBots plays the copy on its numbers, `Game.play_through`), and for the result alone as a
    review asks (`playout.rollout`: no copy, no history, `Game.play_on`).
    """
    from ..engine.playout import play_out, rollout
    from ..inference.worlds import sample
    from ..players.bots import GreedyBot

    pair, view = (GreedyBot(), GreedyBot()), _greedy_midgame(8).view(0)
    warm = sample(view, _warm(seconds, 300), seed=1)
    for world in warm:
        play_out(world, pair)
    paths: dict[str, Callable[[Game], object]] = {
        "checked": lambda world: play_out(world.copy(), pair, trusted=False),
        "trusted": lambda world: play_out(world.copy(), pair),
        "numbers": lambda world: rollout(world, pair),
    }
    rates: dict[str, float] = {}
    for turn in range(2):  # each path twice, in turn
        for name, play in paths.items():
            worlds, done = sample(view, 200, seed=2 + turn), 0
            start = time.perf_counter()
            while done == 0 or time.perf_counter() < start + seconds / 6:
                for world in worlds:
                    play(world)
                done += len(worlds)
            rates[name] = max(rates.get(name, 0.0), done / (time.perf_counter() - start))
    return [Figure("GreedyBot rollouts from a mid-game world, checked path", rates["checked"], "rollouts/s"),
            Figure("GreedyBot rollouts from a mid-game world, trusted path", rates["trusted"], "rollouts/s"),
            Figure("  the trusted path's speed-up", rates["trusted"] / rates["checked"], "x"),
            Figure("GreedyBot rollouts from a mid-game world, result only", rates["numbers"], "rollouts/s"),
            Figure("  the result-only rollout's speed-up", rates["numbers"] / rates["checked"], "x")]


def replay_stepping(seconds: float) -> list[Figure]:
    """Load and check a 300-turn replay, then time `game_at(k)` at random steps."""
    from ..records.replay import Replay

    game = long_game()
    text = game.replay().to_json()
    start = time.perf_counter()
    replay = Replay.from_json(text)
    load = time.perf_counter() - start
    n = len(replay)
    rand = random.Random(1).random
    figure = per_call(
        f"game_at(k), {game.turn} turns, {n} actions", lambda: replay.game_at(int(rand() * (n + 1))), seconds
    )
    branch = per_call(f"branch(k), {n} actions", lambda: replay.branch(int(rand() * (n + 1))), seconds)
    return [Figure(f"load + check a {game.turn}-turn replay", load * 1e3, "ms"), figure, branch]


def timed(label: str, fn: Callable[[int], object], seconds: float) -> Figure:
    """Milliseconds per call of `fn(k)` (k = 0, 1, ...: a fresh seed each time), over about `seconds`,
    after one warm-up call; at least one timed call.
    """
    fn(0)
    calls = 0
    start = time.perf_counter()
    while calls == 0 or time.perf_counter() < start + seconds:
        fn(1 + calls)
        calls += 1
    return Figure(label, (time.perf_counter() - start) / calls * 1e3, "ms")


def worlds_figures(game: Game, seconds: float) -> list[Figure]:
    """`worlds` from Player 1's view of `game` (random players) and of a GreedyBot game at a similar
    turn: 1,000 model-free worlds, 1,000 worlds under the GreedyBot model, `outcomes` of 200 worlds
    with GreedyBot rollouts (also from the deal), and the model's needle odds (400 worlds).
    """
    from ..inference.knowledge import opponent_needle_odds
    from ..inference.outcomes import outcomes
    from ..inference.worlds import posterior, sample
    from ..players.bots import GreedyBot

    view, greedy_view, pair = game.view(0), _greedy_midgame(game.turn).view(0), (GreedyBot(), GreedyBot())
    turn, many = f"turn {game.turn}", 1000 if seconds >= 1 else 100
    return [
        timed(f"{many:,} model-free worlds, {turn}", lambda k: sample(view, many, seed=k), seconds),
        timed(f"{many:,} worlds, GreedyBot model, {turn} of a GreedyBot game",
              lambda k: posterior(greedy_view, many, seed=k, model=GreedyBot()), seconds),
        timed(f"{many:,} worlds, GreedyBot model, {turn} of a random game (worst case)",
              lambda k: posterior(view, many, seed=k, model=GreedyBot()), seconds),
        timed(f"needle odds, GreedyBot model (400 worlds), {turn}",
              lambda k: opponent_needle_odds(greedy_view, model=GreedyBot(), seed=k), seconds),
        timed(f"outcomes of 200 worlds, GreedyBot, {turn}", lambda k: outcomes(view, pair, 200, seed=k), seconds),
        timed("outcomes of 200 worlds, GreedyBot, the deal",
              lambda k: outcomes(Game(seed=21).view(0), pair, 200, seed=k), seconds),
    ]


def _greedy_midgame(turn: int, seed: int = 5) -> Game:
    """A GreedyBot game stopped at `turn` (or the longest such game's last live step)."""
    from ..players.bots import GreedyBot
    from ..players.sim import play_game

    best = None
    for s in range(seed, seed + 100):
        replay = play_game(GreedyBot(), GreedyBot(), seed=s).replay()
        live = [k for k in range(len(replay)) if replay.game_at(k).turn <= turn]
        game = replay.game_at(live[-1])
        if game.turn == turn:
            return game
        if best is None or game.turn > best.turn:
            best = game
    assert best is not None
    return best

def _sixty_actions() -> Replay:
    """The replay of a GreedyBot game of at least 60 actions (the graph's benchmark)."""
    from ..players.bots import GreedyBot
    from ..players.sim import play_game

    return next(r for r in (play_game(GreedyBot(), GreedyBot(), seed=s).replay() for s in range(200)) if len(r) >= 60)


def whatif_figures(seconds: float) -> list[Figure]:
    """The widget's hypotheticals, through NeedleWidget on a GreedyBot replay of 60+ actions: the
    possible-worlds panel for a step (model-free and with the GreedyBot model) and its play-out, set
    from Python (computed at once); the whole graph for one seat; how long a browser's step
    request takes to be answered while the worker thread computes the panels; the longest job.
    """
    import asyncio

    from ..jupyter.widget import NeedleWidget
    from ..screen.desk import Desk
    from ..screen.session import Session

    replay = _sixty_actions()
    if seconds < 1:  # a quick run (the test run's): a shorter replay, the same figures
        replay = replay.cut(16)
    n = len(replay)
    requests = 40 if seconds >= 1 else 8

    def panel(model: str, playout: bool = False) -> Callable[[int], object]:
        widget = NeedleWidget.from_replay(replay, perspective=0, step=1)
        widget.show_worlds(model=model)
        if playout:
            widget.play_out()
        return lambda k: setattr(widget, "step", 1 + k % (n - 1))

    def graph(k: int) -> None:
        NeedleWidget.from_replay(replay, perspective=0).show_graph(model="random")

    async def stepping() -> Figure:
        widget = NeedleWidget.from_replay(replay, perspective=0, step=n // 2)
        for request in ({"kind": "worlds", "open": True, "model": "greedy"}, {"kind": "playout"},
                        {"kind": "graph", "open": True, "model": "greedy"}):
            widget._on_message(widget, request, [])
        await asyncio.sleep(0.4)  # the worker is busy from here on
        times = []
        for k in range(requests):
            start = time.perf_counter()
            widget._on_message(widget, {"kind": "step", "to": 1 + k % (n - 1), "id": k}, [])
            times.append(time.perf_counter() - start)
            await asyncio.sleep(0.3 if k % 10 == 9 else 0.05)
        widget.close()
        times.sort()
        return Figure("a step request answered while the worker computes (GreedyBot model; median)",
                      times[len(times) // 2] * 1e3, "ms")

    def longest_job() -> Figure:
        desk = Desk(Session(replay=replay, perspective=0))
        desk.session.go(n // 2)
        desk.analysis.show_worlds(0, True, model="greedy")
        desk.analysis.play_out()
        desk.analysis.show_graph(0, True)
        longest = 0.0
        while (job := desk.next_job()) is not None:
            start = time.perf_counter()
            job.run()
            longest = max(longest, time.perf_counter() - start)
        return Figure("the longest panel job (GreedyBot model; on the worker thread)", longest * 1e3, "ms")

    return [
        timed(f"worlds panel for a step, model-free ({n}-action replay)", panel("random"), seconds),
        timed("worlds panel for a step, GreedyBot model", panel("greedy"), seconds),
        timed("worlds panel + play-out of 200 worlds, model-free", panel("random", playout=True), seconds),
        timed(f"the graph of the {n}-action replay for one seat", graph, 0),
        asyncio.run(stepping()),
        longest_job(),
    ]


def greedy_selfplay(seconds: float) -> Figure:
    """Whole GreedyBot vs GreedyBot games per second (after a warm-up)."""
    from ..players.bots import GreedyBot
    from ..players.sim import play_game

    a, b = GreedyBot(), GreedyBot()
    for seed in range(10_000, 10_000 + _warm(seconds, 500)):  # warm up: GreedyBot and the tables fill their caches
        play_game(a, b, seed=seed)
    games = 0
    start = time.perf_counter()
    deadline = start + seconds
    while time.perf_counter() < deadline:
        for _ in range(20):
            play_game(a, b, seed=games)
            games += 1
    return Figure("GreedyBot vs GreedyBot games", games / (time.perf_counter() - start), "games/s")


def review_figures(seconds: float) -> list[Figure]:
    """How long reviews take: the first entry, both seats of the longest bundled replay in two processes (in one:
    `review_speed`), and both seats of a 400-action game (two processes). At the default budget when
    `seconds` >= 1, else at 8 worlds (a quick run).
    """
    from concurrent.futures import ProcessPoolExecutor

    from ..records.replay import Replay
    from ..review import DEFAULT_WORLDS, Reviewer, reviews
    from ..teaching import examples

    worlds = DEFAULT_WORLDS if seconds >= 1 else 8
    longest = max((examples.load(name) for name in examples.EXAMPLES), key=len)
    tag = f"{worlds} worlds"
    start = time.perf_counter()
    Reviewer(longest, 0, worlds=worlds).step()
    out = [Figure(f"review: first entry ({tag})", (time.perf_counter() - start) * 1e3, "ms")]
    long = Replay.from_game(long_game()).cut(400) if seconds >= 1 else None
    with ProcessPoolExecutor(2) as pool:
        pool.submit(int).result()  # the workers are up before the clock starts, as in a session that reviews twice
        start = time.perf_counter()
        reviews(longest, worlds=worlds, executor=pool)
        out.append(Figure(f"review: both seats, {len(longest)}-action bundled replay, {tag}, 2 processes",
                          time.perf_counter() - start, "s"))
        if long is not None:
            start = time.perf_counter()
            reviews(long, worlds=worlds, executor=pool)
            out.append(Figure(f"review: both seats, a 400-action game, {tag}, 2 processes",
                              time.perf_counter() - start, "s"))
    return out + record_figures(worlds)


def review_speed(seconds: float) -> list[Figure]:
    """The review's speed as issue 48 states it, in one process: both seats of the bundled `long_with_reshuffle`,
    then both seats of `endless_game(400)` and of `endless_game(800)` and the ratio of the two (a review whose
    cost per decision does not grow with the game's length gives about 2). At the default budget when `seconds`
    >= 1, else at 4 worlds and games of 40 and 80 actions (a quick run: the same figures, smaller).
    """
    from ..review import DEFAULT_WORLDS, reviews
    from ..teaching import examples

    worlds = DEFAULT_WORLDS if seconds >= 1 else 4
    replay = examples.load("long_with_reshuffle")
    start = time.perf_counter()
    reviews(replay, worlds=worlds)
    out = [Figure(f"review: both seats of long_with_reshuffle ({len(replay)} actions, {worlds} worlds), 1 process",
                  time.perf_counter() - start, "s")]
    short, long_ = (400, 800) if seconds >= 1 else (40, 80)
    took = {}
    for n in (short, long_):
        game = endless_game(n).replay()
        start = time.perf_counter()
        reviews(game, worlds=worlds)
        took[n] = time.perf_counter() - start
        out.append(Figure(f"review: both seats of endless_game({n}) ({worlds} worlds), 1 process", took[n], "s"))
    out.append(Figure(f"  the {long_}-action review over the {short}-action one", took[long_] / took[short], "x"))
    return out


YARDSTICK = Path(__file__).with_name("needle_ref.c")
"""The machine's limit for this game: the rules and GreedyBot in plain C, drawing with CPython's generator, so
its games are the engine's, move for move (a copy of the yardstick the project was given; not in the wheel)."""


def yardstick(seconds: float) -> dict[str, float]:
    """GreedyBot games a second and rollouts a second (wall clock) of `YARDSTICK`, built with `gcc -O2` in a
    temporary folder; empty where there is no gcc (or the build or run fails).
    """
    import shutil
    import subprocess
    import tempfile

    gcc = shutil.which("gcc")
    if gcc is None or not YARDSTICK.is_file():
        return {}
    out: dict[str, float] = {}
    with tempfile.TemporaryDirectory() as folder:
        binary = str(Path(folder) / "needle_ref")
        try:
            subprocess.run([gcc, "-O2", "-o", binary, str(YARDSTICK)], check=True, capture_output=True, timeout=120)
            runs = {"games": ([binary, "greedy", f"{max(seconds, 0.2):g}"], "gps_wall"),
                    "rollouts": ([binary, "rollout", f"{max(seconds, 0.2):g}", "8"], "rps_wall")}
            for name, (command, field) in runs.items():
                line = subprocess.run(command, check=True, capture_output=True, text=True, timeout=120).stdout
                fields = dict(part.split("=", 1) for part in line.split() if "=" in part)
                out[name] = float(fields[field])
        except (OSError, subprocess.SubprocessError, KeyError, ValueError):
            return {}
    return out


def against_yardstick(figures: list[Figure], limit: dict[str, float], build: str) -> list[Figure]:
    """How many times `build`'s GreedyBot games and rollouts (from `figures`) are from the C yardstick's."""
    out = []
    for name, what in (("games", "GreedyBot vs GreedyBot games"), ("rollouts", "GreedyBot rollouts from a mid-game "
                                                                                 "world, result only")):
        mine = next((f.value for f in figures if f.name == what), None)
        if name in limit and mine:
            out.append(Figure(f"  {what}, {build}: times from the C yardstick ({limit[name]:,.0f}/s)",
                              limit[name] / mine, "x"))
    return out


def record_figures(worlds: int) -> list[Figure]:
    """What a class's finished game costs its room: the record's figures (the ledger), then the student's review,
    which takes the decisions the ledger valued as they are (`known`), beside the same review valuing them
    again (as before it could). A RandomBot seat against GreedyBot: a student who often plays otherwise than
    the rollout policy, whose ledger values most decisions.
    """
    from ..classroom.record import seat_ledger, seat_review
    from ..players.bots import GreedyBot, RandomBot
    from ..players.sim import play_game

    replay = play_game(RandomBot(seed=4), GreedyBot(), seed=8).replay().to_dict()
    seat_review(replay, 0, 2)  # warm
    start = time.perf_counter()
    _, known = seat_ledger(replay, 0, worlds)
    figures = time.perf_counter() - start
    seat_review(replay, 0, worlds, known=known)
    given = time.perf_counter() - start
    start = time.perf_counter()
    seat_ledger(replay, 0, worlds)
    seat_review(replay, 0, worlds)
    again = time.perf_counter() - start
    return [Figure(f"class record: a finished game's figures ({worlds} worlds, RandomBot seat)", figures, "s"),
            Figure("  then its student's review, the figures' decisions not valued again", given, "s"),
            Figure("  the same, valuing them again", again, "s")]


def per_call(label: str, fn: Callable[[], object], seconds: float) -> Figure:
    """Microseconds per call of `fn`, over about `seconds`."""
    calls = 0
    start = time.perf_counter()
    deadline = start + seconds
    while time.perf_counter() < deadline:
        for _ in range(100):
            fn()
        calls += 100
    return Figure(label, (time.perf_counter() - start) / calls * 1e6, "µs")


def core_figures(seconds: float) -> list[Figure]:
    """What the compiled core speeds up: random self-play, GreedyBot games, the rollouts of both paths, and the
    review's speed (`review_speed`: at the default budget only in a real run, its figures take seconds each).
    """
    return [*random_selfplay(seconds), greedy_selfplay(seconds), *rollouts(seconds),
            *(review_speed(seconds) if seconds >= 1 else [])]


def builds_compared(seconds: float) -> list[Figure]:
    """With the compiled build installed: the core figures of it and of the pure build (its sources, imported beside
    it: `apps.builds.pure`), in this process, each build twice in turn (the best of each kept); empty otherwise.
    """
    from . import builds

    if builds.build_of(sys.modules[_PACKAGE]) == "pure Python":
        return []
    pure = importlib.import_module(f"{builds.pure().__name__}.apps.bench")
    best: dict[tuple[str, str], Figure] = {}
    for _ in range(2):
        for build, figures in (("compiled", core_figures), ("pure", pure.core_figures)):
            for f in figures(seconds / 2 if seconds < 2 else max(1.0, seconds / 2)):
                key, old = (build, f.name), best.get((build, f.name))
                if old is None or (f.value < old.value if f.unit in _TIMES else f.value > old.value):
                    best[key] = f
    out = []
    for (build, name), f in best.items():
        if build == "compiled" and ("pure", name) in best:
            p = best[("pure", name)]
            out += [Figure(f"{name}, compiled", f.value, f.unit), Figure(f"{name}, pure", p.value, p.unit)]
            if f.unit != "x":
                out.append(Figure("  compiled over pure", p.value / f.value if f.unit in _TIMES else f.value / p.value,
                                  "x"))
    return out


_TIMES = ("s", "ms", "µs")
"""Units of figures where less is better."""
_PACKAGE = __name__.split(".")[0]


def run(seconds: float = 2.0, out: Callable[[str], None] = print) -> list[Figure]:
    """Run every benchmark, printing each figure as it comes (after the build it measures); return them."""
    from . import builds

    figures: list[Figure] = []

    def report(figure: Figure) -> None:
        figures.append(figure)
        out(str(figure))

    package = sys.modules[_PACKAGE]
    compiled = builds.compiled_modules(package)
    out(f"build: {builds.build_of(package)}" + (f" ({', '.join(compiled)})" if compiled else ""))

    for figure in random_selfplay(seconds):
        report(figure)
    for figure in against_openspiel(seconds):
        report(figure)
    report(greedy_selfplay(seconds))
    for figure in rollouts(seconds):
        report(figure)
    for figure in replay_stepping(seconds / 2):
        report(figure)
    size = 20_000 if seconds >= 1 else 2_000
    load, megabytes = replay_memory(size)
    report(Figure(f"load + check a {size:,}-action replay", load * 1e3, "ms"))
    report(Figure("  its peak memory (tracemalloc)", megabytes, "MB"))
    game = _midgame()
    for perspective in PERSPECTIVES:
        def view(p: Perspective = perspective) -> object:
            return game.view(p)

        report(per_call(f"view({perspective!r}) at turn {game.turn}", view, seconds / 4))
    from ..screen.display import table

    report(per_call(f"a screen's table ('teacher') at turn {game.turn}, its events apart",
                    lambda: table(game, "teacher"), seconds / 4))
    from ..inference.knowledge import opponent_needle_odds, own_needle_odds

    mine = game.player_view(0)
    report(per_call("knowledge: both needle odds", lambda: (opponent_needle_odds(mine).in_my_hand,
                                                         own_needle_odds(mine)), seconds / 4))
    for figure in worlds_figures(game, seconds / 4):
        report(figure)
    for figure in whatif_figures(seconds / 4):
        report(figure)
    for figure in review_figures(seconds):
        report(figure)
    for figure in review_speed(seconds):
        report(figure)
    limit = yardstick(seconds)
    for figure in against_yardstick(figures, limit, "this build"):
        report(figure)
    if compiled:
        out("the compiled build against the pure one, in this process:")
        compared = builds_compared(seconds)
        for figure in compared:
            report(figure)
        for build in ("compiled", "pure"):
            named = [Figure(f.name.removesuffix(f", {build}"), f.value, f.unit) for f in compared
                     if f.name.endswith(f", {build}")]
            for figure in against_yardstick(named, limit, build):
                report(figure)
    return figures
