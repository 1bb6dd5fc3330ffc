"""Quiz mode's core: questions, secrecy of `ask`, answer checks, scoring, records, files, the class table."""

from __future__ import annotations

import json
import math

import pytest

from needle_widget import Game, actions, bots
from needle_widget.engine.errors import NeedleError
from needle_widget.inference.worlds import sample
from needle_widget.players.sim import play_game
from needle_widget.teaching import answers
from needle_widget.teaching.answers import (
    Answer,
    QuizRun,
    calibration,
    class_table,
    load_answers,
    load_folder,
    save_answers,
)
from needle_widget.teaching.quiz import (
    AnswerError,
    AnswerFileError,
    AnswerLocked,
    QuizQuestion,
    QuizQuestionError,
    ask,
    brier,
    check_answer,
    check_question,
    questions_from_notes,
    reveal,
)


def _finished(seed: int = 2):
    return play_game(bots.GreedyBot(), bots.GreedyBot(), seed=seed).replay()


@pytest.fixture(scope="module")
def replay():
    return _finished(2)


def _draw_step(replay, *, both: bool = True) -> int:
    """The first step where the player to move draws with both pile and steal legal (or only one)."""
    for k in range(len(replay)):
        g = replay.game_at(k)
        legal = g.legal_actions()
        if g.phase == "draw" and (actions.STEAL in legal) == both and actions.DRAW_PILE in legal:
            return k
    raise AssertionError("no such step")


def _early_game() -> Game:
    g = Game(seed=7)
    g.apply(actions.ChooseNeedle("7h"))
    g.apply(actions.ChooseNeedle("QS"))
    return g


# ---- questions ---------------------------------------------------------------------------


def test_question_values_and_refusals():
    q = QuizQuestion(4, "winner", 1, "Who is ahead?")
    assert q.text == "Who is ahead?" and QuizQuestion.of(q.to_dict()) == q
    assert QuizQuestion(4, "needle", 1).text == "Which card is Player 1's needle?"
    for bad in [(-1, "winner", 0), (1.0, "winner", 0), (1, "who", 0), (1, "winner", 2), (1, "winner", "0"),
                (1, "winner", True)]:
        with pytest.raises(QuizQuestionError):
            QuizQuestion(*bad)
    with pytest.raises(QuizQuestionError, match="prompt"):
        QuizQuestion(1, "winner", 0, "  ")
    with pytest.raises(QuizQuestionError, match="missing seat"):
        QuizQuestion.of({"step": 1, "kind": "winner"})
    assert isinstance(QuizQuestionError("x"), NeedleError)


def test_questions_from_notes_follow_what_the_seat_may_read(replay):
    r = replay.copy()
    r.add_note(3, "Everyone.", question="winner")
    r.add_note(5, "Player 2 only.", perspective=1, question={"kind": "needle", "prompt": "Whose?"})
    r.add_note(6, "No question.")
    assert questions_from_notes(r, 0) == [QuizQuestion(3, "winner", 0)]
    assert questions_from_notes(r, 1) == [QuizQuestion(3, "winner", 1), QuizQuestion(5, "needle", 1, "Whose?")]
    with pytest.raises(QuizQuestionError):
        questions_from_notes(r, "teacher")


def test_pile_or_steal_only_where_the_seat_draws_with_both_legal(replay):
    k = _draw_step(replay)
    seat = replay.game_at(k).to_move
    assert check_question(replay, QuizQuestion(k, "pile_or_steal", seat)).step == k
    with pytest.raises(QuizQuestionError, match="must be to draw"):
        ask(replay, QuizQuestion(k, "pile_or_steal", 1 - seat))
    with pytest.raises(QuizQuestionError, match="picking needles"):
        ask(replay, QuizQuestion(0, "pile_or_steal", 0))
    discard = next(j for j in range(len(replay)) if replay.game_at(j).phase == "discard")
    with pytest.raises(QuizQuestionError, match="discard phase"):
        ask(replay, QuizQuestion(discard, "pile_or_steal", replay.game_at(discard).to_move))
    only = _draw_step(replay, both=False)
    with pytest.raises(QuizQuestionError, match="only Draw"):
        ask(replay, QuizQuestion(only, "pile_or_steal", replay.game_at(only).to_move))


