"""Twins at a class reveal (issue 29, A): a "winner" question revealed before the end shows who won,
never the opponent's hidden needle that ended the round; once the class reaches the end it may.
"""

from __future__ import annotations

import json

from test_class_twins import Channel, an_answer, close, settle, twin_rooms

from needle_widget import Game
from needle_widget.engine import actions
from needle_widget.engine.rules import Rules


def needle_twins(seed: int = 0, i: int = 5, j: int = 14) -> tuple[Game, Game]:
    """Twin games that differ only in Player 2's needle (two pile cards swapped, Player 2 choosing the
    card at pile position `i`); Player 2 finds it after step 10, Player 1 never sees either card.
    """
    pile = list(Game(seed=seed).draw_pile)
    c, d = pile[i], pile[j]
    deck = list(Game(seed=seed).deck)
    decks = (deck, [d if x == c else c if x == d else x for x in deck])
    games = [Game(rules=Rules(max_turns=30), seed=seed, deck=k) for k in decks]
    mine = pile[25]
    for g in games:
        g.apply(actions.ChooseNeedle(mine))
        g.apply(actions.ChooseNeedle(g.draw_pile[i]))
    a, b = games
    while not a.is_over:
        act = (actions.DrawPile() if a.phase == "draw" else actions.EndSets() if a.phase == "sets" else
               next(actions.Discard(x) for x in a.hand(a.to_move) if x not in (c, d, mine)))
        a.apply(act), b.apply(act)
    assert a.result.needle_owner == 1 and {a.result.needle, b.result.needle} == {c, d}
    return a, b


def test_a_winner_reveal_at_step_10_names_no_hidden_needle(tmp_path):
    games = needle_twins()
    replays = [g.replay() for g in games]
    needles = [str(g.result.needle) for g in games]
    channel = Channel("folder", tmp_path)
    rooms = twin_rooms(channel, [0, 0])
    lessons, boards, states = [], [], []
    for twin, ((room, students), replay) in enumerate(zip(rooms, replays, strict=True)):
        lesson = room.lead(replay, perspective=0)
        lesson.go(10)
        settle(room, students, channel, twin)
        lesson.ask("winner", 10)
        settle(room, students, channel, twin)
        students[0].answer(an_answer(students[0]))
        settle(room, students, channel, twin)
        lesson.reveal()
        settle(room, students, channel, twin)
        lessons.append(lesson)
        boards.append(lesson.truth_line(lesson.asked[-1]))
        states.append(json.dumps(students[0].state()["quiz_state"], sort_keys=True, ensure_ascii=False))
        states.append(json.dumps(students[1].state()["quiz_state"], sort_keys=True, ensure_ascii=False))
    assert "Player 2 found their needle" in boards[0] and "wins" in boards[0] or "draw" in boards[0]
    assert boards[0] == boards[1]
    assert states[0] == states[2] and states[1] == states[3]
    boxes = [channel.box(twin, k) for twin in (0, 1) for k in (0, 1)]
    assert boxes[0] == boxes[2] and boxes[1] == boxes[3], "a Player-1 student's messages differ between twins"
    for twin in (0, 1):
        for text in (boards[twin], states[2 * twin], states[2 * twin + 1]):
            assert needles[twin] not in text
        assert needles[twin] in lessons[twin].replay.result.describe()  # the twins do differ (teacher's view)
    assert lessons[0].public_result(1) != lessons[1].public_result(1)  # and so does Player 2's
    for twin, (room, students) in enumerate(rooms):  # at the end the needle is public
        lessons[twin].go(len(replays[twin]))
        settle(room, students, channel, twin)
        assert needles[twin] in lessons[twin].truth_line(lessons[twin].asked[-1])
        assert needles[twin] in json.dumps(students[0].state()["quiz_state"], ensure_ascii=False)
    close(rooms)
