"""Spoiler-free review: `NeedleWidget.from_replay(r, perspective=p, spoilers=False)` shows the replay
as if it ended at the current step. The proof: at every step k, from every perspective, the synced
state of the whole replay equals that of the replay cut at step k (`Replay.cut`, the same as
`Replay.from_game(r.game_at(k))`): nothing past the step reaches the browser.
"""

from __future__ import annotations

import json
from typing import Any

import pytest
import traitlets

from needle_widget import NeedleWidget, bots, examples
from needle_widget.engine.errors import ArgumentError, ReplayError
from needle_widget.engine.game import Game
from needle_widget.engine.seats import PERSPECTIVES
from needle_widget.players.sim import play_game
from needle_widget.records.replay import Replay
from needle_widget.screen import whatif
from needle_widget.screen.desk import Desk
from needle_widget.screen.session import Session
from needle_widget.screen.synced import Synced

pytestmark = pytest.mark.untraced  # long loops of pure Python: see tests/conftest.py

BUNDLED = ("found_early", "discarded_by_opponent", "long_with_reshuffle")
_requests = iter(range(1, 10**9))


def replays() -> dict[str, Replay]:
    out = {name: examples.load(name) for name in BUNDLED}
    for seed in (3, 11):
        out[f"seed_{seed}"] = play_game(bots.RandomBot(seed=seed), bots.GreedyBot(seed=seed), seed=seed).replay()
    return out


REPLAYS = replays()


def state(widget: NeedleWidget) -> str:
    """The synced state as JSON, without the widget's own ids and the error line / request answer."""
    data = widget.get_state()
    for key in ("_esm", "_css", "_anywidget_id", "layout", "answer", "error"):
        data.pop(key, None)
    return json.dumps(data, sort_keys=True, ensure_ascii=False)


def ask(widget: NeedleWidget, **request: Any) -> dict[str, Any]:
    """Send a browser request with an id; return Python's answer."""
    request_id = next(_requests)
    widget._on_message(widget, {**request, "id": request_id})
    assert widget.answer["id"] == request_id
    return widget.answer


def open_panels(widget: NeedleWidget, perspective: Any) -> None:
    widget.show_worlds()
    if perspective != "spectator":
        widget.show_graph()


# ---- the cut ------------------------------------------------------------------------------------


@pytest.mark.parametrize("name", sorted(REPLAYS))
def test_a_cut_replay_is_the_record_as_it_stood_at_that_step(name: str) -> None:
    full = REPLAYS[name]
    for k in range(len(full) + 1):
        cut = full.cut(k)
        assert len(cut) == k
        assert cut.to_dict() == Replay.from_game(full.game_at(k)).to_dict()
        assert (cut.result is None) == (full.game_at(k).phase != "over")
        assert cut.final_game.snapshot() == full.game_at(k).snapshot()
    assert full.cut(len(full)).to_dict() == full.to_dict()


def test_a_cut_keeps_only_the_notes_up_to_its_step_and_notes_of_its_own() -> None:
    full = examples.load("found_early").copy()
    full.add_note(2, "early")
    full.add_note(5, "at five", perspective=0)
    full.add_note(9, "later")
    cut = full.cut(5)
    assert [note.text for note in cut.notes] == ["early", "at five"]
    cut.add_note(1, "only in the cut")
    assert [note.text for note in full.notes] == ["early", "at five", "later"]
    assert Replay.from_json(cut.to_json()).to_dict() == cut.to_dict()
    for bad in (-1, len(full) + 1, "3", 2.0, True):
        with pytest.raises(ReplayError):
            full.cut(bad)


# ---- the proof: the state at step k is the cut replay's ----------------------------------------------


