"""A replay as one HTML file (needle_widget/apps/export.py, `needle-widget export`): what goes in it,
its size, twins that give byte-identical files, and refusals that write nothing.
"""

from __future__ import annotations

import json
import re
import warnings
from pathlib import Path
from typing import Any

import pytest
from test_cli import run_cli
from test_new_game import twins_over
from test_secrecy import play_twins
from test_secrecy_reshuffle import twins as reshuffle_twins

from needle_widget import Game, bots, examples, play_game
from needle_widget.apps.export import GUESSABLE_SEED, REF, GuessableSeedWarning, pack, states, to_html, unpack
from needle_widget.engine.errors import ArgumentError, NeedleError
from needle_widget.records.replay import Replay
from needle_widget.screen.session import Session
from needle_widget.screen.synced import Synced

pytestmark = pytest.mark.filterwarnings("ignore::needle_widget.apps.export.GuessableSeedWarning")

LIMIT = 400 * 1024
BUNDLED = ["detective", "discarded_by_opponent", "found_early", "long_with_reshuffle"]
PERSPECTIVES = [0, 1, "spectator", "teacher"]


def embedded(page: str) -> dict[str, Any]:
    """The data the page's script reads."""
    match = re.search(r'<script type="application/json" id="needle-data">(.*?)</script>', page, re.S)
    assert match
    return json.loads(match.group(1))


def sixty_actions() -> Replay:
    """A 60-action replay with a steal, sets and a reshuffle: the issue's size case."""
    replay = examples.load("long_with_reshuffle").cut(60)
    assert len(replay) == 60
    return replay


