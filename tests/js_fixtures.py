"""The states the front end's tests (js/test) render, made in Python from real games and sessions.

`example_states()` are the display's tables, events and info panels at every phase and perspective
(js/test/fixtures.json); `example_whatif_states()` are whole synced states with the hypotheticals, the notes, a
quiz, the review and practice open (js/test/whatif_states.json). tests/test_display.py and tests/test_js.py fail
when either file differs from what Python makes now; rewrite both with

    python tests/js_fixtures.py
"""

from __future__ import annotations

import json
import random
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

from needle_widget.engine import actions as A
from needle_widget.engine.game import Game
from needle_widget.engine.playout import play_out
from needle_widget.engine.views import Perspective
from needle_widget.players.bots import GreedyBot, RandomBot
from needle_widget.players.search import SearchBot
from needle_widget.review.exercises import Exercise, exercise_at
from needle_widget.screen.desk import Desk
from needle_widget.screen.display import events, info, table
from needle_widget.screen.notepad import Notepad
from needle_widget.screen.panels import PANELS
from needle_widget.screen.practicemode import PracticeMode
from needle_widget.screen.quizmode import QuizMode
from needle_widget.screen.reviewpanel import ReviewPanel
from needle_widget.screen.session import Session
from needle_widget.screen.synced import Synced
from needle_widget.teaching.answers import QuizRun
from needle_widget.teaching.examples import load
from needle_widget.teaching.practice import Deck
from needle_widget.teaching.practicerun import PracticeRun
from needle_widget.teaching.quiz import questions_from_notes

JS_TEST = Path(__file__).resolve().parents[1] / "js" / "test"
FIXTURES = JS_TEST / "fixtures.json"
WHATIF_STATES = JS_TEST / "whatif_states.json"
STEP_RULES = JS_TEST / "step_rules.json"


def fixtures_text() -> str:
    """js/test/fixtures.json as Python makes it now."""
    return json.dumps(example_states(), indent=1, ensure_ascii=False) + "\n"


def step_rules_text() -> str:
    """js/test/step_rules.json as Python makes it now: a case for every branch of every step rule
    (`screen.stepping.step_cases`), which js/test/steprules.test.js runs on the front end's copy.
    """
    from needle_widget.screen.stepping import step_cases

    return json.dumps(step_cases(), indent=1, ensure_ascii=False) + "\n"


def whatif_states_text() -> str:
    """js/test/whatif_states.json as Python makes it now."""
    return json.dumps(example_whatif_states(), indent=1, ensure_ascii=False, sort_keys=True) + "\n"


def example_states() -> dict[str, dict[str, Any]]:
    """Named example states (table, events, info) for front-end tests: every phase and perspective."""
    out: dict[str, dict[str, Any]] = {}

    def add(name: str, game: Game, perspective: Perspective) -> None:
        out[name] = {
            "perspective": perspective,
            "table": table(game, perspective),
            "events": events(game, perspective),
            "info": info(game, perspective),
        }

    game = Game(seed=7)
    add("needle_p1", game, 0)
    add("needle_spectator", game, "spectator")
    add("needle_teacher", game, "teacher")
    game.apply(A.ChooseNeedle("7h"))
    add("needle_teacher_one_picked", game, "teacher")
    game.apply(A.ChooseNeedle("QS"))
    add("draw_p1", game, 0)
    add("draw_p2_waiting", game, 1)
    add("draw_teacher", game, "teacher")
    stolen = game.copy()
    game.apply(A.DrawPile())
    add("sets_p1", game, 0)
    for action in (A.Steal(), A.EndSets(), None, A.DrawPile(), A.EndSets(), None):
        stolen.apply(action or stolen.legal_actions()[0])
    add("draw_p1_no_steal", stolen, 0)
    sets_game = next(
        g for g in (Game(seed=s) for s in range(200))
        if _to_sets_with_a_set(g)
    )
    add("sets_with_set_p1", sets_game, sets_game.to_move)
    game.apply(A.EndSets())
    add("discard_p1", game, 0)
    add("discard_spectator", game, "spectator")
    finished = _finished_game()
    for p in (0, 1, "spectator", "teacher"):
        add(f"over_{p}", finished, p)
    return out