def test_questions_refused_where_they_cannot_be_asked_or_revealed(replay):
    with pytest.raises(QuizQuestionError, match="round is over"):
        ask(replay, QuizQuestion(len(replay), "winner", 0))
    with pytest.raises(QuizQuestionError, match="past the replay's end"):
        ask(replay, QuizQuestion(len(replay) + 1, "winner", 0))
    with pytest.raises(QuizQuestionError, match="has not picked a needle"):
        ask(replay, QuizQuestion(1, "needle", 0))  # Player 1 has picked, Player 2 not yet
    assert ask(replay, QuizQuestion(1, "needle", 1))["form"]["type"] == "cards"  # Player 1 picked at step 1
    with pytest.raises(QuizQuestionError, match="has not picked a needle"):
        ask(replay, QuizQuestion(0, "next_draw", 0))
    live = _early_game().replay()  # in progress at step 2
    assert ask(live, QuizQuestion(2, "winner", 0))["form"]["type"] == "probability"
    with pytest.raises(QuizQuestionError, match="who won is not recorded"):
        reveal(live, QuizQuestion(2, "winner", 0), 0.5)
    with pytest.raises(QuizQuestionError, match="before Player 1 draws"):
        check_question(live, QuizQuestion(2, "next_draw", 0))


# ---- secrecy ---------------------------------------------------------------------------------


@pytest.mark.parametrize("s", [1, 2, 3])
def test_ask_is_the_same_for_twin_games(s):
    g = Game(seed=11)
    g.players = ("greedy", "greedy")
    bot = bots.GreedyBot()
    asked_at = []
    while g.phase != "over" and len(g) < 30:
        if g.phase == "draw" and g.to_move == 0 and len(g.legal_actions()) == 2:
            asked_at.append(len(g))
        g.apply(bot.choose(g.player_view(g.to_move), g.legal_actions()))
    g2 = Game(seed=11)
    for event in g.history[: asked_at[-1]]:
        g2.apply(event.action)
    k = len(g2)
    twin = sample(g2.view(0), 1, seed=s)[0]
    assert twin.view(0) == g2.view(0) and twin.hand(1) != g2.hand(1)  # the twin differs where Player 1 cannot see
    for kind in ("needle", "next_draw", "winner", "pile_or_steal"):
        q = QuizQuestion(k, kind, 0)
        a, b = ask(g2.replay(), q), ask(twin.replay(), q)
        assert a == b, kind
        json.dumps(a)  # JSON-ready
    needle = g2.needle(1).code
    assert needle not in json.dumps(ask(g2.replay(), QuizQuestion(k, "winner", 0))["view"]["players"][1])


# ---- answers ---------------------------------------------------------------------------------


def test_answers_normalized():
    q = QuizQuestion(5, "needle", 0)
    assert check_answer(q, "qs") == ("QS",)
    assert check_answer(q, ["KD", "2c", "10h"]) == ("2C", "10H", "KD")
    assert check_answer(q, ("7h",), candidates=["7H", "QS"]) == ("7H",)
    assert check_answer(QuizQuestion(5, "winner", 0), 1) == 1.0
    assert check_answer(QuizQuestion(5, "next_draw", 0), 0.25) == 0.25
    assert check_answer(QuizQuestion(5, "pile_or_steal", 0), " Steal ") == "steal"


@pytest.mark.parametrize("kind, answer, words", [
    ("needle", [], "names 0 cards"),
    ("needle", ["AC", "2C", "3C", "4C"], "names 4 cards"),
    ("needle", ["7h", "7H"], "names 7H twice"),
    ("needle", ["7h", "ZZ"], "'ZZ' is not a card"),
    ("needle", 7, "is not a list"),
    ("needle", {"card": "7h"}, "is not a list"),
    ("winner", 1.5, "not a probability"),
    ("winner", -0.1, "not a probability"),
    ("winner", math.nan, "not a probability"),
    ("next_draw", math.inf, "not a probability"),
    ("next_draw", True, "not a probability"),
    ("next_draw", "0.5", "not a probability"),
    ("winner", None, "not a probability"),
    ("pile_or_steal", "draw", "not 'pile' or 'steal'"),
    ("pile_or_steal", 1, "not 'pile' or 'steal'"),
])
def test_bad_answers_refused_quoting_them(kind, answer, words):
    with pytest.raises(AnswerError, match=words) as info:
        check_answer(QuizQuestion(5, kind, 0), answer)
    assert repr(answer)[:20] in str(info.value) or kind == "needle" and isinstance(answer, list)


