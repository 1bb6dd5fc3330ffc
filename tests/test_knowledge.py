"""knowledge: needle odds checked three ways.

1. Small cases worked out by hand (stacked decks, forced steals, a reshuffle).
2. A Monte Carlo over the hidden worlds a player cannot tell apart: it replays the
   history as the player saw it, in worlds drawn from the model's prior, weighs each
   world by the chance of what the player saw, and throws out worlds where the
   round would have ended. It shares no code with `knowledge`.
3. Calibration against the truth over many random games: the average predicted
   probability matches the observed frequency.

Plus properties (soundness: the real needle is never ruled out), secrecy twins,
JSON shape and speed. Everything is seeded.
"""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from needle_widget import Card, Game, Rules, actions, knowledge
from needle_widget.engine.bitmasks import FULL

C = Card.parse
DECK: tuple[Card, ...] = tuple(Card.from_index(i) for i in range(52))
TOL = 0.02


def approx(x: float | Fraction) -> object:
    return pytest.approx(float(x), abs=1e-12)


# ---- helpers ---------------------------------------------------------------------


def stacked(h: int, hand0: str, hand1: str, pile_top: str = "", seed: int = 0) -> Game:
    """Player 1 gets hand0, Player 2 hand1 (each padded to h with unused cards in index
    order), then the draw pile: pile_top, then every other card in index order.
    """
    named = [C(c) for c in f"{hand0} {hand1} {pile_top}".split()]
    assert len(set(named)) == len(named)
    spare = [c for c in DECK if c not in named]
    h0 = [C(c) for c in hand0.split()]
    h0 += [spare.pop(0) for _ in range(h - len(h0))]
    h1 = [C(c) for c in hand1.split()]
    h1 += [spare.pop(0) for _ in range(h - len(h1))]
    return Game(rules=Rules(hand_size=h), seed=seed, deck=h0 + h1 + [C(c) for c in pile_top.split()] + spare)


def play(game: Game, *steps: str) -> Game:
    for step in steps:
        game.apply(actions.parse(step))
    return game


def odds(game: Game, p: int) -> knowledge.NeedleOdds:
    return knowledge.opponent_needle_odds(game.player_view(p))


def own(game: Game, p: int) -> knowledge.OwnNeedleOdds:
    return knowledge.own_needle_odds(game.player_view(p))


def check_odds(game: Game, p: int, hand: dict[str, Fraction], unseen: Fraction, zero: str = "") -> None:
    """All 52 probabilities of player p's odds: a card of `hand` has its value; a card of
    `zero` or of p's hand not in `hand` has 0; any other card has `unseen`.
    """
    o = odds(game, p)
    ruled_out = {C(c) for c in zero.split()} | set(game.hand(p))
    for card in DECK:
        expected = hand[card.code] if card.code in hand else 0 if card in ruled_out else unseen
        assert o.of(card) == o.probs[card.index] == approx(expected), card
    assert sum(o.probs) == pytest.approx(1.0)
    assert o.in_my_hand == approx(sum(hand.values(), Fraction(0)))


def check_own(o: knowledge.OwnNeedleOdds, in_pile: Fraction, in_opponent_hand: Fraction, next_draw: Fraction) -> None:
    assert o.in_pile == approx(in_pile)
    assert o.in_opponent_hand == approx(in_opponent_hand)
    assert o.next_draw == approx(next_draw)


def random_policy(game: Game, rng: random.Random, keep_alive: bool = False) -> actions.Action:
    """A uniformly random legal action. With `keep_alive` (to reach late states only: it
    peeks) it avoids actions that would end the round when it can.
    """
    legal = game.legal_actions()
    if not keep_alive:
        return rng.choice(legal)
    rng.shuffle(legal)
    for action in legal:
        trial = game.copy()
        trial.apply(action)
        if trial.phase != "over":
            return action
    return legal[0]


def states_at(rules: Rules, seed: int, stops: set[int], keep_alive: bool = True) -> dict[int, Game]:
    """Copies of one random game after each number of actions in `stops` (if still live)."""
    game, rng, out = Game(rules=rules, seed=seed), random.Random(seed), {}
    while game.phase != "over" and len(game) <= max(stops):
        if len(game) in stops:
            out[len(game)] = game.copy()
        game.apply(random_policy(game, rng, keep_alive))
    return out


