"""The engine, rule by rule (docs/RULES.md IDs in the test names: C1-C3, S1-S4, T1-T5, D1-D2,
E1-E5, P1-P3, worked examples X1-X7), plus Rules validation, refusals and legal_actions.

Most tests deal a stacked deck (see conftest.stacked): hands as written, then the
draw pile top first, then the unused cards in index order, so K♥ and K♠ sit at the
bottom of the pile and make needles that stay out of the way.
"""

from __future__ import annotations

import itertools
import random
from collections import Counter

import pytest
from conftest import (
    ALL_CARDS,
    all_zones,
    cards,
    pick,
    pick_crossed,
    pick_deep,
    play,
    pure_arguments,
    quiet_turn,
    stacked,
)

from needle_widget import Card, Game, IllegalAction, Rules, RulesError, set_points
from needle_widget.engine.actions import Action, ChooseNeedle, Discard, DrawPile, EndSets, LaySet, Steal

C = Card.parse
DRAW, STEAL, END = DrawPile(), Steal(), EndSets()


def lay(text: str) -> LaySet:
    return LaySet(tuple(cards(text)))  # type: ignore[arg-type]


def assert_refused(game: Game, action: object, *fragments: str) -> str:
    """The action raises IllegalAction whose message holds every fragment, and changes nothing."""
    before, legal = game.snapshot(), game.legal_actions()
    with pytest.raises(IllegalAction) as info:
        game.apply(action)  # type: ignore[arg-type]
    message = str(info.value)
    for fragment in fragments:
        assert fragment in message, message
    assert game.snapshot() == before
    assert game.legal_actions() == legal
    return message


def steal_turn(game: Game) -> Card:
    """Steal, lay nothing, discard the lowest card that is not the opponent's needle; return the stolen card."""
    p = game.to_move
    play(game, "steal")
    stolen = game.history[-1].cards[0]
    if game.is_over:
        return stolen
    play(game, "end")
    game.apply(Discard(next(c for c in game.hand(p) if c != game.needle(1 - p))))
    return stolen


# ---- C: components ---------------------------------------------------------------------


def test_C1_a_dealt_deck_is_the_52_standard_cards() -> None:
    for seed in range(5):
        game = Game(seed=seed)
        assert sorted(game.deck) == list(ALL_CARDS)
    assert sorted(c.rank for c in ALL_CARDS) == sorted(list(range(1, 14)) * 4)
    assert {c.suit for c in ALL_CARDS} == set("CDHS")
    assert [c.rank for c in cards("AS JH QD KC 10C")] == [1, 11, 12, 13, 10]


@pure_arguments
def test_C2_two_players_indexed_0_and_1_named_player_1_and_2() -> None:
    game = Game(seed=1)
    assert game.to_move == 0
    assert len(game.hand(0)) == len(game.hand(1)) == 7
    for bad in (2, -1, True, "0"):
        with pytest.raises(ValueError):
            game.hand(bad)  # type: ignore[arg-type]
    message = assert_refused(game, DRAW, "Player 1")
    assert "Player 0" not in message
    play(game, ChooseNeedle(game.draw_pile[0]))
    assert "Player 2" in assert_refused(game, DRAW)


def test_C3_zones_after_the_deal() -> None:
    game = Game(seed=3)
    assert len(game.hand(0)) == len(game.hand(1)) == 7
    assert len(game.draw_pile) == game.pile_size == 38
    assert game.discard_pile == [] and game.sets(0) == [] and game.sets(1) == []
    assert sorted(all_zones(game)) == list(ALL_CARDS)


def test_C3_cards_move_between_zones_and_stay_52() -> None:
    game = pick(stacked("4c 5c 6c 9s 10d jh 2h", "2c 2d 3d 3h 7s 8s 9d", "8c"), "KS", "KH")
    play(game, "draw", "lay 4c 5c 6c", "end", "discard 2h")
    assert game.sets(0) == [tuple(cards("4c 5c 6c"))]
    assert game.discard_pile == [C("2h")]
    assert sorted(all_zones(game)) == list(ALL_CARDS)


# ---- S: setup ----------------------------------------------------------------------------


def test_S1_the_same_seed_deals_the_same_deck() -> None:
    random.seed(1)
    a = Game(seed=42)
    random.seed(2)  # the engine must not use the global generator
    b = Game(seed=42)
    assert a.deck == b.deck and a.hand(0) == b.hand(0) and a.draw_pile == b.draw_pile
    assert len({Game(seed=s).deck for s in range(20)}) == 20


def test_S1_seed_plus_choices_reproduce_a_game_with_steals_and_reshuffles() -> None:
    def run() -> Game:
        game = pick_crossed(Game(rules=Rules(hand_size=24, steal_every=1), seed=11))
        for _ in range(12):
            if game.is_over:
                break
            if STEAL in game.legal_actions() and game.turn % 3 == 0:
                steal_turn(game)
            else:
                quiet_turn(game)
        return game

    a, b = run(), run()
    assert any(e.reshuffles for e in a.history) and any(type(e.action) is Steal for e in a.history)
    assert a.snapshot() == b.snapshot()
    assert a.history == b.history


def test_S1_seed_is_drawn_and_recorded_when_not_given() -> None:
    game = Game()
    assert isinstance(game.seed, int) and game.seed >= 0
    assert Game(seed=game.seed).deck == game.deck


