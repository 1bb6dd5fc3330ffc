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
