"""Worlds that leave their past for later, and copies that leave their generator for later (issue 48).

A world the review only plays on costs O(state): `PlayerPlan.worlds` places only the current pool (the older
pools' piles were drawn to the end, so where their cards sat changes nothing now) and writes the world's deal
and hidden history when they are first read (`Game.with_hidden(later=...)`). Checked here by behaviour: the past
is written only when read, once for a world and its copies, and then reproduces the view; the worlds are drawn
as the eager placement of every pool draws them (chi-square tests of homogeneity at the 0.001 level, fixed
seeds); a copy makes no generator until it draws, and draws what the original draws.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable, Hashable

import pytest
from conftest import COMPILED
from test_secrecy_reshuffle import careful_game
from test_worlds import LEVEL, chi2_sf

from needle_widget import Game, actions, worlds
from needle_widget.engine.errors import ArgumentError
from needle_widget.engine.playout import play_out
from needle_widget.inference import slots
from needle_widget.players.bots import GreedyBot


def reshuffled(seed: int = 2, pools: int = 3) -> Game:
    """A live game at a draw after at least `pools - 1` reshuffles (a careful game, stopped there)."""
    game = careful_game(seed)
    replay = game.replay()
    for k in range(len(replay), 0, -1):
        state = replay.game_at(k)
        if state.phase == "draw" and state.reshuffles >= pools - 1:
            return state
    raise AssertionError(f"careful_game({seed}) reshuffles fewer than {pools - 1} times")


def test_a_world_only_played_on_never_writes_its_past(monkeypatch: pytest.MonkeyPatch) -> None:
    """Played on, a world keeps its past unwritten (`_later`); read, it writes it once for itself and its copies.
    The count of writes is the pure build's (a compiled class's method cannot be replaced from Python).
    """
    calls: list[int] = []
    write = slots.PlayerPlan.recorded

    def counted(self: slots.PlayerPlan, placed: list[list[int]], needle: int | None) -> object:
        calls.append(1)
        return write(self, placed, needle)

    if not COMPILED:
        monkeypatch.setattr(slots.PlayerPlan, "recorded", counted)
    state = reshuffled()
    view = state.view(0)
    made = worlds.sample(view, 12, seed=4)
    for world in made[1:]:
        play_out(world.copy(), (GreedyBot(), GreedyBot()))
        play_out(world.copy(), (GreedyBot(), GreedyBot()))
    assert all(w._later is not None for w in made[1:]), "playing on wrote a world's past"  # noqa: SLF001
    assert calls == []
    world = made[1]
    twin = world.copy()
    assert world.view(0) == view and world._later is None  # noqa: SLF001 - written now
    assert twin.view(0) == view and twin.deck == world.deck
    assert calls == ([] if COMPILED else [1]), "a copy wrote the past again"
    later = made[2].copy()
    later.apply(later.legal_actions()[0])
    assert later.history[: len(state)] == made[2].history and len(later) == len(state) + 1
    assert all(w.view(0) == view for w in made)


def test_a_past_that_does_not_fit_is_refused_when_it_is_read() -> None:
    state = reshuffled()
    hands = (state.hand_mask(0), state.hand_mask(1))
    pile = [c.index for c in state.draw_pile]
    needles = (state.needle(0).index, state.needle(1).index)
    world = state.with_hidden(seed=1, hands=hands, pile=pile, needles=needles,
                              later=lambda: (state.deck, {0: (actions.DRAW_PILE, (), ())}))
    assert world.hand_mask(1) == state.hand_mask(1)  # the present is there at once
    with pytest.raises(ArgumentError, match="entry 0"):
        world.history  # noqa: B018 - reading it is the test
    for given in ({"deck": state.deck, "events": {}}, {"deck": state.deck}, {"events": {}}):
        with pytest.raises(ArgumentError, match="deck and events, or later"):
            state.with_hidden(seed=1, hands=hands, pile=pile, needles=needles, later=lambda: (state.deck, {}),
                              **given)
    with pytest.raises(ArgumentError, match="deck and events, or later"):
        state.with_hidden(deck=state.deck, seed=1, hands=hands, pile=pile, needles=needles)


def homogeneous(a: list[Hashable], b: list[Hashable]) -> float:
    """The p-value of a chi-square test that two samples come from one distribution (categories seen in both)."""
    ca, cb = Counter(a), Counter(b)
    keys = sorted(set(ca) | set(cb), key=repr)
    na, nb = len(a), len(b)
    stat = 0.0
    for k in keys:
        total = ca[k] + cb[k]
        for count, n in ((ca[k], na), (cb[k], nb)):
            expected = total * n / (na + nb)
            stat += (count - expected) ** 2 / expected
    return chi2_sf(stat, len(keys) - 1)


@pytest.mark.parametrize("seat", [0, 1])
def test_the_worlds_are_drawn_as_placing_every_pool_draws_them(seat: int) -> None:
    """The present (the opponent's lowest card, the pile's top, its needle) and the past (what the opponent drew
    at its first hidden draw, the first reshuffle's order's top), lazy against eager, 3,000 worlds each.
    """
    state = reshuffled(seed=2, pools=3)
    view = state.view(seat)
    plan = slots.plan_for(view)
    assert isinstance(plan, slots.PlayerPlan) and len(plan.pools) >= 3
    n = 3000
    lazy = worlds.sample(view, n + 1, seed=11)[1:]
    rng = random.Random(12)
    template = plan.world(rng)
    eager = [plan.variant(template, *plan.draw(rng), rng.getrandbits(63)) for _ in range(n)]
    q = 1 - seat
    first = next(k for k in plan.hidden_steps() if plan.steps[k].player == q and k in plan.drawn)
    shuffled = next(k for k, step in enumerate(plan.steps) if step.pool is not None)
    looks: dict[str, Callable[[Game], Hashable]] = {
        "lowest card": lambda w: w.hand(q)[0].index,
        "pile top": lambda w: w.draw_pile[0].index,
        "needle": lambda w: w.needle(q).index,
        "first hidden draw": lambda w: w.event(first).cards[0].index,
        "first reshuffle's top": lambda w: w.event(shuffled).reshuffles[0][0].index,
    }
    for name, look in looks.items():
        p = homogeneous([look(w) for w in lazy], [look(w) for w in eager])
        assert p > LEVEL, (name, p)


def test_a_world_and_a_copy_of_a_game_pickle_with_their_generators() -> None:
    """A world (its past still to write) and a copy (its generator still to make) pickle and deep-copy whole: the
    pickle writes the past, and carries the generator's start (the compiled build pickles `_Start` too).
    """
    import copy
    import pickle

    state = reshuffled()
    world = worlds.sample(state.view(0), 3, seed=5)[2]
    game = Game(seed=9)
    for text in ("needle 7h", "needle qs", "steal"):
        game.apply(actions.parse(text))
    for original in (world, game.copy()):
        for other in (pickle.loads(pickle.dumps(original)), copy.deepcopy(original)):
            assert other.snapshot() == original.snapshot()
            play_out(other, (GreedyBot(), GreedyBot()))
            play_out(original.copy(), (GreedyBot(), GreedyBot()))


def test_a_copy_makes_no_generator_until_it_draws_and_then_draws_the_same() -> None:
    game = Game(seed=9)
    for text in ("needle 7h", "needle qs", "steal"):
        game.apply(actions.parse(text))  # the steal drew from the generator
    a, b = game.copy(), game.copy()
    assert a._rng is None and b._rng is None and game._rng is None  # noqa: SLF001 - what the copy did not make
    for g in (game, a, b):
        play_out(g, (GreedyBot(), GreedyBot()))
    assert game.history == a.history == b.history and game.result == a.result == b.result
    assert game.snapshot() == a.snapshot() == b.snapshot()
