"""A class's results in the teacher's files (issue 45, item 6 and "Deliver 4"): the record as one row a student's
seat in a game, a gradebook of one row a student in the form Canvas and Moodle import, the record and the answers
lesson by lesson, each student's history, and `needle-widget class-export`, which reads a room without touching it.

One small room serves the module: three students, a lesson with one revealed question, a match of one deal (Ann
and Bob at one table, "=Cy" and the bot at the other), a second lesson, and "@Dee", invited after the match.
"""

from __future__ import annotations

import csv
import io
import os
import random
import re
import stat
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from types import SimpleNamespace

import pytest
from conftest import settle as pump
from test_class_match import play_round

from needle_widget import Game, classroom, examples
from needle_widget.apps import cli
from needle_widget.classroom import gradebook as gb
from needle_widget.classroom.errors import ClassError
from needle_widget.classroom.record import Record
from needle_widget.review.verdict import in_points
from needle_widget.teaching.answers import Answer, load_answers

SECRET = bytes(range(32))
BOM = "\ufeff"
POINTS = re.compile(r"-?\d{1,3}")
"""A figure in the files: whole points, no float noise."""


@pytest.fixture(scope="module")
def klass(tmp_path_factory):
    """The module's room, reviewed, with its students (closed after): (room, students, match, folder)."""
    folder = tmp_path_factory.mktemp("class")
    pool = ThreadPoolExecutor(1)
    room = classroom.open(f"folder:{folder}/monday", start=False, secret=SECRET, worlds=8, reviews=pool)
    students = [classroom.join(room.url, room.invite(name).code, start=False) for name in ("Ann", "Bob", "=Cy")]
    pump(room, *students)
    try:
        lesson = room.lead(examples.load("detective"), perspective="assigned", title="detective")
        lesson.go(12)
        lesson.ask("winner")
        pump(room, *students)
        students[0].answer(0.7)
        students[1].answer(0.2)
        pump(room, *students)
        lesson.reveal()
        pump(room, *students)
        match = room.match(deals=1, seed=4)
        pump(room, *students)
        play_round(room, students, random.Random(3))
        room.lead(Game(seed=1))  # lesson 2: lesson 1's answers become earlier ones
        room.invite("@Dee")  # after the match: no game
        pump(room, *students)
        assert room.wait_for_reviews(60) and len(room.record) == 2
        yield room, students, match, folder
    finally:
        for s in students:
            s.close()
        room.close()
        pool.shutdown()


def read_csv(path: Path) -> list[list[str]]:
    text = path.read_text(encoding="utf-8")
    assert text.startswith(BOM) and text.count(BOM) == 1  # a byte-order mark, for Excel
    return list(csv.reader(io.StringIO(text[1:])))


def by_name(rows: list[dict]) -> dict[str, dict]:
    return {row["student"] if "student" in row else row["Student"]: row for row in rows}


# ---- the games file ---------------------------------------------------------------------------------------


