"""Fuzz twins of a student's seat, the class's screen source (issue 44): two rooms lead twin lessons, whose replays
differ only in a card of Player 2's hand (with the same variations: the real cards, and worlds drawn from each
seat's view), and a Player 1 student in each sends the same random sequence of the screen's requests: steps and
lines along what was received, back to live, the review, practice, and requests that are refused (a move, a new
deal, an answer with no question, values no field takes, kinds it does not know); the teacher moves the class on,
into variations and back, and asks and reveals questions, between them. After every request the two students'
screens are the same, byte for byte, refusals included; Player 2's students' differ (the card is theirs).
Seeded, bounded.
"""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
from test_class_twins import Channel, an_answer, close, twin_rooms
from test_class_twins import settle as settle_twin
from test_class_variations import EVERYONE, MINE, with_lines
from test_secrecy import play_twins

from needle_widget.classroom import ClassError

pytestmark = pytest.mark.untraced

NOISE = (None, -1, 999, "x", 2.5, True)
REQUESTS = 90


def screen(student: Any) -> str:
    return json.dumps(student.state(), sort_keys=True, ensure_ascii=False)


def request(student: Any, message: dict[str, Any]) -> str:
    """The student's answer to `message`: "ok", or the refusal's words (which the twin must match too)."""
    try:
        student.request(message)
    except Exception as refused:  # a NeedleError's words are what the screen shows
        return f"{type(refused).__name__}: {refused}"
    return "ok"


def a_request(rng: random.Random, state: dict[str, Any]) -> dict[str, Any]:
    """A request the screen might send now, or a malformed one."""
    step = state.get("step") or 0
    lines = [item["index"] for item in ((state.get("variations") or {}).get("list") or [])]
    choices = [
        {"kind": "step", "to": rng.choice([step - 1, step + 1, 0, rng.randrange(0, step + 2), *NOISE])},
        {"kind": "line", "variation": rng.choice([*lines, None, *NOISE]), "to": rng.choice([None, step, step + 1])},
        {"kind": "live"},
        {"kind": "review", "open": rng.choice([True, False, "yes"])},
        {"kind": "practice", "open": rng.choice([True, False, None])},
        {"kind": "act", "action": {"type": "draw_pile"}},
        {"kind": "new_game", "deal": "new"},
        {"kind": "quiz_answer", "index": rng.choice([0, 1, None]), "answer": rng.choice(["pile", 0.4, ["AC"]])},
        {"kind": rng.choice(["branch", "perspective", "worlds", "hack"]), "to": "teacher"},
    ]
    return rng.choice(choices)


@pytest.mark.parametrize("seed", [2, 5])
def test_a_student_s_screen_stays_the_same_for_twin_lessons_whatever_it_asks(tmp_path: Any, seed: int) -> None:
    a, b = list(play_twins(seed, hidden_owner=1, watcher=0, steps=60))[-1]
    records = [g.replay() for g in (a, b)]
    k = len(records[0]) // 2
    for r in records:
        with_lines(r, k)
    assert records[0].deck != records[1].deck
    channel = Channel("folder", tmp_path)
    rooms = twin_rooms(channel, [0, 1])
    lessons = [room.lead(replay, perspective="assigned") for (room, _), replay in zip(rooms, records, strict=True)]
    rng = [random.Random(f"class fuzz {seed}"), random.Random(f"class fuzz {seed}")]
    teacher = random.Random(f"teacher {seed}")
    differed = compared = 0
    accepted: set[str] = set()
    for n in range(REQUESTS):
        if n % 6 == 0:  # the teacher: on a step, into a variation or back, a question, a reveal
            move, ahead = teacher.random(), teacher.choice([1, 2, 3])
            into, kind = teacher.choice([MINE, EVERYONE]), teacher.choice(["needle", "pile_or_steal", "next_draw"])
            for lesson in lessons:
                if move < 0.5:
                    lesson.go(min(lesson.step + ahead, len(lesson.replay)))
                elif move < 0.65 and lesson.reached >= k:
                    lesson.go(k + 1, line=into)
                elif move < 0.8 and lesson.open_question is None:
                    try:
                        lesson.ask(kind)
                    except ClassError:
                        pass  # not askable at this step (the same for both twins)
                elif lesson.open_question is not None:
                    lesson.reveal()
            teacher.seed(f"teacher {seed} {n}")
        for twin, lesson in enumerate(lessons):
            assert (lesson.step, lesson.line, len(lesson.asked)) == \
                (lessons[0].step, lessons[0].line, len(lessons[0].asked)), twin
        for twin, (room, students) in enumerate(rooms):
            settle_twin(room, students, channel, twin)
        answers, asked = [], []
        for twin, (_, (s0, s1)) in enumerate(rooms):
            asked.append(a_request(rng[twin], s0.state()))
            answers.append(request(s0, asked[-1]))
            quiz = s0.state()["quiz_state"]
            if quiz and not quiz["question"]["answered"] and quiz["reveal"] is None and rng[twin].random() < 0.3:
                s0.answer(an_answer(s0))
            if s1.state()["quiz_state"] and not s1.state()["quiz_state"]["question"]["answered"] \
                    and s1.state()["quiz_state"]["reveal"] is None:
                s1.answer(an_answer(s1))
        for twin, (room, students) in enumerate(rooms):
            settle_twin(room, students, channel, twin)
        assert answers[0] == answers[1], (n, answers)
        if answers[0] == "ok":
            accepted.add(asked[0]["kind"])
        mine = [screen(students[0]) for _, students in rooms]
        assert mine[0] == mine[1], f"request {n}: Player 1's screens differ"
        compared += 1
        differed += screen(rooms[0][1][1]) != screen(rooms[1][1][1])
    assert compared == REQUESTS and differed > REQUESTS // 2  # Player 2's screens show the card that differs
    assert {"step", "line", "live"} <= accepted, accepted
    close(rooms)