# ---- 1. small cases by hand --------------------------------------------------------


def test_fresh_deal_by_hand() -> None:
    # 7 cards each, 38 in the pile. For Player 1 the 45 cards outside their hand are
    # Player 2's 7 and the pile's 38. Player 2's needle is one of the 45 cards outside
    # Player 2's hand: P(a card of mine) = 1/45, P(an unseen card) = P(it is in the pile)/45 = (38/45)/45.
    deck = Game(seed=11).deck
    game = play(Game(seed=11), f"needle {deck[51].code}", f"needle {deck[50].code}")
    for p in (0, 1):
        check_odds(game, p, {c.code: Fraction(1, 45) for c in game.hand(p)}, Fraction(38, 45) / 45)
        assert odds(game, p).in_my_hand == approx(Fraction(7, 45))
        assert odds(game, p).possible == 52
        check_own(own(game, p), Fraction(38, 45), Fraction(7, 45), Fraction(1, 45))


def test_needle_phase_weights_the_pick_to_come() -> None:
    game = play(Game(seed=11), f"needle {Game(seed=11).deck[51].code}")
    # Player 2 has not picked: Player 1's odds for that pick are the same as after it.
    after = play(game.copy(), f"needle {game.deck[50].code}")
    assert odds(game, 0).probs == odds(after, 0).probs
    assert odds(game, 1).probs == odds(after, 1).probs  # Player 2 weighs Player 1's pick the same way
    assert own(game, 1) == (None, None, None)  # no needle yet
    assert knowledge.for_player(game, 1)["own_needle"] == {
        "card": None, "in_pile": None, "in_opponent_hand": None, "next_draw": None,
    }


def test_no_draw_pile_means_the_needle_is_in_my_hand() -> None:
    # 26 cards each: nothing in the pile, so Player 2's needle (not in their hand) is in mine.
    game = Game(rules=Rules(hand_size=26), seed=3)
    play(game, f"needle {game.hand(1)[0].code}", f"needle {game.hand(0)[0].code}")
    for p in (0, 1):
        check_odds(game, p, {c.code: Fraction(1, 26) for c in game.hand(p)}, Fraction(0))
        check_own(own(game, p), Fraction(0), Fraction(1), Fraction(0))


def test_steals_both_ways_by_hand() -> None:
    # Two cards each; the needles KS (Player 1's) and KH (Player 2's) lie deep in the pile.
    game = stacked(2, "AC 2C", "3C 4C", "5C 6C 7C", seed=5)
    play(game, "needle KS", "needle KH", "steal", "end", "discard AC")
    x = game.history[-3].cards[0]  # the card Player 1 stole
    y = next(c for c in (C("3C"), C("4C")) if c != x)  # the one Player 2 kept
    # Player 1 holds 2C and x. Unseen: 48 pile cards + y = 49. x was Player 2's and AC is
    # public: both ruled out. Weights: 2C -> 1, each unseen card -> 48/49; total 1 + 48 = 49.
    check_odds(game, 0, {"2C": Fraction(1, 49)}, Fraction(48, 49) / 49, zero="AC")
    check_own(own(game, 0), Fraction(48, 49), Fraction(1, 49), Fraction(1, 49))
    # Player 2 holds y and knows x is in Player 1's hand; unseen: 48 pile cards + 2C.
    check_odds(game, 1, {y.code: Fraction(1, 49)}, Fraction(48, 49) / 49, zero=f"AC {x.code}")
    check_own(own(game, 1), Fraction(48, 49), Fraction(1, 49), Fraction(1, 49))

    play(game, "steal", "end", f"discard {y.code}")
    z = game.history[-3].cards[0]  # Player 2 stole z from Player 1, who keeps w
    (w,) = game.hand(0)
    assert game.player_view(0).known_opponent_mask == 1 << z.index
    # Player 1 knows Player 2's whole hand ({z}): the 48 unseen cards are all in the pile (weight 1).
    if w == C("2C"):  # never Player 2's: still possible
        check_odds(game, 0, {"2C": Fraction(1, 49)}, Fraction(1, 49), zero=f"AC {y.code} {z.code}")
    else:  # w = x was Player 2's: the needle is in the pile
        check_odds(game, 0, {}, Fraction(1, 48), zero=f"AC {y.code} {z.code}")
    check_own(own(game, 0), Fraction(1), Fraction(0), Fraction(1, 48))

    play(game, "draw", "end", "discard 5C", "draw", "end", f"discard {z.code}")
    # Player 2 drew 6C unseen and shed z: 46 pile cards + 1 unseen card in Player 2's hand.
    assert game.hand(1) == [C("6C")]
    share = Fraction(46, 47)
    zero = f"AC 5C {y.code} {z.code}"
    if w == C("2C"):  # total weight 1 + 47 * 46/47 = 47
        check_odds(game, 0, {"2C": Fraction(1, 47)}, share / 47, zero=zero)
    else:  # total weight 46
        check_odds(game, 0, {}, Fraction(1, 47), zero=zero)
    check_own(own(game, 0), share, 1 - share, Fraction(1, 47))
    assert compare(game, 0) <= TOL and compare(game, 1) <= TOL  # the Monte Carlo below agrees