def test_the_games_file_has_a_row_a_game_each_figure_in_whole_points(klass, tmp_path):
    room, _, _, _ = klass
    assert gb.games_csv(room, tmp_path / "games.csv") == 2
    header, *rows = read_csv(tmp_path / "games.csv")
    assert tuple(header) == gb.GAME_FILE_HEADERS
    rows = [dict(zip(header, row, strict=True)) for row in rows]
    seats = {row["game"]: (row["Player 1"], row["Player 2"]) for row in rows}
    assert sorted(seats.values()) == [("'=Cy", "greedy (bot)"), ("Ann", "Bob")] or \
        sorted(seats.values()) == [("Ann", "Bob"), ("greedy (bot)", "'=Cy")]  # a name a spreadsheet would run: '
    duel = next(r for r in rows if "Ann" in (r["Player 1"], r["Player 2"]))
    cy = next(r for r in rows if r is not duel)
    assert (duel["Player 1"], duel["Player 2"]) == ("Ann", "Bob") and cy["activity"] == "match 1/table 2/deal 1"
    assert {r["deal"] for r in rows} == {"match 1 · deal 1"} and {r["lesson"] for r in rows} == {"1"}
    bot = "Player 2" if cy["Player 2"] == "greedy (bot)" else "Player 1"
    assert all(cy[f"{bot} {part}"] == "" for part in ("result", "luck-adjusted", "luck", "skill"))
    scores = {"won": 1, "drew": 0.5, "lost": 0}
    assert scores[duel["Player 1 result"]] + scores[duel["Player 2 result"]] == 1
    assert (int(duel["margin"]) > 0) == (duel["Player 1 result"] == "won")
    for row in rows:
        for seat in ("Player 1", "Player 2"):
            if row[f"{seat} result"] == "":
                continue
            assert row[f"{seat} bot stood in"] == "no"
            assert all(POINTS.fullmatch(row[f"{seat} {k}"]) for k in ("luck-adjusted", "luck", "skill")), row
            # a game played to its end: 100 × score = luck-adjusted + luck, to a point
            score = scores[row[f"{seat} result"]]
            assert abs(100 * score - int(row[f"{seat} luck-adjusted"]) - int(row[f"{seat} luck"])) <= 1
    entries = {room.student_name(e.student): e for e in room.record.entries}
    assert int(duel["Player 1 luck-adjusted"]) == in_points(entries["Ann"].figure)
    assert "Ann" in room.record_replay(int(duel["game"])).players  # the game number replays the game
    seat_rows = gb.game_rows(room)  # one a student's seat, as a history shows them
    assert len(seat_rows) == 3 and {r["student"] for r in seat_rows} == {"Ann", "Bob", "=Cy"}


def test_a_game_row_s_lesson_is_the_rooms_latest_when_it_was_played_or_none(klass, monkeypatch):
    room, _, _, _ = klass
    assert {row["lesson"] for row in gb.game_rows(room)} == {1}
    monkeypatch.setattr(room, "lesson_of", lambda source: 0, raising=False)  # before any lesson
    assert {row["lesson"] for row in gb.game_rows(room)} == {None}
    monkeypatch.setattr(room, "lesson_of", None, raising=False)  # a room that cannot say
    assert {row["lesson"] for row in gb.game_rows(room)} == {None}
    assert [item["name"] for item in gb.lessons_view(room)] == ["Lesson 1: detective", "Lesson 2", "No lesson"]


# ---- the gradebook --------------------------------------------------------------------------------------------


def test_the_gradebook_has_a_row_a_student_and_a_column_an_assignment_in_points(klass, tmp_path, monkeypatch):
    room, _, _, _ = klass
    monkeypatch.setattr(room, "homework_progress", None, raising=False)  # a room that gives no homework
    assert gb.gradebook_csv(room, tmp_path / "grades.csv", {"Ann": "ann@school.example"}) == 4
    header, *rows = read_csv(tmp_path / "grades.csv")
    assert header == ["Student", "ID", "SIS User ID", "SIS Login ID", "Section", "Lesson 1: detective · questions",
                      "Match 1 · games", "Match 1 · luck-adjusted"]
    assert not any(re.search(r"\(\d+\)$", h) for h in header)  # Canvas would read "(12)" as an assignment's id
    rows = {row[0]: dict(zip(header, row, strict=True)) for row in rows}
    assert list(rows) == ["Ann", "Bob", "'=Cy", "'@Dee"]  # the order invited; formulas defused
    assert rows["Ann"]["SIS Login ID"] == "ann@school.example" and rows["Bob"]["SIS Login ID"] == ""
    scores = {a.student: 1 - a.brier for a in room.answers}
    for name in ("Ann", "Bob"):
        assert rows[name]["Lesson 1: detective · questions"] == str(in_points(scores[name]))
    assert rows["'=Cy"]["Lesson 1: detective · questions"] == ""  # no answer: no grade
    figures = {room.student_name(e.student): e.figure for e in room.record.entries}
    for name, shown in (("Ann", "Ann"), ("Bob", "Bob"), ("=Cy", "'=Cy")):
        assert rows[shown]["Match 1 · games"] == "1"
        assert rows[shown]["Match 1 · luck-adjusted"] == str(in_points(figures[name]))  # whole points
    assert rows["'@Dee"]["Match 1 · games"] == "0" and rows["'@Dee"]["Match 1 · luck-adjusted"] == ""