@pytest.mark.parametrize("seed", [-1, *(pytest.param(s, marks=pure_arguments) for s in (1.5, "7", True))])
def test_S1_bad_seed_raises_value_error(seed: object) -> None:
    with pytest.raises(ValueError, match="seed"):
        Game(seed=seed)  # type: ignore[arg-type]


def test_S2_default_deal_is_7_each_38_in_the_pile_and_no_discards() -> None:
    game = Game(seed=9)
    assert Rules().hand_size == 7
    assert game.phase == "needle" and game.turn == 0
    assert sorted(game.hand(0)) == sorted(game.deck[0:7])
    assert sorted(game.hand(1)) == sorted(game.deck[7:14])
    assert game.draw_pile == list(game.deck[14:])
    assert game.discard_pile == []


@pytest.mark.parametrize("hand_size", [1, 2, 13, 25, 26])
def test_S2_hand_size_variant(hand_size: int) -> None:
    game = Game(rules=Rules(hand_size=hand_size), seed=4)
    assert len(game.hand(0)) == len(game.hand(1)) == hand_size
    assert len(game.draw_pile) == 52 - 2 * hand_size
    assert sorted(game.hand(1)) == sorted(game.deck[hand_size : 2 * hand_size])


def test_S2_dealing_from_a_given_deck_follows_the_design() -> None:
    deck = list(reversed(ALL_CARDS))
    game = Game(rules=Rules(hand_size=5), seed=0, deck=[c.code for c in deck])
    assert sorted(game.hand(0)) == sorted(deck[0:5])
    assert sorted(game.hand(1)) == sorted(deck[5:10])
    assert game.draw_pile == deck[10:]


@pytest.mark.parametrize(
    "deck, fragment",
    [(["AS"] * 52, "repeated"), ([c.code for c in ALL_CARDS[:51]], "missing"), (["ZZ"] + ["AS"] * 51, "ZZ")],
)
def test_S2_a_bad_deck_raises_value_error(deck: list[str], fragment: str) -> None:
    with pytest.raises(ValueError, match=fragment):
        Game(deck=deck)


def test_S3_needles_are_picked_by_player_1_then_player_2_from_cards_not_in_own_hand() -> None:
    game = Game(seed=5)
    assert (game.phase, game.to_move) == ("needle", 0)
    legal = game.legal_actions()
    assert len(legal) == 45 and all(type(a) is ChooseNeedle for a in legal)
    assert {a.card for a in legal} == set(ALL_CARDS) - set(game.hand(0))
    assert_refused(game, ChooseNeedle(game.hand(0)[0]), "own hand")
    game.apply(ChooseNeedle(game.hand(1)[0]))  # a card of the opponent's hand is fine
    assert (game.phase, game.to_move, game.turn) == ("needle", 1, 0)
    assert {a.card for a in game.legal_actions()} == set(ALL_CARDS) - set(game.hand(1))
    assert_refused(game, ChooseNeedle(game.hand(1)[-1]), "own hand")


def test_S3_both_players_may_pick_the_same_card_and_the_pick_is_fixed() -> None:
    game = pick(stacked("2c 3c 4c 5c 6c 7c 8c", "2d 3d 4d 5d 6d 7d 8d", "9h"), "KS", "KS")
    assert game.needle(0) == game.needle(1) == C("KS")
    assert (game.phase, game.turn) == ("draw", 1)
    assert_refused(game, ChooseNeedle("QS"), "Choose needle Q♠ not allowed")
    assert game.needle(0) == C("KS")


def test_S3_needles_are_none_before_picking() -> None:
    game = Game(seed=2)
    assert game.needle(0) is None and game.needle(1) is None


def test_S4_player_1_takes_the_first_turn_by_default() -> None:
    game = pick_deep(Game(seed=6))
    assert Rules().first_player == 0
    assert (game.turn, game.to_move, game.phase) == (1, 0, "draw")
    quiet_turn(game)
    assert (game.turn, game.to_move) == (2, 1)


def test_S4_first_player_variant_1() -> None:
    game = Game(rules=Rules(first_player=1), seed=6)
    assert game.to_move == 0  # needles: Player 1 still picks first
    pick_deep(game)
    assert (game.turn, game.to_move, game.first_player) == (1, 1, 1)
    quiet_turn(game)
    assert (game.turn, game.to_move) == (2, 0)


def test_S4_first_player_random_is_seeded_and_takes_both_values() -> None:
    firsts = {}
    for seed in range(40):
        game = pick_deep(Game(rules=Rules(first_player="random"), seed=seed))
        assert game.to_move == game.first_player
        assert Game(rules=Rules(first_player="random"), seed=seed).first_player == game.first_player
        firsts[seed] = game.first_player
    assert set(firsts.values()) == {0, 1}


# ---- T: a turn ---------------------------------------------------------------------------


def test_T1_draw_takes_the_top_of_the_draw_pile() -> None:
    game = pick_deep(Game(seed=8))
    top, rest = game.draw_pile[0], game.draw_pile[1:]
    assert game.legal_actions() == [DRAW, STEAL]
    game.apply(DRAW)
    assert top in game.hand(0) and len(game.hand(0)) == 8
    assert game.draw_pile == rest
    assert game.phase == "sets"
    assert game.history[-1].cards == (top,)


