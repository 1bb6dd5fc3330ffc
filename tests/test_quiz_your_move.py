"""The "your move" question (issue 31, part 3): at a decision of the seat, each student picks the move they would
play, from the seat's view; it is scored by the review's values for that decision (its loss against the best
candidate and its mark), in the quiz, in notes, in a class lesson (the board's distribution of moves with their
values, then the best move and what was played) and in the answer records. Twins in the quiz are in
tests/test_quiz_widget.py (every kind, this one included).
"""

from __future__ import annotations

import pytest
from conftest import pumped_class
from conftest import settle as pump
from test_class_twins import channel, close, settle, twin_rooms  # noqa: F401 (channel: the twin rooms' fixture)
from test_new_game import twins_over

from needle_widget import NeedleWidget, examples
from needle_widget.engine import actions
from needle_widget.review import judge
from needle_widget.teaching.answers import Answer, class_table, load_answers, rounded_dict, save_answers
from needle_widget.teaching.quiz import (
    AnswerError,
    QuizQuestion,
    QuizQuestionError,
    _part_seed,
    ask,
    check_answer,
    check_question,
    questions_from_notes,
    reveal,
)

STEP = 5
"""A discard of Player 1 in the bundled game "detective": eight moves to choose from."""


@pytest.fixture(scope="module")
def detective():
    replay = examples.load("detective")
    assert replay.steps[STEP].player == 0 and type(replay.steps[STEP].action) is actions.Discard
    return replay


def test_asked_from_the_seat_s_view_with_its_legal_moves(detective):
    q = QuizQuestion(STEP, "your_move", 0)
    asked = ask(detective, q)
    view = detective.game_at(STEP).view(0)
    assert asked["view"] == view and asked["prompt"] == "Your move: what would you play here?"
    assert asked["form"] == {"type": "action", "options": [str(actions.from_dict(a)) for a in view["legal_actions"]]}
    with pytest.raises(QuizQuestionError, match="Player 2 must have a choice to make, but it is Player 1's move"):
        check_question(detective, QuizQuestion(STEP, "your_move", 1))


def test_an_answer_is_a_legal_move_in_words_a_dict_or_an_action(detective):
    q = QuizQuestion(STEP, "your_move", 0)
    options = ask(detective, q)["form"]["options"]
    move = actions.from_dict(detective.game_at(STEP).view(0)["legal_actions"][2])
    assert check_answer(q, str(move), options) == check_answer(q, move.to_dict(), options) == \
        check_answer(q, move, options) == options[2]
    for bad in ("Steal", "Discard 7♦", 3, None, {"type": "discard"}):
        with pytest.raises(AnswerError, match="to a your_move question is not a legal move here"):
            check_answer(q, bad, options)


def test_scored_by_the_review_s_values_for_the_decision(detective):
    """The loss and mark of each answer are `review.judge`'s for that move, on the same worlds."""
    q = QuizQuestion(STEP, "your_move", 0)
    view = detective.game_at(STEP).view(0)
    options = ask(detective, q)["form"]["options"]
    marks = set()
    for words in options[:4]:
        shown = reveal(detective, q, words, n=24)
        move = next(actions.from_dict(a) for a in view["legal_actions"] if str(actions.from_dict(a)) == words)
        entry = judge(view, move, STEP, worlds=24, seed=_part_seed(0, q, "review"))
        assert shown["score"] == {"loss": entry.loss, "se": entry.se, "mark": entry.label, "best": str(entry.best)}
        assert shown["truth"]["played"] == str(detective.steps[STEP].action)
        marks.add(entry.label)
    best = reveal(detective, q, shown["score"]["best"], n=24)
    assert best["score"]["mark"] == "best" and best["score"]["loss"] == 0
    assert len(marks) > 1


def test_in_the_quiz_its_reveal_says_the_mark_the_best_move_and_what_was_played(detective, tmp_path):
    w = NeedleWidget.quiz(detective, seat=0, questions=[(STEP, "your_move")], student="ann", n=24)
    form = w.quiz_state["question"]["form"]
    assert form["type"] == "action" and w.quiz_state["reveal"] is None
    w.answer_question(form["options"][0])
    shown = w.quiz_state["reveal"]
    rows = {r["label"]: r["value"] for r in shown["rows"]}
    assert shown["answer_text"] == f"You chose: {form['options'][0]}."
    assert "worlds you could not tell apart" in shown["verdict"] and "wins" in rows["Best move found"]
    assert rows["Played in the game"] == str(detective.steps[STEP].action)
    assert w.quiz_state["items"][0]["verdict"] in ("best", "good", "inaccuracy", "mistake", "blunder")
    # stored like any other answer: the file and the class's table
    (answer,) = w.answers
    assert answer.kind == "your_move" and answer.answer == form["options"][0] and answer.vs_best <= 0
    path = tmp_path / "answers.jsonl"
    save_answers(w.answers, path)
    assert load_answers(path) == [Answer.from_dict(rounded_dict(answer))]  # its scores to 6 significant digits
    assert Answer.from_dict(answer.to_dict()) == answer
    (row,) = class_table(tmp_path)
    assert (row["student"], row["moves"], row["draws"]) == ("ann", 1, 0)
    assert row["mean_move_loss"] == pytest.approx(-answer.vs_best, rel=1e-5)  # from the file: 6 digits