def test_the_gradebook_leaves_removed_students_out_and_counts_homework(klass, monkeypatch):
    room, _, _, _ = klass
    members = room.members()
    for m in members:
        m.removed = m.name == "Bob"
    monkeypatch.setattr(room, "members", lambda: members)
    first, second = SimpleNamespace(id=1, title="Match 1's mistakes"), SimpleNamespace(id=2, title="")
    given = {1: {"Ann": (3, 4), "Bob": (1, 1), "=Cy": (0, 2)}, 2: {"Ann": (1, 1)}}
    monkeypatch.setattr(room, "homeworks", [first, second], raising=False)
    monkeypatch.setattr(room, "homework_progress", lambda h=None: given[h.id] if h else {}, raising=False)
    rows = by_name(gb.gradebook_rows(room))
    assert list(rows) == ["Ann", "=Cy", "@Dee"]  # Bob is off the roster
    assert [rows[n]["Homework 1: Match 1's mistakes · % done"] for n in rows] == [75, 0, None]  # None: not given it
    assert [rows[n]["Homework 2 · % done"] for n in rows] == [100, None, None]
    monkeypatch.setattr(room, "homeworks", [], raising=False)  # a room that gave none yet: no column
    assert not any(k.startswith("Homework") for k in gb.gradebook_rows(room)[0])
    assert len(gb.game_rows(room)) == 3  # his games stay in the record
    assert gb.history(room, "Bob")["removed"] is True


def test_the_gradebook_s_logins_name_students_of_the_room(klass, tmp_path):
    room, _, _, _ = klass
    with pytest.raises(ClassError, match="'Anm'"):
        gb.gradebook_rows(room, {"Anm": "ann@school.example"})
    with pytest.raises(ClassError, match="not 3 for 'Ann'"):
        gb.gradebook_rows(room, {"Ann": 3})  # type: ignore[dict-item]
    path = tmp_path / "logins.csv"
    path.write_text(f"{BOM}name,login\nAnn, ann@school.example\n\nBob,bob\n", encoding="utf-8")
    assert gb.read_logins(path) == {"Ann": "ann@school.example", "Bob": "bob"}
    path.write_text("name,login\nAnn\n", encoding="utf-8")
    with pytest.raises(ClassError, match=r"row 2: \['Ann'\] is not a name and a login"):
        gb.read_logins(path)
    with pytest.raises(ClassError, match="logins.txt"):
        gb.read_logins(tmp_path / "logins.txt")


# ---- lessons and histories ----------------------------------------------------------------------------------------


def test_the_lessons_view_gives_each_lesson_its_answers_and_its_games(klass):
    room, _, _, _ = klass
    first, second = gb.lessons_view(room)
    assert (first["lesson"], first["name"], first["answers"]) == (1, "Lesson 1: detective", 2)
    [question] = first["questions"]
    assert (question["step"], question["kind"], question["label"], question["answers"]) == (
        12, "winner", "Who will win?", 2)
    mean = sum(1 - a.brier for a in room.answers) / 2
    assert question["mean_score"] == first["mean_score"] == in_points(mean)
    assert first["games_played"] == 2 and len(first["games"]) == 3  # one game of two students, one with the bot
    assert (second["lesson"], second["name"], second["answers"], second["games"]) == (2, "Lesson 2", 0, [])


def _answer(student: str, title: str, brier: float) -> Answer:
    return Answer(student, title, 3, "winner", 0, 0.5, truth=1, brier=brier)


