"""Lesson 07's "Your own game" (issue 29, "What a teacher tripped on" 4).

- Run All leaves the round to the student: the review cell plays nothing and says what to do;
- once a hotseat round is over the cover goes, so the review is on the screen (a real NeedleWidget.hotseat,
  the game played to its end from Python);
- with `finish_for_me = True` GreedyBot plays the rest, and the review says which steps were its.

The notebook's own cells are run here (the widget cell and the review cell, found by their text).
"""

from __future__ import annotations

import contextlib
import io
import json
import re
from pathlib import Path
from typing import Any

import pytest
from test_widget import send, state

from needle_widget import Game, NeedleWidget, bots
from needle_widget.review import review
from needle_widget.screen.session import Session

NOTEBOOK = Path(__file__).resolve().parents[1] / "notebooks" / "07_skill_or_luck.ipynb"
WORLDS = 6
ALL = [0, 1, "spectator", "teacher"]


def _cell(marker: str) -> str:
    cells = [c for c in json.loads(NOTEBOOK.read_text())["cells"] if c["cell_type"] == "code"]
    found = [src for c in cells if marker in (src := "".join(c["source"]))]
    assert len(found) == 1, f"one code cell of notebook 07 holds {marker!r}"
    return found[0]


def _review_cell(finish_for_me: bool = False) -> str:
    source = _cell("finish_for_me").replace("worlds=24", f"worlds={WORLDS}")
    assert source.count("finish_for_me = False") == 1, "the cell offers the opt-in as one line"
    return source.replace("finish_for_me = False", f"finish_for_me = {finish_for_me}")


def _run(source: str, space: dict[str, Any]) -> str:
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        exec(compile(source, "notebook 07", "exec"), space)  # noqa: S102 - the lesson's own cell
    return out.getvalue()


@pytest.fixture
def lesson() -> dict[str, Any]:
    """The lesson's namespace after its widget cell (`w`, a hotseat widget at step 0)."""
    space: dict[str, Any] = {"NeedleWidget": NeedleWidget, "bots": bots, "review": review}
    _run(_cell("NeedleWidget.hotseat"), space)
    assert space["w"].mode == "hotseat" and len(space["w"].game) == 0
    return space


def _play(widget: NeedleWidget, until: int | None = None) -> None:
    """The students' moves, made from Python (GreedyBot chooses them): to the end, or `until` actions."""
    chooser = bots.GreedyBot(seed=3)
    game = widget.game
    while game.phase != "over" and (until is None or len(game) < until):
        legal = game.legal_actions()
        widget.apply(chooser.choose(game.player_view(game.to_move), legal) if len(legal) > 1 else legal[0])


def _review_shown(widget: NeedleWidget) -> None:
    synced = state(widget)
    assert synced["cover"] is None, "the round is over: no cover hides the review"
    assert synced["perspectives"] == ALL and synced["hidden_reason"] is None
    assert synced["review"]["status"] == "ready" and sorted(synced["review"]["seats"]) == [0, 1]
    assert sorted(r["seat"] for r in synced["review"]["reviews"]) == [0, 1]
    assert all(r["complete"] for r in synced["review"]["reviews"])


# ---- Run All ---------------------------------------------------------------------------------


def test_run_all_leaves_the_round_to_the_student(lesson: dict[str, Any]) -> None:
    w = lesson["w"]
    out = _run(_review_cell(), lesson)
    assert len(w.game) == 0 and w.game.phase != "over", "the cell played nothing for the student"
    assert out == ("Your round is at step 0 of a live game: play on in the widget above, then run this cell "
                   "again (or set finish_for_me = True to let GreedyBot play the rest for you).\n")
    assert w.review is None and w.cover == {"player": 0, "text": "Pass to Player 1"}


def test_a_round_stopped_early_is_not_finished_silently(lesson: dict[str, Any]) -> None:
    w = lesson["w"]
    _play(w, until=12)
    out = _run(_review_cell(), lesson)
    assert len(w.game) == 12 and out.startswith("Your round is at step 12 of a live game: play on in the widget")


def test_a_round_played_to_the_end_is_reviewed_as_the_students_own(lesson: dict[str, Any]) -> None:
    w = lesson["w"]
    _play(w)
    end = len(w.game)
    out = _run(_review_cell(), lesson)
    assert len(w.game) == end and "played by GreedyBot" not in out and w.notes == ()
    lines = out.splitlines()
    assert [line.split(":")[0] for line in lines[::2]] == ["Player 1", "Player 2"]
    for seat, line in zip((0, 1), lines[1::2], strict=True):  # each summary followed by its verdict, about the seat
        assert line == "  " + review(w.game.replay(), seat=seat, worlds=WORLDS).verdict(f"Player {seat + 1}")
    _review_shown(w)


# ---- finish_for_me: GreedyBot's steps are named -------------------------------------------------


def test_finish_for_me_names_the_steps_greedybot_played(lesson: dict[str, Any]) -> None:
    w = lesson["w"]
    _play(w, until=12)
    out = _run(_review_cell(finish_for_me=True), lesson)
    game = w.game
    end = len(game)
    assert game.phase == "over" and end > 12
    said = f"Steps 13-{end} were played by GreedyBot for you"
    assert said in out
    for seat in (0, 1):
        mine = review(game.replay(), seat=seat, worlds=WORLDS)
        its = [e.step + 1 for e in mine.entries if e.step >= 12]
        assert its, "GreedyBot made some of each seat's decisions"
        line = next(line for line in out.splitlines() if line.startswith(f"  Player {seat + 1}'s decisions"))
        assert re.findall(r"\d+", line.split(":", 1)[1]) == [str(k) for k in its]
    assert [(n.step, n.text, n.perspective) for n in w.notes] == [(12, f"{said}.", None)]
    _review_shown(w)

    again = _run(_review_cell(), lesson)  # run once more (finish_for_me back to False): still said
    assert said in again and len(w.notes) == 1


# ---- the hotseat cover after the round -------------------------------------------------------------


@pytest.mark.parametrize("how", ["widget.apply", "game.apply", "browser"])
def test_the_cover_goes_when_a_hotseat_round_ends(how: str) -> None:
    w = NeedleWidget.hotseat(seed=2718281828)
    chooser = bots.GreedyBot(seed=1)
    game = w.game
    while game.phase != "over":
        legal = game.legal_actions()
        action = chooser.choose(game.player_view(game.to_move), legal) if len(legal) > 1 else legal[0]
        if how == "browser":
            if w.cover is not None:
                send(w, kind="reveal")
            send(w, kind="act", action=action.to_dict())
            assert w.error is None
        elif how == "game.apply":
            game.apply(action)
        else:
            w.apply(action)
    w.show_review(worlds=WORLDS)
    _review_shown(w)


def test_without_reveal_at_end_the_finished_hotseat_shows_the_spectator_and_no_cover() -> None:
    game = Game(seed=2718281828)
    s = Session(game, mode="hotseat", reveal_at_end=False)
    chooser = bots.GreedyBot(seed=1)
    while game.phase != "over":
        legal = game.legal_actions()
        s.apply(chooser.choose(game.player_view(game.to_move), legal) if len(legal) > 1 else legal[0])
    assert s.cover is None and s.perspective == "spectator" and s.entitled() == ("spectator",)
