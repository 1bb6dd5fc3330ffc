"""Variations in the record (records/variations.py, Replay.add_variation): the file format's round trip,
old files unchanged, the checks on load, the editing operations, who may open which, and the secrecy
twins: a world drawn from a seat's view is the same for two games that differ only in what that seat
cannot see.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from test_secrecy import play_twins

from needle_widget import Game, actions, examples
from needle_widget.engine.errors import ReplayError
from needle_widget.inference.worlds import world_for
from needle_widget.records.notes import Note, NoteStepError
from needle_widget.records.replay import Replay
from needle_widget.records.steps import Step
from needle_widget.records.variations import (
    MAX_VARIATIONS,
    Variation,
    VariationError,
    VariationNotFound,
    World,
)


def game_record(seed: int = 7, moves: int = 60) -> Replay:
    g = Game(seed=seed)
    for _ in range(moves):
        if g.phase == "over":
            break
        g.apply(g.legal_actions()[-1])
    return g.replay()


def with_variations(r: Replay) -> Replay:
    """A real-cards variation, a world from each seat's view and one from the spectator's, two from one step."""
    start = r.branch(10)
    real = r.add_variation(10, start.legal_actions()[:1], name="The other move")
    r.add_variation(10, [], world=world_for(r, 10, 0, seed=1))
    r.add_variation(20, _moves(r, 20, world_for(r, 20, 1, seed=2), 6), world=world_for(r, 20, 1, seed=2))
    r.add_variation(4, [], world=world_for(r, 4, "spectator", seed=3), name="Nobody's cards")
    r.replace_variation_notes(r.variations.index(real), [Note(11, "Why not this?"), Note(11, "For P2", perspective=1)])
    return r


def _moves(r: Replay, step: int, world: World, count: int) -> list[actions.Action]:
    game = r.add_variation(step, world=world).step and r.line(r.variations[-1]).final_game
    r.remove_variation(-1)
    out = []
    for _ in range(count):
        if game.phase == "over":
            break
        action = game.legal_actions()[0]
        game.apply(action)
        out.append(action)
    return out


def test_variations_round_trip_through_json_and_files(tmp_path: Path) -> None:
    r = with_variations(game_record())
    text = r.to_json()
    data = json.loads(text)
    assert data["version"] == 3 and len(data["variations"]) == 4
    assert [v["step"] for v in data["variations"]] == [4, 10, 10, 20]
    for again in (Replay.from_json(text), Replay.from_json(r.to_json(indent=2)), Replay.from_dict(r.to_dict())):
        assert again.variations == r.variations
        assert again.to_json() == text
    path = tmp_path / "v.json"
    r.save(path)
    assert Replay.load(path).to_json() == text == path.read_text(encoding="utf-8")
    # one action per line, inside a variation too (diff-friendly)
    moves = len(r) + sum(len(v) + (len(v.world.steps) if v.world else 0) + len(v.notes) for v in r.variations)
    assert len(text.splitlines()) > moves


def test_replays_without_variations_are_written_as_before() -> None:
    for path in sorted(examples.FOLDER.glob("*.json")):
        text = path.read_text(encoding="utf-8")
        r = Replay.from_json(text)
        version = json.loads(text)["version"]
        text = text.replace(f'"version": {version}', '"version": 2', 1)
        assert r.to_json() == text
        r.add_variation(3, [])
        assert json.loads(r.to_json())["version"] == 3
        r.remove_variation(0)
        assert r.to_json() == text


def test_a_line_is_the_game_played_on_from_the_step() -> None:
    r = examples.load("long_with_reshuffle")
    g = r.branch(10)
    moves = []
    while len(moves) < 15:
        a = next(a for a in g.legal_actions() if _goes_on(g, a))
        g.apply(a)
        moves.append(a)
    v = r.add_variation(10, moves)
    line = r.line(v)
    assert line.final_game.snapshot()[1:17] == g.snapshot()[1:17] and len(line) == 10 + len(moves) == v.end
    assert [s.action for s in line.steps[10:]] == moves and line.steps[:10] == r.steps[:10]
    # extending plays on from the line's end; Steps keep their recorded outcomes
    assert g.phase != "over", "the line should go on"
    longer = r.extend_variation(v, [g.legal_actions()[0]])
    assert len(longer) == len(moves) + 1 and r.variations == (longer,)
    with pytest.raises(VariationError, match="is the same as variation 0"):
        r.add_variation(10, list(longer.steps))
    r.remove_variation(longer)
    assert r.add_variation(10, list(longer.steps)) == longer


def _goes_on(game: Game, action: actions.Action) -> bool:
    after = game.copy()
    after.apply(action)
    return after.phase != "over"


def test_bad_variations_are_refused_and_change_nothing() -> None:
    r = with_variations(game_record())
    before = r.to_json()
    over = examples.load("found_early")
    cases = [
        (lambda: r.add_variation(99, []), rf"variation step 99 is out of range: this replay's steps are 0..{len(r)}"),
        (lambda: r.add_variation(-1, []), "variation step -1 is not an integer >= 0"),
        (lambda: over.add_variation(len(over), []), "the round is over there"),
        (lambda: r.add_variation(10, [actions.Discard("2C")] * 2), "variation action 10: "),
        (lambda: r.add_variation(10, "draw"), "moves must be a list of actions or steps"),
        (lambda: r.add_variation(10, [], world="sampled"), "world must be 'real', None or a World"),
        (lambda: r.add_variation(10, [], name="x" * 101), "is not 1 to 100 characters"),
        (lambda: r.add_variation(10, [], world=world_for(r, 11, 0, seed=1)),
         "the world records 11 actions, but its variation starts at step 10"),
        (lambda: r.promote(9), "no variation 9: this replay has 4 variations"),
        (lambda: r.add_variation(10, [], world=world_for(r, 10, 0, seed=1)), "is the same as variation 2"),
        (lambda: r.remove_variation("a"), "choose a variation by its index"),
        (lambda: r.replace_variation_notes(1, [Note(2, "before the start")]), "not on this variation's moves"),
    ]
    for make, message in cases:
        with pytest.raises(ReplayError, match=message):
            make()
        assert r.to_json() == before


def test_files_with_bad_variations_are_refused_with_the_place() -> None:
    r = with_variations(game_record())
    base = r.to_dict()

    def load(change) -> None:  # noqa: ANN001
        data = json.loads(json.dumps(base))
        change(data)
        Replay.from_dict(data)

    world = next(k for k, v in enumerate(base["variations"]) if v["world"] != "real" and v["world"]["seat"] == 1)
    real = next(k for k, v in enumerate(base["variations"]) if v["world"] == "real")

    def tamper_world(d: dict) -> None:  # a card of the seat's own hand swapped: not a world it could not tell apart
        deck = d["variations"][world]["world"]["deck"]
        deck[0], deck[7] = deck[7], deck[0]

    for change, message in [
        (lambda d: d.update(version=2), r"unknown variations \(variations need version 3\)"),
        (lambda d: d.update(variations={}), "variations: expected a list"),
        (lambda d: d["variations"][0].update(colour="red"), "variation 0: unknown fields 'colour'"),
        (lambda d: d["variations"][0].pop("world"), "variation 0: the variation has no world"),
        (lambda d: d["variations"][real]["actions"][0].update(turn=99), f"variation {real}: variation action"),
        (lambda d: d["variations"][world]["world"].update(seat=2), "world seat 2 is not 0, 1 or 'spectator'"),
        (tamper_world, f"variation {world}: "),
        (lambda d: d["variations"][world]["world"]["actions"].pop(), "the world records"),
        (lambda d: d.update(variations=[d["variations"][0]] * (MAX_VARIATIONS + 1)), "more than a replay keeps"),
    ]:
        with pytest.raises(ReplayError, match=message):
            load(change)


def test_promote_demote_rename_remove() -> None:
    r = with_variations(game_record())
    at10 = [v for v in r.variations if v.step == 10]
    assert at10[0].name == "The other move"
    r.promote(r.variations.index(at10[1]))
    assert [v for v in r.variations if v.step == 10] == [at10[1], at10[0]]
    r.promote(r.variations.index(at10[1]))  # already first among its step: stays
    assert [v for v in r.variations if v.step == 10] == [at10[1], at10[0]]
    r.demote(at10[1])
    assert [v for v in r.variations if v.step == 10] == at10
    renamed = r.rename_variation(at10[1], "Her world")
    assert renamed.label(0) == "Her world" and renamed.world == at10[1].world
    assert r.rename_variation(renamed, None).label(4) == "Variation 5"
    revision = r.notes_revision
    gone = r.remove_variation(0)
    assert gone.step == 4 and len(r.variations) == 3 and r.notes_revision == revision + 1
    with pytest.raises(VariationNotFound):
        r.remove_variation(gone)


def test_who_may_open_which_variation() -> None:
    r = with_variations(game_record())
    kinds = {p: [v.world.seat if v.world else "real" for v in r.variations_for(p)]
             for p in (0, 1, "spectator", "teacher")}
    assert kinds == {0: ["spectator", 0], 1: ["spectator", 1], "spectator": ["spectator"],
                     "teacher": ["spectator", "real", 0, 1]}
    assert [v.step for v in r.variations_for("teacher", until=10)] == [4, 10, 10]
    assert all(not v.real for v in r.variations_for("teacher", sampled_only=True))
    # a player's copy keeps what that player may open; a cut keeps the sampled worlds up to its step
    mine = r.copy(notes=r.notes_for(0), variations=r.variations_for(0))
    assert Replay.from_json(mine.to_json()).variations == r.variations_for(0)
    assert [v.step for v in r.cut(10).variations] == [4, 10]
    assert all(not v.real for v in r.cut(len(r)).variations)
    real = next(v for v in r.variations if v.real)
    assert real.notes_for(0) == (Note(11, "Why not this?"),) and len(real.notes_for("teacher")) == 2


def test_a_world_line_gives_the_seat_its_own_view_at_the_step() -> None:
    r = game_record(seed=11)
    for seat in (0, 1, "spectator"):
        world = world_for(r, 30, seat, seed=5)
        v = r.add_variation(30, [], world=world)
        line = r.line(v)
        assert line.game_at(30).view(seat) == r.game_at(30).view(seat)
        assert line.seed == 5 and line.deck == world.deck
    assert world_for(r, 30, 0, seed=5) == world_for(r, 30, 0, seed=5) != world_for(r, 30, 0, seed=6)


@pytest.mark.parametrize("seed", [3, 8])
def test_twins_a_world_drawn_from_a_seat_is_the_same_for_games_it_cannot_tell_apart(seed: int) -> None:
    """Two games that differ only in a card of Player 2's hand (swapped with the pile's bottom card, which
    Player 1 never sees): the worlds drawn from Player 1's (and the spectator's) view, and the variations and
    files made from them, are identical at every step; drawn from Player 2's view, they differ (Player 2
    holds the card).
    """
    pairs = list(play_twins(seed, hidden_owner=1, watcher=0, steps=70))
    a, b = pairs[-1]
    ra, rb = a.replay(), b.replay()
    assert ra.steps == rb.steps and ra.deck != rb.deck
    differ = 0
    for k in range(2, len(ra) + 1, 5):
        if ra.game_at(k).phase == "over":
            continue
        for seat in (0, "spectator"):
            wa, wb = world_for(ra, k, seat, seed=k), world_for(rb, k, seat, seed=k)
            assert wa == wb
            va = ra.copy(variations=()).add_variation(k, [], world=wa)
            assert va == rb.copy(variations=()).add_variation(k, [], world=wb)
            line_a, line_b = ra.line(va), rb.line(va)
            assert line_a.to_json() == line_b.to_json()
        differ += world_for(ra, k, 1, seed=k) != world_for(rb, k, 1, seed=k)
    assert differ > 0
    half = len(ra) // 2
    mine_a, mine_b = ra.copy(variations=()), rb.copy(variations=())
    mine_a.add_variation(half, [], world=world_for(ra, half, 0, seed=9))
    mine_b.add_variation(half, [], world=world_for(rb, half, 0, seed=9))
    assert json.loads(mine_a.to_json())["variations"] == json.loads(mine_b.to_json())["variations"]


def test_a_step_keeps_its_recorded_outcome() -> None:
    r = game_record()
    step = r.steps[5]
    assert Step.from_dict(step.to_dict(), 5) == step
    v = Variation(3)
    assert len(v) == 0 and v.end == 3 and v.real and v.source() == "the real cards"
    with pytest.raises(NoteStepError):
        Variation(3, notes=(Note(3, "at the start"),))
    with pytest.raises(VariationError):
        World(0, 1, ())


def test_show_prints_a_variation_only_to_a_perspective_that_may_open_it_and_twins_print_the_same(
        tmp_path: Path) -> None:
    """`needle-widget show --variation N`: Player 1's print of its own world's line and of the list is the same
    for twin games that differ in a card of Player 2's hand; the real-cards line is refused to Player 1 and
    printed to the teacher, whose prints of the twins differ.
    """
    import io

    from needle_widget.apps import cli

    a, b = list(play_twins(3, hidden_owner=1, watcher=0, steps=60))[-1]
    printed: dict[tuple, list[str]] = {}
    for side, game in enumerate((a, b)):
        r = game.replay()
        k = len(r) // 2
        r.add_variation(k, r.branch(k).legal_actions()[:1], name="Real")
        world = world_for(r, k, 0, seed=5)
        r.add_variation(k, r.line(r.add_variation(k, [], world=world)).final_game.legal_actions()[:1], world=world)
        r.remove_variation(1)
        path = tmp_path / f"{side}.json"
        r.save(path)
        for who, variation in (("p1", None), ("p1", 2), ("teacher", 1)):
            out = io.StringIO()
            extra = [] if variation is None else ["--variation", str(variation)]
            assert cli.main(["show", str(path), "--perspective", who, *extra], stdout=out) == 0
            printed.setdefault((who, variation), []).append(out.getvalue())
        out = io.StringIO()
        assert cli.main(["show", str(path), "--perspective", "p1", "--variation", "1"], stdout=out) == 2
    listed, line, real = printed[("p1", None)], printed[("p1", 2)], printed[("teacher", 1)]
    assert listed[0] == listed[1] and "2. Variation 2, from step" in listed[0] and "Real" not in listed[0]
    assert line[0] == line[1] and "drawn from Player 1's view" in line[0]
    assert real[0] != real[1] and "Real, from step" in real[0]