def test_T1_steal_takes_a_card_of_the_opponents_hand() -> None:
    game = pick_deep(Game(seed=8))
    theirs = set(game.hand(1))
    pile = game.draw_pile
    game.apply(STEAL)
    (stolen,) = game.history[-1].cards
    assert stolen in theirs
    assert set(game.hand(1)) == theirs - {stolen}
    assert stolen in game.hand(0) and len(game.hand(0)) == 8
    assert game.draw_pile == pile
    assert game.phase == "sets"


def test_T1_steal_from_a_one_card_hand_is_determined() -> None:
    game = pick(stacked("2c", "3c", "4c", rules=Rules(hand_size=1)), "KS", "KH")
    game.apply(STEAL)
    assert game.hand(0) == cards("2c 3c") and game.hand(1) == []


def test_T1_steal_is_uniform_over_the_opponents_hand() -> None:
    counts: Counter[Card] = Counter()
    runs = 700
    for seed in range(runs):
        game = pick(stacked("2c 3c 4c 5c 6c 7c 8c", "2d 3d 4d 5d 6d 7d 8d", "9h", seed=seed), "KS", "KH")
        game.apply(STEAL)
        counts[game.history[-1].cards[0]] += 1
    assert set(counts) == set(cards("2d 3d 4d 5d 6d 7d 8d"))
    for n in counts.values():  # expected 100 each; sd about 9.3
        assert 60 <= n <= 140, counts


def test_X4_T2_steal_limit_once_in_three_own_turns() -> None:
    game = pick_deep(Game(seed=12))
    steal_turn(game)  # turn 1
    assert game.last_steal_turn(0) == 1 and game.next_steal_turn(0) == 7
    for turn in (2, 3, 4, 5, 6):
        assert game.turn == turn
        if game.to_move == 0:  # turns 3 and 5: only the pile
            assert game.legal_actions() == [DRAW]
            assert_refused(game, STEAL, "Steal not allowed: Player 1 stole on turn 1; next steal on turn 7")
        quiet_turn(game)
    assert (game.turn, game.to_move) == (7, 0)
    assert game.legal_actions() == [DRAW, STEAL]
    steal_turn(game)
    assert game.next_steal_turn(0) == 13


@pytest.mark.parametrize("steal_every", [1, 2, 3, 4])
def test_T2_steal_every_variant(steal_every: int) -> None:
    game = pick_deep(Game(rules=Rules(steal_every=steal_every), seed=13))
    steal_turn(game)
    seen: dict[int, bool] = {}
    while game.turn < 1 + 2 * 5:
        if game.to_move == 0:
            seen[game.turn] = STEAL in game.legal_actions()
        quiet_turn(game)
    # own k-th turn is turn 2k-1; after stealing on own turn 1 the next steal is own turn 1+steal_every
    assert seen == {t: t >= 1 + 2 * steal_every for t in (3, 5, 7, 9)}


def test_T2_the_limit_counts_each_players_own_turns_with_player_2_first() -> None:
    game = pick_deep(Game(rules=Rules(first_player=1), seed=14))
    assert game.next_steal_turn(1) == 1 and game.next_steal_turn(0) == 2
    steal_turn(game)  # Player 2 on turn 1
    assert game.next_steal_turn(1) == 7
    assert game.legal_actions() == [DRAW, STEAL]  # Player 1 is not limited by Player 2's steal


def test_T2_no_steal_from_an_empty_hand() -> None:
    game = pick(stacked("2c", "3c", "4c", rules=Rules(hand_size=1, steal_every=1)), "KS", "KH")
    play(game, "steal", "end", "discard 2c")  # Player 2's hand is now empty
    play(game, "draw", "end", "discard 4c")  # Player 2 draws and discards: still empty
    assert game.hand(1) == [] and game.turn == 3
    assert game.legal_actions() == [DRAW]
    assert_refused(game, STEAL, "Steal not allowed", "Player 2's hand is empty")


def test_T3_a_set_is_three_consecutive_ranks_in_any_suits() -> None:
    game = pick(stacked("4c 4d 5h 6h 6s 9s 10s", "2c 2d 3d 3h 7s 8s 9d", "jc"), "KS", "KH")
    play(game, "draw")
    legal = game.legal_actions()
    assert legal[-1] == END
    laysets = legal[:-1]
    expected = {lay(f"{a} 5h {b}") for a in ("4c", "4d") for b in ("6h", "6s")} | {lay("9s 10s jc")}
    assert set(laysets) == expected and len(laysets) == len(expected)
    ranks = [min(c.rank for c in a.cards) for a in laysets]
    assert ranks == sorted(ranks)
    hand = game.hand(0)
    assert expected == {LaySet(t) for t in itertools.combinations(hand, 3) if Rules().is_set(t)}


def test_T3_sets_are_laid_one_at_a_time_and_stay_with_their_maker() -> None:
    game = pick(stacked("4c 4d 5h 6h 6s 5s 10s", "2c 2d 3d 3h 7s 8s 9d", "3s"), "KS", "KH")
    play(game, "draw", "lay 4c 5h 6h")
    assert game.phase == "sets"
    assert lay("4d 5s 6s") in game.legal_actions()
    play(game, "lay 4d 5s 6s")
    assert game.sets(0) == [tuple(cards("4c 5h 6h")), tuple(cards("4d 5s 6s"))]
    play(game, "end", Discard(game.hand(0)[0]))
    quiet_turn(game)
    quiet_turn(game)
    assert game.sets(0) == [tuple(cards("4c 5h 6h")), tuple(cards("4d 5s 6s"))]
    assert game.sets(1) == []


