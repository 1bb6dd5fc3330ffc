"""A class's results in the teacher's files: the record as one row a game, a gradebook of one row a student that
Canvas and Moodle import, the record and the answers lesson by lesson, and each student's history.

Every function reads a room (`classroom.open`; one opened with `read_only=True` changes nothing) and writes nothing
into it. The files are the teacher's: they name the students, and never hold a deal's seed or the room's secret.

Every figure is in whole points (`review.verdict.in_points`): luck-adjusted figures, luck and skill in points of
win chance, as the board and the Review panel show them (`review.verdict.UNIT`: a win is 100, a draw 50, a loss
0); an answer's score in points out of 100 (`answer_score` times 100). A point is as fine as a class's figures
go (a figure from a review on a few hundred worlds is good to a point or two), and a grade out of 100 is what an
LMS's new grade item expects.

**The games file** (`games_csv`, `game_table`): one row a finished game of the record (`Room.record_replay(game)`
replays it), columns `GAME_FILE_HEADERS`: the game, its activity, lesson and deal, the margin (Player 1's points
minus Player 2's), then each seat's part: who held it (a student, or the bot), their result as the record counts
it (won, drew, lost), whether a bot stood in for them, and their figures. "luck-adjusted" is the record's figure of
the seat (the result with the luck of the cards taken out, `RecordEntry.figure`), "luck" and "skill" the seat's
ledger, so a seat that played to the end has 100 × score = luck-adjusted + luck (to a point). A game a bot finished
for the student, who had left it, counts as lost: its result is "lost", its luck-adjusted figure at most 0
(`record.left_figure`), while its luck and skill are those of the game as the bot finished it. A seat the bot held,
or a game not yet reviewed, has blank figures. Removed students' games stay: the record is the record.
`game_rows` gives the same figures one dict a student's seat (`GAME_COLUMNS`), as a student's history shows them.

**The gradebook** (`gradebook_csv`, `gradebook_rows`): one row a student on the roster (a removed student is left
out), in the form Canvas's gradebook import reads: the columns Student, ID, SIS User ID, SIS Login ID and Section
(Canvas takes the columns after Section for assignments, a new column making a new assignment), then one column an
assignment, its cells numbers (blank: no grade). Canvas finds each row's student by ID, SIS User ID, SIS Login
ID, then by name as Canvas spells it. Moodle's CSV grade import maps a column of the file to a user's username,
email address or ID number (not to a full name), and each other column to a grade item (or a new one): give
each student's LMS login (`logins`: name -> username or email address) and it goes in "SIS Login ID", the column to
map in Moodle. ID and SIS User ID stay blank (Canvas's own numbers, which the room does not know); so does
Section. The assignments, each a column:

- "Lesson N: TITLE · questions" (a lesson's revealed questions): the student's mean answer score;
- "Match N · games" and "Challenge N · games": the games the student played in it (a count);
- "Match N · luck-adjusted" and "Challenge N · luck-adjusted": the mean of the luck-adjusted figures of those games;
- "Homework N: TITLE · % done": the exercises of that homework the student has done, of those they were given
  (blank: given none).

A luck-adjusted mean can fall below 0 (games left count as lost) or pass 100 (one game's review is noisy): Canvas
keeps such a number, Moodle bounds a grade to its item's range unless the site allows more (its "unlimitedgrades"
setting). No "Points Possible" row: Canvas would read one, but Moodle would take it for a student it cannot find.
No column name ends in a number in parentheses, which Canvas would read as an assignment's id.

Every file is CSV (RFC 4180, comma-separated), UTF-8 with a byte-order mark: Excel opens a UTF-8 file without one
in the computer's legacy code page, garbling "Zoë" and every non-Latin name, while Moodle's import drops the mark
and Canvas's finds its "Student" column with it. Text a spreadsheet would take for a formula (a cell beginning
with =, +, -, @, a tab or a carriage return, e.g. a student named "=SUM(A1)") is written with a ' before it. Each
file is written whole beside its target and moved into place, readable by its owner only (as the students'
notebooks are: grades are personal data).

**Lessons** (`lessons_view`) and **a student's history** (`history`) give the same figures as Python data.

>>> answer_score(Answer("ann", "lesson", 3, "winner", 0, 0.7, truth=1, brier=0.09))
0.91
"""

