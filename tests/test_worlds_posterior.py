"""worlds.posterior and sample(model=): worlds weighed by a model of the opponent.

Checked by behaviour: on a tiny game the filter's worlds agree with an exact
enumeration of the posterior (chi-square at the 0.001 level on fixed seeds, the
statistic scaled to the effective sample size: the worlds are weighted draws), for a
policy model and for a softened deterministic bot; a model that tells nothing gives
the uniform posterior of `sample`; every world reproduces the view; twins give the
same worlds; bad models and views raise clear NeedleErrors.
"""

from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Callable, Sequence

import pytest
from test_secrecy import play_twins
from test_secrecy_reshuffle import careful_game
from test_secrecy_reshuffle import twins as reshuffle_twins
from test_worlds import (
    LEVEL,
    TAMPERS,
    chi2_sf,
    chi_square,
    midgame,
    needle_classes,
    seat_games,
    some_steps,
    steps_of,
    tampered,
    tiny_game,
)

from needle_widget import Card, Game, bots, knowledge, worlds
from needle_widget.engine.actions import Action
from needle_widget.engine.cards import DECK
from needle_widget.engine.errors import ArgumentError, PerspectiveError, ReplayError
from needle_widget.engine.observation import PlayerView
from needle_widget.players.sim import play_game

pytestmark = pytest.mark.untraced  # long loops of pure Python: see tests/conftest.py

C = Card.parse
SLOT = {1: "dealt", 3: "first", 5: "second"}
"""Deck positions of Player 2's hidden slots in `tiny_game`: its dealt card and its two draws."""


class RankPolicy:
    """A model with probabilities: it picks a needle with weight its rank, discards with weight rank squared."""

    name = "rank policy"
    needle_blind = True

    def policy(self, view: PlayerView, legal: Sequence[Action]) -> list[float]:
        """Weights by rank in the needle and discard phases, uniform otherwise (normalised)."""
        if view.phase == "needle":
            weights = [a.card.rank for a in legal]
        elif view.phase == "discard":
            weights = [a.card.rank ** 2 for a in legal]
        else:
            weights = [1.0] * len(legal)
        total = sum(weights)
        return [w / total for w in weights]


class HighDiscarder:
    """A deterministic bot: the lowest card by index as needle, the highest rank as discard."""

    name = "high discarder"
    needle_blind = True

    def choose(self, view: PlayerView, legal: Sequence[Action]) -> Action:
        """The first legal needle; the highest discard (ties: the first); else the first action."""
        if view.phase == "discard":
            return max(legal, key=lambda a: a.card.rank)
        return legal[0]


def exact_posterior(game: Game, weight: Callable[[list[Card], Card], float]) -> Counter:
    """Every world Player 1 cannot tell from `tiny_game`, weighed by prior times `weight`, grouped by
    (slot of 9♥, slot of 7♠, Player 2's card now, Player 2's needle).

    Player 2's three hidden slots take every ordered triple of the 49 cards Player 1 cannot place
    such that 9♥ was in hand at the first discard and 7♠ at the second; the prior is uniform (the
    rest of the pile's order is the same count every time); `weight(slots, needle)` is the
    model's probability of Player 2's decisions in that world.
    """
    seen = {C(c) for c in ("2c", "5d", "3h")}
    public = {C(c) for c in ("2c", "9h", "5d", "7s")}
    hidden = [c for c in DECK if c not in seen]
    out: Counter = Counter()
    for slots in itertools.permutations(hidden, 3):
        s0, s1, s2 = slots
        if C("9h") not in (s0, s1):
            continue
        kept = s1 if s0 == C("9h") else s0
        if C("7s") not in (kept, s2):
            continue
        now = s2 if kept == C("7s") else kept
        for needle in DECK:
            if needle in slots or needle in public:
                continue
            where = ("dealt", "first", "second")
            key = (where[slots.index(C("9h"))], where[slots.index(C("7s"))], now.code, needle.code)
            out[key] += weight(list(slots), needle)
    return out


def rank_policy_weight(slots: list[Card], needle: Card) -> float:
    s0, s1, s2 = slots
    pick = needle.rank / (sum(c.rank for c in DECK) - s0.rank)
    first = 9 ** 2 / (s0.rank ** 2 + s1.rank ** 2)
    kept = s1 if s0 == C("9h") else s0
    second = 7 ** 2 / (kept.rank ** 2 + s2.rank ** 2)
    return pick * first * second


