"""SearchBot: legal and deterministic play, its explanation and decision record, argument
errors, pickling, the registry, and twins: games that differ only in what its seat cannot
see get byte-identical choices and explanations. Small `worlds=` keep it quick.
"""

from __future__ import annotations

import json
import pickle
import re
from typing import Any

import pytest

from needle_widget import Game, Rules, actions, bots, play_game
from needle_widget.engine.errors import ArgumentError, NeedleError
from needle_widget.players import search
from needle_widget.players.search import SearchBot

CARD = re.compile(r"(?:10|[2-9AJQK])[♣♦♥♠]")


class Watch:
    """Passes each decision to a SearchBot, checking its choice, explanation and record."""

    def __init__(self, bot: SearchBot) -> None:
        self.bot, self.name, self.reads_history = bot, bot.name, True
        self.decisions = 0

    def new_game(self, seed: int, player: int) -> None:
        self.bot.new_game(seed, player)

    def choose(self, view: Any, legal: list) -> Any:
        action = self.bot.choose(view, legal)
        assert action in legal
        last, text = self.bot.last, self.bot.explain()
        assert last is not None and last.chosen == action and last.legal == len(legal)
        assert text.startswith(f"{action}: ") and text.endswith(".") and "\n" not in text
        named = {str(c) for a in (action, *(v.action for v in last.values[:2])) for c in _cards_of(a)}
        assert set(CARD.findall(text)) <= named, text  # only the actions' own cards, never a world's
        self.decisions += 1
        return action


def _cards_of(action: Any) -> tuple:
    if hasattr(action, "cards"):
        return action.cards
    return (action.card,) if hasattr(action, "card") else ()


def small(seed: int = 1, **kw: Any) -> SearchBot:
    return SearchBot(seed=seed, **{"worlds": 3, "rollouts": 9, **kw})


# ---- play ----------------------------------------------------------------------------------


@pytest.mark.parametrize("rules", [Rules(), Rules(ace="wrap", hand_size=5), Rules(hand_size=3, steal_every=1)],
                         ids=repr)
def test_search_bot_plays_whole_games_legally_in_either_seat(rules: Rules) -> None:
    for seed in range(4):
        watch = Watch(small(seed))
        seats = (watch, bots.GreedyBot()) if seed % 2 == 0 else (bots.RandomBot(seed=seed), watch)
        assert play_game(*seats, seed=seed, rules=rules).phase == "over"
        assert watch.decisions > 0


def test_same_seeds_give_the_same_game_whatever_was_played_before() -> None:
    first = play_game(small(4), bots.GreedyBot(), seed=21)
    used = small(4)
    for seed in range(2):
        play_game(bots.GreedyBot(), used, seed=seed)
    assert play_game(used, bots.GreedyBot(), seed=21).snapshot() == first.snapshot()


def test_a_random_policy_plays_on_deterministically() -> None:
    def make() -> SearchBot:
        return small(2, policy=bots.RandomBot(seed=3))

    assert play_game(make(), bots.GreedyBot(), seed=5).snapshot() == play_game(make(), bots.GreedyBot(),
                                                                             seed=5).snapshot()


def test_an_unseeded_bot_draws_and_keeps_a_seed() -> None:
    bot = SearchBot()
    assert isinstance(bot.seed, int) and pickle.loads(pickle.dumps(bot)).seed == bot.seed


# ---- explanation and decision record ---------------------------------------------------------


def _first_discard(bot: SearchBot) -> tuple[Game, Any]:
    game = Game(seed=11)
    greedy = bots.GreedyBot()
    while not (game.phase == "discard" and game.to_move == 0):
        game.apply(greedy.choose(game.player_view(game.to_move), game.legal_actions()))
    bot.new_game(11, 0)
    return game, bot.choose(game.player_view(0, record=True), game.legal_actions())


def test_explain_names_the_choice_its_share_of_worlds_and_the_next_best() -> None:
    bot = SearchBot(seed=2, worlds=8, rollouts=None, caution=0)
    assert bot.explain() == "I have not chosen anything yet."
    game, action = _first_discard(bot)
    text = bot.explain()
    best, second = bot.last.values[:2]
    assert text == (f"{action}: wins {round(100 * best.value)}% of 8 sampled worlds, next best {second.action} "
                    f"{round(100 * second.value)}%.")
    assert type(action) is actions.Discard and action.card in game.hand(0)