from __future__ import annotations

import csv
import io
import os
import pathlib
import stat
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any

from ..engine.errors import quote
from ..engine.paths import check_path, write_text
from ..engine.seats import player_name
from ..review.verdict import in_points
from ..screen.notepad import KIND_LABELS
from ..teaching.answers import Answer, rounded_dict
from .errors import ClassError
from .record import RecordEntry

__all__ = ["GAME_COLUMNS", "GAME_HEADERS", "GAME_FILE_HEADERS", "game_table", "STUDENT_HEADERS", "MAX_LOGINS_BYTES",
           "answer_score", "game_rows", "games_csv", "gradebook_rows", "gradebook_csv", "lessons_view", "history",
           "read_logins"]

GAME_COLUMNS = ("game", "activity", "lesson", "deal", "student", "seat", "opponent", "result", "score", "margin",
                "stood_in", "luck_adjusted", "luck", "skill")
"""The keys of a seat's row of a game (`game_rows`)."""
GAME_HEADERS = ("game", "activity", "lesson", "deal", "student", "seat", "opponent", "result", "score", "margin",
                "bot stood in", "luck-adjusted", "luck", "skill")
"""The header of a seat's row (a column a key of GAME_COLUMNS), as a table of `game_rows` reads: the record's game
number; the activity's name of the game ("match 1/table 2/deal 1"); the lesson that was the room's latest when it
was played (blank: none, or not known); the deal ("match 1 · deal 1": students who held its same seat held the same
cards); the student; their seat ("Player 1"); the opponent (a student's name, or "greedy (bot)"); won, drew or
lost and its score 1, 0.5 or 0 (as the record counts it); the margin (the student's points minus the opponent's);
"yes" if a bot finished the game for the student; the luck-adjusted figure, the luck and the skill (whole points of
win chance)."""
SEAT_PART = ("", "result", "bot stood in", "luck-adjusted", "luck", "skill")
GAME_FILE_HEADERS = ("game", "activity", "lesson", "deal", "margin",
                     *(f"Player {n}{' ' + part if part else ''}" for n in (1, 2) for part in SEAT_PART))
"""The games file's header (one row a game): the record's game number, the activity's name of it ("match 1/table
2/deal 1"), the lesson that was the room's latest when it was played (blank: none, or not known), the deal ("match
1 · deal 1": students who held one seat of it held the same cards), Player 1's points minus Player 2's; then for each
seat, who held it ("Ann", "greedy (bot)"), the result as the record counts it, "yes" if a bot finished the game for
the student, and the seat's luck-adjusted figure, luck and skill (whole points of win chance)."""
STUDENT_HEADERS = ("Student", "ID", "SIS User ID", "SIS Login ID", "Section")
"""The gradebook's first columns, as Canvas's gradebook import reads them (the assignments follow)."""
MAX_LOGINS_BYTES = 2**20
"""The largest file of students' logins `read_logins` reads."""
FORMULA = ("=", "+", "-", "@", "\t", "\r")
"""What a spreadsheet takes for the start of a formula in a text cell (written with a ' before it)."""
RESULTS = {1.0: "won", 0.5: "drew", 0.0: "lost"}
DEFAULT_TITLE = "lesson"
"""A lesson's title when the teacher gives none (`Lesson`): its column is "Lesson N" alone."""


# ---- the figures --------------------------------------------------------------------------------------


def answer_score(answer: Answer) -> float | None:
    """An answer's score from 0 (the worst) to 1 (the best), one scale for every kind of question: a forecast
    (next draw, who wins) 1 minus its Brier score; a needle named, the share of the odds the cards named held
    (`coverage`: the chance of a hit, the luck of the real needle taken out); a draw (pile or steal) and a move
    (your move), 1 minus the win share given up against the best (`vs_best`). None if the answer has no score
    (a forecast whose outcome was held back).

    >>> answer_score(Answer("ann", "lesson", 3, "pile_or_steal", 0, "pile", truth="steal", vs_best=-0.25))
    0.75
    """
    if answer.kind in ("next_draw", "winner"):
        return None if answer.brier is None else 1.0 - answer.brier
    if answer.kind == "needle":
        return answer.coverage
    return None if answer.vs_best is None else 1.0 + answer.vs_best


