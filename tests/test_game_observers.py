"""A Game changed from Python moves every open widget of it (issue 13, item 7: notebook 01's
first widget went stale): `Game.observe` tells the widgets after each applied action, a
refused one tells nobody, and a widget's own moves are not handled twice.
"""

from __future__ import annotations

import asyncio
import copy
import gc
import pickle

import pytest
from test_widget import send, state, until

from needle_widget import Game, IllegalAction, NeedleWidget, actions, bots, examples, play_game
from needle_widget.engine.errors import ArgumentError


def picked(seed: int = 7) -> Game:
    """A game after both needle picks (Player 1 draws next)."""
    game = Game(seed=seed)
    game.apply(actions.ChooseNeedle("7h"))
    game.apply(actions.ChooseNeedle("QS"))
    return game


def own_needle(game: Game) -> actions.ChooseNeedle:
    """A needle pick for the player to move that is not in their hand."""
    return next(a for a in game.legal_actions() if isinstance(a, actions.ChooseNeedle))


# ---- the engine's hook --------------------------------------------------------------------


def test_observers_hear_each_applied_action_and_stop_when_asked() -> None:
    game = Game(seed=7)
    heard: list[tuple[Game, int]] = []
    stop = game.observe(lambda g: heard.append((g, len(g))))
    game.apply(actions.ChooseNeedle("7h"))
    game.apply(actions.ChooseNeedle("QS"))
    assert heard == [(game, 1), (game, 2)]
    stop()
    game.apply(actions.DrawPile())
    assert len(heard) == 2
    stop()  # stopping twice is harmless


def test_a_refused_action_changes_nothing_and_tells_nobody() -> None:
    game = picked()
    heard: list[int] = []
    game.observe(lambda g: heard.append(len(g)))
    before = game.snapshot()
    with pytest.raises(IllegalAction, match="Discard 7♥ not allowed"):
        game.apply(actions.Discard("7h"))
    assert heard == [] and game.snapshot() == before


def test_apply_recorded_and_a_change_of_names_tell_the_observers() -> None:
    record = play_game(bots.GreedyBot(), bots.GreedyBot(), seed=4)
    game = Game(seed=4)
    heard: list[int] = []
    game.observe(lambda g: heard.append(len(g)))
    for event in record.history[:6]:
        stolen = event.cards[0] if isinstance(event.action, actions.Steal) else None
        game.apply_recorded(event.action, stolen=stolen, reshuffle=event.reshuffles[0] if event.reshuffles else None)
    assert heard == [1, 2, 3, 4, 5, 6]
    game.players = ("ann", "bob")
    game.players = ("ann", "bob")  # the same names: nothing changed
    assert heard == [1, 2, 3, 4, 5, 6, 6] and game.players == ("ann", "bob")


def test_bound_methods_are_held_weakly_and_copies_have_no_observers() -> None:
    class Listener:
        def __init__(self) -> None:
            self.heard = 0

        def hear(self, _game: Game) -> None:
            self.heard += 1

    game = Game(seed=7)
    kept, dropped = Listener(), Listener()
    game.observe(kept.hear)
    game.observe(dropped.hear)
    del dropped
    gc.collect()
    game.apply(actions.ChooseNeedle("7h"))
    assert kept.heard == 1
    twin = game.copy()
    twin.apply(actions.ChooseNeedle("QS"))
    assert kept.heard == 1, "a copy does not tell the original's observers"
    for other in (pickle.loads(pickle.dumps(game)), copy.deepcopy(game)):
        assert other.snapshot() == game.snapshot()
        other.apply(actions.ChooseNeedle("QS"))
    assert kept.heard == 1


def test_every_field_of_a_game_is_copied_and_pickled() -> None:
    """`_STATE` (what `__getstate__` names and `_clone` sets: the compiled build has no `__dict__` to copy) is every
    field a game has, in the order a new game sets them; a copy and a pickle hold each one.
    """
    from needle_widget.engine.game import _STATE

    game = play_game(bots.GreedyBot(), bots.RandomBot(seed=3), seed=4)
    if hasattr(game, "__dict__"):  # the pure build: a field added to __init__ but not to _STATE would be lost
        assert tuple(vars(Game(seed=1))) == _STATE
        assert tuple(vars(game.copy())) == _STATE
    for other in (game.copy(), pickle.loads(pickle.dumps(game))):
        for name in _STATE:
            theirs, ours = getattr(other, name), getattr(game, name)
            if name == "_rng":  # made from `_start` on the next draw: the generators' states are the same
                assert other._generator().getstate() == game._generator().getstate()
            elif name == "_start":
                assert theirs.make().getstate() == ours.make().getstate()
            elif name != "_observers":
                assert theirs == ours, name


class LabelledGame(Game):
    """A game subclass with a field of its own (the compiled Game allows interpreted subclasses)."""

    def __init__(self, *args: object, label: str = "", **kwargs: object) -> None:
        super().__init__(*args, **kwargs)  # type: ignore[arg-type]
        self.label = label


