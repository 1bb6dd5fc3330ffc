"""The figures a teacher and a student read (issue 45, item 8, and notebook 01 in its "Also" list): one unit for
every luck-adjusted figure (points of win chance, a win 100), intervals cut to what a mean can be, students who
cannot be told apart listed by their results, a verdict that does not blame unmarked decisions without saying where
to look, practice figures on one set of worlds, and a lesson that does not give away the class deal's first draw.
"""

from __future__ import annotations

import dataclasses
import json
import re
from pathlib import Path
from types import SimpleNamespace

import pytest

from needle_widget import Card, Game, examples
from needle_widget.classroom.challenge import RANKING_NOTE, Challenge
from needle_widget.classroom.record import FinishedGame, Record, RecordEntry, seat_review
from needle_widget.engine.figures import percent
from needle_widget.players.bots import GreedyBot, RandomBot
from needle_widget.players.sim import play_game
from needle_widget.review import review
from needle_widget.review.exercises import Exercise, exercise_at
from needle_widget.review.standings import standings
from needle_widget.review.verdict import UNIT, in_points, sentence, verdict
from needle_widget.screen.desk import Desk
from needle_widget.screen.practicemode import PracticeMode
from needle_widget.screen.session import Session
from needle_widget.teaching.practicerun import PracticeRun

NOTEBOOK = Path(__file__).resolve().parents[1] / "notebooks" / "01_play.ipynb"
NAMES = {0: "Ann", 1: "Ben", 2: "Cai", 3: "Dee"}


def record_of(games: dict[int, list[tuple[float, float]]], left: dict[int, set[int]] | None = None) -> Record:
    """A reviewed record: each student's games against a bot, (result, luck-adjusted score) each, on deals 1, 2, ...
    from seat 0 (the same deals for everyone: paired), `left` the games a bot finished for them.
    """
    record = Record(worlds=96)
    for student, played in games.items():
        for k, (result, adjusted) in enumerate(played):
            source = f"challenge {k + 1}/student {student}"
            record.games[source] = len(record.games) + 1
            record.entries.append(RecordEntry(record.games[source], source, f"challenge {k + 1}", student, 0, None,
                                              "greedy", result, 0, k in (left or {}).get(student, set()), adjusted,
                                              adjusted - 0.5, result - adjusted))
    return record


@pytest.fixture(scope="module")
def blundered():
    """RandomBot (Player 1) against GreedyBot, deal 2027 (tests/test_review_exercises.py's game)."""
    return play_game(RandomBot(seed=2027), GreedyBot(), seed=2027).replay()


# ---- 1. a unit for every luck-adjusted figure --------------------------------------------------------------------


def test_the_record_says_its_unit_and_writes_its_figures_in_it():
    """Before: "Luck-adjusted score: ..." with figures such as 0.72 and no unit anywhere."""
    record = record_of({0: [(1.0, 0.724), (0.0, 0.41), (1.0, 0.88)], 1: [(0.5, 0.5), (0.0, 0.3), (1.0, 0.6)]})
    board = record.board("teacher", NAMES)
    assert UNIT == "points of win chance (a win is 100, a draw 50, a loss 0)"
    assert f"Luck-adjusted score, in {UNIT}" in board["note"]
    ann = next(r for r in board["rows"] if r["name"] == "Ann")
    assert ann["adjusted"] == str(in_points((0.724 + 0.41 + 0.88) / 3)) == "67"
    assert re.fullmatch(r"−?\d+ to \d+", ann["interval"]) and ann["raw_mean"] == "67"


def test_a_challenge_s_games_read_in_the_same_points():
    game = play_game(GreedyBot(), GreedyBot(), seed=31)
    challenge, record = Challenge(seed=31), Record()
    challenge.played(0, game.replay())
    entry, = record.add(FinishedGame(challenge.source(0), "challenge 1", game.replay(), (0, None), "greedy"))
    entry.adjusted, entry.skill, entry.luck = 0.724, 0.0, entry.result - 0.724
    board = challenge.board("teacher", [SimpleNamespace(index=0, name="Ann")], record)["challenge"]
    row, = board["rows"]
    assert UNIT in board["note"] == RANKING_NOTE
    assert row["adjusted"] == "72" and row["luck"] == ("+28" if entry.result == 1 else "−72" if entry.result == 0
                                                         else "−22")