def _points(value: float | None) -> int | None:
    """A share as whole points (`in_points`: 0.724 is 72), or None."""
    return None if value is None else in_points(value)


def _mean(values: Sequence[float]) -> float | None:
    return sum(values) / len(values) if values else None


# ---- reading the room -----------------------------------------------------------------------------------


def _names(room: Any) -> dict[int, str]:
    """Every student's name by number, removed students too (their games stay in the record)."""
    try:
        members = room.members(removed=True)
    except TypeError:  # a room that lists its roster only
        members = room.members()
    return {m.index: m.name for m in members}


def _lesson_of(room: Any) -> Callable[[str], int | None]:
    """The number of the lesson that was the room's latest when a game's activity was shown (`Room.lesson_of`),
    or None: no lesson before it (`lesson_of` says 0), or the room cannot say.
    """
    find = getattr(room, "lesson_of", None)
    return (lambda source: find(source) or None) if callable(find) else (lambda source: None)


def _homeworks(room: Any) -> list[tuple[str, dict[str, tuple[int, int]]]] | None:
    """Each homework the room gave ("Homework 1: TITLE"), with each student given it as (done, assigned)
    (`Room.homework_progress`), in order; None for a room that gives no homework.
    """
    progress = getattr(room, "homework_progress", None)
    if not callable(progress):
        return None
    homeworks = list(getattr(room, "homeworks", None) or ())
    if not homeworks:  # a room that tells of its latest homework only
        latest = dict(progress())
        return [("Homework", latest)] if latest else []
    return [(f"Homework {h.id}" + (f": {h.title}" if getattr(h, "title", None) else ""), dict(progress(h)))
            for h in homeworks]


def _activity(entry: RecordEntry) -> str:
    """The activity of a game: "match 1", "challenge 2" (its source up to the first /)."""
    return entry.source.split("/", 1)[0]


def _row(entry: RecordEntry, names: Mapping[int, str], lesson: int | None) -> dict[str, Any]:
    opponent = (names.get(entry.opponent, "?") if entry.opponent is not None
                else f"{entry.bot or 'a'} (bot)")
    return {"game": entry.game, "activity": entry.source, "lesson": lesson, "deal": entry.deal,
            "student": names.get(entry.student, "?"), "seat": player_name(entry.seat), "opponent": opponent,
            "result": RESULTS.get(entry.scored, str(entry.scored)), "score": entry.scored, "margin": entry.margin,
            "stood_in": entry.stood_in, "luck_adjusted": _points(entry.figure),
            "luck": _points(entry.luck) if entry.counted else None,
            "skill": _points(entry.skill) if entry.counted else None}


def _entries(room: Any) -> list[RecordEntry]:
    """A copy of the record's entries (the reviews fill in their figures from another thread)."""
    return [RecordEntry(**vars(e)) for e in list(room.record.entries)]


def game_table(room: Any) -> list[list[Any]]:
    """Every finished game of the room's record, one row a game in the games file's columns (GAME_FILE_HEADERS; None
    where the file has a blank), in the record's order.
    """
    games: dict[int, dict[int, dict[str, Any]]] = {}
    for row in game_rows(room):
        games.setdefault(row["game"], {})[0 if row["seat"] == player_name(0) else 1] = row
    table = []
    for number, seats in games.items():
        first = next(iter(seats.values()))
        seat = 0 if first["seat"] == player_name(0) else 1
        margin = first["margin"] if seat == 0 else -first["margin"]
        line: list[Any] = [number, first["activity"], first["lesson"], first["deal"], margin]
        for n in (0, 1):
            mine = seats.get(n)
            if mine is None:  # the bot's seat: named as its opponent names it
                line += [first["opponent"], None, None, None, None, None]
            else:
                line += [mine["student"], mine["result"], mine["stood_in"], mine["luck_adjusted"], mine["luck"],
                         mine["skill"]]
        table.append(line)
    return table


def game_rows(room: Any) -> list[dict[str, Any]]:
    """Every finished game of the room's record, one dict a student's seat (keys GAME_COLUMNS, the games file's
    rows as Python values: figures in whole points, None where the file has a blank; "stood_in" a bool),
    in the record's order. `pandas.DataFrame(game_rows(room))` is the table.
    """
    names, lesson_of = _names(room), _lesson_of(room)
    return [_row(e, names, lesson_of(e.source)) for e in _entries(room)]


