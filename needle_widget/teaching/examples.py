"""Example replays shipped with the package, for the notebooks and for a first look.

>>> sorted(EXAMPLES)
['detective', 'discarded_by_opponent', 'found_early', 'long_with_reshuffle']
>>> load("found_early").result.reason
<Reason.FOUND: 'found'>
"""

from __future__ import annotations

from pathlib import Path

from ..engine.errors import ReplayError
from ..records.replay import Replay

FOLDER = Path(__file__).parent.parent / "replays"

EXAMPLES: dict[str, str] = {
    "found_early": "Player 2 finds their needle on turn 4, while behind: finding it ends the round, and the lead wins.",
    "discarded_by_opponent": "Player 1 discards Player 2's needle on turn 17 without knowing it, and wins 1-0.",
    "long_with_reshuffle": "A longer game in which the draw pile runs out and the discards are reshuffled.",
    "detective": "GreedyBot against GreedyBot, 5-4, with a teacher's notes and five questions for Player 1's seat.",
}

_RECIPES = {  # how each was made: (bot names, seed); 63-bit seeds, so no reader can try seeds to find a deal
    "found_early": (("greedy", "odds"), 7619799552356975526),
    "discarded_by_opponent": (("greedy", "odds"), 1215356955691773006),
    "long_with_reshuffle": (("greedy", "greedy"), 6330278325364305652),
    "detective": (("greedy", "greedy"), 3842243514858089272),
}
"""Each seed was the first of a seeded search (`random.Random("needle_widget.teaching.examples: ...")`) whose game
tells the story EXAMPLES gives (found on turn 4 while behind; discarded on turn 17, 1-0; a reshuffle, a
steal and sets in the first 60 actions; 5-4 with the lead changing hands)."""

_NOTES: dict[str, list[dict]] = {  # the teacher's notes a recipe's replay is saved with (notebook 05)
    "detective": [
        {"step": 2, "text": "Turn 1: both needles are picked and you draw first. You may take the top card of the "
                            "pile, or steal a random card from Player 2's seven.",
         "question": {"kind": "pile_or_steal"}},
        {"step": 10, "text": "Turn 3. You have not seen your needle yet: it is in the pile or in Player 2's "
                             "hand.", "question": {"kind": "next_draw"}},
        {"step": 17, "text": "You picked A♣ as your needle. Player 2 is GreedyBot: it picks the card its hand "
                             "needs least, and it has thrown away A♦ and K♥. Could it have picked your card?",
         "perspective": 0, "question": {"kind": "needle"}},
        {"step": 17, "text": "Both players picked A♣: one card can be two players' needle.", "perspective": "teacher"},
        {"step": 24, "text": "Player 2 went ahead 3-2 with J♥ Q♥ K♦; Player 1's 7♠ 8♦ 9♥ made it 3-3.",
         "question": {"kind": "winner"}},
        {"step": 43, "text": "4-3 to Player 1, turn 13, and Player 1 may steal again. Who wins from here?",
         "question": {"kind": "winner"}},
    ],
}


def load(name: str) -> Replay:
    """The example replay `name` (see EXAMPLES), checked as every replay is on load."""
    if name not in EXAMPLES:
        raise ReplayError(f"No example replay {name!r}"[:200] + f"; there are {', '.join(sorted(EXAMPLES))}")
    return Replay.load(FOLDER / f"{name}.json")


_VERSION_1 = ("found_early", "discarded_by_opponent", "long_with_reshuffle")
"""Made before notes existed; kept as version 1 files (the tests load them as version 1 samples)."""


def _write_all(names: list[str] | None = None) -> None:  # pragma: no cover - python -m needle_widget.teaching.examples
    """Write the replays of `names` (default: every recipe) from their recipes, with their notes."""
    from ..players.bots import make_bot
    from ..players.sim import play_game

    FOLDER.mkdir(exist_ok=True)
    for name, ((a, b), seed) in _RECIPES.items():
        if names and name not in names:
            continue
        replay = play_game(make_bot(a, seed=1), make_bot(b, seed=2), seed=seed).replay()
        replay.replace_notes(_NOTES.get(name, ()))
        text = replay.to_json()
        if name in _VERSION_1:  # a version 2 file without notes is the version 1 text but for the version
            text = text.replace('"version": 2,', '"version": 1,', 1)
        (FOLDER / f"{name}.json").write_text(text, encoding="utf-8")


_HABITS = {  # notebook 05's simulated class (notebooks/answers/README.md): each student's habit
    "ada": "careful", "dev": "careful", "jo": "careful", "ben": "bold", "eli": "bold", "ivo": "bold",
    "cleo": "timid", "gus": "timid", "lena": "timid", "fay": "hunch", "kai": "hunch", "hana": "model",
}


def _class_detective_rows(folder: Path) -> None:  # pragma: no cover - python -m ...teaching.examples --class
    """Answer the detective quiz as each simulated student of notebook 05 would, and put those answers in
    place of the student's detective rows in `folder` (the homework rows stay as they are). Seeded by the
    student's name: the same replay gives the same files.
    """
    import random

    from .answers import QuizRun, load_answers, save_answers
    from .quiz import questions_from_notes

    replay = load("detective")
    questions = questions_from_notes(replay, 0)
    for k, (student, habit) in enumerate(sorted(_HABITS.items())):
        rng = random.Random(f"needle_widget class {student} detective")
        run = QuizRun(replay, questions, student=student, replay_name="detective")
        for i, q in enumerate(questions):
            asked = run.ask(i)
            time = f"2026-11-27T{9 + k // 6:02d}:{i:02d}:00Z"
            if q.kind == "pile_or_steal":
                best = run.answer(i, "pile", time=None)["score"]["best"]  # a throwaway run tells the better draw
                run = QuizRun(replay, questions, student=student, replay_name="detective")
                other = "steal" if best == "pile" else "pile"
                run.answer(i, other if student in ("fay", "ivo") else best, time=time)
                continue
            if q.kind == "needle":
                probe = QuizRun(replay, questions, student=student, replay_name="detective")
                top = [c for c, _ in probe.answer(i, asked["form"]["candidates"][:1])["model"]["greedy"]["top"]]
                candidates = asked["form"]["candidates"]
                bold = top[:1] if student == "eli" else rng.sample(candidates, 1)
                chosen = {"careful": top, "model": top, "bold": bold, "timid": rng.sample(candidates, 3),
                          "hunch": rng.sample(candidates, 2)}[habit]
                run.answer(i, chosen, time=time)
                continue
            probe = QuizRun(replay, questions, student=student, replay_name="detective")
            f = probe.answer(i, 0.5)["model"]["free"]["forecast"]
            p = min(1.0, max(0.0, f + rng.gauss(0, 0.08)))
            said = {"careful": round(p * 20) / 20, "model": round(f, 2),
                    "bold": round(min(1.0, max(0.0, 0.5 + (p - 0.5) * 1.6)) * 20) / 20,
                    "timid": round((0.5 + (p - 0.5) * 0.5) * 20) / 20,
                    "hunch": rng.choice([0.1, 0.3, 0.5, 0.7, 0.9])}[habit]
            run.answer(i, said, time=time)
        path = next(p for p in sorted(folder.iterdir()) if p.stem == student)
        kept = [a for a in load_answers(path) if a.replay != "detective"]
        save_answers([*run.answers, *kept], path)


if __name__ == "__main__":  # pragma: no cover
    import sys

    if sys.argv[1:2] == ["--class"]:
        _class_detective_rows(Path(sys.argv[2]) if len(sys.argv) > 2 else Path("notebooks") / "answers")
    else:
        _write_all(sys.argv[1:] or None)