def high_discarder_weight(eps: float) -> Callable[[list[Card], Card], float]:
    def weight(slots: list[Card], needle: Card) -> float:
        s0, s1, s2 = slots
        first_needle = next(c for c in DECK if c != s0)
        pick = (1 - eps) * (needle == first_needle) + eps / 51
        kept = s1 if s0 == C("9h") else s0

        def discard(hand: list[Card], card: Card) -> float:
            best = max(sorted(hand), key=lambda c: c.rank)
            return (1 - eps) * (card == best) + eps / 2
        return pick * discard([s0, s1], C("9h")) * discard([kept, s2], C("7s"))
    return weight


def project_and_test(exact: Counter, sampled: list[Game], post: worlds.Posterior) -> None:
    total = sum(exact.values())
    keys = []
    for w in sampled:
        slot = {c: SLOT[w.deck.index(C(c))] for c in ("9h", "7s")}
        keys.append((slot["9h"], slot["7s"], w.hand(1)[0].code, w.needle(1).code))
    rank = {c.code: c.rank for c in DECK}
    projections = {
        "slots": lambda k: k[:2], "card rank": lambda k: rank[k[2]], "needle rank": lambda k: rank[k[3]],
        "needle in my hand": lambda k: k[3] == "3H",
    }
    n = len(sampled)
    for name, project in projections.items():
        probs: Counter = Counter()
        for key, count in exact.items():
            probs[project(key)] += count / total
        stat, df, _ = chi_square(Counter(map(project, keys)), probs, n)
        p_value = chi2_sf(stat * post.ess / n, df)  # weighted draws: worth about ESS independent ones
        assert p_value > LEVEL, (name, stat, df, p_value, post.ess)
    needle = Counter()
    for key, count in exact.items():
        needle[key[3]] += count / total
    for code, prob in needle.items():
        assert post.needle_probs[C(code).index] == pytest.approx(prob, abs=0.01), code


def test_a_policy_model_matches_the_exact_posterior() -> None:
    game = tiny_game()
    post = worlds.posterior(game.view(0), 3000, seed=5, model=RankPolicy())
    assert all(w.view(0) == game.view(0) for w in post.worlds)
    project_and_test(exact_posterior(game, rank_policy_weight), post.worlds, post)


def test_a_softened_bot_matches_the_exact_posterior() -> None:
    game = tiny_game()
    post = worlds.posterior(game.view(0), 3000, seed=6, model=HighDiscarder(), epsilon=0.2)
    assert all(w.view(0) == game.view(0) for w in post.worlds)
    project_and_test(exact_posterior(game, high_discarder_weight(0.2)), post.worlds, post)


class Flat:
    """A model that tells nothing: every legal action equally likely whatever the hand."""

    name = "flat"
    needle_blind = True

    def policy(self, view: PlayerView, legal: Sequence[Action]) -> list[float]:
        """1 for every action: the likelihood is the same in every world."""
        return [1.0] * len(legal)


@pytest.mark.parametrize("seed, length, p", [(4, 20, 0), (4, 61, 1), (9, 90, 1)])
def test_a_model_that_tells_nothing_gives_the_uniform_posterior(seed: int, length: int, p: int) -> None:
    state = midgame(seed, length)
    post = worlds.posterior(state.view(p), 2500, seed=seed, model=Flat())
    assert post.ess == pytest.approx(2500) and post.resamples == 0
    odds = knowledge.opponent_needle_odds(state.player_view(p))
    cls, probs = needle_classes(odds)
    stat, df, p_value = chi_square(Counter(cls(w.needle(1 - p)) for w in post.worlds), probs, 2500)
    assert p_value > LEVEL, (stat, df, p_value)
    for i, prob in enumerate(odds.probs):  # the needle odds under it are knowledge's, up to sampling
        assert post.needle_probs[i] == pytest.approx(prob, abs=0.015)


def test_after_a_reshuffle_a_flat_model_keeps_knowledges_answer() -> None:
    state = next(s for s in steps_of(careful_game(2)) if s.reshuffles and s.phase == "draw")
    post = worlds.posterior(state.view(0), 400, seed=2, model=Flat())
    assert {w.needle(1) in state.hand(0) for w in post.worlds} == {True}
    odds = knowledge.opponent_needle_odds(state.player_view(0))
    for c in state.hand(0):
        assert post.needle_probs[c.index] == pytest.approx(odds.of(c), abs=0.06)