@pytest.mark.parametrize(("current", "names"), [
    (3, ["Lesson 1: dogs", "Lesson 2: cats", "Lesson 3: owls"]),  # each earlier lesson left answers: numbered
    (4, ["Earlier lesson 1: dogs", "Earlier lesson 2: cats", "Lesson 4: owls"]),  # one left none: not known
])
def test_earlier_lessons_are_numbered_only_where_their_answers_say_which(current, names):
    answers = [_answer("Ann", "dogs", 0.25), _answer("Bob", "dogs", 0.0), _answer("Ann", "cats", 0.5)]
    owls = [_answer("Ann", "owls", 0.01)]
    room = SimpleNamespace(answers=answers + owls, members=lambda: [], record=Record(),
                           lesson=SimpleNamespace(id=current, title="owls", records=lambda: owls))
    view = gb.lessons_view(room)
    assert [item["name"] for item in view] == names
    assert [item["mean_score"] for item in view] == [88, 50, 99]


def test_a_student_s_history_has_their_games_answers_and_homework(klass, monkeypatch):
    room, _, _, _ = klass
    monkeypatch.setattr(room, "homework_progress", None, raising=False)
    ann = gb.history(room, "Ann")
    assert (ann["student"], ann["removed"], ann["homework"]) == ("Ann", False, None)
    [game] = ann["games"]
    assert game["student"] == "Ann" and game["opponent"] == "Bob"
    assert room.record_replay(game["game"]).players == ("Ann", "Bob")
    [answer] = ann["answers"]
    assert (answer["lesson"], answer["kind"], answer["answer"]) == ("Lesson 1: detective", "winner", 0.7)
    assert answer["score"] == in_points(1 - answer["brier"])
    monkeypatch.setattr(room, "homeworks", [SimpleNamespace(id=1, title="Match 1's mistakes")], raising=False)
    monkeypatch.setattr(room, "homework_progress", lambda h: {"Ann": (2, 5)}, raising=False)
    assert gb.history(room, "Ann")["homework"] == [{"homework": "Homework 1: Match 1's mistakes", "done": 2,
                                                    "assigned": 5}]
    assert gb.history(room, "Bob")["homework"] == []
    assert gb.history(room, "@Dee")["games"] == [] and gb.history(room, "@Dee")["answers"] == []
    with pytest.raises(ClassError, match="No student named 'Zed'"):
        gb.history(room, "Zed")


@pytest.mark.parametrize(("answer", "score"), [
    (Answer("a", "r", 3, "winner", 0, 0.7, truth=0, brier=0.49), 0.51),
    (Answer("a", "r", 3, "next_draw", 0, 0.7, truth=None), None),  # the outcome held back: no score
    (Answer("a", "r", 3, "needle", 0, ["AC"], truth="KS", coverage=0.25, hit=False), 0.25),
    (Answer("a", "r", 3, "pile_or_steal", 0, "pile", truth="pile", vs_best=0.0), 1.0),
    (Answer("a", "r", 3, "your_move", 0, "draw_pile", truth="steal", vs_best=-0.125), 0.875),
])
def test_every_kind_of_answer_scores_from_0_to_1(answer, score):
    assert gb.answer_score(answer) == score


# ---- the files ----------------------------------------------------------------------------------------------------


def test_the_files_are_written_whole_for_their_owner_and_hold_no_seed_nor_secret(klass, tmp_path):
    room, _, match, _ = klass
    games, grades, answers = tmp_path / "games.csv", tmp_path / "grades.csv", tmp_path / "answers.jsonl"
    gb.games_csv(room, games)
    gb.gradebook_csv(room, grades)
    room.save_answers(answers)
    assert stat.S_IMODE(games.stat().st_mode) == 0o600 and stat.S_IMODE(grades.stat().st_mode) == 0o600
    os.chmod(games, 0o640)
    gb.games_csv(room, games)
    assert stat.S_IMODE(games.stat().st_mode) == 0o640  # an existing file keeps its permissions
    text = "".join(p.read_text(encoding="utf-8") for p in (games, grades, answers))
    assert all(str(seed) not in text for seed in match.seeds) and SECRET.hex() not in text
    with pytest.raises(ClassError, match="does not exist"):
        gb.games_csv(room, tmp_path / "missing" / "games.csv")
    with pytest.raises(ClassError, match="is a folder"):
        gb.gradebook_csv(room, tmp_path)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["answers.jsonl", "games.csv", "grades.csv"]  # no .part