def test_after_a_reshuffle_the_opponent_needle_is_in_my_hand() -> None:
    # 25 cards each and a pile of two (KH, KS). Player 1's needle QS is in Player 2's
    # hand, Player 2's needle AC in Player 1's.
    game = stacked(25, "", "", "KH KS")
    play(game, "needle QS", "needle AC", "draw", "end", "discard 2C", "draw", "end", "discard JD")
    assert game.pile_size == 0 and game.player_view(0).reshuffles == 0
    # An empty pile before any reshuffle: unseen cards weigh m/|U| = 0 already.
    check_odds(game, 0, {c.code: Fraction(1, 25) for c in game.hand(0)}, Fraction(0), zero="2C JD")
    play(game, "draw")  # D1: JD stays on the discard pile, 2C is reshuffled and drawn
    assert C("2C") in game.hand(0) and game.player_view(0).reshuffles == 1
    eligible = {c.code: Fraction(1, 25) for c in game.hand(0) if c != C("2C")}  # 2C is public
    check_odds(game, 0, eligible, Fraction(0), zero="2C JD")
    check_own(own(game, 0), Fraction(0), Fraction(1), Fraction(0))  # the next draw reshuffles public cards
    check_odds(game, 1, {c.code: Fraction(1, 25) for c in game.hand(1)}, Fraction(0), zero="2C JD")
    check_own(own(game, 1), Fraction(0), Fraction(1), Fraction(0))
    assert compare(game, 0) <= TOL and compare(game, 1) <= TOL  # the Monte Carlo below agrees


def test_round_over_reveals_the_needle_and_the_teacher_sees_where_each_is() -> None:
    game = stacked(7, "AC 2C 3C 4C 5C 6C 7C", "AD 2D 3D 4D 5D 6D 7D", "8C 8D")
    play(game, "needle 8D", "needle 7C")
    summary = knowledge.teacher_summary(game)
    assert summary["needles"][0] == {
        "player": 0, "card": "8D", "where": "pile", "pile_position": 1,
        "opponent_belief": pytest.approx(38 / 45 / 45),
    }
    assert summary["needles"][1]["where"] == "opponent_hand"
    assert summary["needles"][1]["opponent_belief"] == pytest.approx(1 / 45)
    assert summary["players"] == [knowledge.for_player(game, 0), knowledge.for_player(game, 1)]
    json.dumps(summary)

    play(game, "draw", "end", "discard 7C")  # E2: Player 2's needle discarded
    assert game.phase == "over"
    o = odds(game, 0)
    assert o.of("7C") == 1.0 and sum(o.probs) == 1.0 and o.in_my_hand == 0.0
    assert o.most_likely() == [(C("7C"), 1.0)]
    assert odds(game, 1).of("8D") == 1.0 and odds(game, 1).in_my_hand == 0.0
    assert own(game, 1) == (0.0, 0.0, None)  # Player 2's needle is on the discard pile
    assert own(game, 0) == (pytest.approx(37 / 44), pytest.approx(7 / 44), None)
    summary = knowledge.teacher_summary(game)
    assert [n["where"] for n in summary["needles"]] == ["pile", "discards"]
    assert summary["needles"][0]["pile_position"] == 0
    assert summary["players"][0]["opponent_needle"]["revealed"] == "7C"


