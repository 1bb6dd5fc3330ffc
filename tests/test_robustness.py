"""Bad input gets a clear error and changes nothing; no input makes memory grow without bound."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from needle_widget import Card, Game, Replay, Rules, actions, bots, examples, view
from needle_widget.apps.bench import endless_game, replay_memory
from needle_widget.engine.errors import NeedleError, PerspectiveError, ReplayError, RulesError
from needle_widget.engine.rules import MAX_TURNS
from needle_widget.records.replay import MAX_FILE_BYTES, MAX_NAME_LENGTH

# ---- replays: memory linear in length ------------------------------------------------------


@pytest.mark.slow
def test_a_long_replay_loads_in_memory_linear_in_its_length() -> None:
    """Snapshots hold the state, not the history: 20,000 actions load in well under 150 MB,
    and four times the actions take about four times the memory (quadratic would be 16).
    """
    _, small = replay_memory(5_000)
    _, large = replay_memory(20_000)
    assert large < 150, large
    assert large < 6 * small, (small, large)


def test_endless_games_reach_the_length_asked_for() -> None:
    game = endless_game(3_000)
    assert len(game) == 3_000 and game.phase != "over"
    assert sum(bool(e.reshuffles) for e in game.history) >= 10


def test_a_copy_shares_its_log_but_never_its_future() -> None:
    game = endless_game(200)
    copy = game.copy()
    twin = copy.copy()
    before = game.snapshot()
    copy.apply(copy.legal_actions()[0])
    assert game.snapshot() == before and len(game) == 200 and len(copy) == 201
    game.apply(game.legal_actions()[-1])
    twin.apply(twin.legal_actions()[-1])
    assert game.snapshot() == twin.snapshot()
    assert game.history[:200] == copy.history[:200] and len(game.history) == len(copy.history) == 201
    assert copy.event(200) == copy.history[-1] and copy.event(0) == copy.history[0]
    with pytest.raises(IndexError, match="event 201 out of range"):
        copy.event(201)


def test_replay_steps_of_a_long_game_match_the_game() -> None:
    game = endless_game(2_000)
    replay = Replay.from_json(game.replay().to_json())
    for k in (0, 1, 7, 8, 9, 999, 1_000, 1_999, 2_000):
        again = Game(rules=game.rules, seed=game.seed)
        for event in game.history[:k]:
            again.apply(event.action)
        assert replay.game_at(k).snapshot() == again.snapshot()
    assert replay.game_at(2_000).snapshot() == game.snapshot()


# ---- E5: a sane upper bound on max_turns ----------------------------------------------------


def test_E5_max_turns_has_an_upper_bound() -> None:
    assert Rules(max_turns=MAX_TURNS).validate().max_turns == MAX_TURNS
    message = rf"Rules.max_turns is {MAX_TURNS + 1}; allowed: an integer >= 1, at most {MAX_TURNS}"
    with pytest.raises(RulesError, match=message):
        Rules(max_turns=MAX_TURNS + 1).validate()
    data = Game(seed=1).replay().to_dict()
    data["rules"]["max_turns"] = 10**12
    with pytest.raises(ReplayError, match="rules: Rules.max_turns is 1000000000000"):
        Replay.from_dict(data)


# ---- clear errors for the wrong kind of argument -------------------------------------------


@pytest.mark.parametrize("rules", ["x", {"hand_size": 5}, 7, Rules])
def test_rules_must_be_rules(rules: object) -> None:
    with pytest.raises(RulesError, match="rules must be a needle_widget Rules, not"):
        Game(rules=rules)  # type: ignore[arg-type]


def test_a_dict_of_rules_gets_a_hint() -> None:
    with pytest.raises(RulesError, match="use Rules.from_dict"):
        Game(rules={"hand_size": 5})  # type: ignore[arg-type]


@pytest.mark.parametrize("player", [0.0, 1.0, True, "0", None, 2, -1])
def test_players_are_the_ints_0_and_1(player: object) -> None:
    game = Game(seed=3)
    for ask in (game.player_view, game.hand, game.needle, game.hand_size, game.known_opponent_mask):
        with pytest.raises(PerspectiveError, match="player must be 0 or 1"):
            ask(player)  # type: ignore[arg-type]


@pytest.mark.parametrize("perspective", [0.0, 1.0, True, "Teacher", None, [0]])
def test_perspectives_refuse_floats_and_lookalikes(perspective: object) -> None:
    with pytest.raises(PerspectiveError, match="Unknown perspective"):
        view(Game(seed=3), perspective)  # type: ignore[arg-type]


def test_a_huge_perspective_is_quoted_briefly() -> None:
    with pytest.raises(PerspectiveError) as error:
        view(Game(seed=3), "x" * 1_000_000)  # type: ignore[arg-type]
    assert len(str(error.value)) < 300


# ---- replay files: names that cannot be shown, files too large to read ----------------------


def replay_with_names(*names: str) -> str:
    data = Game(seed=4).replay().to_dict()
    data["players"] = list(names)
    return json.dumps(data)


@pytest.mark.parametrize("name", ["\ud800", "ok\udfffok"])
def test_a_name_that_cannot_be_encoded_is_refused(name: str) -> None:
    with pytest.raises(ReplayError, match="cannot be encoded as UTF-8"):
        Replay.from_json(replay_with_names("human", name))


@pytest.mark.parametrize("name", ["", "x" * (MAX_NAME_LENGTH + 1)])
def test_a_name_must_be_short_text(name: str) -> None:
    with pytest.raises(ReplayError, match=f"1 to {MAX_NAME_LENGTH} characters"):
        Replay.from_json(replay_with_names(name, "human"))


def test_names_with_control_characters_load_and_round_trip() -> None:
    replay = Replay.from_json(replay_with_names("\x1b[31mred\n", "human"))
    assert Replay.from_json(replay.to_json()).players == ("\x1b[31mred\n", "human")


def test_a_replay_file_over_the_limit_is_refused_before_reading(tmp_path: Path) -> None:
    path = tmp_path / "huge.json"
    with open(path, "wb") as f:
        f.truncate(MAX_FILE_BYTES + 1)  # sparse: nothing is written or read
    with pytest.raises(ReplayError, match="over the limit"):
        Replay.load(path)


def test_a_replay_text_over_the_limit_is_refused() -> None:
    with pytest.raises(ReplayError, match="over the limit"):
        Replay.from_json(" " * (MAX_FILE_BYTES + 1))


def test_a_game_of_bad_actions_is_unchanged() -> None:
    game = Game(seed=5)
    before = game.snapshot()
    for bad in (actions.DrawPile(), actions.Steal(), actions.EndSets()):
        with pytest.raises(ValueError):
            game.apply(bad)
    assert game.snapshot() == before


# ---- one error family: every bad input raises a NeedleError subclass ------------------------

BAD_CALLS = {
    "negative seed": lambda: Game(seed=-1),
    "text seed": lambda: Game(seed="7"),  # type: ignore[arg-type]
    "bool first player": lambda: Game(seed=1, first_player=True),  # type: ignore[arg-type]
    "first player 2": lambda: Game(seed=1, first_player=2),
    "contradicting first player": lambda: Game(rules=Rules(first_player=0), seed=1, first_player=1),
    "short deck": lambda: Game(deck="AS 2S"),
    "bad card": lambda: Card.parse("ZZ"),
    "bad rules": lambda: Rules(hand_size=0).validate(),
    "unknown perspective": lambda: view(Game(seed=1), "umpire"),
    "unknown example": lambda: examples.load("nope"),
    "unknown bot": lambda: bots.make_bot("wizard"),
    "not json": lambda: Replay.from_json("{"),
    "not an action dict": lambda: actions.from_dict({"type": "fly"}),
    "not an action text": lambda: actions.parse("fly"),
    "not an action object": lambda: Game(seed=1).apply("draw"),  # type: ignore[arg-type]
    "illegal action": lambda: Game(seed=1).apply(actions.DrawPile()),
}


@pytest.mark.parametrize("name", sorted(BAD_CALLS))
def test_every_bad_input_raises_a_needle_error(name: str) -> None:
    with pytest.raises(NeedleError) as info:
        BAD_CALLS[name]()
    assert type(info.value) is not NeedleError, "a specific subclass, not the base"
    assert len(str(info.value)) < 400


# ---- issue 20: raw errors that must be NeedleErrors with a sentence --------------------------


def test_a_huge_integer_forecast_is_refused_in_words() -> None:
    from needle_widget.teaching.quiz import AnswerError, QuizQuestion, check_answer

    with pytest.raises(AnswerError, match="is not a probability from 0 to 1"):
        check_answer(QuizQuestion(5, "winner", 0), 10**400)


def _answer_rows(tmp_path: Path) -> tuple[Path, list[str]]:
    source = Path(__file__).parent.parent / "notebooks" / "answers" / "ivo.csv"
    folder = tmp_path / "class"
    folder.mkdir()
    return folder, source.read_text(encoding="utf-8").splitlines()


def test_class_table_refuses_a_csv_cell_over_the_field_limit_in_words(tmp_path: Path) -> None:
    from needle_widget.teaching.answers import class_table
    from needle_widget.teaching.quiz import AnswerFileError

    folder, lines = _answer_rows(tmp_path)
    (folder / "big.csv").write_text("\n".join([lines[0], "a" * 140_000 + lines[1][3:]]) + "\n", encoding="utf-8")
    with pytest.raises(AnswerFileError, match=r"big.csv', row 1: not CSV \(field larger than field limit"):
        class_table(folder)


def test_class_table_refuses_a_400_digit_score_in_words(tmp_path: Path) -> None:
    from needle_widget.teaching.answers import class_table
    from needle_widget.teaching.quiz import AnswerFileError

    folder, _ = _answer_rows(tmp_path)
    row = json.loads((Path(__file__).parent.parent / "notebooks" / "answers" / "ada.jsonl").read_text().splitlines()[1])
    row["brier"] = 10**400
    (folder / "huge.jsonl").write_text(json.dumps(row) + "\n", encoding="utf-8")
    with pytest.raises(AnswerFileError, match="huge.jsonl', row 1: answer brier 1000.* is not a finite number"):
        class_table(folder)


BAD_PATHS = [3, True, b"answers.jsonl", "missing-folder/ann.jsonl", "ann\0.jsonl", ""]


@pytest.mark.parametrize("path", BAD_PATHS, ids=repr)
def test_save_answers_refuses_what_is_not_a_writable_path(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                          path: object) -> None:
    from needle_widget.teaching.answers import Answer, save_answers
    from needle_widget.teaching.quiz import AnswerFileError

    monkeypatch.chdir(tmp_path)
    with pytest.raises(AnswerFileError, match="not a file path|does not exist|must end in"):
        save_answers([Answer("ann", "r", 3, "winner", 0, 0.9, truth=1)], path)
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("path", [*BAD_PATHS[:3], "missing-folder/game.json", "game\0.json", "", "."], ids=repr)
def test_replay_save_refuses_what_is_not_a_writable_path(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                         path: object) -> None:
    """`Replay.save(3)` wrote into file descriptor 3 and closed it (and `save(True)` would close stdout)."""
    monkeypatch.chdir(tmp_path)
    with pytest.raises(ReplayError, match="not a file path|does not exist|is a folder"):
        examples.load("found_early").save(path)
    assert list(tmp_path.iterdir()) == []


def test_a_failed_save_leaves_the_old_file_as_it_was(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import os

    target = tmp_path / "game.json"
    target.write_text("the old game", encoding="utf-8")

    def full(*_: object) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "replace", full)
    with pytest.raises(ReplayError, match="cannot write .*No space left on device"):
        examples.load("found_early").save(target)
    assert target.read_text(encoding="utf-8") == "the old game"
    assert [p.name for p in tmp_path.iterdir()] == ["game.json"]


# ---- issue 20: an answer file the package wrote can be read back ------------------------------


@pytest.mark.parametrize("name", ["ann\u2028lee", "ann\u2029lee", "ann\x85lee", "ann\x0blee"], ids=ascii)
@pytest.mark.parametrize("suffix", [".jsonl", ".csv"])
def test_answers_with_unicode_line_breaks_in_names_round_trip(tmp_path: Path, name: str, suffix: str) -> None:
    from needle_widget.teaching.answers import Answer, class_table, load_answers, save_answers

    rows = [Answer(name, "r", 3, "winner", 0, 0.9, truth=1, brier=0.01),
            Answer("bo", "r", 3, "winner", 0, 0.2, truth=1)]
    save_answers(rows, tmp_path / f"a{suffix}")
    text = (tmp_path / f"a{suffix}").read_text(encoding="utf-8")
    if suffix == ".jsonl":
        assert text.count("\n") == 2 and all(c not in text for c in "\u2028\u2029\x85\x0b")
    assert load_answers(tmp_path / f"a{suffix}") == rows
    assert [r["student"] for r in class_table(tmp_path)] == sorted([name, "bo"])
