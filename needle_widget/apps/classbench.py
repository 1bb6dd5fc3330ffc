"""`needle-widget bench class`: a class across processes, timed. The teacher leads a room in this
process; each student is a process of its own (multiprocessing's "forkserver" context, the class code
and redis-py imported once in the server), joined with its ticket, its workers running. The teacher steps and each
student records when its screen (`Student.state()`) shows the step: the time from the teacher's
`lesson.go(k)` to the student's synced state, on the machine's shared clock (`time.time_ns`,
CLOCK_REALTIME; `perf_counter` is not shared between processes).

The stress test (tests/test_class_stress.py) runs its students with `student_process` too.
"""

from __future__ import annotations

import multiprocessing
import os
import queue
import shutil
import socket
import subprocess
import tempfile
import threading
import time
from collections.abc import Callable
from typing import Any

from ..classroom.errors import ClassError
from .bench import Figure

__all__ = ["student_process", "answer_for", "Class", "step_latencies", "class_latencies", "class_figures",
           "RedisServer", "TARGETS_MS", "GO_TARGET_MS", "go_under_rejoins"]

TARGETS_MS = {"folder": 300.0, "redis": 100.0}
GO_TARGET_MS = 100.0
"""Issue 29's target: one `lesson.go` while a student rejoins with the same ticket in a loop."""
"""Issue 23's targets: from the teacher's step to a student's synced state, with 30 students joined."""
TIMEOUT = 60.0
"""Seconds a class waits for its students (to join, to follow a step, to answer) before it gives up."""


def answer_for(index: int, kind: str, question: int) -> Any:
    """Student `index`'s answer to question number `question` (deterministic: the test checks the room kept it)."""
    if kind == "pile_or_steal":
        return "pile" if (index + question) % 2 else "steal"
    return ((index * 7 + question * 13) % 101) / 100


def student_process(url: str, code: str, index: int, answer: bool, stop: Any, results: Any, shown: Any) -> None:
    """One student's process: join `url` with ticket `code` (workers running), follow the teacher and,
    if `answer`, answer every question as soon as it arrives; when `stop` is set, put a record on
    `results`: the first time (time.time_ns) each step was shown live, the questions seen, answered and
    revealed, and the messages this process posted and received (with duplicates: a (box, seq) twice).
    Each step first shown live is also put on `shown` as (index, step), after its time is taken, and each
    question's reveal as (index, ("revealed", question)).
    """
    from ..classroom import join

    posted = [0]
    received: list[tuple[str, int]] = []
    record: dict[str, Any] = {"index": index, "began": time.time_ns(), "steps": {}, "seen": [], "answers": {},
                              "revealed": [], "error": None}
    try:
        student = join(url, code, start=False)
        channel = student.channel
        post, read = channel.post, channel.read

        def counted_post(box: str, seq: int, data: bytes) -> None:
            post(box, seq, data)
            posted[0] += 1

        def counted_read(*args: Any, **kwargs: Any) -> list:
            messages = read(*args, **kwargs)
            received.extend((box, seq) for box, seq, _ in messages)
            return messages

        channel.post, channel.read = counted_post, counted_read  # type: ignore[method-assign]
        changed = threading.Event()
        steps: dict[int, int] = record["steps"]

        def on_change() -> None:
            now = time.time_ns()
            state = student.state()
            if state["follow"]["status"] == "live" and state["follow"]["kind"] == "lesson":
                if state["step"] not in steps:
                    steps[state["step"]] = now
                    shown.put((index, state["step"]))
            changed.set()

        student.subscribe(on_change)
        student.start()
        record["started"] = time.time_ns()
        seen: set[int] = set()
        revealed: set[int] = set()
        while not stop.is_set():
            changed.wait(0.05)
            changed.clear()
            quiz = student.state()["quiz_state"]
            if quiz is None:
                continue
            number = quiz["index"]
            if number not in seen:
                seen.add(number)
                record["seen"].append(number)
            if quiz["reveal"] is not None and number not in revealed:
                revealed.add(number)
                record["revealed"].append(number)
                shown.put((index, ("revealed", number)))
            if answer and quiz["reveal"] is None and not quiz["question"]["answered"]:
                value = answer_for(index, quiz["question"]["kind"], number)
                student.answer(value)
                record["answers"][number] = value
        student.close()
    except Exception as failure:  # the parent reports it
        record["error"] = f"{type(failure).__name__}: {failure}"
    record["posted"] = posted[0]
    record["received"] = len(received)
    record["duplicates"] = len(received) - len(set(received))
    results.put(record)


