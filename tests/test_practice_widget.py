"""Practice mode in the widget (issue 31): a review's marked decisions practised from the seat, as lichess's
"Learn from your mistakes" does. The position is the exercise's (drawn from the seat's view), from that seat
only; an attempt with the normal buttons is judged, never played; "Try again", "Show the better move" and
"Next"; the deck answered and saved. Twins (an unseen card, a reshuffle's order) and games that part after the
decision give byte-identical synced state at every stage. Exercises are judged at 8 worlds so the file stays quick.
"""

from __future__ import annotations

import asyncio
import json
import time
from datetime import datetime, timedelta, timezone
from typing import Any

import pytest
from js_fixtures import practice_example
from test_secrecy import play_twins
from test_secrecy_reshuffle import twins as reshuffle_twins
from test_whatif_widget import send, synced

from needle_widget import NeedleWidget
from needle_widget.engine import actions as A
from needle_widget.engine.errors import ArgumentError, NeedleError
from needle_widget.players.bots import GreedyBot, RandomBot
from needle_widget.players.sim import play_game
from needle_widget.records.replay import Replay
from needle_widget.review.exercises import AttemptResult, Exercise, exercise_at
from needle_widget.screen import display
from needle_widget.teaching.practice import Deck

WORLDS = 8
NOW = datetime(2026, 3, 2, 9, 0, tzinfo=timezone.utc)


def but_answers(text: str) -> dict[str, Any]:
    data = json.loads(text)
    data.pop("error"), data.pop("answer")
    return data


def a_wrong_move(x: Exercise) -> A.Action:
    """A legal move the exercise does not accept (the move played, if no other)."""
    return next((a for a in x.legal if a != x.played and x.check(a).outcome is AttemptResult.TRY_AGAIN), x.played)


# ---- what the screen shows --------------------------------------------------------------------------------


def test_the_position_is_the_exercise_s_from_its_seat_only_with_its_history() -> None:
    first, second = practice_example()
    w = NeedleWidget.practice([first, second], student="ann")
    assert (w.mode, w.screen, w.perspective, w.perspectives) == ("practice", 1, 1, [1])
    assert w.seats == ["opponent", "You"]
    assert w.hidden_reason == "Practice shows one seat's view"
    assert (w.step, w.steps) == (first.step, first.step) and w.game.view(1) == first.view
    assert [e["text"] for e in w.events] == list(first.history)          # the game up to it, in the seat's words
    assert w.table["legal_actions"] == display.table(first.position(), 1)["legal_actions"]
    assert w.can_act and w.act_reason is None and w.seats == ["opponent", "You"] and w.bots == []
    state = w.practice_state
    assert state["exercise"]["prompt"] == "Step 11: you played Discard 2♠ (a mistake). Find a better move."
    assert (state["phase"], state["index"], state["total"], state["student"]) == ("asking", 0, 2, "ann")
    assert state["solution"] is None and "5♥" not in json.dumps(state)  # the better move only once solved or shown
    for name in ("worlds", "graph", "branch"):
        assert w.offers[name]["reason"] == "Not during practice: find the better move from what you could see"
    assert "review" not in w.offers and w.offers["new_game"]["reason"] == "Not during practice"
    for request, says in (({"kind": "perspective", "to": "teacher"}, "Cannot switch"),
                          ({"kind": "perspective", "to": "spectator"}, "Cannot switch"),
                          ({"kind": "worlds", "open": True}, "Not during practice"),
                          ({"kind": "review", "open": True}, "Not during practice"),
                          ({"kind": "new_game"}, "Not during practice"),
                          ({"kind": "autoplay", "playing": True}, "Autoplay is not available")):
        send(w, **request)
        assert says.lower() in w.error["text"].lower(), request
    send(w, kind="step", to=4)                      # looking back at the seat's own past is allowed
    assert w.step == 4 and not w.can_act and w.act_reason == "Go to the latest step (10) to play"
    send(w, kind="step", to=11)
    assert "out of range" in w.error["text"] or "Cannot go" in w.error["text"]
    assert w.steps == 10


