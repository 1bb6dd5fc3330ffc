"""The `needle-widget` command: simulate, show, export, play, review, bench, class-export, lessons.

Bad arguments and bad files give a one-line error and exit code 2, never a traceback.
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import warnings
from collections.abc import Callable, Sequence
from typing import TextIO

from .._version import __version__
from ..engine.errors import NeedleError
from ..engine.seats import player_name
from ..records.replay import MAX_FILE_BYTES, Replay

MAX_BENCH_SECONDS = 600.0
"""The longest `bench --seconds` accepted."""
MAX_CLASS_STUDENTS = 100
"""The most student processes `bench class` starts."""
MAX_CLASS_BROWSERS = 8
"""The most browser pages `bench class --browsers` opens."""
BENCH_MODULES = tuple(f"{__package__}.{name}" for name in ("bench", "classbench", "matchbench", "recordbench",
                                                          "classbrowsers"))
"""The benchmarks' modules: the wheel leaves them out (pyproject.toml), so `needle-widget bench` runs from a clone."""
MAX_REPLAY_BYTES = MAX_FILE_BYTES
"""The largest replay file `show` reads (32 MB)."""
MAX_EXPORT_WAIT = 600
"""The longest `class-export --wait` (seconds)."""


def _unrecognized(extras: Sequence[str]) -> str:
    options = [a for a in extras if a.startswith("-") and a != "-"]
    named = options or list(extras)
    kind = "option" if options else "argument"
    return f"unrecognized {kind}{'s' if len(named) > 1 else ''} {', '.join(map(repr, named))}"


class _Parser(argparse.ArgumentParser):
    """argparse with one-line errors that put an unknown option before a missing argument."""

    _raw: list[str] = []

    def parse_known_args(self, args=None, namespace=None):
        self._raw = list(sys.argv[1:] if args is None else args)
        return super().parse_known_args(args, namespace)

    def parse_args(self, args=None, namespace=None):
        namespace, extras = self.parse_known_args(args, namespace)
        if extras:  # unknown options of a subcommand arrive here too
            self.error(_unrecognized(extras))
        return namespace

    def error(self, message: str) -> None:  # type: ignore[override]
        if message.startswith("the following arguments are required"):
            unknown = self._unknown_options()
            if unknown:  # `needle-widget --bogus` is about --bogus, not the missing COMMAND
                message = _unrecognized(unknown)
        self.exit(2, f"needle-widget: error: {message}\n")

    def _unknown_options(self) -> list[str]:
        unknown = []
        for arg in self._raw:
            if arg == "--":
                break
            name = arg.split("=", 1)[0]
            if not arg.startswith("-") or arg == "-" or _is_number(arg) or name in self._option_string_actions:
                continue
            if not (arg.startswith("--") and any(o.startswith(name) for o in self._option_string_actions)):
                unknown.append(arg)
        return unknown


def _is_number(text: str) -> bool:
    try:
        float(text)
    except ValueError:
        return False
    return True


def _seconds(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a number: {text!r}") from None
    if not 0 < value <= MAX_BENCH_SECONDS:  # also refuses nan and inf
        raise argparse.ArgumentTypeError(f"must be > 0 and at most {MAX_BENCH_SECONDS:g}, got {text!r}")
    return value


def _count(low: int, high: int | None = None, why: str = "") -> Callable[[str], int]:
    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"not an integer: {text!r}") from None
        if value < low:
            raise argparse.ArgumentTypeError(f"must be >= {low}, got {text!r}")
        if high is not None and value > high:
            raise argparse.ArgumentTypeError(f"must be at most {high:,}{why}, got {text!r}")
        return value

    return parse


def _jobs(text: str) -> int:
    cpus = os.cpu_count() or 1
    return _count(1, cpus, " (the number of CPUs)")(text)


def _perspective(text: str):
    from ..engine.seats import perspective_named

    value = {"1": 0, "2": 1}.get(text.strip(), perspective_named(text))
    if value is None:
        raise argparse.ArgumentTypeError(f"{text!r} is not 1, 2, spectator or teacher (or p1, p2)")
    return value