def test_the_last_decision_keeps_plain_numbers_for_every_candidate() -> None:
    bot = SearchBot(seed=2, worlds=6, rollouts=18, caution=0)
    game, action = _first_discard(bot)
    last = bot.last
    assert last.worlds == 6 and last.legal == len(game.legal_actions()) and not last.timed_out
    assert len(last.values) == 3 and last.rollouts == 18  # rollouts // worlds candidates, in every world
    assert [v.count for v in last.values] == [6, 6, 6]
    assert [v.value for v in last.values] == sorted((v.value for v in last.values), reverse=True)
    assert all(0 <= v.value <= 1 and abs(v.value * 12 - round(v.value * 12)) < 1e-9 for v in last.values)
    assert last.chosen == action == last.values[0].action
    data = json.loads(json.dumps(last.to_dict()))
    assert data["chosen"] == str(action) and data["worlds"] == 6
    assert [v["action"] for v in data["values"]] == [str(v.action) for v in last.values]
    assert not any(isinstance(x, Game) for x in vars(bot).values())


def test_rollouts_none_tries_every_legal_action() -> None:
    bot = SearchBot(seed=2, worlds=2, rollouts=None)
    game, _ = _first_discard(bot)
    assert {v.action for v in bot.last.values} == set(game.legal_actions())


def test_a_single_legal_action_is_played_without_search() -> None:
    bot = small()
    game = Game(seed=3)
    assert bot.choose(game.player_view(0, record=True), [actions.DRAW_PILE]) == actions.DRAW_PILE
    assert bot.last.worlds == 0 and bot.explain() == "Draw from pile: the only legal action."


def test_a_time_limit_stops_after_the_first_world() -> None:
    bot = SearchBot(seed=2, worlds=50, rollouts=None, time_limit=1e-9)
    _first_discard(bot)
    assert bot.last.timed_out and bot.last.worlds == 1
    assert "of 1 sampled worlds" in bot.explain()


def test_caution_keeps_greedy_choices_that_are_not_clearly_beaten() -> None:
    watch = Watch(SearchBot(seed=3, worlds=6, rollouts=None, caution=100.0))
    kept = []
    for seed in range(6):
        game = Game(seed=seed)
        seats = (watch, bots.GreedyBot())
        watch.new_game(seed, 0)
        while game.phase != "over":
            p, legal = game.to_move, game.legal_actions()
            if p == 0 and len(legal) > 1:
                action = watch.choose(game.player_view(0, record=True), legal)
                last = watch.bot.last
                if last.kept:
                    assert action == bots.GreedyBot().choose(game.player_view(0), legal) != last.values[0].action
                    kept.append(watch.bot.explain())
            else:
                action = seats[p].choose(game.player_view(p), legal) if len(legal) > 1 else legal[0]
            game.apply(action)
    pct = r"(?:<0\.1|\d+(?:\.\d)?)%"  # figures.percent: "58%", "8.3%", "<0.1%"
    assert kept and all(re.fullmatch(rf".+: wins {pct} of 6 sampled worlds; .+ did {pct}, too little better to trust "
                                     r"over my card sense\.", text) for text in kept), kept[:3]


# ---- errors, pickling, registry ----------------------------------------------------------------


@pytest.mark.parametrize("kw, quoted", [
    ({"worlds": 0}, "0"), ({"worlds": "8"}, "'8'"), ({"worlds": 2.5}, "2.5"), ({"rollouts": 0}, "0"),
    ({"rollouts": True}, "True"), ({"time_limit": -1}, "-1"), ({"time_limit": True}, "True"),
    ({"time_limit": float("inf")}, "inf"), ({"seed": -3}, "-3"), ({"seed": "x"}, "'x'"),
    ({"policy": "greedy"}, "'greedy'"), ({"caution": -1}, "-1"), ({"caution": "high"}, "'high'"),
])
def test_bad_arguments_raise_an_argument_error_quoting_them(kw: dict, quoted: str) -> None:
    with pytest.raises(ArgumentError, match=re.escape(quoted)):
        SearchBot(**kw)