def _finished_game() -> Game:
    """A finished game that depends on the engine alone (seeded uniform choices, no bots):
    Player 1 wins, with sets on the table and a steal, over at least 20 actions.
    """
    for seed in range(1000):
        rng = random.Random(seed)
        game = Game(seed=seed)
        while game.phase != "over":
            legal = game.legal_actions()
            sets = [a for a in legal if type(a) is A.LaySet]
            game.apply(sets[0] if sets else rng.choice(legal))
        steals = sum(type(e.action) is A.Steal for e in game.history)
        result = game.result
        if result is not None and result.winner == 0 and len(game.sets(0)) >= 2 and steals and len(game) >= 20:
            return game
    raise AssertionError("no example game found")


def _to_sets_with_a_set(game: Game) -> bool:
    game.apply(game.legal_actions()[-1])  # the needle phase: the last card's ChooseNeedle
    game.apply(game.legal_actions()[-1])
    game.apply(A.DrawPile())
    return game.phase == "sets" and len(game.legal_actions()) > 1


def example_whatif_states() -> dict[str, dict[str, Any]]:
    """Named synced states with the hypotheticals open, from real sessions: the teacher's and a player's
    worlds (with a play-out) and graph on a bundled replay, the spectator's worlds, a branch, a SearchBot's
    thought, the notes, a quiz, the review and practice.
    """
    out: dict[str, dict[str, Any]] = {}
    replay = load("found_early")

    def run(desk: Desk) -> Desk:
        while (job := desk.next_job()) is not None:
            job.run()
        return desk

    for perspective in ("teacher", 0, "spectator"):
        desk = Desk(Session(replay=replay, perspective=perspective))
        desk.session.go(6)
        desk.analysis.show_worlds(perspective, True)
        desk.analysis.play_out()
        if perspective != "spectator":
            desk.analysis.show_graph(perspective, True)
        out[f"worlds_graph_{perspective}"] = Synced(run(desk)).state()
    desk = Desk(Session(replay=replay, perspective="teacher"))
    desk.session.go(4)
    desk.branch(seat=0, opponent=GreedyBot(), world="sampled", seed=1)
    desk.session.run_bots()
    out["branch_player"] = Synced(desk).state()
    watch = Session(Game(seed=5), "teacher", mode="watch", bots={0: SearchBot(seed=1, worlds=4, rollouts=16),
                                                                  1: GreedyBot()})
    watch.advance(6)
    out["search_thought_teacher"] = Synced(watch).state()
    out.update(_notes_and_quiz())
    out.update(_review())
    out.update(_practice())
    return out


def practice_example() -> list[Exercise]:
    """Two exercises on the bundled found_early replay at 8 worlds, each with a move planted as the one
    played: Player 1's discard of 2♠ at step 10 (a mistake: 3♦ is not accepted either, 5♥ is the best
    found) and Player 1's "Done laying sets" at step 3 (a blunder). For the front end's tests and the
    widget's.
    """
    replay = load("found_early")
    return [exercise_at(replay, 10, A.parse("discard 2S"), worlds=8),
            exercise_at(replay, 3, A.EndSets(), worlds=8)]