def _seat(text: str) -> int:
    """A seat as a person types it on the command line: 1 or 2 (the seat's number), p1, p2, "Player 1"."""
    from ..engine.seats import seat_named

    seat = {"1": 0, "2": 1}.get(text.strip(), seat_named(text))
    if seat is None:
        raise argparse.ArgumentTypeError(f"{text!r} is not p1 or p2 (or 1, 2)")
    return seat


def _seats(text: str) -> tuple[int, ...]:
    if text.strip().lower() == "both":
        return (0, 1)
    try:
        return (_seat(text),)
    except argparse.ArgumentTypeError:
        raise argparse.ArgumentTypeError(f"{text!r} is not p1, p2 or both (or 1, 2)") from None


def build_parser() -> argparse.ArgumentParser:
    """The argument parser of `needle-widget` and its nine commands."""
    from ..inference.worlds import MAX_WORLDS
    from ..players.bots import BOTS
    from ..players.sim import MAX_GAMES
    from ..review.review import DEFAULT_WORLDS

    parser = _Parser(prog="needle-widget", description="Needle in a Card Stack from the command line.")
    parser.add_argument("--version", action="version", version=f"%(prog)s {__version__}")
    commands = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)
    commands.required = True

    sim = commands.add_parser("simulate", help="play bots against each other and summarise")
    sim.add_argument("--bots", nargs="+", default=["greedy", "random"], choices=sorted(BOTS), metavar="BOT",
                     help=f"two or more of: {', '.join(sorted(BOTS))} (default: greedy random)")
    sim.add_argument("--games", type=_count(1, MAX_GAMES, " games per pair of bots"),
                     default=1000, help=f"games per pair of bots (default 1000, at most {MAX_GAMES:,})")
    sim.add_argument("--seed", type=_count(0), default=0, help="seed of the first game (default 0)")
    sim.add_argument("--jobs", type=_jobs, default=1,
                     help="worker processes (default 1, at most the number of CPUs)")
    sim.add_argument("--out", metavar="CSV", help="write one row per game to this CSV file")
    sim.add_argument("--no-progress", action="store_true", help="no progress bar")

    show = commands.add_parser("show", help="print a replay, narrated from one perspective")
    show.add_argument("replay", metavar="REPLAY.json")
    show.add_argument("--perspective", type=_perspective, default="spectator",
                      help="p1, p2, spectator or teacher (1 and 2 work too; default spectator)")
    show.add_argument("--step", type=_count(0), default=None, help="stop after this many actions")
    show.add_argument("--variation", type=_count(1), default=None, metavar="N",
                      help="print variation N (as `show` lists them) instead of the game: only one the "
                           "perspective may open")

    export = commands.add_parser("export", help="write a replay as one HTML file, seen from one perspective")
    export.add_argument("replay", metavar="REPLAY.json")
    export.add_argument("--perspective", type=_perspective, default=0,
                        help="p1, p2, spectator or teacher (1 and 2 work too; default p1): only what it saw goes "
                             "into the file")
    export.add_argument("-o", "--out", metavar="HTML", required=True, help="the HTML file to write")
    export.add_argument("--step", type=_count(0), default=0, help="the step the page opens at (default 0)")
    export.add_argument("--no-spoilers", action="store_true",
                        help="show nothing past the step shown until the reader steps there")
    export.add_argument("--review", action="store_true",
                        help="add the review the perspective may see (a player's: its own seat's)")
    export.add_argument("--reveal-at-end", action="store_true",
                        help="with --review, a player's page also carries the opponent's review")
    export.add_argument("--review-worlds", type=_count(2, 100_000), default=None,
                        help="worlds per decision in the review (default: the review's own)")

    play = commands.add_parser("play", help="play a game against a bot in the terminal")
    play.add_argument("--opponent", default="greedy", choices=sorted(BOTS), metavar="BOT",
                      help=f"one of: {', '.join(sorted(BOTS))} (default greedy)")
    play.add_argument("--seed", type=_count(0), default=None, help="deal seed (default: a fresh one)")
    play.add_argument("--you", type=_seat, default=0, help="your seat: p1 or p2 (or 1, 2; default p1)")
    play.add_argument("--save", metavar="REPLAY.json", help="save the game's replay here at the end")

    review = commands.add_parser("review", help="review a replay: marks for each decision, a ledger of skill and luck")
    review.add_argument("replay", metavar="REPLAY.json")
    review.add_argument("--seat", type=_seats, default=(0, 1), help="p1, p2 or both (1 and 2 work too; default both)")
    review.add_argument("--json", action="store_true", help="print each seat's review as JSON (a list)")
    review.add_argument("--worlds", type=_count(2, MAX_WORLDS, " worlds"), default=None,
                        help=f"worlds sampled per decision (default {DEFAULT_WORLDS})")
    review.add_argument("--seed", type=_count(0), default=0, help="the review's seed (default 0)")

    klass = commands.add_parser("class-export", help="write a class room's results as CSV files: its games, a "
                                "gradebook for Canvas and Moodle, the answers")
    klass.add_argument("address", metavar="ADDRESS",
                       help="the room's address, as the teacher opens it (folder:PATH, redis://HOST:PORT/DB?room=NAME);"
                            " it is opened only to read: the students and the teacher's kernel see nothing of it")
    klass.add_argument("--games", metavar="CSV", help="one row a finished game of the record")
    klass.add_argument("--gradebook", metavar="CSV",
                       help="one row a student, one column an assignment (the lessons' questions, each match and "
                            "challenge, homework), as Canvas and Moodle import it")
    klass.add_argument("--answers", metavar="FILE",
                       help="every answer to the lessons' questions (.csv or .jsonl, as Room.save_answers writes)")
    klass.add_argument("--logins", metavar="CSV",
                       help="with --gradebook: each student's LMS login (username or email address) for its SIS "
                            "Login ID column, the one Moodle maps; a header row, then one row a student: name, login")
    klass.add_argument("--wait", type=_count(0, MAX_EXPORT_WAIT, " seconds"), default=60, metavar="SECONDS",
                       help="wait at most this long for the reviews of games not yet reviewed (default 60; their "
                            "figures are blank if they are not done)")

    from .lessons import add_parser as add_lessons  # `needle-widget lessons`: its own module (apps/lessons.py)

    add_lessons(commands)
    from .lite import add_parser as add_lite  # `needle-widget lite`: apps/lite.py

    add_lite(commands)

    bench = commands.add_parser("bench", help="measure the engine's speed, or a class's (bench class)")
    bench.add_argument("what", nargs="?", choices=("engine", "class", "match", "record"), default="engine",
                       help="engine (default): the engine's speed; class: from the teacher's step to each "
                            "student process's screen; match: from a student's move to the opponent's screen "
                            "(students playing each other); both on a folder and on Redis (if redis-server is "
                            "installed); record: whether the class's record orders simulated students of known "
                            "strength rightly, and the deals it needs")
    bench.add_argument("--deals", type=_count(8, 2000, " deals"), default=120,
                       help="bench record: deals each simulated student plays (default 120)")
    bench.add_argument("--seconds", type=_seconds, default=2.0,
                       help=f"time per benchmark (default 2, at most {MAX_BENCH_SECONDS:g})")
    bench.add_argument("--students", type=_count(1, MAX_CLASS_STUDENTS, " students"), default=30,
                       help="bench class and match: students in all (default 30): processes, but for --browsers "
                            "(bench match: an even number)")
    bench.add_argument("--moves", type=_count(1, 100, " moves"), default=20,
                       help="bench match: each table's first moves timed (default 20)")
    bench.add_argument("--steps", type=_count(1, 50, " steps"), default=20,
                       help="bench class: the teacher's steps timed (default 20)")
    bench.add_argument("--browsers", type=_count(0, MAX_CLASS_BROWSERS, " browsers"), default=0,
                       help="bench class: of the students, how many are headless Chromium pages on a private "
                            "JupyterLab (default 0; skipped, said in one line, without Chromium or Playwright)")
    return parser