def test_a_whole_practice_in_the_browser() -> None:
    first, second = practice_example()
    w = NeedleWidget.practice([first, second], student="ann")
    send(w, kind="act", action=A.parse("discard 3D").to_dict(), id=1)
    state = w.practice_state
    assert w.answer == {"id": 1, "ok": True, "error": None} and state["phase"] == "wrong"
    assert state["feedback"]["text"].startswith("Try again: discarding 3♦ gives up 16 points of win chance")
    assert (len(w.game), w.steps, w.step) == (10, 10, 10)          # judged, never played
    assert not w.can_act and w.act_reason == "Press Try again to play another move, or Show the better move"
    assert state["can"] == {"retry": True, "show": True, "next": True} and state["solution"] is None
    send(w, kind="act", action=A.parse("discard 5H").to_dict(), id=2)  # not before "Try again"
    assert w.error["text"] == ("Discard 5♥ not allowed: press Try again to play another move, or Show the better "
                               "move") and len(w.practice_results[0].attempts) == 1
    send(w, kind="practice_retry", index=0, id=3)
    assert w.practice_state["phase"] == "asking" and w.can_act and w.practice_state["feedback"] is None
    send(w, kind="act", action=A.parse("discard 5H").to_dict(), id=4)
    state = w.practice_state
    assert state["phase"] == "solved" and state["feedback"]["text"].startswith("Good: discarding 5♥ wins")
    assert [t["outcome"] for t in state["attempts"]] == ["try_again", "solved"]
    rows = state["solution"]["rows"]
    assert rows[0]["best"] and {"played", "tried"} <= {k for r in rows for k in ("played", "tried") if r[k]}
    assert state["solution"]["caption"].startswith("Each move's wins in the same worlds you could not tell apart")
    assert state["solution"]["text"] == first.solution() and state["solution"]["worlds"] == first.values_worlds == 32
    assert not w.can_act and w.act_reason == "Solved: press Next for the next exercise"
    send(w, kind="practice_show", index=0)
    assert "Cannot show the better move now: this exercise is solved" in w.error["text"]
    send(w, kind="practice_next", index=0, id=5)
    assert (w.screen, w.perspective, w.perspectives, w.step) == (0, 0, [0], second.step)
    assert w.seats == ["You", "opponent"] and w.table["players"][1]["hand"] is None
    assert w.practice_state["exercise"]["prompt"].startswith("Step 4: you played Done laying sets (a blunder)")
    send(w, kind="practice_next", index=0, id=6)       # a second click on Next never skips an exercise
    assert "Cannot go on for exercise 0: the exercise shown is 1" in w.error["text"]
    assert w.practice_state["index"] == 1
    send(w, kind="practice_show", index=1)
    state = w.practice_state
    assert state["phase"] == "shown" and state["feedback"]["text"] == second.solution()
    assert state["solution"]["rows"][0]["text"] == str(second.best) and not w.can_act
    send(w, kind="act", action=second.best.to_dict())
    assert "the better move is shown" in w.error["text"]
    send(w, kind="practice_next", index=1)
    state = w.practice_state
    assert state["phase"] == "done" and state["exercise"] is None and state["summary"]["items"][0]["due"] is None
    assert state["summary"]["text"] == ("You solved 1 of 2: 0 at the first try and 1 after trying again; the better "
                                        "move was shown for 1.")
    assert not w.can_act and w.act_reason == "The practice is finished"
    results = w.practice_results
    assert [(len(r.attempts), r.shown, r.solved, r.finished) for r in results] == [(2, False, True, True),
                                                                                 (0, True, False, True)]
    assert json.loads(json.dumps([r.to_dict() for r in results]))[0]["student"] == "ann"


