"""Properties over many seeded random games (docs/RULES.md as a whole), with varied Rules.

Every game is played by a seeded random player (a bias towards laying sets, so scores
and replenishes happen), so each run checks exactly the same games.
"""

from __future__ import annotations

import itertools
import operator
import random
from collections.abc import Callable

from conftest import ALL_CARDS, all_zones
from hypothesis import given, settings
from hypothesis import strategies as st

from needle_widget import Card, Game, IllegalAction, Rules, set_points
from needle_widget.engine.actions import Action, ChooseNeedle, Discard, DrawPile, EndSets, LaySet, Steal

GAMES = 1000
INDICES = list(range(52))
INDEX = operator.attrgetter("index")

RULE_CHOICES: dict[str, list] = {
    "hand_size": [1, 2, 3, 5, 7, 7, 7, 10, 13, 20, 24, 25, 26],
    "first_player": [0, 0, 1, "random"],
    "steal_every": [1, 2, 3, 3, 4, 10],
    "ace": ["low", "low_or_high", "wrap"],
    "needle_bonus": [0, 0, 1, 5],
    "max_turns": [1, 2, 5, 20, 300, 300],
}


def random_rules(rng: random.Random) -> Rules:
    return Rules(**{name: rng.choice(values) for name, values in RULE_CHOICES.items()})


def choose(rng: random.Random, game: Game, legal: list[Action]) -> Action:
    """A random legal action, preferring to lay a set when one is offered."""
    if game.phase == "sets" and len(legal) > 1 and rng.random() < 0.7:
        return rng.choice(legal[:-1])
    return rng.choice(legal)


def new_game(seed: int) -> tuple[Game, random.Random]:
    rng = random.Random(f"player-{seed}")
    return Game(rules=random_rules(rng), seed=seed), rng


def play_out(game: Game, rng: random.Random, each: Callable[[Game, Action], None] | None = None) -> list[Action]:
    taken: list[Action] = []
    for _ in range(20_000):
        if game.is_over:
            return taken
        action = choose(rng, game, game.legal_actions())
        game.apply(action)
        taken.append(action)
        if each is not None:
            each(game, action)
    raise AssertionError(f"game did not end: {game!r}")


def expected_scores(game: Game) -> tuple[int, int]:
    scores = [sum(set_points(s) for s in game.sets(p)) for p in (0, 1)]
    result = game.result
    if result is not None and result.reason == "found":
        scores[result.needle_owner] += game.rules.needle_bonus  # type: ignore[index]
    return (scores[0], scores[1])


class Watcher:
    """What the test itself remembers while a game is played: each player's last steal
    turn (public: T2), the sets laid this turn (T4), the actions taken.
    """

    def __init__(self) -> None:
        self.last_steal: list[int | None] = [None, None]
        self.laid_this_turn = 0
        self.taken: list[tuple[int, Action]] = []

    def applied(self, before: Game, action: Action) -> None:
        self.taken.append((before.to_move, action))
        if type(action) is Steal:
            self.last_steal[before.to_move] = before.turn
        if type(action) is LaySet:
            self.laid_this_turn += 1
        if type(action) is Discard:
            self.laid_this_turn = 0


# ---- per-step invariants ------------------------------------------------------------------


def check_state(game: Game, watcher: Watcher) -> None:
    assert sorted(c.index for c in all_zones(game)) == INDICES, "the 52 cards are not conserved"
    legal = game.legal_actions()
    assert len(set(legal)) == len(legal), "duplicate legal actions"
    assert legal == game.legal_actions(), "legal_actions is not stable"
    assert game.scores == expected_scores(game)
    assert 0 <= game.turn <= game.rules.max_turns
    if game.is_over:
        assert game.result is not None and legal == []
        return
    assert game.result is None
    assert legal, f"a live game offers no action: {game!r}"
    p, phase = game.to_move, game.phase
    kinds = {"needle": {ChooseNeedle}, "draw": {DrawPile, Steal}, "sets": {LaySet, EndSets}, "discard": {Discard}}
    assert {type(a) for a in legal} <= kinds[phase]
    if phase == "needle":
        return
    needles = [game.needle(0), game.needle(1)]
    for q in (0, 1):  # E1-E3 end the round at once, so while it is live no needle is out of place
        assert needles[q] not in game.hand(q)
        assert needles[q] not in game.discard_pile
        assert all(needles[q] not in s for s in game.sets(1 - q))
    if phase == "draw":  # T1, T2, D1, D2
        assert (DrawPile() in legal) == (bool(game.draw_pile) or len(game.discard_pile) >= 2)
        last = watcher.last_steal[p]
        steal_ok = bool(game.hand(1 - p)) and (last is None or game.turn >= last + 2 * game.rules.steal_every)
        assert (Steal() in legal) == steal_ok
    elif phase == "sets":
        assert legal[-1] == EndSets()
        hand = set(game.hand(p))
        assert all(hand.issuperset(a.cards) and game.rules.is_set(a.cards) for a in legal[:-1])
    elif phase == "discard":
        assert legal == [Discard(c) for c in sorted(game.hand(p), key=INDEX)]


