"""The pool behind test_record_claims.py, kept in tests/data/class_pool.json: equally strong simulated students.

48 deals, each played 16 times by two NoisyBot(0.25) (GreedyBot with a quarter of its moves random, each game its
own random moves), both seats reviewed at the record's budget (96 worlds): `apps.recordbench.play_class_pool`. A
class of up to 32 students draws a term of up to 48 deals from it, a game of each deal for each table. Playing it
takes about 3 minutes on 2 cores, too long for every test run, so the table keeps the figures; the test run plays
and reviews two of its games again and compares them exactly. Rewrite it after changing how the review or the bots
play or value a decision:

    python tests/class_pool.py
"""

from __future__ import annotations

import json
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

from needle_widget.apps.recordbench import ClassPool, play_class_pool

TABLE = Path(__file__).parent / "data" / "class_pool.json"
DEALS, GAMES, SHARE, WORLDS, SEED = 48, 16, 0.25, 96, 0


def make(deals: int = DEALS, games: int = GAMES, executor: ProcessPoolExecutor | None = None) -> ClassPool:
    """The pool's first `deals` deals, `games` games each, played and reviewed now."""
    return play_class_pool(deals, games, SHARE, WORLDS, SEED, executor)


def save(pool: ClassPool, path: Path = TABLE) -> None:
    path.write_text(json.dumps(pool.to_dict(), separators=(",", ":")) + "\n", encoding="utf-8")


def load(path: Path = TABLE) -> ClassPool:
    return ClassPool.from_dict(json.loads(path.read_text(encoding="utf-8")))


if __name__ == "__main__":
    with ProcessPoolExecutor(2) as executor:
        save(make(executor=executor))
    print(f"wrote {TABLE}")
