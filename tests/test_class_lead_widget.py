"""The teacher's lesson widget is a screen of the lesson, both ways (issue 44): `lesson.go`, `next` and `ask` from
Python move it, and its own Next step then moves the class on from where the class is, never back to where the
widget was. A new teacher found it the other way: the widget stayed where it was, and its Next step sent the class
backwards.
"""

from __future__ import annotations

from typing import Any

from conftest import settle
from test_widget import send

from needle_widget import classroom, examples


def test_the_lead_widget_follows_the_lesson_and_steps_on_from_where_the_class_is(tmp_path: Any) -> None:
    room = classroom.open(f"folder:{tmp_path}/room", start=False)
    ann = classroom.join(room.url, room.invite("Ann", seat=0).code, start=False)
    lesson = room.lead(examples.load("detective"), perspective="assigned")
    widget = lesson.widget()
    try:
        widget.step = 3
        settle(room, ann)
        assert lesson.step == 3 and ann.step == 3
        lesson.go(9)  # the teacher moves the class from Python (or another widget)
        settle(room, ann)
        assert widget.step == 9
        send(widget, kind="step", to=widget.step + 1, id=1)  # the widget's Next step
        assert widget.answer["ok"], widget.error
        settle(room, ann)
        assert lesson.step == 10 and ann.step == 10  # on from 9, not back to 4
        lesson.next()
        lesson.ask("winner")
        settle(room, ann)
        assert widget.step == lesson.step == 11
    finally:
        widget.close()
    lesson.go(2)  # a closed widget follows nothing and moves nothing
    settle(room, ann)
    assert widget.step == 11 and lesson.step == 2
    ann.close(), room.close()


def test_following_the_lesson_out_of_a_variation_moves_the_class_once(tmp_path: Any) -> None:
    """The lesson goes from a variation back to the game from Python: the widget follows it there without moving
    the class anywhere else on the way (leaving the variation is the widget following, not the teacher's step).
    """
    from test_class_variations import MINE, with_lines

    room = classroom.open(f"folder:{tmp_path}/room", start=False)
    ann = classroom.join(room.url, room.invite("Ann", seat=0).code, start=False)
    replay = with_lines(examples.load("long_with_reshuffle"), 10)
    lesson = room.lead(replay, perspective="assigned")
    widget = lesson.widget()
    try:
        lesson.go(10)
        lesson.go(11, line=MINE)
        settle(room, ann)
        assert widget.variations["current"] == MINE and widget.step == 11
        positions = []
        unsubscribe = room.subscribe(lambda: positions.append(lesson.position))
        lesson.go(20)
        settle(room, ann)
        unsubscribe()
        assert set(positions) == {(None, 20)}, positions
        assert widget.variations["current"] is None and widget.step == 20
    finally:
        widget.close()
    ann.close(), room.close()


def test_a_former_lesson_s_widget_moves_nothing_and_follows_nothing(tmp_path: Any) -> None:
    room = classroom.open(f"folder:{tmp_path}/room", start=False)
    ann = classroom.join(room.url, room.invite("Ann", seat=0).code, start=False)
    first = room.lead(examples.load("detective"), perspective=0)
    old = first.widget()
    try:
        old.step = 5
        second = room.lead(examples.load("found_early"), perspective=0)
        second.go(3)
        settle(room, ann)
        old.step = 8  # stepping the old lesson's widget: the class stays in the new lesson, at its step
        settle(room, ann)
        assert second.step == 3 and ann.step == 3 and old.step == 8 and old.error is None
    finally:
        old.close()
    ann.close(), room.close()


def test_asking_the_same_question_again_at_the_same_step_asks_it_once(tmp_path: Any) -> None:
    """A teacher's cell run twice (issue 45: a second "Question 3" appeared)."""
    room = classroom.open(f"folder:{tmp_path}/room", start=False)
    lesson = room.lead(examples.load("detective"), perspective=0)
    lesson.go(4)
    first = lesson.ask("needle")
    assert lesson.ask("needle") is first and len(lesson.asked) == 1
    assert lesson.ask("needle", step=6) is not first and len(lesson.asked) == 2  # another step: another question
    room.close()


def test_the_students_screens_say_when_the_teacher_closes_the_room(tmp_path: Any) -> None:
    """Issue 45: after `room.close()` the students' screens said "Following the teacher ... live" for minutes."""
    room = classroom.open(f"folder:{tmp_path}/room", start=False)
    ann = classroom.join(room.url, room.invite("Ann", seat=0).code, start=False)
    room.lead(examples.load("detective"), perspective=0).go(3)
    settle(room, ann)
    assert ann.state()["follow"]["status"] == "live"
    room.close()
    ann.pump()
    follow = ann.state()["follow"]
    assert follow["status"] == "closed" and "closed the class" in follow["text"] and not follow["can_live"]
    assert ann.state()["step"] == 3  # the screen keeps what it showed
    again = classroom.open(f"folder:{tmp_path}/room", start=False)  # reopened: the screen follows again
    settle(again, ann)
    settle(again, ann)
    assert ann.state()["follow"]["status"] == "live"
    ann.close(), again.close()
