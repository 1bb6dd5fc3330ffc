"""A screen narrates the real game only for the perspective it is entitled to at home, through every branch
(issue 43, item 3): "Play from here" and a hotseat cover's reveal switch the perspective shown to a seat of the
branch's own game, never to a seat of the real one. The main line, the variations and their events, the notes
and the seed are the real game's: narrated for the screen's own perspective (the reviewer's seat), whatever the
branch shows; and a variation opened from the move list is shown within the home's entitlement.
"""

from __future__ import annotations

import json
from typing import Any

from test_whatif_widget import twin_pair

from needle_widget import NeedleWidget, examples
from needle_widget.screen import display

_ids = iter(range(1, 10**9))


def synced(widget: NeedleWidget) -> str:
    """Every synced trait as JSON (sorted keys), without the widget's own ids and the request's id."""
    data = widget.get_state()
    for key in ("_esm", "_css", "_anywidget_id", "layout"):
        data.pop(key, None)
    if isinstance(data.get("answer"), dict):
        data["answer"] = {**data["answer"], "id": None}
    return json.dumps(data, sort_keys=True, ensure_ascii=False)


def ask(widget: NeedleWidget, **request: Any) -> dict[str, Any]:
    """A browser request with an id; Python's answer."""
    request_id = next(_ids)
    widget._on_message(widget, {**request, "id": request_id}, [])
    assert widget.answer["id"] == request_id
    return widget.answer


def ok(widget: NeedleWidget, **request: Any) -> None:
    answer = ask(widget, **request)
    assert answer["ok"], (request, answer)


def play_on(widget: NeedleWidget, moves: int) -> None:
    """A few moves of the shown live game, from Python (a hotseat's cover revealed first)."""
    for _ in range(moves):
        if widget.game.phase == "over":
            return
        widget.apply(widget.game.legal_actions()[-1])


def test_a_hotseat_what_if_from_player_2s_spoiler_free_review_narrates_the_main_line_from_player_2s_seat() -> None:
    """The issue's scenario: Player 2's spoiler-free review, "Play from here" in a sampled world with a hotseat
    opponent, the screen passed to Player 1 (the cover's reveal). The branch's own game is shown from Player 1's
    seat (a sampled game: no real hidden card); the main line beside it is still Player 2's, and Player 1's real
    needle appears nowhere.
    """
    replay = examples.load("found_early")
    needle = replay.final_game.needle(0)
    w = NeedleWidget.from_replay(replay, perspective="p2", spoilers=False, step=6)
    at_home = w.events
    assert at_home == display.events(replay.cut(6).final_game, 1)
    ok(w, kind="branch", seat=1, opponent="hotseat", world="sampled")
    assert w.cover is not None and w.cover["player"] == 0
    ok(w, kind="reveal")
    assert (w.mode, w.perspective) == ("hotseat", 0)
    assert w.game.needle(0) != needle, "the branch's game is sampled: another needle for Player 1"
    lines = w.variations
    assert lines["current"] is not None and lines["main"] == at_home
    told = {"step": 1, "turn": 0, "player": 0, "text": f"You picked {needle} as your needle."}
    assert told not in lines["main"] and told not in w.events
    assert all(told not in item["events"] for item in lines["list"])
    for item in lines["list"]:
        own = display.events(replay.line(replay.variations[item["index"]]).final_game, 1)
        assert item["events"] == own[item["step"]:], "every line narrated for Player 2"
    play_on(w, 3)
    assert w.variations["main"] == at_home
    ok(w, kind="back")
    assert (w.mode, w.perspective, w.events) == ("replay", 1, at_home)


def test_twins_a_hotseat_what_if_looks_the_same_to_the_reviewer_whichever_seat_the_branch_shows() -> None:
    """Two replays that differ only in what Player 2 cannot see (Player 1's hand, needle and draws): Player 2's
    spoiler-free review, a hotseat branch in a world drawn from Player 2's view, the cover revealed to either
    seat, moves, the branch's round over: every synced trait is the same for both, byte for byte.
    """
    game, twin = twin_pair(1, 6)
    states: list[list[str]] = [[], []]
    for side, g in enumerate((game, twin)):
        w = NeedleWidget.from_replay(g.replay(), perspective=1, spoilers=False, step=len(g) - 4)
        ok(w, kind="branch", seat=1, opponent="hotseat", world="sampled")
        for _ in range(60):
            if w.cover is not None:
                ok(w, kind="reveal")
            states[side].append(synced(w))
            if w.game.phase == "over":
                break
            w.apply(w.game.legal_actions()[-1])
        states[side].append(synced(w))
        for perspective in w.perspectives:  # the branch's round is over: every perspective of its game opens
            ok(w, kind="perspective", to=perspective)
            states[side].append(synced(w))
        ok(w, kind="back")
        states[side].append(synced(w))
    assert game.view("teacher") != twin.view("teacher")
    assert states[0] == states[1]


