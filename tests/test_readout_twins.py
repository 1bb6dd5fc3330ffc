"""The table read aloud (js/src/readout.js, the widget's R key) and the live line that names the events since the
step shown before (js/src/replaybar.js `liveText`, a jump of three steps here) name nothing their seat cannot see.
Twins: two games that differ only in a card of Player 2's hand (swapped with the pile's bottom card, which nobody
draws) read alike for Player 1 and for the spectator at every step, through the real JavaScript (node); the
teacher's readings differ, so the twins do differ where those seats cannot look.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path

import pytest
from test_secrecy import play_twins

from needle_widget.apps.export import states

ROOT = Path(__file__).resolve().parents[1]
READ = """
import { readFileSync } from 'node:fs';
import { tableWords } from './js/src/readout.js';
import { liveText } from './js/src/replaybar.js';
const states = JSON.parse(readFileSync(process.argv[1], 'utf8'));
const said = (state) => `${tableWords(state)} | ${liveText(state, state.step - 3)}`;
process.stdout.write(JSON.stringify(states.map(said)));
"""


def readings(screens: list[dict], folder: Path) -> list[str]:
    """The words `tableWords` (js/src/readout.js) and `liveText` (the events of the last three steps) give each
    synced state, computed by node.
    """
    node = shutil.which("node")
    if node is None:
        if os.environ.get("CI"):
            pytest.fail("node is missing")
        pytest.skip("node is missing")
    path = folder / "states.json"
    path.write_text(json.dumps(screens), encoding="utf-8")
    done = subprocess.run([node, "--input-type=module", "-e", READ, str(path)], cwd=ROOT, capture_output=True,
                          text=True, timeout=60)
    assert done.returncode == 0, done.stderr[-2000:]
    return json.loads(done.stdout)


@pytest.mark.parametrize("seed", [5, 11])
def test_twins_read_alike_for_every_seat_that_cannot_see_the_swapped_card(seed: int, tmp_path: Path) -> None:
    *_, (a, b) = play_twins(seed, hidden_owner=1, watcher=0)
    twins = (a.replay(), b.replay())
    assert len(twins[0]) > 20
    for perspective in (0, "spectator"):
        first, second = (readings(states(replay, perspective), tmp_path) for replay in twins)
        assert len(first) == len(twins[0]) + 1
        assert all(r.split(" | ", 1)[0] for r in first) and all(r.split(" | ", 1)[1] for r in first[1:])
        assert first == second, perspective
    first, second = (readings(states(replay, "teacher"), tmp_path) for replay in twins)
    assert first != second  # the teacher sees the swapped card: the twins are not alike
