"""The review panel (needle_widget/screen/reviewpanel.py) on a widget: twins in every mode, who sees
which review and when, the work done in the background and only for what may be seen, and refusals
that change nothing. Reviews are computed at a small budget (WORLDS) so the file stays quick.
"""

from __future__ import annotations

import asyncio
import functools
import json
from pathlib import Path
from typing import Any

import pytest
from test_new_game import twins_over

from needle_widget import Game, NeedleError, NeedleWidget, bots
from needle_widget.records.replay import Replay
from needle_widget.review import MORE
from needle_widget.review.review import STEP
from needle_widget.screen import reviewpanel

WORLDS = 4
DATA = Path(__file__).parent / "data"
TWIN_CASES = [(0, 1), (3, 0)]
"""(seed, hidden owner) of `twins_over`: games that differ in one of the hidden owner's cards."""


def send(widget: NeedleWidget, **request: Any) -> None:
    widget._on_message(widget, request, [])


def synced(widget: NeedleWidget) -> str:
    data = widget.get_state()
    for key in ("_esm", "_css", "_anywidget_id", "layout"):
        data.pop(key, None)
    return json.dumps(data, sort_keys=True)


def but_answers(text: str) -> dict[str, Any]:
    data = json.loads(text)
    data.pop("error"), data.pop("answer")
    return data


@functools.cache
def blundered() -> Replay:
    """RandomBot (Player 1) against GreedyBot, deal 161: at this budget Player 1's discard at step 12 is a blunder.
    (Saved: since bots are told `bot_seed`, not the deal's seed, the same bots play this deal otherwise.)
    """
    return Replay.load(DATA / "random_bot_blunders.json")


def last_move(replay: Replay, perspective: Any = 0, **options: Any) -> NeedleWidget:
    """A live widget of `replay`'s game one action before its end (play the last with `finish`)."""
    return NeedleWidget(game=replay.game_at(len(replay) - 1), perspective=perspective, **options)


def finish(widget: NeedleWidget, replay: Replay) -> None:
    widget.apply(replay.steps[-1].action)
    assert widget.game.phase == "over"


def shown(widget: NeedleWidget) -> list[int]:
    """The seats whose review the widget shows now."""
    return [r["seat"] for r in widget.review["reviews"]] if widget.review else []


