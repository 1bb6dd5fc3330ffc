"""A new game after the round (issue 13, item 7): {kind: "new_game"} and `w.new_game(seed=None)`
deal again with the same rules, mode, screen and bots, from a recorded seed; the seed never
reaches a player's or the spectator's screen. Issue 20: a new deal comes from fresh entropy
(`secrets`), never from an earlier seed (a screen that once saw a seed knew every later deal),
and {kind: "new_game", deal: "same"} / `w.new_game(same_deal=True)` deal the round again.
"""

from __future__ import annotations

import json
import random
import secrets
import types
from typing import Any

import pytest
from test_secrecy import twin_decks
from test_widget import send, state

from needle_widget import Game, NeedleWidget, Rules, actions, bots, examples
from needle_widget.engine.errors import ArgumentError
from needle_widget.screen.session import Session
from needle_widget.screen.synced import Synced

NOT_OVER = "Cannot start a new game: a new game starts once the round is over"
DEALS = ["new", "same"]


@pytest.fixture(autouse=True)
def entropy(monkeypatch: pytest.MonkeyPatch, request: pytest.FixtureRequest) -> random.Random:
    """The desk's fresh entropy, made repeatable per test (a test of the real thing patches it again)."""
    from needle_widget.screen import desk

    source = random.Random(request.node.name)
    monkeypatch.setattr(desk, "secrets", types.SimpleNamespace(randbits=source.getrandbits))
    return source


def finish(widget: NeedleWidget) -> None:
    """Play the widget's round to its end from Python (GreedyBot's moves for whoever is to move)."""
    game = widget.game
    while not game.is_over:
        widget.apply(bots.GreedyBot().choose(game.player_view(game.to_move), game.legal_actions()))


def test_play_mode_deals_again_with_the_same_rules_seats_and_bot() -> None:
    rules = Rules(max_turns=30, needle_bonus=3)
    widget = NeedleWidget.play(opponent=bots.GreedyBot(), rules=rules, seed=3)
    old = widget.game
    assert widget.offers["new_game"] == {"reason": "A new game starts once the round is over", "deals": DEALS}
    finish(widget)
    assert widget.offers["new_game"] == {"reason": None, "deals": DEALS}
    widget.perspective = "teacher"  # the review after the round opens every perspective
    send(widget, kind="new_game", id=5)
    assert widget.answer == {"id": 5, "ok": True, "error": None} and widget.error is None
    new = widget.game
    assert new is not old and old.is_over and new.rules == rules and len(new) == 0
    assert widget.deals == (3, new.seed) and new.seed != 3
    assert (widget.mode, widget.screen, widget.seats) == ("play", 0, ["You", "greedy"])
    assert (widget.step, widget.steps, widget.perspective, widget.perspectives) == (0, 0, 0, [0, "spectator"])
    assert widget.table["phase"] == "needle" and widget.events == [] and widget.can_act
    assert widget.offers["new_game"] == {"reason": "A new game starts once the round is over", "deals": DEALS}
    assert widget.replay.seed == new.seed and len(widget.replay) == 0
    widget.apply(next(a for a in new.legal_actions()))
    assert widget.steps == 2 and new.needle(1) is not None, "the same bot answers in the new game"
    new.apply(actions.DrawPile())  # the widget observes the new game, not the old one
    assert widget.step == widget.steps == 3