def _context() -> Any:
    """The "forkserver" context of multiprocessing (the class code imported once, in the server), else "spawn"."""
    try:
        context = multiprocessing.get_context("forkserver")
    except ValueError:  # pragma: no cover - no forkserver (Windows)
        return multiprocessing.get_context("spawn")
    context.set_forkserver_preload(["needle_widget.classroom", "needle_widget.classroom.redischannel"])
    return context


class Class:
    """A room at `url` with `students` student processes (`student_process`) joined: `start` invites them,
    starts the processes and waits until every one has joined; `finish` stops them and returns their records.
    """

    def __init__(self, url: str, students: int, *, answer: bool = False, secret: bytes | None = None) -> None:
        from .. import classroom

        self.room = classroom.open(url, secret=secret)
        self.students, self.answer = students, answer
        self.tickets = [self.room.invite(f"Student {i + 1}") for i in range(students)]
        self.context = _context()
        self.stop = self.context.Event()
        self.results = self.context.Queue()
        self.shown = self.context.Queue()
        self.processes: list[Any] = []
        self._changed = threading.Event()
        self.room.subscribe(self._changed.set)

    def wait(self, condition: Callable[[], bool], what: str, timeout: float = TIMEOUT) -> None:
        """Wait until `condition()` (checked after every change of the room, and every 50 ms)."""
        end = time.monotonic() + timeout
        while not condition():
            self._check_alive()
            if time.monotonic() > end:
                raise ClassError(f"the class waited {timeout:g} s for {what}")
            self._changed.wait(0.05)
            self._changed.clear()

    def start(self, lead: Any, perspective: Any = 0) -> Any:
        """Lead `lead` (a replay), start the students and wait until all have joined; the lesson."""
        lesson = self.room.lead(lead, perspective=perspective)
        self.launched = time.time_ns()
        for i, ticket in enumerate(self.tickets):
            process = self.context.Process(target=student_process, name=f"needle-student-{i}", daemon=True,
                                           args=(self.room.url, ticket.code, i, self.answer, self.stop, self.results,
                                                 self.shown))
            process.start()
            self.processes.append(process)
        self.wait(lambda: self.room.board_state("projector")["roster"]["joined"] >= self.students,
                  f"{self.students} students to join")
        return lesson

    def _check_alive(self) -> None:
        dead = [p.name for p in self.processes if p.exitcode is not None]
        if dead and not self.stop.is_set():
            raise ClassError(f"{len(dead)} student processes ended early ({dead[0]}: exit code "
                               f"{self.processes[int(dead[0].rsplit('-', 1)[1])].exitcode})")

    def wait_shown(self, step: int, timeout: float = TIMEOUT) -> None:
        """Wait until every student's screen has shown `step` live."""
        self._wait_all(step, f"show step {step}", timeout)

    def wait_revealed(self, question: int, timeout: float = TIMEOUT) -> None:
        """Wait until every student's screen has shown the reveal of question number `question`."""
        self._wait_all(("revealed", question), f"show the reveal of question {question}", timeout)

    def _wait_all(self, what: Any, words: str, timeout: float) -> None:
        showing: set[int] = set()
        end = time.monotonic() + timeout
        while len(showing) < self.students:
            try:
                index, seen = self.shown.get(timeout=min(1.0, max(0.01, end - time.monotonic())))
            except queue.Empty:
                self._check_alive()
                if time.monotonic() < end:
                    continue
                raise ClassError(f"{self.students - len(showing)} students did not {words} "
                                   f"within {timeout:g} s") from None
            if seen == what:
                showing.add(index)

    def finish(self, timeout: float = TIMEOUT) -> list[dict[str, Any]]:
        """Stop the students; their records, by student number."""
        self.stop.set()
        records: list[dict[str, Any]] = []
        end = time.monotonic() + timeout
        try:
            while len(records) < len(self.processes):
                records.append(self.results.get(timeout=max(0.1, end - time.monotonic())))
        except queue.Empty:
            pass
        for process in self.processes:
            process.join(timeout=max(0.1, end - time.monotonic()))
            if process.is_alive():
                process.terminate()
                process.join(5)
        self.room.close()
        if len(records) < len(self.processes):
            raise ClassError(f"only {len(records)} of {len(self.processes)} student processes reported")
        return sorted(records, key=lambda r: r["index"])

    def close(self) -> None:
        """Stop everything (after a failure)."""
        self.stop.set()
        for process in self.processes:
            process.join(timeout=5)
            if process.is_alive():
                process.terminate()
                process.join(5)
        self.room.close()


