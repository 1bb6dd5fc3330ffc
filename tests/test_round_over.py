"""A finished round stepped back (issue 29, item 6): the event list says where the round ended, so the
screen shows "Round over" at every step and invites no play (js/test/teacher.test.js shows it).
"""

from __future__ import annotations

from needle_widget import examples
from needle_widget.jupyter.widget import NeedleWidget
from needle_widget.players.bots import GreedyBot
from needle_widget.screen import display


def finished_play_widget() -> NeedleWidget:
    widget = NeedleWidget.play(seed=5, you=0)
    bot = GreedyBot()
    bot.new_game(0, 0)
    while widget.table["phase"] != "over":
        game = widget.game
        widget.apply(bot.choose(game.player_view(0), game.legal_actions()))
    return widget


def test_the_event_that_ends_the_round_says_so_at_every_step() -> None:
    widget = finished_play_widget()
    end = widget.steps
    for step in (end, end - 2, 3, 0):
        widget.go(step)
        assert widget.step == step and widget.steps == end
        assert widget.events[-1] == {**widget.events[-1], "step": end, "over": True}
        assert not any("over" in e for e in widget.events[:-1])
    assert widget.table["phase"] != "over"  # the table is the step shown's


def test_a_round_that_goes_on_has_no_end_in_its_events() -> None:
    widget = NeedleWidget.play(seed=5, you=0)
    bot = GreedyBot()
    bot.new_game(0, 0)
    for _ in range(6):
        game = widget.game
        widget.apply(bot.choose(game.player_view(0), game.legal_actions()))
    assert widget.events and not any("over" in e for e in widget.events)
    assert display.events(widget.game, 0) == widget.events


def test_spoiler_free_review_shows_no_end_before_it() -> None:
    replay = examples.load("detective")
    widget = NeedleWidget.from_replay(replay, perspective=0, spoilers=False, step=10)
    assert not any("over" in e for e in widget.events)
    widget.step = len(replay)
    assert widget.events[-1]["over"] is True