def test_teacher_where_found() -> None:
    game = stacked(7, "AC 2C 3C 4C 5C 6C 7C", "AD 2D 3D 4D 5D 6D 7D", "8C 8D")
    play(game, "needle 8C", "needle 9H", "draw")  # E1: Player 1 draws their needle
    assert game.phase == "over"
    summary = knowledge.teacher_summary(game)
    assert [n["where"] for n in summary["needles"]] == ["hand", "pile"]
    assert game.draw_pile[summary["needles"][1]["pile_position"]] == C("9H")
    found = {"card": "8C", "in_pile": 0.0, "in_opponent_hand": 0.0, "next_draw": None}
    assert summary["players"][0]["own_needle"] == found


def test_teacher_where_sets_and_before_picking() -> None:
    game = stacked(7, "AC 2C 3C 4C 5C 6C 7C", "AD 2D 3D 4D 5D 6D 7D", "8C 8D")
    assert knowledge.teacher_summary(game)["needles"][0] == {
        "player": 0, "card": None, "where": None, "pile_position": None, "opponent_belief": None,
    }
    play(game, "needle 9H", "needle 3C", "draw", "lay 2C 3C 4C")  # E3: Player 2's needle laid
    assert game.phase == "over"
    assert [n["where"] for n in knowledge.teacher_summary(game)["needles"]] == ["pile", "sets"]


def test_grid_of_probs_and_most_likely_agree() -> None:
    game = states_at(Rules(), 21, {30})[30]
    o = odds(game, 0)
    grid = o.grid()
    assert [len(row) for row in grid] == [13, 13, 13, 13]
    for card in DECK:
        assert grid["CDHS".index(card.suit)][card.rank - 1] == o.of(card) == o.of(card.code) == o.probs[card.index]
    top = o.most_likely(52)
    assert len(top) == o.possible == sum(1 for p in o.probs if p > 0)
    assert [p for _, p in top] == sorted((p for p in o.probs if p > 0), reverse=True)
    assert o.most_likely(3) == top[:3] and o.most_likely(0) == []
    hand = game.player_view(0).hand_mask
    assert o.in_my_hand == pytest.approx(sum(o.probs[i] for i in range(52) if hand >> i & 1))
    assert "NeedleOdds" in repr(o)


def test_views_no_game_reaches_still_get_an_answer() -> None:
    """Defensive branches, on views edited by hand (`PlayerView` is a NamedTuple)."""
    deck = Game(seed=11).deck
    view = play(Game(seed=11), f"needle {deck[51].code}", f"needle {deck[50].code}").player_view(0)
    # Every card of mine once held by the opponent, and no pile: no world fits; spread over the rest.
    odd = knowledge.opponent_needle_odds(view._replace(opponent_held_mask=view.hand_mask, pile_size=0))
    assert odd.possible == 45 and sum(odd.probs) == pytest.approx(1.0) and odd.in_my_hand == 0.0
    nothing = knowledge.opponent_needle_odds(view._replace(public_mask=FULL))
    assert nothing.probs == (0.0,) * 52 and nothing.most_likely() == []
    needle = 1 << view.needle.index
    assert knowledge.own_needle_odds(view._replace(known_opponent_mask=needle)) == (0.0, 1.0, 0.0)
    assert knowledge.own_needle_odds(view._replace(public_mask=needle)) == (0.0, 0.0, 0.0)


# ---- 2. Monte Carlo over the hidden worlds --------------------------------------------