def test_the_front_end_writes_the_same_unit():
    """The review panel's and the board's captions (js/src/review.js `UNIT`, which boardview.js imports) say it as
    Python does.
    """
    js = (Path(__file__).resolve().parents[1] / "js" / "src" / "review.js").read_text(encoding="utf-8")
    found = re.search(r'export const UNIT = "([^"]+)";', js)
    assert found is not None and found[1] == UNIT


def test_the_verdict_the_board_and_the_review_panel_speak_one_unit():
    """The verdict's "points of win chance" are the board's: a luck-adjusted result of 1.39 reads 139 points."""
    r = review(examples.load("found_early"), 0, worlds=8)
    past = dataclasses.replace(r, end_value=r.end_value + 1.5)
    assert f"{in_points(past.luck_adjusted)} points, is outside 0-100" in verdict(past)
    assert in_points(1.39) == 139 and in_points(-0.125) == -13 and in_points(0.125) == 13


# ---- 2. intervals within what a mean can be ----------------------------------------------------------------------


def test_an_interval_is_cut_to_the_range_a_mean_can_take():
    """Before: the 95% interval of a mean of three games (0, 1, 1) read "-0.77 to 2.10", past both ends of 0-1."""
    record = record_of({0: [(0.0, 0.0), (1.0, 1.0), (1.0, 1.0)], 1: [(0.0, 0.1), (0.0, 0.2), (1.0, 0.9)]})
    raw = standings(record.scores())  # the t interval as computed: past the ends
    assert any(s.low is not None and (s.low < 0 or s.high > 1) for s in raw)
    for row in record.board("teacher", NAMES)["rows"]:
        low, high = (int(x.replace("−", "-")) for x in row["interval"].split(" to "))
        assert 0 <= low <= high <= 100, row
    # the comparisons (issue 46's) are the same, clipped or not
    assert {s.student: (s.first, s.last, s.level) for s in record.standings()} == \
        {s.student: (s.first, s.last, s.level) for s in raw}


def test_a_left_game_lowers_the_floor_of_the_range():
    """A game a bot finished for the student has a figure of at most 0 (down to -1): the range is -k/n to (n-k)/n."""
    record = record_of({0: [(0.0, -0.4), (1.0, 0.9), (1.0, 0.8)]}, left={0: {0}})
    assert record.mean_range(0) == (pytest.approx(-1 / 3), pytest.approx(2 / 3))
    row, = record.board("teacher", NAMES)["rows"]
    low, high = (int(x.replace("−", "-")) for x in row["interval"].split(" to "))
    assert -33 <= low <= high <= 67


# ---- 3. students who cannot be told apart, listed by their figure ------------------------------------------------


def test_students_who_share_a_place_are_listed_by_the_figure_the_table_ranks_on():
    """Issue 45 listed students who share a place by won–drew–lost; issue 46 asks for "rows ordered by place, then by
    figure": the table ranks on the luck-adjusted score it shows, and won–drew–lost, the column with the luck in it,
    breaks ties only. Ann won 3 and lost 1 with the lowest figure (her wins were lucky): she is listed last, her
    won–drew–lost beside her, and nobody is placed above anybody.
    """
    record = record_of({
        0: [(1.0, 0.45), (1.0, 0.70), (1.0, 0.20), (0.0, 0.35)],   # Ann: 3–0–1, mean 0.43, the lowest
        1: [(1.0, 0.60), (0.0, 0.45), (0.0, 0.70), (0.0, 0.50)],   # Ben: 1–0–3, mean 0.56
        2: [(0.5, 0.35), (1.0, 0.65), (0.0, 0.40), (0.5, 0.55)],   # Cai: 1–2–1, mean 0.49
        3: [(0.0, 0.40), (1.0, 0.65), (0.0, 0.30), (1.0, 0.55)],   # Dee: 2–0–2, mean 0.475
    })
    rows = record.board("teacher", NAMES)["rows"]
    assert {r["place"] for r in rows} == {"1–4"}
    assert [(r["name"], r["adjusted"], r["raw"]) for r in rows] == [
        ("Ben", "56", "1–0–3"), ("Cai", "49", "1–2–1"), ("Dee", "48", "2–0–2"), ("Ann", "43", "3–0–1")]
    assert "Rows by place, then by luck-adjusted score, then won–drew–lost" in record.board("teacher", NAMES)["note"]
    assert all(r["above"] is None for r in rows)