def test_a_bad_or_illegal_request_is_refused_in_words_and_changes_nothing() -> None:
    first, second = practice_example()
    w = NeedleWidget.practice([first, second])
    before = but_answers(synced(w))
    for request, says in (
            ({"kind": "act", "action": {"type": "steal"}}, "Steal from opponent not allowed: it is not legal at this "
                                                            "position (legal: Discard A♠, Discard 2♠,"),
            ({"kind": "act", "action": {"type": "discard", "card": "KH"}}, "not allowed: it is not legal"),
            ({"kind": "act", "action": {"type": "discard"}}, "card"),
            ({"kind": "act", "action": "discard 5H"}, "action"),
            ({"kind": "act", "action": None}, "action"),
            ({"kind": "practice_retry", "index": 0}, "Nothing to try again: no attempt is waiting"),
            ({"kind": "practice_next", "index": 1}, "Cannot go on for exercise 1: the exercise shown is 0"),
            ({"kind": "practice_show", "index": "0"}, "Cannot show the better move for exercise '0'"),
            ({"kind": "practice_next", "index": None}, "Cannot go on for exercise None"),
            ({"kind": "quiz_answer", "index": 0, "answer": "pile"}, "The quiz_answer request is for quiz mode")):
        send(w, **request, id=9)
        assert says in w.error["text"] and w.answer["ok"] is False, request
        assert "Something went wrong" not in w.error["text"]
        assert but_answers(synced(w)) == before, request
    with pytest.raises(ArgumentError, match="judged, not played: attempt"):
        w.apply(first.best)
    with pytest.raises(ArgumentError, match="practice mode has no bots"):
        w.replace_bot(0, GreedyBot())
    assert but_answers(synced(w)) == before and w.practice_results[0].attempts == ()


def test_python_drives_a_practice_and_a_wrong_attempt_implies_try_again() -> None:
    first, second = practice_example()
    w = NeedleWidget.practice([first, second], student="bo")
    w.attempt(first.played)
    assert w.practice_state["feedback"]["outcome"] == "same" and w.practice_state["phase"] == "wrong"
    w.attempt({"type": "discard", "card": "5H"})                 # "Try again" implied from Python
    assert w.practice_state["phase"] == "solved"
    with pytest.raises(NeedleError, match="Cannot make an attempt now: solved: press Next"):
        w.attempt(first.best)
    w.next_exercise()
    with pytest.raises(NeedleError, match="not allowed: it is not legal at this position"):
        w.attempt(A.Steal())
    assert w.practice_state["phase"] == "asking"                 # the refused attempt changed nothing
    w.show_solution()
    with pytest.raises(NeedleError, match="Nothing to try again"):
        w.try_again()
    w.next_exercise()
    with pytest.raises(NeedleError, match="no next exercise"):
        w.next_exercise()
    assert [r.outcome for r in w.practice_results] == ["solved after trying again", "better move shown"]
    plain = NeedleWidget.from_replay(Replay.from_game(first.position()))
    with pytest.raises(ArgumentError, match="not practice: use NeedleWidget.practice"):
        plain.attempt(first.best)
    for bad, says in (([], "nothing to practise"), (["x"], "must be Exercises"), ("abc", "must be a list"),
                      (Deck(), "Nothing in this deck is due now")):
        with pytest.raises(ArgumentError, match=says):
            NeedleWidget.practice(bad)
    with pytest.raises(ArgumentError, match="student must be a name"):
        NeedleWidget.practice([first], student="")
    with pytest.raises(ArgumentError, match="practice mode needs practice="):
        NeedleWidget(game=first.position(), mode="practice")


# ---- the deck ---------------------------------------------------------------------------------------------