def test_needle_answer_outside_the_candidates_refused(replay):
    k = next(j for j in range(2, len(replay)) if replay.game_at(j).discard_pile)
    game = replay.game_at(k)
    q = QuizQuestion(k, "needle", 0)
    candidates = ask(replay, q)["form"]["candidates"]
    public = game.discard_pile[0].code
    assert public not in candidates and len(candidates) < 52
    with pytest.raises(AnswerError, match=f"{public} cannot be the needle"):
        check_answer(q, [public], candidates)
    with pytest.raises(AnswerError, match=f"{public} cannot be the needle"):
        reveal(replay, q, [candidates[0], public], n=10)


# ---- scoring -----------------------------------------------------------------------------------


def test_brier_by_hand():
    assert brier(0.7, 1) == pytest.approx(0.09)
    assert brier(0.7, 0) == pytest.approx(0.49)
    assert brier(1.0, 1) == 0.0


def test_winner_scored_with_brier_against_the_truth():
    r = next(r for r in map(_finished, range(1, 20)) if r.result.winner is not None)
    seat = r.result.winner
    shown = reveal(r, QuizQuestion(4, "winner", seat), 0.7, n=40)
    assert shown["truth"]["outcome"] == 1 and shown["truth"]["winner"] == seat
    assert shown["score"]["brier"] == pytest.approx(0.09)
    other = reveal(r, QuizQuestion(4, "winner", 1 - seat), 0.7, n=40)
    assert other["truth"]["outcome"] == 0 and other["score"]["brier"] == pytest.approx(0.49)
    for name in ("free", "greedy"):
        m = shown["model"][name]
        assert 0 <= m["forecast"] <= 1 and m["brier"] == pytest.approx((m["forecast"] - 1) ** 2)
    assert shown["score"]["model_brier"] == shown["model"]["free"]["brier"]


def test_needle_coverage_is_the_sum_of_the_exact_odds():
    g = _early_game()  # step 2: Player 1 holds 7 cards, 45 unseen of which 38 in the pile
    r = g.replay()
    mine = [c.code for c in g.hand(0)[:2]]
    unseen = next(c.code for c in g.hand(1) if c.code != "QS")
    chosen = [*mine, unseen]
    shown = reveal(r, QuizQuestion(2, "needle", 0), chosen, n=20)
    # each of my eligible cards 1/45, each unseen card (38/45)/45 (knowledge's two groups)
    assert shown["score"]["coverage"] == pytest.approx(2 / 45 + 38 / 45 / 45)
    assert shown["truth"]["needle"] == "QS" and shown["score"]["hit"] is False
    assert shown["score"]["best_coverage"] == pytest.approx(3 / 45)
    hit = reveal(r, QuizQuestion(2, "needle", 0), ["QS"], n=20)
    assert hit["score"]["hit"] is True and hit["score"]["coverage"] == pytest.approx(38 / 45 / 45)
    assert 0 < hit["score"]["greedy_coverage"] < 1


def test_next_draw_truth_is_the_seats_next_pile_draw(replay):
    k = _draw_step(replay)
    seat = replay.game_at(k).to_move
    shown = reveal(replay, QuizQuestion(k, "next_draw", seat), 0.1, n=40)
    truth = shown["truth"]
    j = truth["draw_step"]
    assert replay.steps[j].player == seat and type(replay.steps[j].action) is actions.DrawPile
    assert all(not (replay.steps[i].player == seat and type(replay.steps[i].action) is actions.DrawPile)
               for i in range(k, j))
    assert truth["outcome"] == int(truth["drawn"] == truth["needle"])
    assert shown["score"]["brier"] == pytest.approx((0.1 - truth["outcome"]) ** 2)
    game = replay.game_at(k)
    from needle_widget.inference.knowledge import own_needle_odds
    assert shown["model"]["free"]["forecast"] == own_needle_odds(game.player_view(seat)).next_draw