def main(argv: Sequence[str] | None = None, stdin: TextIO | None = None, stdout: TextIO | None = None) -> int:
    """Run `needle-widget` with `argv`; return the exit code (2 for bad input, in one line)."""
    args = build_parser().parse_args(argv)
    out = stdout or sys.stdout
    try:
        if args.command == "simulate":
            return _simulate(args, out)
        if args.command == "show":
            return _show(args, out)
        if args.command == "export":
            return _export(args, out)
        if args.command == "review":
            return _review(args, out)
        if args.command == "class-export":
            return _class_export(args, out)
        if args.command == "lessons":
            from .lessons import run as run_lessons

            return run_lessons(args, out)
        if args.command == "lite":
            from .lite import run as run_lite

            return run_lite(args, out)
        if args.command == "play":
            from .terminal import play_in_terminal

            return play_in_terminal(args.opponent, args.seed, args.you, args.save, stdin or sys.stdin, out)
        if args.what == "class":
            from .classbench import class_figures

            if args.browsers > args.students:
                print(f"needle-widget: error: --browsers {args.browsers} is more than --students {args.students}",
                      file=sys.stderr)
                return 2
            who = f"{args.students - args.browsers} student processes" + (
                f" + {args.browsers} browsers" if args.browsers else "")
            print(f"needle-widget {__version__} bench class, Python {sys.version.split()[0]}, "
                  f"{who}, {os.cpu_count()} cores", file=out, flush=True)
            class_figures(args.students, args.steps, out=lambda line: print(line, file=out, flush=True),
                          browsers=args.browsers)
            return 0
        if args.what == "match":
            from .matchbench import match_figures

            if args.students % 2:
                print(f"needle-widget: error: bench match seats students two a table: --students {args.students} "
                      "is odd", file=sys.stderr)
                return 2
            print(f"needle-widget {__version__} bench match, Python {sys.version.split()[0]}, "
                  f"{args.students} student processes, {os.cpu_count()} cores", file=out, flush=True)
            match_figures(args.students, args.moves, out=lambda line: print(line, file=out, flush=True))
            return 0
        if args.what == "record":
            from concurrent.futures import ProcessPoolExecutor

            from .recordbench import record_figures

            print(f"needle-widget {__version__} bench record, Python {sys.version.split()[0]}, "
                  f"{os.cpu_count()} cores", file=out, flush=True)
            with ProcessPoolExecutor(os.cpu_count() or 1) as executor:
                record_figures(args.deals, executor=executor, out=lambda line: print(line, file=out, flush=True))
            return 0
        from .bench import run

        print(f"needle-widget {__version__} bench, Python {sys.version.split()[0]}, one process", file=out)
        run(args.seconds, out=lambda line: print(line, file=out, flush=True))
        return 0
    except BrokenPipeError:  # the reader stopped early (`| head`): not an error of ours
        sys.stderr = open(os.devnull, "w")  # Python flushes stderr at exit
        return 0
    except (NeedleError, OSError) as error:
        print(f"needle-widget: error: {error}", file=sys.stderr)
        return 2
    except ModuleNotFoundError as missing:
        if missing.name not in BENCH_MODULES:
            raise
        print("needle-widget: error: bench runs from a clone of the project (pip install -e .): the wheel holds "
              "the game, not its benchmarks", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("needle-widget: interrupted", file=sys.stderr)
        return 130


def _simulate(args: argparse.Namespace, out: TextIO) -> int:
    from concurrent.futures import ProcessPoolExecutor

    from ..players.bots import make_bot
    from ..players.sim import round_robin

    if len(args.bots) < 2:
        raise NeedleError("simulate needs at least two --bots")
    if args.out:
        _check_writable(args.out)
    entrants = [make_bot(name, seed=args.seed + i) for i, name in enumerate(args.bots)]
    progress = not args.no_progress
    if args.jobs > 1:
        with ProcessPoolExecutor(args.jobs) as pool:
            result = round_robin(entrants, args.games, args.seed, executor=pool, progress=progress)
    else:
        result = round_robin(entrants, args.games, args.seed, progress=progress)
    print(result.table(), file=out)
    reasons = ", ".join(f"{k} {v}" for k, v in result.reasons().items())
    print(f"endings: {reasons}", file=out)
    if args.out:
        result.to_csv(args.out)
        print(f"wrote {len(result.rows)} rows to {args.out}", file=out)
    return 0


def _check_writable(path: str) -> None:
    """Refuse an --out path that could not be written, before any work is done."""
    target = os.path.realpath(path)
    folder = os.path.dirname(target)
    if os.path.isdir(target):
        raise NeedleError(f"--out {path!r} is a directory")
    if not os.path.isdir(folder):
        raise NeedleError(f"--out {path!r}: there is no directory {folder!r}")
    if os.path.exists(target) and not os.access(target, os.W_OK):
        raise NeedleError(f"--out {path!r} is not writable")
    try:
        with tempfile.TemporaryFile(dir=folder):
            pass
    except OSError as error:
        raise NeedleError(f"--out {path!r}: cannot write in {folder!r} ({error.strerror or error})") from None


def _class_export(args: argparse.Namespace, out: TextIO) -> int:
    """`class-export`: the room opened read-only (`classroom.open(read_only=True)`: no post, no save, so neither
    the students nor the teacher's kernel see it), its files written (`classroom.gradebook`), the room closed.
    Every argument is checked before the room is opened.
    """
    from .. import classroom
    from ..classroom import gradebook

    given = {option: path for option, path in (("--games", args.games), ("--gradebook", args.gradebook),
                                               ("--answers", args.answers)) if path is not None}
    if not given:
        raise NeedleError("class-export writes at least one of --games, --gradebook, --answers: give one")
    if args.logins is not None and args.gradebook is None:
        raise NeedleError("--logins fills the gradebook's SIS Login ID column: give --gradebook too")
    if args.answers is not None and not args.answers.lower().endswith((".csv", ".jsonl")):
        raise NeedleError(f"--answers {args.answers!r} must end in .csv or .jsonl")
    seen: dict[str, str] = {}
    for option, path in given.items():
        _check_export(option, path)
        where = os.path.realpath(path)
        if where in seen:
            raise NeedleError(f"{seen[where]} and {option} name the same file {path!r}")
        seen[where] = option
    logins = gradebook.read_logins(args.logins) if args.logins is not None else None
    room = classroom.open(args.address, start=False, read_only=True)
    try:
        if room.record.pending() and args.wait:
            room.wait_for_reviews(args.wait)
        if args.games is not None:
            rows = gradebook.games_csv(room, args.games)
            pending = sum(e.figure is None for e in room.record.entries)
            blank = f"; {pending} not reviewed yet, their figures blank" if pending else ""
            print(f"wrote {args.games}: {rows} game{'s' * (rows != 1)}, a row each{blank}", file=out)
        if args.gradebook is not None:
            students = gradebook.gradebook_csv(room, args.gradebook, logins)
            print(f"wrote {args.gradebook}: {students} student{'s' * (students != 1)}", file=out)
        if args.answers is not None:
            answers = room.answers
            room.save_answers(args.answers)
            print(f"wrote {args.answers}: {len(answers)} answer{'s' * (len(answers) != 1)}", file=out)
    finally:
        room.close()
    return 0


def _check_export(option: str, path: str) -> None:
    """Refuse a class-export file that could not be written (a folder, in no folder), before the room is opened."""
    target = os.path.realpath(path)
    if os.path.isdir(target):
        raise NeedleError(f"{option} {path!r} is a folder: give a file name")
    if not os.path.isdir(os.path.dirname(target)):
        raise NeedleError(f"{option} {path!r}: there is no folder {os.path.dirname(target)!r}")


def _load_replay(path: str) -> Replay:
    """`Replay.load`: it refuses what is not a regular file, or is over MAX_FILE_BYTES, before reading."""
    return Replay.load(path)


def _export(args: argparse.Namespace, out: TextIO) -> int:
    from .export import GuessableSeedWarning, to_html

    replay = _load_replay(args.replay)
    if args.step > len(replay):
        raise NeedleError(f"--step {args.step} is past the end of this replay ({len(replay)} actions)")
    _check_writable(args.out)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always", GuessableSeedWarning)
        page = to_html(replay, args.out, perspective=args.perspective, step=args.step, spoilers=not args.no_spoilers,
                       review=args.review, reveal_at_end=args.reveal_at_end, review_worlds=args.review_worlds)
    for warning in caught:
        print(f"needle-widget: warning: {warning.message}", file=sys.stderr)
    size = len(page.encode("utf-8"))
    print(f"wrote {args.out}: {len(replay)} actions seen by {_who(args.perspective)}, {size / 1024:.0f} KB", file=out)
    return 0


def _who(perspective: object) -> str:
    """"Player 1", "Player 2", or the perspective's name as given ("spectator", "teacher")."""
    return player_name(perspective) if perspective in (0, 1) else str(perspective)


def _show(args: argparse.Namespace, out: TextIO) -> int:
    from ..engine.narration import narrate
    from .terminal import describe_table, printable

    replay = _load_replay(args.replay)
    who = _who(args.perspective)
    open_ = [(k, v) for k, v in enumerate(replay.variations) if v.open_to(args.perspective)]
    record, first, title = replay, 0, ""
    if args.variation is not None:
        chosen = dict(open_).get(args.variation - 1)
        if chosen is None:
            numbers = ", ".join(str(k + 1) for k, _ in open_) or "none"
            raise NeedleError(f"--variation {args.variation}: no such variation open to {who} "
                              f"(those open to {who}: {numbers})")
        record, first = replay.line(chosen), chosen.step
        title = f"{printable(chosen.label(args.variation - 1))}, from step {chosen.step}: {chosen.source()}; "
    step = len(record) if args.step is None else args.step
    if step > len(record):
        what = "variation" if args.variation is not None else "replay"
        raise NeedleError(f"--step {step} is past the end of this {what} ({len(record)} actions)")
    if step < first:
        raise NeedleError(f"--step {step} is before this variation starts (step {first})")
    game = record.game_at(step)
    one, two = (printable(name) for name in replay.players)  # names come from the file: no escape codes
    seed = f"seed {replay.seed}, " if args.perspective == "teacher" else ""  # the seed deals every hand
    print(f"{one} (Player 1) vs {two} (Player 2), {seed}{title}seen by {who}, {step} of {len(record)} actions",
          file=out)
    turn = None
    for k, (event, line) in enumerate(zip(game.history, narrate(game, args.perspective), strict=False)):
        if k < first:
            continue
        if event.turn != turn:
            turn = event.turn
            print("Needles" if turn == 0 else f"Turn {turn}", file=out)
        print(f"  {line}", file=out)
    print(describe_table(game.view(args.perspective)), file=out)
    if args.variation is None and open_:
        print("Variations (show one with --variation N):", file=out)
        for k, v in open_:
            moves = f"{len(v)} move{'s' * (len(v) != 1)}"
            print(f"  {k + 1}. {printable(v.label(k))}, from step {v.step}: {v.source()}, {moves}", file=out)
    return 0


def _review(args: argparse.Namespace, out: TextIO) -> int:
    import json

    from ..review import review
    from .terminal import printable

    replay = _load_replay(args.replay)
    reviews = [review(replay, seat, worlds=args.worlds, seed=args.seed) for seat in args.seat]
    if args.json:
        print(json.dumps([r.to_dict() for r in reviews], ensure_ascii=False, indent=1), file=out)
        return 0
    state = "finished" if replay.result is not None else "unfinished"
    print(f"{printable(replay.players[0])} (Player 1) vs {printable(replay.players[1])} (Player 2), "
          f"{len(replay)} actions, {state}; {reviews[0].worlds} worlds a decision, seed {args.seed}", file=out)
    for r in reviews:
        print("", file=out)
        for line in review_lines(r, printable(replay.players[r.seat])):
            print(printable(line), file=out)
    return 0


def review_lines(r, name: str) -> list[str]:
    """A seat's review as text: the summary line, the verdict in words, the marks (each decision: step, action,
    label, loss ± its standard error, and the sentence for an inaccuracy or worse), and the ledger (the start value,
    each luck term's sentence, the skill and luck totals, the result and the luck-adjusted result).
    """
    lines = [f"{r.summary()}  [{name}]", f"  {r.verdict()}", "Marks:"]
    if not r.entries:
        lines.append("  (no decision with a choice)")
    for e in r.entries:
        lines.append(f"  step {e.step + 1:>3}  {str(e.action):<24} {e.label:<10} loss {100 * e.loss:4.1f} "
                     f"±{100 * e.se:.1f} points")
        if e.label not in ("best", "good"):
            lines.append(f"             {e.explain()}")
    lines.append("Ledger:")
    lines.append(f"  start value          {r.start_value:.2f}")
    lines += [f"  {t.sentence()}" for t in r.luck]
    lines.append(f"  skill total          {r.skill_total:+.2f}")
    lines.append(f"  luck total           {r.luck_total:+.2f}")
    lines.append(f"  {'result' if r.finished else 'value at the end':<20} {r.end_value:.2f}"
                 + (f"  ({r.result})" if r.result else "  (the game is unfinished)"))
    lines.append(f"  luck-adjusted        {r.luck_adjusted:.2f}")
    return lines


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
