"""Notebook 03 reads its 2,000-game calibration from a table (notebooks/data/needle_calibration.csv):
the table is what `teaching.calibration.note` gives, checked on a random sample of the games.
"""

from __future__ import annotations

import random
from pathlib import Path

from needle_widget.teaching.calibration import load_notes, note, save_notes

TABLE = Path(__file__).resolve().parents[1] / "notebooks" / "data" / "needle_calibration.csv"


def test_the_notebooks_table_is_what_the_code_gives_on_a_sample() -> None:
    table = {n.seed: n for n in load_notes(TABLE)}
    assert len(table) == 1224 and set(table) <= set(range(2000))
    rng = random.Random("needle_calibration.csv")
    for seed in rng.sample(sorted(table), 30):
        assert note(seed) == table[seed], seed
    for seed in rng.sample(sorted(set(range(2000)) - set(table)), 6):  # games that ended before their noted discard
        assert note(seed) is None, seed


def test_notes_round_trip_exactly(tmp_path: Path) -> None:
    rows = load_notes(TABLE)[:50]
    save_notes(rows, tmp_path / "notes.csv")
    assert load_notes(tmp_path / "notes.csv") == rows