class Pool:
    """Cards whose places the player has not seen, spread uniformly at random over `pile`
    slots of the draw pile and `held` slots of the opponent's hand. Pool 0 is the deal;
    each reshuffle makes a new pool of the reshuffled (public) cards.
    """

    __slots__ = ("cards", "pile", "held")

    def __init__(self, cards: set[Card], pile: int, held: int) -> None:
        self.cards, self.pile, self.held = set(cards), pile, held


class HiddenWorlds:
    """The worlds consistent with what player p saw, for one guess `nq` of the opponent's needle.

    Replays p's history; where a card's place is hidden its identity is left open (a
    slot of a pool) and only drawn when p sees it, with the chance that it is that
    card as the weight. A world where the opponent's needle entered their hand, was
    discarded or laid gets weight 0 (the round would have ended).
    """

    def __init__(self, deal: list[Card], h: int, nq: Card) -> None:
        self.pools = [Pool(set(DECK) - set(deal), 52 - 2 * h, h)]
        self.q_known: set[Card] = set()
        self.discards: list[Card] = []
        self.p_hand = set(deal)
        self.weight, self.nq = 1.0, nq

    def replay(self, view: dict, p: int) -> HiddenWorlds:
        for e in view["history"]:
            kind, mine = e["type"], e["player"] == p
            if kind in ("draw_pile", "end_sets"):
                count = e.get("count", 0)
                cards = [C(c) for c in e["cards"]] if mine and count else [None] * count
                self.draws(mine, cards, [n if isinstance(n, int) else len(n) for n in e.get("reshuffles", [])])
            elif kind == "steal":
                x = C(e["cards"][0])
                if mine:
                    self.reveal(x)
                    self.p_hand.add(x)
                else:
                    self.p_hand.remove(x)
                    self.q_known.add(x)
                    self.rule_out(x)
            elif kind in ("discard", "lay_set"):
                cards = [C(e["card"])] if kind == "discard" else [C(c) for c in e["cards"]]
                for x in cards:
                    if mine:
                        self.p_hand.remove(x)
                    else:
                        self.reveal(x)
                    self.rule_out(x)
                if kind == "discard":
                    self.discards += cards
            if self.weight == 0.0:
                break
        return self

    def rule_out(self, x: Card) -> None:
        if x == self.nq:
            self.weight = 0.0

    def reveal(self, x: Card) -> None:
        """X leaves the opponent's hand in plain sight: weigh by the chance they held it."""
        self.rule_out(x)
        if x in self.q_known:
            self.q_known.remove(x)
            return
        for pool in self.pools:
            if x in pool.cards and pool.held:
                self.weight *= pool.held / len(pool.cards)
                pool.cards.remove(x)
                pool.held -= 1
                return
        self.weight = 0.0

    def draws(self, mine: bool, cards: list[Card | None], reshuffles: list[int]) -> None:
        done = []
        for x in cards:
            pool = self.pools[-1]
            if not pool.pile:  # D1
                assert len(self.discards) >= 2
                pool = Pool(set(self.discards[:-1]), len(self.discards) - 1, 0)
                self.pools.append(pool)
                del self.discards[:-1]
                done.append(pool.pile)
            pool.pile -= 1
            if not mine:
                pool.held += 1
            elif x in pool.cards:
                self.weight /= len(pool.cards)
                pool.cards.remove(x)
                self.p_hand.add(x)
            else:
                self.weight = 0.0
                return
        assert done == reshuffles  # the replay reshuffles exactly where the game did