def test_places_still_come_first():
    """A student placed above another stays above, whatever their results."""
    keys = [(f"d{k}", 0) for k in range(10)]
    strong = dict(zip(keys, [0.9, 0.8, 0.85, 0.95, 0.7, 0.9, 0.8, 0.85, 0.9, 0.95], strict=True))
    weak = dict(zip(keys, [0.3, 0.2, 0.4, 0.35, 0.1, 0.3, 0.2, 0.3, 0.25, 0.4], strict=True))
    table = standings({"Ann": weak, "Ben": strong}, tiebreak=lambda s: 0 if s == "Ann" else 1)
    assert [(s.student, s.places) for s in table] == [("Ben", "1"), ("Ann", "2")]


# ---- 4. a loss with no decision marked ---------------------------------------------------------------------------


def test_a_loss_no_mark_explains_says_so_and_points_to_the_costliest_step():
    """Before: "Your decisions cost you about 10 points of win chance" with every decision unmarked."""
    r = review(examples.load("found_early"), 0, worlds=8)
    small = [dataclasses.replace(e, label="good", chosen_value=e.reference_value - 0.02 - 0.008 * (k == 2),
                                 skill_se=0.001) for k, e in enumerate(r.entries)]
    unmarked = dataclasses.replace(r, entries=small)
    worst = small[2]
    assert unmarked.skill_total < -0.06 and not any(e.label in ("inaccuracy", "mistake", "blunder") for e in small)
    text = verdict(unmarked)
    assert text.startswith(f"Your decisions cost you about {-in_points(unmarked.skill_total)} points of win chance")
    assert (f"spread over several choices, none marked (the costliest: step {worst.step + 1}, 3 points, too small to "
            "mark)") in text
    about = verdict(unmarked, "Player 1")
    assert "Player 1's decisions cost them" in about and f"(the costliest: step {worst.step + 1}" in about
    marked = dataclasses.replace(unmarked, entries=[dataclasses.replace(small[0], label="mistake"), *small[1:]])
    assert "none marked" not in verdict(marked)
    # one decision too noisy to mark, most of the loss: its step, and why it is not marked
    one = sentence(-0.13, 0.05, -0.46, 0.05, who="Bob", costliest=(2, -0.13))
    assert one.startswith("Bob's decisions cost them about 13 points of win chance against GreedyBot's, most of it at "
                          "step 2 (13 points), left unmarked as within the review's noise;")


# ---- 5. practice figures on one set of worlds ---------------------------------------------------------------------


def test_every_attempt_is_valued_on_the_worlds_of_the_exercise_s_values(blundered):
    """Before: the move played's values were refined to 128 worlds (its mark in doubt), while an attempt not in
    doubt was valued on 32: "wins 70% of 32 worlds", then "77% of 128 worlds" in the table for the same move.
    And the other way: values on 32 worlds, an attempt in doubt refined to 128.
    """
    for step in (17, 9):
        x = exercise_at(blundered, step, worlds=32)
        for action in x.legal:
            attempt = x.check(action)
            assert attempt.worlds == x.values_worlds, (step, action, attempt.worlds, x.values_worlds)
            if any(v.action == action for v in x.values):
                assert attempt.value == x.value_of(action).value


def test_the_feedback_and_the_table_show_one_figure_for_a_move(blundered):
    x = exercise_at(blundered, 17, worlds=32)
    run = PracticeRun([x], student="ann")
    desk = Desk(Session(run.position(), x.seat, mode="practice"))
    practice = PracticeMode(desk, run)
    practice.attempt(x.best)
    while (job := desk.next_job()) is not None:
        job.run()
    state = practice.state()
    said = re.search(r"wins (\S+) of (\d+) worlds", state["feedback"]["text"])
    assert said is not None, state["feedback"]
    row = next(r for r in state["solution"]["rows"] if r["best"])
    assert (said[1], int(said[2])) == (row["wins"], state["solution"]["worlds"]) == (
        percent(x.value_of(x.best).value), x.values_worlds)