def test_next_draw_found_scores_against_one():
    # a round where a player found the needle by a pile draw: ask just before that draw
    for seed in range(1, 60):
        r = _finished(seed)
        last = r.steps[-1]
        if r.result.reason == "found" and type(last.action) is actions.DrawPile:
            break
    else:
        pytest.skip("no round ended by a pile draw")
    k = len(r) - 1
    shown = reveal(r, QuizQuestion(k, "next_draw", last.player), 0.25, n=20)
    assert shown["truth"]["outcome"] == 1 and shown["truth"]["draw_step"] == k
    assert shown["score"]["brier"] == pytest.approx(0.5625)


def test_pile_or_steal_scored_against_the_better_draw(replay):
    k = _draw_step(replay)
    seat = replay.game_at(k).to_move
    q = QuizQuestion(k, "pile_or_steal", seat)
    pile, steal = reveal(replay, q, "pile", n=60), reveal(replay, q, "steal", n=60)
    shares = pile["model"]["free"]["shares"]
    assert shares == steal["model"]["free"]["shares"]
    best = max(shares.values())
    assert pile["score"]["vs_best"] == pytest.approx(shares["pile"] - best)
    assert steal["score"]["vs_best"] == pytest.approx(shares["steal"] - best)
    assert max(pile["score"]["vs_best"], steal["score"]["vs_best"]) == 0
    assert pile["score"]["best"] == ("pile" if shares["pile"] >= shares["steal"] else "steal")
    assert pile["truth"]["played"] in ("pile", "steal")
    assert pile["model"]["free"]["difference"] == pytest.approx(shares["pile"] - shares["steal"])


def test_reveal_is_deterministic(replay):
    k = _draw_step(replay)
    seat = replay.game_at(k).to_move
    for kind, answer in (("winner", 0.3), ("pile_or_steal", "steal"), ("next_draw", 0.02), ("needle", ["AC"])):
        q = QuizQuestion(k, kind, seat)
        a = reveal(replay, q, answer, seed=5, n=30)
        assert a == reveal(replay, q, answer, seed=5, n=30)
        json.dumps(a)


# ---- records and files ---------------------------------------------------------------------


def _records(replay) -> list[Answer]:
    k = _draw_step(replay)
    seat = replay.game_at(k).to_move
    out = []
    for kind, answer in (("winner", 0.3), ("pile_or_steal", "steal"), ("next_draw", 0.02), ("needle", ["AC", "KS"])):
        shown = reveal(replay, QuizQuestion(k, kind, seat), answer, n=20)
        out.append(Answer.from_reveal(shown, student="Ann, \"the\" forecaster", replay="seed-2",
                                      time="2026-12-01T04:00:00+00:00"))
    return out


def test_records_from_reveal(replay):
    records = _records(replay)
    winner, draw, nxt, needle = records
    assert winner.brier is not None and winner.truth in (0, 1) and winner.coverage is None
    assert draw.vs_best is not None and draw.truth in ("pile", "steal") and draw.brier is None
    assert nxt.model_forecast is not None and nxt.answer == 0.02
    assert needle.answer == ("AC", "KS") and needle.hit in (True, False) and needle.to_dict()["answer"] == ["AC", "KS"]
    assert list(winner.to_dict()) == list(answers.ANSWER_FIELDS)
    with pytest.raises(AnswerError, match="student"):
        Answer("", "r", 1, "winner", 0, 0.5)
    with pytest.raises(AnswerError, match="not a probability"):
        Answer("ann", "r", 1, "winner", 0, 2)
    with pytest.raises(AnswerError, match="brier"):
        Answer("ann", "r", 1, "winner", 0, 0.5, brier=math.nan)


@pytest.mark.parametrize("suffix", [".jsonl", ".csv"])
def test_save_load_round_trip(replay, tmp_path, suffix):
    """What is loaded is what was saved, each score field rounded to 6 significant digits (issue 45: the files
    held float noise, 0.09000000000000002); saving what was loaded changes nothing more.
    """
    records = _records(replay) + [Answer("bob", "r", 3, "winner", 1, 1, truth=0, brier=1.0)]
    path = tmp_path / f"answers{suffix}"
    save_answers(records, path)
    loaded = load_answers(path)
    assert loaded == [Answer.from_dict(answers.rounded_dict(a)) for a in records]
    for was, now in zip(records, loaded, strict=True):
        assert (was.student, was.answer, was.truth, was.hit, was.time) == (now.student, now.answer, now.truth,
                                                                          now.hit, now.time)
        for name in ("brier", "model_brier", "coverage", "vs_best", "greedy_vs_best"):
            old, new = getattr(was, name), getattr(now, name)
            assert (old is None and new is None) or new == pytest.approx(old, rel=1e-5, abs=1e-12)
    save_answers(loaded, path)
    assert load_answers(path) == loaded
    save_answers([], path)
    assert load_answers(path) == []


