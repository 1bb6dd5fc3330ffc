"""Possible worlds under the optional balance variants V1-V3 (docs/RULES.md, "Balance variants").

V1 (`second_extra`) deals the second player more cards than the first, so the slots of
the opponent's dealt hand (and the spectator's tokens) follow `Rules.dealt`, not
`hand_size`. Checked by behaviour on seeded GreedyBot games: every world of `sample`
(both players, the spectator) and of `posterior` (both players, GreedyBot model) gives
the view exactly, at several steps including after a reshuffle; each world's deal has
the real sizes, holds the seat's real dealt hand, and replays from its own deck; the
model-free needle odds agree with `knowledge` (chi-square at the 0.001 level, fixed
seeds), and a tiny V1 game gives the exact chance that a revealed card was dealt.
"""

from __future__ import annotations

from collections import Counter

import pytest
from test_secrecy_reshuffle import redo
from test_worlds import LEVEL, chi_square, needle_check

from needle_widget import Card, Game, Replay, Rules, actions, bots, worlds
from needle_widget.players.search import SearchBot
from needle_widget.players.sim import play_game

C = Card.parse

CASES = [
    # rules, seeds of GreedyBot games (the last one reshuffles)
    (Rules(second_extra=1), (0, 1, 1752)),
    (Rules(second_extra=2, first_draw="pile"), (0, 3, 345)),
    (Rules(first_draw="none"), (0, 2, 89)),
    (Rules(second_free_steal=True), (0, 5, 1455)),
    (Rules(second_extra=1, first_player=1), (1, 235)),
    (Rules(second_extra=4, hand_size=16), (20,)),
]


def greedy(seed: int, rules: Rules) -> Game:
    return play_game(bots.GreedyBot(), bots.GreedyBot(), seed=seed, rules=rules)


