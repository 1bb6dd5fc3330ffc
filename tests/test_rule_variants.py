"""The optional balance variants V1-V3 of docs/RULES.md ("Balance variants"), rule by rule.

V1 deals the second player extra cards, V2 limits the first player's draw on turn 1, V3
lets the second player's first steal go free of the steal limit. Each is a `Rules` field
whose default is the card's rule; the last tests check that the defaults play exactly
as before the variants existed, and that variant games replay exactly.
"""

from __future__ import annotations

import json
import random

import pytest
from conftest import cards, pick, pick_deep, play
from test_replay import random_game
from test_rules import assert_refused

from needle_widget import Card, Game, Replay, Rules, RulesError, bots, tournament, worlds
from needle_widget.engine.actions import ChooseNeedle, Discard, DrawPile, EndSets, LaySet, Steal
from needle_widget.engine.cards import DECK
from needle_widget.engine.errors import ReplayError
from needle_widget.engine.rules import OPTIONAL_VARIANTS
from needle_widget.players.sim import play_game

DRAW, STEAL, END = DrawPile(), Steal(), EndSets()

VARIANT_RULES = [
    Rules(second_extra=1),
    Rules(second_extra=3, first_player=1),
    Rules(second_extra=2, first_player="random", hand_size=5),
    Rules(first_draw="pile"),
    Rules(first_draw="pile", first_player=1),
    Rules(first_draw="none"),
    Rules(first_draw="none", first_player="random", steal_every=1),
    Rules(second_free_steal=True),
    Rules(second_free_steal=True, first_player=1, steal_every=2),
    Rules(second_extra=1, first_draw="pile", second_free_steal=True),
]




def discard_safely(game: Game) -> None:
    """End the sets phase and discard the lowest card that is not the opponent's needle."""
    p = game.to_move
    play(game, "end")
    if game.phase == "discard":
        game.apply(Discard(next(c for c in game.hand(p) if c != game.needle(1 - p))))


def steal_turn(game: Game) -> None:
    play(game, "steal")
    discard_safely(game)


def draw_turn(game: Game) -> None:
    play(game, "draw")
    discard_safely(game)


# ---- V1: the second player is dealt extra cards -------------------------------------------------


@pytest.mark.parametrize("extra", [0, 1, 2, 5])
@pytest.mark.parametrize("first", [0, 1])
def test_V1_the_second_player_is_dealt_extra_cards(extra: int, first: int) -> None:
    game = Game(rules=Rules(second_extra=extra, first_player=first), seed=3)
    second = 1 - first
    assert len(game.hand(first)) == 7 and len(game.hand(second)) == 7 + extra
    assert game.pile_size == 52 - 14 - extra
    assert game.rules.dealt(second, first) == 7 + extra and game.rules.dealt(first, first) == 7
    h0 = len(game.hand(0))
    assert sorted(game.deck[:h0]) == game.hand(0)  # S2: Player 1's hand, then Player 2's, then the pile
    assert sorted(game.deck[h0 : 14 + extra]) == game.hand(1)
    assert list(game.deck[14 + extra :]) == game.draw_pile


def test_V1_with_a_random_first_player_the_extra_cards_follow_the_draw() -> None:
    seen = set()
    for seed in range(30):
        game = Game(rules=Rules(second_extra=2, first_player="random"), seed=seed)
        assert len(game.hand(1 - game.first_player)) == 9 and len(game.hand(game.first_player)) == 7
        seen.add(game.first_player)
    assert seen == {0, 1}


def test_V1_a_given_deck_is_dealt_with_the_extra_card() -> None:
    deck = list(DECK)
    game = Game(rules=Rules(hand_size=3, second_extra=1), seed=0, deck=deck)
    assert game.hand(0) == sorted(deck[:3]) and game.hand(1) == sorted(deck[3:7])
    assert game.draw_pile == deck[7:]


def test_V1_the_whole_deck_may_be_dealt_and_turn_2_must_steal() -> None:
    game = Game(rules=Rules(hand_size=20, second_extra=12), seed=4)
    pick(game, game.hand(1)[0], game.hand(0)[0])
    assert game.pile_size == 0 and game.hand_size(1) == 32 and game.legal_actions() == [STEAL]
    play(game, "steal")  # D2: turn 1 has no pile to draw from
    assert game.turn == 1 and game.phase in ("sets", "over")