def monte_carlo(game: Game, p: int, samples: int = 1000, seed: int = 0) -> dict:
    """Estimates of what `knowledge` computes, from player p's view (the JSON `game.view(p)`)
    and p's dealt hand only: the opponent's needle is each of the 52 cards in turn (prior
    1/52; the deal must not have given it to them), then `samples` random placements of
    the unseen cards; worlds where the opponent held their needle are rejected.
    """
    view = game.view(p)
    h = game.rules.hand_size
    deal = list(game.deck[p * h : (p + 1) * h])
    needle = view["players"][p]["needle"]
    np_ = C(needle) if needle else None
    rng = random.Random(seed)
    by_card = [0.0] * 52
    total = in_hand = np_pile = np_top = 0.0
    for nq in DECK:
        world = HiddenWorlds(deal, h, nq).replay(view, p)
        if world.weight == 0.0:
            continue
        assert sum(pool.pile for pool in world.pools) == view["pile_size"]
        assert sum(pool.held for pool in world.pools) + len(world.q_known) == view["players"][1 - p]["hand_size"]
        assert world.p_hand == {C(c) for c in view["players"][p]["hand"]}
        w, top_pool = world.weight / samples, world.pools[-1]
        for _ in range(samples):
            place = {}  # card -> (pool, slot): slots below pool.held are in the opponent's hand
            for pool in world.pools:
                inside = [x for x in dict.fromkeys((nq, np_)) if x is not None and x in pool.cards]
                for x, slot in zip(inside, rng.sample(range(len(pool.cards)), len(inside)), strict=False):
                    place[x] = (pool, slot)
            if nq in place and place[nq][1] < place[nq][0].held:
                continue  # the opponent would hold their own needle
            by_card[nq.index] += w
            total += w
            in_hand += w * (nq in world.p_hand)
            if np_ in place:
                pool, slot = place[np_]
                np_pile += w * (slot >= pool.held)
                np_top += w * (pool is top_pool and top_pool.pile > 0 and slot == pool.held)
    return {
        "probs": [x / total for x in by_card],
        "in_my_hand": in_hand / total,
        "in_pile": np_pile / total,
        "next_draw": np_top / total,
    }


MC_CASES = [
    (Rules(), 1, 10), (Rules(), 1, 40), (Rules(), 1, 80),
    (Rules(), 6, 25), (Rules(), 6, 55),
    (Rules(hand_size=2), 2, 12), (Rules(hand_size=2), 2, 60),
    (Rules(hand_size=12), 4, 30), (Rules(hand_size=12), 4, 70),
    (Rules(hand_size=16), 2, 20), (Rules(hand_size=16), 2, 60),
]


def mc_state(rules: Rules, seed: int, stop: int) -> Game:
    states = states_at(rules, seed, {stop})
    assert stop in states, "the scripted game ended early"
    return states[stop]


def compare(game: Game, p: int) -> float:
    view = game.player_view(p)
    o, mine, est = knowledge.opponent_needle_odds(view), knowledge.own_needle_odds(view), monte_carlo(game, p)
    deviations = [abs(a - b) for a, b in zip(o.probs, est["probs"], strict=False)]
    deviations += [abs(o.in_my_hand - est["in_my_hand"]), abs(mine.in_pile - est["in_pile"])]
    deviations += [abs(mine.next_draw - est["next_draw"])]
    return max(deviations)


@pytest.mark.parametrize("rules, seed, stop", MC_CASES)
@pytest.mark.parametrize("p", [0, 1])
def test_monte_carlo_over_hidden_worlds_agrees(rules: Rules, seed: int, stop: int, p: int) -> None:
    assert compare(mc_state(rules, seed, stop), p) <= TOL


def test_monte_carlo_cases_cover_steals_and_reshuffles() -> None:
    games = [mc_state(*case) for case in MC_CASES]
    assert any(g.player_view(0).reshuffles for g in games)
    assert any(g.player_view(0).reshuffles == 0 and g.pile_size < 5 for g in games)
    assert sum(1 for g in games if any(type(e.action) is actions.Steal for e in g.history)) >= 6
    assert sum(1 for g in games for p in (0, 1) if g.player_view(p).known_opponent_mask) >= 2


def test_monte_carlo_in_the_needle_phase() -> None:
    game = play(Game(seed=8), f"needle {Game(seed=8).deck[40].code}")
    for p in (0, 1):
        est = monte_carlo(game, p, samples=400)
        assert max(abs(a - b) for a, b in zip(odds(game, p).probs, est["probs"], strict=False)) <= TOL


# ---- 3. calibration over random games ------------------------------------------------------