@pytest.mark.parametrize("name", sorted(REPLAYS))
def test_spoiler_free_state_at_every_step_is_the_state_of_the_replay_cut_there(name: str) -> None:
    full = REPLAYS[name]
    end = len(full)
    for perspective in PERSPECTIVES:
        walked = NeedleWidget.from_replay(full, perspective=perspective, spoilers=False)
        for k in range(end + 1):
            if k:
                assert ask(walked, kind="step", to=k) == {"id": walked.answer["id"], "ok": True, "error": None}
            cut = full.cut(k)
            expected = state(NeedleWidget.from_replay(cut, perspective=perspective, spoilers=False, step=k))
            assert state(walked) == expected, (name, perspective, k)
            assert walked.steps == k and len(walked.events) == k and set(walked.nearby) <= {str(k - 1)}
            assert (walked.table["result"] is None) == (full.game_at(k).phase != "over")
            # the same as the cut replay shown the usual way, but for the flag and the real-cards branch
            usual = json.loads(state(NeedleWidget.from_replay(cut, perspective=perspective, step=k)))
            free = json.loads(expected)
            assert (usual.pop("spoilers"), free.pop("spoilers")) == (True, False)
            assert free["offers"]["branch"].pop("worlds") == ["sampled"]
            usual["offers"]["branch"].pop("worlds")
            assert free == usual
            if k in (0, end // 2, end):  # Python jumps there too
                jumped = NeedleWidget.from_replay(full, perspective=perspective, spoilers=False, step=k)
                assert state(jumped) == expected
        before = state(walked)
        answer = ask(walked, kind="step", to=end + 1)
        assert answer["ok"] is False and answer["error"] == f"The replay ends at step {end}"
        assert state(walked) == before and walked.error["text"] == answer["error"]


@pytest.fixture
def small_graph(monkeypatch: pytest.MonkeyPatch) -> None:
    """The graph at 24 worlds a point instead of 200: these tests compare two computations of the same figures
    (the walked widget's and the cut replay's), which agree at any budget; the budget only made them slow
    (a fresh widget at every step computes the graph up to it: 600 points of 200 play-outs each).
    """
    monkeypatch.setattr(whatif, "GRAPH_WORLDS", 24)


@pytest.mark.slow
@pytest.mark.parametrize("perspective", PERSPECTIVES)
def test_with_the_panels_open_the_state_at_every_step_is_the_cut_replays(perspective: Any, small_graph: None) -> None:
    full = examples.load("found_early")
    walked = NeedleWidget.from_replay(full, perspective=perspective, spoilers=False)
    open_panels(walked, perspective)
    for k in [*range(len(full) + 1), 9, 4, 0]:  # on to the end, then back (the panels' caches hold later steps)
        if k != walked.step:
            assert ask(walked, kind="step", to=k)["ok"]
        cut = NeedleWidget.from_replay(full.cut(k), perspective=perspective, spoilers=False, step=k)
        open_panels(cut, perspective)
        assert walked.worlds["status"] == "ready"
        assert walked.graph is None or walked.graph["status"] == "ready"
        assert state(walked) == state(cut), (perspective, k)
        if walked.graph is not None:
            assert walked.graph["steps"] == k and max(p["step"] for p in walked.graph["points"]) == k
            assert walked.graph["needle"] is None or full.game_at(k).phase == "over"


@pytest.mark.slow
def test_on_a_long_replay_a_players_panels_at_a_few_steps_are_the_cut_replays(small_graph: None) -> None:
    full = examples.load("long_with_reshuffle")
    walked = NeedleWidget.from_replay(full, perspective=1, spoilers=False)
    open_panels(walked, 1)
    for k in (len(full), 20, 21):
        walked.step = k  # Python goes anywhere, and the cut follows
        cut = NeedleWidget.from_replay(full.cut(k), perspective=1, spoilers=False, step=k)
        open_panels(cut, 1)
        assert state(walked) == state(cut), k


def test_while_the_panels_compute_nothing_of_a_later_step_is_shown() -> None:
    """Back from step 10 to step 5: the graph's points past 5 and the worlds panel of step 10
    (shown by default while the next one computes) stay in the cache, but are not sent.
    """
    full = examples.load("found_early")
    desk = Desk(Session(replay=full, perspective=0, spoilers=False))
    synced = Synced(desk)

    def run() -> None:
        while (job := desk.next_job()) is not None:
            job.run()

    desk.analysis.show_worlds(0, True)
    desk.analysis.show_graph(0, True)
    desk.session.go(10)
    run()
    assert synced.state()["worlds"]["step"] == 10
    desk.session.request_step(5)
    shown = synced.state()
    assert shown["worlds"]["status"] == "computing" and shown["worlds"]["step"] == 5 and shown["worlds"]["rows"] == []
    assert shown["graph"]["steps"] == 5 and [p["step"] for p in shown["graph"]["points"]] == [0, 1, 2, 3, 4, 5]
    assert all(marker["step"] <= 5 for marker in shown["graph"]["markers"])
    assert max(event["step"] for event in shown["events"]) == 5
    text = json.dumps(shown)
    run()
    assert synced.state()["worlds"]["status"] == "ready"
    assert '"step": 10' not in text and '"10"' not in text


# ---- stepping from the browser and from Python ----------------------------------------------------------


def test_the_browser_steps_back_anywhere_and_on_one_step_at_a_time() -> None:
    full = examples.load("discarded_by_opponent")
    w = NeedleWidget.from_replay(full, perspective=0, spoilers=False, step=20)
    assert (w.step, w.steps, w.spoilers) == (20, 20, False)
    assert ask(w, kind="step", to=3)["ok"] and (w.step, w.steps) == (3, 3)
    assert ask(w, kind="step", to=4)["ok"] and ask(w, kind="step", to=5)["ok"] and (w.step, w.steps) == (5, 5)
    assert ask(w, kind="step", to=3)["ok"] and (w.step, w.steps) == (3, 3)
    refusals = set()
    for replay in (full, examples.load("long_with_reshuffle")):
        other = NeedleWidget.from_replay(replay, perspective=0, spoilers=False, step=3)
        for to in (5, 40, len(replay), len(replay) + 1, -1, "4", 4.0, True, None):
            before = state(other)
            answer = ask(other, kind="step", to=to)
            assert answer["ok"] is False and state(other) == before
            refusals.add((repr(to), answer["error"]))
    # a refusal tells nothing of the replay's length: the same words for both replays
    assert len(refusals) == 11, refusals


def test_python_may_go_anywhere_up_to_the_real_end_and_keeps_the_whole_replay() -> None:
    full = examples.load("discarded_by_opponent")
    w = NeedleWidget.from_replay(full, perspective=1, spoilers=False)
    assert w.steps == 0 and w.events == [] and w.replay is full
    w.step = len(full)
    assert w.steps == len(full) and w.table["result"] is not None
    w.go(7)
    assert (w.step, w.steps) == (7, 7)
    assert w.game.snapshot() == full.game_at(7).snapshot()
    with pytest.raises(traitlets.TraitError):
        w.step = len(full) + 1


def test_autoplay_goes_on_to_the_real_end_and_stops_there() -> None:
    full = examples.load("found_early")
    w = NeedleWidget.from_replay(full, perspective=0, spoilers=False, step=2)
    assert ask(w, kind="autoplay", playing=True, speed=8)["ok"]
    steps = []
    while w.playing:
        w._runner.tick()
        steps.append((w.step, w.steps))
    assert steps[-1] == (len(full), len(full)) and all(step == shown for step, shown in steps)
    w.close()


def test_playing_on_with_the_real_cards_is_not_offered_in_spoiler_free_review() -> None:
    full = examples.load("discarded_by_opponent")
    usual = NeedleWidget.from_replay(full, perspective="teacher", step=10)
    assert usual.offers["branch"]["worlds"] == ["real", "sampled"] and usual.spoilers is True
    w = NeedleWidget.from_replay(full, perspective="teacher", spoilers=False, step=10)
    assert w.offers["branch"]["worlds"] == ["sampled"]
    answer = ask(w, kind="branch", seat=0, opponent="greedy", world="real")
    assert answer["ok"] is False and "'sampled'" in answer["error"]
    assert ask(w, kind="branch", seat=0, opponent="greedy", world="sampled")["ok"]
    assert w.mode == "play" and w.branch_info["world"] == "sampled"
    assert ask(w, kind="back")["ok"] and (w.mode, w.step, w.steps, w.spoilers) == ("replay", 10, 10, False)


def test_spoilers_false_is_for_replays_and_the_default_shows_the_whole_replay() -> None:
    with pytest.raises(ArgumentError, match="spoilers=False is for a replay"):
        NeedleWidget(game=Game(seed=1), spoilers=False)
    with pytest.raises(ArgumentError, match="spoilers must be True or False"):
        NeedleWidget.from_replay(examples.load("found_early"), spoilers="no")
    full = examples.load("found_early")
    w = NeedleWidget.from_replay(full, perspective=0, step=4)
    assert (w.steps, len(w.events), w.spoilers, sorted(w.nearby)) == (len(full), len(full), True, ["3", "5"])
    assert ask(w, kind="step", to=len(full))["ok"] and w.table["result"] is not None