def test_a_view_without_its_record_says_how_to_get_one() -> None:
    game = Game(seed=1)
    with pytest.raises(ArgumentError, match=re.escape("record=True")) as info:
        small().choose(game.player_view(0), game.legal_actions())
    assert isinstance(info.value, NeedleError)


def test_pickling_before_and_after_play_keeps_how_it_plays() -> None:
    bot = small(8)
    pickle.loads(pickle.dumps(bot))
    play_game(bot, bots.GreedyBot(), seed=2)
    copy = pickle.loads(pickle.dumps(bot))
    assert copy.explain() == bot.explain() and copy.last == bot.last
    first = play_game(bot, bots.RandomBot(seed=1), seed=12)
    assert play_game(copy, bots.RandomBot(seed=1), seed=12).snapshot() == first.snapshot()


def test_the_registry_makes_search_bots_lazily() -> None:
    bot = bots.make_bot("Search", seed=6)
    assert type(bot) is SearchBot is bots.SearchBot is search.SearchBot and bot.seed == 6
    assert isinstance(bot, bots.Bot) and isinstance(bots.BOTS["search"](seed=1), SearchBot)
    assert bot.reads_history is True and "SearchBot" in bots.__all__


# ---- twins: what the seat cannot see changes nothing it says or does ---------------------------


def _twin_decks(seed: int, kind: str) -> tuple[list, list]:
    """Two deals that differ only in a card of Player 2's hand ("hand") or the pile's third card
    from the bottom ("pile") swapped with the pile's bottom card.
    """
    deck = list(Game(seed=seed).deck)
    hidden = 7 + seed % 7 if kind == "hand" else -3
    other = deck[:]
    other[hidden], other[-1] = deck[-1], deck[hidden]
    return deck, other


@pytest.mark.parametrize("kind, least", [("hand", 3), ("pile", 4)])
@pytest.mark.parametrize("seed", range(4))
def test_twins_get_identical_choices_and_explanations_until_the_difference_shows(seed: int, kind: str,
                                                                                 least: int) -> None:
    a, b = (Game(seed=seed, deck=deck) for deck in _twin_decks(seed, kind))
    players = [(small(5, worlds=4, caution=0), bots.GreedyBot()), (small(5, worlds=4, caution=0), bots.GreedyBot())]
    for pair in players:
        pair[0].new_game(seed, 0)
    compared = 0
    while a.phase != "over" and b.phase != "over" and a.view(0) == b.view(0):
        moves = []
        for game, pair in zip((a, b), players, strict=True):
            p, legal = game.to_move, game.legal_actions()
            moves.append(pair[p].choose(game.player_view(p, record=p == 0), legal) if len(legal) > 1 else legal[0])
        if a.to_move == 0 and len(a.legal_actions()) > 1:
            assert moves[0] == moves[1] and players[0][0].explain() == players[1][0].explain(), (seed, len(a))
            assert players[0][0].last == players[1][0].last
            compared += 1
        a.apply(moves[0])
        b.apply(moves[1])
    assert a.view("teacher") != b.view("teacher")
    assert compared >= least, compared


@pytest.mark.parametrize("seed, watcher", [(0, 0), (1, 1)])
def test_twins_differing_in_a_reshuffles_order_get_identical_choices(seed: int, watcher: int) -> None:
    from test_secrecy_reshuffle import twins as reshuffle_twins

    compared = 0
    for a, b, step in reshuffle_twins(seed, watcher, horizon=30):
        if a.to_move == watcher and a.phase != "over" and len(a.legal_actions()) > 1:
            bots_ = [small(7, worlds=3), small(7, worlds=3)]
            for bot in bots_:
                bot.new_game(seed, watcher)
            moves = [bot.choose(g.player_view(watcher, record=True), g.legal_actions())
                     for bot, g in zip(bots_, (a, b), strict=True)]
            assert moves[0] == moves[1] and bots_[0].explain() == bots_[1].explain(), (seed, step)
            assert bots_[0].last == bots_[1].last
            compared += 1
    assert compared >= 2