# ---- V2: what the first player may draw on turn 1 -----------------------------------------------


@pytest.mark.parametrize("first", [0, 1])
def test_V2_pile_the_first_player_may_not_steal_on_turn_1(first: int) -> None:
    game = pick_deep(Game(rules=Rules(first_draw="pile", first_player=first), seed=5))
    assert game.to_move == first and game.legal_actions() == [DRAW]
    message = assert_refused(game, STEAL, "Steal not allowed: the first player may not steal on turn 1 (V2)")
    assert f"Player {first + 1}" not in message
    assert not game.may_steal(first) and game.next_steal_turn(first) == 3
    assert game.player_view(first).next_steal_turns[first] == 3 and not game.player_view(first).may_steal
    assert game.view(first)["players"][first]["next_steal_turn"] == 3
    draw_turn(game)
    assert game.turn == 2 and game.legal_actions() == [DRAW, STEAL]  # V2 leaves the second player alone
    steal_turn(game)
    assert game.turn == 3 and game.legal_actions() == [DRAW, STEAL]  # from turn 3 the first player may steal


def test_V2_pile_with_no_draw_pile_the_first_player_must_steal_after_all() -> None:
    game = Game(rules=Rules(hand_size=26, first_draw="pile"), seed=2)
    pick(game, game.hand(1)[0], game.hand(0)[0])
    assert game.pile_size == 0 and game.next_steal_turn(0) == 1
    assert game.legal_actions() == [STEAL]  # D2 wins: without it the round would end by exhaustion
    play(game, "steal")
    assert game.phase in ("sets", "over")


@pytest.mark.parametrize("first", [0, 1])
def test_V2_none_turn_1_has_no_draw_and_starts_at_the_sets(first: int) -> None:
    game = pick_deep(Game(rules=Rules(first_draw="none", first_player=first), seed=6))
    assert (game.turn, game.phase, game.to_move) == (1, "sets", first)
    assert END in game.legal_actions() and DRAW not in game.legal_actions()
    assert_refused(game, DRAW, "Draw from pile not allowed: the first player may not draw on turn 1 (V2)")
    assert_refused(game, STEAL, "Steal not allowed: the first player may not draw on turn 1 (V2)")
    assert game.why_not(DRAW) == "the first player may not draw on turn 1 (V2)"
    hand = game.hand_size(first)
    discard_safely(game)
    assert game.hand_size(first) == hand - 1 and game.turn == 2 and game.phase == "draw"
    assert game.legal_actions() == [DRAW, STEAL]
    draw_turn(game)
    assert game.turn == 3 and game.legal_actions() == [DRAW, STEAL]


def test_V2_none_the_first_player_may_lay_sets_and_replenish_on_turn_1() -> None:
    deck = cards("4c 5h 6h 9s jd qd kd 2c 2d 3d 3h 7s 8s 9d 8c")
    deck += [c for c in DECK if c not in set(deck)]
    game = pick(Game(rules=Rules(first_draw="none"), seed=0, deck=deck), "KS", "KH")
    play(game, LaySet(tuple(cards("4c 5h 6h"))))  # type: ignore[arg-type]
    assert_refused(game, DRAW, "the first player may not draw on turn 1 (V2)")
    play(game, "end")
    assert game.history[-1].cards[0] == Card.parse("8c")  # T4: the replenish still draws, from the top
    assert len(game.history[-1].cards) == 3 and game.hand_size(0) == 7 and game.phase == "discard"
    assert_refused(game, DRAW, "the first player may not draw on turn 1 (V2)")


# ---- V3: the second player's first steal is free ------------------------------------------------


@pytest.mark.parametrize("first", [0, 1])
def test_V3_a_steal_on_turn_2_does_not_count_for_the_steal_limit(first: int) -> None:
    second = 1 - first
    game = pick_deep(Game(rules=Rules(second_free_steal=True, first_player=first), seed=8))
    steal_turn(game)  # turn 1: the first player's steal counts as usual
    assert game.next_steal_turn(first) == 7
    steal_turn(game)  # turn 2: the second player's steal is free
    assert game.last_steal_turn(second) == 2 and game.next_steal_turn(second) == 4
    assert game.view("spectator")["players"][second]["next_steal_turn"] == 4
    draw_turn(game)
    assert game.turn == 4 and game.legal_actions() == [DRAW, STEAL]
    steal_turn(game)  # turn 4: this one counts (T2)
    assert game.next_steal_turn(second) == 10
    draw_turn(game)
    message = assert_refused(game, STEAL, f"Player {second + 1} stole on turn 4; next steal on turn 10")
    assert "V3" not in message


