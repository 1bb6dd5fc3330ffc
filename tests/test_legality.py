"""One legality predicate: `Game.why_not` decides, and `legal_actions()`, `apply()`, the
views' `may_steal` and `refusals` all agree with it, over many seeded games.
"""

from __future__ import annotations

import random

import pytest

from needle_widget import Game, IllegalAction, Rules, actions
from needle_widget.engine.actions import CHOOSE_NEEDLE, DISCARD, DRAW_PILE, END_SETS, STEAL, LaySet
from needle_widget.engine.bitmasks import FULL, sets_in
from needle_widget.engine.errors import InvalidAction

EVERY_SET = {
    ace: tuple(sets_in(FULL, Rules(ace=ace).set_starts()[11:])) for ace in ("low", "low_or_high", "wrap")
}
ODD_SETS = (LaySet(("AS", "2S", "4S")), LaySet(("QS", "KS", "AS")))


def candidates(game: Game) -> list[actions.Action]:
    """Every action there is, legal or not."""
    return [*CHOOSE_NEEDLE, DRAW_PILE, STEAL, *EVERY_SET[game.rules.ace], *ODD_SETS, END_SETS, *DISCARD]


def random_states(seeds: range, per_game: int = 6):
    for seed in seeds:
        rng = random.Random(seed)
        rules = Rules(ace=("low", "low_or_high", "wrap")[seed % 3], hand_size=(7, 3, 12)[seed % 3],
                      steal_every=1 + seed % 3)
        game = Game(rules=rules, seed=seed)
        stops = set(rng.sample(range(120), per_game))
        step = 0
        while game.phase != "over" and step < 120:
            if step in stops:
                yield game
            legal = game.legal_actions()
            game.apply(rng.choice(legal))
            step += 1
        yield game


@pytest.mark.parametrize("chunk", range(4))
def test_legal_actions_are_exactly_what_why_not_allows(chunk: int) -> None:
    checked = 0
    for game in random_states(range(chunk * 25, chunk * 25 + 25)):
        legal = game.legal_actions()
        allowed = [a for a in candidates(game) if game.why_not(a) is None]
        assert sorted(map(str, allowed)) == sorted(map(str, legal)), (game, legal)
        for a in candidates(game):
            assert game.is_legal(a) == (game.why_not(a) is None)
        checked += 1
    assert checked >= 60


def test_apply_refuses_with_why_not_and_changes_nothing() -> None:
    refused = 0
    for game in random_states(range(40), per_game=3):
        before = game.snapshot()
        for a in candidates(game)[::7]:
            reason = game.why_not(a)
            if reason is None:
                continue
            with pytest.raises(IllegalAction) as info:
                game.apply(a)
            assert str(info.value).endswith(f" not allowed: {reason}")
            assert game.snapshot() == before
            refused += 1
    assert refused > 500


def test_may_steal_means_the_same_in_view_and_player_view() -> None:
    """The issue's example: after a pile draw, neither says the mover may steal now."""
    game = Game(seed=7)
    game.apply(actions.ChooseNeedle("7h"))
    game.apply(actions.ChooseNeedle("QS"))
    assert game.view(0)["players"][0]["may_steal"] is True and game.player_view(0).may_steal is True
    game.apply(actions.DrawPile())
    assert game.view(0)["players"][0]["may_steal"] is False and game.player_view(0).may_steal is False
    for game in random_states(range(30)):
        for p in (0, 1):
            expected = game.to_move == p and game.is_legal(STEAL)
            assert game.player_view(p).may_steal == expected
            for perspective in (0, 1, "spectator", "teacher"):
                assert game.view(perspective)["players"][p]["may_steal"] == expected


def test_refusals_carry_python_s_reasons_for_the_mover_only() -> None:
    game = Game(seed=7)
    game.apply(actions.ChooseNeedle("7h"))
    game.apply(actions.ChooseNeedle("QS"))
    game.apply(actions.Steal())
    game.apply(actions.EndSets())
    game.apply(game.legal_actions()[0])
    game.apply(actions.DrawPile())
    game.apply(actions.EndSets())
    game.apply(game.legal_actions()[0])
    assert game.to_move == 0 and game.phase == "draw"
    assert game.view(0)["refusals"] == {
        "draw_pile": None,
        "steal": "Steal not allowed: Player 1 stole on turn 1; next steal on turn 7",
    }
    assert game.view("teacher")["refusals"] == game.view(0)["refusals"]
    assert game.view(1)["refusals"] == {} and game.view("spectator")["refusals"] == {}
    game.apply(actions.DrawPile())
    assert game.view(0)["refusals"] == {"end_sets": None}


@pytest.mark.parametrize("junk", ["draw", None, 3, {"type": "draw_pile"}, actions.DrawPile, object()])
def test_things_that_are_not_actions_are_invalid_not_illegal(junk: object) -> None:
    game = Game(seed=1)
    with pytest.raises(InvalidAction, match="Not an action"):
        game.why_not(junk)  # type: ignore[arg-type]
    with pytest.raises(InvalidAction, match="Not an action"):
        game.apply(junk)  # type: ignore[arg-type]


@pytest.mark.parametrize("raw", [{"type": "fly"}, {"type": "discard"}, {"type": "discard", "card": "ZZ"}, "x"])
def test_malformed_dicts_and_text_are_invalid_actions(raw: object) -> None:
    with pytest.raises(InvalidAction):
        actions.from_dict(raw)
    with pytest.raises(InvalidAction):
        actions.parse(str(raw))
    assert issubclass(InvalidAction, IllegalAction), "code that catches refused actions catches both"
