"""Variations on the widget (screen/desk.py `open_line`, screen/panels.py `LinesPanel`): "Play from here"
adds a variation that stays after "back"; the move list's lines open by request, the game comes back by
request; the teacher promotes, demotes, renames and removes; notes on a variation's moves go to its record;
who sees which line; and the twins: two replays that differ only in a card a perspective cannot see give
that perspective byte-identical synced states, on the game and in every line it may open.
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from test_secrecy import play_twins
from test_widget import send

from needle_widget import NeedleWidget, examples
from needle_widget.inference.worlds import world_for
from needle_widget.records.replay import Replay


def synced(widget: NeedleWidget) -> dict[str, Any]:
    data = widget.get_state()
    for key in ("_esm", "_css", "_anywidget_id", "layout", "answer", "error"):
        data.pop(key, None)
    return data


def ok(widget: NeedleWidget, **request: Any) -> None:
    send(widget, **request, id=1)
    assert widget.answer["ok"], widget.error


def refused(widget: NeedleWidget, message: str, **request: Any) -> None:
    before = synced(widget)
    send(widget, **request, id=2)
    assert widget.answer["ok"] is False and message in widget.error["text"], widget.error
    assert synced(widget) == before


def play_some(widget: NeedleWidget, moves: int) -> None:
    for _ in range(moves):
        game = widget.game
        if game.phase == "over":
            return
        widget.apply(game.legal_actions()[0])


def test_play_from_here_adds_variations_that_stay_and_open_from_the_move_list() -> None:
    replay = examples.load("long_with_reshuffle")
    w = NeedleWidget.from_replay(replay, perspective="teacher", step=10)
    assert w.variations is None
    ok(w, kind="branch", seat=0, opponent="hotseat", world="real")
    w.perspective = "teacher"  # Python shows any perspective: the teacher's lists the real-cards line
    seen: list[Any] = []
    w.observe(lambda change: seen.append(change["new"] and change["new"]["current"]), names=["variations"])
    play_some(w, 4)
    assert w.variations["current"] == 0 and len(replay.variations[0]) == 4
    assert seen and set(seen) == {0}, seen  # the branch's variation is shown at every move
    ok(w, kind="back")
    assert w.mode == "replay" and w.step == 10 and w.variations["current"] is None
    ok(w, kind="branch", seat=1, opponent="hotseat", world="sampled")
    play_some(w, 3)
    ok(w, kind="back")
    ok(w, kind="branch", seat=0, opponent="hotseat", world="real")
    ok(w, kind="back")  # no moves: no variation
    listed = w.variations["list"]
    assert [(v["index"], v["step"], v["end"], v["real"]) for v in listed] == [(0, 10, 14, True), (1, 10, 13, False)]
    assert [e["step"] for e in listed[0]["events"]] == [11, 12, 13, 14]
    # open a line by clicking a move; step along it; switch; back to the game
    ok(w, kind="line", variation=1, to=12)
    assert w.mode == "replay" and w.step == 12 and w.steps == 13 and w.variations["current"] == 1
    assert w.variations["main"] and w.variations["from_step"] == 10
    ok(w, kind="step", to=13)
    ok(w, kind="line", variation=0, to=13)
    assert w.step == 13 and w.steps == 14 and w.variations["current"] == 0
    refused(w, "There is no variation 5 on this screen", kind="line", variation=5, to=1)
    refused(w, "Cannot go to step 99 of this variation", kind="line", variation=1, to=99)
    ok(w, kind="line", variation=None, to=10)
    assert w.variations["current"] is None and w.step == 10 and w.steps == len(replay)
    # the record keeps both; a save and load gives them back
    again = Replay.from_json(replay.to_json())
    assert again.variations == replay.variations and len(again.variations) == 2


def test_the_teacher_promotes_renames_notes_and_removes() -> None:
    replay = examples.load("long_with_reshuffle")
    w = NeedleWidget.from_replay(replay, perspective="teacher", step=10)
    for world in ("real", "sampled"):
        ok(w, kind="branch", seat=0, opponent="hotseat", world=world)
        play_some(w, 2)
        ok(w, kind="back")
    first, second = replay.variations
    ok(w, kind="line_edit", variation=1, how="promote")
    assert replay.variations == (second, first)
    ok(w, kind="line_edit", variation=0, how="rename", name="Her world")
    assert replay.variations[0].name == "Her world" and w.variations["list"][0]["label"] == "Her world"
    ok(w, kind="line", variation=0, to=12)
    seen: list[Any] = []
    w.observe(lambda change: seen.append(change["new"] and change["new"]["current"]), names=["variations"])
    ok(w, kind="line_edit", variation=0, how="rename", name="Her world, shown")  # renamed while shown: still shown
    ok(w, kind="note_add", step=12, text="Better?", perspective=None, question=None)
    assert seen and set(seen) == {0}, seen
    assert [n.text for n in replay.variations[0].notes] == ["Better?"] and not replay.notes
    assert w.variations["label"] == "Her world, shown" and w.shown_notes[0]["text"] == "Better?"
    refused(w, "a variation: promote, demote, rename or remove it", kind="line_edit", variation=0, how="shred")
    ok(w, kind="line_edit", variation=0, how="remove")
    assert w.variations["current"] is None and w.mode == "replay" and replay.variations == (first,)
    # a player's view may not edit
    ok(w, kind="perspective", to=0)
    refused(w, "switch to the teacher's view", kind="line_edit", variation=0, how="remove")


def test_each_perspective_opens_only_its_own_lines() -> None:
    replay = examples.load("long_with_reshuffle")
    replay.add_variation(8, replay.branch(8).legal_actions()[:1])
    for seat in (0, 1, "spectator"):
        replay.add_variation(8, [], world=world_for(replay, 8, seat, seed=4))
    w = NeedleWidget.from_replay(replay, perspective="teacher", step=8)
    seen = {}
    for p in (0, 1, "spectator", "teacher"):
        ok(w, kind="perspective", to=p)
        seen[p] = [v["source"] for v in w.variations["list"]]
    drawn = "a possible world drawn from {}'s view".format
    assert seen[0] == [drawn("Player 1"), drawn("the spectator")]
    assert seen[1] == [drawn("Player 2"), drawn("the spectator")]
    assert seen["spectator"] == [drawn("the spectator")]
    assert len(seen["teacher"]) == 4 and seen["teacher"][0] == "the real cards"
    ok(w, kind="perspective", to=0)
    refused(w, "There is no variation 0 on this screen", kind="line", variation=0, to=9)
    # spoiler-free review: only sampled worlds, only from steps up to the one reached
    free = NeedleWidget.from_replay(replay.copy(), perspective="teacher", step=5, spoilers=False)
    assert free.variations is None
    free.step = 8
    assert [v["real"] for v in free.variations["list"]] == [False, False, False]


@pytest.mark.parametrize("seed", [3, 8])
def test_twins_lines_look_the_same_to_a_perspective_that_cannot_tell_the_games_apart(seed: int) -> None:
    """Two replays that differ only in a card of Player 2's hand that Player 1 never sees, each with the same
    variations (a real-cards line, worlds drawn from each view with the same seed): Player 1's and the
    spectator's synced states are byte-identical at every step of the game and of every line they may open;
    the teacher's differ (it sees the card), and so does the real-cards line's, which they never receive.
    """
    a, b = list(play_twins(seed, hidden_owner=1, watcher=0, steps=60))[-1]
    records = [g.replay() for g in (a, b)]
    k = len(records[0]) // 2
    for r in records:
        r.add_variation(k, r.branch(k).legal_actions()[:1])
        for seat in (0, 1, "spectator"):
            world = world_for(r, k, seat, seed=11)
            moves = r.line(r.add_variation(k, [], world=world)).final_game.legal_actions()[:1]
            r.remove_variation(-1)
            r.add_variation(k, moves, world=world)
    differs = False
    for perspective in (0, "spectator", "teacher"):
        widgets = [NeedleWidget.from_replay(r, perspective="teacher") for r in records]
        for w in widgets:
            w.perspective = perspective
        states = [[], []]
        for side, w in enumerate(widgets):
            for step in range(0, len(records[side]) + 1, 3):
                w.step = step
                states[side].append(json.dumps(synced(w), sort_keys=True))
            for item in (w.variations or {}).get("list", []):
                ok(w, kind="line", variation=item["index"], to=item["step"])
                for step in range(item["step"], item["end"] + 1):
                    ok(w, kind="step", to=step)
                    states[side].append(json.dumps(synced(w), sort_keys=True))
                ok(w, kind="line", variation=None, to=0)
        if perspective == "teacher":
            differs = states[0] != states[1]
        else:
            assert states[0] == states[1]
            assert len(states[0]) > len(records[0]) // 3 + 2  # the lines were walked too
    assert differs


def _with_lines(r: Replay, k: int) -> Replay:
    r.add_variation(k, r.branch(k).legal_actions()[:1], name="Real")
    for seat in (0, 1):
        world = world_for(r, k, seat, seed=7)
        moves = r.line(r.add_variation(k, [], world=world)).final_game.legal_actions()[:1]
        r.remove_variation(-1)
        r.add_variation(k, moves, world=world)
    return r


def test_twins_an_exported_page_carries_the_lines_its_perspective_may_open_and_nothing_else() -> None:
    """Player 1's page of two twin replays (a card of Player 2's hand differs) with the same variations is
    byte-identical, and holds Player 1's world's line only; the teacher's pages differ and hold all three.
    """
    import warnings

    from needle_widget.apps.export import GuessableSeedWarning, to_html
    from needle_widget.screen.frames import unpack

    a, b = list(play_twins(3, hidden_owner=1, watcher=0, steps=60))[-1]
    k = len(a.replay()) // 2
    records = [_with_lines(g.replay(), k) for g in (a, b)]
    pages: dict[Any, list[str]] = {}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", GuessableSeedWarning)
        for perspective in (0, "teacher"):
            pages[perspective] = [to_html(r, perspective=perspective) for r in records]
    assert pages[0][0] == pages[0][1] and pages["teacher"][0] != pages["teacher"][1]

    def data(page: str) -> dict[str, Any]:
        text = page.split('<script type="application/json" id="needle-data">', 1)[1].split("</script>", 1)[0]
        return json.loads(text.replace("\\u003c", "<").replace("\\u003e", ">").replace("\\u0026", "&"))

    mine, teachers = data(pages[0][0]), data(pages["teacher"][0])
    assert [(x["index"], x["from"], x["end"]) for x in mine["lines"]] == [(1, k, k + 1)]
    assert [x["index"] for x in teachers["lines"]] == [0, 1, 2]
    states = unpack(mine)
    line_state = states[mine["lines"][0]["first"] + 1]
    assert line_state["variations"]["current"] == 1 and line_state["step"] == k + 1
    assert len(line_state["variations"]["main"]) == k and line_state["variations"]["editable"] is False
    assert "Real" not in json.dumps(states) and "Player 2's view" not in json.dumps(states)


def test_frames_of_lines_of_one_length_each_narrate_their_own_moves() -> None:
    """Lines of the same length opened one after another: each frame's events are its own line's (a closed
    line's game may leave its id to the next one's: the events were once taken from the wrong line by it).
    """
    from needle_widget.screen import display
    from needle_widget.screen.frames import Frames

    r = examples.load("long_with_reshuffle")
    start = r.branch(20)
    for action in start.legal_actions()[:4]:
        r.add_variation(20, [action])
    frames = Frames(r, "teacher")
    for _ in range(3):
        for index, variation in frames.lines():
            events = frames.line_at(index, 21)["events"]
            assert events == display.events(r.line(variation).final_game, "teacher"), index


@pytest.mark.parametrize(("seed", "watcher"), [(0, 0), (1, 1)])
def test_twins_through_a_reshuffle_a_seats_lines_and_page_are_the_same(seed: int, watcher: int) -> None:
    """Two games that differ only in a reshuffle's hidden order (tests/test_secrecy_reshuffle.py `twins`), with a
    world drawn from the watching seat's view and one from the spectator's, each played on a move: the seat's
    worlds, its synced states on the game and in both lines, and its exported page are identical; the teacher's
    page differs (it sees the pile's order).
    """
    import warnings

    from test_secrecy_reshuffle import twins

    from needle_widget.apps.export import GuessableSeedWarning, to_html

    for a, b, k in twins(seed, watcher, horizon=30):  # the games go on after each yield: keep their records
        records, step = [a.replay(), b.replay()], k
    assert records[0].steps != records[1].steps  # the reshuffle's recorded order differs
    for r in records:
        for seat in (watcher, "spectator"):
            world = world_for(r, step, seat, seed=5)
            moves = r.line(r.add_variation(step, [], world=world)).final_game.legal_actions()[:1]
            r.remove_variation(-1)
            r.add_variation(step, moves, world=world)
    assert records[0].variations == records[1].variations
    states = []
    for r in records:
        w = NeedleWidget.from_replay(r, perspective="teacher", step=step)
        w.perspective = watcher
        seen = [json.dumps(synced(w), sort_keys=True)]
        for item in w.variations["list"]:
            for k in range(item["step"], item["end"] + 1):
                ok(w, kind="line", variation=item["index"], to=k)
                seen.append(json.dumps(synced(w), sort_keys=True))
        states.append(seen)
    assert states[0] == states[1] and len(states[0]) == 5
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", GuessableSeedWarning)
        pages = {p: [to_html(r, perspective=p) for r in records] for p in (watcher, "teacher")}
    assert pages[watcher][0] == pages[watcher][1] and pages["teacher"][0] != pages["teacher"][1]