@pytest.mark.parametrize("suffix", [".jsonl", ".csv"])
def test_saved_scores_carry_no_float_noise_and_small_differences_stay(tmp_path, suffix):
    """A Brier score of 0.7 against a loss is written 0.09, not 0.09000000000000002; a draw 0.00004 worse than the
    better one stays worse (rounding to 4 decimals would have made it the better draw); the answer is as given.
    """
    noisy = Answer("ann", "r", 3, "winner", 0, 0.7, truth=0, brier=(0.7 - 1) ** 2, model_forecast=0.1 + 0.2)
    close = Answer("ann", "r", 4, "pile_or_steal", 0, "pile", truth="steal", vs_best=-0.00004)
    exact = Answer("ann", "r", 5, "winner", 0, 0.333, truth=1, brier=(0.333 - 1) ** 2)
    path = tmp_path / f"a{suffix}"
    save_answers([noisy, close, exact], path)
    text = path.read_text(encoding="utf-8")
    assert "0.09000000000000002" not in text and "0.30000000000000004" not in text
    a, b, c = load_answers(path)
    assert (a.brier, a.model_forecast, a.answer) == (0.09, 0.3, 0.7)
    assert b.vs_best == -0.00004 and b.vs_best != 0
    assert c.brier == 0.444889 and c.answer == 0.333


def test_save_refuses_unknown_suffix_and_non_answers(tmp_path):
    with pytest.raises(AnswerFileError, match=r"\.jsonl .* or \.csv"):
        save_answers([], tmp_path / "a.txt")
    with pytest.raises(AnswerFileError, match="not an Answer"):
        save_answers([{"student": "x"}], tmp_path / "a.jsonl")


def _forecast(student: str, step: int, p: float, truth: int, model: float) -> Answer:
    return Answer(student, "r1", step, "winner", 0, p, truth=truth, brier=brier(p, truth), model_forecast=model,
                  model_brier=brier(model, truth))


def test_class_table_two_students(tmp_path):
    ann = [_forecast("ann", 3, 0.9, 1, 0.5), _forecast("ann", 5, 0.1, 1, 0.5), _forecast("ann", 7, 0.95, 0, 0.5),
           Answer("ann", "r1", 3, "needle", 0, ["AC", "2C"], truth="AC", coverage=0.1, hit=True)]
    bob = [_forecast("bob", 3, 0.5, 1, 0.5), Answer("bob", "r1", 2, "pile_or_steal", 0, "pile", truth="steal",
                                                    vs_best=-0.25)]
    save_answers(ann, tmp_path / "ann.jsonl")
    save_answers(bob, tmp_path / "bob.csv")
    (tmp_path / "readme.txt").write_text("not answers")
    assert len(load_folder(tmp_path)) == 6
    rows = class_table(tmp_path, bins=2)
    assert [row["student"] for row in rows] == ["ann", "bob"]
    a, b = rows
    assert a["answers"] == 4 and a["forecasts"] == 3
    assert a["mean_brier"] == pytest.approx((0.01 + 0.81 + 0.9025) / 3)
    assert a["model_mean_brier"] == pytest.approx(0.25)
    assert a["needles"] == 1 and a["hits"] == 1 and a["mean_coverage"] == pytest.approx(0.1)
    assert a["calibration"] == [
        {"lo": 0.0, "hi": 0.5, "count": 1, "mean_forecast": 0.1, "observed": 1.0, "interval": a["calibration"][0]
         ["interval"]},
        {"lo": 0.5, "hi": 1.0, "count": 2, "mean_forecast": pytest.approx(0.925), "observed": 0.5,
         "interval": a["calibration"][1]["interval"]},
    ]
    assert a["calibration"][1]["interval"][0] < 0.5 < a["calibration"][1]["interval"][1]
    assert b["mean_brier"] == pytest.approx(0.25) and b["draws"] == 1 and b["mean_vs_best"] == -0.25
    assert b["mean_coverage"] is None
    assert [c["count"] for c in b["calibration"]] == [0, 1]  # 0.5 falls in the upper bin
    whole = calibration(load_folder(tmp_path), bins=5)
    assert sum(c["count"] for c in whole) == 4 and whole[1]["count"] == 0 and whole[1]["observed"] is None


