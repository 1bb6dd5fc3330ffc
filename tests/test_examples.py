"""The example replays shipped as package data: each loads (and so is checked) and shows its point."""

from __future__ import annotations

import pytest

from needle_widget import Reason, actions, examples


def test_found_early() -> None:
    replay = examples.load("found_early")
    assert replay.result.reason is Reason.FOUND and replay.result.turn <= 4
    assert replay.result.winner != replay.result.needle_owner, "the finder was behind: finding ended it, the lead won"


def test_discarded_by_opponent() -> None:
    replay = examples.load("discarded_by_opponent")
    last = replay.final_game.history[-1]
    assert replay.result.reason is Reason.DISCARDED
    assert type(last.action) is actions.Discard and last.player != replay.result.needle_owner


def test_long_with_reshuffle() -> None:
    game = examples.load("long_with_reshuffle").final_game
    assert any(e.reshuffles for e in game.history) and game.turn >= 15


def test_unknown_example() -> None:
    with pytest.raises(ValueError, match="No example replay 'chess'; there are detective, discarded_by_opponent"):
        examples.load("chess")


def test_the_detective_replay_carries_the_teacher_s_notes_and_every_kind_of_question() -> None:
    from needle_widget.records.notes import QUESTION_KINDS

    replay = examples.load("detective")
    kinds = {n.question.kind for n in replay.notes_for(0) if n.question}
    # every kind but "your move" (issue 31), which notebook 09 and tests/test_quiz_your_move.py ask from notes
    assert kinds == set(QUESTION_KINDS) - {"your_move"}
    assert any(n.perspective == 0 for n in replay.notes)
    assert all(n.perspective in (None, 1) for n in replay.notes_for(1))
