"""worlds.sample: possible worlds drawn from a player's view, and Replay.branch.

Checked by behaviour: every world reproduces the view exactly (many seeded games,
both seats, every kind of step); worlds vary only where the seat cannot see; twin
games (different only in what the seat cannot see) give identical worlds; the
sampler agrees with `knowledge` and with an exact enumeration (chi-square tests at
the 0.001 level, fixed seeds, so the tests are deterministic); bad input raises
clear NeedleErrors. Everything is seeded.
"""

from __future__ import annotations

import copy
import itertools
import json
import math
import random
from collections import Counter
from collections.abc import Callable, Hashable, Iterator

import pytest
from conftest import pick, play, stacked
from test_replay import random_game
from test_secrecy import play_twins
from test_secrecy_reshuffle import careful_game, redo
from test_secrecy_reshuffle import twins as reshuffle_twins

from needle_widget import Card, Game, Replay, Rules, actions, knowledge, worlds
from needle_widget.engine.errors import ArgumentError, NeedleError, PerspectiveError, ReplayError
from needle_widget.engine.result import Reason
from needle_widget.inference import slots

C = Card.parse
LEVEL = 0.001
"""A chi-square test fails below this p-value (with fixed seeds, each test is deterministic)."""


# ---- helpers -----------------------------------------------------------------------------


def chi2_sf(x: float, df: int) -> float:
    """P(chi-square with df degrees of freedom >= x): the regularized upper incomplete gamma Q(df/2, x/2)."""
    a, z = df / 2, x / 2
    if z <= 0:
        return 1.0
    log_front = -z + a * math.log(z) - math.lgamma(a)
    if z < a + 1:  # the series for P(a, z)
        term = total = 1 / a
        k = a
        while term > total * 1e-16:
            k += 1
            term *= z / k
            total += term
        return max(0.0, 1 - total * math.exp(log_front))
    b, c, d = z + 1 - a, 1e300, 1 / (z + 1 - a)  # the continued fraction for Q(a, z) (Lentz)
    h = d
    for i in range(1, 10_000):
        an = -i * (i - a)
        b += 2
        d = an * d + b
        d = 1 / d if abs(d) > 1e-300 else 1e300
        c = b + an / c
        c = c if abs(c) > 1e-300 else 1e-300
        h *= d * c
        if abs(d * c - 1) < 1e-15:
            break
    return h * math.exp(log_front)


def test_chi2_sf_matches_known_quantiles() -> None:
    for x, df, p in [(3.841459, 1, 0.05), (18.307038, 10, 0.05), (6.634897, 1, 0.01), (29.588298, 10, 0.001),
                     (0.0, 3, 1.0), (2.0, 2, math.exp(-1)), (63.690740, 40, 0.01)]:
        assert chi2_sf(x, df) == pytest.approx(p, abs=1e-6)


def chi_square(observed: Counter, probs: dict[Hashable, float], n: int) -> tuple[float, int, float]:
    """Pearson's goodness of fit of `observed` counts to `probs` (n draws): (statistic, df, p-value).

    Classes expected fewer than 5 times are pooled; a draw outside `probs` fails at once.
    """
    assert set(observed) <= {k for k, v in probs.items() if v > 0}, set(observed) - set(probs)
    classes: list[tuple[float, int]] = []
    small_e = small_o = 0.0
    for key, prob in probs.items():
        if n * prob >= 5:
            classes.append((n * prob, observed.get(key, 0)))
        else:
            small_e += n * prob
            small_o += observed.get(key, 0)
    if small_e > 0:
        classes.append((small_e, int(small_o)))
    stat = sum((o - e) ** 2 / e for e, o in classes)
    df = len(classes) - 1
    return stat, df, chi2_sf(stat, df) if df > 0 else 1.0


def steps_of(game: Game) -> list[Game]:
    """The game again after every action (a copy at each step)."""
    rebuilt = Game(rules=game.rules, seed=game.seed)
    assert rebuilt.deck == game.deck, "a game dealt by its seed"
    out = [rebuilt.copy()]
    for event in game.history:
        redo(rebuilt, event)
        out.append(rebuilt.copy())
    assert out[-1].view("teacher") == game.view("teacher")
    return out


