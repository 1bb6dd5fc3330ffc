"""Secrecy: what a bot's `new_game` is told never deals its game again (play_game, tournaments, the
review's matches, the widget, the terminal game), yet a seeded bot still plays a deal the same way.
"""

from __future__ import annotations

from needle_widget import NeedleWidget
from needle_widget.engine.game import Game
from needle_widget.players import bots
from needle_widget.players.bots import bot_seed
from needle_widget.players.sim import play_game, round_robin


class Keeper(bots.GreedyBot):
    """Plays as GreedyBot and keeps every (seed, seat) its new_game is told, in a list shared by its copies."""

    def __init__(self, box: list | None = None) -> None:
        super().__init__()
        self.box = [] if box is None else box

    def __deepcopy__(self, memo: dict) -> Keeper:
        return Keeper(self.box)

    def new_game(self, seed: int, player: int) -> None:
        self.box.append((seed, player))


def _deals_again(told: int, seed: int) -> bool:
    return told == seed or Game(seed=told).deck == Game(seed=seed).deck


def test_play_game_tells_each_seat_a_number_that_does_not_deal_the_game() -> None:
    for seed in range(8):
        box: list = []
        game = play_game(Keeper(box), Keeper(box), seed=seed)
        (a, pa), (b, pb) = box
        assert (pa, pb) == (0, 1) and a != b
        assert not _deals_again(a, game.seed) and not _deals_again(b, game.seed)
        assert (a, b) == (bot_seed(seed, 0), bot_seed(seed, 1))


def test_bot_seed_is_stable_per_deal_and_seat() -> None:
    assert bot_seed(5, 0) == bot_seed(5, 0)
    assert len({bot_seed(5, 0), bot_seed(5, 1), bot_seed(6, 0), bot_seed(6, 1)}) == 4
    assert all(0 <= bot_seed(s, p) < 2**63 for s in (0, 1, 2**63 - 1) for p in (0, 1))


def test_a_seeded_bot_still_plays_a_deal_the_same_way() -> None:
    first = play_game(bots.RandomBot(seed=3), bots.RandomBot(seed=4), seed=8).replay().to_json()
    assert play_game(bots.RandomBot(seed=3), bots.RandomBot(seed=4), seed=8).replay().to_json() == first
    assert play_game(bots.RandomBot(seed=3), bots.RandomBot(seed=4), seed=9).replay().to_json() != first


def test_a_tournament_tells_no_bot_its_deal() -> None:
    for duplicate in (False, True):
        box: list = []
        t = round_robin([Keeper(box), Keeper(box)], games=6, seed=11, progress=False, duplicate=duplicate)
        deals = [row["seed"] for row in t.rows]
        assert len(box) == 12 and {p for _, p in box} == {0, 1}
        assert sorted(box) == sorted((bot_seed(d, p), p) for d in deals for p in (0, 1))
        assert not any(_deals_again(s, d) for s, _ in box for d in deals)


def test_the_review_tells_its_policy_no_deal() -> None:
    from needle_widget import examples
    from needle_widget.review import review

    replay = examples.load("found_early")
    box: list = []
    review(replay, 0, worlds=4, policy=Keeper(box))
    assert box and not any(_deals_again(s, replay.seed) for s, _ in box)


def test_the_widget_tells_its_bot_no_deal_at_the_start_or_a_new_game() -> None:
    box: list = []
    w = NeedleWidget.play(Keeper(box), seed=9)
    assert box == [(bot_seed(9, 1), 1)] and not _deals_again(box[0][0], 9)
    finisher = bots.GreedyBot()
    while w.game.phase != "over":
        g = w.game
        legal = g.legal_actions()
        w.apply(finisher.choose(g.player_view(0), legal) if g.to_move == 0 and len(legal) > 1 else legal[0]) \
            if g.to_move == 0 else w.advance()
    w.new_game(seed=10)
    assert box[-1] == (bot_seed(10, 1), 1) and not _deals_again(box[-1][0], 10)
    w.replace_bot(1, Keeper(box))
    assert box[-1] == (bot_seed(10, 1), 1)
    assert all(not _deals_again(s, d) for s, _ in box for d in w.deals)


def test_watch_tells_both_bots_only_their_own_numbers() -> None:
    box: list = []
    w = NeedleWidget.watch(Keeper(box), Keeper(box), seed=4, autoplay=False)
    assert sorted(box, key=lambda x: x[1]) == [(bot_seed(4, 0), 0), (bot_seed(4, 1), 1)]
    assert w.deals == (4,)