def step_latencies(url: str, students: int = 30, steps: int = 20, *,
                   pause: float = 0.1) -> tuple[list[float], list[dict[str, Any]]]:
    """The milliseconds from the teacher's `lesson.go(k)` to each student process's screen showing step
    k, for k = 1..`steps` (a replay long enough is led from seat 1's perspective); and the students' records.
    The teacher waits until every student shows step k (and `pause` seconds) before the next step.
    """
    latencies, records, _ = class_latencies(url, students, steps, pause=pause)
    return latencies, records


def class_latencies(url: str, students: int = 30, steps: int = 20, *, pause: float = 0.1,
                    browsers: Any = None) -> tuple[list[float], list[dict[str, Any]], list[float]]:
    """`step_latencies`, with `browsers` (a started `classbrowsers.Browsers`, or None) joining the class
    too, beside the `students` processes: a page each, invited after the processes. The teacher waits for
    the processes and the pages before each next step. Also returns the pages' latencies (ms): each
    page's `Date.now()` when its follow bar first read step k, minus `time.time_ns()` before `lesson.go(k)`.
    """
    from ..teaching import examples

    replay = max((examples.load(name) for name in examples.EXAMPLES), key=len)
    steps = min(steps, len(replay))
    room = Class(url, students)
    pages = [room.room.invite(f"Browser {i + 1}").code for i in range(browsers.count)] if browsers else []
    sent: dict[int, int] = {}
    try:
        lesson = room.start(replay, perspective=0)
        if browsers:
            browsers.join(room.room.url, pages)
            room.wait(lambda: room.room.board_state("projector")["roster"]["joined"] == students + len(pages),
                      f"{len(pages)} browsers to join")
        for k in range(1, steps + 1):
            sent[k] = time.time_ns()
            lesson.go(k)
            room.wait_shown(k)
            if browsers:
                browsers.wait_shown(k, TIMEOUT)
            time.sleep(pause)
        shown = browsers.times() if browsers else []
        records = room.finish()
    except BaseException:
        room.close()
        raise
    finally:
        if browsers:
            browsers.leave()
    latencies = []
    for record in records:
        if record["error"]:
            raise ClassError(f"student {record['index']}: {record['error']}")
        for k in range(1, steps + 1):
            if k not in record["steps"]:
                raise ClassError(f"student {record['index']} never showed step {k}")
            latencies.append((record["steps"][k] - sent[k]) / 1e6)
    page_latencies = [times[k] - sent[k] / 1e6 for times in shown for k in range(1, steps + 1)]
    return latencies, records, page_latencies


def go_under_rejoins(url: str, calls: int = 20) -> tuple[list[float], int]:
    """The milliseconds each of `calls` `lesson.go` calls takes while another thread rejoins one
    student's ticket as fast as it can (a hostile student, issue 29), and the number of rejoins meanwhile.
    A well-behaved student is joined too. Every frame is built before the timing (a first go builds it).
    """
    from .. import classroom
    from ..teaching import examples

    room = classroom.open(url)
    try:
        hostile, calm = room.invite("Hostile"), room.invite("Calm")
        follower = classroom.join(room.url, calm.code)
        lesson = room.lead(examples.load("detective"), perspective=0)
        last = len(lesson.replay)
        for k in range(last + 1):
            lesson.frame(0, k)
        lesson.go(last - 1)
        stop = threading.Event()
        rejoins = [0]

        def rejoin() -> None:
            while not stop.is_set():
                student = classroom.join(room.url, hostile.code, start=False)
                student.link.flush()
                student.close()
                rejoins[0] += 1

        flood = threading.Thread(target=rejoin, daemon=True)
        flood.start()
        while rejoins[0] < 10 and flood.is_alive():
            time.sleep(0.01)
        took = []
        for n in range(calls):
            began = time.perf_counter()
            lesson.go(last - 2 - n % 2)
            took.append((time.perf_counter() - began) * 1000)
            time.sleep(0.05)
        stop.set()
        flood.join(10)
        follower.close()
    finally:
        room.close()
    return took, rejoins[0]