def test_a_subclass_s_own_fields_survive_a_deep_copy_and_a_pickle() -> None:
    game = LabelledGame(seed=4, label="Tuesday")
    game.apply(game.legal_actions()[0])
    for other in (copy.deepcopy(game), pickle.loads(pickle.dumps(game))):
        assert type(other) is LabelledGame and other.label == "Tuesday"
        assert other.snapshot() == game.snapshot()


def test_observe_needs_a_callable() -> None:
    with pytest.raises(ArgumentError, match="observe needs a callable, not 3"):
        Game(seed=1).observe(3)  # type: ignore[arg-type]


# ---- the widgets follow ---------------------------------------------------------------------


def test_apply_on_a_displayed_game_moves_the_widget_to_the_new_last_step() -> None:
    """Notebook 01: a cell shows the widget, the next cell plays on the same game."""
    game = Game(seed=7)
    widget = NeedleWidget(game=game, perspective=0)
    assert (widget.step, widget.steps, widget.table["phase"]) == (0, 0, "needle")
    game.apply(actions.ChooseNeedle("7h"))
    game.apply(actions.ChooseNeedle("QS"))
    game.apply(actions.DrawPile())
    assert (widget.step, widget.steps) == (3, 3)
    assert widget.table["phase"] == "sets" and widget.table["turn"] == 1
    assert widget.table == NeedleWidget(game=game, perspective=0).table
    assert [e["step"] for e in widget.events] == [1, 2, 3]
    shown = {c for c in widget.table["players"][0]["hand"]}
    assert shown == {c.code for c in game.hand(0)}, "the hand shown is the hand Python sees"
    lay = [a for a in widget.table["legal_actions"] if a["type"] == "lay_set"]
    assert all(set(a["cards"]) <= shown for a in lay)
    assert widget.can_act


def test_a_widget_browsing_back_stays_at_its_step() -> None:
    game = picked()
    widget = NeedleWidget(game=game, perspective="teacher")
    widget.step = 1
    game.apply(actions.DrawPile())
    assert (widget.step, widget.steps) == (1, 3)
    assert widget.act_reason == "Go to the latest step (3) to play"
    widget.step = 3
    game.apply(actions.EndSets())
    assert (widget.step, widget.steps) == (4, 4) and widget.table["phase"] == "discard"


def test_two_widgets_of_one_game_both_follow() -> None:
    game = Game(seed=7)
    first, second = NeedleWidget(game=game, perspective=0), NeedleWidget(game=game, perspective="teacher")
    game.apply(actions.ChooseNeedle("7h"))
    game.apply(actions.ChooseNeedle("QS"))
    assert (first.step, second.step) == (2, 2) and first.table["phase"] == second.table["phase"] == "draw"
    first.apply(actions.DrawPile())  # a move made through one widget reaches the other
    assert (first.step, second.step) == (3, 3)
    send(second, kind="act", action={"type": "end_sets"})
    assert second.error is None and (first.step, second.step) == (4, 4)
    assert first.table["phase"] == "discard"


def test_a_closed_widget_stops_observing() -> None:
    game = Game(seed=7)
    closed, open_ = NeedleWidget(game=game, perspective=0), NeedleWidget(game=game, perspective=0)
    heard: list[int] = []
    game.observe(lambda g: heard.append(len(g)))
    closed.close()
    game.apply(actions.ChooseNeedle("7h"))
    assert closed.steps == 0 and open_.steps == 1 and heard == [1]
    del closed
    gc.collect()
    game.apply(actions.ChooseNeedle("QS"))
    assert open_.steps == 2 and heard == [1, 2]


def test_a_refused_action_leaves_every_widget_as_it_was() -> None:
    game = picked()
    widget = NeedleWidget(game=game, perspective=0)
    before = widget.get_state()
    with pytest.raises(IllegalAction):
        game.apply(actions.Discard("7h"))
    assert widget.get_state() == before


def test_a_bot_answers_a_python_move_on_the_game_as_it_answers_the_widget_s() -> None:
    by_game = NeedleWidget.play(opponent=bots.GreedyBot(), seed=3)
    by_widget = NeedleWidget.play(opponent=bots.GreedyBot(), seed=3)
    move = own_needle(by_game.game)
    by_game.game.apply(move)
    by_widget.apply(move)
    for widget in (by_game, by_widget):
        assert widget.step == widget.steps == 2, "the bot picked its needle at once"
        assert widget.game.needle(1) is not None and widget.table["phase"] == "draw"
    assert state(by_game) == state(by_widget)
    assert by_game.game.snapshot() == by_widget.game.snapshot()
    # and on through a whole turn of each side
    for _ in range(12):
        game = by_game.game
        if game.is_over:
            break
        mine = bots.GreedyBot().choose(game.player_view(0), game.legal_actions())
        game.apply(mine)
        by_widget.apply(mine)
        assert by_game.game.to_move == 0 or by_game.game.is_over, "the bot answered at once"
    assert state(by_game) == state(by_widget)


