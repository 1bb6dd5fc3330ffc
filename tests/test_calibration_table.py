"""Notebook 03 reads its 2,000-game calibration from a table (notebooks/data/needle_calibration.csv):
the table is what `teaching.calibration.note` gives, checked on a random sample of the games.
"""

from __future__ import annotations

import random
from pathlib import Path

from needle_widget.teaching.calibration import load_notes, note, same_note, save_notes

TABLE = Path(__file__).resolve().parents[1] / "notebooks" / "data" / "needle_calibration.csv"


def test_the_notebooks_table_is_what_the_code_gives_on_a_sample() -> None:
    table = {n.seed: n for n in load_notes(TABLE)}
    assert len(table) == 1224 and set(table) <= set(range(2000))
    rng = random.Random("needle_calibration.csv")
    for seed in rng.sample(sorted(table), 30):
        assert same_note(note(seed), table[seed]), seed  # to 1e-9: Python 3.12's sum() differs in the last bits
    for seed in rng.sample(sorted(set(range(2000)) - set(table)), 6):  # games that ended before their noted discard
        assert note(seed) is None, seed


def test_notes_round_trip_exactly(tmp_path: Path) -> None:
    rows = load_notes(TABLE)[:50]
    save_notes(rows, tmp_path / "notes.csv")
    assert load_notes(tmp_path / "notes.csv") == rows


def test_same_note_allows_the_last_bits_of_a_sum_and_nothing_more() -> None:
    from needle_widget.teaching.calibration import Note

    note = Note(3, 0.2, 0.3, 0.1, 0.05, True)
    assert same_note(note, Note(3, 0.1 + 0.1, 0.3, 0.1, 0.05, True))  # 0.2 as 3.11's and 3.12's sums may give it
    assert same_note(None, None)
    assert not same_note(note, None) and not same_note(None, note)
    assert not same_note(note, Note(4, 0.2, 0.3, 0.1, 0.05, True))
    assert not same_note(note, Note(3, 0.2, 0.3, 0.1, 0.05, False))
    assert not same_note(note, Note(3, 0.2 + 1e-6, 0.3, 0.1, 0.05, True))
    assert not same_note(note, Note(3, 0.2, 0.3, 0.1, 0.0500001, True))