# ---- lessons --------------------------------------------------------------------------------------------


def _lesson_groups(room: Any) -> list[dict[str, Any]]:
    """The lessons whose answers the room keeps, in order: {"lesson": number or None, "title", "answers"}.

    The current lesson (`Room.lesson`) has its number. An earlier lesson's answers carry its title only (the
    `replay` of each `Answer`): the answers are split where the title changes, and numbered 1, 2, ... only when
    that gives one group a lesson before the current one (each earlier lesson left answers, no two in a row
    with one title); otherwise their numbers are not known (None).
    """
    everything, lesson = list(room.answers), room.lesson
    current = lesson.records() if lesson is not None else []
    earlier = everything[:len(everything) - len(current)]
    groups: list[dict[str, Any]] = []
    for a in earlier:
        if not groups or groups[-1]["title"] != a.replay:
            groups.append({"lesson": None, "title": a.replay, "answers": []})
        groups[-1]["answers"].append(a)
    if lesson is not None and len(groups) == lesson.id - 1:
        for number, group in enumerate(groups, 1):
            group["lesson"] = number
    if lesson is not None:
        groups.append({"lesson": lesson.id, "title": lesson.title, "answers": current})
    return groups


def _lesson_name(number: int | None, title: str | None, earlier: int) -> str:
    """"Lesson 2: detective", "Lesson 2" (no title given), or "Earlier lesson 1: detective" (its number not known:
    the first such group, and so on).
    """
    head = f"Lesson {number}" if number is not None else f"Earlier lesson {earlier}"
    return head if title in (None, DEFAULT_TITLE) else f"{head}: {title}"


def _named_lessons(room: Any) -> list[tuple[dict[str, Any], str]]:
    """`_lesson_groups`, each with its name (`_lesson_name`)."""
    out, earlier = [], 0
    for group in _lesson_groups(room):
        earlier += group["lesson"] is None
        out.append((group, _lesson_name(group["lesson"], group["title"], earlier)))
    return out


def _questions(answers: Sequence[Answer]) -> list[dict[str, Any]]:
    """The questions answered, in the order asked (a question: its step and kind), with each one's count and mean
    score (`answer_score`, in points out of 100).
    """
    by: dict[tuple[int, str], list[Answer]] = {}
    for a in answers:
        by.setdefault((a.step, a.kind), []).append(a)
    out = []
    for k, ((step, kind), mine) in enumerate(by.items(), 1):
        out.append({"question": k, "step": step, "kind": kind, "label": KIND_LABELS.get(kind, kind),
                    "answers": len(mine), "mean_score": _points(_mean_score(mine))})
    return out


def _mean_score(answers: Iterable[Answer]) -> float | None:
    """The mean `answer_score` of the answers that have one (None: none has)."""
    return _mean([s for s in map(answer_score, answers) if s is not None])


NO_LESSON = "No lesson"


def lessons_view(room: Any) -> list[dict[str, Any]]:
    """The record and the answers lesson by lesson: one dict a lesson the room led, in order, then "No lesson"
    for the games played before any lesson (or where the room cannot say which lesson was the latest).

    Each: "lesson" (its number; None: not known, or "No lesson"), "name" ("Lesson 2: detective"), "title" (None
    where not known), "questions" (each revealed question answered: its number in the lesson, "step", "kind",
    "label", "answers" and "mean_score", the mean `answer_score` in points out of 100), "answers" (how many in
    all) and "mean_score",
    "games" (the rows of `game_rows` played while it was the room's latest lesson, `Room.lesson_of`) and
    "games_played" (a game of two students is one). An earlier lesson the answers do not number (`_lesson_groups`)
    is "Earlier lesson K": it comes first and holds no games.
    """
    items: list[dict[str, Any]] = []
    for group, name in _named_lessons(room):
        answers = group["answers"]
        items.append({"lesson": group["lesson"], "name": name, "title": group["title"],
                      "questions": _questions(answers), "answers": len(answers),
                      "mean_score": _points(_mean_score(answers)), "games": []})
    numbered = {item["lesson"]: item for item in items if item["lesson"] is not None}
    loose: dict[str, Any] = {"lesson": None, "name": NO_LESSON, "title": None, "questions": [], "answers": 0,
                             "mean_score": None, "games": []}
    for row in game_rows(room):
        number = row["lesson"]
        if number is not None and number not in numbered:  # a lesson that left no answers
            numbered[number] = {**loose, "lesson": number, "name": _lesson_name(number, None, 0), "games": []}
            items.append(numbered[number])
        (loose if number is None else numbered[number])["games"].append(row)
    unknown = [item for item in items if item["lesson"] is None]
    out = unknown + sorted(numbered.values(), key=lambda item: item["lesson"]) + ([loose] if loose["games"] else [])
    for item in out:
        item["games_played"] = len({row["game"] for row in item["games"]})
    return out


