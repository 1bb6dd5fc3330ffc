"""`needle-widget review REPLAY.json`: each seat's summary, verdict, marks and ledger; --json; errors exit 2."""

from __future__ import annotations

import io
import json
import shutil
from pathlib import Path

import pytest

from needle_widget import examples
from needle_widget.apps import cli
from needle_widget.records.replay import Replay
from needle_widget.review import review

REPLAYS = Path(cli.__file__).resolve().parents[1] / "replays"
FOUND_EARLY = str(REPLAYS / "found_early.json")


def run_cli(*argv: str) -> tuple[int, str]:
    out = io.StringIO()
    code = cli.main(list(argv), stdout=out)
    return code, out.getvalue()


def _one_error_line(capsys: pytest.CaptureFixture[str]) -> str:
    err = capsys.readouterr().err
    assert err.startswith("needle-widget: error: ") and err.count("\n") == 1 and "Traceback" not in err, err
    return err


def test_both_seats_get_summary_marks_and_ledger() -> None:
    code, out = run_cli("review", FOUND_EARLY, "--worlds", "4")
    assert code == 0
    replay = examples.load("found_early")
    for seat in (0, 1):
        r = review(replay, seat, worlds=4, seed=0)
        assert f"{r.summary()}  [" in out and f"]\n  {r.verdict()}\nMarks:" in out  # the verdict under the summary
        for e in r.entries:
            assert f"step {e.step + 1:>3}  {e.action}" in out
        for term in r.luck:
            assert term.sentence() in out
    assert out.count("Marks:") == 2 and out.count("Ledger:") == 2
    for label in ("start value", "skill total", "luck total", "result", "luck-adjusted"):
        assert out.count(label) >= 2
    assert out.splitlines()[0].startswith("greedy (Player 1) vs odds (Player 2), 16 actions, finished; 4 worlds")


def test_one_seat_and_its_numbers() -> None:
    code, out = run_cli("review", FOUND_EARLY, "--seat", "2", "--worlds", "4", "--seed", "3")
    r = review(examples.load("found_early"), 1, worlds=4, seed=3)
    assert code == 0 and out.count("Marks:") == 1 and "Player 1:" not in out
    assert f"luck-adjusted        {r.luck_adjusted:.2f}" in out
    assert f"skill total          {r.skill_total:+.2f}" in out
    assert f"start value          {r.start_value:.2f}" in out


def test_an_inaccuracy_or_worse_is_explained(tmp_path: Path) -> None:
    """A game where Player 1 plays at random: its poor choice carries its sentence under the mark."""
    path = tmp_path / "random.json"  # RandomBot(1) against GreedyBot, deal 4
    shutil.copy(Path(__file__).parent / "data" / "random_bot_deal4.json", path)
    code, out = run_cli("review", str(path), "--seat", "1", "--worlds", "4")
    r = review(Replay.load(path), 0, worlds=4, seed=0)
    marked = [e for e in r.entries if e.label not in ("best", "good")]
    assert code == 0 and marked, "this game has a mistake at 4 worlds"
    lines = out.splitlines()
    for e in marked:
        at = next(i for i, line in enumerate(lines) if line.startswith(f"  step {e.step + 1:>3}"))
        assert e.label in lines[at] and f"loss {100 * e.loss:4.1f} ±{100 * e.se:.1f} points" in lines[at]
        assert lines[at + 1].strip() == e.explain()
    quiet = [e for e in r.entries if e.label in ("best", "good")]
    assert quiet and all(e.explain() not in out for e in quiet)


def test_json_prints_each_seat_s_review() -> None:
    code, out = run_cli("review", FOUND_EARLY, "--json", "--worlds", "4")
    assert code == 0
    data = json.loads(out)
    replay = examples.load("found_early")
    assert data == [json.loads(json.dumps(review(replay, seat, worlds=4, seed=0).to_dict())) for seat in (0, 1)]
    code, out = run_cli("review", FOUND_EARLY, "--json", "--worlds", "4", "--seat", "1")
    assert [d["seat"] for d in json.loads(out)] == [0]


def test_an_unfinished_replay_is_reviewed_to_its_last_position(tmp_path: Path) -> None:
    path = tmp_path / "cut.json"
    examples.load("found_early").cut(9).save(path)
    code, out = run_cli("review", str(path), "--worlds", "2", "--seat", "1")
    assert code == 0 and "unfinished" in out.splitlines()[0] and "value at the end" in out


@pytest.mark.parametrize("argv, quoted", [
    (["--seat", "3"], "'3'"),
    (["--seat", "all"], "'all'"),
    (["--worlds", "1"], "'1'"),
    (["--worlds", "many"], "'many'"),
    (["--worlds", "100000000"], "'100000000'"),
    (["--seed", "-1"], "'-1'"),
])
def test_bad_options_exit_2_in_one_line(argv: list[str], quoted: str, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as info:
        cli.main(["review", FOUND_EARLY, *argv])
    assert info.value.code == 2
    err = _one_error_line(capsys)
    assert argv[0] in err and quoted in err


@pytest.mark.parametrize("content", [None, "", "{", "[]", '{"format": "needle-replay", "version": 9}'])
def test_bad_files_exit_2_in_one_line(tmp_path: Path, content: str | None,
                                      capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "bad.json"
    if content is not None:
        path.write_text(content)
    assert cli.main(["review", str(path), "--worlds", "2"]) == 2
    _one_error_line(capsys)


def test_a_directory_is_not_a_replay(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["review", str(tmp_path)]) == 2
    _one_error_line(capsys)


def test_names_from_the_file_cannot_drive_the_terminal(tmp_path: Path) -> None:
    data = json.loads(Path(FOUND_EARLY).read_text())
    data["players"] = ["Ann\x1b[31m", "Bob\nX"]
    path = tmp_path / "names.json"
    path.write_text(json.dumps(data))
    code, out = run_cli("review", str(path), "--worlds", "2")
    assert code == 0 and "\x1b" not in out and "Ann\\x1b[31m" in out and "Bob\\nX" in out