def test_a_variation_opened_on_a_players_screen_opens_no_perspective_the_game_keeps_from_it() -> None:
    """Player 1's screen, the round over with `reveal_at_end=False` (Player 1 and the spectator only): a line
    of its own opened from the move list is shown within that entitlement. The teacher's perspective (the real
    game's every card, and every variation) is refused there as at home, and the main line stays Player 1's.
    """
    game, _twin = twin_pair(0, 8)
    w = NeedleWidget(game=game.copy(), perspective=0, reveal_at_end=False)
    play_on(w, 200)
    assert w.game.phase == "over" and w.perspectives == [0, "spectator"]
    real, at_home = w.game, w.events
    w.step = len(w.game) - 3
    ok(w, kind="branch", seat=0, opponent="greedy", world="sampled")
    play_on(w, 2)
    ok(w, kind="back")
    index = w.variations["list"][0]["index"]
    ok(w, kind="line", variation=index)
    assert w.perspectives == [0, "spectator"]
    answer = ask(w, kind="perspective", to="teacher")
    assert answer["ok"] is False and "Cannot switch to perspective 'teacher'" in answer["error"]
    assert w.perspective == 0 and w.variations["main"] == at_home
    ok(w, kind="perspective", to="spectator")
    assert w.variations["main"] == display.events(real, "spectator")
    ok(w, kind="line", variation=None)
    assert (w.mode, w.perspective, w.perspectives) == ("live", "spectator", [0, "spectator"])


def test_the_seed_of_a_branch_is_named_only_where_the_screen_holds_the_teachers_perspective_at_home() -> None:
    """A branch's text names the replay's seed in the teacher's perspective of a teacher's screen: not when the
    branch opens the teacher's perspective of its own game (its round over) while the screen showed Player 2.
    """
    replay = examples.load("found_early")
    w = NeedleWidget.from_replay(replay, perspective=1, step=6)
    ok(w, kind="branch", seat=1, opponent="hotseat", world="sampled")
    for _ in range(60):
        if w.cover is not None:
            ok(w, kind="reveal")
        if w.game.phase == "over":
            break
        w.apply(w.game.legal_actions()[-1])
    ok(w, kind="perspective", to="teacher")
    assert "of seed" not in w.branch_info["text"] and str(replay.seed) not in synced(w)
    ok(w, kind="back")
    ok(w, kind="perspective", to="teacher")
    ok(w, kind="branch", seat=1, opponent="hotseat", world="sampled")
    w.perspective = "teacher"
    assert f"of seed {replay.seed}" in w.branch_info["text"]


def test_twins_of_a_reshuffle_s_order_look_the_same_to_the_reviewer_through_a_hotseat_what_if() -> None:
    """Twin games that differ only in a reshuffle's order the reviewer never draws from (tests/test_secrecy_
    reshuffle.py's twins): Player 2's spoiler-free review of each, "Play from here" in a sampled world with a
    hotseat opponent, the cover revealed to Player 1, a few moves and back. Every synced byte is the same for
    the twins at each of those steps, the main line beside the branch included; the teacher's views differ.
    """
    from test_secrecy_reshuffle import twins

    watcher = 1
    pairs = [(a.copy(), b.copy()) for a, b, _ in twins(0, watcher, horizon=8)]
    assert pairs, "no reshuffle twins for this seed"
    a, b = pairs[-1]
    assert a.replay().to_dict() != b.replay().to_dict()
    screens = [NeedleWidget.from_replay(g.replay(), perspective=watcher, spoilers=False, step=len(g)) for g in (a, b)]
    teachers = [NeedleWidget.from_replay(g.replay(), perspective="teacher", step=len(g)) for g in (a, b)]
    assert synced(teachers[0]) != synced(teachers[1]), "the twins are twins"
    requests = [dict(kind="branch", seat=watcher, opponent="hotseat", world="sampled"), dict(kind="reveal")]
    assert synced(screens[0]) == synced(screens[1])
    for request in requests:
        for w in screens:
            ok(w, **request)
        assert synced(screens[0]) == synced(screens[1]), request
    assert screens[0].perspective == 1 - watcher, "the branch is shown from the other seat"
    assert screens[0].variations["main"] == display.events(a, watcher), "the main line is still the reviewer's"
    for w in screens:
        play_on(w, 3)
    assert synced(screens[0]) == synced(screens[1])
    for w in screens:
        ok(w, kind="back")
    assert synced(screens[0]) == synced(screens[1])
