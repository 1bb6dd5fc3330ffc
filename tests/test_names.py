"""One word for each concept (issue 44): the renamed names, and the old ones kept as aliases of them."""

from __future__ import annotations

from importlib import import_module

import needle_widget
import needle_widget.review as review_package
from needle_widget.classroom import record
from needle_widget.inference import slots
from needle_widget.players import sim
from needle_widget.records.steps import Step
from needle_widget.review import matches, results
from needle_widget.screen import modes, session
from needle_widget.screen.session import Session

exercises = import_module("needle_widget.review.exercises")  # the package's `exercises` and `review` are functions
review_module = import_module("needle_widget.review.review")


def test_the_old_names_are_the_new_ones() -> None:
    assert exercises.Outcome is exercises.AttemptResult
    assert record.Outcome is record.FinishedGame and record.Entry is record.RecordEntry
    assert results.Entry is results.Decision is review_module.Entry is review_package.Entry is review_package.Decision
    assert slots.Step is slots.SeenAction and slots.SeenAction is not Step
    assert sim.tournament is sim.round_robin and sim.Tournament is sim.RoundRobin
    assert needle_widget.tournament is matches.tournament is not sim.round_robin
    assert modes.LESSONS is modes.DRILLS is session.LESSONS is session.DRILLS
    assert list(modes.DRILLS) == ["quiz", "practice"]


def test_every_old_name_is_still_exported() -> None:
    exported = {exercises: ["Outcome", "AttemptResult"], record: ["Outcome", "Entry", "FinishedGame", "RecordEntry"],
                results: ["Entry", "Decision"], review_module: ["Entry", "Decision"],
                review_package: ["Entry", "Decision"], slots: ["Step", "SeenAction"], modes: ["LESSONS", "DRILLS"],
                session: ["LESSONS", "DRILLS"]}
    for module, names in exported.items():
        assert set(names) <= set(module.__all__), module.__name__


def test_a_session_and_its_rules_name_the_drill_both_ways() -> None:
    from needle_widget import examples

    quiz = Session(replay=examples.load("found_early"), mode="quiz", perspective=0, spoilers=False)
    assert quiz.drill == quiz.lesson == quiz.mode_rules.drill == quiz.mode_rules.lesson == "a quiz"
    assert modes.MODE_RULES["play"].drill is None and modes.MODE_RULES["play"].lesson is None