# ---- a student's history ------------------------------------------------------------------------------------


def _member(room: Any, name: str) -> Any:
    """The student called `name` (one on the roster before one removed); ClassError quoting it if none is."""
    members = room.members()
    found = [m for m in members if m.name == name]
    if not found:
        known = ", ".join(repr(m.name) for m in members) or "none"
        raise ClassError(f"No student named {quote(name)} in this room (its students: {known})")
    return next((m for m in found if not getattr(m, "removed", False)), found[-1])


def history(room: Any, name: str) -> dict[str, Any]:
    """Student `name`'s history, for the teacher: "student", "removed" (taken off the roster), "games" (their rows
    of `game_rows`: `Room.record_replay(row["game"])` replays one), "answers" (each answer's record as its answer
    file holds it, `rounded_dict`, with the "lesson" it was given in, named as `lessons_view` names it, and its
    "score", `answer_score` in points out of 100), and "homework" (each homework they were given, {"homework": its
    name, "done", "assigned"}; None for a room that gives no homework). A name not on the roster raises ClassError
    quoting it.
    """
    member = _member(room, name)
    games = [row for row in game_rows(room) if row["student"] == name]
    answers = [{**rounded_dict(a), "lesson": lesson, "score": _points(answer_score(a))}
               for group, lesson in _named_lessons(room) for a in group["answers"] if a.student == name]
    homeworks = _homeworks(room)
    homework = None if homeworks is None else [{"homework": title, "done": progress[name][0],
                                                 "assigned": progress[name][1]}
                                                for title, progress in homeworks if name in progress]
    return {"student": name, "removed": bool(getattr(member, "removed", False)), "games": games,
            "answers": answers, "homework": homework}


# ---- the gradebook ---------------------------------------------------------------------------------------------


def gradebook_rows(room: Any, logins: Mapping[str, str] | None = None) -> list[dict[str, Any]]:
    """The gradebook (see the module docstring): one dict a student on the roster (a removed student is left out),
    in the order invited, its keys the file's columns in order (STUDENT_HEADERS, then one an assignment), its
    grades whole points or counts (None: no grade). `logins` (a student's name -> their LMS login, e.g.
    their email address) fills "SIS Login ID"; a name in it that is no student's raises ClassError quoting it.
    """
    members = [m for m in room.members() if not getattr(m, "removed", False)]
    given: dict[Any, object] = dict(logins or {})  # checked: a caller may pass anything
    bad = [(name, login) for name, login in given.items() if not isinstance(name, str) or not isinstance(login, str)]
    if bad:
        raise ClassError(f"A student's login is text for a name, not {quote(bad[0][1])} for {quote(bad[0][0])}")
    strays = sorted(set(given) - {m.name for m in room.members()})
    if strays:
        raise ClassError(f"The logins name {', '.join(map(quote, strays))}: no student of this room")
    lessons = [(group, name) for group, name in _named_lessons(room) if group["answers"]]
    entries = _entries(room)
    activities: dict[str, list[RecordEntry]] = {}
    for e in entries:
        activities.setdefault(_activity(e), []).append(e)
    homeworks = [(title, progress) for title, progress in _homeworks(room) or () if progress]
    rows = []
    for m in members:
        row: dict[str, Any] = dict.fromkeys(STUDENT_HEADERS, "")
        row["Student"], row["SIS Login ID"] = m.name, given.get(m.name, "")
        for group, lesson in lessons:
            row[f"{lesson} · questions"] = _points(_mean_score(a for a in group["answers"] if a.student == m.name))
        for activity, played in activities.items():
            mine = [e for e in played if e.student == m.index]
            figures = [e.figure for e in mine if e.figure is not None]
            head = activity[:1].upper() + activity[1:]
            row[f"{head} · games"] = len(mine)
            row[f"{head} · luck-adjusted"] = _points(_mean(figures))
        for title, progress in homeworks:
            done, assigned = progress.get(m.name, (0, 0))
            row[f"{title} · % done"] = _points(done / assigned) if assigned else None
        rows.append(row)
    return rows