@pytest.fixture
def made(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """The seats a Reviewer is made for (a review is computed only through one)."""
    seats: list[int] = []
    real = reviewpanel.Reviewer

    def recording(replay: Replay, seat: int, **kwargs: Any) -> Any:
        seats.append(seat)
        return real(replay, seat, **kwargs)

    monkeypatch.setattr(reviewpanel, "Reviewer", recording)
    return seats


# ---- twins: what a perspective cannot see changes nothing it receives, review open, at every step ----


def _widget(mode: str, game: Game, watcher: int) -> NeedleWidget:
    """A widget of the finished `game` in `mode`, showing `watcher`'s perspective where the mode lets a
    screen show a seat (hotseat's shared screen shows the spectator: nobody took the seat).
    """
    options: dict[str, Any] = {"reveal_at_end": False}
    if mode == "replay":
        return NeedleWidget.from_replay(game.replay(), perspective=watcher, **options)
    if mode == "spoiler-free":
        return NeedleWidget.from_replay(game.replay(), perspective=watcher, spoilers=False, **options)
    if mode == "quiz":
        return NeedleWidget.quiz(game.replay(), seat=watcher, questions=[(3, "winner")], n=20, **options)
    if mode == "watch":
        return NeedleWidget.watch(bots.GreedyBot(), bots.GreedyBot(), game=game.copy(), autoplay=False,
                                  perspective=watcher, **options)
    if mode == "hotseat":
        return NeedleWidget(game=game.copy(), mode="hotseat", **options)
    return NeedleWidget(game=game.copy(), perspective=watcher, mode=mode, **options)


def _walk(widget: NeedleWidget, mode: str) -> list[str]:
    """The synced state, review open, at every step from the end back to 0 and (where the browser may
    go on) forward again; a quiz is answered first.
    """
    widget.show_review(worlds=WORLDS)
    out = [synced(widget)]
    if mode == "quiz":
        widget.answer_question(0.5)
        out.append(synced(widget))
    end = widget._session.end
    widget.step = end
    for k in range(end, -1, -1):
        widget.step = k
        out.append(synced(widget))
    for k in range(1, end + 1):
        widget.step = k
        out.append(synced(widget))
    return out


@pytest.mark.parametrize("mode", ["replay", "spoiler-free", "live", "play", "watch", "hotseat", "quiz"])
@pytest.mark.parametrize("seed, hidden_owner", TWIN_CASES)
def test_twins_give_identical_synced_state_with_the_review_open_at_every_step(mode: str, seed: int,
                                                                               hidden_owner: int) -> None:
    watcher = 1 - hidden_owner
    a, b = twins_over(seed, hidden_owner)
    first, second = (_widget(mode, g, watcher) for g in (a, b))
    walked = [_walk(w, mode) for w in (first, second)]
    assert walked[0] == walked[1]
    if mode == "hotseat":
        assert shown(first) == [] and first.perspective == "spectator"
    else:  # the review was there to compare: the watcher's own, with every decision valued
        assert shown(first) == [watcher] and first.review["status"] == "ready"
        assert first.review["reviews"][0]["done"] == first.review["reviews"][0]["total"] > 0


@pytest.mark.parametrize("seed, hidden_owner", TWIN_CASES)
def test_twins_give_identical_state_to_the_spectator_and_on_the_watcher_s_screen_after_the_round(
        seed: int, hidden_owner: int) -> None:
    """A live round played to its end on the watcher's screen (reveal_at_end=False), the review open
    all along; and the spectator's perspective of the replay.
    """
    watcher = 1 - hidden_owner
    a, b = twins_over(seed, hidden_owner)
    texts = []
    for g in (a, b):
        record = g.replay()
        w = NeedleWidget(game=record.game_at(0), perspective=watcher, reveal_at_end=False)
        w.show_review(worlds=WORLDS)
        out = [synced(w)]
        for step in record.steps:
            w.apply(step.action)
            out.append(synced(w))
        assert w.game.phase == "over" and shown(w) == [watcher]
        spectator = NeedleWidget.from_replay(record, perspective="spectator", reveal_at_end=False)
        spectator.show_review(worlds=WORLDS)
        out.append(synced(spectator))
        texts.append(out)
    assert texts[0] == texts[1]


# ---- who sees what ------------------------------------------------------------------------------------


def test_a_player_sees_no_review_during_a_live_round_and_its_own_once_it_is_over(made: list[int]) -> None:
    replay = blundered()
    w = last_move(replay, perspective=0, reveal_at_end=False)
    assert w.offers["review"] == {"seats": [], "worlds": reviewpanel.DEFAULT_WORLDS,
                                  "reason": "The review opens once the round is over"}
    before = synced(w)
    send(w, kind="review", open=True, id=3)
    assert w.answer["ok"] is False
    assert w.error["text"] == "Cannot open the review: the review opens once the round is over"
    assert but_answers(synced(w)) == but_answers(before) and w.review is None
    w.show_review(worlds=WORLDS)  # Python may open it early: it stays empty, saying why
    assert w.review["status"] == "hidden" and w.review["reviews"] == [] and made == []
    finish(w, replay)
    assert shown(w) == [0] and w.review["status"] == "ready" and made == [0]
    assert w.perspectives == [0, "spectator"]
    entries = w.review["reviews"][0]["entries"]
    blunder = next(e for e in entries if e["label"] == "blunder")
    assert (blunder["step"], blunder["at"], blunder["mark"], blunder["words"]) == (12, 13, "??", "blunder")
    assert blunder["explain"].startswith("Discarding A♦ gave up") and blunder["best_text"] != "Discard A♦"
    assert blunder["best_text"].lower().replace("discard ", "discarding ") in blunder["explain"].lower()
    assert blunder["best_value"] > blunder["chosen_value"]
    assert blunder["worlds"] in range(WORLDS, (1 + MORE) * WORLDS + 1, WORLDS // STEP)


def test_a_new_round_hides_the_review_again() -> None:
    replay = blundered()
    w = last_move(replay, perspective=0)
    w.show_review(worlds=WORLDS)
    finish(w, replay)
    assert shown(w) == [0, 1]
    w.new_game()
    assert w.review["status"] == "hidden" and shown(w) == []
    assert w.review["reason"] == "The review opens once the round is over"


def test_the_opponent_s_review_only_when_everything_is_revealed_at_the_end(made: list[int]) -> None:
    replay = blundered()
    for reveal, seats in ((True, [1, 0]), (False, [1])):
        made.clear()
        w = last_move(replay, perspective=1, reveal_at_end=reveal)
        w.show_review(worlds=WORLDS)
        finish(w, replay)
        assert shown(w) == seats and made == seats, reveal
        assert w.offers["review"]["seats"] == seats
    send(w, kind="perspective", to=0)
    assert "Cannot switch to perspective 0" in w.error["text"]


def test_the_teacher_sees_both_reviews_and_a_player_s_perspective_its_own() -> None:
    w = NeedleWidget.from_replay(blundered(), perspective="teacher", reveal_at_end=False)
    w.show_review(worlds=WORLDS)
    w.close_review()
    send(w, kind="review", open=True)
    assert w.error is None and shown(w) == [0, 1] and w.review["status"] == "ready"
    w.perspective = 1
    assert shown(w) == [1]
    w.perspective = "teacher"
    assert shown(w) == [0, 1]
    live = last_move(blundered(), perspective="teacher")
    live.show_review(worlds=WORLDS)
    assert shown(live) == []
    finish(live, blundered())
    assert shown(live) == [0, 1]


def test_a_review_is_told_to_its_seat_and_about_it_to_everyone_else() -> None:
    w = NeedleWidget.from_replay(blundered(), perspective="teacher", reveal_at_end=False)
    w.show_review(worlds=WORLDS)
    teacher = {r["seat"]: r for r in w.review["reviews"]}
    w.perspective = 1
    own = w.review["reviews"][0]
    assert own["seat"] == 1 and "worlds you could not tell apart" in own["entries"][0]["explain"]
    assert "Your chances" in own["luck"][-1]["sentence"]
    about = teacher[1]
    assert "worlds Player 2 could not tell apart" in about["entries"][0]["explain"]
    assert "Player 2's chances" in about["luck"][-1]["sentence"] and "Your" not in about["luck"][-1]["sentence"]
    assert not any(k.endswith("_about") for e in about["entries"] for k in e)


def test_the_spectator_sees_the_reviews_only_when_everything_is_revealed_at_the_end(made: list[int]) -> None:
    hidden = NeedleWidget.from_replay(blundered(), perspective="spectator", reveal_at_end=False)
    hidden.show_review(worlds=WORLDS)
    assert shown(hidden) == [] and made == [] and hidden.review["status"] == "hidden"
    assert hidden.review["reason"].startswith("The reviews show the players' cards")
    send(hidden, kind="review", open=False)
    send(hidden, kind="review", open=True)
    assert hidden.error["text"].startswith("Cannot open the review: the reviews show the players' cards")
    shared = last_move(blundered(), perspective="spectator", screen="spectator")
    shared.show_review(worlds=WORLDS)
    assert shown(shared) == [] and made == []
    finish(shared, blundered())
    assert shown(shared) == [0, 1] and made == [0, 1]


def test_a_quiz_shows_no_review_before_it_is_done_and_then_only_its_seat_s(made: list[int]) -> None:
    w = NeedleWidget.quiz(blundered(), seat=0, questions=[(2, "winner"), (12, "winner")], n=20)
    send(w, kind="review", open=True)
    assert w.error["text"] == "Cannot open the review: the review opens once the quiz is done"
    w.show_review(worlds=WORLDS)
    w.answer_question(0.4)
    assert w.review["status"] == "hidden" and made == []
    assert w.offers["review"]["reason"] == "The review opens once the quiz is done"
    w.go_to_question(1)
    w.answer_question(0.3)
    assert shown(w) == [0] and w.review["status"] == "ready" and made == [0]
    w.perspective = 1  # Python shows a perspective the quiz's screen may not: no review for it
    assert shown(w) == []


def test_spoiler_free_review_shows_no_review_before_the_end(made: list[int]) -> None:
    replay = blundered()
    w = NeedleWidget.from_replay(replay, perspective=0, spoilers=False, step=20, reveal_at_end=False)
    w.show_review(worlds=WORLDS)
    assert w.review["status"] == "hidden" and made == []
    assert w.review["reason"] == "The review opens once the round is over"
    send(w, kind="step", to=21)
    assert w.review["status"] == "hidden"
    w.step = len(replay)
    assert shown(w) == [0] and made == [0]
    reviewed = w.review
    w.step = len(replay) - 1
    assert w.review["status"] == "hidden" and w.review["reviews"] == []
    assert "Discarding" not in synced(w) and "explain" not in synced(w)
    w.step = len(replay)
    assert w.review == reviewed and made == [0], "the review of the whole record is kept"


# ---- the work ---------------------------------------------------------------------------------------


def test_the_review_fills_in_on_the_worker_and_never_holds_up_a_request() -> None:
    async def run() -> tuple[dict, dict, list[int], dict]:
        w = NeedleWidget.from_replay(blundered(), perspective=0, reveal_at_end=False)
        w.review_worlds = WORLDS
        send(w, kind="review", open=True, id=1)
        first = w.review["reviews"][0]
        answered = {"answer": w.answer, "status": w.review["status"]}
        send(w, kind="step", to=13, id=2)
        answered["step"] = (w.answer, w.step)
        seen = []
        while w.review["status"] == "computing":
            seen.append(w.review["reviews"][0]["done"])
            await asyncio.sleep(0.01)
        return first, answered, seen, w.review

    first, answered, seen, review = asyncio.run(run())
    assert first["status"] == "computing" and first["done"] == 0 and first["entries"] == []
    assert answered == {"answer": {"id": 1, "ok": True, "error": None}, "status": "computing",
                        "step": ({"id": 2, "ok": True, "error": None}, 13)}
    assert seen == sorted(seen) and len(set(seen)) > 2, "the entries come one decision at a time"
    assert review["status"] == "ready" and review["reviews"][0]["done"] == review["reviews"][0]["total"]


def test_the_review_is_cached_per_record_and_budget(made: list[int]) -> None:
    w = NeedleWidget.from_replay(blundered(), perspective="teacher")
    w.show_review(worlds=WORLDS)
    w.close_review()
    assert w.review is None
    w.show_review()
    w.perspective = 0
    assert made == [0, 1] and w.review["worlds"] == WORLDS
    w.show_review(worlds=6)
    assert made == [0, 1, 0, 1] and w.review["worlds"] == 6 and w.offers["review"]["worlds"] == 6


def test_a_failing_review_says_so_and_the_widget_goes_on(monkeypatch: pytest.MonkeyPatch) -> None:
    def broken(*_args: Any, **_kwargs: Any) -> Any:
        raise RuntimeError("boom")

    monkeypatch.setattr(reviewpanel, "Reviewer", broken)
    w = NeedleWidget.from_replay(blundered(), perspective=0)
    w.show_review(worlds=WORLDS)
    assert w.review["status"] == "failed" and "went wrong (RuntimeError)" in w.review["reviews"][0]["error"]
    w.step = 3
    assert w.error is None and w.step == 3


# ---- bad requests -----------------------------------------------------------------------------------


@pytest.mark.parametrize("bad", [{"open": "yes"}, {"open": None}, {}, {"open": 1}])
def test_a_bad_review_request_is_refused_in_words_and_changes_nothing(bad: dict) -> None:
    w = NeedleWidget.from_replay(blundered(), perspective=0)
    before = synced(w)
    send(w, kind="review", id=9, **bad)
    assert w.answer["ok"] is False and w.error["text"].startswith("open must be true or false, not ")
    assert but_answers(synced(w)) == but_answers(before)


def test_python_s_bad_budget_raises_and_changes_nothing() -> None:
    w = NeedleWidget.from_replay(blundered(), perspective=0)
    w.show_review(worlds=WORLDS)
    before = synced(w)
    for worlds in (1, 0, 2.5, "many", True):
        with pytest.raises(NeedleError, match="worlds must be an integer from 2"):
            w.show_review(worlds=worlds)
        with pytest.raises(NeedleError, match="worlds must be an integer from 2"):
            w.review_worlds = worlds
        assert synced(w) == before and w.review_worlds == WORLDS


def test_a_teacher_s_thresholds_set_the_marks_and_are_said_in_the_footnote() -> None:
    from needle_widget import examples
    from needle_widget.review import review

    replay = examples.load("long_with_reshuffle")
    w = NeedleWidget.from_replay(replay, perspective="teacher")
    w.review_worlds = 8
    assert w.review_thresholds == (3, 6, 12)
    with pytest.raises(NeedleError, match="thresholds must be three numbers of points"):
        w.review_thresholds = (6, 3, 12)
    assert w.review_thresholds == (3, 6, 12)                                # a refusal changes nothing
    w.review_thresholds = (0.5, 1, 2)
    w.show_review()
    note = w.review["note"]
    assert "above 0.5, ? a mistake above 1, ?? a blunder above 2 points" in note and "the teacher's" in note
    labels = [e["label"] for e in w.review["reviews"][0]["entries"]]
    expected = [e.label for e in review(replay, 0, worlds=8, seed=reviewpanel.REVIEW_SEED, thresholds=(0.5, 1, 2))
                .entries]
    assert labels == expected
    w.review_thresholds = (3, 6, 12)
    assert "(the teacher's" not in w.review["note"] and "above 3, ? a mistake above 6" in w.review["note"]


def test_the_review_s_exercises_are_its_marked_decisions_at_the_teacher_s_setting() -> None:
    """w.exercises(): the finished reviews' mistakes and blunders (and inaccuracies with review_inaccuracies), of
    the seats the screen may see; the footnote says which.
    """
    from needle_widget.players.sim import play_game
    from needle_widget.review import exercises, review

    replay = play_game(bots.RandomBot(seed=2027), bots.GreedyBot(), seed=2027).replay()
    w = NeedleWidget.from_replay(replay, perspective="teacher")
    with pytest.raises(NeedleError, match="Open the review first"):
        w.exercises()
    w.review_worlds = 8
    w.show_review()
    assert "Exercises: the mistakes and blunders (inaccuracies not included)." in w.review["note"]
    mine = review(replay, 0, worlds=8, seed=reviewpanel.REVIEW_SEED)
    theirs = review(replay, 1, worlds=8, seed=reviewpanel.REVIEW_SEED)
    assert w.exercises() == exercises([mine, theirs]) and w.exercises()
    with pytest.raises(NeedleError, match="review_inaccuracies must be True or False"):
        w.review_inaccuracies = "yes"
    w.review_inaccuracies = True
    assert "inaccuracies (the teacher's setting)" in w.review["note"]
    assert w.exercises() == exercises([mine, theirs], marks=("mistake", "blunder", "inaccuracy"))
    player = NeedleWidget.from_replay(replay, perspective=0)
    player.review_worlds = 8
    player.show_review()
    assert {x.seat for x in player.exercises()} == {0}                     # a player's own seat only