def test_V3_off_a_steal_on_turn_2_counts_as_on_the_card() -> None:
    game = pick_deep(Game(seed=8))
    draw_turn(game)
    steal_turn(game)
    draw_turn(game)
    assert_refused(game, STEAL, "Player 2 stole on turn 2; next steal on turn 8")


def test_V3_the_first_players_turn_1_steal_is_not_free() -> None:
    game = pick_deep(Game(rules=Rules(second_free_steal=True), seed=9))
    steal_turn(game)
    draw_turn(game)
    assert_refused(game, STEAL, "Player 1 stole on turn 1; next steal on turn 7")


# ---- Rules: validation, dict form, defaults -----------------------------------------------------

BAD_VARIANTS = [
    ("second_extra", -1, "an integer from 0 to 38"),
    ("second_extra", 39, "an integer from 0 to 38"),
    ("second_extra", 1.0, "an integer from 0 to 38"),
    ("second_extra", True, "an integer from 0 to 38"),
    ("second_extra", "1", "an integer from 0 to 38"),
    ("first_draw", "steal", "'any', 'pile' or 'none'"),
    ("first_draw", None, "'any', 'pile' or 'none'"),
    ("first_draw", "NONE", "'any', 'pile' or 'none'"),
    ("second_free_steal", 1, "True or False"),
    ("second_free_steal", "yes", "True or False"),
    ("second_free_steal", None, "True or False"),
]


@pytest.mark.parametrize("field, value, allowed", BAD_VARIANTS)
def test_V1_V2_V3_validation_names_the_field_the_value_and_what_is_allowed(
    field: str, value: object, allowed: str
) -> None:
    rules = Rules(**{field: value})  # type: ignore[arg-type]
    for attempt in (rules.validate, lambda: Game(rules=rules, seed=0), lambda: Rules.from_dict({field: value})):
        with pytest.raises(RulesError) as info:
            attempt()
        message = str(info.value)
        assert f"Rules.{field}" in message and repr(value) in message
        assert "allowed" in message and allowed in message


def test_V1_the_extra_cards_must_fit_the_deck() -> None:
    Rules(hand_size=20, second_extra=12).validate()
    with pytest.raises(RulesError, match=r"Rules.second_extra is 13; allowed: an integer from 0 to 12"):
        Rules(hand_size=20, second_extra=13).validate()
    with pytest.raises(RulesError, match=r"Rules.second_extra is 1; allowed: an integer from 0 to 0"):
        Rules(hand_size=26, second_extra=1).validate()


@pytest.mark.parametrize("rules", VARIANT_RULES)
def test_variants_round_trip_through_the_dict_form_and_name_their_rule(rules: Rules) -> None:
    data = rules.to_dict()
    assert Rules.from_dict(data) == rules
    assert Rules.from_dict(json.loads(json.dumps(data))) == rules
    shown = {name for name in OPTIONAL_VARIANTS if name in data}
    assert shown == {name for name in OPTIONAL_VARIANTS if getattr(rules, name) != getattr(Rules(), name)}
    assert [v.split()[0] for v in rules.variants] == sorted(OPTIONAL_VARIANTS[name] for name in shown)
    assert Game(rules=rules, seed=1).view("spectator")["rules"] == data  # shown to every perspective


def test_the_card_rules_have_no_variants_and_the_same_dict_as_before() -> None:
    assert Rules().variants == []
    assert Rules(second_extra=0, first_draw="any", second_free_steal=False) == Rules()
    assert Rules().to_dict() == {
        "hand_size": 7, "first_player": 0, "steal_every": 3, "ace": "low", "needle_bonus": 0, "max_turns": 300,
    }
    assert OPTIONAL_VARIANTS == {"second_extra": "V1", "first_draw": "V2", "second_free_steal": "V3"}