def test_bad_answer_files_refused_naming_file_and_row(tmp_path, monkeypatch):
    good = Answer("ann", "r", 3, "winner", 0, 0.5, truth=1, brier=0.25)
    path = tmp_path / "ann.jsonl"
    path.write_text(json.dumps(good.to_dict()) + "\n\n" + "{not json\n")
    with pytest.raises(AnswerFileError, match=r"ann\.jsonl.*row 3: invalid JSON"):
        load_answers(path)
    path.write_text(json.dumps(good.to_dict()) + "\n" + json.dumps({**good.to_dict(), "answer": 7}) + "\n")
    with pytest.raises(AnswerFileError, match=r"ann\.jsonl.*row 2: answer 7 to a winner question"):
        load_answers(path)
    path.write_text(json.dumps({**good.to_dict(), "grade": "A"}) + "\n")
    with pytest.raises(AnswerFileError, match="row 1: answer record: unknown grade"):
        load_answers(path)
    with pytest.raises(AnswerFileError, match="row 1"):
        class_table(tmp_path)
    csv_path = tmp_path / "bob.csv"
    save_answers([good, good], csv_path)
    lines = csv_path.read_text().splitlines()
    csv_path.write_text("\n".join([lines[0], lines[1], lines[2].replace(",winner,", ",cards,")]) + "\n")
    with pytest.raises(AnswerFileError, match=r"bob\.csv.*row 2: question kind 'cards'"):
        load_answers(csv_path)
    csv_path.write_text("student,replay\nann,r\n")
    with pytest.raises(AnswerFileError, match=r"bob\.csv.*header"):
        load_answers(csv_path)
    save_answers([good] * 10, csv_path)
    monkeypatch.setattr(answers, "MAX_FILE_BYTES", 100)
    with pytest.raises(AnswerFileError, match=r"bob\.csv.*too big"):
        load_answers(csv_path)
    monkeypatch.setattr(answers, "MAX_FILE_BYTES", 10**6)
    monkeypatch.setattr(answers, "MAX_ANSWERS", 5)
    with pytest.raises(AnswerFileError, match="more than 5 answers"):
        load_answers(csv_path)
    (tmp_path / "dir.csv").mkdir()
    with pytest.raises(AnswerFileError, match="not a regular file"):
        load_answers(tmp_path / "dir.csv")
    with pytest.raises(AnswerFileError, match="must end in"):
        load_answers(tmp_path / "x.json")
    with pytest.raises(AnswerFileError, match="cannot read answer folder"):
        load_folder(tmp_path / "missing")


def test_quiz_run_locks_after_the_reveal(replay, tmp_path):
    k = _draw_step(replay)
    seat = replay.game_at(k).to_move
    with pytest.raises(QuizQuestionError, match="round is over"):
        QuizRun(replay, [QuizQuestion(len(replay), "winner", 0)], student="ann", replay_name="r")
    with pytest.raises(AnswerError, match="student"):
        QuizRun(replay, [], student=" ", replay_name="r")
    run = QuizRun(replay, [QuizQuestion(k, "pile_or_steal", seat), {"step": k, "kind": "winner", "seat": seat}],
                  student="ann", replay_name="seed-2", n=20)
    assert run.ask(1)["question"]["kind"] == "winner" and run.ask(1)["answered"] is False
    with pytest.raises(AnswerError):
        run.answer(0, "draw")  # a bad answer leaves the question open
    assert run.revealed(0) is None and run.answers == ()
    shown = run.answer(0, "steal", time="t1")
    assert run.revealed(0) == shown and run.ask(0)["answered"] is True
    with pytest.raises(AnswerLocked, match="already answered"):
        run.answer(0, "pile")
    run.answer(1, 0.4)
    assert [a.kind for a in run.answers] == ["pile_or_steal", "winner"] and run.answers[0].time == "t1"
    run.save_answers(tmp_path / "ann.csv")
    assert load_answers(tmp_path / "ann.csv") == [Answer.from_dict(answers.rounded_dict(a)) for a in run.answers]
    with pytest.raises(QuizQuestionError, match="index 2"):
        run.ask(2)
