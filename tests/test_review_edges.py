"""The review's edges (issue 29): a doubt's budget over MAX_WORLDS, judge()'s bad inputs, a policy that raises."""
from __future__ import annotations

import importlib

import pytest

from needle_widget.engine import actions as A
from needle_widget.engine.errors import BotError, NeedleError
from needle_widget.engine.game import Game
from needle_widget.inference.worlds import MAX_WORLDS
from needle_widget.players import bots

R = importlib.import_module("needle_widget.review.review")


def _decision() -> tuple[dict, A.Action]:
    game = Game(seed=3)
    view = game.view(game.to_move)
    return view, A.from_dict(view["legal_actions"][0])


def test_a_doubt_s_budget_is_capped_at_max_worlds(monkeypatch):
    asked: list[int | None] = []

    class Drawn(Exception):
        pass

    def fake(view, settings, key, n=None):
        asked.append(n)
        raise Drawn

    monkeypatch.setattr(R, "sampled", fake)
    monkeypatch.setattr(R, "_in_doubt", lambda v, thresholds=None: True)
    settings = R.Reviewer.settings_for(40_000, 1, None, None)
    view, action = _decision()
    base = R.Valuation((action,), ((0.0, 1.0),), 0, (0.0, 1.0))
    with pytest.raises(Drawn):
        R.decide(view, action, settings, "0 0", base)
    assert asked == [MAX_WORLDS]


@pytest.mark.parametrize("bad_view", [[1, 2], {}, {"perspective": "teacher"}, "view"])
def test_judge_refuses_a_view_that_is_not_a_player_s(bad_view):
    _, action = _decision()
    with pytest.raises(NeedleError, match="view must be") as info:
        R.judge(bad_view, action, 0, worlds=4)
    assert repr(bad_view)[:20] in str(info.value)


def test_judge_refuses_an_action_as_text_an_illegal_action_and_a_text_step():
    view, action = _decision()
    with pytest.raises(NeedleError, match="'draw'"):
        R.judge(view, "draw", 0, worlds=4)  # type: ignore[arg-type]
    illegal = next(a for a in (A.Steal(), A.DrawPile(), A.EndSets()) if a.to_dict() not in view["legal_actions"])
    with pytest.raises(NeedleError, match="not legal"):
        R.judge(view, illegal, 0, worlds=4)
    with pytest.raises(NeedleError, match="'x'"):
        R.judge(view, action, "x", worlds=4)  # type: ignore[arg-type]


class Broken(bots.GreedyBot):
    name = "broken"

    def choose(self, view, legal):
        raise RuntimeError("boom")

    def choose_trusted(self, view):
        raise RuntimeError("boom")


def test_a_policy_that_raises_gives_a_needle_error_naming_it_and_the_decision():
    view, action = _decision()
    with pytest.raises(BotError, match="broken") as info:
        R.judge(view, action, 0, worlds=4, policy=Broken())
    assert "0 0" in str(info.value)
    assert isinstance(info.value.__cause__, RuntimeError)


def test_a_forced_step_is_told_as_what_happened_to_the_player():
    from needle_widget.players.bots import GreedyBot
    from needle_widget.players.sim import play_game
    from needle_widget.review import review

    replay = play_game(GreedyBot(), GreedyBot(), seed=0).replay()
    told = " ".join(t.sentence() for t in review(replay, 0, worlds=4, more=0).luck)
    assert "You had no set to lay." in told and "You laid no set." not in told
    theirs = review(replay, 1, worlds=4, more=0)  # the opponent's forced steps stay as heard: no hidden hand told
    assert "Player 1 had no set" not in " ".join(t.sentence() for t in theirs.luck)


def test_a_review_seat_may_be_named_as_people_do():
    from needle_widget.players.bots import GreedyBot
    from needle_widget.players.sim import play_game
    from needle_widget.review import review

    replay = play_game(GreedyBot(), GreedyBot(), seed=0).replay()
    assert review(replay, "p2", worlds=4, more=0).seat == 1
    with pytest.raises(NeedleError, match="'p3'"):
        review(replay, "p3", worlds=4)