def some_steps(states: list[Game], every: int) -> list[Game]:
    """The needle phase and the first draws, every `every`-th step, and the end."""
    picked = states[:5] + states[5::every] + states[-3:]
    return list({id(s): s for s in picked}.values())


def seat_games() -> Iterator[Game]:
    """Seeded games of every kind: random players, careful ones (long, reshuffling), steal-happy ones."""
    hand_sizes = (7, 2, 12, 16, 3, 1, 20, 26)
    for seed in range(16):
        rules = Rules(hand_size=hand_sizes[seed % len(hand_sizes)], steal_every=1 + seed % 3,
                      ace=("low", "wrap")[seed % 2], first_player=(0, 1, "random")[seed % 3])
        yield random_game(seed, rules, careful=seed % 2 == 0)[0]
    for seed in range(6):
        yield careful_game(seed)


# ---- every world reproduces the view ---------------------------------------------------------


@pytest.mark.slow
@pytest.mark.untraced  # tests/conftest.py
def test_every_world_reproduces_the_view_at_every_kind_of_step() -> None:
    seen: Counter = Counter()
    for game in seat_games():
        states = steps_of(game)
        for state in some_steps(states, every=max(1, len(states) // 12)):
            for p in (0, 1, "spectator") if state.reshuffles == 0 else (0, 1):
                view = state.view(p)
                for world in worlds.sample(view, 3, seed=len(state)):
                    assert world.view(p) == view, (game.seed, len(state), p)
                    assert len(world) == len(state) and world.phase == state.phase and world.turn == state.turn
                    assert world.rules == state.rules and world.first_player == state.first_player
                    assert world.discard_pile == state.discard_pile and world.pile_size == state.pile_size
                    if p != "spectator":
                        assert world.hand(p) == state.hand(p) and world.needle(p) == state.needle(p)
                    seen["worlds"] += 1
                    seen["spectator worlds"] += p == "spectator"
                seen["views"] += 1
                seen["needle phase"] += state.phase == "needle"
                seen["one reshuffle"] += state.reshuffles == 1
                seen["several reshuffles"] += state.reshuffles >= 2
                stole = {e.player for e in state.history if type(e.action) is actions.Steal}
                seen["steals both ways"] += stole == {0, 1}
                seen["known opponent cards"] += bool(view.get("known_opponent_cards"))
                if state.phase == "over":
                    seen["over"] += 1
                    result = state.result
                    seen["opponent found by a pile draw"] += (
                        p != "spectator" and result.reason is Reason.FOUND and result.needle_owner == 1 - p
                        and type(state.history[-1].action) in (actions.DrawPile, actions.EndSets)
                    )
                    seen["over, turn limit"] += result.reason is Reason.TURN_LIMIT
    assert seen["worlds"] >= 3000 and seen["views"] >= 1000 and seen["spectator worlds"] >= 600, seen
    for key in ("needle phase", "one reshuffle", "several reshuffles", "steals both ways", "known opponent cards",
                "over", "opponent found by a pile draw", "over, turn limit"):
        assert seen[key] >= 2, (key, seen)


@pytest.mark.parametrize("how", ["steal", "draw", "replenish"])
def test_a_round_ended_by_a_found_needle(how: str) -> None:
    """E1 at the last action: every seat's worlds put the finder's needle where it was found."""
    if how == "steal":
        game = next(g for g in (pick(stacked("2c 8d", "9h jc", rules=Rules(hand_size=2), seed=s), "9h", "ks")
                                for s in range(20)) if play(g, "steal").is_over)
    elif how == "draw":
        game = play(pick(stacked("2c 8d", "9h jc", "5d"), "5d", "ks"), "draw")
    else:
        game = pick(stacked("4c 5h 6h 9s", "2d 3d 8c jc", "7s 10d ac 5d", rules=Rules(hand_size=4)), "ac", "ks")
        play(game, "draw", "lay 4c 5h 6h", "end")
        assert game.history[-1].cards == tuple(map(C, ("10d", "ac")))  # the replenish stopped at the needle
    assert game.is_over and game.result.reason is Reason.FOUND and game.result.needle_owner == 0
    for p in (0, 1, "spectator"):
        view = game.view(p)
        for world in worlds.sample(view, 20, seed=4):
            assert world.view(p) == view and world.result == game.result and world.needle(0) == game.needle(0)


def test_worlds_are_live_games_that_go_on() -> None:
    game = careful_game(3)
    state = steps_of(game)[len(game) // 2]
    for world in worlds.sample(state.view(0), 20, seed=5):
        rng = random.Random(world.seed)
        while world.phase != "over":
            world.apply(rng.choice(world.legal_actions()))
        assert world.result is not None


# ---- worlds vary only where the seat cannot see ---------------------------------------------


def midgame(seed: int = 4, length: int = 60, careful: bool = True) -> Game:
    """A careful random game (see test_replay) stopped after `length` actions, still live."""
    game = random_game(seed, careful=careful)[0]
    state = steps_of(game)[min(length, len(game) - 1)]
    assert state.phase != "over"
    return state


def test_worlds_vary_only_where_the_seat_cannot_see() -> None:
    state = midgame()
    p, q = 0, 1
    sampled = worlds.sample(state.view(p), 200, seed=11)
    needles = Counter(w.needle(q) for w in sampled)
    hands = {tuple(w.hand(q)) for w in sampled}
    piles = {tuple(w.draw_pile) for w in sampled}
    assert len(needles) >= 10 and len(hands) >= 150 and len(piles) == 200
    assert {frozenset(w.deck[:7]) == frozenset(state.deck[:7]) for w in sampled} == {True}  # my dealt hand
    for w in sampled:
        assert w.hand(p) == state.hand(p) and w.needle(p) == state.needle(p)
        assert w.discard_pile == state.discard_pile and [w.sets(0), w.sets(1)] == [state.sets(0), state.sets(1)]
        assert w.hand_size(q) == state.hand_size(q) and w.scores == state.scores
        known = {C(c) for c in state.view(p)["known_opponent_cards"]}
        assert known <= set(w.hand(q))
        assert w.needle(q) not in w.hand(q)
        # the opponent's pile draws and needle pick are hidden; my events and the steals are not
        for real, fake in zip(state.history, w.history, strict=True):
            if real.player == p or type(real.action) is actions.Steal:
                assert real == fake
            else:
                assert real.action == fake.action or type(real.action) is actions.ChooseNeedle


def test_spectator_worlds_vary_in_both_hands_and_needles() -> None:
    state = midgame(4, 30)
    assert state.reshuffles == 0
    sampled = worlds.sample(state.view("spectator"), 200, seed=2)
    for p in (0, 1):
        assert len({w.needle(p) for w in sampled}) >= 20 and len({tuple(w.hand(p)) for w in sampled}) >= 150
        assert {w.hand_size(p) for w in sampled} == {state.hand_size(p)}
    assert {tuple(w.discard_pile) for w in sampled} == {tuple(state.discard_pile)}
    assert len({tuple(w.draw_pile) for w in sampled}) == 200


def test_the_spectator_after_reshuffles_with_hidden_steals_matches_or_says_it_is_too_rare() -> None:
    """The spectator's rejection sampler is exact but can starve: after reshuffles, each revealed
    card must sit among the few tokens of its pool that hidden steals left in the discarder's hand.
    Either every world matches, or a clear ReplayError comes after at most MAX_TRIES proposals.
    """
    outcomes: Counter = Counter()
    for seed in (2, 21):
        states = [s for s in steps_of(careful_game(seed)) if s.reshuffles]
        for state in (states[0], states[len(states) // 2]):
            view = state.view("spectator")
            try:
                sampled = worlds.sample(view, 2, seed=1)
            except ReplayError as error:
                assert "too rare" in str(error) and f"{slots.MAX_TRIES:,} proposals" in str(error)
                outcomes["too rare"] += 1
                continue
            assert all(w.view("spectator") == view for w in sampled)
            outcomes["matched"] += 1
    assert outcomes["too rare"] >= 1 and outcomes["matched"] >= 1, outcomes


# ---- twins: what the seat cannot see does not change the worlds -------------------------------


def snapshots(view: dict, n: int = 8, seed: int = 3) -> list[tuple]:
    return [w.snapshot() for w in worlds.sample(view, n, seed=seed)]


@pytest.mark.parametrize("seed", range(6))
def test_twins_differing_in_a_hidden_hand_card_give_identical_worlds(seed: int) -> None:
    hidden_owner = seed % 2
    watcher = 1 - hidden_owner
    compared = 0
    for k, (a, b) in enumerate(play_twins(seed, hidden_owner, watcher, steps=80)):
        if k % 7 == 0:
            assert a.view("teacher") != b.view("teacher")
            assert snapshots(a.view(watcher)) == snapshots(b.view(watcher)), (seed, k)
            assert snapshots(a.view("spectator"), n=3) == snapshots(b.view("spectator"), n=3), (seed, k)
            compared += 1
    assert compared >= 3


@pytest.mark.parametrize("seed, watcher", [(0, 0), (1, 1), (2, 0), (5, 1)])
def test_twins_differing_in_a_reshuffles_order_give_identical_worlds(seed: int, watcher: int) -> None:
    compared = 0
    for a, b, step in reshuffle_twins(seed, watcher, horizon=30):
        if step % 5 == 0:
            assert snapshots(a.view(watcher), n=4) == snapshots(b.view(watcher), n=4), (seed, step)
            compared += 1
    assert compared >= 2


def test_twins_differing_in_the_opponents_needle_give_identical_worlds() -> None:
    base = stacked("2c 3d 4h 5s 6c 7d 8h", "9s 10c jd qh kc ad 2h", rules=Rules())
    pile = base.draw_pile
    a, b = pick(base.copy(), pile[-1], pile[-2]), pick(base.copy(), pile[-1], pile[-3])
    for _ in range(6):
        for game in (a, b):
            play(game, "draw", "end")
            game.apply(actions.Discard(game.hand(game.to_move)[0]))
    assert a.needle(1) != b.needle(1) and a.view(0) == b.view(0)
    assert snapshots(a.view(0), n=20) == snapshots(b.view(0), n=20)


# ---- the sampler agrees with knowledge and with an exact enumeration ------------------------------


def needle_classes(odds: knowledge.NeedleOdds) -> tuple[Callable[[Card], Hashable], Counter]:
    """A class per card for a chi-square of the opponent's needle (my cards one by one, unseen cards pooled
    by suit) and the probability of each class under `odds`.
    """
    mine = odds.hand_mask

    def cls(card: Card) -> Hashable:
        return card.code if mine >> card.index & 1 else f"unseen {card.suit}"

    probs: Counter = Counter()
    for card_index, prob in enumerate(odds.probs):
        if prob:
            probs[cls(Card.from_index(card_index))] += prob
    return cls, probs


def needle_check(state: Game, p: int, n: int, seed: int) -> tuple[float, float]:
    """Chi-square p-values of the opponent's needle (by card, unseen cards pooled by suit) against
    `knowledge.opponent_needle_odds`, and of my needle's place (top of the pile, rest of the pile,
    the opponent's hand) against `knowledge.own_needle_odds`.
    """
    view = state.player_view(p)
    odds = knowledge.opponent_needle_odds(view)
    own = knowledge.own_needle_odds(view)
    cls, probs = needle_classes(odds)
    sampled = worlds.sample(state.view(p), n, seed=seed)
    needles = Counter(cls(w.needle(1 - p)) for w in sampled)
    places: Counter = Counter()
    for w in sampled:
        pile = w.draw_pile
        places["top" if pile[:1] == [w.needle(p)] else "pile" if w.needle(p) in pile else "hand"] += 1
        assert w.needle(p) in pile or w.needle(p) in w.hand(1 - p)
    place_probs = {"top": own.next_draw, "pile": own.in_pile - own.next_draw, "hand": own.in_opponent_hand}
    return chi_square(needles, probs, n)[2], chi_square(places, place_probs, n)[2]


@pytest.mark.parametrize("seed, length, p", [(4, 20, 0), (4, 61, 1), (7, 45, 0), (9, 90, 1)])
def test_the_needles_agree_with_knowledge(seed: int, length: int, p: int) -> None:
    state = midgame(seed, length)
    needle_p, place_p = needle_check(state, p, 2500, seed=seed)
    assert needle_p > LEVEL and place_p > LEVEL, (needle_p, place_p)


def test_after_a_reshuffle_the_needles_are_where_knowledge_says() -> None:
    game = careful_game(2)
    state = next(s for s in steps_of(game) if s.reshuffles and s.phase == "draw")
    odds = knowledge.opponent_needle_odds(state.player_view(0))
    sampled = worlds.sample(state.view(0), 300, seed=1)
    assert {w.needle(1) in state.hand(0) for w in sampled} == {True}
    assert {w.needle(0) in w.hand(1) for w in sampled} == {True}
    assert chi_square(Counter(w.needle(1).code for w in sampled),
                      {c.code: odds.of(c) for c in state.hand(0)}, 300)[2] > LEVEL


def tiny_game() -> Game:
    """Hand size 1. Player 2 is dealt 9♥, draws 7♠ and later 4♠ (unseen by Player 1), and discards
    9♥ before the second draw and 7♠ after it.
    """
    game = stacked("2c", "9h", "5d 7s 3h 4s", rules=Rules(hand_size=1))
    pick(game, "ks", "qd")
    return play(game, "draw", "end", "discard 2c", "draw", "end", "discard 9h",
                "draw", "end", "discard 5d", "draw", "end", "discard 7s")


def exact_tiny_worlds(game: Game) -> dict[tuple, int]:
    """Every world Player 1 cannot tell from `tiny_game`, by brute force, grouped by (where 9♥ was,
    where 7♠ was, Player 2's card now, Player 2's needle): Player 2's three hidden slots (dealt, first
    draw, second draw) take every ordered triple of cards Player 1 has not placed; each needle that
    Player 2 never held and that was never public counts once; the rest of the pile's order is the
    same number of ways in every world.
    """
    seen_by_me = {C(c) for c in ("2c", "5d", "3h")}
    public = {C(c) for c in ("2c", "9h", "5d", "7s")}
    pool = [c for c in Game().deck if c not in seen_by_me]
    out: Counter = Counter()
    mine = C("3h")
    for dealt, first, second in itertools.permutations(pool, 3):
        hand = {dealt, first}
        if C("9h") not in hand:
            continue
        hand = (hand - {C("9h")}) | {second}
        if C("7s") not in hand:
            continue
        (now,) = hand - {C("7s")}
        where = ("dealt" if dealt == C("9h") else "first",
                 "dealt" if dealt == C("7s") else "first" if first == C("7s") else "second")
        needles = 52 - len({dealt, first, second} | public)  # never held by Player 2, never public
        assert mine not in (dealt, first, second, *public)
        out[(*where, now.code, "mine")] += 1
        out[(*where, now.code, "unseen")] += needles - 1
    return out


def test_the_sampler_matches_an_exact_enumeration_of_a_tiny_game() -> None:
    game = tiny_game()
    exact = exact_tiny_worlds(game)
    total = sum(exact.values())
    n = 3000
    sampled = worlds.sample(game.view(0), n, seed=17)
    for w in sampled:
        assert w.view(0) == game.view(0)

    def place(card: str, w: Game) -> str:
        i = w.deck.index(C(card))
        return {1: "dealt", 3: "first", 5: "second"}[i]

    keys = [(place("9h", w), place("7s", w), w.hand(1)[0].code, "mine" if w.needle(1) == C("3h") else "unseen")
            for w in sampled]
    for project in (lambda k: k[:2], lambda k: k[2], lambda k: k[3], lambda k: (k[0], k[3])):
        probs: Counter = Counter()
        for key, count in exact.items():
            probs[project(key)] += count / total
        stat, df, p_value = chi_square(Counter(map(project, keys)), probs, n)
        assert p_value > LEVEL, (stat, df, p_value)
    # 9♥ was dealt or first drawn, 1/2 each (it left before the second draw): a sampler that
    # ignored when a card left would put it in any of the three slots
    assert sum(v for k, v in exact.items() if k[0] == "dealt") / total == pytest.approx(0.5)


def tiny_spectator_game() -> Game:
    """Hand size 2, watched by the spectator: Player 2 steals one of Player 1's two cards (8♦ with
    this seed), and every card that leaves a hand is discarded (2♣, 9♥, 5♦, then the stolen 8♦).
    """
    game = stacked("2c 8d", "9h jc", "5d 7s", rules=Rules(hand_size=2), seed=0)
    pick(game, "ks", "qd")
    play(game, "draw", "end", "discard 2c", "steal", "end", "discard 9h")
    assert game.history[-3].cards == (C("8d"),)
    return play(game, "draw", "end", "discard 5d", "draw", "end", "discard 8d")


REVEALED = ("2C", "9H", "5D", "8D")


def exact_spectator_worlds() -> Counter:
    """Every world the spectator cannot tell from `tiny_spectator_game`, by brute force, weighed and
    grouped by (the deck position of each revealed card, the position of the stolen card).

    The hidden positions: 0, 1 dealt to Player 1; 2, 3 dealt to Player 2; 4 and 5 Player 1's
    draws, 6 Player 2's. Each revealed card takes a position (it must be in the discarder's hand
    when discarded) and the steal one of Player 1's two cards; the other 48 cards fill the other
    positions in the same number of ways every time. Each world counts once per pair of needles
    (each a card its owner never held and that was never public): |V_0| * |V_1|.
    """
    out: Counter = Counter()
    for places in itertools.permutations(range(7), 4):
        pos = dict(zip(REVEALED, places, strict=True))
        hand0, hand1 = {0, 1, 4}, {2, 3}
        if pos["2C"] not in hand0:
            continue
        hand0.discard(pos["2C"])
        for stolen in sorted(hand0):
            h0, h1, ever1 = hand0 - {stolen}, hand1 | {stolen}, {2, 3, stolen, 6}
            if pos["9H"] not in h1:
                continue
            h0 = (h0 | {5}) - {pos["5D"]} if pos["5D"] in h0 | {5} else None
            h1 = (h1 - {pos["9H"]}) | {6}
            if h0 is None or pos["8D"] not in h1:
                continue
            weight = 1
            for ever in ({0, 1, 4, 5}, ever1):
                weight *= 52 - (len(ever) + len(REVEALED) - sum(1 for c in REVEALED if pos[c] in ever))
            out[(*places, stolen)] += weight
    return out


def test_the_spectators_sampler_matches_an_exact_enumeration() -> None:
    game = tiny_spectator_game()
    exact = exact_spectator_worlds()
    total = sum(exact.values())
    steal = next(k for k, e in enumerate(game.history) if type(e.action) is actions.Steal)
    n = 3000
    keys = []
    for w in worlds.sample(game.view("spectator"), n, seed=23):
        assert w.view("spectator") == game.view("spectator")
        keys.append((*(w.deck.index(C(c)) for c in REVEALED), w.deck.index(w.history[steal].cards[0])))
    for project in [lambda k, i=i: k[i] for i in range(5)] + [lambda k: (k[3], k[4]), lambda k: (k[1], k[4])]:
        probs: Counter = Counter()
        for key, weight in exact.items():
            probs[project(key)] += weight / total
        stat, df, p_value = chi_square(Counter(map(project, keys)), probs, n)
        assert p_value > LEVEL, (stat, df, p_value)
    assert len({k[4] for k in keys}) == 3 and len(exact) > 10  # the stolen card was dealt, or drawn first


# ---- bad input ----------------------------------------------------------------------------------


def tampered(view: dict, change) -> dict:
    out = copy.deepcopy(view)
    change(out)
    return out


def test_bad_input_raises_clear_errors() -> None:
    state = midgame()
    view = state.view(0)
    with pytest.raises(PerspectiveError, match="teacher"):
        worlds.sample(state.view("teacher"), 1)
    with pytest.raises(PerspectiveError, match="'me'"):
        worlds.sample({**view, "perspective": "me"}, 1)
    for n in (0, -1, worlds.MAX_WORLDS + 1, 1.5, True, "3", None):
        with pytest.raises(ArgumentError, match="n must be"):
            worlds.sample(view, n)  # type: ignore[arg-type]
    for bad in (None, [view], json.dumps(view), state):
        with pytest.raises(ArgumentError, match="view must be"):
            worlds.sample(bad, 1)  # type: ignore[arg-type]
    with pytest.raises(ArgumentError, match="model must be a bot"):
        worlds.sample(view, 1, model="greedy")
    for seed in (-1, "1", 1.0):
        with pytest.raises(ArgumentError, match="seed"):
            worlds.sample(view, 1, seed=seed)  # type: ignore[arg-type]


def first_index(view: dict, kind: str, player: int) -> int:
    return next(e["index"] for e in view["history"] if e["type"] == kind and e["player"] == player)


TAMPERS = {
    "my hand": lambda v: v["players"][0]["hand"].__setitem__(0, next(
        c for c in ("KS", "KH", "KD", "KC", "QS") if c not in v["players"][0]["hand"])),
    "a discard": lambda v: v["history"][first_index(v, "discard", 1)].__setitem__("card", v["players"][0]["hand"][0]),
    "a lost event": lambda v: v["history"].pop(),
    "an opponent's draw count": lambda v: v["history"][first_index(v, "draw_pile", 1)].__setitem__("count", 2),
    "a reshuffle count": lambda v: v["history"][next(e["index"] for e in v["history"] if "reshuffles" in e)][
        "reshuffles"].__setitem__(0, 3),
    "pile size": lambda v: v.__setitem__("pile_size", v["pile_size"] + 1),
    "rules": lambda v: v["rules"].__setitem__("hand_size", 30),
    "no history": lambda v: v.pop("history"),
    "a broken event": lambda v: v["history"].__setitem__(3, "draw"),
    "an unknown action": lambda v: v["history"][3].__setitem__("type", "peek"),
    "my needle in my hand": lambda v: v["players"][0].__setitem__("needle", v["players"][0]["hand"][0]),
}


@pytest.mark.parametrize("name", sorted(TAMPERS))
def test_a_tampered_view_raises_replay_error(name: str) -> None:
    state = next(s for s in steps_of(careful_game(2)) if s.reshuffles and s.phase == "draw")
    view = tampered(state.view(0), TAMPERS[name])
    with pytest.raises(ReplayError, match="view"):
        worlds.sample(view, 2, seed=1)


def test_random_tampering_gives_a_needle_error_or_worlds_that_match() -> None:
    """Change one value of a view at random: either a NeedleError, or every world reproduces it."""
    rng = random.Random(5)
    base = midgame(5, 40).view(1)
    outcomes: Counter = Counter()
    for _ in range(150):
        view = copy.deepcopy(base)
        holder, key = random_leaf(view, rng)
        holder[key] = rng.choice([None, 0, 1, 2, -1, "7H", "KS", [], {}, True, "draw_pile", 53])
        try:
            sampled = worlds.sample(view, 2, seed=rng.randrange(10))
        except NeedleError:
            outcomes["refused"] += 1
            continue
        assert all(w.view(1) == view for w in sampled)
        outcomes["accepted"] += 1
    assert outcomes["refused"] >= 100, outcomes


def random_leaf(view: dict, rng: random.Random) -> tuple[dict | list, object]:
    holder: dict | list = view
    while True:
        keys = list(holder) if isinstance(holder, dict) else list(range(len(holder)))
        if not keys:
            return holder, 0 if isinstance(holder, list) else "extra"
        key = rng.choice(keys)
        if isinstance(holder[key], dict | list) and holder[key] and rng.random() < 0.8:
            holder = holder[key]
        else:
            return holder, key


# ---- determinism ------------------------------------------------------------------------------------


def test_same_view_n_and_seed_give_the_same_worlds() -> None:
    view = midgame().view(1)
    first = snapshots(view, n=10, seed=42)
    assert snapshots(view, n=10, seed=42) == first
    assert snapshots(json.loads(json.dumps(view)), n=10, seed=42) == first  # the JSON round trip too
    assert snapshots(view, n=10, seed=43) != first
    assert snapshots(view, n=5, seed=42) == first[:5]
    random.seed(1)
    a = snapshots(view, n=3, seed=7)
    random.seed(2)
    assert snapshots(view, n=3, seed=7) == a  # no global randomness
    assert len({w.seed for w in worlds.sample(view, 3)}) == 3  # seed None: a fresh seed


# ---- Replay.branch --------------------------------------------------------------------------------


def long_plain_game(seed: int) -> Game:
    """Random players who peek to keep the round going (each needle in the other's hand; an action that
    would end the round is tried on a copy and passed over), every chance from the generator (plain `apply`).
    """
    rng = random.Random(seed)
    game = Game(rules=Rules(max_turns=90, first_player="random"), seed=seed)
    while game.phase != "over":
        p = game.to_move
        if game.phase == "needle":  # a needle in the opponent's hand: no pile draw ends the round
            game.apply(actions.ChooseNeedle(rng.choice(game.hand(1 - p))))
            continue
        legal = game.legal_actions()
        rng.shuffle(legal)
        for action in legal:  # peek: the first action (a steal too) that does not end the round
            trial = game.copy()
            trial.apply(action)
            if trial.phase != "over" or action is legal[-1]:
                game.apply(action)
                break
    return game


@pytest.mark.parametrize("seed", range(6))
def test_branch_then_the_recorded_actions_reproduce_the_original(seed: int) -> None:
    game = long_plain_game(seed)
    assert any(type(e.action) is actions.Steal for e in game.history) and game.reshuffles
    replay = Replay.from_json(game.replay().to_json())
    for k in sorted({0, 1, 2, 7, 8, 9, len(game) // 3, len(game) // 2, len(game) - 1, len(game)}):
        branch = replay.branch(k)
        assert branch.snapshot() == replay.game_at(k).snapshot()
        for event in game.history[k:]:
            branch.apply(event.action)  # plain apply: the generator gives the same steals and reshuffles
        assert branch.snapshot() == game.snapshot(), (seed, k)


def test_branch_is_live_independent_and_checked() -> None:
    game = careful_game(1)
    replay = game.replay()
    k = len(game) // 2
    before = replay.branch(k).snapshot()
    branch = replay.branch(k)
    rng = random.Random(0)
    for _ in range(30):
        if branch.phase == "over":
            break
        branch.apply(rng.choice(branch.legal_actions()))
    assert len(branch) > k
    assert replay.branch(k).snapshot() == before and replay.final_game.snapshot() == game.snapshot()
    for bad in (-1, len(replay) + 1, "3", 1.0, None):
        with pytest.raises(ReplayError, match="out of range"):
            replay.branch(bad)  # type: ignore[arg-type]


def test_branch_with_a_random_first_player() -> None:
    game = next(g for g in map(long_plain_game, range(10)) if g.first_player == 1)
    branch = Replay.from_json(game.replay().to_json()).branch(5)
    for event in game.history[5:]:
        branch.apply(event.action)
    assert branch.snapshot() == game.snapshot()


# ---- the quick path: a world made from another by replacing what the seat cannot see ------------------


@pytest.mark.slow
@pytest.mark.untraced  # tests/conftest.py
def test_a_world_made_from_a_template_equals_the_replayed_one() -> None:
    compared = Counter()
    for game in seat_games():
        for state in some_steps(steps_of(game), every=17):
            for p in (0, 1):
                plan = slots.plan_for(state.view(p))
                rng = random.Random(len(state))
                template = plan.world(rng)
                for _ in range(2):
                    placed, needle = plan.draw(rng)
                    slow, quick = plan.build(placed, needle, 5), plan.variant(template, placed, needle, 5)
                    a, b = slow.snapshot(), quick.snapshot()
                    assert a[:-2] == b[:-2] and a[-1] == b[-1]  # all but the generator's state
                    assert quick.legal_actions() == slow.legal_actions()
                    compared[state.phase, bool(state.reshuffles)] += 1
    assert compared["over", True] and compared["draw", True] and compared["needle", False]


def test_with_hidden_refuses_what_does_not_fit_the_public_record() -> None:
    state = midgame()
    deck, hands = list(state.deck), (state.hand_mask(0), state.hand_mask(1))
    pile = [c.index for c in state.draw_pile]
    needles = (state.needle(0).index, state.needle(1).index)
    ok = state.with_hidden(deck=deck, seed=1, hands=hands, pile=pile, needles=needles, events={})
    assert ok.view("teacher") == state.view("teacher") and ok.seed == 1
    with pytest.raises(ArgumentError, match="do not fill"):
        state.with_hidden(deck=deck, seed=1, hands=hands, pile=pile[1:], needles=needles, events={})
    with pytest.raises(ArgumentError, match="do not fill"):
        state.with_hidden(deck=deck, seed=1, hands=(hands[1], hands[0]), pile=pile, needles=needles, events={})
    with pytest.raises(ArgumentError, match="needles"):
        state.with_hidden(deck=deck, seed=1, hands=hands, pile=pile, needles=(-1, needles[1]), events={})
    first = state.event(0)
    with pytest.raises(ArgumentError, match="entry 0"):
        state.with_hidden(deck=deck, seed=1, hands=hands, pile=pile, needles=needles,
                          events={0: (actions.DRAW_PILE, (), ())})
    assert state.event(0) == first
    with pytest.raises(NeedleError):
        state.with_hidden(deck=deck[:-1], seed=1, hands=hands, pile=pile, needles=needles, events={})