@pytest.mark.slow
def test_every_world_reproduces_the_view_under_a_model() -> None:
    checked = Counter()
    for game in seat_games():
        for state in some_steps(steps_of(game), every=23):
            for p in (0, 1):
                view = state.view(p)
                post = worlds.posterior(view, 6, seed=len(state), model=bots.GreedyBot(), epsilon=0.1)
                assert all(w.view(p) == view for w in post.worlds)
                assert 1 <= post.ess <= 6 + 1e-9 and post.min_ess <= 6 + 1e-9
                checked[state.phase, bool(state.reshuffles)] += 1
    assert checked["over", True] and checked["draw", True] and checked["needle", False] and checked["sets", False]


def test_greedy_games_give_worlds_that_play_on_and_odds_that_sum_to_one() -> None:
    game = play_game(bots.GreedyBot(), bots.GreedyBot(), seed=11)
    replay = game.replay()
    for k in range(0, len(replay), 9):
        state = replay.game_at(k)
        odds = knowledge.opponent_needle_odds(state.view(0), model=bots.GreedyBot(), n=100, seed=k)
        assert sum(odds.probs) == pytest.approx(1.0)
        assert odds.in_my_hand == pytest.approx(sum(odds.of(c) for c in state.hand(0)))
        assert [c for c, _ in odds.most_likely(52)] == sorted((c for c in DECK if odds.of(c) > 0),
                                                               key=lambda c: (-odds.of(c), c.index))
        for c in state.hand(1):  # the opponent's needle was never in its hand
            if k > 1:
                assert odds.of(c) < 1
        for world in worlds.sample(state.view(0), 3, seed=k, model=bots.GreedyBot()):
            while world.phase != "over":
                world.apply(world.legal_actions()[0])


def test_the_greedy_model_reads_greedys_needle_pick() -> None:
    game = play_game(bots.GreedyBot(), bots.GreedyBot(), seed=3)
    state = game.replay().game_at(2)  # both have picked; nothing else has happened
    free = knowledge.opponent_needle_odds(state.player_view(0))
    model = knowledge.opponent_needle_odds(state.view(0), model=bots.GreedyBot(), n=400)
    assert max(model.probs) > 5 * max(free.probs)
    aces_kings = sum(model.of(c) for c in DECK if c.rank in (1, 13))
    assert aces_kings > 0.5 > sum(free.of(c) for c in DECK if c.rank in (1, 13))
    before = knowledge.opponent_needle_odds(game.replay().game_at(0).view(0), model=bots.GreedyBot(), n=200)
    assert sum(before.probs) == pytest.approx(1.0) and before.of(max(DECK, key=before.of)) > 0.1


def test_greedybot_never_reads_its_own_needle_after_the_pick() -> None:
    bot = bots.GreedyBot()
    for seed in range(30):
        game = play_game(bots.RandomBot(seed=seed), bots.RandomBot(seed=seed + 1), seed=seed)
        replay = game.replay()
        for k in range(2, len(replay), 3):
            state = replay.game_at(k)
            p = state.to_move
            view, legal = state.player_view(p), state.legal_actions()
            if len(legal) > 1:
                other = DECK[(view.needle.index + 1 + seed) % 52]
                assert bot.choose(view, legal) == bot.choose(view._replace(needle=other), legal)


def test_player_views_list_the_legal_actions_as_the_game_does() -> None:
    """S3, T1-T5, D1: a player's view lists exactly the game's legal actions (one function makes both)."""
    for game in seat_games():
        for state in steps_of(game)[::3]:
            for p in (0, 1):
                view = state.player_view(p)
                assert view.legal_actions() == (state.legal_actions() if state.to_move == p and
                                                state.phase != "over" else [])


@pytest.mark.parametrize("seed", range(3))
def test_twins_give_identical_posteriors(seed: int) -> None:
    hidden_owner = seed % 2
    watcher = 1 - hidden_owner
    compared = 0
    for k, (a, b) in enumerate(play_twins(seed, hidden_owner, watcher, steps=60)):
        if k % 11 == 0:
            pa = worlds.posterior(a.view(watcher), 5, seed=1, model=bots.GreedyBot())
            pb = worlds.posterior(b.view(watcher), 5, seed=1, model=bots.GreedyBot())
            assert [w.snapshot() for w in pa.worlds] == [w.snapshot() for w in pb.worlds], (seed, k)
            assert (pa.ess, pa.needle_probs) == (pb.ess, pb.needle_probs)
            compared += 1
    assert compared >= 3


