"""What runs a widget between requests: the bots' pause and autoplay's ticks, the settling of steps, the
worker thread that computes the panels one job at a time, and the following of a live game changed
elsewhere. The adapter (`widget.NeedleWidget`) calls `after` at the end of every change; nothing here
touches a trait: it asks the adapter to `sync`, inside the adapter's `guard` (which holds the traits'
messages together and shows an error in the widget).

Python never waits on the browser, and a request never waits on a panel: in the kernel's event loop a
bot answers a browser's move after `bot_delay`, autoplay ticks every 1/speed s, and the panels' work
starts SETTLE seconds after the latest step, one job at a time on a worker thread (Pyodide, with no
threads, runs each job on the loop). With no event loop (a script, a test) all of it happens at once.
"""

from __future__ import annotations

import asyncio
import functools
import logging
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import AbstractContextManager, contextmanager
from typing import Any

from ..engine.game import Game
from ..screen.desk import Desk, Job

__all__ = ["Runner", "SETTLE"]

SETTLE = 0.25
"""Seconds the panels' work waits after a step from the browser or autoplay: while stepping
(a held key, quick presses) no panel is computed; the panels follow once the step settles."""
log = logging.getLogger("needle_widget")


def running_loop() -> asyncio.AbstractEventLoop | None:
    """The kernel's event loop (cells and messages run there), or None."""
    try:
        return asyncio.get_running_loop()
    except RuntimeError:
        return None


