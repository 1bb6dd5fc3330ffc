"""Rollouts on the game's numbers (engine/rollout.py, `Game.play_on`, `playout.rollout`) give the result that
playing a copy on gives, move for move, under every rule variant, from every phase, and leave the game as it was.
"""

from __future__ import annotations

import random
import sys

import pytest
from conftest import COMPILED
from test_playout import RULES, _midgames
from test_rule_variants import VARIANT_RULES

from needle_widget import Game, Rules, bots
from needle_widget.engine import actions as A
from needle_widget.engine import rollout as rollout_module
from needle_widget.engine.errors import IllegalAction
from needle_widget.engine.playout import play_out, rollout
from needle_widget.inference.worlds import sample

GREEDY = bots.GreedyBot()
PAIR = (GREEDY, GREEDY)
MASKS = (GREEDY.choose_masks, GREEDY.choose_masks)


def long_game(seed: int) -> Game:
    """A game to the turn limit (300 turns): random players who never end the round (as `apps.bench.long_game`,
    which the compiled wheel does not hold).
    """
    rng, game = random.Random(seed), Game(seed=seed)
    while game.phase != "over":
        p = game.to_move
        mine, theirs = game.needle(p), game.needle(1 - p)
        legal = [a for a in game.legal_actions()
                 if not (type(a) is A.Steal and mine in game.hand(1 - p)) and theirs not in A.cards_of(a)]
        game.apply(rng.choice(legal or game.legal_actions()))
    return game


def _positions(rules: Rules, seeds: range) -> list[Game]:
    """Games of random play cut at a random step of the first 40 (the needle picks, every phase, the end)."""
    out = []
    for seed in seeds:
        rng, game = random.Random(seed), Game(rules=rules, seed=seed)
        cut = rng.randrange(0, 40)
        while len(game) < cut and game.phase != "over":
            game.apply(rng.choice(game.legal_actions()))
        out.append(game)
    return out


@pytest.mark.parametrize("rules", RULES + VARIANT_RULES[::2] + [Rules(hand_size=3, second_extra=1)], ids=repr)
def test_a_rollout_is_the_play_out_of_a_copy_and_leaves_the_game_as_it_was(rules: Rules) -> None:
    compared = phases = 0
    seen: set[str] = set()
    for game in _positions(rules, range(120)) + _midgames(rules, 3):  # random play's, GreedyBot games' (reshuffled)
        before = game.snapshot()
        seen.add(game.phase)
        for first in [None, *game.legal_actions()[:3]]:
            copy = game.copy()
            if first is not None:
                copy.apply(first)
            assert game.play_on(MASKS, first) == play_out(copy, PAIR) == rollout(game, PAIR, first), (game, first)
            compared += 1
        assert game.snapshot() == before  # history, piles, generator state: nothing moved
        phases += 1
    assert compared > 250 and seen >= {"needle", "draw", "sets", "discard"}


def test_the_game_goes_on_as_its_twin_after_rollouts_from_it() -> None:
    """A rollout starts its generator where the game's is (a game whose generator has drawn keeps that state
    once): the game, played on afterwards, draws what a twin that never rolled out draws.
    """
    for seed in range(40):
        game, twin = Game(seed=seed), Game(seed=seed)
        rng = random.Random(seed)
        while game.phase != "over":
            if rng.random() < 0.3:
                game.play_on(MASKS)
            action = rng.choice(game.legal_actions())
            game.apply(action)
            twin.apply(action)
        assert game.history == twin.history and game.result == twin.result


def test_an_illegal_first_action_is_refused_and_changes_nothing() -> None:
    game = Game(seed=7)
    game.apply(A.ChooseNeedle("7h"))
    game.apply(A.ChooseNeedle("QS"))
    before = game.snapshot()
    with pytest.raises(IllegalAction, match=r"Discard 7♥ not allowed: it is Player 1's draw on turn 1"):
        game.play_on(MASKS, A.Discard("7h"))
    with pytest.raises(IllegalAction, match="not allowed"):
        rollout(game, PAIR, A.Discard("7h"))
    assert game.snapshot() == before