def check_step(before: Game, action: Action, game: Game, watcher: Watcher) -> None:
    """What one applied action did, compared with the state before it (and the watcher's
    memory of this turn, taken before the action).
    """
    p = before.to_move
    kind = type(action)
    gained = set(game.hand(p)) - set(before.hand(p))
    if kind is DrawPile:
        (card,) = gained
        if before.draw_pile:
            assert card == before.draw_pile[0]
        else:  # D1 at T1: the top discard stays, the others became the pile
            assert card in before.discard_pile[:-1]
            assert game.discard_pile == before.discard_pile[-1:]
    elif kind is Steal:
        (card,) = gained
        assert card in before.hand(1 - p)
        assert set(game.hand(1 - p)) == set(before.hand(1 - p)) - {card}
    elif kind is LaySet:
        assert set(before.hand(p)) - set(game.hand(p)) == set(action.cards) and not gained
        assert game.sets(p)[-1] == action.cards
    elif kind is EndSets:  # T4 with D1/D2
        available = len(before.draw_pile) + max(len(before.discard_pile) - 1, 0)
        wanted = min(3 * watcher.laid_this_turn, available)
        if game.result is not None and game.result.reason == "found":
            assert game.needle(p) in gained and len(gained) <= wanted
        else:
            assert len(gained) == wanted
            # derived from E1-E3: a hand can never be emptied here, so the T5 skip never happens
            assert game.phase == "discard"
    elif kind is Discard:
        assert set(before.hand(p)) - set(game.hand(p)) == {action.card}
        assert game.discard_pile[-1] == action.card
        if not game.is_over:
            assert game.phase == "draw" and game.to_move == 1 - p and game.turn == before.turn + 1
    if game.is_over:
        check_result(game, action)


def check_result(game: Game, last: Action) -> None:
    result = game.result
    assert result is not None and game.phase == "over"
    a, b = result.scores
    assert result.scores == game.scores == expected_scores(game)
    assert result.winner == (None if a == b else 0 if a > b else 1)  # P3
    owner = result.needle_owner
    mover = game.history[-1].player
    if result.reason == "found":  # E1
        assert owner == mover and game.needle(owner) in game.hand(owner)  # type: ignore[arg-type]
    elif result.reason == "discarded":  # E2
        assert type(last) is Discard and last.card == game.needle(owner) and owner == 1 - mover  # type: ignore[arg-type]
    elif result.reason == "melded":  # E3
        assert type(last) is LaySet and game.needle(owner) in last.cards and owner == 1 - mover  # type: ignore[arg-type]
    elif result.reason == "turn_limit":  # E5
        assert owner is None and game.turn == game.rules.max_turns and type(last) is Discard
    else:
        # E4 cannot happen by legal play (proof in test_rules.test_E4_...): at a T1 with an
        # empty draw pile the mover's needle is in the opponent's hand, so a steal is possible
        # unless T2 forbids it, and by then the discard pile holds two cards to reshuffle.
        raise AssertionError(f"unexpected end {result!r}")


def test_invariants_after_every_action_in_many_random_games() -> None:
    reasons: set[str] = set()
    for seed in range(GAMES):
        game, rng = new_game(seed)
        watcher = Watcher()
        check_state(game, watcher)
        while not game.is_over:
            before = game.copy()
            action = choose(rng, game, game.legal_actions())
            game.apply(action)
            check_step(before, action, game, watcher)
            watcher.applied(before, action)
            check_state(game, watcher)
        assert [(e.player, e.action) for e in game.history] == watcher.taken
        reasons.add(str(game.result.reason))  # type: ignore[union-attr]
    assert reasons == {"found", "discarded", "melded", "turn_limit"}


# ---- refusals -----------------------------------------------------------------------------


def action_universe(rng: random.Random) -> list[Action]:
    """Every ChooseNeedle and Discard, the three plain actions, and a sample of LaySets
    (real sets under some ace rule, and random triples).
    """
    every: list[Action] = [DrawPile(), Steal(), EndSets()]
    every += [ChooseNeedle(c) for c in ALL_CARDS] + [Discard(c) for c in ALL_CARDS]
    for start in range(1, 14):
        for _ in range(6):
            ranks = [(start + k - 1) % 13 + 1 for k in range(3)]
            every.append(LaySet(tuple(Card(r, rng.choice("CDHS")) for r in ranks)))  # type: ignore[arg-type]
    for _ in range(60):
        every.append(LaySet(tuple(rng.sample(ALL_CARDS, 3))))  # type: ignore[arg-type]
    return every


