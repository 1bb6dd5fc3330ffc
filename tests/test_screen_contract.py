"""The screen contract (needle_widget.screen.contract) is the one list of synced traits: every widget, a
frame, a student's screen, a challenge's screen and the front end's shared.js come from it.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from test_widget import screen_traits_of

from needle_widget import Game, NeedleWidget, examples
from needle_widget.classroom.student import IDLE
from needle_widget.jupyter.board import BoardWidget
from needle_widget.jupyter.follow import FollowWidget
from needle_widget.jupyter.shared import shared_constants
from needle_widget.screen import contract
from needle_widget.screen.contract import BOARD, FOLLOW, SCREEN, STATE, Slot
from needle_widget.screen.features import FEATURES
from needle_widget.screen.frames import FIXED, Frames
from needle_widget.screen.synced import Synced

JS = Path(__file__).resolve().parents[1] / "js" / "src"


def test_every_widget_declares_exactly_the_contract_s_traits() -> None:
    assert set(screen_traits_of(NeedleWidget)) == set(SCREEN)
    assert set(screen_traits_of(FollowWidget)) == set(SCREEN) | set(FOLLOW)
    assert set(screen_traits_of(BoardWidget)) == set(BOARD)


def test_a_widget_s_traits_start_at_the_contract_s_empty_values() -> None:
    for name, slot in SCREEN.items():
        assert NeedleWidget.class_traits()[name].default() == slot.empty, name
        assert NeedleWidget.class_traits()[name].help == " ".join(slot.doc.split())


def test_the_state_a_desk_computes_names_the_contract_s_state() -> None:
    widget = NeedleWidget(game=Game(seed=1), perspective=0)
    assert set(Synced(widget._session).state()) == set(STATE)
    assert set(STATE) | {"error", "answer", "scale"} == set(SCREEN)


def test_a_frame_and_a_student_s_first_screen_hold_every_trait() -> None:
    frame = Frames(examples.load("found_early"), perspective=0).at(2)
    assert set(frame) == set(SCREEN) - {"error", "answer", "scale"} | set(FIXED)
    assert all(frame[name] == value for name, value in FIXED.items())
    assert set(IDLE) == set(SCREEN)


def test_fixed_slots_are_what_a_frame_cannot_ask_a_kernel_for() -> None:
    assert set(FIXED) == {"offers", "nearby", "playing", "speed", "busy", "cover", "paused", "branch_info",
                          "quiz_state", "practice_state", "worlds", "graph", "error", "answer", "scale"}


def test_a_feature_s_traits_are_slots_of_the_contract() -> None:
    for feature in FEATURES:
        for name, trait in feature.traits.items():
            assert SCREEN[name].empty == trait.empty and SCREEN[name].doc == trait.doc
            assert SCREEN[name].fixed == trait.fixed and SCREEN[name].view == trait.view


def test_shared_js_carries_the_contract() -> None:
    shared = shared_constants()
    assert shared["TRAITS"] == sorted(SCREEN) and shared["FOLLOW_TRAITS"] == sorted(FOLLOW)
    assert shared["BOARD_TRAITS"] == list(BOARD)
    assert shared["VIEW_NAMES"] == {"shown_notes": "notes", "quiz_state": "quiz", "practice_state": "practice"}
    assert json.loads(json.dumps(shared["DEFAULTS"])) == {n: s.empty for n, s in {**SCREEN, **FOLLOW}.items()}


def test_no_js_module_keeps_a_trait_list_of_its_own() -> None:
    """The lists live in shared.js only: no other module names six traits (as keys or quoted) within a few
    lines, as a hand-kept list or defaults object does (index.js's DEFAULTS and boardapp.js's list were).
    """
    names = {*SCREEN, *FOLLOW, *BOARD}
    for path in JS.glob("*.js"):
        if path.name == "shared.js":
            continue
        text = re.sub(r"//.*|/\*[\s\S]*?\*/", "", path.read_text(encoding="utf-8"))
        found = [(m.start(), m.group(1) or m.group(2)) for m in re.finditer(r'"(\w+)"|\b(\w+)\s*:', text)
                 if (m.group(1) or m.group(2)) in names]
        for i, (at, _) in enumerate(found):
            window = {name for where, name in found[i:] if where - at < 300}
            assert len(window) < 6, f"{path.name} lists {sorted(window)} near {text[at:at + 80]!r}"


def test_a_slot_of_an_unknown_kind_is_refused() -> None:
    with pytest.raises(ValueError, match="kind"):
        Slot("number", 0, "no such kind")
    assert contract.empty_state()["shown_notes"] is not contract.empty_state()["shown_notes"]


def test_a_replay_step_s_state_makes_the_shown_game_once(monkeypatch) -> None:
    """The features get the game shown (the branch's offer used to make it again: 4 games a step, not 3)."""
    from needle_widget.records.replay import Replay
    from needle_widget.screen.session import Session

    made = []
    game_at = Replay.game_at
    monkeypatch.setattr(Replay, "game_at", lambda self, k: made.append(k) or game_at(self, k))
    session = Session(replay=examples.load("found_early"), perspective="teacher")
    synced = Synced(session)
    session.go(5)
    made.clear()
    synced.state()
    assert sorted(made) == [4, 5, 6]  # the step shown, and its neighbours for the keys


def test_the_declared_traits_are_the_contract_s_as_generated() -> None:
    """The widgets' traits are class attributes an IDE and mypy see (jupyter/screentraits.py), generated from the
    contract: the committed file is what the generator writes now, and each trait is the contract's slot's.
    """
    from pathlib import Path

    from needle_widget.jupyter import screentraits
    from needle_widget.jupyter.traits import declared_module, slot_trait

    assert Path(screentraits.__file__).read_text(encoding="utf-8") == declared_module(), \
        "run `python -m needle_widget.jupyter.traits`"
    for cls, slots in ((screentraits.ScreenTraits, SCREEN), (screentraits.FollowTraits, {**SCREEN, **FOLLOW}),
                       (screentraits.BoardTraits, BOARD)):
        declared = cls.class_traits()
        assert set(declared) == set(slots)
        for name, slot in slots.items():
            got, made = declared[name], slot_trait(slot)
            assert type(got) is type(made) and got.default_value == made.default_value, name
            assert (got.allow_none, got.help, got.metadata["sync"]) == (made.allow_none, made.help, True), name