def test_T3_refuses_non_sets_and_cards_not_held() -> None:
    game = pick(stacked("4c 5h 7h 9s 10d jh 2h", "2c 2d 3d 3h 7s 8s 9d", "qc"), "KS", "KH")
    play(game, "draw")
    assert_refused(game, lay("4c 5h 7h"), "Lay set 4♣ 5♥ 7♥ not allowed", "not consecutive")
    assert_refused(game, lay("3d 4c 5h"), "Player 1 does not hold 3♦")
    assert_refused(game, LaySet(tuple(cards("10d 10d jh"))), "not allowed")  # type: ignore[arg-type]
    assert game.legal_actions() == [lay("9s 10d jh"), lay("10d jh qc"), END]


SET_CASES = {
    "low": {"AS 2D 3C": True, "QS KS AS": False, "KS AS 2D": False},
    "low_or_high": {"AS 2D 3C": True, "QS KS AS": True, "KS AS 2D": False},
    "wrap": {"AS 2D 3C": True, "QS KS AS": True, "KS AS 2D": True},
}


@pytest.mark.parametrize("ace", ["low", "low_or_high", "wrap"])
def test_T3_ace_variants(ace: str) -> None:
    rules = Rules(ace=ace)
    for text, is_set in SET_CASES[ace].items():
        assert rules.is_set(cards(text)) is is_set, text
    for text in ("JS QS KS", "10C JH QD"):
        assert rules.is_set(cards(text))
    for text in ("JS QS AS", "2S 3S 5S", "KS AS 3D", "QS KS 2D"):
        assert not rules.is_set(cards(text)), text
    assert set_points(cards("QS KH AD")) == 1  # the ace is not a face card (P2)
    game = pick(stacked("qs ks as 2d 7c 9h 4h", "2c 2h 3d 3h 7s 8s 9d", "5c", rules=rules), "KD", "KH")
    play(game, "draw")
    laysets = set(game.legal_actions()[:-1])
    assert laysets == {lay(t) for t in ("QS KS AS", "KS AS 2D") if SET_CASES[ace][t]}
    if ace != "low":
        play(game, "lay qs ks as")
        assert game.scores == (2, 0)
    else:
        assert_refused(game, lay("qs ks as"), "not consecutive under ace rule 'low'")


def test_T3_a_set_needs_three_different_cards() -> None:
    assert not Rules().is_set(cards("5h 5h 6h"))
    assert not Rules().is_set(cards("5h 6h"))
    assert not Rules().is_set(cards("4h 5h 6h 7h"))


def test_T4_replenish_draws_three_per_set_from_the_top() -> None:
    game = pick(stacked("4c 5c 6c 9s 10d jh 2h", "2c 2d 3d 3h 7s 8s 9d", "8c 7c 8h 9c 3s"), "KS", "KH")
    play(game, "draw", "lay 4c 5c 6c")
    assert len(game.hand(0)) == 5
    play(game, "end")
    assert game.history[-1].cards == tuple(cards("7c 8h 9c"))
    assert len(game.hand(0)) == 8 and game.draw_pile[0] == C("3s")
    assert game.phase == "discard"
    # the replenished 7♣ 8♣ 9♣ is a set, but no more sets may be laid this turn
    assert game.legal_actions() == [Discard(c) for c in game.hand(0)]
    assert_refused(game, lay("7c 8c 9c"), "not allowed", "discard")


def test_T4_no_sets_no_replenish() -> None:
    game = pick(stacked("4c 5c 6c 9s 10d jh 2h", "2c 2d 3d 3h 7s 8s 9d", "8c"), "KS", "KH")
    play(game, "draw")
    pile = game.draw_pile
    play(game, "end")
    assert game.history[-1].cards == ()
    assert len(game.hand(0)) == 8 and game.draw_pile == pile and game.phase == "discard"


def test_T5_discard_one_card_face_up_and_the_turn_ends() -> None:
    game = pick(stacked("4c 5c 6c 9s 10d jh 2h", "2c 2d 3d 3h 7s 8s 9d", "8c"), "KS", "KH")
    play(game, "draw", "end")
    assert_refused(game, Discard("2c"), "Discard 2♣ not allowed: Player 1 does not hold 2♣")
    play(game, "discard 9s")
    assert game.discard_pile == [C("9s")]
    assert C("9s") not in game.hand(0) and len(game.hand(0)) == 7
    assert (game.turn, game.to_move, game.phase) == (2, 1, "draw")
    play(game, "draw", "end", "discard 2c")
    assert game.discard_pile == cards("9s 2c")  # top last


# ---- X: worked examples ------------------------------------------------------------------


def test_X1_P1_P2_runs_score_1_and_same_suit_faces_score_2() -> None:
    game = pick(stacked("4c 5h 6h 9s jd qd kd", "2c 2d 3d 3h 7s 8s 9d", "8c"), "KS", "KH")
    play(game, "draw", "lay 4c 5h 6h")
    assert game.scores == (1, 0)
    play(game, "lay jd qd kd")
    assert game.scores == (3, 0)
    assert [set_points(s) for s in game.sets(0)] == [1, 2]


