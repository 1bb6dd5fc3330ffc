"""What one screen receives: a session's synced state, built for the perspective it shows.

Every part that depends on hidden information (table, info, events, bots, nearby, and
the hypotheticals: worlds, graph, branch_info; the features' traits, such as the notes and
the quiz) is built from `display`, `whatif` and each feature (`features.FEATURES`) for
`session.perspective` and nothing else, so a screen gets what that perspective may know. A
feature may change the info panel: in a quiz the seat's odds are hidden until the current
question is answered. No Jupyter import: the widget copies `state()` into
its traits, and tests compare it directly.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ..engine.views import Perspective
from . import display
from .desk import Desk
from .features import FEATURES, feature_traits
from .notepad import Notepad
from .panels import PANELS
from .plugin import Feature
from .quizmode import QuizMode
from .session import Session


class Synced:
    """Builds `state()` for a desk's shown session (a Session alone is put on a desk of its own), with
    the traits of each feature (`features`; by default each feature of `features.FEATURES` that
    attaches without options: the notes); the event list is rebuilt only when the perspective or the
    record's length changes.
    """

    def __init__(self, desk: Desk | Session, features: Sequence[Feature] | None = None) -> None:
        self._desk = desk if isinstance(desk, Desk) else Desk(desk)
        if features is None:
            features = [f for cls in FEATURES if (f := cls.attach(self._desk)) is not None]
        self.features: tuple[Feature, ...] = tuple(features)
        self._empty = {name: trait.empty for name, trait in feature_traits().items()}
        self._events_key: tuple | None = None
        self._events: list[dict[str, Any]] = []

    @property
    def _session(self) -> Session:
        return self._desk.session

    def state(self) -> dict[str, Any]:
        """Every synced trait of NeedleWidget except `error`, `answer` and `scale`, by name (see widget.py)."""
        s = self._session
        perspective = s.perspective
        game = s.game_at(s.step)
        whole = s.whole()
        act_reason = s.act_reason()
        # The game itself is in the key (held, not its id): a game gone (a variation closed) may leave its id
        # to another, of the same length, whose events would then be taken for its.
        key = (perspective, len(whole), whole)
        if self._events_key is None or key[:2] != self._events_key[:2] or whole is not self._events_key[2]:
            self._events, self._events_key = display.events(whole, perspective), key
        offers: dict[str, Any] = {}
        features = dict(self._empty)
        for feature in self.features:
            features.update(feature.synced(perspective))
            offers.update(feature.offers(perspective, game))
        return {
            "mode": s.mode,
            "perspective": perspective,
            "perspectives": list(s.entitled()),
            "steps": s.steps,
            "spoilers": s.spoilers,
            "step": s.step,
            "table": display.table(game, perspective),
            "info": self._info(game, perspective),
            "events": self._events,
            "bots": s.reasons(perspective),
            "seats": s.names(),
            "nearby": self._nearby(perspective),
            "cover": s.cover,
            "playing": s.playing,
            "speed": s.speed,
            "busy": s.busy,
            "can_act": act_reason is None,
            "act_reason": act_reason,
            "hidden_reason": s.hidden_reason(),
            "paused": s.paused,
            "offers": offers,
            **features,
        }

    def _nearby(self, perspective: Perspective) -> dict[str, Any]:
        """Steps step-1 and step+1 while browsing a record (not at the live edge of a game)."""
        s = self._session
        if s.live and s.step == s.steps:
            return {}
        record = s.record()
        out = {}
        for k in (s.step - 1, s.step + 1):
            if 0 <= k <= s.steps:
                game = record.game_at(k)
                out[str(k)] = {"table": display.table(game, perspective), "info": self._info(game, perspective)}
        return out

    def _info(self, game: Any, perspective: Perspective) -> dict[str, Any]:
        info = display.info(game, perspective)
        for feature in self.features:
            info = feature.info(info)
        return info


def example_whatif_states() -> dict[str, dict[str, Any]]:
    """Named synced states with the hypotheticals open, from real sessions (for the front end's tests):
    the teacher's and a player's worlds (with a play-out) and graph on a bundled replay, the
    spectator's worlds, a branch, a SearchBot's thought, the notes, a quiz and the review.
    `python -m needle_widget.screen.synced PATH` writes them as JSON; tests/test_js.py fails when
    js/test/whatif_states.json differs.
    """
    from ..engine.game import Game
    from ..players.bots import GreedyBot
    from ..players.search import SearchBot
    from ..teaching.examples import load

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
    out.update(_example_notes_and_quiz())
    out.update(_example_review())
    out.update(_example_practice())
    return out


def practice_example() -> list[Any]:
    """Two exercises on the bundled found_early replay at 8 worlds, each with a move planted as the one
    played: Player 1's discard of 2♠ at step 10 (a mistake: 3♦ is not accepted either, 5♥ is the best
    found) and Player 1's "Done laying sets" at step 3 (a blunder). For the front end's tests and the
    browser's.
    """
    from ..engine import actions as A
    from ..review.exercises import exercise_at
    from ..teaching.examples import load

    replay = load("found_early")
    return [exercise_at(replay, 10, A.parse("discard 2S"), worlds=8),
            exercise_at(replay, 3, A.EndSets(), worlds=8)]


def _example_practice() -> dict[str, dict[str, Any]]:
    """Practice (`practice_example`, with a deck at a fixed time): the first exercise asked, after the wrong
    3♦, solved with 5♥; the second with the better move shown; and the summary once done.
    """
    from datetime import datetime, timezone

    from ..engine import actions as A
    from ..teaching.practice import Deck
    from ..teaching.practicerun import PracticeRun
    from .practicemode import PracticeMode

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


def _example_review() -> dict[str, dict[str, Any]]:
    """The review open (at a small budget) on a game of RandomBot against GreedyBot with a blunder of
    Player 1's at step 13: Player 1's (its own only, the graph open with the ledger) at that step, the
    teacher's (both seats), and a live round's, hidden until the round is over.
    """
    from ..engine.game import Game
    from ..engine.playout import play_out
    from ..players.bots import GreedyBot, RandomBot
    from .reviewpanel import ReviewPanel

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


def _example_notes_and_quiz() -> dict[str, dict[str, Any]]:
    """The teacher's and Player 1's notes, and a quiz on the bundled detective replay: a question
    of each form before its answer, one revealed, and the quiz done (its summary), at its last
    question and back at its first.
    """
    from ..teaching.answers import QuizRun
    from ..teaching.examples import load
    from ..teaching.quiz import questions_from_notes

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


def main(argv: list[str] | None = None) -> None:  # pragma: no cover - a fixture writer for js tests
    """Write `example_whatif_states()` as JSON to the path given (default js/test/whatif_states.json)."""
    import json
    import sys

    path = (argv or sys.argv[1:] or ["js/test/whatif_states.json"])[0]
    with open(path, "w", encoding="utf-8") as f:
        json.dump(example_whatif_states(), f, indent=1, ensure_ascii=False, sort_keys=True)
        f.write("\n")


if __name__ == "__main__":  # pragma: no cover
    main()
