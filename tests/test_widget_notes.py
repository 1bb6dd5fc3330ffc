"""Notes in the widget (issue 12): a note reaches only the perspectives it is written for, shows
up to the end of the record as shown, is edited from Python and from the teacher's view, and
travels with the replay through a v2 file.
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from test_whatif_widget import send, synced

from needle_widget import Game, NeedleWidget, examples
from needle_widget.engine.seats import PERSPECTIVES
from needle_widget.records.notes import Note
from needle_widget.records.replay import Replay

NOTES = [
    Note(0, "The deal: everyone reads this."),
    Note(3, "Player 1 only: your needle is safe for now.", perspective=0),
    Note(3, "Player 2 only: think about the steal.", perspective=1, question="pile_or_steal"),
    Note(5, "For the spectator.", perspective="spectator"),
    Note(6, "Teacher: ask who is ahead.", perspective="teacher", question={"kind": "winner", "prompt": "Who?"}),
]


def noted() -> Replay:
    return examples.load("found_early").copy(notes=NOTES)


@pytest.mark.parametrize("perspective", PERSPECTIVES)
def test_each_perspective_receives_only_the_notes_written_for_it(perspective: Any) -> None:
    r = noted()
    w = NeedleWidget.from_replay(r, perspective=perspective)
    assert [(n["step"], n["text"]) for n in w.shown_notes] == [(n.step, n.text) for n in r.notes_for(perspective)]
    text = synced(w)
    for note in NOTES:
        assert (note.text in text) == note.visible_to(perspective)
    numbered = [n["index"] for n in w.shown_notes]
    assert numbered == (list(range(len(NOTES))) if perspective == "teacher" else [None] * len(numbered))


def test_a_note_s_fields_as_the_browser_receives_them() -> None:
    w = NeedleWidget.from_replay(noted(), perspective=1)
    assert w.shown_notes[1] == {
        "step": 3, "text": "Player 2 only: think about the steal.", "perspective": 1, "for_label": "Player 2",
        "question": {"kind": "pile_or_steal", "prompt": None, "text": "Which is the better draw here, pile or steal?"},
        "index": None,
    }
    w.perspective = "teacher"
    question = w.shown_notes[4]["question"]
    assert question == {"kind": "winner", "prompt": "Who?", "text": "Who?"}


def test_spoiler_free_review_sends_no_note_past_the_step() -> None:
    w = NeedleWidget.from_replay(noted(), perspective="teacher", spoilers=False)
    for k in range(8):
        w.step = k
        assert [n["step"] for n in w.shown_notes] == [n.step for n in NOTES if n.step <= k]


def test_the_teacher_adds_edits_and_removes_notes_from_the_widget_and_saving_keeps_them(tmp_path) -> None:
    r = examples.load("found_early").copy()
    w = NeedleWidget.from_replay(r, perspective="teacher", step=4)
    send(w, kind="note_add", step=4, text="Why steal here?", perspective=1, question="pile_or_steal")
    send(w, kind="note_add", step=0, text="Welcome.", perspective=None, question=None)
    assert w.error is None
    assert [n.text for n in r.notes] == ["Welcome.", "Why steal here?"]
    send(w, kind="note_edit", index=1, text="Why steal, Player 2?", perspective=1, question="pile_or_steal")
    send(w, kind="note_remove", index=0)
    assert w.error is None and r.notes == (Note(4, "Why steal, Player 2?", 1, "pile_or_steal"),)
    assert [n["text"] for n in w.shown_notes] == ["Why steal, Player 2?"]
    path = tmp_path / "lesson.json"
    w.replay.save(path)
    loaded = Replay.load(path)
    assert loaded.notes == r.notes and json.loads(path.read_text())["version"] == 2
    again = NeedleWidget.from_replay(loaded, perspective=1)
    assert [n["text"] for n in again.shown_notes] == ["Why steal, Player 2?"]


def test_editing_a_note_from_the_widget_keeps_its_question_s_own_words() -> None:
    r = examples.load("found_early").copy(notes=[Note(2, "Look.", question={"kind": "winner", "prompt": "Who?"})])
    w = NeedleWidget.from_replay(r, perspective="teacher")
    send(w, kind="note_edit", index=0, text="Look again.", perspective=None, question="winner")
    assert r.notes[0].question.prompt == "Who?"
    send(w, kind="note_edit", index=0, text="Look again.", perspective=None, question="needle")
    assert r.notes[0].question.kind == "needle" and r.notes[0].question.prompt is None


@pytest.mark.parametrize("request_", [
    {"kind": "note_add", "step": 99, "text": "x", "perspective": None, "question": None},
    {"kind": "note_add", "step": 1, "text": "   ", "perspective": None, "question": None},
    {"kind": "note_add", "step": 1, "text": "x" * 10_000_000, "perspective": None, "question": None},
    {"kind": "note_add", "step": 1, "text": "x", "perspective": "coach", "question": None},
    {"kind": "note_add", "step": 1, "text": "x", "perspective": None, "question": "colour"},
    {"kind": "note_add", "step": "1", "text": "x", "perspective": None, "question": None},
    {"kind": "note_edit", "index": 7, "text": "x", "perspective": None, "question": None},
    {"kind": "note_edit", "index": 0, "text": None, "perspective": None, "question": None},
    {"kind": "note_remove", "index": -1},
    {"kind": "note_remove", "index": [0]},
])
def test_bad_note_requests_are_refused_with_a_short_error_and_change_nothing(request_: dict) -> None:
    r = noted()
    w = NeedleWidget.from_replay(r, perspective="teacher", step=3)
    before = (r.notes, synced(w))
    send(w, **request_)
    assert w.error is not None and len(w.error["text"]) <= 500
    assert r.notes == before[0]
    after = json.loads(synced(w))
    after.pop("error")
    expected = json.loads(before[1])
    expected.pop("error")
    assert after == expected


@pytest.mark.parametrize("perspective", [0, 1, "spectator"])
def test_only_the_teacher_s_view_edits_notes(perspective: Any) -> None:
    r = noted()
    w = NeedleWidget.from_replay(r, perspective=perspective)
    assert w.offers["notes"]["editable"] is False
    for request in ({"kind": "note_add", "step": 0, "text": "x", "perspective": None, "question": None},
                    {"kind": "note_remove", "index": 0}):
        send(w, **request)
        assert "switch to the teacher's view" in w.error["text"]
    assert r.notes == tuple(NOTES)


def test_the_note_offer_names_the_choices() -> None:
    offer = NeedleWidget.from_replay(noted(), perspective="teacher").offers["notes"]
    assert offer["editable"] and offer["reason"] is None
    assert [p["id"] for p in offer["perspectives"]] == [None, 0, 1, "spectator", "teacher"]
    assert [k["id"] for k in offer["kinds"]] == [None, "needle", "next_draw", "winner", "pile_or_steal", "your_move"]


def test_notes_changed_from_python_reach_every_open_view() -> None:
    r = examples.load("found_early").copy()
    teacher = NeedleWidget.from_replay(r, perspective="teacher")
    player = NeedleWidget.from_replay(r, perspective=0)
    r.add_note(2, "Added on the replay.")
    teacher.add_note(3, "Added on the widget.", perspective=1)
    assert [n["text"] for n in teacher.shown_notes] == ["Added on the replay.", "Added on the widget."]
    assert [n["text"] for n in player.shown_notes] == ["Added on the replay."]
    teacher.edit_note(0, text="Edited.")
    assert player.shown_notes[0]["text"] == "Edited."
    teacher.notes = [Note(1, "Only this one.")]
    assert teacher.notes == r.notes == (Note(1, "Only this one."),)
    assert [n["text"] for n in player.shown_notes] == ["Only this one."]
    teacher.remove_note(0)
    assert player.shown_notes == [] and teacher.notes == ()


def test_a_live_game_keeps_its_notes_as_it_goes_on() -> None:
    w = NeedleWidget(game=Game(seed=3), perspective="teacher")
    w.add_note(0, "Before the first move.")
    for _ in range(3):
        w.apply(w.game.legal_actions()[0])
    w.replay.add_note(3, "After three moves.", perspective=0)
    assert [n.text for n in w.replay.notes] == ["Before the first move.", "After three moves."]
    assert [n["text"] for n in w.shown_notes] == ["Before the first move.", "After three moves."]
    w.perspective = 1
    assert [n["text"] for n in w.shown_notes] == ["Before the first move."]


def test_a_branch_has_notes_of_its_own_and_back_shows_the_replay_s_again() -> None:
    w = NeedleWidget.from_replay(noted(), perspective="teacher", step=2)
    w.branch(seat=0, opponent="hotseat")
    assert w.shown_notes == []
    w.back()
    assert len(w.shown_notes) == len(NOTES)


def test_twins_with_the_same_notes_give_identical_notes_state() -> None:
    """Notes are the teacher's words, the same for twin games; the notes state holds nothing else."""
    from test_whatif_widget import twin_pair

    game, twin = twin_pair(0, 4)
    states = []
    for g in (game, twin):
        w = NeedleWidget.from_replay(g.replay().copy(notes=NOTES), perspective=0)
        seen = []
        for k in range(len(g) + 1):
            w.step = k
            seen.append((json.dumps(w.shown_notes), json.dumps(w.offers["notes"])))
        states.append(seen)
    assert states[0] == states[1]


def test_spoiler_free_review_never_tells_of_a_note_past_the_step() -> None:
    """A note later in the replay cannot be counted, edited or removed from a screen cut before it."""
    texts = []
    for later in ((), (Note(10, "Later: the needle is found."),)):
        r = examples.load("found_early").copy(notes=[Note(0, "Start."), Note(3, "Three."), *later])
        w = NeedleWidget.from_replay(r, perspective="teacher", spoilers=False, step=5)
        seen = [synced(w)]
        for request in ({"kind": "note_edit", "index": 2, "text": "x", "perspective": None, "question": None},
                        {"kind": "note_remove", "index": 2}, {"kind": "note_remove", "index": 99}):
            send(w, **request)
            seen.append(synced(w))
        assert len(r.notes) == 2 + len(later)
        texts.append(seen)
    assert texts[0] == texts[1]
    assert "There is no note 2 on this screen: the notes shown are numbered 0 to 1" in texts[1][1]