def test_a_class_exercise_s_values_are_on_its_practice_worlds(blundered):
    """The room sends exercises judged on a practice seed (never the review's): before, their values stayed the
    review's, on other worlds than every attempt's.
    """
    reviewed = seat_review(blundered.to_dict(), 0, worlds=16, seed=5, practice_seed=9)
    sent = [Exercise.from_dict(json.loads(json.dumps(x))) for x in reviewed["exercises"]]
    assert sent and all(x.seed == 9 for x in sent)
    assert "5" not in {str(x.seed) for x in sent}
    for x in sent[:2]:
        for v in x.values:
            attempt = x.check(v.action)
            assert (attempt.value, attempt.worlds) == (v.value, x.values_worlds), (x.step, v.action)
        assert x.best != x.played and x.solution().startswith("Better: ")


# ---- notebook 01: the class deal's first draw --------------------------------------------------------------------


SUITS = {"C": ("♣", "club"), "D": ("♦", "diamond"), "H": ("♥", "heart"), "S": ("♠", "spade")}
RANKS = {"A": "ace", "2": "two", "3": "three", "4": "four", "5": "five", "6": "six", "7": "seven", "8": "eight",
         "9": "nine", "10": "ten", "J": "jack", "Q": "queen", "K": "king"}


def named(text: str, card: Card) -> bool:
    """Whether `text` names `card`: as 9♥ (or j♦), 9H, 9h (a rank in figures: "as" is a word), or "nine of hearts"."""
    rank, suit = card.code[:-1], card.code[-1]
    symbol, word = SUITS[suit]
    forms = [(rf"(?<![\w♣♦♥♠]){rank}{symbol}", re.IGNORECASE), (rf"(?<![\w♣♦♥♠]){rank}{suit}(?![A-Za-z])", 0),
             (rf"\b{RANKS[rank]} of {word}s\b", re.IGNORECASE)]
    if rank.isdigit():
        forms.append((rf"(?<![\w♣♦♥♠]){rank}{suit.lower()}(?![A-Za-z])", 0))
    return any(re.search(form, text, flags) for form, flags in forms)


def test_notebook_01_names_none_of_the_class_deal_s_hidden_cards():
    """Before: "If you draw from the pile first, the 9♥ offers three sets": the class deal's first draw, so a student
    who picks the 9♥ as their needle finds it at their first draw and ends the round at once.
    """
    cells = json.loads(NOTEBOOK.read_text())["cells"]
    code = "".join("".join(c["source"]) for c in cells if c["cell_type"] == "code")
    found = re.search(r"NeedleWidget\.play\(.*?seed=(\d+)", code)
    assert found is not None
    seed = int(found[1])
    game = Game(seed=seed)
    hidden = [*game.draw_pile, *game.hand(1)]  # what the student's seat cannot see at the start
    assert len(hidden) == 52 - 7 and named("the 9♥ offers three sets", Card.parse("9h"))
    assert named("ah 9h", Card.parse("9h")) and named("AS", Card.parse("as")) and not named("as well", Card.parse("as"))
    # what the lesson says of the class deal: its text, and what the cells that play it print
    plays = [c for c in cells if c["cell_type"] == "code" and ("w.game" in "".join(c["source"])
                                                               or f"seed={seed}" in "".join(c["source"]))]
    texts = ["".join(c["source"]) for c in cells if c["cell_type"] == "markdown" and str(seed) in "".join(c["source"])]
    texts += ["".join(o.get("text") or o.get("data", {}).get("text/plain", "")) for c in plays for o in c["outputs"]]
    assert any(f"seed {seed}" in t for t in texts) and len(plays) >= 2
    for text in texts:
        assert not [str(card) for card in hidden if named(text, card)], text
    assert any(named(text, card) for text in texts for card in game.hand(0))  # it still talks of the student's hand


def test_the_marimo_lesson_01_names_none_of_the_class_deal_s_hidden_cards():
    """The marimo copy of lesson 01 said the same as the notebook ("the 9♥ offers three sets")."""
    text = (NOTEBOOK.parent / "marimo" / "01_play.py").read_text()
    found = re.search(r"\*\*seed (\d+)\*\*", text)
    assert found is not None
    game = Game(seed=int(found[1]))
    hidden = [*game.draw_pile, *game.hand(1)]
    prose = "\n".join(block for block in re.findall(r'mo\.md\(r?"""(.*?)"""', text, re.S) if found[1] in block)
    assert prose and not [str(card) for card in hidden if named(prose, card)], prose