def _quantile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def class_figures(students: int = 30, steps: int = 20, channels: tuple[str, ...] = ("folder", "redis"),
                  out: Callable[[str], None] = print, browsers: int = 0) -> list[Figure]:
    """`class_latencies` on each channel (Redis only if redis-server is installed: a private one is
    started on 127.0.0.1), printed as median, p95 and max beside the target. With `browsers`, that many
    of the `students` are headless Chromium pages on a private JupyterLab (`classbrowsers`), the rest
    processes, and the pages' figures get rows of their own; without Chromium, Playwright or JupyterLab
    that is said in one line and all the students are processes.
    """
    from . import classbrowsers

    pages = None
    if browsers:
        why = classbrowsers.missing()
        if why is not None:
            out(f"browsers: skipped ({why})")
        else:
            pages = classbrowsers.Browsers(min(browsers, students))
    processes = students - (pages.count if pages else 0)
    figures: list[Figure] = []
    try:
        if pages:
            pages.start()
        for channel in channels:
            figures += _channel_figures(channel, processes, steps, pages, out)
    finally:
        if pages:
            pages.close()
    return figures


def _channel_figures(channel: str, processes: int, steps: int, pages: Any,
                     out: Callable[[str], None]) -> list[Figure]:
    server = None
    folder = tempfile.mkdtemp(prefix="needle-class-bench-")
    try:
        if channel == "folder":
            url = f"folder:{folder}/room"
        else:
            if RedisServer.binary() is None:
                out(f"{'redis: skipped (redis-server is not installed)':<66}")
                return []
            server = RedisServer(folder).start()
            url = server.url()
        latencies, _, page_latencies = class_latencies(url, processes, steps, browsers=pages)
    finally:
        if server is not None:
            server.stop()
        shutil.rmtree(folder, ignore_errors=True)
    target = TARGETS_MS[channel]
    who = f"{processes} student processes" + (f" + {pages.count} browsers" if pages else "")
    out(f"class on {channel}: the teacher's step to each student's screen, {who} x {steps} steps "
        f"(target {target:g} ms)")
    figures = []
    for what, values in (("step to screen", latencies), ("step to a browser's screen", page_latencies)):
        if not values:
            continue
        figures += spread(f"{channel}: {what}", values, target, out)
    server = None
    folder = tempfile.mkdtemp(prefix="needle-class-bench-")
    try:
        if channel == "folder":
            url = f"folder:{folder}/room"
        else:
            server = RedisServer(folder).start()
            url = server.url(room="rejoins")
        took, rejoins = go_under_rejoins(url, calls=steps)
    finally:
        if server is not None:
            server.stop()
        shutil.rmtree(folder, ignore_errors=True)
    out(f"class on {channel}: lesson.go() while a student rejoins in a loop, {steps} calls ({rejoins} rejoins; "
        f"target {GO_TARGET_MS:g} ms)")
    figures += spread(f"{channel}: go() under rejoins", took, GO_TARGET_MS, out)
    return figures


def spread(what: str, values: list[float], target: float, out: Callable[[str], None]) -> list[Figure]:
    """The median, p95 and max of `values` (milliseconds) as figures named `what` beside the target, printed."""
    figures = []
    for label, value in (("median", _quantile(values, 0.5)), ("p95", _quantile(values, 0.95)), ("max", max(values))):
        figure = Figure(f"  {what}, {label} (target {target:g} ms)", value, "ms")
        figures.append(figure)
        out(str(figure))
    return figures


class RedisServer:
    """A private redis-server on 127.0.0.1, on a free port, saving nothing (as tests/redis_server.py)."""

    def __init__(self, folder: str) -> None:
        with socket.socket() as s:
            s.bind(("127.0.0.1", 0))
            self.port = s.getsockname()[1]
        self.folder = folder
        self.process: subprocess.Popen | None = None

    @staticmethod
    def binary() -> str | None:
        """Debian's redis-server, or None."""
        found = shutil.which("redis-server")
        return found or ("/usr/bin/redis-server" if os.path.exists("/usr/bin/redis-server") else None)

    def start(self) -> RedisServer:
        """Start it and wait until it answers."""
        import redis

        self.process = subprocess.Popen(
            [self.binary() or "redis-server", "--port", str(self.port), "--bind", "127.0.0.1", "--save", "",
             "--appendonly", "no", "--dir", self.folder, "--protected-mode", "yes", "--loglevel", "warning"],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        client = redis.Redis(host="127.0.0.1", port=self.port, socket_connect_timeout=0.5)
        for _ in range(100):
            try:
                client.ping()
                client.close()
                return self
            except redis.exceptions.ConnectionError:
                time.sleep(0.05)
        self.stop()
        raise ClassError(f"redis-server did not start on port {self.port}")

    def stop(self) -> None:
        """Stop it."""
        if self.process is not None:
            self.process.terminate()
            self.process.wait(timeout=10)
            self.process = None

    def url(self, db: int = 0, room: str = "bench") -> str:
        """The address of room `room` in database `db`."""
        return f"redis://127.0.0.1:{self.port}/{db}?room={room}"