def test_actions_outside_legal_actions_are_refused_and_change_nothing() -> None:
    universe = action_universe(random.Random(1))
    refused = accepted = 0
    for seed in range(GAMES):
        game, rng = new_game(seed)
        while True:
            legal = game.legal_actions()
            tries = rng.sample(universe, 3)
            hand = game.hand(game.to_move)
            if len(hand) >= 3 and rng.random() < 0.5:  # the mover's own cards: sometimes a set, mostly not
                tries.append(LaySet(tuple(rng.sample(hand, 3))))  # type: ignore[arg-type]
            before = game.snapshot()
            for action in tries:
                if action in legal:
                    game.copy().apply(action)  # an offered action is accepted
                    accepted += 1
                    continue
                try:
                    game.apply(action)
                except IllegalAction:
                    refused += 1
                else:
                    raise AssertionError(f"{action} was applied but not offered in {legal}")
            assert game.snapshot() == before, f"a refused action changed the game: {tries}"
            if game.is_over:
                break
            game.apply(choose(rng, game, legal))
    assert refused > 30_000 and accepted > 1_000


# ---- reproducibility and copies -------------------------------------------------------------


def test_same_seed_and_same_actions_give_identical_games() -> None:
    for seed in range(GAMES):
        game, rng = new_game(seed)
        taken = play_out(game, rng)
        again = Game(rules=game.rules, seed=seed)
        for action in taken:
            again.apply(action)
        assert again.snapshot() == game.snapshot()
        assert again.history == game.history and again.result == game.result


def test_copy_is_independent_and_continues_identically() -> None:
    for seed in range(400):
        game, rng = new_game(seed)
        stop = rng.randrange(1, 40)
        for _ in range(stop):
            if game.is_over:
                break
            game.apply(choose(rng, game, game.legal_actions()))
        frozen = game.snapshot()
        twin = game.copy()
        assert twin.snapshot() == frozen
        taken = play_out(twin, random.Random(seed))
        assert game.snapshot() == frozen, "playing the copy changed the original"
        for action in taken:
            game.apply(action)
        assert game.snapshot() == twin.snapshot()


# ---- T3: the offered sets are exactly the sets in the hand -------------------------------------


def test_offered_sets_are_all_the_sets_in_the_hand() -> None:
    checked = 0
    for seed in range(500):
        game, rng = new_game(seed)
        while not game.is_over:
            if game.phase == "sets" and len(game.hand(game.to_move)) <= 14:
                hand = game.hand(game.to_move)
                brute = {LaySet(t) for t in itertools.combinations(hand, 3) if game.rules.is_set(t)}  # type: ignore[arg-type]
                offered = game.legal_actions()[:-1]
                assert set(offered) == brute and len(offered) == len(brute)
                checked += 1
            game.apply(choose(rng, game, game.legal_actions()))
    assert checked > 500


# ---- hypothesis: the same properties from generated rules, seeds and choices --------------------

rules_strategy = st.builds(
    Rules,
    hand_size=st.integers(1, 26),
    first_player=st.sampled_from([0, 1, "random"]),
    steal_every=st.integers(1, 6),
    ace=st.sampled_from(["low", "low_or_high", "wrap"]),
    needle_bonus=st.integers(0, 4),
    max_turns=st.integers(1, 400),
)


@settings(max_examples=300, derandomize=True, deadline=None, database=None)
@given(rules=rules_strategy, seed=st.integers(0, 2**63 - 1), player_seed=st.integers(0, 2**32))
def test_generated_games_end_conserve_cards_and_score_their_sets(rules: Rules, seed: int, player_seed: int) -> None:
    game = Game(rules=rules, seed=seed)
    play_out(game, random.Random(player_seed))
    assert game.phase == "over" and game.result is not None
    assert sorted(all_zones(game)) == list(ALL_CARDS)
    assert game.result.scores == expected_scores(game)
    assert game.result.reason != "exhausted"
    assert game.turn <= rules.max_turns


def test_the_engine_shuffles_and_draws_as_random_does() -> None:
    """draws.shuffle and draws.below are random.shuffle and randrange in one loop: the same permutation or
    number, and the same generator state after (so every seed deals as before); a rollout's `Stream` draws the
    same numbers from the start's words, and on past them.
    """
    from needle_widget import Game
    from needle_widget.engine.draws import Stream, below, shuffle

    for s in range(2000):
        n = s % 53
        game = Game(seed=s)
        if s % 2:  # its generator has dealt: a copy keeps its state in their start
            game.copy()
        start = game._start  # noqa: SLF001 - made by the game (a compiled build's serializable class is made there)
        a, b, stream = start.make(), start.make(), Stream(start)
        x, y, z = list(range(n)), list(range(n)), list(range(n))
        a.shuffle(x)
        shuffle(b, y)
        stream.shuffle(z)
        assert x == y == z and a.getstate() == b.getstate(), s
        if n:
            assert a.randrange(n) == below(b, n) == stream.below(n) and a.getstate() == b.getstate(), s
        # on past the start's shared words (WORDS), from a generator of its own, as the generator goes on
        assert [stream.below(50) for _ in range(80)] == [below(a, 50) for _ in range(80)], s