def states(game: Game) -> list[Game]:
    """The game at a few steps: the deal, the needle picks, the first turns, the middle, the first step
    after each reshuffle, the last steps and the end.
    """
    replay = game.replay()
    steps = {0, 1, 2, 3, 5, 8, len(replay) // 2, len(replay) - 1, len(replay)}
    steps |= {k + 1 for k, event in enumerate(game.history) if event.reshuffles}
    steps |= {k + 3 for k, event in enumerate(game.history) if event.reshuffles}
    return [replay.game_at(k) for k in sorted(s for s in steps if 0 <= s <= len(replay))]


def dealt_slices(game: Game) -> list[slice]:
    """Where each player's dealt hand sits in the deck (S2): Player 1's, then Player 2's."""
    h0, h1 = (game.rules.dealt(x, game.first_player) for x in (0, 1))
    return [slice(0, h0), slice(h0, h0 + h1)]


def check_world(world: Game, real: Game, seat: int | str) -> None:
    """`world` gives `seat`'s view, deals as the real game does, and is the game its own deck replays to."""
    view = real.view(seat)
    assert world.view(seat) == view
    assert world.first_player == real.first_player and world.rules == real.rules
    slices = dealt_slices(real)
    again = Game(rules=world.rules, seed=0, deck=world.deck, first_player=world.first_player)
    assert [again.hand_size(x) for x in (0, 1)] == [s.stop - s.start for s in slices]
    assert [again.hand_size(x) for x in (0, 1)] == [len(real.deck[s]) for s in slices]
    if seat in (0, 1):
        assert sorted(world.deck[slices[seat]]) == sorted(real.deck[slices[seat]])
    for event in world.history:
        redo(again, event, event.reshuffles[-1] if event.reshuffles else None)
    assert again.view(seat) == view
    assert [again.hand(x) for x in (0, 1)] == [world.hand(x) for x in (0, 1)]
    assert again.draw_pile == world.draw_pile


@pytest.mark.parametrize("rules, seeds", CASES, ids=[f"case{k}" for k in range(len(CASES))])
def test_every_world_gives_the_view_under_the_variants(rules: Rules, seeds: tuple[int, ...]) -> None:
    reshuffled = False
    for seed in seeds:
        game = greedy(seed, rules)
        reshuffled |= game.reshuffles > 0
        for state in states(game):
            for seat in (0, 1, "spectator"):
                for world in worlds.sample(state.view(seat), 6, seed=seed):
                    check_world(world, state, seat)
            for seat in (0, 1):
                post = worlds.posterior(state.view(seat), 6, seed=seed, model=bots.GreedyBot())
                for world in post.worlds:
                    check_world(world, state, seat)
    assert reshuffled, "the last seed is chosen to reshuffle"


@pytest.mark.parametrize("rules", [Rules(hand_size=20, second_extra=12), Rules(hand_size=1, second_extra=50),
                                   Rules(hand_size=3, second_extra=20, first_player=1)])
def test_extreme_deals_the_whole_deck_or_nearly(rules: Rules) -> None:
    game = greedy(7, rules)
    for state in states(game):
        for seat in (0, 1, "spectator"):
            for world in worlds.sample(state.view(seat), 4, seed=3):
                check_world(world, state, seat)


def test_the_needles_agree_with_knowledge_under_V1() -> None:
    game = greedy(1, Rules(second_extra=2))
    state = game.replay().game_at(10)
    assert state.phase == "draw" and not state.reshuffles and state.needle(0) and state.needle(1)
    second = 1 - state.first_player
    assert state.hand_size(second) > state.hand_size(1 - second)
    for p in (0, 1):
        needle_p, place_p = needle_check(state, p, 4000, seed=5 + p)
        assert needle_p > LEVEL and place_p > LEVEL, (p, needle_p, place_p)


def tiny_v1_game() -> Game:
    """Hand size 1 and V1 one extra card: Player 1 is dealt 2♣, Player 2 9♥ and J♣. Player 1 draws 5♦
    and discards 2♣; Player 2 draws (7♠, unseen by Player 1) and discards 9♥.
    """
    top = [C(c) for c in ("2c", "9h", "jc", "5d", "7s", "3h")]
    deck = top + [c for c in Game().deck if c not in top]
    game = Game(rules=Rules(hand_size=1, second_extra=1), seed=0, deck=deck)
    for step in ("needle ks", "needle qd", "draw", "end", "discard 2c", "draw", "end", "discard 9h"):
        game.apply(actions.parse(step))
    return game


def test_a_revealed_card_was_dealt_with_the_exact_chance_under_V1() -> None:
    """9♥ left Player 2's hand before its second draw: it was in one of its three slots (two dealt,
    one drawn), each with chance 1/3 in the eyes of Player 1 and of the spectator; a sampler that
    dealt Player 2 one card would give 1/2.
    """
    game = tiny_v1_game()
    assert game.hand_size(1) == 2 and game.deck[4] == C("7s")
    n = 3000
    for seat in (0, "spectator"):  # the spectator too: no steal, and Player 2's needle has 48 cards either way
        places: Counter = Counter()
        for world in worlds.sample(game.view(seat), n, seed=9):
            assert world.view(seat) == game.view(seat)
            places[world.deck.index(C("9h"))] += 1
        assert chi_square(places, {1: 1 / 3, 2: 1 / 3, 4: 1 / 3}, n)[2] > LEVEL, (seat, places)


def test_search_bot_plays_a_V1_game_against_greedy_bot() -> None:
    for seat in (0, 1):
        search = SearchBot(seed=seat, worlds=4, rollouts=12)
        seats = (search, bots.GreedyBot()) if seat == 0 else (bots.GreedyBot(), search)
        game = play_game(*seats, seed=3, rules=Rules(second_extra=2))  # a long game: deal 1 now ends by step 10
        assert game.is_over and len(game) > 20 and search.last is not None
        assert Replay.from_json(game.replay().to_json()).game_at(len(game)).view("teacher") == game.view("teacher")