class Runner:
    """The timers, the panels' worker and the game following of one widget's desk.

    `sync()` copies the desk into the widget's traits; `guard(what)` is a context in which the traits'
    changes go out in one message and an error is shown in the widget (naming `what`); `alive()` says
    whether the widget is still open.
    """

    def __init__(self, desk: Desk, *, bot_delay: float, sync: Callable[[], None],
                 guard: Callable[[str], AbstractContextManager[None]], alive: Callable[[], bool]) -> None:
        self.desk = desk
        self.bot_delay = bot_delay
        """Seconds a bot waits before answering a browser's move (0 to 10)."""
        self._sync, self._guard, self._alive = sync, guard, alive
        self._timer: asyncio.TimerHandle | None = None
        self._work: asyncio.TimerHandle | None = None
        self._working, self._settled = False, 0.0
        self._pool: ThreadPoolExecutor | None = None
        self._no_threads = False
        self._games: dict[int, tuple[Game, Callable[[], None]]] = {}
        self._changing = 0

    # ---- after every change ---------------------------------------------------------------------

    def after(self, at_once: bool, settle: bool = False, panels: bool | None = None) -> None:
        """Copy the session into the traits, then wait for what it asks: a bot answers after
        `bot_delay` (at once for Python, or with no event loop); autoplay ticks every 1/speed s.
        The open panels' work is done at once for Python (`panels`, by default `at_once`; always
        with no loop), else one job at a time on a worker thread (`desk.Job`), starting SETTLE
        seconds after the latest step (`settle`), while the kernel goes on answering requests.
        """
        self._follow_games()
        s, loop = self.desk.session, running_loop()
        if s.timer() == "bot" and (at_once or loop is None or self.bot_delay == 0):
            self._cancel_timer()
            s.run_bots()
        if (at_once if panels is None else panels) or loop is None:
            while (job := self.desk.next_job()) is not None:
                job.run()
        self._sync()
        wait = s.timer()
        if wait is None:
            self._cancel_timer()
        elif self._timer is None and loop is not None:
            self._timer = loop.call_later(self.bot_delay if wait == "bot" else 1.0 / s.speed, self.tick)
        if loop is not None:
            if settle:
                self._settled = loop.time() + SETTLE
            self._schedule_work(loop)

    def tick(self) -> None:
        """One tick of the timer (what the event loop calls): a bot's move or an autoplay step."""
        self._timer = None
        with self.own_changes(), self._guard("a timer"):
            session = self.desk.session
            try:
                session.tick()
            except Exception:
                session.set_playing(False)  # a failing tick is not repeated
                self._sync()
                raise
            self.after(at_once=False, settle=True)

    def _cancel_timer(self) -> None:
        timer, self._timer = self._timer, None
        if timer is not None:
            timer.cancel()

    # ---- the live games, changed from outside ----------------------------------------------------

    @contextmanager
    def own_changes(self) -> Iterator[None]:
        """While the widget changes its games itself (Python's calls, the browser's requests, its
        timers, the bots it runs), it does not also answer the games' notifications: what it
        changes it copies into the traits once, at the end (`after`).
        """
        self._changing += 1
        try:
            yield
        finally:
            self._changing -= 1

    def _follow_games(self) -> None:
        """Observe the live games on the desk (the home's, and a branch's), and catch up with them."""
        desk = self.desk
        sessions = [s for s in dict.fromkeys((desk.home, desk.session)) if s.live]
        wanted = {id(s.whole()): s.whole() for s in sessions}
        for key in [key for key in self._games if key not in wanted]:
            self._games.pop(key)[1]()
        for key, game in wanted.items():
            if key not in self._games:
                self._games[key] = (game, game.observe(self._game_changed))
        for s in sessions:
            s.notice_moves()

    def _game_changed(self, _game: Game) -> None:
        """A live game of this widget changed from outside it (`game.apply(...)` in Python, another
        widget of the same game): follow it as after `apply` (a bot to move answers at once). Its
        open panels are computed as after a step: not inside the request or cell that moved the game
        (another widget's browser must not wait for them), but on the worker once the steps settle;
        at once only where no event loop runs.
        """
        if self._changing:
            return
        with self.own_changes(), self._guard("following the game"):
            self.after(at_once=True, settle=True, panels=False)

    # ---- the panels' worker ------------------------------------------------------------------------

    def _schedule_work(self, loop: asyncio.AbstractEventLoop) -> None:
        """The next job of the panels, once the steps have settled, unless one is running or none is left."""
        if self._working or not self.desk.has_work():
            return
        if self._work is not None:
            self._work.cancel()
        self._work = loop.call_later(max(0.0, self._settled - loop.time()), self._one_job)

    def _one_job(self) -> None:
        """Start the next job on the worker thread (the kernel goes on answering requests meanwhile)."""
        self._work = None
        job, loop = self.desk.next_job(), running_loop()
        if job is None or loop is None:
            return
        self._working = True
        future = None
        if not self._no_threads:
            if self._pool is None:
                self._pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix="needle-widget-panels")
            try:
                future = loop.run_in_executor(self._pool, job.result)
            except RuntimeError:  # no threads in this Python: the pool holds the job it could not start; drop it
                self._no_threads = True
                self._pool.shutdown(wait=False, cancel_futures=True)
                self._pool = None
        if future is None:  # the job runs now, on the loop (Pyodide's loop does this itself)
            future = loop.create_future()
            try:
                future.set_result(job.result())
            except Exception as error:  # shown by _job_done, as a worker's error would be
                future.set_exception(error)
        future.add_done_callback(functools.partial(self._job_done, job))

    def _job_done(self, job: Job, future: asyncio.Future[Any]) -> None:
        """Back on the kernel's loop: store the job's value, update the views, go on."""
        self._working = False
        if future.cancelled() or not self._alive():  # the widget was closed meanwhile
            return
        with self._guard("the panels"):
            job.store(future.result())
            self._sync()
        loop = running_loop()
        if loop is not None:
            self._schedule_work(loop)

    # ---- closing -----------------------------------------------------------------------------------

    def close(self) -> None:
        """Stop the timers and the panels' work, and stop following the games."""
        self._cancel_timer()
        work, self._work = self._work, None
        if work is not None:
            work.cancel()
        pool, self._pool = self._pool, None
        if pool is not None:
            pool.shutdown(wait=False, cancel_futures=True)
        games, self._games = self._games, {}
        for _game, stop in games.values():
            stop()