def test_the_deck_is_answered_at_each_next_and_saved_and_the_next_session_starts_with_what_is_due(tmp_path):
    first, second = practice_example()
    path = tmp_path / "ann.deck.json"
    w = NeedleWidget.practice([first, second], student="ann", deck=Deck.open(path), now=NOW)
    assert not path.exists()
    w.attempt(A.parse("discard 5H"))                             # solved at the first try: Good
    w.next_exercise()
    saved = Deck.open(path)
    assert len(saved) == 2 and saved.when(first) > NOW + timedelta(minutes=5) and saved.when(second) == NOW
    w.next_exercise()                                            # skipped: Again
    summary = w.practice_state["summary"]
    assert [i["outcome"] for i in summary["items"]] == ["solved at the first try", "skipped"]
    assert summary["items"][1]["due"] == "back in 1 minute (2026-03-02 09:01 UTC)"
    assert "saved to its file" in summary["deck"] and summary["rows"][-1] == {"label": "Skipped", "count": 1}
    deck = Deck.open(path)
    assert deck.when(second) < deck.when(first)
    later = NeedleWidget.practice(deck, student="ann", now=NOW + timedelta(minutes=2))
    assert [x.key for x in later._require_practice().run.exercises] == [second.key]   # only what is due
    assert later.practice_state["exercise"]["prompt"] == second.prompt()
    with pytest.raises(ArgumentError, match="Nothing in this deck is due now: the next exercise comes back in"):
        NeedleWidget.practice(Deck.open(path), now=NOW)
    with pytest.raises(ArgumentError, match="Give the deck once"):
        NeedleWidget.practice(deck, deck=Deck())


# ---- the worker -------------------------------------------------------------------------------------------


def test_an_attempt_from_the_browser_is_judged_on_the_worker_and_never_holds_up_a_request() -> None:
    """In a kernel (an event loop runs) the act request is answered at once with "Judging..."; the judgement
    follows from the desk's worker thread; meanwhile the other practice requests are refused in words.
    """
    first, second = practice_example()

    async def run() -> tuple[dict, dict, float, dict]:
        w = NeedleWidget.practice([first, second])
        started = time.perf_counter()
        send(w, kind="act", action=A.parse("discard 3D").to_dict(), id=1)
        judging = {"answer": w.answer, "state": w.practice_state, "can_act": w.can_act, "reason": w.act_reason}
        send(w, kind="practice_next", index=0, id=2)
        refused = {"answer": w.answer}
        while w.practice_state["phase"] == "judging":
            await asyncio.sleep(0.005)
        return judging, refused, time.perf_counter() - started, w.practice_state

    judging, refused, took, done = asyncio.run(run())
    assert judging["answer"] == {"id": 1, "ok": True, "error": None} and judging["state"]["phase"] == "judging"
    assert judging["state"]["feedback"] == {"outcome": "judging", "text": "Judging your move (Discard 3♦)…"}
    assert not judging["can_act"] and judging["reason"] == "Judging your move…"
    assert judging["state"]["can"] == {"retry": False, "show": False, "next": False}
    assert refused["answer"]["error"] == "Cannot go on now: judging your move"
    assert done["phase"] == "wrong" and done["index"] == 0 and took < 5


# ---- secrecy ----------------------------------------------------------------------------------------------


def _decisions(replay: Replay, seat: int, since: int = 0) -> list[int]:
    """The steps from `since` at which `seat` chose among two actions or more."""
    return [k for k in range(since, len(replay)) if replay.steps[k].player == seat
            and len(replay.game_at(k).legal_actions()) > 1]