def calibration_rows(rules: Rules, games: int, seed: int, every: int = 3) -> tuple[list[tuple], list[tuple]]:
    """Random games (uniform legal actions, uniform needles); every `every` actions (a time
    fixed in advance, so only live rounds count) a random player's predictions beside the truth.
    """
    rng = random.Random(seed)
    rows, cards = [], []
    for k in range(games):
        game = Game(rules=rules, seed=seed * 100_003 + k)
        while game.phase != "over":
            if game.phase != "needle" and len(game) % every == 0:
                p = rng.randrange(2)
                view = game.player_view(p)
                o, mine = knowledge.opponent_needle_odds(view), knowledge.own_needle_odds(view)
                nq, np_ = game.needle(1 - p), game.needle(p)
                pile = game.draw_pile
                rows.append((
                    o.in_my_hand, nq in game.hand(p), mine.in_pile, np_ in pile,
                    mine.next_draw, bool(pile) and pile[0] == np_, view.reshuffles > 0,
                ))
                cards += [(prob, card == nq) for card, prob in o.most_likely(52)]
            game.apply(rng.choice(game.legal_actions()))
    return rows, cards


def mean(xs) -> float:
    xs = list(xs)
    return sum(xs) / len(xs)


@pytest.mark.parametrize("rules, games", [(Rules(), 1500), (Rules(hand_size=12), 2500), (Rules(hand_size=3), 700)])
def test_calibration_over_random_games(rules: Rules, games: int) -> None:
    rows, cards = calibration_rows(rules, games, seed=rules.hand_size)
    assert len(rows) > 2000
    for predicted, observed in ((0, 1), (2, 3), (4, 5)):
        assert mean(r[predicted] for r in rows) == pytest.approx(mean(r[observed] for r in rows), abs=TOL)
    for low, high in ((0, 0.15), (0.15, 0.3), (0.3, 0.6), (0.6, 0.999), (0.999, 1.01)):
        group = [r for r in rows if low <= r[0] < high]
        if len(group) >= 1000:
            assert mean(r[0] for r in group) == pytest.approx(mean(r[1] for r in group), abs=TOL), (low, high)
    for low, high in ((0, 0.02), (0.02, 0.03), (0.03, 0.05), (0.05, 0.1), (0.1, 0.3), (0.3, 1.01)):
        group = [c for c in cards if low <= c[0] < high]
        if len(group) >= 5000:  # card by card: P(card is the needle) vs how often it was
            assert mean(c[0] for c in group) == pytest.approx(mean(c[1] for c in group), abs=0.005), (low, high)
    after = [r for r in rows if r[6]]
    assert all(r[0] == 1.0 and r[1] for r in after)  # after a reshuffle: certainly in my hand, and it was
    assert all(r[2] == 0.0 and not r[3] for r in after)


# ---- properties ----------------------------------------------------------------------------


def check_sound(game: Game, p: int) -> None:
    """What must hold in any state: the truth is never ruled out, and the figures add up."""
    view = game.player_view(p)
    o, mine = knowledge.opponent_needle_odds(view), knowledge.own_needle_odds(view)
    q = 1 - p
    nq, np_ = game.needle(q), game.needle(p)
    if game.phase == "needle" and nq is None:
        assert sum(o.probs) == pytest.approx(1.0)
    if nq is None:
        return
    assert sum(o.probs) == pytest.approx(1.0)
    assert o.of(nq) > 0  # soundness
    assert all(x >= 0 for x in o.probs)
    if game.phase == "over":
        assert o.of(nq) == 1.0
    else:
        impossible = view.public_mask | view.opponent_held_mask | view.known_opponent_mask
        assert all(o.probs[i] == 0.0 for i in range(52) if impossible >> i & 1)
        unseen = knowledge.unseen_mask(view)
        truly = {c.index for c in game.draw_pile + game.hand(q)}
        assert {i for i in range(52) if unseen >> i & 1} <= truly
        if view.reshuffles == 0:  # the pile holds only unseen cards
            assert unseen.bit_count() == view.pile_size + view.hand_sizes[q] - view.known_opponent_mask.bit_count()
        else:
            assert nq in game.hand(p) and o.in_my_hand == 1.0
    if np_ is None:
        assert mine == (None, None, None)
        return
    if game.phase != "over":
        assert mine.in_pile + mine.in_opponent_hand == pytest.approx(1.0)
        assert 0.0 <= mine.next_draw <= mine.in_pile
        if np_ in game.draw_pile:
            assert mine.in_pile > 0 and (game.draw_pile[0] != np_ or mine.next_draw > 0)
        else:
            assert np_ in game.hand(q) and mine.in_opponent_hand > 0
    else:
        assert mine.next_draw is None