def test_the_same_arguments_give_the_same_posterior() -> None:
    view = midgame(7, 45).view(0)
    a, b = (worlds.posterior(view, 50, seed=9, model=bots.GreedyBot()) for _ in range(2))
    assert [w.snapshot() for w in a.worlds] == [w.snapshot() for w in b.worlds]
    assert (a.ess, a.min_ess, a.resamples, a.decisions, a.needle_probs) == (b.ess, b.min_ess, b.resamples,
                                                                            b.decisions, b.needle_probs)
    c = worlds.posterior(view, 50, seed=10, model=bots.GreedyBot())
    assert [w.snapshot() for w in c.worlds] != [w.snapshot() for w in a.worlds]
    assert [w.snapshot() for w in worlds.sample(view, 50, seed=9, model=bots.GreedyBot())] == [
        w.snapshot() for w in a.worlds]


class Raises:
    name = "raises"

    def choose(self, view: PlayerView, legal: Sequence[Action]) -> Action:
        """Always fails."""
        raise RuntimeError("boom")


class ReadsHistory(bots.GreedyBot):
    reads_history = True


def test_bad_models_and_views_raise_clear_errors() -> None:
    state = midgame()
    view = state.view(0)
    with pytest.raises(ArgumentError, match="the spectator sees neither hand"):
        worlds.posterior(state.view("spectator"), 5, model=bots.GreedyBot())
    with pytest.raises(PerspectiveError, match="teacher"):
        worlds.posterior(state.view("teacher"), 5, model=bots.GreedyBot())
    for bad in ("greedy", 3, object()):
        with pytest.raises(ArgumentError, match="model must be a bot"):
            worlds.posterior(view, 5, model=bad)
    with pytest.raises(ArgumentError, match="reads the history"):
        worlds.posterior(view, 5, model=ReadsHistory())
    for eps in (-0.1, 1.5, "0.1", None):
        with pytest.raises(ArgumentError, match="epsilon must be"):
            worlds.posterior(view, 5, model=bots.GreedyBot(), epsilon=eps)
    for n in (0, 1.5, True):
        with pytest.raises(ArgumentError, match="n must be"):
            worlds.posterior(view, n, model=bots.GreedyBot())
    with pytest.raises(ArgumentError, match="model raises raised RuntimeError"):
        worlds.posterior(view, 5, model=Raises())
    with pytest.raises(ReplayError, match="no sampled world explains"):
        worlds.posterior(view, 5, model=HighDiscarder(), epsilon=0.0)
    with pytest.raises(ReplayError):
        worlds.posterior(tampered(view, TAMPERS["a discard"]), 5, model=bots.GreedyBot())
    with pytest.raises(ArgumentError, match="view must be a PlayerView"):
        knowledge.opponent_needle_odds(view)
    with pytest.raises(ArgumentError, match="record=True"):
        knowledge.opponent_needle_odds(state.player_view(0), model=bots.GreedyBot())
    record = knowledge.opponent_needle_odds(state.player_view(0, record=True), model=bots.GreedyBot(), n=20)
    assert record.probs == knowledge.opponent_needle_odds(view, model=bots.GreedyBot(), n=20).probs


@pytest.mark.parametrize("seed, watcher", [(0, 0), (1, 1)])
def test_twins_differing_in_a_reshuffles_order_give_identical_posteriors(seed: int, watcher: int) -> None:
    compared = 0
    for a, b, step in reshuffle_twins(seed, watcher, horizon=30):
        if step % 6 == 0:
            pa = worlds.posterior(a.view(watcher), 4, seed=2, model=bots.GreedyBot())
            pb = worlds.posterior(b.view(watcher), 4, seed=2, model=bots.GreedyBot())
            assert [w.snapshot() for w in pa.worlds] == [w.snapshot() for w in pb.worlds], (seed, step)
            assert (pa.ess, pa.needle_probs) == (pb.ess, pb.needle_probs)
            compared += 1
    assert compared >= 2
