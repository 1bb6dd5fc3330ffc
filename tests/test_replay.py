"""Replays: the versioned record, its checks on load, and stepping to any action."""

from __future__ import annotations

import copy
import json
import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from needle_widget import Game, Rules, actions
from needle_widget.engine.errors import ReplayError
from needle_widget.records.replay import SNAPSHOT_EVERY, Replay

RULE_SETS = [Rules(), Rules(hand_size=12, steal_every=1), Rules(ace="wrap", first_player="random"), Rules(hand_size=3)]


def random_game(seed: int, rules: Rules | None = None, careful: bool = False) -> tuple[Game, list[tuple]]:
    """A seeded random game and its snapshot after every action; `careful` players peek to
    avoid ending the round (no discarding or laying the opponent's needle, no stealing
    their own), so games run long and reshuffle.
    """
    rng = random.Random(seed)
    game = Game(rules=rules, seed=seed)
    snapshots = [game.snapshot()]
    while game.phase != "over":
        legal = game.legal_actions()
        if careful:
            needle, own = game.needle(1 - game.to_move), game.needle(game.to_move)
            legal = [
                a for a in legal
                if not (type(a) is actions.Steal and own in game.hand(1 - game.to_move))
                and needle not in (getattr(a, "cards", None) or (getattr(a, "card", None),))
            ] or legal
        game.apply(rng.choice(legal))
        snapshots.append(game.snapshot())
    return game, snapshots


@pytest.mark.parametrize("seed", range(60))
def test_round_trip_reproduces_every_step(seed: int) -> None:
    game, snapshots = random_game(seed, RULE_SETS[seed % len(RULE_SETS)], careful=seed % 2 == 0)
    replay = Replay.from_json(game.replay().to_json())
    assert len(replay) == len(game) == len(snapshots) - 1
    for k, expected in enumerate(snapshots):
        assert replay.game_at(k).snapshot() == expected
    assert replay.result == game.result
    assert replay.to_dict() == game.replay().to_dict()


def test_a_long_game_with_reshuffles_round_trips() -> None:
    game = next(g for g, _ in (random_game(s, careful=True) for s in range(200)) if g.reshuffles >= 2 and g.turn > 60)
    text = game.replay().to_json()
    assert '"reshuffle"' in text
    assert Replay.from_json(text).final_game.snapshot() == game.snapshot()


def test_save_and_load(tmp_path: Path) -> None:
    game, _ = random_game(3)
    game.players = ("greedy", "human")
    path = tmp_path / "game.json"
    game.replay().save(path)
    loaded = Replay.load(path)
    assert loaded.players == ("greedy", "human")
    assert loaded.final_game.snapshot() == game.snapshot()
    data = json.loads(path.read_text())
    assert (data["format"], data["version"]) == ("needle-replay", 2)
    assert data["actions"][0] == {"player": 0, "turn": 0, "type": "choose_needle", "card": game.needle(0).code}


def test_a_game_in_progress_round_trips() -> None:
    game = Game(seed=4)
    for text in ("needle 7h", "needle qs", "draw", "end"):
        game.apply(actions.parse(text))
    replay = Replay.from_json(game.replay().to_json(indent=2))
    assert replay.result is None and len(replay) == 4
    assert replay.game_at(4).phase == "discard"