def test_a_student_s_screen_stays_the_same_for_twin_matches_through_the_review_and_practice(
        tmp_path: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    """Twin matches (a card of Bob's hand swapped with the pile's bottom card): Ann plays the same moves in both
    (never touching the two cards, never stealing) and, once the deal is over and reviewed, sends the same random
    requests: the review, practice and its own requests (attempts judged on her kernel's thread), steps, back.
    """
    from test_class_match import _action
    from test_class_own_practice import judged
    from test_class_twins import as_action
    from test_secrecy import touches, twin_decks

    from needle_widget import Game
    from needle_widget.classroom import match as match_module

    deck_a, deck_b, x, y = twin_decks(4, hidden_owner=1)
    channel = Channel("folder", tmp_path)
    rooms = twin_rooms(channel, [0, 1])
    for twin, deck in enumerate((deck_a, deck_b)):
        room, students = rooms[twin]
        room.record.worlds = 8  # a review at 8 worlds a decision: fast, and it marks this deal's moves
        with monkeypatch.context() as m:
            m.setattr(match_module, "Game", lambda seed, rules, deck=deck: Game(seed=seed, rules=rules, deck=deck))
            room.match(deals=1, seed=4)
            settle_twin(room, students, channel, twin)
    rng = [random.Random(4), random.Random(4)]
    for _ in range(300):
        games = [room.latest("match").tables[0].game for room, _ in rooms]
        if games[0].is_over or games[0].pile_size <= 1:
            break
        for twin, (room, students) in enumerate(rooms):
            mover = next(s for s in students if s.state()["can_act"])
            legal = sorted((a for a in mover.state()["table"]["legal_actions"]
                            if not touches(_action(a), {x, y}) and not (mover.index == 0 and a["type"] == "steal")),
                           key=lambda a: json.dumps(a, sort_keys=True))
            mover.act(as_action(rng[twin].choice(legal)))
            settle_twin(room, students, channel, twin)
    for room, _ in rooms:  # the deal played on to its end by the match's bot (both twins alike for Ann)
        room.end_match()
        assert room.wait_for_reviews(120)
    for twin, (room, students) in enumerate(rooms):
        settle_twin(room, students, channel, twin)
    assert screen(rooms[0][1][0]) == screen(rooms[1][1][0])
    assert rooms[0][1][0].state()["offers"]["practice"]["count"] >= 1, rooms[0][1][0].state()["offers"]
    fuzz = [random.Random("practice fuzz"), random.Random("practice fuzz")]
    accepted: set[str] = set()
    for n in range(40):
        answers, asked = [], []
        for twin, (_, (ann, _bob)) in enumerate(rooms):
            state = ann.state()
            practice = state["practice_state"]
            options = [a_request(fuzz[twin], state), {"kind": "review", "open": True},
                       {"kind": "practice", "open": True}]
            if practice:
                legal = state["table"]["legal_actions"]
                move = {"kind": "act", "action": as_action(fuzz[twin].choice(legal))} if legal else {"kind": "live"}
                options += [move,
                            {"kind": fuzz[twin].choice(["practice_retry", "practice_show", "practice_next"]),
                             "index": practice["index"]}]
            asked.append(fuzz[twin].choice(options))
            answers.append(request(ann, asked[-1]))
            if ann.state()["practice_state"] and ann.state()["practice_state"]["phase"] == "judging":
                judged(ann)
        assert answers[0] == answers[1], (n, asked, answers)
        if answers[0] == "ok":
            accepted.add(asked[0]["kind"])
        assert screen(rooms[0][1][0]) == screen(rooms[1][1][0]), f"request {n}: Ann's screens differ"
    assert {"review", "practice", "act"} <= accepted, accepted
    # Homework (issue 45): Ann's own exercises, on her screen alike in both rooms, practised alike
    for room, (ann, _bob) in rooms:
        request(ann, {"kind": "live"})
        room.assign_practice()
    for twin, (room, students) in enumerate(rooms):
        settle_twin(room, students, channel, twin)
    assert rooms[0][1][0].state()["follow"]["homework"]["assigned"] >= 1
    assert screen(rooms[0][1][0]) == screen(rooms[1][1][0])
    for n, message in enumerate([{"kind": "homework", "open": True}, {"kind": "practice_show", "index": 0},
                                 {"kind": "practice_next", "index": 0}, {"kind": "live"}]):
        answers = [request(ann, message) for _, (ann, _bob) in rooms]
        assert answers[0] == answers[1], (n, message, answers)
        for twin, (room, students) in enumerate(rooms):
            settle_twin(room, students, channel, twin)
        assert screen(rooms[0][1][0]) == screen(rooms[1][1][0]), f"homework request {n}: Ann's screens differ"
    assert rooms[0][0].homework_progress()["S0"] == rooms[1][0].homework_progress()["S0"]  # Ann: S0
    histories = [json.dumps(ann.history().__dict__, sort_keys=True, default=str) for _, (ann, _bob) in rooms]
    assert histories[0] == histories[1] and '"games": [{' in histories[0]  # her term, alike: her own seat's figures
    assert screen(rooms[0][1][1]) != screen(rooms[1][1][1])  # Bob's screens show his own card
    close(rooms)