@pytest.mark.parametrize(
    "text, points",
    [
        ("JC QH KS", 2),  # X2: all face cards
        ("10C JH QS", 1),  # X2
        ("10H JH QH", 2),  # X2: same suit
        ("JD QD KD", 2),  # X1: same-suit J-Q-K still scores 2
        ("4C 5H 6H", 1),  # X1
        ("AS 2D 3C", 1),  # X3
        ("2S 3S 4S", 2),
        ("9S 10D JC", 1),
    ],
)
def test_X2_P1_P2_set_points(text: str, points: int) -> None:
    assert set_points(cards(text)) == points
    hand = cards(text) + cards("7c 7d 7h 8h")
    game = pick(stacked(hand, "2h 8d 9d 5s 6s 8s 9h", "3h"), "KC", "KH")
    play(game, "draw", LaySet(tuple(cards(text))))  # type: ignore[arg-type]
    assert game.scores == (points, 0)


def test_X3_ace_low_set_and_no_queen_king_ace_by_default() -> None:
    assert Rules().is_set(cards("AS 2D 3C"))
    assert not Rules().is_set(cards("QS KS AS"))
    game = pick(stacked("as 2d 3c qs ks 7h 9h", "2c 2h 3d 3h 7s 8s 9d", "5c"), "KD", "KH")
    play(game, "draw")
    assert game.legal_actions() == [lay("AS 2D 3C"), END]
    play(game, "lay as 2d 3c")
    assert game.scores == (1, 0)


def test_X5_two_sets_from_eight_cards_replenish_six_and_end_with_seven() -> None:
    game = pick(stacked("4c 5h 6h 9s jd qd kd", "2c 2d 3d 3h 7s 8s 9d", "8c"), "KS", "KH")
    play(game, "draw")
    assert len(game.hand(0)) == 8
    play(game, "lay 4c 5h 6h", "lay jd qd kd")
    assert len(game.hand(0)) == 2
    play(game, "end")
    assert len(game.history[-1].cards) == 6 and len(game.hand(0)) == 8
    play(game, Discard(game.hand(0)[0]))
    assert len(game.hand(0)) == 7


def test_X6_E2_P3_discarding_the_opponents_needle_ends_the_round() -> None:
    game = pick(stacked("4c 5c 6d 7h 9s 10d 2h", "2c 2d 3d 3h 7s 8s 9d", "8c"), "KS", "7H")
    play(game, "draw", "lay 4c 5c 6d", "end")
    assert game.phase == "discard"
    play(game, "discard 7h")
    assert game.phase == "over" and game.legal_actions() == []
    result = game.result
    assert result is not None
    assert (result.reason, result.needle_owner, result.winner, result.scores) == ("discarded", 1, 0, (1, 0))
    assert result.turn == 1 and game.discard_pile[-1] == C("7h")
    assert_refused(game, DRAW, "the round is over")


def test_X7_D1_reshuffle_at_draw_keeps_the_top_discard() -> None:
    game = stacked("4c 5c 6c 3c kh qh", "8d qs", "9h 9d 10h 10d jh jd", rules=Rules(hand_size=23))
    pick(game, "QS", "QH")  # each needle sits in the opponent's hand, out of the way
    play(game, "draw", "lay 4c 5c 6c", "end", "discard 3c")  # turn 1
    play(game, "draw", "end", "discard 8d")  # turn 2
    play(game, "draw", "end", "discard kh")  # turn 3
    assert game.draw_pile == [] and game.discard_pile == cards("3c 8d kh")
    assert game.legal_actions() == [DRAW, STEAL]
    play(game, "draw")  # turn 4: D1
    assert game.discard_pile == [C("kh")]
    (drawn,) = game.history[-1].cards
    assert {drawn, *game.draw_pile} == set(cards("3c 8d")) and len(game.draw_pile) == 1
    assert drawn in game.hand(1)
    assert game.history[-1].reshuffles == ((drawn, game.draw_pile[0]),)
    assert sorted(all_zones(game)) == list(ALL_CARDS)


def test_X7_D1_D2_reshuffle_in_the_middle_of_a_replenish() -> None:
    game = stacked("3c kh qh", "8d qs 4s 5s 6s", "9h 9d 10h 10d", rules=Rules(hand_size=24))
    pick(game, "QS", "QH")
    play(game, "draw", "end", "discard 3c", "draw", "end", "discard 8d", "draw", "end", "discard kh")
    play(game, "draw")  # turn 4: Player 2 takes the last pile card
    assert game.draw_pile == [] and game.discard_pile == cards("3c 8d kh")
    play(game, "lay 4s 5s 6s", "end")
    event = game.history[-1]
    assert set(event.cards) == set(cards("3c 8d")) and len(event.cards) == 2  # D2: only 2 of 3 exist
    assert [set(r) for r in event.reshuffles] == [set(cards("3c 8d"))]
    assert game.discard_pile == [C("kh")] and game.draw_pile == []
    assert len(game.hand(1)) == 24 and game.phase == "discard"


