"""Every file a student or a teacher brings is parsed within bounds (`records.jsontext`): a replay, an answer file
(.jsonl) and a practice deck nested 100,000 deep, 10 MB of brackets, or holding a number that is not finite each
raise the reader's own NeedleError naming the file, never RecursionError or MemoryError, and quickly.
"""

from __future__ import annotations

import json
import time
from pathlib import Path

import pytest

from needle_widget import examples
from needle_widget.engine.errors import ArgumentError, NeedleError, ReplayError
from needle_widget.records.replay import MAX_FILE_BYTES as REPLAY_BYTES
from needle_widget.records.replay import Replay
from needle_widget.teaching import answers
from needle_widget.teaching.answers import Answer, load_answers, load_folder
from needle_widget.teaching.practice import MAX_BYTES as DECK_BYTES
from needle_widget.teaching.practice import Deck
from needle_widget.teaching.quiz import AnswerFileError

DEEP = "[" * 100_000 + "]" * 100_000
TEN_MB = "[" * 5 * 2**20 + "]" * 5 * 2**20
SECONDS = 10.0


def nested_in(text: str, deep: str = DEEP) -> str:
    """`text` (a JSON object) with a field nested `deep` added first."""
    return '{"nested": ' + deep + ", " + text.lstrip()[1:]


def good_answer_line() -> str:
    return json.dumps(Answer("ann", "r", 3, "winner", 0, 0.5, truth=1, brier=0.25).to_dict())


def refuses(error: type[NeedleError], call, *says: str) -> None:
    started = time.perf_counter()
    with pytest.raises(error) as caught:
        call()
    assert time.perf_counter() - started < SECONDS
    for words in says:
        assert words in str(caught.value), str(caught.value)


@pytest.mark.parametrize("text", [DEEP, nested_in(examples.load("found_early").to_json())], ids=["deep", "deep-field"])
def test_a_deeply_nested_replay_is_a_replay_error(tmp_path: Path, text: str) -> None:
    refuses(ReplayError, lambda: Replay.from_json(text), "nested 100,0")
    refuses(ReplayError, lambda: Replay.from_json(text.encode()), "nested 100,0")
    path = tmp_path / "deep.json"
    path.write_text(text, encoding="utf-8")
    refuses(ReplayError, lambda: Replay.load(path), "deep.json", "nested 100,0")


def test_a_10_mb_replay_of_brackets_is_a_replay_error(tmp_path: Path) -> None:
    """Under the replay's limit (32 MB), so parsed: the nesting is measured first, in linear time."""
    assert len(TEN_MB) < REPLAY_BYTES
    path = tmp_path / "brackets.json"
    path.write_text(TEN_MB, encoding="utf-8")
    refuses(ReplayError, lambda: Replay.load(path), "brackets.json", "nested 5,242,880 deep")


@pytest.mark.parametrize("number", ["NaN", "Infinity", "-Infinity", "1e999"])
def test_a_replay_with_a_number_that_is_not_finite_is_a_replay_error(number: str) -> None:
    text = examples.load("found_early").to_json()
    refuses(ReplayError, lambda: Replay.from_json(text.replace('"seed": ', f'"seed": {number}, "was": ', 1)),
            "not finite")


@pytest.mark.parametrize("bad", [None, 7, ["{}"]])
def test_a_replay_text_of_another_type_is_a_replay_error(bad: object) -> None:
    refuses(ReplayError, lambda: Replay.from_json(bad), type(bad).__name__)  # type: ignore[arg-type]


@pytest.mark.parametrize("row", [DEEP, nested_in(good_answer_line()), good_answer_line().replace("0.25", "NaN")],
                         ids=["deep", "deep-field", "nan"])
def test_a_deeply_nested_or_not_finite_answer_row_is_an_answer_file_error(tmp_path: Path, row: str) -> None:
    path = tmp_path / "ann.jsonl"
    path.write_text(good_answer_line() + "\n" + row + "\n", encoding="utf-8")
    refuses(AnswerFileError, lambda: load_answers(path), "ann.jsonl", "row 2")
    refuses(AnswerFileError, lambda: load_folder(tmp_path), "ann.jsonl", "row 2")


def test_a_10_mb_answer_file_is_refused_before_it_is_parsed(tmp_path: Path) -> None:
    assert answers.MAX_FILE_BYTES < len(TEN_MB)
    path = tmp_path / "ann.jsonl"
    path.write_text(TEN_MB, encoding="utf-8")
    refuses(AnswerFileError, lambda: load_answers(path), "ann.jsonl", "too big")


@pytest.mark.parametrize("text", [DEEP, TEN_MB, '{"format": "needle-deck-1", "exercises": [], "cards": {"a": NaN}}',
                                  '{"format": "needle-deck-1", "exercises": [1e999], "cards": {}}'],
                         ids=["deep", "10MB", "nan", "1e999"])
def test_a_deeply_nested_or_not_finite_deck_is_an_argument_error(tmp_path: Path, text: str) -> None:
    assert len(text) < DECK_BYTES
    path = tmp_path / "ann.deck.json"
    path.write_text(text, encoding="utf-8")
    refuses(ArgumentError, lambda: Deck.open(path), "ann.deck.json", "not a deck file")
    assert path.read_text(encoding="utf-8") == text


def test_a_deck_over_the_limit_or_not_utf_8_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "ann.deck.json"
    with open(path, "wb") as f:
        f.truncate(DECK_BYTES + 1)  # sparse: nothing is written or read
    refuses(ArgumentError, lambda: Deck.open(path), "ann.deck.json", f"{DECK_BYTES:,}")
    path.write_bytes(b'{"format": "\xff"}')
    refuses(ArgumentError, lambda: Deck.open(path), "ann.deck.json", "UTF-8")
