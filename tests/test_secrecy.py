"""Secrecy twins (docs/RULES.md "Who knows what"): two games that differ only in what a
perspective cannot know must give that perspective identical views, step by step.
"""

from __future__ import annotations

import json
import random

import pytest

from needle_widget import Game, actions
from needle_widget.engine.cards import Card


def twin_decks(seed: int, hidden_owner: int, rules_hand: int = 7) -> tuple[list[Card], list[Card], Card, Card]:
    """Deck A dealt from `seed`, and deck B with one of `hidden_owner`'s hand cards
    swapped with the bottom card of the draw pile.
    """
    deck = list(Game(seed=seed).deck)
    h = rules_hand
    rng = random.Random(seed)
    k = hidden_owner * h + rng.randrange(h)
    twin = deck[:]
    twin[k], twin[51] = twin[51], twin[k]
    return deck, twin, deck[k], deck[51]


def touches(action: actions.Action, cards: set[Card]) -> bool:
    held = getattr(action, "cards", None) or (getattr(action, "card", None),)
    return any(c in cards for c in held)


def play_twins(seed: int, hidden_owner: int, watcher: int, steps: int = 400):
    """Yield the twin games after each scripted action; `hidden_owner` never touches the
    swapped cards, `watcher` never steals, and the script stops before the pile's bottom card.
    """
    deck_a, deck_b, x, y = twin_decks(seed, hidden_owner)
    a, b = Game(seed=seed, deck=deck_a), Game(seed=seed, deck=deck_b)
    rng = random.Random(seed * 7 + 1)
    yield a, b
    for _ in range(steps):
        if a.phase == "over" or a.pile_size <= 1:
            return
        legal = a.legal_actions()
        if a.to_move == hidden_owner or a.phase == "needle":
            legal = [act for act in legal if not touches(act, {x, y})]
        if a.to_move == watcher:
            legal = [act for act in legal if type(act) is not actions.Steal] or legal
        if not legal or (a.to_move == watcher and type(legal[0]) is actions.Steal and len(legal) == 1):
            return
        other_needle = a.needle(1 - a.to_move)
        legal = [act for act in legal if not touches(act, {other_needle})] or legal  # longer games
        # Prefer steals by the hidden owner's side so the twins exercise them.
        steals = [act for act in legal if type(act) is actions.Steal]
        action = steals[0] if steals and a.to_move != watcher and rng.random() < 0.7 else rng.choice(legal)
        a.apply(action)
        b.apply(action)
        yield a, b


@pytest.mark.parametrize("seed", range(40))
@pytest.mark.parametrize("hidden_owner", [1, 0])
def test_twins_look_identical_to_the_other_player_and_the_spectator(seed: int, hidden_owner: int) -> None:
    watcher = 1 - hidden_owner
    steps = 0
    for a, b in play_twins(seed, hidden_owner, watcher):
        for perspective in (watcher, "spectator"):
            assert a.view(perspective) == b.view(perspective), (seed, steps, perspective)
            assert json.dumps(a.view(perspective)) == json.dumps(b.view(perspective))
        assert a.view("teacher") != b.view("teacher")
        assert a.view(hidden_owner) != b.view(hidden_owner) or a.phase == "over"
        steps += 1
    assert steps >= 3


@pytest.mark.parametrize("hidden_owner", [1, 0])
def test_twin_scripts_are_long_and_steal(hidden_owner: int) -> None:
    stolen = steps = 0
    for seed in range(40):
        *_, (a, _) = play_twins(seed, hidden_owner, watcher=1 - hidden_owner)
        stolen += sum(1 for e in a.history if type(e.action) is actions.Steal and e.player == hidden_owner)
        steps += len(a)
    assert steps >= 1000
    assert stolen >= 20