@settings(max_examples=40, deadline=None, derandomize=True)
@given(
    seed=st.integers(0, 2**32),
    hand_size=st.sampled_from([1, 2, 3, 7, 7, 12, 20, 25]),
    keep_alive=st.booleans(),
)
def test_sound_at_every_step_of_random_games(seed: int, hand_size: int, keep_alive: bool) -> None:
    game, rng = Game(rules=Rules(hand_size=hand_size, max_turns=120), seed=seed), random.Random(seed)
    while True:
        check_sound(game, 0)
        check_sound(game, 1)
        if game.phase == "over":
            break
        game.apply(random_policy(game, rng, keep_alive))


def test_sound_reaches_late_states() -> None:
    """The property test above does see reshuffles and known opponent cards."""
    reshuffled = known = 0
    for seed in range(12):
        game, rng = Game(rules=Rules(hand_size=12), seed=seed), random.Random(seed)
        while game.phase != "over":
            game.apply(random_policy(game, rng, keep_alive=True))
            check_sound(game, seed % 2)
            reshuffled += game.player_view(0).reshuffles > 0
            known += game.player_view(0).known_opponent_mask != 0
    assert reshuffled > 50 and known > 50


# ---- secrecy and JSON -------------------------------------------------------------------------


def twins(seed: int, watcher: int) -> Iterator[tuple[Game, Game]]:
    """Two games that differ only in one card of the opponent's hand, swapped with the
    pile's bottom card; the script keeps both out of the watcher's sight.
    """
    owner = 1 - watcher
    deck = list(Game(seed=seed).deck)
    rng = random.Random(seed)
    k = owner * 7 + rng.randrange(7)
    twin = deck[:]
    twin[k], twin[51] = twin[51], twin[k]
    hidden = {deck[k], deck[51]}
    a, b = Game(seed=seed, deck=deck), Game(seed=seed, deck=twin)
    yield a, b
    while a.phase != "over" and a.pile_size > 1:
        legal = a.legal_actions()
        if a.to_move == watcher:
            legal = [x for x in legal if type(x) is not actions.Steal] or legal
        legal = [x for x in legal if not hidden & set(getattr(x, "cards", ()) or (getattr(x, "card", None),))]
        if not legal or (a.to_move == watcher and type(legal[0]) is actions.Steal):
            return
        action = rng.choice(legal)
        a.apply(action)
        b.apply(action)
        yield a, b


@pytest.mark.parametrize("seed", range(12))
@pytest.mark.parametrize("watcher", [0, 1])
def test_for_player_sees_nothing_hidden(seed: int, watcher: int) -> None:
    steps = 0
    for a, b in twins(seed, watcher):
        info = knowledge.for_player(a, watcher)
        assert info == knowledge.for_player(b, watcher)
        assert json.dumps(info) == json.dumps(knowledge.for_player(b, watcher))
        assert json.loads(json.dumps(info)) == info
        steps += 1
    assert steps >= 5


def test_json_shape() -> None:
    game = states_at(Rules(), 5, {20})[20]
    info = knowledge.for_player(game, 1)
    assert set(info) == {"player", "opponent_needle", "own_needle"}
    grid = info["opponent_needle"]["grid"]
    assert len(grid) == 4 and all(len(row) == 13 for row in grid)
    assert sum(map(sum, grid)) == pytest.approx(1.0)
    top = info["opponent_needle"]["top"]
    assert len(top) == 5 and all(isinstance(code, str) and isinstance(p, float) for code, p in top)
    assert info["own_needle"]["card"] == game.needle(1).code
    summary = knowledge.teacher_summary(game)
    assert json.loads(json.dumps(summary)) == summary
    assert summary["players"][1] == info
