"""Quiz mode in the widget (issue 12): a seat is asked at each question's step, answers by a
request Python checks, sees the reveal, cannot change its answer; nothing of the truth (nor
anything past the question's step) is in the synced state before the answer is committed.
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from test_whatif_widget import send, synced

from needle_widget import NeedleWidget, bots, examples, worlds
from needle_widget.engine.errors import NeedleError
from needle_widget.engine.figures import brier
from needle_widget.players.sim import play_game
from needle_widget.teaching.answers import Answer, class_table, load_answers, rounded_dict
from needle_widget.teaching.quiz import AnswerLocked, QuizQuestion, QuizQuestionError, reveal

ANSWERS = {"cards": None, "probability": 0.3, "choice": "steal"}


def an_answer(widget: NeedleWidget) -> Any:
    form = widget.quiz_state["question"]["form"]
    if form["type"] == "action":
        return form["options"][-1]
    return form["candidates"][:2] if form["type"] == "cards" else ANSWERS[form["type"]]


def detective(**kwargs: Any) -> NeedleWidget:
    return NeedleWidget.quiz(examples.load("detective"), seat=0, student="ann", n=40, **kwargs)


def test_the_questions_come_from_the_notes_the_seat_may_read() -> None:
    w = detective()
    assert [(q.step, q.kind) for q in w.questions] == [
        (2, "pile_or_steal"), (10, "next_draw"), (17, "needle"), (24, "winner"), (43, "winner")]
    assert w.quiz_state["total"] == 5 and [i["step"] for i in w.quiz_state["items"]] == [2]
    assert w.mode == "quiz" and w.perspectives == [0] and w.perspective == 0
    assert (w.step, w.steps, w.spoilers) == (2, 2, False)


def test_a_whole_quiz_in_the_browser_with_the_answers_recorded_and_exported(tmp_path) -> None:
    w = detective()
    for i in range(5):
        q = w.quiz_state["question"]
        assert (q["index"], w.step, w.steps) == (i, q["step"], q["step"]) and not q["answered"]
        assert w.quiz_state["reveal"] is None and w.info == {"kind": "quiz", "text": "The odds appear once you have "
                                                                                     "answered."}
        answer = an_answer(w)
        send(w, kind="quiz_answer", index=i, answer=answer)
        assert w.error is None and w.quiz_state["question"]["answered"]
        shown = w.quiz_state["reveal"]
        assert shown["verdict"] and shown["rows"] and w.info["kind"] == "player"
        if i < 4:
            send(w, kind="quiz_go", index=i + 1)
    assert w.quiz_state["done"] and w.steps == 50 and w.step == 43
    send(w, kind="step", to=50)
    assert w.error is None and w.table["result"] is not None
    assert [a.kind for a in w.answers] == ["pile_or_steal", "next_draw", "needle", "winner", "winner"]
    assert all(a.student == "ann" and a.time and a.time.endswith("+00:00") for a in w.answers)
    for suffix in ("jsonl", "csv"):
        path = tmp_path / f"ann.{suffix}"
        w.save_answers(path)
        assert load_answers(path) == [Answer.from_dict(rounded_dict(a)) for a in w.answers]  # scores to 6 digits
    table = class_table(tmp_path)
    assert [row["student"] for row in table] == ["ann"] and table[0]["answers"] == 10


def test_the_reveal_is_quiz_reveal_in_words() -> None:
    w = detective()
    send(w, kind="quiz_answer", index=0, answer="PILE")
    truth = reveal(examples.load("detective"), QuizQuestion(2, "pile_or_steal", 0), "pile", n=40)
    better = truth["score"]["best"]
    assert w.answers[0].answer == "pile" and w.answers[0].vs_best == truth["score"]["vs_best"]
    assert w.quiz_state["reveal"]["verdict"].startswith("The better draw" if better == "pile" else "Not the better")
    assert w.quiz_state["items"][0]["verdict"] == ("better draw" if better == "pile" else "not the better draw")


@pytest.mark.parametrize("answer, message", [
    ("maybe", "is not 'pile' or 'steal'"), (None, "is not 'pile' or 'steal'"), (["pile"], "is not 'pile'"),
])
def test_a_bad_answer_is_refused_and_changes_nothing(answer: Any, message: str) -> None:
    w = detective()
    before = synced(w)
    send(w, kind="quiz_answer", index=0, answer=answer)
    assert message in w.error["text"] and len(w.error["text"]) <= 500
    assert w.answers == () and w.quiz_state == json.loads(before)["quiz_state"]


def test_answers_of_each_kind_are_checked() -> None:
    w = detective()
    w.answer_question("steal")
    w.go_to_question(1)
    for bad in (1.5, -0.1, True, "0.5", float("nan")):
        send(w, kind="quiz_answer", index=1, answer=bad)
        assert "is not a probability from 0 to 1" in w.error["text"]
    w.answer_question(0)
    w.go_to_question(2)
    candidates = w.quiz_state["question"]["form"]["candidates"]
    outside = next(c for c in ("AH", "AD", "KH", "QC") if c not in candidates)
    for bad, message in ((candidates[:4], "names 4 cards"), ([], "names 0 cards"), ([outside], "cannot be the needle"),
                         ([candidates[0], candidates[0]], "twice"), (["ZZ"], "is not a card")):
        send(w, kind="quiz_answer", index=2, answer=bad)
        assert message in w.error["text"], bad
    assert len(w.answers) == 2


def test_an_answer_is_final_once_revealed() -> None:
    w = detective()
    send(w, kind="quiz_answer", index=0, answer="pile")
    revealed = w.quiz_state["reveal"]
    send(w, kind="quiz_answer", index=0, answer="steal")
    assert "already answered ('pile'): answers are final" in w.error["text"]
    with pytest.raises(AnswerLocked):
        w.answer_question("steal", index=0)
    send(w, kind="quiz_go", index=1)
    send(w, kind="quiz_go", index=0)
    assert w.quiz_state["reveal"] == revealed and [a.answer for a in w.answers] == ["pile"]


def test_the_quiz_goes_back_to_answered_questions_and_on_to_the_first_open_one_only() -> None:
    w = detective()
    send(w, kind="quiz_go", index=1)
    assert "answer question 0 first" in w.error["text"]
    for bad in (5, -1, "1", None):
        send(w, kind="quiz_go", index=bad)
        assert "There is no question" in w.error["text"]
    w.answer_question("pile")
    w.go_to_question(1)
    send(w, kind="quiz_answer", index=0, answer="pile")
    assert "the question shown is 1" in w.error["text"]
    w.go_to_question(0)
    assert (w.step, w.steps) == (2, 10)  # what was seen stays open


def test_the_browser_steps_within_what_the_quiz_has_reached_and_sees_one_seat() -> None:
    w = detective()
    w.answer_question("pile")
    w.go_to_question(1)
    send(w, kind="step", to=0)
    assert w.error is None and w.step == 0 and w.steps == 10
    for bad in (11, 50):
        send(w, kind="step", to=bad)
        assert "the quiz shows steps 0 to 10 now" in w.error["text"] and w.step == 0
    with pytest.raises(Exception, match="out of range 0..10"):
        w.step = 11
    for to in (1, "spectator", "teacher"):
        send(w, kind="perspective", to=to)
        assert "allowed are Player 1" in w.error["text"] and w.perspective == 0
    assert w.hidden_reason == "A quiz shows one seat's view"


def test_no_panel_branch_note_edit_or_autoplay_during_a_quiz() -> None:
    w = detective()
    for request in ({"kind": "worlds", "open": True}, {"kind": "graph", "open": True},
                    {"kind": "branch", "seat": 0, "opponent": "greedy", "world": "sampled"},
                    {"kind": "note_add", "step": 0, "text": "x", "perspective": None, "question": None},
                    {"kind": "autoplay", "playing": True}, {"kind": "act", "action": {"type": "draw_pile"}}):
        before = synced(w)
        send(w, **request)
        assert w.error is not None, request
        after = json.loads(synced(w))
        after.pop("error")
        expected = json.loads(before)
        expected.pop("error")
        assert after == expected, request
    with pytest.raises(NeedleError, match="Not during a quiz"):
        w.show_worlds()
    assert all(w.offers[name]["reason"] for name in ("branch", "worlds", "graph"))
    assert not w.offers["notes"]["editable"] and not w.can_act


def test_the_odds_are_hidden_everywhere_until_the_answer() -> None:
    w = detective()
    w.answer_question("pile")
    w.go_to_question(1)
    send(w, kind="step", to=7)
    assert w.info["kind"] == "quiz" and all(near["info"]["kind"] == "quiz" for near in w.nearby.values())
    w.answer_question(0.1)
    assert w.info["kind"] == "player" and all(near["info"]["kind"] == "player" for near in w.nearby.values())


def test_quiz_requests_outside_a_quiz_and_bad_quizzes_are_refused() -> None:
    r = examples.load("detective")
    w = NeedleWidget.from_replay(r)
    send(w, kind="quiz_answer", index=0, answer="pile")
    assert "is for quiz mode; this widget is in replay mode" in w.error["text"]
    with pytest.raises(NeedleError, match="not a quiz"):
        w.answers  # noqa: B018
    with pytest.raises(QuizQuestionError, match="at least one question for Player 2"):
        NeedleWidget.quiz(r.copy(notes=()), seat=1)
    with pytest.raises(QuizQuestionError, match="the round is over then"):
        NeedleWidget.quiz(r, seat=0, questions=[(len(r), "winner")])
    with pytest.raises(NeedleError, match="quiz mode needs run="):
        NeedleWidget(replay=r, perspective=0, mode="quiz", screen=0, spoilers=False)
    with pytest.raises(NeedleError, match="seat must be 0"):
        NeedleWidget.quiz(r, seat="teacher")
    given = NeedleWidget.quiz(r, seat=1, questions=[(10, "winner"), {"step": 12, "kind": "needle", "seat": 1}], n=20)
    assert [(q.step, q.kind) for q in given.questions] == [(10, "winner"), (12, "needle")]
    with pytest.raises(QuizQuestionError, match="for the quiz's seat"):
        NeedleWidget.quiz(r, seat=1, questions=[QuizQuestion(10, "winner", 0)])


# ---- twins: quiz mode ------------------------------------------------------------------------------


def quiz_twins(seat: int, seed: int) -> tuple[Any, Any, int]:
    """A finished GreedyBot replay and a twin: the same up to step k from `seat`'s view (a possible
    world of that step, played on by GreedyBots), so the truths after k may differ.
    """
    replay = play_game(bots.GreedyBot(), bots.GreedyBot(), seed=seed).replay()
    k = len(replay) // 2
    while not _pile_or_steal(replay.game_at(k), seat):
        k += 1
    world = worlds.sample(replay.game_at(k).view(seat), 1, seed=seed)[0]
    assert world.view(seat) == replay.game_at(k).view(seat) and world.snapshot() != replay.game_at(k).snapshot()
    world.players = replay.players
    pair = (bots.GreedyBot(), bots.GreedyBot())
    while world.phase != "over":
        p = world.to_move
        world.apply(pair[p].choose(world.player_view(p), world.legal_actions()))
    return replay, world.replay(), k


def _pile_or_steal(game: Any, seat: int) -> bool:
    legal = {type(a).__name__ for a in game.legal_actions()}
    return game.phase == "draw" and game.to_move == seat and {"DrawPile", "Steal"} <= legal


@pytest.mark.parametrize("seat, seed", [(0, 2), (1, 5)])
def test_twins_give_identical_quiz_states_until_each_answer_is_committed(seat: int, seed: int) -> None:
    a, b, k = quiz_twins(seat, seed)
    revealed = []
    for kind in ("pile_or_steal", "needle", "next_draw", "winner", "your_move"):
        seen = []
        for replay in (a, b):
            w = NeedleWidget.quiz(replay, seat=seat, questions=[(k, kind)], n=20)
            states = [synced(w)]
            for to in range(k + 1):
                send(w, kind="step", to=to)
                states.append(synced(w))
            for bad in ("?", 7, ["ZZ"], 0.5 if kind == "needle" else ["AS", "AS"]):
                send(w, kind="quiz_answer", index=0, answer=bad)
                states.append(synced(w))
            send(w, kind="step", to=k + 1)
            states.append(synced(w))
            seen.append(states)
            w.answer_question(an_answer(w))
            revealed.append(w.quiz_state["reveal"])
        assert seen[0] == seen[1], kind
        assert "reveal\": null" in seen[0][-1]
    assert revealed[0::2] != revealed[1::2]  # the twins' truths differ: only the reveal tells them apart


@pytest.mark.parametrize("seat, seed", [(0, 2), (1, 5)])
def test_twins_in_a_run_of_questions_stay_identical_until_the_last_answer(seat: int, seed: int) -> None:
    """What an answered question's reveal would give away of a question still open (who won, the
    draw made in the game) waits for the end: until the last answer, twins give the same state,
    going back to answered questions and stepping included.
    """
    a, b, k = quiz_twins(seat, seed)
    questions = [(max(2, k - 6), "winner"), (k, "pile_or_steal"), (k, "winner")]
    runs, finals = [], []
    for replay in (a, b):
        w = NeedleWidget.quiz(replay, seat=seat, questions=questions, n=20)
        states = []
        for i in range(len(questions)):
            if i:
                w.go_to_question(i - 1)
                send(w, kind="step", to=0)
                states.append(synced(w))
                w.go_to_question(i)
            states.append(synced(w))
            w.answer_question(an_answer(w))
            states.append(synced(w) if i < len(questions) - 1 else "")
        runs.append(states)
        finals.append(w.quiz_state)
    assert runs[0] == runs[1]
    assert finals[0] != finals[1] and finals[0]["done"]  # the end reveals it all


def test_what_would_give_an_open_question_away_waits_for_the_end() -> None:
    w = detective()
    w.answer_question("pile")
    rows = {r["label"]: r["value"] for r in w.quiz_state["reveal"]["rows"]}
    assert rows["How it ended"] == ("Held back until you have answered every question: who won would answer "
                                    "an open question") and rows["Played in the game"] == "Steal"
    for i, answer in ((1, 0.1), (2, ["AC"]), (3, 0.4)):
        w.go_to_question(i)
        w.answer_question(answer)
    assert w.quiz_state["items"][2]["verdict"] == "hit, 2.6%"  # no needle question is left open (figures.percent)
    assert w.quiz_state["items"][3]["verdict"] == "answered"  # who won: one more winner question is open
    assert "Who won is revealed when the quiz is done" in w.quiz_state["reveal"]["verdict"]
    assert "Brier" not in json.dumps(w.quiz_state["reveal"]["rows"])
    w.go_to_question(4)
    w.answer_question(0.9)
    assert w.quiz_state["done"] and "Player 1 wins, 5-4" in w.quiz_state["reveal"]["verdict"]
    w.go_to_question(0)
    assert {r["label"]: r["value"] for r in w.quiz_state["reveal"]["rows"]}["How it ended"].endswith("5-4.")
    assert [i["verdict"] for i in w.quiz_state["items"]][3].startswith("Brier")


def test_a_second_needle_question_keeps_the_first_one_s_needle_back() -> None:
    replay = play_game(bots.GreedyBot(), bots.GreedyBot(), seed=2).replay()
    w = NeedleWidget.quiz(replay, seat=0, questions=[(10, "needle"), (14, "needle")], n=20)
    w.answer_question(an_answer(w))
    shown = w.quiz_state["reveal"]
    rows = {r["label"]: r["value"] for r in shown["rows"]}
    assert "needle is revealed when the quiz is done" in shown["verdict"] and rows["Their needle"] == (
        "Held back until you have answered every question: another needle question is still open")
    assert "The needle's odds" not in rows and w.quiz_state["items"][0]["verdict"].endswith("of the odds")
    w.go_to_question(1)
    w.answer_question(an_answer(w))
    w.go_to_question(0)
    assert "needle was" in w.quiz_state["reveal"]["verdict"]


def test_the_odds_stay_hidden_while_any_question_reached_is_open() -> None:
    """Two questions at one step, and going back: the needle odds never show before the needle answer."""
    replay = play_game(bots.GreedyBot(), bots.GreedyBot(), seed=2).replay()
    w = NeedleWidget.quiz(replay, seat=0, questions=[(12, "winner"), (12, "needle")], n=20)
    w.answer_question(0.5)
    assert w.info["kind"] == "quiz"
    w.go_to_question(1)
    w.go_to_question(0)
    for to in range(13):
        send(w, kind="step", to=to)
        assert w.info["kind"] == "quiz" and all(n["info"]["kind"] == "quiz" for n in w.nearby.values())
    w.go_to_question(1)
    w.answer_question(an_answer(w))
    assert w.info["kind"] == "player"


def test_a_deeply_nested_answer_is_refused_in_words() -> None:
    w = detective()
    w.answer_question("pile")
    w.go_to_question(1)
    w.answer_question(0.1)
    w.go_to_question(2)
    nested: list = []
    for _ in range(5000):
        nested = [nested]
    send(w, kind="quiz_answer", index=2, answer=nested)
    assert "is not a card" in w.error["text"] and "Something went wrong" not in w.error["text"]
    send(w, kind="act", action={"type": "lay_set", "cards": nested})
    assert "Something went wrong" not in w.error["text"]


def finished(game: Any) -> Any:
    """`game` played on to the end by GreedyBots, as a replay."""
    pair = (bots.GreedyBot(), bots.GreedyBot())
    while game.phase != "over":
        p = game.to_move
        game.apply(pair[p].choose(game.player_view(p), game.legal_actions()))
    return game.replay()


@pytest.mark.parametrize("watcher", [0, 1])
def test_twins_that_differ_in_a_reshuffle_s_order_give_identical_quiz_states(watcher: int) -> None:
    """After a reshuffle whose order the seat cannot see, played on to two different ends: a
    question of each kind that can be asked there gives the same state, step by step and after
    refused answers, until it is answered.
    """
    from test_secrecy_reshuffle import twins

    compared = 0
    for seed in range(40):
        last = None
        for a, b, step in twins(seed, watcher, horizon=30):
            if a.phase != "over":
                last = (a.copy(), b.copy(), step)
        if last is None:
            continue
        a, b, k = last
        replays = (finished(a), finished(b))
        for kind in ("needle", "next_draw", "winner", "pile_or_steal", "your_move"):
            try:
                widgets = [NeedleWidget.quiz(r, seat=watcher, questions=[(k, kind)], n=10) for r in replays]
            except QuizQuestionError:
                continue
            states: list[list[str]] = [[], []]
            for w, seen in zip(widgets, states, strict=True):
                for to in range(k + 2):
                    send(w, kind="step", to=to)
                    seen.append(synced(w))
                for bad in ("?", ["ZZ"], ["AS", "KS", "QS", "JS"], 2, ["2C", "2C"]):
                    send(w, kind="quiz_answer", index=0, answer=bad)
                    seen.append(synced(w))
            assert states[0] == states[1], (seed, watcher, kind)
            compared += 1
        if compared >= 6:
            break
    assert compared >= 4


def test_the_quiz_ends_with_a_summary_beside_the_models() -> None:
    """Issue 20: when the quiz ends it shows the score, the calibration and how the models did on
    the same questions; never before.
    """
    w = NeedleWidget.quiz(examples.load("detective"), seat=0, student="ann", n=40)
    answers = {"pile_or_steal": "steal", "next_draw": 0.25, "winner": 0.6}
    for i in range(len(w.questions)):
        assert w.quiz_state["summary"] is None
        question = w.quiz_state["question"]
        w.answer_question(answers.get(question["kind"]) or question["form"]["candidates"][:3])
        if i + 1 < len(w.questions):
            w.go_to_question(i + 1)
    s = w.quiz_state["summary"]
    assert s["title"] == "Quiz finished: 5 questions"
    forecasts = [a for a in w.answers if a.brier is not None]
    mean = sum(a.brier for a in forecasts) / len(forecasts)
    assert s["rows"][0] == {"label": "Forecasts: mean Brier score (3)", "you": brier(mean),
                            "free": brier(sum(a.model_brier for a in forecasts) / 3),
                            "greedy": brier(sum(a.greedy_brier for a in forecasts) / 3)}
    assert [r["label"] for r in s["rows"][1:]] == ["Needles among the three cards chosen (1)",
                                                   "The better draw, by the model-free figures (1)"]
    assert sum(b["count"] for b in s["calibration"]) == 3
    assert s["text"].startswith(f"Your forecasts scored {brier(mean)} (0 is perfect, lower is better)")
    w.go_to_question(0)
    assert w.quiz_state["summary"] == s, "the summary stays while the student looks back"