@pytest.mark.parametrize("name", BUNDLED)
@pytest.mark.parametrize("perspective", PERSPECTIVES)
def test_the_file_holds_the_synced_state_of_every_step(name: str, perspective: Any) -> None:
    replay = examples.load(name)
    data = embedded(to_html(replay, perspective=perspective))
    shown = unpack(data)
    assert len(shown) == len(replay) + 1
    session = Session(replay=replay, perspective=perspective)
    for k in (0, len(replay) // 2, len(replay)):
        session.go(k)
        synced = json.loads(json.dumps(Synced(session).state()))
        for trait in ("table", "info", "events", "bots", "seats", "shown_notes", "steps", "step", "mode"):
            assert shown[k][trait] == synced[trait], (k, trait)
        assert shown[k]["perspectives"] == [perspective]
        assert shown[k]["offers"] == {} and shown[k]["nearby"] == {}


@pytest.mark.parametrize("perspective", PERSPECTIVES)
@pytest.mark.parametrize("spoilers", [True, False])
def test_a_sixty_action_replay_fits_in_400_kb(perspective: Any, spoilers: bool) -> None:
    size = len(to_html(sixty_actions(), perspective=perspective, spoilers=spoilers).encode("utf-8"))
    assert size <= LIMIT, f"{size / 1024:.0f} KB"


def test_steps_share_what_they_have_in_common() -> None:
    """The pool stores each distinct part once: far less than the states written out in full."""
    shown = states(sixty_actions(), 0)
    whole = len(json.dumps(shown, separators=(",", ":"), ensure_ascii=False))
    packed = len(json.dumps(pack(shown), separators=(",", ":"), ensure_ascii=False))
    assert packed < whole / 3


def test_a_spoiler_free_page_does_not_say_how_long_the_replay_is() -> None:
    replay = examples.load("found_early")
    assert f"A replay of {len(replay)} actions" in to_html(replay, perspective=1)
    page = to_html(replay, perspective=1, spoilers=False)
    assert "A replay seen as Player 2 saw it" in page and f"{len(replay)} actions" not in page


def test_spoiler_free_files_tell_nothing_of_a_later_step() -> None:
    """Each step's state is the spoiler-free review's at that step: the cut replay's."""
    replay = examples.load("detective")
    shown = unpack(embedded(to_html(replay, perspective=0, spoilers=False)))
    for k in range(len(replay) + 1):
        cut = Session(replay=replay.cut(k), perspective=0)
        cut.go(k)
        expected = json.loads(json.dumps(Synced(cut).state()))
        assert shown[k]["events"] == expected["events"] and shown[k]["table"] == expected["table"], k
        assert shown[k]["steps"] == k


@pytest.mark.parametrize("name", BUNDLED)
def test_pack_and_unpack_round_trip(name: str) -> None:
    for perspective in ("teacher", 1):
        shown = json.loads(json.dumps(states(examples.load(name), perspective)))
        assert unpack(json.loads(json.dumps(pack(shown)))) == shown


def test_pack_refuses_a_value_that_looks_like_a_reference() -> None:
    with pytest.raises(ArgumentError, match=re.escape(REF)):
        pack([{"a": [1, 2, 3], REF: 1}])


# ---- twins: what the perspective cannot see changes nothing in its file --------------------------

def files(replay: Replay, perspective: Any) -> list[str]:
    return [to_html(replay, perspective=perspective, spoilers=s, step=min(3, len(replay))) for s in (True, False)]


@pytest.mark.parametrize("seed", range(6))
@pytest.mark.parametrize("hidden_owner", [0, 1])
def test_twins_differing_in_an_unseen_hand_card_give_identical_files(seed: int, hidden_owner: int) -> None:
    watcher = 1 - hidden_owner
    *_, (a, b) = play_twins(seed, hidden_owner, watcher)
    ra, rb = a.replay(), b.replay()
    assert ra.deck != rb.deck and len(ra) >= 10
    for perspective in (watcher, "spectator"):
        assert files(ra, perspective) == files(rb, perspective)
    assert to_html(ra, perspective="teacher") != to_html(rb, perspective="teacher")  # the twins do differ


@pytest.mark.parametrize("seed", [0, 3])
@pytest.mark.parametrize("hidden_owner", [0, 1])
def test_twins_over_give_identical_files_with_both_needles_shown(seed: int, hidden_owner: int) -> None:
    a, b = twins_over(seed, hidden_owner)
    ra, rb = a.replay(), b.replay()
    assert ra.result is not None
    for perspective in (1 - hidden_owner, "spectator"):
        assert files(ra, perspective) == files(rb, perspective)


@pytest.mark.parametrize("watcher", [0, 1])
def test_twins_differing_in_a_reshuffles_order_give_identical_files(watcher: int) -> None:
    """Played to the end after a reshuffle whose order the watcher cannot see (while the watcher's
    observations still agree), the files of the watcher agree.
    """
    compared = 0
    for seed in range(40):
        last = None
        for a, b, _step in reshuffle_twins(seed, watcher, horizon=30):
            last = (a.copy(), b.copy())
        if last is None:
            continue
        ra, rb = last[0].replay(), last[1].replay()
        assert any(e.reshuffles for e in last[0].history)
        assert files(ra, watcher) == files(rb, watcher)
        compared += 1
        if compared == 3:
            break
    assert compared == 3


def reviewed(replay: Replay, perspective: Any, **options: Any) -> str:
    return to_html(replay, perspective=perspective, review=True, review_worlds=4, **options)


def seats_reviewed(page: str) -> list[list[int]]:
    """The seats whose review each step's state carries."""
    return [[r["seat"] for r in (state["review"] or {}).get("reviews", [])] for state in unpack(embedded(page))]


@pytest.mark.parametrize("seed, hidden_owner", [(0, 1), (3, 0)])
def test_twins_give_identical_files_with_the_review_a_player_may_see(seed: int, hidden_owner: int) -> None:
    """A player's page carries its own seat's review at every step (spoiler-free: at the end only), and
    twins that differ in the opponent's cards give the same file; the spectator's page carries none.
    Everything revealed at the end (reveal_at_end=True) adds the opponent's review, and then the
    twins' files differ: the opponent's review lists the opponent's cards.
    """
    watcher = 1 - hidden_owner
    a, b = twins_over(seed, hidden_owner)
    ra, rb = a.replay(), b.replay()
    for options in ({}, {"spoilers": False}):
        page = reviewed(ra, watcher, **options)
        assert page == reviewed(rb, watcher, **options)
        seats = seats_reviewed(page)
        assert seats[-1] == [watcher]
        assert seats[:-1] == ([[watcher]] * len(ra) if not options else [[]] * len(ra))
    spectator = reviewed(ra, "spectator")
    assert spectator == reviewed(rb, "spectator") and seats_reviewed(spectator)[-1] == []
    revealed = [reviewed(r, watcher, reveal_at_end=True) for r in (ra, rb)]
    assert seats_reviewed(revealed[0])[-1] == [watcher, hidden_owner] and revealed[0] != revealed[1]
    assert seats_reviewed(reviewed(ra, "teacher"))[-1] == [0, 1]
    assert seats_reviewed(to_html(ra, perspective=watcher))[-1] == [], "no review unless asked for"


def test_the_export_command_adds_the_review(tmp_path: Path) -> None:
    source = examples.FOLDER / "found_early.json"
    out = tmp_path / "game.html"
    code, _ = run_cli("export", str(source), "--perspective", "2", "-o", str(out), "--review", "--review-worlds", "4")
    assert code == 0 and seats_reviewed(out.read_text(encoding="utf-8"))[-1] == [1]
    code, _ = run_cli("export", str(source), "--perspective", "2", "-o", str(out), "--review", "--reveal-at-end",
                      "--review-worlds", "4")
    assert code == 0 and seats_reviewed(out.read_text(encoding="utf-8"))[-1] == [1, 0]


def test_the_deal_s_seed_is_not_in_the_file() -> None:
    """Two replays that differ only in the seed they record give the same files, for every perspective."""
    replay = examples.load("found_early")
    data = replay.to_dict()
    data["seed"] = replay.seed + 12345
    other = Replay.from_dict(data)
    for perspective in PERSPECTIVES:
        assert to_html(replay, perspective=perspective) == to_html(other, perspective=perspective)


@pytest.mark.filterwarnings("error::needle_widget.apps.export.GuessableSeedWarning")
def test_a_small_seed_is_warned_of_for_a_player_or_the_spectator() -> None:
    """The file holds no seed, but a small one can be found by trying seeds against the hand shown."""
    replay = play_game(bots.GreedyBot(), bots.GreedyBot(), seed=14).replay()
    for perspective in (0, 1, "spectator"):
        with pytest.warns(GuessableSeedWarning, match="could try seeds until one deals the hand"):
            to_html(replay, perspective=perspective)
    to_html(replay, perspective="teacher")  # the teacher sees every card anyway
    data = replay.to_dict()
    data["seed"] = GUESSABLE_SEED + 12345
    to_html(Replay.from_dict(data), perspective=0)  # no warning


def test_the_bundled_replays_are_dealt_from_63_bit_seeds_and_export_without_a_warning() -> None:
    """Issue 20: exporting a bundled replay warned of its small seed (14, 4, 89, 173)."""
    for name in examples.EXAMPLES:
        replay = examples.load(name)
        assert replay.seed >= GUESSABLE_SEED and replay.deck == Game(seed=replay.seed).deck, name
        with warnings.catch_warnings():
            warnings.simplefilter("error", GuessableSeedWarning)
            to_html(replay, perspective=0)


# ---- the page ------------------------------------------------------------------------------------

def test_the_page_is_self_contained_and_loads_nothing() -> None:
    page = to_html(examples.load("found_early"), perspective=1)
    markup = re.sub(r"<script>.*?</script>", "", page, flags=re.S)  # the bundle's code names URLs it never loads here
    assert page.count("<script") == 2 and not re.search(r"<[a-z]+[^>]*\s(src|href)=", markup)
    assert "http://" not in markup and "https://" not in markup and "@import" not in markup
    assert "<!--" not in page  # inside a script it could put the HTML parser into its escaped state
    assert "Content-Security-Policy" in page and "default-src 'none'" in page and "script-src 'sha256-" in page
    assert "Player 2's view" in page


def test_names_from_the_file_cannot_break_out_of_the_page() -> None:
    game = play_game(bots.GreedyBot(), bots.GreedyBot(), seed=2)
    data = game.replay().to_dict()
    data["players"] = ["</script><script>alert(1)</script>", "<b>&amp;"]
    replay = Replay.from_dict(data)
    page = to_html(replay, perspective="teacher")
    assert page.count("<script") == 2 and "alert(1)</script>" not in page
    assert embedded(page)["items"]  # and the data still parses


def test_opening_step_and_arguments_are_checked() -> None:
    replay = examples.load("found_early")
    assert embedded(to_html(replay, step=len(replay)))["step"] == len(replay)
    for bad in (-1, len(replay) + 1, 1.5, "3", True):
        with pytest.raises(ArgumentError, match="Cannot open the file at step"):
            to_html(replay, step=bad)
    with pytest.raises(NeedleError, match="perspective"):
        to_html(replay, perspective=2)
    with pytest.raises(ArgumentError, match="spoilers must be True or False"):
        to_html(replay, spoilers="no")


def test_replay_to_html_writes_the_page(tmp_path: Path) -> None:
    replay = examples.load("found_early")
    path = tmp_path / "game.html"
    page = replay.to_html(path, perspective=0, step=2)
    assert path.read_text(encoding="utf-8") == page
    assert embedded(page)["step"] == 2


# ---- the command ---------------------------------------------------------------------------------

def test_the_export_command_writes_one_perspective(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    source = examples.FOLDER / "detective.json"
    out = tmp_path / "game.html"
    code, text = run_cli("export", str(source), "--perspective", "2", "-o", str(out), "--step", "5", "--no-spoilers")
    assert code == 0 and "seen by Player 2" in text and "KB" in text
    assert "warning" not in capsys.readouterr().err, "a bundled replay's seed is 63 bits"
    page = out.read_text(encoding="utf-8")
    assert page == to_html(Replay.load(source), perspective=1, step=5, spoilers=False)
    small = tmp_path / "small.json"
    play_game(bots.GreedyBot(), bots.GreedyBot(), seed=4).replay().save(small)
    code, _ = run_cli("export", str(small), "--perspective", "2", "-o", str(out))
    assert code == 0 and "warning: This replay was dealt from a small seed" in capsys.readouterr().err


@pytest.mark.parametrize("argv, message", [
    (["--step", "999"], "past the end"),
    (["--perspective", "3"], "is not 1, 2, spectator or teacher"),
])
def test_the_export_command_refuses_bad_arguments_and_writes_nothing(
        tmp_path: Path, argv: list[str], message: str, capsys: pytest.CaptureFixture[str]) -> None:
    source = examples.FOLDER / "detective.json"
    out = tmp_path / "game.html"
    with pytest.raises(SystemExit) if "--perspective" in argv else _no_raise():
        code, _ = run_cli("export", str(source), "-o", str(out), *argv)
        assert code == 2
    assert message in capsys.readouterr().err
    assert not out.exists()


def test_the_export_command_refuses_a_bad_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text("{not json", encoding="utf-8")
    code, _ = run_cli("export", str(bad), "-o", str(tmp_path / "x.html"))
    assert code == 2 and "error" in capsys.readouterr().err
    assert not (tmp_path / "x.html").exists()


class _no_raise:
    def __enter__(self) -> None:
        return None

    def __exit__(self, *exc: object) -> bool:
        return False


def test_the_exported_page_carries_the_seat_s_verdict_in_its_words() -> None:
    """The verdict the Review panel opens with, told to the page's seat, as `Review.verdict` words it."""
    from needle_widget.review import review
    from needle_widget.screen import reviewpanel

    replay = examples.load("found_early")
    last = unpack(embedded(reviewed(replay, 1)))[-1]["review"]["reviews"][0]
    assert last["verdict"] == review(replay, 1, worlds=4, seed=reviewpanel.REVIEW_SEED).verdict()
    assert last["verdict"].startswith(("You played", "Your decisions")) and "verdict_about" not in last