def test_D1_the_reshuffle_is_seeded() -> None:
    def reshuffled(seed: int) -> tuple[Card, ...]:
        game = stacked("4c 5c 6c 3c kh qh", "8d qs", "9h 9d 10h 10d jh jd", rules=Rules(hand_size=23), seed=seed)
        pick(game, "QS", "QH")
        play(game, "draw", "lay 4c 5c 6c", "end", "discard 3c", "draw", "end", "discard 8d")
        play(game, "draw", "end", "discard kh", "draw")
        return game.history[-1].reshuffles[0]

    orders = [reshuffled(seed) for seed in range(16)]
    assert orders == [reshuffled(seed) for seed in range(16)]
    assert set(orders) == {tuple(cards("3c 8d")), tuple(cards("8d 3c"))}


def test_D2_T1_must_steal_when_the_pile_cannot_be_drawn() -> None:
    game = stacked("4c 5c 6c 3c qh", "qs", "9h 9d", rules=Rules(hand_size=25))
    pick(game, "QS", "QH")
    play(game, "draw", "lay 4c 5c 6c", "end")
    assert game.history[-1].cards == (C("9d"),)  # D2: replenish draws the one card that exists
    assert game.draw_pile == [] and len(game.hand(0)) == 24
    play(game, "discard 3c")
    assert game.discard_pile == [C("3c")]
    assert game.legal_actions() == [STEAL]
    assert_refused(game, DRAW, "Draw from pile not allowed", "draw pile is empty", "1 card(s)")
    before = len(game.hand(1))
    play(game, "steal")
    assert len(game.hand(1)) == before + 1


def test_D2_on_turn_1_with_no_draw_pile_the_only_draw_is_a_steal() -> None:
    game = pick_crossed(Game(rules=Rules(hand_size=26), seed=0))
    assert game.draw_pile == []
    assert game.legal_actions() == [STEAL]
    assert_refused(game, DRAW, "draw pile is empty and the discard pile has 0 card(s)")


# ---- E: ending the round -----------------------------------------------------------------


def test_E1_found_by_drawing_from_the_pile() -> None:
    game = pick(stacked("4c 5c 6c 9s 10d jh 2h", "2c 2d 3d 3h 7s 8s 9d", "8c"), "8C", "KH")
    play(game, "draw")
    result = game.result
    assert result is not None and game.phase == "over"
    assert (result.reason, result.needle_owner, result.winner, result.scores) == ("found", 0, None, (0, 0))
    assert C("8c") in game.hand(0)


def test_E1_found_by_player_2_on_turn_2() -> None:
    game = pick(stacked("4c 5c 6c 9s 10d jh 2h", "2c 2d 3d 3h 7s 8s 9d", "8c 8d"), "KS", "8D")
    quiet_turn(game)
    play(game, "draw")
    assert game.result is not None
    assert (game.result.reason, game.result.needle_owner, game.result.turn) == ("found", 1, 2)


def test_E1_found_by_stealing() -> None:
    game = pick(stacked("2c", "3c", "4c", rules=Rules(hand_size=1)), "3C", "KH")
    play(game, "steal")
    assert game.result is not None
    assert (game.result.reason, game.result.needle_owner) == ("found", 0)


def test_E1_found_while_replenishing_stops_the_draws_at_once() -> None:
    game = pick(stacked("4c 5c 6c 9s 10d jh 2h", "2c 2d 3d 3h 7s 8s 9d", "8c 7d ks 7c"), "KS", "KH")
    play(game, "draw", "lay 4c 5c 6c", "end")
    assert game.history[-1].cards == tuple(cards("7d ks"))
    assert game.draw_pile[0] == C("7c")
    result = game.result
    assert result is not None
    assert (result.reason, result.needle_owner, result.winner, result.scores) == ("found", 0, 0, (2, 0))
    assert game.legal_actions() == []


def test_E1_drawing_the_opponents_needle_does_not_end_the_round() -> None:
    game = pick(stacked("4c 5c 6c 9s 10d jh 2h", "2c 2d 3d 3h 7s 8s 9d", "8c"), "KS", "8C")
    play(game, "draw", "end")
    assert game.phase == "discard" and game.result is None
    play(game, "discard 8c")  # ... but discarding it does (E2)
    assert game.result is not None and game.result.reason == "discarded"


def test_E3_laying_the_opponents_needle_in_a_set_ends_the_round_and_the_set_counts() -> None:
    game = pick(stacked("4c 5c 6c 9s 10d jh 2h", "2c 2d 3d 3h 7s 8s 9d", "8c"), "KS", "5C")
    play(game, "draw", "lay 4c 5c 6c")
    result = game.result
    assert result is not None and game.phase == "over"
    assert (result.reason, result.needle_owner, result.winner, result.scores) == ("melded", 1, 0, (2, 0))
    assert game.sets(0) == [tuple(cards("4c 5c 6c"))]
    assert_refused(game, END, "the round is over")


def test_E4_exhaustion_when_nothing_can_be_drawn_at_T1() -> None:
    """R-E4 / D2. E4 cannot be reached by legal play (docs/RULES.md, under E4, gives the
    argument: at a draw with an empty pile the mover's needle is in the opponent's hand, so
    a steal is open unless T2 forbids it, and by then two discards exist to reshuffle).

    Here the legality predicate itself is narrowed, through the public API: a Game whose
    `why_not` also forbids a steal on turn 1, with an empty draw pile (hand_size 26) and an
    empty discard pile. E4 follows from the predicate alone.
    """

    class NoStealOnTurnOne(Game):
        def why_not(self, action: Action) -> str | None:
            if type(action) is Steal and self.turn == 1:
                return "this test forbids a steal on turn 1"
            return super().why_not(action)

    game = NoStealOnTurnOne(rules=Rules(hand_size=26), seed=0)
    pick_crossed(game)
    result = game.result
    assert game.phase == "over" and result is not None
    assert (result.reason, result.winner, result.scores, result.needle_owner) == ("exhausted", None, (0, 0), None)
    assert game.legal_actions() == []