def _stages(exercises: list[Exercise]) -> list[str]:
    """The synced state at every stage of a practice: the prompt, after the move played (refused as the same),
    after a wrong attempt, after "Try again", after solving, the next exercise, the better move shown, the
    summary; and after refused requests.
    """
    w = NeedleWidget.practice(exercises, student="ann")
    first, second = exercises
    out = [synced(w)]
    send(w, kind="act", action=first.played.to_dict())
    out.append(synced(w))
    send(w, kind="practice_retry", index=0)
    send(w, kind="act", action=a_wrong_move(first).to_dict())
    out.append(synced(w))
    send(w, kind="act", action={"type": "steal"})
    out.append(synced(w))
    send(w, kind="practice_retry", index=0)
    out.append(synced(w))
    send(w, kind="act", action=first.best.to_dict())
    out.append(synced(w))
    send(w, kind="practice_next", index=0)
    out.append(synced(w))
    for to in range(second.step + 1):
        send(w, kind="step", to=to)
        out.append(synced(w))
    send(w, kind="practice_show", index=1)
    out.append(synced(w))
    send(w, kind="practice_next", index=1)
    out.append(synced(w))
    return out


def _compare(a_replay: Replay, b_replay: Replay, seat: int, steps: list[int]) -> list[str]:
    xa = [exercise_at(a_replay, k, worlds=WORLDS) for k in steps]
    xb = [exercise_at(b_replay, k, worlds=WORLDS) for k in steps]
    assert [x.to_dict() for x in xa] == [x.to_dict() for x in xb]
    stages = [_stages(xa), _stages(xb)]
    assert stages[0] == stages[1]
    assert len(set(stages[0])) >= 8                     # the stages differ from each other: there was something to see
    return stages[0]


@pytest.mark.parametrize("seed, hidden_owner", [(0, 1), (2, 0)])
def test_twins_differing_in_an_unseen_card_give_identical_practice_states_at_every_stage(seed, hidden_owner):
    watcher = 1 - hidden_owner
    *_, (a, b) = play_twins(seed, hidden_owner, watcher, steps=40)
    ra, rb = a.replay(), b.replay()
    steps = _decisions(ra, watcher)[-2:]
    assert len(steps) == 2
    for k in steps:
        assert ra.game_at(k).view(watcher) == rb.game_at(k).view(watcher)
        assert ra.game_at(k).view("teacher") != rb.game_at(k).view("teacher")      # the twins really differ
    _compare(ra, rb, watcher, steps)


@pytest.mark.parametrize("seed, watcher", [(0, 0), (1, 1)])
def test_reshuffle_twins_give_identical_practice_states_at_every_stage(seed, watcher):
    """After a reshuffle whose order the watcher cannot see: its two decisions after the reshuffle practised."""
    found = None
    for s in range(seed, seed + 30):
        pairs = list(reshuffle_twins(s, watcher, horizon=40))
        if not pairs:
            continue
        a, b, _ = pairs[-1]
        ra, rb = a.replay(), b.replay()
        since = pairs[0][2] - 1
        steps = _decisions(ra, watcher, since)[-2:]
        if len(steps) == 2 and all(ra.game_at(k).view("teacher") != rb.game_at(k).view("teacher") for k in steps):
            found = (ra, rb, steps)
            break
    assert found is not None
    ra, rb, steps = found
    _compare(ra, rb, watcher, steps)


def test_no_state_holds_anything_after_the_decision() -> None:
    """Two games that part after a decision (the same moves up to it, then others) give byte-identical states
    at every stage; and no state ever holds a step past the decision.
    """
    replay = play_game(RandomBot(seed=2027), GreedyBot(), seed=2027).replay()
    steps = _decisions(replay, 0)[3:5]
    other = replay.game_at(steps[1] + 1)
    while other.phase != "over":
        other.apply(other.legal_actions()[-1])
    parted = other.replay()
    assert parted.steps[steps[1] + 2:] != replay.steps[steps[1] + 2:]
    stages = _compare(replay, parted, 0, steps)
    for text in stages:
        state = json.loads(text)
        x = steps[0] if state["practice_state"]["index"] == 0 else steps[1]
        assert state["steps"] == x and state["step"] <= x
        assert all(e["step"] <= x for e in state["events"]) and all(int(k) <= x for k in state["nearby"])
        assert state["table"]["phase"] != "over"