def test_game_at_is_independent_and_checked() -> None:
    game, _ = random_game(5)
    replay = game.replay()
    first = replay.game_at(len(replay) // 2)
    first.apply(first.legal_actions()[0]) if first.phase != "over" else None
    assert replay.game_at(len(replay) // 2).snapshot() != first.snapshot() or first.phase == "over"
    for bad in (-1, len(replay) + 1, "3", 1.0):
        with pytest.raises(ReplayError, match="out of range"):
            replay.game_at(bad)  # type: ignore[arg-type]
    assert SNAPSHOT_EVERY <= 16


def test_a_continued_replay_game_goes_on_like_the_original() -> None:
    rng = random.Random(9)
    game = Game(seed=9)
    while len(game) < 40 and game.phase != "over":
        game.apply(rng.choice(game.legal_actions()))
    rebuilt = Replay.from_json(game.replay().to_json()).game_at(len(game))
    for _ in range(30):
        if game.phase == "over":
            break
        action = random.Random(len(game)).choice(game.legal_actions())
        game.apply(action)
        rebuilt.apply(action)
    assert rebuilt.snapshot() == game.snapshot()


# ---- checks on load ----------------------------------------------------------------


def base_record(seed: int = 21) -> dict[str, Any]:
    game = next(g for g, _ in (random_game(s, careful=True) for s in range(seed, seed + 100)) if any(
        type(e.action) is actions.Steal for e in g.history) and g.reshuffles)
    return game.replay().to_dict()


def test_error_names_the_action_and_what_is_wrong() -> None:
    data = base_record()
    k = next(i for i, a in enumerate(data["actions"]) if a["type"] == "discard" and i > 10)
    held = {c.code for c in Replay.from_dict(data).game_at(k).hand(data["actions"][k]["player"])}
    data["actions"][k]["card"] = next(c for c in ("2C", "9C", "KD", "5S", "AH") if c not in held)
    message = rf"^action {k} \(Discard .*\): Discard .* not allowed: Player \d does not hold"
    with pytest.raises(ReplayError, match=message):
        Replay.from_dict(data)


@pytest.mark.parametrize(
    "mutate, message",
    [
        (lambda d: d.update(version=4), "Unsupported replay version 4"),
        (lambda d: d.update(version="1"), "Unsupported replay version '1'"),
        (lambda d: d.update(format="chess"), "Not a replay"),
        (lambda d: d.pop("deck"), "missing deck"),
        (lambda d: d.update(extra=1), "unknown extra"),
        (lambda d: d.update(seed=-3), "seed"),
        (lambda d: d.update(seed=True), "seed"),
        (lambda d: d["deck"].__setitem__(0, d["deck"][1]), "deck"),
        (lambda d: d["deck"].__setitem__(0, "ZZ"), "deck: Not a card: 'ZZ'"),
        (lambda d: d["deck"].pop(), "deck: 51 cards"),
        (lambda d: d.update(rules={"hand_size": 99}), "rules: Rules.hand_size is 99"),
        (lambda d: d.update(rules=[]), "rules"),
        (lambda d: d.update(first_player=1), "first_player"),
        (lambda d: d.update(players=["a"]), "players"),
        (lambda d: d.update(actions={}), "actions"),
        (lambda d: d["actions"].append(d["actions"][-1]), "already over"),
        (lambda d: d["actions"].pop(2), "action 2"),
        (lambda d: d["actions"][0].update(type="fly"), "action 0"),
        (lambda d: d["actions"][1].update(player=0), "action 1"),
        (lambda d: d["actions"][3].update(turn=9), "action 3"),
        (lambda d: d.update(result=None), "result"),
        (lambda d: d["result"].update(winner=None if d["result"]["winner"] is not None else 0), "result"),
        (lambda d: d.update(result="won"), "result"),
    ],
)
def test_bad_records_are_refused_with_a_clear_message(mutate, message: str) -> None:
    data = base_record()
    mutate(data)
    with pytest.raises(ReplayError, match=message):
        Replay.from_dict(data)


def test_recorded_chance_outcomes_are_checked() -> None:
    data = base_record()
    steal = next(a for a in data["actions"] if a["type"] == "steal")
    steal["cards"] = ["AS" if steal["cards"] != ["AS"] else "2S"]
    with pytest.raises(ReplayError, match="steal"):
        Replay.from_dict(data)
    data = base_record()
    shuffled = next(a for a in data["actions"] if "reshuffle" in a)
    shuffled["reshuffle"] = shuffled["reshuffle"][:-1]
    with pytest.raises(ReplayError, match="reshuffle"):
        Replay.from_dict(data)
    data = base_record()
    del next(a for a in data["actions"] if "reshuffle" in a)["reshuffle"]
    with pytest.raises(ReplayError, match="no reshuffle order is recorded"):
        Replay.from_dict(data)


def test_bad_files(tmp_path: Path) -> None:
    with pytest.raises(ReplayError, match="Cannot read replay"):
        Replay.load(tmp_path / "missing.json")
    (tmp_path / "binary.json").write_bytes(b"\xff\xfe\x00")
    with pytest.raises(ReplayError):
        Replay.load(tmp_path / "binary.json")
    (tmp_path / "list.json").write_text("[1, 2]")
    with pytest.raises(ReplayError, match="list.json: Not a replay"):
        Replay.load(tmp_path / "list.json")


def test_every_truncation_is_refused() -> None:
    text = Game(seed=1).replay().to_json()
    game, _ = random_game(2)
    text = game.replay().to_json()
    for cut in range(0, len(text) - 2, 7):
        with pytest.raises(ReplayError):
            Replay.from_json(text[:cut])


def _paths(value: Any, path: tuple = ()) -> Iterator[tuple]:
    yield path
    if isinstance(value, dict):
        for key, item in value.items():
            yield from _paths(item, path + (key,))
    elif isinstance(value, list):
        for i, item in enumerate(value):
            yield from _paths(item, path + (i,))


REPLACEMENTS = st.one_of(
    st.none(), st.booleans(), st.integers(-3, 60), st.floats(allow_nan=True), st.text(max_size=4),
    st.sampled_from(["AS", "10H", "QD", "7C", "draw_pile", "steal", "discard", "end_sets", "lay_set", "low"]),
    st.lists(st.sampled_from(["AS", "2S", "3S", "KH"]), max_size=4),
    st.dictionaries(st.text(max_size=3), st.integers(), max_size=2),
)
FUZZ_RECORD = base_record(40)
FUZZ_PATHS = list(_paths(FUZZ_RECORD))[1:]


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.tuples(st.sampled_from(FUZZ_PATHS), REPLACEMENTS, st.booleans()), min_size=1, max_size=3))
def test_mutated_records_give_a_replay_error_or_a_consistent_game(mutations) -> None:
    data = copy.deepcopy(FUZZ_RECORD)
    for path, value, delete in mutations:
        parent = data
        try:
            for key in path[:-1]:
                parent = parent[key]
            if delete:
                del parent[path[-1]]
            else:
                parent[path[-1]] = value
        except (KeyError, IndexError, TypeError):
            continue
    try:
        replay = Replay.from_json(json.dumps(data))
    except ReplayError:
        return
    again = Replay.from_dict(replay.to_dict())
    assert again.final_game.snapshot() == replay.final_game.snapshot()
    assert replay.final_game.result == replay.result