# ---- needle-widget class-export ------------------------------------------------------------------------------------


def _listing(folder: Path) -> dict[str, tuple[int, int]]:
    return {str(p.relative_to(folder)): (p.stat().st_size, p.stat().st_mtime_ns) for p in folder.rglob("*")}


def test_class_export_writes_the_files_without_touching_the_room(klass, tmp_path, monkeypatch):
    room, students, _, folder = klass
    monkeypatch.setattr(room, "homework_progress", None, raising=False)
    logins = tmp_path / "logins.csv"
    logins.write_text("name,login\nBob,bob@school.example\n", encoding="utf-8")
    before, seen = _listing(folder), [s.state()["follow"]["text"] for s in students]
    out = io.StringIO()
    code = cli.main(["class-export", room.url, "--games", str(tmp_path / "g.csv"), "--gradebook",
                     str(tmp_path / "b.csv"), "--answers", str(tmp_path / "a.csv"), "--logins", str(logins)],
                    stdout=out)
    assert code == 0
    assert out.getvalue().splitlines() == [f"wrote {tmp_path / 'g.csv'}: 2 games, a row each",
                                           f"wrote {tmp_path / 'b.csv'}: 4 students",
                                           f"wrote {tmp_path / 'a.csv'}: 2 answers"]
    assert _listing(folder) == before  # nothing posted, nothing saved
    pump(room, *students)
    assert [s.state()["follow"]["text"] for s in students] == seen  # no student was told the room closed
    gb.games_csv(room, tmp_path / "g2.csv")
    assert (tmp_path / "g.csv").read_text(encoding="utf-8") == (tmp_path / "g2.csv").read_text(encoding="utf-8")
    assert read_csv(tmp_path / "b.csv")[2][:4] == ["Bob", "", "", "bob@school.example"]
    assert load_answers(tmp_path / "a.csv") == load_answers_of(room, tmp_path / "a2.csv")


def load_answers_of(room, path: Path) -> list[Answer]:
    room.save_answers(path)
    return load_answers(path)


@pytest.mark.parametrize(("argv", "message"), [
    ([], "at least one of --games, --gradebook, --answers"),
    (["--games", "{tmp}/g.csv", "--logins", "{tmp}/l.csv"], "--logins fills the gradebook"),
    (["--answers", "{tmp}/a.txt"], "must end in .csv or .jsonl"),
    (["--games", "{tmp}/none/g.csv"], "there is no folder"),
    (["--games", "{tmp}"], "is a folder"),
    (["--games", "{tmp}/g.csv", "--gradebook", "{tmp}/g.csv"], "--games and --gradebook name the same file"),
    (["--gradebook", "{tmp}/b.csv", "--logins", "{tmp}/l.csv"], "Cannot read the logins file"),
    (["--games", "{tmp}/g.csv", "--wait", "-1"], "must be >= 0"),
])
def test_class_export_refuses_bad_arguments_in_one_line(klass, tmp_path, capsys, argv, message):
    room, _, _, _ = klass
    code = run(["class-export", room.url, *(a.format(tmp=tmp_path) for a in argv)])
    err = capsys.readouterr().err
    assert code == 2
    assert message in err and err.count("\n") == 1 and err.startswith("needle-widget: error: ")
    assert list(tmp_path.iterdir()) == []


def run(argv: list[str]) -> int:
    """`needle-widget ARGV`'s exit code (argparse's refusals exit)."""
    try:
        return cli.main(argv, stdout=io.StringIO())
    except SystemExit as exit:
        return int(exit.code or 0)


def test_class_export_of_no_room_says_so(tmp_path, capsys):
    code = run(["class-export", f"folder:{tmp_path}/nowhere", "--games", str(tmp_path / "g.csv")])
    err = capsys.readouterr().err
    assert code == 2 and re.search(r"[Nn]o (class )?room at '[^']*nowhere'", err) and err.count("\n") == 1
    assert sorted(p.name for p in tmp_path.iterdir()) == []  # no room made
