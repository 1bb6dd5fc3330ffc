"""Lesson 01 as a marimo notebook (notebooks/marimo/01_play.py): its cells run headless, the game follows
the controls, the cell reading the game follows the moves, and `marimo check` finds nothing.

The real browser (marimo edit and marimo run, a whole turn by clicking) is tests/browser/test_marimo.py.
"""

from __future__ import annotations

import json
import os
import runpy
import shutil
import subprocess
import sys
from pathlib import Path
from types import SimpleNamespace

import pytest

marimo = pytest.importorskip("marimo")  # the [marimo] extra (in [dev], so CI has it)

NOTEBOOK = Path(__file__).resolve().parents[1] / "notebooks" / "marimo" / "01_play.py"
# No network: the marimo command would otherwise ask PyPI for a newer release.
CLI_ENV = {**os.environ, "MARIMO_SKIP_UPDATE_CHECK": "1"}


def control(value):
    """Stands in for a marimo dropdown: the cells read only its `value`."""
    return SimpleNamespace(value=value)


def run_app(**controls):
    """Run every cell as `app.run()` does (marimo's script mode), the controls cell overridden if given."""
    app = runpy.run_path(str(NOTEBOOK), run_name="lesson01")["app"]
    _, defs = app.run(defs=controls or None)
    return defs


def marimo_cli(*args: str, cwd: Path) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "marimo", *args], capture_output=True, text=True, timeout=120,
                          cwd=cwd, env=CLI_ENV)


def test_the_lesson_runs_and_deals_the_class_deal_by_default() -> None:
    from needle_widget import NeedleWidget

    defs = run_app()
    w = defs["w"]
    assert isinstance(w, marimo.ui.anywidget) and isinstance(w.widget, NeedleWidget)
    assert w.widget.mode == "play" and w.widget.screen == 0 and w.widget.perspective == 0
    assert w.widget.seats == ["You", "greedy"]
    assert w.widget.deals == (1511,)
    assert w.game is w.widget.game  # mo.ui.anywidget hands attributes on to the widget
    assert w.game.phase == "needle" and w.game.to_move == 0
    # the lesson's moments: both sets still to lay (the button not pressed), the needle found
    assert defs["set_game"].scores == (0, 0) and defs["set_game"].phase == "sets"
    assert defs["found_widget"].widget.perspective == "teacher"
    assert defs["found_widget"].game.result.describe() == "Player 2 found their needle 5♦. Player 1 wins, 2-0."
    assert defs["hotseat"].widget.mode == "hotseat"


@pytest.mark.parametrize(("seat", "bot", "label"), [(1, "RandomBot", "random"), (0, "OddsBot", "odds")])
def test_the_seat_the_bot_and_the_deal_follow_the_controls(seat: int, bot: str, label: str) -> None:
    defs = run_app(seat=control(seat), opponent=control(bot), deal=control("new"))
    w = defs["w"].widget
    assert w.screen == seat and w.perspective == seat
    assert w.seats[seat] == "You" and w.seats[1 - seat] == label
    assert len(w.deals) == 1 and w.deals[0] != 1511  # a new deal, from a fresh seed


def test_the_cell_reading_the_game_is_told_of_every_move() -> None:
    defs = run_app()
    w, get_moves = defs["w"], defs["get_moves"]
    w.widget.apply(w.game.legal_actions()[0])  # the student's needle; GreedyBot picks its own at once
    assert w.widget.steps == 2 and get_moves() == 2
    assert w.game.phase == "draw" and w.game.to_move == 0


def test_marimo_check_finds_nothing(tmp_path: Path) -> None:
    done = marimo_cli("check", "--strict", str(NOTEBOOK), cwd=tmp_path)
    assert done.returncode == 0, done.stdout + done.stderr


@pytest.mark.slow
def test_every_cell_runs_in_marimos_own_kernel(tmp_path: Path) -> None:
    # `marimo export html` runs the notebook in a marimo kernel and exits with 1 if any cell fails. On a copy:
    # marimo keeps a session snapshot in __marimo__/ next to the notebook.
    copy = tmp_path / NOTEBOOK.name
    shutil.copy(NOTEBOOK, copy)
    done = marimo_cli("export", "html", str(copy), "-o", str(tmp_path / "01_play.html"), cwd=tmp_path)
    assert done.returncode == 0, done.stdout + done.stderr
    page = (tmp_path / "01_play.html").read_text()
    for shown in ["Player 2 found their needle 5♦", "You stole 2♣ from Player 2", "turn 0 · needle"]:
        assert json.dumps(shown)[1:-1] in page, shown  # the outputs are stored as JSON, non-ASCII escaped