def test_default_rules_play_exactly_as_before_the_variants(monkeypatch: pytest.MonkeyPatch) -> None:
    """Fingerprints taken from the engine before V1-V3 existed (notebook 04's stored outputs), with the
    bots seeded as they were then (told the deal's seed, before `bots.bot_seed`).
    """
    from needle_widget.players import sim

    monkeypatch.setattr(sim, "bot_seed", lambda seed, seat: seed)
    lab = tournament([bots.RandomBot(seed=1), bots.GreedyBot(), bots.OddsBot()], games=400, seed=0, progress=False)
    decided = [r for r in lab.rows if r["winner"] is not None]
    assert (sum(r["winner"] == r["player1"] for r in decided), len(decided)) == (615, 983)
    assert [(s["wins"], s["losses"], s["draws"]) for s in lab.summary] == [(152, 503, 145), (418, 237, 145),
                                                                            (413, 243, 144)]


@pytest.mark.parametrize("seed", range(6))
def test_explicit_default_variants_give_the_same_games(seed: int) -> None:
    spelled = Rules(second_extra=0, first_draw="any", second_free_steal=False)
    a, b = play_game(bots.RandomBot(seed=seed), bots.GreedyBot(), seed=seed), play_game(
        bots.RandomBot(seed=seed), bots.GreedyBot(), seed=seed, rules=spelled)
    assert a.snapshot() == b.snapshot()


# ---- legality, replays, bots and worlds under the variants --------------------------------------


@pytest.mark.parametrize("k", range(len(VARIANT_RULES)))
def test_variant_legality_is_one_predicate(k: int) -> None:
    """legal_actions, why_not, the player's own view and the steal limits agree at every step."""
    rules = VARIANT_RULES[k]
    for seed in range(4):
        rng, game = random.Random(seed), Game(rules=rules, seed=seed)
        while game.phase != "over":
            p, legal = game.to_move, game.legal_actions()
            assert game.player_view(p).legal_actions() == legal
            if game.phase == "draw":
                assert [a for a in (DRAW, STEAL) if game.why_not(a) is None] == legal
                steal_ok = STEAL in legal
                if game.pile_size or len(game.discard_pile) >= 2 or game.turn > 1:
                    assert steal_ok == (bool(game.hand(1 - p)) and game.turn >= game.next_steal_turn(p))
            else:
                assert game.why_not(DRAW) is not None and game.why_not(STEAL) is not None
            game.apply(rng.choice(legal))


@pytest.mark.parametrize("k", range(len(VARIANT_RULES)))
def test_variant_games_round_trip_through_replays_exactly(k: int) -> None:
    rules = VARIANT_RULES[k]
    for seed in range(3):
        game, snapshots = random_game(seed + 10 * k, rules, careful=seed % 2 == 0)
        text = game.replay().to_json()
        assert json.loads(text)["rules"] == rules.to_dict()
        replay = Replay.from_json(text)
        assert replay.rules == rules
        for step, expected in enumerate(snapshots):
            assert replay.game_at(step).snapshot() == expected
        assert replay.to_json() == text


def test_a_variant_replay_stripped_of_its_variant_does_not_load() -> None:
    game = play_game(bots.GreedyBot(), bots.GreedyBot(), seed=3, rules=Rules(first_draw="none"))
    data = game.replay().to_dict()
    del data["rules"]["first_draw"]
    with pytest.raises(ReplayError):
        Replay.from_dict(data)


@pytest.mark.parametrize("rules", VARIANT_RULES)
def test_the_bots_play_variant_games_to_the_end(rules: Rules) -> None:
    for seed in range(3):
        for pair in ((bots.GreedyBot(), bots.OddsBot()), (bots.RandomBot(seed=seed), bots.GreedyBot())):
            assert play_game(*pair, seed=seed, rules=rules).is_over


@pytest.mark.parametrize("rules", [r for r in VARIANT_RULES if r.second_extra == 0])
def test_V2_V3_worlds_reproduce_each_players_view(rules: Rules) -> None:
    games = (play_game(bots.GreedyBot(), bots.GreedyBot(), seed=seed, rules=rules) for seed in range(11, 99))
    replay = next(g for g in games if len(g) >= 20).replay()
    for step in (3, 5, len(replay) // 2, len(replay) - 1):
        state = replay.game_at(step)
        for seat in (0, 1):
            assert all(w.view(seat) == state.view(seat) for w in worlds.sample(state.view(seat), 5, seed=1))


def test_choose_needle_still_refuses_own_cards_under_V1() -> None:
    game = Game(rules=Rules(second_extra=1), seed=2)
    play(game, ChooseNeedle(game.draw_pile[0]))
    assert_refused(game, ChooseNeedle(game.hand(1)[7]), "in Player 2's own hand")
