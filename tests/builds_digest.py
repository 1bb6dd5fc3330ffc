"""What the compiled and the pure build must agree on, byte for byte (issue 34): a sha256 per part, over

- 10,000 seeded games of each fast bot against itself (random, greedy, odds, noisy), and fewer of SearchBot (each
  of its decisions plays worlds out: `SEARCH_GAMES`), every replay's JSON;
- the reviews of both seats of the four bundled replays (their JSON, at REVIEW_WORLDS worlds a decision);
- a duplicate tournament's rows.

`python tests/builds_digest.py [--pure] [--games N]` prints the parts as JSON: `--pure` imports the package from its
Python sources (needle_widget.apps.builds.pure), whatever build is installed.
"""

from __future__ import annotations

import argparse
import hashlib
import importlib
import json
import sys
import time
import types
from collections.abc import Callable, Iterator

GAMES = 10_000
SEARCH_GAMES = 40
FAST_BOTS = ("random", "greedy", "odds", "noisy")
REVIEW_WORLDS = 24
"""Worlds per decision in the reviews compared (the default is more: the same code, run longer)."""


def _module(package: types.ModuleType, name: str) -> types.ModuleType:
    return importlib.import_module(f"{package.__name__}.{name}")


def _bot(package: types.ModuleType, name: str, seed: int) -> object:
    """A bot with its own seed (one that draws none at random: the runs must be the same)."""
    if name == "noisy":
        return _module(package, "players.noisy").NoisyBot(share=0.25, seed=seed)
    if name == "search":
        return _module(package, "players.search").SearchBot(seed=seed, worlds=4, rollouts=4)
    return _module(package, "players.bots").make_bot(name, seed=seed)


def _games(package: types.ModuleType, name: str, games: int) -> Iterator[str]:
    play = _module(package, "players.sim").play_game
    for seed in range(games):
        yield play(_bot(package, name, 2 * seed), _bot(package, name, 2 * seed + 1), seed=seed).replay().to_json()


def _reviews(package: types.ModuleType) -> Iterator[str]:
    examples, review = _module(package, "teaching.examples"), _module(package, "review.review").review
    for name in sorted(path.stem for path in examples.FOLDER.glob("*.json")):
        replay = examples.load(name)
        for seat in (0, 1):
            yield json.dumps(review(replay, seat, worlds=REVIEW_WORLDS).to_dict(), sort_keys=True)


def _tournament(package: types.ModuleType) -> Iterator[str]:
    bots = _module(package, "players.bots")
    entrants = [bots.GreedyBot(), bots.RandomBot(seed=3), bots.OddsBot()]
    table = _module(package, "review.matches").tournament(entrants, games=60, seed=7, progress=False, duplicate=True)
    for row in table.rows:
        yield json.dumps(row, sort_keys=True, default=str)


def parts(package: types.ModuleType, games: int = GAMES) -> dict[str, Callable[[], Iterator[str]]]:
    """Each part's name and what it hashes, in `package` (needle_widget, or needle_pure)."""
    out: dict[str, Callable[[], Iterator[str]]] = {
        f"games {name}": (lambda name=name: _games(package, name, games)) for name in FAST_BOTS}
    out["games search"] = lambda: _games(package, "search", min(games, SEARCH_GAMES))
    out["reviews"] = lambda: _reviews(package)
    out["tournament"] = lambda: _tournament(package)
    return out


def digest(package: types.ModuleType, games: int = GAMES) -> dict[str, dict[str, object]]:
    """Each part's sha256 over its texts (one per line), how many, and the seconds it took."""
    out: dict[str, dict[str, object]] = {}
    for name, texts in parts(package, games).items():
        h, n, start = hashlib.sha256(), 0, time.perf_counter()
        for text in texts():
            h.update(text.encode())
            h.update(b"\n")
            n += 1
        out[name] = {"sha256": h.hexdigest(), "texts": n, "seconds": round(time.perf_counter() - start, 2)}
    return out


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--pure", action="store_true")
    parser.add_argument("--games", type=int, default=GAMES)
    args = parser.parse_args(argv)
    import needle_widget
    from needle_widget.apps import builds

    package = builds.pure() if args.pure else needle_widget
    print(json.dumps({"build": builds.build_of(package), "digest": digest(package, args.games)}))


if __name__ == "__main__":
    sys.exit(main())
