"""Bots behind one guard, through the widget: a failing bot pauses the game with a message
that names no card, in every place a bot moves (a Python call, the play-mode timer,
watch autoplay, advance); Python and the browser can go on.
"""

from __future__ import annotations

import asyncio
import json
import logging
from typing import Any

import pytest
from test_secrecy import twin_decks
from test_session import PUBLIC_PAUSE, Cheat, Junk, Raising
from test_widget import send, state, until

from needle_widget import Game, NeedleWidget, actions, bots
from needle_widget.engine.cards import DECK

PAUSED_TEXT = "Raising (Player 2) raised RuntimeError; the game is paused."


def needle_for(widget: NeedleWidget, player: int) -> dict:
    card = next(c for c in DECK if c not in widget.game.hand(player))
    return {"type": "choose_needle", "card": card.code}


def test_a_bot_that_raises_after_a_browser_move_pauses_the_game(caplog: pytest.LogCaptureFixture) -> None:
    widget = NeedleWidget.play(opponent=Raising(), seed=3)
    hand = [c.code for c in widget.game.hand(1)]
    with caplog.at_level(logging.ERROR, logger="needle_widget"):
        send(widget, kind="act", action=needle_for(widget, 0))
    assert widget.paused == {"player": 1, "text": PAUSED_TEXT, "bots": ["greedy", "odds", "random", "search"]}
    assert widget.error is None and not widget.busy and not widget.can_act and widget.steps == 1
    assert widget.bot_error.public == PAUSED_TEXT and "I hold" in str(widget.bot_error.cause)
    assert all(code in caplog.text for code in hand), "the full detail is in the kernel log"
    assert not any(code in widget.paused["text"] for code in hand)


def test_a_bot_that_moves_first_and_fails_does_not_stop_the_constructor() -> None:
    widget = NeedleWidget.play(opponent=Junk(), seed=3, you=1)
    assert widget.paused["text"] == "Junk (Player 1) returned a str, not an action; the game is paused."
    assert widget.steps == 0 and widget.bot_error.problem == "not an action"


def test_the_browser_goes_on_with_a_built_in_bot() -> None:
    widget = NeedleWidget.play(opponent=Cheat(), seed=3)
    send(widget, kind="act", action=needle_for(widget, 0))
    assert widget.paused["text"] == "Cheat (Player 2) made an illegal move; the game is paused."
    send(widget, kind="resume", bot="random")
    assert widget.error is None and widget.paused is None and widget.bot_error is None
    assert widget.steps == 2 and widget.seats == ["You", "random"] and widget.can_act
    send(widget, kind="resume", bot="random")
    assert "Nothing to resume" in widget.error["text"]


def test_python_goes_on_with_replace_bot_or_take_seat() -> None:
    widget = NeedleWidget.play(opponent=Raising(), seed=3)
    widget.apply(actions.ChooseNeedle(needle_for(widget, 0)["card"]))
    assert widget.paused is not None
    widget.replace_bot(1, bots.GreedyBot())
    assert widget.paused is None and widget.steps == 2, "moves after Python calls are answered at once"
    widget.take_seat(1)
    assert widget.seats == ["You", "human"]
    send(widget, kind="act", action={"type": "draw_pile"})
    send(widget, kind="act", action={"type": "end_sets"})
    discard = next(a for a in widget.table["legal_actions"] if a["type"] == "discard")
    send(widget, kind="act", action={"type": "discard", "card": discard["card"]})
    assert widget.game.to_move == 1 and not widget.can_act and not widget.busy, "Player 2 now moves from Python"
    before = widget.steps
    widget.apply(actions.DrawPile())
    assert widget.steps == widget.step == before + 1


def test_the_play_mode_timer_pauses_instead_of_hanging() -> None:
    async def main() -> NeedleWidget:
        widget = NeedleWidget.play(opponent=Raising(), seed=3, bot_delay=0.01)
        send(widget, kind="act", action=needle_for(widget, 0))
        assert widget.busy
        await until(lambda: widget.paused is not None)
        return widget

    widget = asyncio.run(main())
    assert not widget.busy and widget.paused["text"] == PAUSED_TEXT


def test_watch_autoplay_pauses_and_a_replacement_resumes_it() -> None:
    async def main() -> NeedleWidget:
        widget = NeedleWidget.watch(bots.RandomBot(seed=1), Cheat(), seed=4, speed=20)
        await until(lambda: widget.paused is not None)
        assert not widget.playing and widget.steps == 1
        widget.replace_bot(1, bots.RandomBot(seed=2))
        assert widget.playing
        await until(lambda: widget.steps >= 4)
        widget.playing = False
        return widget

    widget = asyncio.run(main())
    assert widget.paused is None and not widget.playing


def test_advance_pauses_without_raising() -> None:
    widget = NeedleWidget.watch(bots.RandomBot(seed=1), Raising(), seed=4, autoplay=False)
    widget.advance(5)
    assert widget.steps == 1 and widget.paused["text"] == PAUSED_TEXT


def test_explanations_stay_with_the_bots_seat_and_the_teacher() -> None:
    class Talkative:
        name = "talkative"

        def choose(self, view: Any, legal: list) -> Any:
            self.last = legal[0]
            return legal[0]

        def explain(self) -> str:
            return f"I hold {view_codes(self)}"

    def view_codes(bot: Any) -> str:
        return str(bot.last)

    widget = NeedleWidget.watch(Talkative(), bots.RandomBot(seed=1), seed=4, autoplay=False, perspective=1)
    widget.advance(2)
    assert [b["player"] for b in widget.bots] == [1]
    widget.perspective = "spectator"
    assert widget.bots == []
    widget.perspective = "teacher"
    assert [b["player"] for b in widget.bots] == [0, 1]


@pytest.mark.parametrize("hidden_owner", [1, 0])
@pytest.mark.parametrize("failure", ["raises", "illegal"])
def test_twin_games_give_identical_synced_state_when_a_bot_fails(hidden_owner: int, failure: str) -> None:
    """The bot sits at `hidden_owner`; its failure names a card that differs between the twins."""
    watcher = 1 - hidden_owner
    deck_a, deck_b, x, y = twin_decks(13, hidden_owner)

    class Failing:
        name = "failing"

        def choose(self, view: Any, legal: list) -> Any:
            mine = next(c for c in view.hand if c in (x, y))
            if failure == "raises":
                raise ValueError(f"I will not give up {mine}")
            return actions.Discard(mine)

    widgets = []
    for deck in (deck_a, deck_b):
        game = Game(seed=13, deck=deck)
        widgets.append(NeedleWidget.play(opponent=Failing(), game=game, you=watcher))
    if watcher == 0:
        needle = next(c for c in deck_a[14:] if c not in (x, y))
        for w in widgets:
            send(w, kind="act", action={"type": "choose_needle", "card": needle.code})
    assert len({str(w.bot_error) for w in widgets}) == 2, "the full details differ: they name the swapped card"
    for perspective in (watcher, "spectator"):
        for w in widgets:
            send(w, kind="perspective", to=perspective)
        a, b = (json.dumps(state(w), sort_keys=True) for w in widgets)
        assert a == b, perspective
        assert PUBLIC_PAUSE.match(widgets[0].paused["text"])
