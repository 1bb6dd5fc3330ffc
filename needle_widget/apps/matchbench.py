"""`needle-widget bench match`: students playing each other across processes, timed. The teacher's room
runs a match in this process; each student is a process of its own (as in `bench class`), seated two a
table. Each student moves as soon as its screen lets it (a seeded random legal move) and records, on the
machine's shared clock (`time.time_ns`), when it posted each move and when its screen first showed each
step: a move's latency is the time from the mover posting it to the opponent's screen showing it.
"""

from __future__ import annotations

import random
import shutil
import tempfile
import threading
import time
from collections.abc import Callable
from typing import Any

from ..classroom.errors import ClassError
from .bench import Figure
from .classbench import TIMEOUT, RedisServer, _context, spread

__all__ = ["MATCH_TARGETS_MS", "match_figures", "match_latencies", "player_process"]

MATCH_TARGETS_MS = {"folder": 150.0, "redis": 100.0}
"""Issue 30's targets: a move to the opponent's screen, with 30 students (15 tables) playing at once."""


def player_process(url: str, code: str, index: int, stop: Any, results: Any, progress: Any = None) -> None:
    """One student's process: join with ticket `code`, play a seeded random legal move whenever the screen
    allows; when `stop` is set, put a record on `results`: the time each of its moves was posted (by the step
    it makes) and the time each step was first shown. `progress`, if given, gets (index, step) for each step
    its screen first shows, as it shows it (so the parent knows when every move has reached its opponent).
    """
    from ..classroom import join

    record: dict[str, Any] = {"index": index, "posted": {}, "shown": {}, "error": None}
    if progress is not None:
        progress.cancel_join_thread()  # what the parent no longer reads must not hold this process at its exit
    try:
        student = join(url, code, start=False)
        changed = threading.Event()
        shown: dict[int, int] = record["shown"]

        def on_change() -> None:
            now = time.time_ns()
            state = student.state()
            if state["follow"]["kind"] == "match" and state["table"] is not None and state["step"] not in shown:
                shown[state["step"]] = now
                if progress is not None:
                    progress.put((index, state["step"]))
            changed.set()

        student.subscribe(on_change)
        student.start()
        rng = random.Random(index)
        while not stop.is_set():
            changed.wait(0.02)
            changed.clear()
            state = student.state()
            if state["can_act"] and state["table"] and state["table"]["legal_actions"]:
                legal = state["table"]["legal_actions"]
                record["posted"][state["step"] + 1] = time.time_ns()
                student.act(rng.choice(legal))
        student.close()
    except Exception as failure:  # the parent reports it
        record["error"] = f"{type(failure).__name__}: {failure}"
    results.put(record)


def match_latencies(url: str, students: int = 30, moves: int = 20) -> list[float]:
    """Milliseconds from a student posting a move to the opponent's screen showing it, for every move of
    `students` student processes (an even count: no bot) playing one deal, each at most `moves` moves.
    """
    from .. import classroom

    if students < 2 or students % 2:
        raise ClassError(f"bench match needs an even number of students, at least 2, not {students}")
    room = classroom.open(url)
    context = _context()
    stop, results, progress = context.Event(), context.Queue(), context.Queue()
    tickets = [room.invite(f"S{n}") for n in range(students)]
    processes = [context.Process(target=player_process, args=(room.url, t.code, t.index, stop, results, progress),
                                 daemon=True) for t in tickets]
    for p in processes:
        p.start()
    try:
        deadline = time.monotonic() + TIMEOUT
        while room.board_state("projector")["roster"]["joined"] < students:
            if time.monotonic() > deadline:
                raise ClassError(f"the students did not join within {TIMEOUT:g} s")
            time.sleep(0.05)
        match = room.match(deals=1, seed=1, players=[t.name for t in tickets])
        deadline = time.monotonic() + TIMEOUT
        while not all(t.over or (t.game is not None and len(t.game) >= moves) for t in match.tables):
            if time.monotonic() > deadline:
                raise ClassError(f"the tables did not play {moves} moves within {TIMEOUT:g} s")
            time.sleep(0.05)
        _shown_everywhere(match.tables, moves, progress, time.monotonic() + TIMEOUT)
        stop.set()
        records = [results.get(timeout=TIMEOUT) for _ in processes]
    finally:
        stop.set()
        for p in processes:
            p.join(5)
            if p.is_alive():
                p.kill()
        room.close()
    errors = [r["error"] for r in records if r["error"]]
    if errors:
        raise ClassError(f"a student process failed: {errors[0]}")
    by_index = {r["index"]: r for r in records}
    latencies = []
    for table in match.tables:
        a, b = table.players
        assert b is not None
        for mover, other in ((a, b), (b, a)):
            shown = by_index[other]["shown"]
            for step, posted in by_index[mover]["posted"].items():
                # the first time the opponent's screen showed this step or a later one (a screen that moves on by
                # two steps at once, the mover's draw and end of sets, shows both)
                seen = min((t for s, t in shown.items() if s >= step), default=None)
                if seen is not None and step <= moves:
                    latencies.append((seen - posted) / 1e6)
    return latencies


def _shown_everywhere(tables: Any, moves: int, progress: Any, deadline: float) -> None:
    """Wait (until `deadline`) for both screens of every table to have shown the step each table reached (at most
    `moves`): a loaded machine can take longer than any fixed pause, and a move not yet shown is a move lost.
    """
    import queue

    wanted = {}
    for table in tables:
        reached = min(moves, len(table.game) if table.game is not None else 0)
        for player in table.players:
            if player is not None:
                wanted[player] = reached
    latest: dict[int, int] = {}
    while any(latest.get(player, -1) < step for player, step in wanted.items()) and time.monotonic() < deadline:
        try:
            index, step = progress.get(timeout=0.1)
        except queue.Empty:
            continue
        latest[index] = max(latest.get(index, -1), step)


def match_figures(students: int = 30, moves: int = 20, channels: tuple[str, ...] = ("folder", "redis"),
                  out: Callable[[str], None] = print) -> list[Figure]:
    """`match_latencies` on each channel (Redis only if redis-server is installed: a private one is started
    on 127.0.0.1), printed as median, p95 and max beside the target.
    """
    figures: list[Figure] = []
    for channel in channels:
        folder = tempfile.mkdtemp(prefix="needle-match-bench-")
        server = None
        try:
            if channel == "folder":
                url = f"folder:{folder}/room"
            else:
                if RedisServer.binary() is None:
                    out("redis: skipped (redis-server is not installed)")
                    continue
                server = RedisServer(folder).start()
                url = server.url(room="match")
            values = match_latencies(url, students, moves)
        finally:
            if server is not None:
                server.stop()
            shutil.rmtree(folder, ignore_errors=True)
        target = MATCH_TARGETS_MS[channel]
        out(f"match on {channel}: a move to the opponent's screen, {students} student processes at "
            f"{students // 2} tables, {len(values)} moves (target {target:g} ms)")
        figures += spread(f"{channel}: move to the opponent's screen", values, target, out)
    return figures
