"""The pool behind test_class_record.py's validation, kept in tests/data/record_pool.json.

Four simulated students (`apps.recordbench.SHARES`) each play 48 deals against GreedyBot, every game
through the room's `Record` and reviewed at 16 worlds: about 30 seconds, too long for every test run, so
the table keeps the record; the test run replays and reviews the first two deals and compares them exactly
(the same seeds give the same numbers on every machine). Rewrite it after changing how the review or the
bots play or value a decision:

    python tests/record_pool.py
"""

from __future__ import annotations

import json
from pathlib import Path

from needle_widget.apps.recordbench import SHARES, Pool, play_pool
from needle_widget.classroom.record import Record

TABLE = Path(__file__).parent / "data" / "record_pool.json"
DEALS, WORLDS, SEED = 48, 16, 0
"""The pool's deals (seeds SEED, SEED + 1, ...), each game reviewed at WORLDS worlds."""


def make(deals: int = DEALS) -> Pool:
    """The pool's first `deals` deals, played and reviewed now."""
    return play_pool(SHARES, deals=deals, worlds=WORLDS, seed=SEED)


def save(pool: Pool, path: Path = TABLE) -> None:
    data = {"shares": list(pool.shares), "deals": pool.deals, "seed": SEED, "record": pool.record.to_dict()}
    path.write_text(json.dumps(data, separators=(",", ":")) + "\n", encoding="utf-8")


def load(path: Path = TABLE) -> Pool:
    data = json.loads(path.read_text(encoding="utf-8"))
    return Pool(tuple(data["shares"]), data["deals"], Record.from_dict(data["record"]), 0.0)


if __name__ == "__main__":
    save(make())
    print(f"wrote {TABLE}")