def test_a_move_made_through_the_widget_is_handled_once() -> None:
    widget = NeedleWidget.play(opponent=bots.GreedyBot(), seed=3)
    game = widget.game
    heard: list[int] = []
    game.observe(lambda g: heard.append(len(g)))
    widget.apply(own_needle(game))
    assert heard == [1, 2], "one notice per action: the pick, then the bot's"
    widget.apply(actions.DrawPile())
    widget.apply(actions.EndSets())
    assert heard == [1, 2, 3, 4] and widget.steps == 4


def test_hotseat_covers_the_table_after_a_python_move() -> None:
    game = Game(seed=7)
    widget = NeedleWidget.hotseat(game=game)
    send(widget, kind="reveal")
    assert widget.cover is None and widget.perspective == 0
    game.apply(own_needle(game))
    assert widget.cover == {"player": 1, "text": "Pass to Player 2"} and widget.perspective == "spectator"


def test_a_change_of_names_reaches_the_widget() -> None:
    game = Game(seed=7)
    widget = NeedleWidget(game=game, perspective="teacher")
    game.players = ("ann", "bob")
    assert widget.seats == ["ann", "bob"]


def test_a_branch_s_game_is_followed_and_the_home_game_after_back() -> None:
    widget = NeedleWidget.from_replay(examples.load("found_early"), perspective="teacher", step=3)
    widget.branch(seat=0, opponent="hotseat", world="real")
    branch = widget.game
    assert widget.steps == 3
    branch.apply(branch.legal_actions()[0])
    assert (widget.step, widget.steps) == (4, 4)
    widget.back()
    assert widget.mode == "replay" and widget.step == 3

    live = Game(seed=7)
    widget = NeedleWidget(game=live, perspective="teacher")
    while not live.is_over:
        live.apply(bots.GreedyBot().choose(live.player_view(live.to_move), live.legal_actions()))
    assert live.is_over and widget.step == widget.steps == len(live)
    widget.step = 2
    widget.branch(seat=0, opponent="hotseat", world="real")
    branch = widget.game
    branch.apply(branch.legal_actions()[0])
    assert widget.mode == "hotseat" and widget.steps == 3
    widget.back()
    assert widget.game is live and (widget.step, widget.steps) == (2, len(live))


def test_in_the_kernel_s_loop_a_python_move_is_answered_at_once_and_a_browser_s_after_the_delay() -> None:
    def discard(game: Game) -> actions.Discard:
        return next(a for a in game.legal_actions() if a.card != game.needle(1))

    async def main() -> tuple[NeedleWidget, list[int]]:
        widget = NeedleWidget.play(opponent=bots.GreedyBot(), seed=3, bot_delay=0.05)
        game = widget.game
        game.apply(own_needle(game))
        seen = [widget.steps]
        send(widget, kind="act", action={"type": "draw_pile"})
        game.apply(actions.EndSets())
        game.apply(discard(game))  # Python ends the turn: the bot answers at once
        seen.append(int(game.to_move == 0 or game.is_over))
        if not game.is_over:
            send(widget, kind="act", action={"type": "draw_pile"})
            game.apply(actions.EndSets())
            send(widget, kind="act", action={"type": "discard", "card": discard(game).card.code})
            seen.append(game.to_move)  # the browser ended the turn: the bot waits for its delay
            await until(lambda: game.to_move == 0 or game.is_over)
        return widget, seen

    widget, seen = asyncio.run(main())
    assert seen[:2] == [2, 1], "the bot answered Python's moves at once"
    assert seen[2:] in ([], [1]), "and the browser's after its delay"
    assert widget.step == widget.steps == len(widget.game) and widget.error is None


def test_a_move_from_one_widget_does_not_compute_another_widget_s_panels_in_its_request(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 20: widget B's open graph was computed inside widget A's "act" request (seconds per
    move on a long game). In the kernel's loop, B's panels are scheduled as after a step; they
    still fill in once the request is answered.
    """
    from needle_widget.screen import whatif

    computed: list[int] = []
    real_point = whatif.graph_point

    def counting(*args, **kwargs):  # noqa: ANN002, ANN003, ANN202
        computed.append(kwargs["step"])
        return real_point(*args, **kwargs)

    monkeypatch.setattr(whatif, "graph_point", counting)

    async def main() -> tuple[list[int], NeedleWidget]:
        game = picked()
        a = NeedleWidget(game=game, perspective="teacher")
        b = NeedleWidget(game=game, perspective="teacher")
        b.show_graph(seat=0, model="greedy")  # from Python: every step at once
        assert b.graph["done"] == b.graph["total"] == 3
        computed.clear()
        send(a, kind="act", action={"type": "draw_pile"})
        during = list(computed)
        await until(lambda: b.graph["steps"] == 3 and b.graph["done"] == b.graph["total"])
        return during, b

    during, b = asyncio.run(main())
    assert during == [], "A's request computed none of B's graph"
    assert b.error is None and sorted(p["step"] for p in b.graph["points"]) == [0, 1, 2, 3]