# ---- the files ---------------------------------------------------------------------------------------------------


def _text(value: Any) -> str:
    """A cell: blank for None, "yes"/"no" for a bool, a number as Python writes it (1, 0.5, -13), and text a
    spreadsheet would run as a formula with a ' before it.
    """
    if value is None:
        return ""
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, float):
        return str(int(value)) if value.is_integer() else repr(value)
    if isinstance(value, int):
        return str(value)
    text = str(value)
    return "'" + text if text.startswith(FORMULA) else text


def _csv(header: Sequence[str], rows: Iterable[Sequence[Any]]) -> str:
    out = io.StringIO()
    writer = csv.writer(out)  # RFC 4180: CRLF line ends, quoted where needed
    writer.writerow([_text(h) for h in header])
    for row in rows:
        writer.writerow([_text(v) for v in row])
    return "\ufeff" + out.getvalue()


def _write(path: Any, text: str, what: str) -> pathlib.Path:
    """Write `text` to `path` whole (`engine.paths.write_text`), a new file readable by its owner only: grades are
    personal data. ClassError quoting the path if it cannot be.
    """
    return write_text(path, text, what, ClassError, mode=0o600)


def games_csv(room: Any, path: str | os.PathLike[str]) -> int:
    """Write the games file (one row a finished game, `game_table`; header GAME_FILE_HEADERS) to `path`; the number
    of games.
    """
    rows = game_table(room)
    _write(path, _csv(GAME_FILE_HEADERS, rows), "the games file")
    return len(rows)


def gradebook_csv(room: Any, path: str | os.PathLike[str], logins: Mapping[str, str] | None = None) -> int:
    """Write the gradebook (one row a student, `gradebook_rows`, for Canvas and Moodle: see the module docstring)
    to `path`; the number of students. `logins`: each student's LMS login, for "SIS Login ID" (`read_logins` reads
    them from a file).
    """
    rows = gradebook_rows(room, logins)
    header = list(rows[0]) if rows else list(STUDENT_HEADERS)
    _write(path, _csv(header, ([row[k] for k in header] for row in rows)), "the gradebook")
    return len(rows)


def read_logins(path: str | os.PathLike[str]) -> dict[str, str]:
    """The students' LMS logins from a CSV file (UTF-8, a byte-order mark allowed): a header row, then one row a
    student, their name as the room knows it and their login (username or email address), e.g. exported from the
    LMS's roster. ClassError quoting the file and the row if it is not so.
    """
    name = str(check_path(path, "the logins file", ClassError))
    try:
        info = os.stat(path)
        if not stat.S_ISREG(info.st_mode) or info.st_size > MAX_LOGINS_BYTES:
            raise ClassError(f"The logins file {quote(name)} is not a file of at most {MAX_LOGINS_BYTES:,} bytes")
        with open(path, encoding="utf-8-sig", newline="") as f:
            rows = list(csv.reader(f))
    except (OSError, UnicodeDecodeError, csv.Error) as error:
        raise ClassError(f"Cannot read the logins file {quote(name)}: {error}") from None
    found: dict[str, str] = {}
    for k, row in enumerate(rows[1:], 2):
        if not any(cell.strip() for cell in row):
            continue
        if len(row) != 2 or not row[0].strip() or not row[1].strip():
            raise ClassError(f"The logins file {quote(name)}, row {k}: {quote(row)} is not a name and a login")
        if row[0].strip() in found:
            raise ClassError(f"The logins file {quote(name)}, row {k}: {quote(row[0].strip())} comes twice")
        found[row[0].strip()] = row[1].strip()
    return found