def test_a_note_can_ask_it(detective):
    replay = examples.load("detective")
    replay.add_note(STEP, "What would you discard?", question="your_move")
    assert QuizQuestion(STEP, "your_move", 0) in questions_from_notes(replay, 0)


def test_a_class_answers_it_and_the_board_shows_the_moves_with_their_values(class_url):
    with pumped_class(class_url, ("Ann", "Bob", "Cy")) as (room, students):
        lesson = room.lead(examples.load("detective"), perspective=0)
        lesson.go(STEP)
        lesson.ask("your_move")
        pump(room, *students)
        options = students[0].state()["quiz_state"]["question"]["form"]["options"]
        for student, move in zip(students, (options[0], options[0], options[-1]), strict=True):
            student.answer(move)
        pump(room, *students)
        before = room.board_state("teacher")["distribution"]
        assert before["title"] == "Moves chosen" and [b["count"] for b in before["bars"]] == [2, 1]
        assert all("wins" not in b["label"] for b in before["bars"])      # no value before the reveal
        lesson.reveal()
        pump(room, *students)
        board = room.board_state("teacher")
        bars = board["distribution"]["bars"]
        assert all(" wins" in b["label"] for b in bars) and sum(b["truth"] for b in bars) == 1
        assert board["question"]["truth"].startswith("The best move found: ")
        assert "Played in the game" not in board["question"]["truth"]            # the class is at the step
        rows = {r["label"]: r["value"] for r in students[0].state()["quiz_state"]["reveal"]["rows"]}
        assert rows["Played in the game"] == "Held back until the class gets there"
        assert [a.kind for a in room.answers] == ["your_move"] * 3
        assert {a.student for a in room.answers} == {"Ann", "Bob", "Cy"}


@pytest.mark.parametrize("seed, watcher", [(0, 0), (3, 1)])
def test_twin_lessons_give_the_watcher_byte_identical_messages_for_a_your_move_question(channel, seed, watcher):  # noqa: F811
    """Twin games that differ in a card of the other seat: a "your move" question at the watcher's decision, the
    class's answers and the reveal write the same messages to the watcher's students in both rooms.
    """
    games = twins_over(seed, 1 - watcher)
    replays = [g.replay() for g in games]
    assert replays[0].deck != replays[1].deck
    k = next(k for k in range(2, len(replays[0])) if (g := replays[0].game_at(k)).to_move == watcher
             and g.phase != "over" and len(g.legal_actions()) > 1)
    assert replays[0].game_at(k).view(watcher) == replays[1].game_at(k).view(watcher)
    assert replays[0].game_at(k).view(1 - watcher) != replays[1].game_at(k).view(1 - watcher)  # the other seat's do
    rooms = twin_rooms(channel, [watcher, watcher])
    reveals = []
    for twin, ((room, students), replay) in enumerate(zip(rooms, replays, strict=True)):
        lesson = room.lead(replay, perspective=watcher)
        lesson.go(k)
        settle(room, students, channel, twin)
        lesson.ask("your_move")
        settle(room, students, channel, twin)
        for n, student in enumerate(students):
            student.answer(student.state()["quiz_state"]["question"]["form"]["options"][-n])
            settle(room, students, channel, twin)
        lesson.reveal()
        settle(room, students, channel, twin)
        reveals.append(students[0].state()["quiz_state"]["reveal"])
    close(rooms)
    assert reveals[0] is not None and "worlds you could not tell apart" in reveals[0]["verdict"]
    for index in (0, 1):
        mine = [channel.box(twin, index) for twin in (0, 1)]
        assert len(mine[0]) >= 4 and mine[0] == mine[1]


def test_in_an_assigned_lesson_the_projector_names_none_of_the_asked_seat_s_moves(class_url):
    """Each student sees their own seat: the moves of a "your move" question name the asked seat's cards, which the
    other seat's students may not see, so the projector (read by the whole class) gets no move, best move or played
    move, before or after the reveal; the teacher's view has them.
    """
    import json

    replay = examples.load("detective")
    hand = [str(c) for c in replay.game_at(STEP).hand(0)]
    with pumped_class(class_url, ("Ann", "Bob")) as (room, (ann, bob)):
        assert (room.assigned_seat(ann.index), room.assigned_seat(bob.index)) == (0, 1)
        lesson = room.lead(replay, perspective="assigned")
        lesson.go(STEP)
        lesson.ask("your_move")
        pump(room, ann, bob)
        assert bob.state()["quiz_state"] is None or bob.state()["quiz_state"]["question"] is None
        ann.answer(ann.state()["quiz_state"]["question"]["form"]["options"][0])
        pump(room, ann, bob)
        for stage in ("answered", "revealed", "passed"):
            if stage == "revealed":
                lesson.reveal()
            if stage == "passed":
                lesson.go(STEP + 3)
            pump(room, ann, bob)
            projector = json.dumps(room.board_state("projector"), ensure_ascii=False)
            assert not [c for c in hand if c in projector], (stage, projector)
            assert room.board_state("projector")["distribution"] is None
            assert room.board_state("teacher")["distribution"]["title"] == "Moves chosen"
        truth = room.board_state("projector")["question"]["truth"]
        assert truth.startswith("The moves are Player 1's cards") and "own screen" in truth
        assert room.board_state("teacher")["question"]["truth"].startswith("The best move found: ")
