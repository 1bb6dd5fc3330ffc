"""Notes on replays (needle-replay v2): values, the file format, v1 compatibility, who reads which note."""

from __future__ import annotations

import gc
import json
import random
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from needle_widget import Game, examples
from needle_widget.engine.errors import NeedleError, PerspectiveError, ReplayError
from needle_widget.records.notes import (
    MAX_PROMPT_LENGTH,
    MAX_TEXT_LENGTH,
    QUESTION_KINDS,
    Note,
    NoteError,
    NoteNotFound,
    NotePerspectiveError,
    NoteQuestionError,
    NoteStepError,
    NoteTextError,
    Question,
)
from needle_widget.records.replay import FORMAT, MAX_NOTES, READS, VERSION, Replay

VIEWERS = (0, 1, "spectator", "teacher")
FOR = (None, 0, 1, "spectator", "teacher")


def random_replay(seed: int, length: int | None = None) -> Replay:
    """A seeded game of random legal actions, to its end or `length` actions."""
    rng = random.Random(seed)
    game = Game(seed=seed)
    while game.phase != "over" and (length is None or len(game) < length):
        game.apply(rng.choice(game.legal_actions()))
    return game.replay()


GAMES = [random_replay(seed) for seed in range(4)] + [random_replay(9, length=5)]


def v1_text(replay: Replay) -> str:
    """What a version 1 writer made of `replay` (the writer before notes, kept here verbatim)."""
    data = replay.to_dict()
    assert "notes" not in data
    data["version"] = 1
    steps = data.pop("actions")
    head = json.dumps(data, ensure_ascii=False)[:-1]
    lines = ",\n  ".join(json.dumps(s, ensure_ascii=False) for s in steps)
    return f'{head}, "actions": [\n  {lines}\n]}}\n' if steps else f'{head}, "actions": []}}\n'