@pytest.mark.parametrize("max_turns", [1, 2, 5])
def test_E5_turn_limit_is_reached(max_turns: int) -> None:
    game = pick_crossed(Game(rules=Rules(max_turns=max_turns), seed=15))
    for turn in range(1, max_turns + 1):
        assert game.turn == turn and game.phase == "draw"
        play(game, "draw", "end")
        assert game.phase == "discard"
        quiet_discard = next(c for c in game.hand(game.to_move) if c != game.needle(1 - game.to_move))
        play(game, Discard(quiet_discard))
    result = game.result
    assert game.phase == "over" and result is not None
    assert (result.reason, result.turn, result.needle_owner) == ("turn_limit", max_turns, None)
    assert game.turn == max_turns


def test_E5_default_turn_limit_of_300_is_reached() -> None:
    assert Rules().max_turns == 300
    game = pick_crossed(Game(seed=16))
    while game.phase != "over":
        quiet_turn(game)
    assert game.result is not None
    assert (game.result.reason, game.turn) == ("turn_limit", 300)
    assert any(e.reshuffles for e in game.history)


def test_E5_scores_decide_the_winner_at_the_turn_limit() -> None:
    game = pick(stacked("4c 5c 6c 9s 10d jh 2h", "2c 2d 3d 3h 7s 8s 9d", "8c", rules=Rules(max_turns=2)), "KS", "KH")
    play(game, "draw", "lay 4c 5c 6c", "end", "discard 2h")
    quiet_turn(game)
    assert game.result is not None
    assert (game.result.reason, game.result.winner, game.result.scores) == ("turn_limit", 0, (2, 0))


# ---- P: scoring and winner ----------------------------------------------------------------


def test_P3_equal_points_is_a_draw() -> None:
    rules = Rules(max_turns=2)
    game = pick(stacked("4c 5h 6c 9s 10d jh 2h", "2c 3d 4h 8d 7s 8s 9d", "8c", rules=rules), "KS", "KH")
    play(game, "draw", "lay 4c 5h 6c", "end", "discard 2h")  # Player 1: 1 point
    play(game, "draw", "lay 2c 3d 4h", "end", "discard 8d")  # Player 2: 1 point
    assert game.result is not None
    assert (game.result.reason, game.result.winner, game.result.scores) == ("turn_limit", None, (1, 1))


@pytest.mark.parametrize("bonus, winner, scores", [(0, 0, (2, 0)), (1, 0, (2, 1)), (2, None, (2, 2)), (3, 1, (2, 3))])
def test_P3_needle_bonus_goes_to_the_finder(bonus: int, winner: int | None, scores: tuple[int, int]) -> None:
    rules = Rules(needle_bonus=bonus)
    game = pick(stacked("4c 5c 6c 9s 10d jh 2h", "2c 3d 4h 8d 7s 8s 9d", "8c 7c 8h 9c 10h", rules=rules), "KS", "10H")
    play(game, "draw", "lay 4c 5c 6c", "end", "discard 2h")
    play(game, "draw")  # Player 2 finds 10♥
    result = game.result
    assert result is not None
    assert (result.reason, result.needle_owner, result.winner, result.scores) == ("found", 1, winner, scores)
    assert game.scores == scores


def test_P3_needle_bonus_is_not_given_for_discarded_or_melded_needles() -> None:
    rules = Rules(needle_bonus=5)
    discarded = pick(stacked("4c 5c 6d 7h 9s 10d 2h", "2c 2d 3d 3h 7s 8s 9d", "8c", rules=rules), "KS", "7H")
    play(discarded, "draw", "end", "discard 7h")
    melded = pick(stacked("4c 5c 6c 9s 10d jh 2h", "2c 2d 3d 3h 7s 8s 9d", "8c", rules=rules), "KS", "5C")
    play(melded, "draw", "lay 4c 5c 6c")
    assert discarded.result is not None and melded.result is not None
    assert (discarded.result.reason, discarded.result.scores) == ("discarded", (0, 0))
    assert (melded.result.reason, melded.result.scores) == ("melded", (2, 0))


# ---- Rules validation ---------------------------------------------------------------------

BAD_RULES = [
    ("hand_size", 0, "1 to 26"),
    ("hand_size", 27, "1 to 26"),
    ("hand_size", -3, "1 to 26"),
    ("hand_size", "7", "1 to 26"),
    ("hand_size", 7.0, "1 to 26"),
    ("hand_size", True, "1 to 26"),
    ("first_player", 2, "0, 1 or 'random'"),
    ("first_player", -1, "0, 1 or 'random'"),
    ("first_player", "first", "0, 1 or 'random'"),
    ("first_player", None, "0, 1 or 'random'"),
    ("first_player", True, "0, 1 or 'random'"),
    ("first_player", 1.0, "0, 1 or 'random'"),  # once accepted: 1.0 == 1
    ("first_player", 0.0, "0, 1 or 'random'"),
    ("steal_every", 0, ">= 1"),
    ("steal_every", 1.5, ">= 1"),
    ("ace", "high", "'low', 'low_or_high' or 'wrap'"),
    ("ace", "LOW", "'low', 'low_or_high' or 'wrap'"),
    ("ace", None, "'low', 'low_or_high' or 'wrap'"),
    ("needle_bonus", -1, ">= 0"),
    ("needle_bonus", 0.5, ">= 0"),
    ("max_turns", 0, ">= 1"),
    ("max_turns", 2.5, ">= 1"),
]