def test_bots_that_do_not_choose_from_masks_roll_out_on_a_copy() -> None:
    """A bot of its own choice (RandomBot, a GreedyBot subclass) plays on a copy with `play_out`; so does a Game
    subclass, whose legality predicate the numbers do not know.
    """

    class NoSteal(bots.GreedyBot):
        def choose(self, view, legal_actions):  # noqa: ANN001, ANN201
            legal = [a for a in legal_actions if not isinstance(a, A.Steal)] or list(legal_actions)
            return super().choose(view, legal)

    class Narrow(Game):
        pass

    for game in _positions(Rules(), range(30)):
        for pair in ((bots.RandomBot(seed=1), bots.RandomBot(seed=1)), (NoSteal(), NoSteal())):
            copy = game.copy()
            assert rollout(game, pair) == play_out(copy, tuple(type(bot)(seed=1) for bot in pair))
    narrow = Narrow(seed=3)
    assert rollout(narrow, PAIR) == play_out(Game(seed=3), PAIR)


def test_rollouts_through_reshuffles_are_the_play_out_of_a_copy() -> None:
    """Late positions of 300-turn games (a short pile, many discards): the rollouts reshuffle (D1), some more
    than once, and the reshuffled piles are drawn as on a copy.
    """
    reshuffled = compared = 0
    for seed in range(4):
        record = long_game(seed).replay()
        for k in range(60, len(record), 8):
            game = record.game_at(k)
            for first in [None, *game.legal_actions()[:2]]:
                copy = game.copy()
                if first is not None:
                    copy.apply(first)
                assert game.play_on(MASKS, first) == play_out(copy, PAIR), (seed, k, first)
                reshuffled += copy.reshuffles > game.reshuffles
                compared += 1
    assert compared > 250 and reshuffled > 30, (compared, reshuffled)


@pytest.mark.parametrize("rules", RULES + VARIANT_RULES[1::2], ids=repr)
def test_a_game_played_through_on_its_numbers_ends_as_action_by_action(rules: Rules) -> None:
    """`Game.play_through` (what `play_out` does for two GreedyBots) leaves the game exactly as the checked path
    does: every field, the history and the generator's state (`snapshot`), from the deal and from mid-game.
    """
    positions = [Game(rules=rules, seed=seed) for seed in range(40)] + _positions(rules, range(40))
    positions += [record.game_at(k) for record in (long_game(1).replay(),) for k in range(100, len(record), 60)]
    for game in positions:
        fast, checked = game.copy(), game.copy()
        assert fast.play_through(MASKS) == play_out(checked, PAIR, trusted=False)
        assert fast.snapshot() == checked.snapshot()
        fast_on, checked_on = fast.copy(), checked.copy()  # and their generators go on alike
        assert fast_on._generator().random() == checked_on._generator().random()  # noqa: SLF001


def test_an_observed_game_is_played_through_an_action_at_a_time() -> None:
    game, twin = Game(seed=11), Game(seed=11)
    told: list[int] = []
    game.observe(lambda g: told.append(len(g)))
    play_out(game, PAIR)
    play_out(twin, PAIR, trusted=False)
    assert told == list(range(1, len(twin) + 1)) and game.snapshot() == twin.snapshot()


