"""Narration: a sentence per action from each perspective, keeping each perspective's secrets."""

from __future__ import annotations

import pytest
from test_replay import random_game
from test_secrecy import play_twins

from needle_widget import Card, Game, Rules, actions
from needle_widget.engine.cards import DECK
from needle_widget.engine.narration import narrate


def started(hand0: str, hand1: str, pile: str, needles=("KS", "KH"), **rules) -> Game:
    first = [Card.parse(c) for c in f"{hand0} {hand1} {pile}".split()]
    deck = first + [c for c in DECK if c not in first]
    game = Game(rules=Rules(hand_size=len(hand0.split()), **rules), seed=1, deck=deck)
    game.apply(actions.ChooseNeedle(needles[0]))
    game.apply(actions.ChooseNeedle(needles[1]))
    return game


def test_needle_picks() -> None:
    game = started("2C", "4H", "7H 8D")
    assert narrate(game, 0)[:2] == ["You picked K♠ as your needle.", "Player 2 picked a needle."]
    assert narrate(game, "teacher")[1] == "Player 2 picked K♥ as their needle."
    assert narrate(game, "spectator")[:2] == ["Player 1 picked a needle.", "Player 2 picked a needle."]


def test_pile_draws_name_the_card_for_the_drawer_only() -> None:
    game = started("2C", "4H", "7H 8D")
    game.apply(actions.DrawPile())
    assert narrate(game, 0)[-1] == "You drew 7♥ from the pile."
    assert narrate(game, 1)[-1] == "Player 1 drew a card from the pile."
    assert narrate(game, "spectator")[-1] == "Player 1 drew a card from the pile."
    assert narrate(game, "teacher")[-1] == "Player 1 drew 7♥ from the pile."


def test_steals_name_the_card_for_both_players_only() -> None:
    game = started("9C", "4H", "7H 8D 5S 6S")
    for text in ("draw", "end", "discard 7h"):
        game.apply(actions.parse(text))
    game.apply(actions.Steal())
    assert narrate(game, 0)[-1] == "Player 2 stole 9♣ from you."
    assert narrate(game, 1)[-1] == "You stole 9♣ from Player 1."
    assert narrate(game, "spectator")[-1] == "Player 2 stole a card from Player 1."
    assert narrate(game, "teacher")[-1] == "Player 2 stole 9♣ from Player 1."


def test_sets_replenishing_and_discards() -> None:
    game = started("4C 5H 6H 9S", "2D 3D 8C 10H", "JD AC KC QC 2S")
    for text in ("draw", "lay 4c 5h 6h", "end", "discard 9s"):
        game.apply(actions.parse(text))
    assert narrate(game, 0)[-3:] == [
        "You laid 4♣ 5♥ 6♥ for 1 point.", "You drew A♣ K♣ Q♣ to replenish.", "You discarded 9♠."
    ]
    assert narrate(game, 1)[-2] == "Player 1 drew 3 cards to replenish."
    for text in ("draw", "end"):
        game.apply(actions.parse(text))
    assert narrate(game, 0)[-1] == "Player 2 laid no set."


def test_the_end_is_told_to_everyone() -> None:
    game = started("2C 3C 9D", "4H 8S JD", "5D 6D 7D", needles=("5D", "QH"))
    game.apply(actions.DrawPile())
    for perspective in (0, 1, "spectator"):
        assert narrate(game, perspective)[-1].endswith(
            "Round over: Player 1 found their needle 5♦. A draw, 0-0."
        )


def test_reshuffles_are_told() -> None:
    game = next(g for g, _ in (random_game(s, careful=True) for s in range(50)) if g.reshuffles)
    k, event = next((k, e) for k, e in enumerate(game.history) if e.reshuffles)
    size = len(event.reshuffles[0])
    for perspective in (0, 1, "spectator", "teacher"):
        assert narrate(game, perspective)[k].endswith(f" after the discards were reshuffled into a new pile of {size}.")


@pytest.mark.parametrize("seed", range(0, 40, 3))
@pytest.mark.parametrize("hidden_owner", [1, 0])
def test_narration_keeps_secrets_in_twin_games(seed: int, hidden_owner: int) -> None:
    watcher = 1 - hidden_owner
    for a, b in play_twins(seed, hidden_owner, watcher):
        for perspective in (watcher, "spectator"):
            assert narrate(a, perspective) == narrate(b, perspective)