def test_the_next_deals_come_from_fresh_entropy_and_are_recorded(monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 20: the next deals used to be drawn from a generator seeded by the first seed, so a
    screen that once read a seed knew every later deal. Now each is `secrets.randbits(63)`.
    """
    from needle_widget.screen import desk

    drawn: list[int] = []

    def randbits(k: int) -> int:
        drawn.append(secrets.randbits(k))
        return drawn[-1]

    monkeypatch.setattr(desk, "secrets", types.SimpleNamespace(randbits=randbits))

    def deals(seed: int) -> tuple[int, ...]:
        widget = NeedleWidget.play(opponent=bots.GreedyBot(), seed=seed)
        for _ in range(3):
            finish(widget)
            widget.new_game()
        return widget.deals

    first, again = deals(11), deals(11)
    assert first[0] == again[0] == 11 and len(set(first)) == 4
    assert list(first[1:] + again[1:]) == drawn, "every new deal is a fresh draw, recorded in deals"
    assert not set(first[1:]) & set(again[1:]), "the same first game no longer gives the same next deals"


def test_the_same_deal_again_from_python_and_the_browser() -> None:
    widget = NeedleWidget.play(opponent=bots.GreedyBot(), seed=3)
    first = widget.game
    finish(widget)
    widget.new_game(same_deal=True)
    again = widget.game
    assert again is not first and again.deck == first.deck and again.seed == 3 and len(again) == 0
    assert widget.deals == (3, 3)
    finish(widget)
    assert again.replay().to_dict()["actions"] == first.replay().to_dict()["actions"], \
        "the same moves draw the same cards: GreedyBot against GreedyBot plays the round again"
    send(widget, kind="new_game", deal="same", id=7)
    assert widget.answer == {"id": 7, "ok": True, "error": None} and widget.game.deck == first.deck
    finish(widget)
    send(widget, kind="new_game", deal="new", id=8)
    assert widget.answer["ok"] and widget.game.deck != first.deck and len(widget.deals) == 4
    finish(widget)
    with pytest.raises(ArgumentError, match="give seed= or same_deal=True, not both"):
        widget.new_game(seed=4, same_deal=True)
    send(widget, kind="new_game", deal="yesterday's", id=9)
    assert widget.answer == {"id": 9, "ok": False, "error": "Cannot deal \"yesterday's\": choose 'new' or 'same'"}
    assert len(widget.deals) == 4


def test_the_same_deal_of_a_deck_given_keeps_the_deck() -> None:
    a, b = twins_over(3, 0)
    assert b.deck != Game(seed=3).deck
    widget = NeedleWidget(game=b, perspective="teacher")
    widget.new_game(same_deal=True)
    assert widget.game.deck == b.deck and widget.game.deck != Game(seed=3).deck and widget.game.seed == 3


def test_python_may_choose_the_seed() -> None:
    widget = NeedleWidget.play(opponent=bots.GreedyBot(), seed=3)
    finish(widget)
    widget.new_game(seed=2026)
    assert widget.game.seed == 2026 and widget.deals == (3, 2026)
    assert widget.game.deck == Game(seed=2026).deck


@pytest.mark.parametrize("seed", [-1, "7", 1.5, True])
def test_a_bad_seed_is_refused_and_changes_nothing(seed: Any) -> None:
    widget = NeedleWidget.play(opponent=bots.GreedyBot(), seed=3)
    finish(widget)
    before, game = state(widget), widget.game
    with pytest.raises(ArgumentError, match="seed must be a non-negative integer, not"):
        widget.new_game(seed=seed)
    assert widget.game is game and state(widget) == before and widget.deals == (3,)


def test_refused_before_the_round_is_over_and_nothing_changes() -> None:
    widget = NeedleWidget.play(opponent=bots.GreedyBot(), seed=3)
    widget.apply(next(a for a in widget.game.legal_actions()))
    before, game = state(widget), widget.game
    with pytest.raises(ArgumentError, match=NOT_OVER):
        widget.new_game()
    send(widget, kind="new_game", id=1)
    assert widget.answer == {"id": 1, "ok": False, "error": NOT_OVER}
    assert widget.game is game and widget.deals == (3,)
    after = state(widget)
    for key in ("error", "answer"):
        after.pop(key), before.pop(key)
    assert after == before


@pytest.mark.parametrize("kind", ["replay", "quiz"])
def test_refused_in_replay_and_quiz_modes(kind: str) -> None:
    replay = examples.load("detective")
    widget = (NeedleWidget.from_replay(replay, perspective="teacher", step=len(replay)) if kind == "replay"
              else NeedleWidget.quiz(replay, seat=0, n=20))
    reason = {"replay": "New game is for a live game, not a replay", "quiz": "Not during a quiz"}[kind]
    assert widget.offers["new_game"] == {"reason": reason, "deals": DEALS}
    before = state(widget)
    with pytest.raises(ArgumentError, match=f"Cannot start a new game: {reason[0].lower()}{reason[1:]}"):
        widget.new_game()
    send(widget, kind="new_game")
    assert widget.error["text"] == f"Cannot start a new game: {reason[0].lower()}{reason[1:]}"
    assert widget.deals == ()
    after = state(widget)
    after.pop("error"), before.pop("error")
    assert after == before


def test_refused_in_a_branch_until_back() -> None:
    widget = NeedleWidget(game=Game(seed=5), perspective="teacher")
    finish(widget)
    widget.step = 4
    widget.branch(seat=0, opponent="hotseat", world="real")
    assert widget.offers["new_game"] == {"reason": "This is a branch: back to the game for a new game", "deals": DEALS}
    with pytest.raises(ArgumentError, match="Cannot start a new game: this is a branch"):
        widget.new_game()
    widget.back()
    assert widget.offers["new_game"] == {"reason": None, "deals": DEALS}
    widget.new_game()
    assert widget.mode == "live" and widget.steps == 0 and widget.perspective == "teacher"


def test_hotseat_starts_covered_for_player_1() -> None:
    widget = NeedleWidget.hotseat(seed=4)
    finish(widget)
    send(widget, kind="new_game")
    assert widget.error is None and widget.cover == {"player": 0, "text": "Pass to Player 1"}
    assert widget.perspective == "spectator" and widget.seats == ["human", "human"]
    send(widget, kind="reveal")
    assert widget.perspective == 0 and widget.can_act


def test_watch_mode_deals_again_for_the_same_bots() -> None:
    widget = NeedleWidget.watch(bots.GreedyBot(), bots.RandomBot(seed=2), seed=8, autoplay=False)
    widget.advance(10_000)
    assert widget.game.is_over and widget.offers["new_game"]["reason"] is None
    widget.new_game()
    assert widget.steps == 0 and widget.seats == ["greedy", "random"]
    widget.advance(4)
    assert widget.steps == 4 and widget.step == 4


def test_a_bot_that_moves_first_answers_in_the_new_game() -> None:
    widget = NeedleWidget.play(opponent=bots.GreedyBot(), seed=3, you=1)
    finish(widget)
    widget.new_game()
    assert widget.steps == 1 and widget.game.needle(0) is not None and widget.can_act


def test_the_open_panels_stay_open_for_the_new_deal() -> None:
    widget = NeedleWidget.play(opponent=bots.GreedyBot(), seed=3)
    finish(widget)
    widget.perspective = 0
    widget.show_worlds()
    old = widget.worlds
    widget.new_game()
    assert widget.worlds is not None and widget.worlds["step"] == 0 and widget.worlds != old


def test_the_new_seed_reaches_no_player_or_spectator_screen() -> None:
    for perspective in (0, 1, "spectator"):
        widget = NeedleWidget(game=Game(seed=9), perspective=perspective, reveal_at_end=False)
        finish(widget)
        for _ in range(3):
            widget.new_game()
            assert str(widget.game.seed) not in json.dumps(state(widget))
            finish(widget)
            assert str(widget.game.seed) not in json.dumps(state(widget))


def twins_over(seed: int, hidden_owner: int) -> tuple[Game, Game]:
    """Twin games (one of `hidden_owner`'s cards swapped with the pile's bottom card) played to
    the turn limit by the same script, which never touches the swapped cards.
    """
    deck_a, deck_b, x, y = twin_decks(seed, hidden_owner)
    rules = Rules(max_turns=4)
    a, b = Game(rules=rules, seed=seed, deck=deck_a), Game(rules=rules, seed=seed, deck=deck_b)
    middle = a.draw_pile[10:12]
    script = [actions.ChooseNeedle(middle[0]), actions.ChooseNeedle(middle[1])]
    for action in script:
        a.apply(action), b.apply(action)
    while not a.is_over:
        if a.phase == "draw":
            action = actions.DrawPile()
        elif a.phase == "sets":
            action = actions.EndSets()
        else:
            action = next(actions.Discard(c) for c in a.hand(a.to_move) if c not in (x, y, *middle))
        a.apply(action), b.apply(action)
    assert b.is_over and a.result == b.result
    return a, b


@pytest.mark.parametrize("seed", [0, 3])
@pytest.mark.parametrize("hidden_owner", [0, 1])
@pytest.mark.parametrize("mode", ["live", "play", "hotseat"])
def test_twins_give_identical_synced_state_after_a_new_game(seed: int, hidden_owner: int, mode: str,
                                                            monkeypatch: pytest.MonkeyPatch) -> None:
    from needle_widget.screen import desk

    monkeypatch.setattr(desk, "secrets", types.SimpleNamespace(randbits=lambda k: 2**62 + seed))  # the same for both
    watcher = 1 - hidden_owner
    a, b = twins_over(seed, hidden_owner)
    assert a.deck != b.deck and a.seed == b.seed
    widgets = []
    for game in (a, b):
        if mode == "hotseat":
            widgets.append(NeedleWidget(game=game, mode="hotseat", reveal_at_end=False))
        else:
            widgets.append(NeedleWidget(game=game, perspective=watcher, mode=mode, reveal_at_end=False))
    first, second = widgets
    assert first.offers == second.offers and first.offers["new_game"] == {"reason": None, "deals": DEALS}
    for w in widgets:
        send(w, kind="new_game")
        assert w.error is None
    assert state(first) == state(second)
    assert first.game.deck == second.game.deck, "the next deal depends on the fresh entropy only"
    for w in widgets:
        if w.cover is not None:
            send(w, kind="reveal")
        w.apply(next(iter(w.game.legal_actions())))
    assert state(first) == state(second)
    for w in widgets:
        w.perspective = "spectator"
    assert state(first) == state(second)


def test_synced_offers_carry_the_new_game_reason_without_a_widget() -> None:
    session = Session(Game(seed=2), "teacher")
    assert Synced(session).state()["offers"]["new_game"] == {"reason": "A new game starts once the round is over",
                                                             "deals": DEALS}