def test_a_chooser_that_raises_is_reported_and_leaves_the_game_where_it_stood() -> None:
    """As on the checked path: the error (or `fail`'s) passes on, and the game stands at the decision the chooser
    failed, every field as after applying its history action by action, and it can go on.
    """

    class Broken(bots.GreedyBot):
        choose_trusted = bots.GreedyBot.choose_trusted  # trusted, and choosing from masks: the masks path

        def choose_masks(self, rules, phase, hand, table, known, may_steal):  # noqa: ANN001, ANN201, PLR0913
            if phase == "discard":
                raise RuntimeError("no discard")
            return super().choose_masks(rules, phase, hand, table, known, may_steal)

    def fail(bot, p, problem, legal, action, cause):  # noqa: ANN001, ANN202, PLR0913
        return ValueError(f"{type(bot).__name__} as player {p + 1} {problem}: {cause}")

    for seed in range(5):
        game = Game(seed=seed)
        with pytest.raises(ValueError, match=r"Broken as player \d raised: no discard"):
            play_out(game, (Broken(), Broken()), fail=fail)
        twin = Game(seed=seed)
        for event in game.history:
            twin.apply(event.action)
        assert game.phase == "discard" and game.snapshot() == twin.snapshot()
        assert game.legal_actions() == twin.legal_actions()
        with pytest.raises(RuntimeError, match="no discard"):
            play_out(game, (Broken(), Broken()))
        assert play_out(game, PAIR) == play_out(twin, PAIR, trusted=False) and game.snapshot() == twin.snapshot()


def _counting(asked: list[tuple[str, int]]) -> rollout_module.Chooser:
    """GreedyBot's `choose_masks`, noting each (phase, hand) it is asked in."""

    def choose(rules, phase, hand, table, known, may_steal):  # noqa: ANN001, ANN202, PLR0913
        asked.append((phase, hand))
        return GREEDY.choose_masks(rules, phase, hand, table, known, may_steal)

    return choose


def test_choosers_are_asked_where_they_have_a_choice_on_both_paths() -> None:
    """The numbers' loop asks a chooser exactly where the observed game's loop (`forced_action`) does: a pick of
    one card outside a 51-card hand is no choice, nor a last card to discard, nor a sets phase without a set.
    """
    for rules in (Rules(), Rules(hand_size=1, second_extra=50), Rules(first_draw="none", hand_size=3)):
        for seed in range(20):
            on_numbers: list[tuple[str, int]] = []
            observed_asked: list[tuple[str, int]] = []
            plain, observed = Game(rules=rules, seed=seed), Game(rules=rules, seed=seed)
            observed.observe(lambda game: None)
            plain.play_through((_counting(on_numbers),) * 2)
            observed.play_through((_counting(observed_asked),) * 2)
            assert on_numbers == observed_asked and plain.snapshot() == observed.snapshot()


def test_rollouts_from_threads_read_the_same_draws() -> None:
    """Rollouts share their world's first words (`draws.Start.words`), made once: threads rolling out the same
    fresh worlds at once get the results one thread gets.
    """
    import threading

    view = _midgames(Rules(), 2)[-1].view(0)
    expected = [rollout(world, PAIR) for world in sample(view, 60, seed=9)]
    for _ in range(3):
        worlds = sample(view, 60, seed=9)  # fresh starts: no words made yet
        got: list[list[object]] = [[] for _ in range(4)]

        def roll(k: int, worlds: list[Game] = worlds, got: list[list[object]] = got) -> None:
            got[k] = [rollout(world, PAIR) for world in worlds]

        threads = [threading.Thread(target=roll, args=(k,)) for k in range(4)]
        switch = sys.getswitchinterval()
        sys.setswitchinterval(1e-6)  # the threads take turns every few bytecodes: any race shows
        try:
            for thread in threads:
                thread.start()
            for thread in threads:
                thread.join()
        finally:
            sys.setswitchinterval(switch)
        assert all(results == expected for results in got)


@pytest.mark.skipif(COMPILED, reason="a compiled module's Final constant cannot be replaced from Python")
def test_where_the_generator_does_not_draw_from_its_words_the_draws_are_the_generator_s(
        monkeypatch: pytest.MonkeyPatch) -> None:
    from needle_widget.engine import draws

    monkeypatch.setattr(draws, "_WORDS_DRAW", False)
    for game in _positions(Rules(), range(40)) + [Game(seed=seed, deck=Game(seed=seed).deck) for seed in range(10)]:
        fast, checked = game.copy(), game.copy()
        assert game.play_on(MASKS) == play_out(game.copy(), PAIR, trusted=False)
        assert fast.play_through(MASKS) == play_out(checked, PAIR, trusted=False)
        assert fast.snapshot() == checked.snapshot()
