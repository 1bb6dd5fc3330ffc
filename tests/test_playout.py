"""The trusted rollout path (engine/playout.py) plays exactly as the checked one: GreedyBot's
`choose_trusted` is its `choose`, and `Game.apply_trusted` is `apply` without asking again.
"""

from __future__ import annotations

import pytest

from needle_widget import Game, Rules, actions, bots
from needle_widget.engine.playout import is_trusted, play_out
from needle_widget.inference.worlds import sample
from needle_widget.players.sim import play_game

RULES = [Rules(), Rules(ace="low_or_high"), Rules(ace="wrap", second_extra=1),
         Rules(first_draw="pile", second_free_steal=True, needle_bonus=2), Rules(max_turns=12, steal_every=1)]


def _midgames(rules: Rules, count: int) -> list[Game]:
    """Positions of GreedyBot games at every tenth action (both needles picked), from both seats' views."""
    out = []
    for seed in range(count):
        record = play_game(bots.GreedyBot(), bots.GreedyBot(), seed=seed, rules=rules).replay()
        out += [record.game_at(k) for k in range(2, len(record), 10)]
    return out


@pytest.mark.slow
def test_ten_thousand_rollouts_go_move_for_move_as_on_the_checked_path() -> None:
    pair = (bots.GreedyBot(), bots.GreedyBot())
    assert is_trusted(pair[0]) and not is_trusted(bots.OddsBot()) and not is_trusted(bots.RandomBot(seed=1))
    rollouts = 0
    for r, rules in enumerate(RULES):
        for k, position in enumerate(_midgames(rules, 12)):
            for world in sample(position.view(k % 2), 50, seed=1000 * r + k):
                trusted, checked = world.copy(), world.copy()
                result = play_out(trusted, pair)
                assert result == play_out(checked, pair, trusted=False)
                assert trusted.history == checked.history
                rollouts += 1
    assert rollouts >= 10_000, rollouts


def test_whole_games_from_the_deal_are_the_same_on_both_paths() -> None:
    for seed in range(300):
        a, b = Game(seed=seed, rules=RULES[seed % len(RULES)]), Game(seed=seed, rules=RULES[seed % len(RULES)])
        assert play_out(a, (bots.GreedyBot(), bots.GreedyBot())) == play_out(
            b, (bots.GreedyBot(), bots.GreedyBot()), trusted=False)
        assert a.history == b.history


def test_a_subclass_that_chooses_otherwise_plays_on_the_checked_path() -> None:
    """A GreedyBot that never steals (notebook 03) must not be played as GreedyBot on the trusted path."""

    class NoSteal(bots.GreedyBot):
        def choose(self, view, legal_actions):  # noqa: ANN001, ANN201
            draw = actions.DrawPile()
            return draw if view.phase == "draw" and draw in legal_actions else super().choose(view, legal_actions)

    assert is_trusted(bots.GreedyBot()) and not is_trusted(NoSteal()) and not is_trusted(bots.OddsBot())
    game = Game(seed=4)
    play_out(game, (NoSteal(), NoSteal()))
    assert not any(type(e.action).__name__ == "Steal" for e in game.history)


def test_a_trusted_bot_that_raises_is_reported_as_on_the_checked_path() -> None:
    class Broken(bots.GreedyBot):
        def choose_trusted(self, view):  # noqa: ANN001, ANN201
            raise ZeroDivisionError("no")

    seen = []

    def fail(bot, p, problem, legal, action, cause):  # noqa: ANN001, ANN202
        seen.append((type(bot).__name__, p, problem, legal, action, type(cause).__name__))
        return RuntimeError("failed")

    with pytest.raises(RuntimeError, match="failed"):
        play_out(Game(seed=3), (Broken(), bots.GreedyBot()), fail=fail)
    assert seen == [("Broken", 0, "raised", (), None, "ZeroDivisionError")]


@pytest.mark.parametrize("rules", [Rules(), Rules(ace="wrap", hand_size=12), Rules(first_draw="none")])
def test_the_forced_action_is_the_only_legal_one(rules: Rules) -> None:
    """`Game.forced_action` (the trusted path's question, from the hand where it can) answers as `only_action`
    at every step of random games, and GreedyBot's discard on the trusted path is its discard on the checked one.
    """
    greedy, steps = bots.GreedyBot(), 0
    for seed in range(60):
        bot = bots.RandomBot(seed=seed)
        game = Game(rules=rules, seed=seed)
        while game.phase != "over":
            fresh = game.copy()
            fresh._legal = None  # noqa: SLF001 - asked before the legal actions are listed, as after an action
            assert fresh.forced_action() == game.only_action()
            legal = game.legal_actions()
            view = game.player_view(game.to_move)
            if game.phase == "discard":
                assert greedy.choose_trusted(view) == greedy.choose(view, legal)
            game.apply(bot.choose(view, legal))
            steps += 1
    assert steps > 800