@pytest.mark.parametrize("field, value, allowed", BAD_RULES)
def test_rules_validation_names_the_field_and_what_is_allowed(field: str, value: object, allowed: str) -> None:
    rules = Rules(**{field: value})  # type: ignore[arg-type]
    for attempt in (rules.validate, lambda: Game(rules=rules, seed=0), lambda: Rules.from_dict({field: value})):
        with pytest.raises(ValueError) as info:
            attempt()
        assert isinstance(info.value, RulesError)
        message = str(info.value)
        assert f"Rules.{field}" in message and repr(value) in message
        assert "allowed" in message and allowed in message


@pytest.mark.parametrize(
    "changes",
    [
        {},
        {"hand_size": 1},
        {"hand_size": 26},
        {"first_player": 1},
        {"first_player": "random"},
        {"steal_every": 1},
        {"steal_every": 100},
        {"ace": "low_or_high"},
        {"ace": "wrap"},
        {"needle_bonus": 3},
        {"max_turns": 1},
    ],
)
def test_rules_valid_values_are_accepted_and_round_trip(changes: dict[str, object]) -> None:
    rules = Rules(**changes)  # type: ignore[arg-type]
    assert rules.validate() is rules
    assert Rules.from_dict(rules.to_dict()) == rules
    Game(rules=rules, seed=0)


def test_rules_defaults_are_the_literal_reading() -> None:
    assert Rules().to_dict() == {
        "hand_size": 7, "first_player": 0, "steal_every": 3, "ace": "low", "needle_bonus": 0, "max_turns": 300,
    }


def test_rules_from_dict_rejects_unknown_fields_and_non_dicts() -> None:
    with pytest.raises(ValueError, match="'hand'"):
        Rules.from_dict({"hand": 7})
    with pytest.raises(ValueError):
        Rules.from_dict([("hand_size", 7)])


def test_rules_are_frozen() -> None:
    with pytest.raises(AttributeError):
        Rules().hand_size = 3  # type: ignore[misc]


# ---- refusals and legal_actions -------------------------------------------------------------


def test_refusals_in_every_phase_name_the_action_and_reason_and_change_nothing() -> None:
    game = stacked("4c 5c 6c 9s 10d jh 2h", "2c 2d 3d 3h 7s 8s 9d", "8c")
    assert_refused(game, Discard("7h"), "Discard 7♥ not allowed", "Player 1", "legal: Choose needle")
    assert_refused(game, DRAW, "Draw from pile not allowed")
    assert_refused(game, ChooseNeedle("4c"), "Choose needle 4♣ not allowed", "4♣ is in Player 1's own hand")
    pick(game, "KS", "KH")
    assert_refused(game, END, "Done laying sets not allowed", "Player 1's draw on turn 1", "legal: Draw from pile")
    assert_refused(game, lay("4c 5c 6c"), "not allowed", "draw")
    play(game, "draw")
    assert_refused(game, Discard("2h"), "Discard 2♥ not allowed", "sets")
    assert_refused(game, DRAW, "Draw from pile not allowed")
    assert_refused(game, STEAL, "Steal not allowed")
    assert_refused(game, ChooseNeedle("QS"), "Choose needle Q♠ not allowed")
    play(game, "end")
    assert_refused(game, Discard("2c"), "Player 1 does not hold 2♣")
    assert_refused(game, END, "not allowed", "discard")


@pytest.mark.parametrize("junk", ["draw", None, 3, {"type": "draw_pile"}, DrawPile])
def test_apply_rejects_things_that_are_not_actions(junk: object) -> None:
    game = pick_deep(Game(seed=1))
    assert_refused(game, junk, "Not an action")


def test_legal_actions_in_each_phase_are_stable_ordered_and_unique() -> None:
    game = stacked("4c 5h 6h 9s jd qd kd", "2c 2d 3d 3h 7s 8s 9d", "8c")
    needles = game.legal_actions()
    assert [a.card for a in needles] == sorted(set(ALL_CARDS) - set(game.hand(0)))  # type: ignore[union-attr]
    pick(game, "KS", "KH")
    assert game.legal_actions() == game.legal_actions() == [DRAW, STEAL]
    play(game, "draw")
    legal = game.legal_actions()
    assert legal == [lay("4c 5h 6h"), lay("jd qd kd"), END] == game.legal_actions()
    legal.clear()  # the returned list is a copy
    assert len(game.legal_actions()) == 3
    play(game, "end")
    discards = game.legal_actions()
    assert discards == [Discard(c) for c in sorted(game.hand(0))]
    assert len(set(discards)) == len(discards) == 8


def test_game_copy_is_independent() -> None:
    game = pick_deep(Game(seed=21))
    twin = game.copy()
    steal_turn(twin)
    assert game.turn == 1 and game.history[-1].action == ChooseNeedle(game.needle(1))  # type: ignore[arg-type]
    steal_turn(game)
    assert game.snapshot() == twin.snapshot()