def _practice() -> dict[str, dict[str, Any]]:
    """Practice (`practice_example`, with a deck at a fixed time): the first exercise asked, after the wrong
    3♦, solved with 5♥; the second with the better move shown; and the summary once done.
    """
    run = PracticeRun(practice_example(), student="ann", deck=Deck(),
                      now=datetime(2026, 1, 5, 9, 0, tzinfo=timezone.utc))
    desk = Desk(Session(run.position(), 0, mode="practice"))
    practice = PracticeMode(desk, run)
    synced = Synced(desk, [*(cls(desk) for cls in PANELS), Notepad(desk), practice])

    def judged() -> dict[str, Any]:
        while (job := desk.next_job()) is not None:
            job.run()
        return synced.state()

    out = {"practice_asking": synced.state()}
    practice.make_attempt(A.parse("discard 3D"))
    out["practice_judging"] = synced.state()
    out["practice_wrong"] = judged()
    practice.make_attempt(A.parse("discard 5H"))
    out["practice_solved"] = judged()
    practice.next()
    practice.show()
    out["practice_shown"] = synced.state()
    practice.next()
    out["practice_done"] = synced.state()
    return out


def _review() -> dict[str, dict[str, Any]]:
    """The review open (at a small budget) on a game of RandomBot against GreedyBot with a blunder of
    Player 1's at step 13: Player 1's (its own only, the graph open with the ledger) at that step, the
    teacher's (both seats), and a live round's, hidden until the round is over.
    """
    out: dict[str, dict[str, Any]] = {}
    game, random_bot = Game(seed=161), RandomBot(seed=161)
    game.players = ("random", "greedy")
    random_bot.new_game(161, 0)  # seeded as before bots were told bot_seed: the game the JS tests step through
    play_out(game, (random_bot, GreedyBot()))
    replay = game.replay()
    desk = Desk(Session(replay=replay, perspective=0, reveal_at_end=False))
    synced = Synced(desk)
    panel = next(f for f in synced.features if isinstance(f, ReviewPanel))
    panel.show(0, worlds=4)
    desk.analysis.show_graph(0, True)
    desk.session.go(13)
    while (job := desk.next_job()) is not None:
        job.run()
    out["review_player"] = synced.state()
    desk.session.show("teacher")
    desk.analysis.show_graph("teacher", False)
    while (job := desk.next_job()) is not None:
        job.run()
    out["review_teacher"] = synced.state()
    live = Desk(Session(Game(seed=5), perspective=0))
    synced = Synced(live)
    next(f for f in synced.features if isinstance(f, ReviewPanel)).show(0, worlds=4)
    out["review_live_hidden"] = synced.state()
    return out


def _notes_and_quiz() -> dict[str, dict[str, Any]]:
    """The teacher's and Player 1's notes, and a quiz on the bundled detective replay: a question
    of each form before its answer, one revealed, and the quiz done (its summary), at its last
    question and back at its first.
    """
    out: dict[str, dict[str, Any]] = {}
    replay = load("detective")
    for perspective in ("teacher", 0):
        session = Session(replay=replay, perspective=perspective)
        session.go(17)  # the step of a note for Player 1 and one for the teacher
        out[f"notes_{perspective}"] = Synced(session).state()
    session = Session(replay=replay, perspective=0, mode="quiz", spoilers=False)
    quiz = QuizMode(session, QuizRun(replay, questions_from_notes(replay, 0), student="ann",
                                     replay_name="detective", n=40))
    desk = Desk(session)
    synced = Synced(desk, [*(cls(desk) for cls in PANELS), Notepad(desk), quiz])
    for i, answer in enumerate(("steal", 0.25, ["AC", "6D"])):
        if i:
            quiz.go(i)
        out[f"quiz_{quiz.state()['question']['form']['type']}"] = synced.state()
        quiz.answer(answer)
    out["quiz_revealed"] = synced.state()
    for i, answer in ((3, 0.7), (4, 0.3)):
        quiz.go(i)
        quiz.answer(answer)
    out["quiz_done"] = synced.state()
    quiz.go(0)
    out["quiz_done_review"] = synced.state()
    return out


def main() -> None:
    """Rewrite js/test/fixtures.json, whatif_states.json and step_rules.json from what Python makes now."""
    FIXTURES.write_text(fixtures_text(), encoding="utf-8")
    WHATIF_STATES.write_text(whatif_states_text(), encoding="utf-8")
    STEP_RULES.write_text(step_rules_text(), encoding="utf-8")


if __name__ == "__main__":
    main()