def with_every_kind(replay: Replay) -> Replay:
    """`replay` with a note for everyone, for each perspective, with and without questions, and unusual text."""
    end = len(replay)
    replay.add_note(0, "Watch the discards.")
    replay.add_note(end, "How did it end?", question="winner")
    replay.add_note(min(3, end), "Your needle is safe so far.", perspective=0)
    replay.add_note(min(3, end), "Where is Player 1's needle?", perspective=1,
                    question={"kind": "needle", "prompt": "Pick up to three cards"})
    replay.add_note(end // 2, "Who is ahead?", perspective="spectator", question=Question("winner"))
    replay.add_note(end // 2, "Ask: pile or steal?\nThen wait.", perspective="teacher", question="pile_or_steal")
    replay.add_note(end, "Ünïcode ♠ \"quotes\" \\ and a tab\t", perspective=0, question="next_draw")
    return replay


# ---- the format: round trips, v1, v2 without notes ------------------------------------------


@pytest.mark.parametrize("k", range(len(GAMES)))
def test_notes_of_every_kind_round_trip(k: int, tmp_path: Path) -> None:
    replay = with_every_kind(GAMES[k].copy())
    text = replay.to_json()
    for again in (Replay.from_json(text), Replay.from_json(replay.to_json(indent=2)),
                  Replay.from_dict(json.loads(json.dumps(replay.to_dict())))):
        assert again.notes == replay.notes
        assert again.to_json() == text
        assert again.final_game.snapshot() == replay.final_game.snapshot()
    path = tmp_path / "notes.json"
    replay.save(path)
    assert path.read_text(encoding="utf-8") == text
    loaded = Replay.load(path)
    assert loaded.notes == replay.notes and len(loaded.notes) == 7
    data = json.loads(text)
    assert data["version"] == 2 and VERSION == 3 and data["format"] == FORMAT  # version 3 only with variations
    assert list(data)[-1] == "notes" and data["notes"] == [n.to_dict() for n in replay.notes]
    assert text.count("\n") == len(replay) + len(replay.notes) + 3  # one action and one note a line


def test_the_note_lines_are_diff_friendly() -> None:
    replay = GAMES[0].copy()
    replay.add_note(1, "first")
    replay.add_note(2, "second", perspective=1)
    lines = replay.to_json().splitlines()
    assert lines[-4:] == [
        '], "notes": [', '  {"step": 1, "text": "first"},', '  {"step": 2, "text": "second", "perspective": 1}', "]}",
    ]


@pytest.mark.parametrize("name", sorted(n for n in examples.EXAMPLES if n != "detective"))
def test_bundled_version_1_files_load_and_round_trip(name: str, tmp_path: Path) -> None:
    text = (examples.FOLDER / f"{name}.json").read_text(encoding="utf-8")
    assert json.loads(text)["version"] == 1 and "notes" not in json.loads(text)
    for replay in (Replay.from_json(text), Replay.load(examples.FOLDER / f"{name}.json"), examples.load(name)):
        assert replay.notes == ()
        assert replay.to_json() == text.replace('"version": 1,', '"version": 2,', 1)
    replay = examples.load(name)
    replay.add_note(len(replay), "The end.")
    replay.save(tmp_path / "a.json")
    assert Replay.load(tmp_path / "a.json").notes == replay.notes


@pytest.mark.parametrize("k", range(len(GAMES)))
def test_version_2_without_notes_is_the_version_1_text_but_for_the_version(k: int) -> None:
    replay = GAMES[k]
    old = v1_text(replay)
    new = replay.to_json()
    assert new.encode() == old.replace('"version": 1,', '"version": 2,', 1).encode()
    assert new.replace('"version": 2,', '"version": 1,', 1) == old
    loaded = Replay.from_json(old)  # a version 1 text loads, and writes the same bytes as version 2
    assert loaded.to_json() == new and loaded.notes == ()
    indented = json.loads(replay.to_json(indent=2))
    assert indented == {**json.loads(old), "version": 2}
    emptied = with_every_kind(replay.copy())
    emptied.replace_notes(())
    assert emptied.to_json() == new
    assert Replay.from_json(new.replace('"actions"', '"notes": [], "actions"', 1)).to_json() == new


def test_versions_other_than_1_2_and_3_are_refused_clearly() -> None:
    data = GAMES[0].to_dict()
    assert READS == (1, 2, 3)
    for version, message in [
        (4, r"Unsupported replay version 4; this needle_widget reads versions 1, 2 and 3 \(written by a newer"),
        (99, "Unsupported replay version 99"), (0, r"version 0; this needle_widget reads versions 1, 2 and 3$"),
        ("2", "Unsupported replay version '2'"), (2.0, "Unsupported replay version 2.0"),
        (True, "Unsupported replay version True"), (None, "Unsupported replay version None"),
    ]:
        with pytest.raises(ReplayError, match=message):
            Replay.from_dict({**data, "version": version})
    with pytest.raises(ReplayError, match=r"unknown notes \(notes need version 2\)"):
        Replay.from_dict({**data, "version": 1, "notes": [{"step": 0, "text": "hi"}]})
    assert Replay.from_dict({**data, "version": 1}).to_dict() == data


def test_file_notes_are_read_in_step_order_keeping_the_order_within_a_step() -> None:
    data = GAMES[0].to_dict()
    data["notes"] = [{"step": 5, "text": "b"}, {"step": 2, "text": "a"}, {"step": 5, "text": "c"},
                     {"step": 0, "text": "z", "perspective": None, "question": None}]
    replay = Replay.from_dict(data)
    assert [(n.step, n.text) for n in replay.notes] == [(0, "z"), (2, "a"), (5, "b"), (5, "c")]
    assert replay.notes[0] == Note(0, "z")
    assert replay.to_dict()["notes"][0] == {"step": 0, "text": "z"}


# ---- bad notes ---------------------------------------------------------------------------


LONG = "x" * (MAX_TEXT_LENGTH + 1)


@pytest.mark.parametrize(
    "note, error, message",
    [
        ({"step": -1, "text": "a"}, NoteStepError, "note step -1 is not an integer >= 0"),
        ({"step": "3", "text": "a"}, NoteStepError, "note step '3' is not"),
        ({"step": True, "text": "a"}, NoteStepError, "note step True is not"),
        ({"step": 1.0, "text": "a"}, NoteStepError, "note step 1.0 is not"),
        ({"step": None, "text": "a"}, NoteStepError, "note step None"),
        ({"step": 10**6, "text": "a"}, NoteStepError, r"note step 1000000 is out of range: .* 0\.\."),
        ({"text": "a"}, NoteStepError, "the note has no step"),
        ({"step": 0}, NoteTextError, "the note has no text"),
        ({"step": 0, "text": ""}, NoteTextError, "note text '' is empty"),
        ({"step": 0, "text": " \n\t "}, NoteTextError, r"note text ' \\n\\t ' is empty"),
        ({"step": 0, "text": 7}, NoteTextError, "note text must be text, not 7"),
        ({"step": 0, "text": ["a"]}, NoteTextError, r"note text must be text, not \['a'\]"),
        ({"step": 0, "text": LONG}, NoteTextError, f"note text 'xxx.*' is too long: {len(LONG):,} characters"),
        ({"step": 0, "text": "a\ud800b"}, NoteTextError, r"note text 'a\\ud800b' cannot be saved as UTF-8"),
        ({"step": 0, "text": "a", "perspective": 2}, NotePerspectiveError, "note perspective 2 is not 0, 1"),
        ({"step": 0, "text": "a", "perspective": "Teacher"}, NotePerspectiveError, "note perspective 'Teacher'"),
        ({"step": 0, "text": "a", "perspective": True}, NotePerspectiveError, "note perspective True"),
        ({"step": 0, "text": "a", "perspective": [0]}, NotePerspectiveError, r"note perspective \[0\]"),
        ({"step": 0, "text": "a", "perspective": "shared"}, NotePerspectiveError, "note perspective 'shared'"),
        ({"step": 0, "text": "a", "question": "needle"}, NoteQuestionError, "question must be an object .*'needle'"),
        ({"step": 0, "text": "a", "question": {}}, NoteQuestionError, "question {} has no kind"),
        ({"step": 0, "text": "a", "question": {"kind": "guess"}}, NoteQuestionError,
         "question kind 'guess' is not one of needle, next_draw, winner, pile_or_steal"),
        ({"step": 0, "text": "a", "question": {"kind": 1}}, NoteQuestionError, "question kind 1"),
        ({"step": 0, "text": "a", "question": {"kind": "needle", "seat": 0}}, NoteQuestionError,
         "question has unknown fields 'seat'"),
        ({"step": 0, "text": "a", "question": {"kind": "needle", "prompt": ""}}, NoteQuestionError,
         "question prompt '' is empty"),
        ({"step": 0, "text": "a", "question": {"kind": "winner", "prompt": "y" * (MAX_PROMPT_LENGTH + 1)}},
         NoteQuestionError, "question prompt 'yyy.*' is too long"),
        ({"step": 0, "text": "a", "author": "me"}, NoteError, "unknown fields 'author'; a note has step, text"),
        ("hello", NoteError, "a note must be an object with a step and a text, not 'hello'"),
        (None, NoteError, "a note must be an object"),
    ],
)
def test_bad_notes_are_refused_on_load_naming_the_note(note: Any, error: type, message: str) -> None:
    data = GAMES[0].to_dict()
    data["notes"] = [{"step": 0, "text": "fine"}, {"step": 1, "text": "fine too"}, note]
    with pytest.raises(error, match=f"^note 2: {message}") as raised:
        Replay.from_json(json.dumps(data))
    assert isinstance(raised.value, ReplayError) and isinstance(raised.value, NeedleError)
    with pytest.raises(error, match=f"^note 0: {message}"):  # the same checks guard Python's own notes
        GAMES[0].copy(notes=[note])


def test_a_bad_note_in_a_file_names_the_file(tmp_path: Path) -> None:
    data = GAMES[0].to_dict()
    data["notes"] = [{"step": 0, "text": "ok", "perspective": "everyone"}]
    (tmp_path / "bad.json").write_text(json.dumps(data))
    with pytest.raises(NotePerspectiveError, match=r"bad.json: note 0: note perspective 'everyone'"):
        Replay.load(tmp_path / "bad.json")


def test_the_notes_field_and_the_number_of_notes_are_checked() -> None:
    data = GAMES[0].to_dict()
    for notes in ({}, "notes", 3, None):
        with pytest.raises(ReplayError, match="notes: expected a list"):
            Replay.from_dict({**data, "notes": notes})
    with pytest.raises(NoteError, match=f"more than a replay keeps \\({MAX_NOTES}\\)"):
        Replay.from_dict({**data, "notes": [{"step": 0, "text": "a"}] * (MAX_NOTES + 1)})
    replay = Replay.from_dict({**data, "notes": [{"step": 0, "text": "a"}] * MAX_NOTES})
    with pytest.raises(NoteError, match="already has 5000 notes"):
        replay.add_note(0, "one more")
    assert len(replay.notes) == MAX_NOTES


def test_notes_past_the_end_of_the_replay_are_refused() -> None:
    replay = GAMES[4].copy()
    end = len(replay)
    assert replay.add_note(end, "the last step is fine").step == end
    for step in (end + 1, end + 100):
        with pytest.raises(NoteStepError, match=f"note step {step} is out of range: this replay's steps are 0..{end}"):
            replay.add_note(step, "too far")
        with pytest.raises(NoteStepError, match=f"^note 1: note step {step} is out of range"):
            Replay.from_dict({**replay.to_dict(), "notes": [{"step": 0, "text": "a"}, {"step": step, "text": "b"}]})
        with pytest.raises(NoteStepError, match="out of range"):
            replay.edit_note(0, step=step)
        with pytest.raises(NoteStepError, match="^note 0: note step"):
            replay.copy(notes=[Note(step, "b")])
        with pytest.raises(NoteStepError, match="out of range"):
            replay.notes_for("teacher", step)
    assert [n.step for n in replay.notes] == [end]
    with pytest.raises(NoteStepError, match="out of range"):
        Replay.from_game(Game(seed=1), notes=[Note(1, "no action yet")])
    assert Replay.from_game(Game(seed=1), notes=[Note(0, "dealt")]).notes == (Note(0, "dealt"),)


# ---- who reads which note -----------------------------------------------------------------


def test_each_perspective_reads_its_own_notes_and_those_for_everyone() -> None:
    replay = GAMES[0].copy()
    notes = {who: replay.add_note(3, f"for {who}", perspective=who) for who in FOR}
    expected = {
        0: [None, 0], 1: [None, 1], "spectator": [None, "spectator"], "teacher": [None, 0, 1, "spectator", "teacher"],
    }
    for viewer in VIEWERS:
        assert replay.notes_for(viewer) == tuple(notes[who] for who in expected[viewer])
        for who in FOR:
            assert notes[who].visible_to(viewer) == (who in expected[viewer])
    assert replay.notes_for("teacher") == replay.notes


def test_a_player_never_reads_a_note_for_the_other_player() -> None:
    replay = with_every_kind(GAMES[1].copy())
    for step in range(len(replay) + 1):
        replay.add_note(step, f"secret for Player 2 at {step}", perspective=1)
        replay.add_note(step, f"for the spectator at {step}", perspective="spectator")
    for player in (0, 1):
        seen = replay.notes_for(player) + tuple(
            n for k in range(len(replay) + 1) for n in replay.notes_for(player, k)
        ) + replay.notes_for(player, until=len(replay) // 2)
        assert seen and all(n.perspective in (None, player) for n in seen)
        assert not any("secret" in n.text for n in seen) or player == 1
    assert all(n.perspective in (None, "spectator") for n in replay.notes_for("spectator"))
    given = replay.copy(notes=replay.notes_for(0))  # the file to hand Player 1
    assert all(n.perspective in (None, 0) for n in Replay.from_json(given.to_json()).notes)
    assert '"perspective": 1' not in given.to_json() and "secret" not in given.to_json()


def test_notes_for_one_step_or_up_to_a_step() -> None:
    replay = GAMES[0].copy()
    for step, who in [(0, None), (2, 1), (2, None), (5, 0), (9, "teacher"), (9, 0)]:
        replay.add_note(step, f"{step} {who}", perspective=who)
    assert [n.text for n in replay.notes_for(0, 2)] == ["2 None"]
    assert [n.text for n in replay.notes_for(1, 2)] == ["2 1", "2 None"]
    assert replay.notes_for(0, 3) == ()
    assert [n.text for n in replay.notes_for(0, until=5)] == ["0 None", "2 None", "5 0"]
    assert [n.text for n in replay.notes_for("teacher", until=4)] == ["0 None", "2 1", "2 None"]
    assert replay.notes_for(0, 9, until=8) == ()
    assert replay.note_steps(0) == (0, 2, 5, 9) and replay.note_steps("spectator") == (0, 2)
    assert replay.note_steps("teacher", until=8) == (0, 2, 5)
    for bad in (None, 2, "Teacher", True, "shared"):
        with pytest.raises(PerspectiveError, match="Unknown perspective"):
            replay.notes_for(bad)
    for bad_step in (-1, "2", True):
        with pytest.raises(NoteStepError):
            replay.notes_for(0, bad_step)
        with pytest.raises(NoteStepError):
            replay.notes_for(0, until=bad_step)


# ---- adding, editing, removing ------------------------------------------------------------


def test_add_edit_and_remove() -> None:
    replay = GAMES[0].copy()
    start = replay.notes_revision
    a = replay.add_note(4, "a")
    b = replay.add_note(1, "b", perspective=0)
    c = replay.add_note(4, "c", question="winner")
    assert replay.notes == (b, a, c) and c.question == Question("winner")
    assert isinstance(replay.notes, tuple)
    a2 = replay.edit_note(1, text="a, edited")  # in place: still before c at step 4
    assert replay.notes == (b, a2, c) and a2 == Note(4, "a, edited")
    c2 = replay.edit_note(c, perspective="spectator", question=None)
    assert c2 == Note(4, "c", "spectator") and replay.notes == (b, a2, c2)
    b2 = replay.edit_note(0, step=4)  # a new step: after the notes already there
    assert replay.notes == (a2, c2, b2) and b2.perspective == 0
    b3 = replay.edit_note(-1, step=0, perspective=None)
    assert replay.notes == (b3, a2, c2) and b3 == Note(0, "b")
    assert replay.remove_note(a2) == a2 and replay.notes == (b3, c2)
    assert replay.remove_note(-1) == c2 and replay.notes == (b3,)
    assert replay.notes_revision == start + 9
    before = replay.notes
    for bad in (1, -2, Note(3, "never added"), "0", None, True, 0.0):
        with pytest.raises(NoteNotFound):
            replay.remove_note(bad)  # type: ignore[arg-type]
        with pytest.raises(NoteNotFound):
            replay.edit_note(bad, text="x")  # type: ignore[arg-type]
    for change in ({"text": ""}, {"perspective": 3}, {"question": "what"}, {"step": -1}, {"step": len(replay) + 1}):
        with pytest.raises(NoteError):
            replay.edit_note(0, **change)
    with pytest.raises(NoteTextError):
        replay.add_note(0, "   ")
    assert replay.notes == before and replay.notes_revision == start + 9


def test_replace_notes_is_all_or_nothing() -> None:
    replay = GAMES[2].copy()
    replay.add_note(0, "keep me")
    before = replay.notes
    with pytest.raises(NotePerspectiveError, match="^note 1: "):
        replay.replace_notes([Note(1, "fine"), {"step": 2, "text": "bad", "perspective": "class"}])
    with pytest.raises(NoteError, match="must be a list of notes"):
        replay.replace_notes(Note(1, "one note, not a list"))  # type: ignore[arg-type]
    assert replay.notes == before
    replay.replace_notes([{"step": 3, "text": "b"}, Note(1, "a")])
    assert replay.notes == (Note(1, "a"), Note(3, "b"))
    replay.replace_notes(())
    assert replay.notes == () and "notes" not in replay.to_dict()


def test_notes_are_values_and_questions_have_default_words() -> None:
    note = Note(2, "Look", 1, {"kind": "needle"})
    assert note.question == Question("needle") and hash(note) == hash(Note(2, "Look", 1, Question("needle")))
    with pytest.raises(AttributeError):
        note.text = "changed"  # type: ignore[misc]
    assert Question("needle").text(0) == "Which card is Player 2's needle?"
    assert Question("needle").text(1) == "Which card is Player 1's needle?"
    assert Question("needle").text("spectator") == "Which card is the opponent's needle?"
    assert Question("winner", "Who now?").text(0) == "Who now?"
    assert all(Question(kind).text() for kind in QUESTION_KINDS)
    assert set(QUESTION_KINDS) == {"needle", "next_draw", "winner", "pile_or_steal", "your_move"}
    for bad in (3, ["needle"], ("needle",)):
        with pytest.raises(NoteQuestionError, match="question must be None, a kind, a dict or a Question"):
            Note(0, "a", question=bad)
    assert issubclass(NotePerspectiveError, PerspectiveError)
    assert Note(0, "x" * MAX_TEXT_LENGTH).text == "x" * MAX_TEXT_LENGTH


def test_copy_shares_the_game_but_not_the_notes() -> None:
    replay = with_every_kind(GAMES[3].copy())
    other = replay.copy()
    assert other.notes == replay.notes and other.steps is replay.steps
    other.add_note(0, "only in the copy")
    assert len(other.notes) == len(replay.notes) + 1
    assert other.game_at(len(other) // 2).snapshot() == replay.game_at(len(replay) // 2).snapshot()
    assert replay.copy(notes=()).to_json() == GAMES[3].to_json()


def test_observers_hear_every_change_and_can_stop() -> None:
    replay = GAMES[0].copy()
    heard: list[tuple[int, int]] = []

    class View:
        def changed(self, r: Replay) -> None:
            heard.append((r.notes_revision, len(r.notes)))

    view = View()
    stop = replay.observe_notes(view.changed)
    plain: list[int] = []
    stop_plain = replay.observe_notes(lambda r: plain.append(len(r.notes)))
    replay.add_note(1, "a")
    replay.edit_note(0, text="b")
    replay.replace_notes([Note(0, "c"), Note(1, "d")])
    replay.remove_note(0)
    assert heard == [(1, 1), (2, 1), (3, 2), (4, 1)] and plain == [1, 1, 2, 1]
    stop()
    replay.add_note(2, "e")
    assert len(heard) == 4 and plain[-1] == 2
    stop_plain()
    view2 = View()
    replay.observe_notes(view2.changed)
    del view2  # a bound method is held weakly: a view that is gone is not kept alive
    gc.collect()
    replay.add_note(2, "f")
    assert len(heard) == 4 and len(plain) == 5 and not replay._observers
    with pytest.raises(TypeError):
        replay.observe_notes("not callable")  # type: ignore[arg-type]
    assert not replay.copy()._observers


# ---- properties over seeded games -----------------------------------------------------------


NOTE_TEXT = st.text(st.characters(blacklist_categories=("Cs",)), min_size=1, max_size=30).filter(str.strip)
QUESTIONS = st.one_of(st.none(), st.sampled_from(sorted(QUESTION_KINDS)),
                      st.builds(Question, st.sampled_from(sorted(QUESTION_KINDS)), st.one_of(st.none(), NOTE_TEXT)))


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(0, len(GAMES) - 1), st.data())
def test_any_notes_round_trip_and_reach_only_their_readers(k: int, data: st.DataObject) -> None:
    replay = GAMES[k].copy()
    specs = data.draw(st.lists(st.tuples(st.integers(0, len(replay)), NOTE_TEXT, st.sampled_from(FOR), QUESTIONS),
                               max_size=12))
    for step, text, who, question in specs:
        replay.add_note(step, text, perspective=who, question=question)
    steps = [n.step for n in replay.notes]
    assert steps == sorted(steps) and len(steps) == len(specs)
    again = Replay.from_json(replay.to_json())
    assert again.notes == replay.notes and again.to_json() == replay.to_json()
    assert Replay.from_json(replay.to_json(indent=1)).notes == replay.notes
    for viewer in VIEWERS:
        seen = again.notes_for(viewer)
        assert set(seen) == {n for n in again.notes if n.perspective in (None, viewer) or viewer == "teacher"}
        if viewer in (0, 1):
            assert all(n.perspective in (None, viewer) for n in seen)
    if not specs:
        assert replay.to_json() == v1_text(replay).replace('"version": 1,', '"version": 2,', 1)
    else:
        assert replay.copy(notes=()).to_json() == v1_text(GAMES[k]).replace('"version": 1,', '"version": 2,', 1)
