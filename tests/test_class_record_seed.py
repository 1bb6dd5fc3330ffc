"""The record cannot be predicted (issue 43, item 2). A game's review draws its worlds from a seed derived from
the room's secret and the game (`seal.seed_of`), never from a constant a student's kernel could use to draw the
same worlds before moving and play whichever candidate the record will value highest. The student's own Review
panel of that game shows the record's figure, and no message to the student holds the seed.
"""

from __future__ import annotations

import random

import pytest
from conftest import settle
from test_class_match import play_round

from needle_widget import classroom
from needle_widget.classroom.record import seat_figures
from needle_widget.classroom.seal import seed_of, unseal
from needle_widget.screen.reviewpanel import REVIEW_SEED

WORLDS = 8


def finished_game(tmp_path, secret, name):
    room = classroom.open(f"folder:{tmp_path}/{name}", secret=secret, start=False, worlds=WORLDS)
    ann = classroom.join(room.url, room.invite("Ann").code, start=False)
    settle(room, ann)
    room.challenge(seed=11)
    settle(room, ann)
    play_round(room, [ann], random.Random(2))  # random legal moves: many decisions off the reference policy
    assert room.wait_for_reviews(120)
    settle(room, ann)
    ann.request({"kind": "review", "open": True})
    return room, ann


def test_the_record_values_a_game_on_worlds_only_the_room_can_draw(tmp_path):
    secrets = (b"a" * 32, b"b" * 32)
    played = [finished_game(tmp_path, secret, f"room{k}") for k, secret in enumerate(secrets)]
    try:
        (first, ann), (second, _) = played
        entry, = first.record.entries
        replay = first.record_replay(entry.game).to_dict()
        assert replay == second.record_replay(1).to_dict()  # the same game in both rooms
        mine = seed_of(secrets[0], "review", entry.source)
        assert (entry.adjusted, entry.skill, entry.luck) == seat_figures(replay, 0, WORLDS, seed=mine)
        public = seat_figures(replay, 0, WORLDS, seed=REVIEW_SEED)  # what a student's kernel could compute
        assert entry.adjusted != public[0]
        other, = second.record.entries
        assert other.adjusted != entry.adjusted  # another room's secret, other worlds
        panel = ann.state()["review"]  # the student's own Review panel shows the record's figure
        assert panel["status"] == "ready"
        assert panel["reviews"][0]["luck_adjusted"] == pytest.approx(entry.adjusted, abs=1e-3)
        texts = [str(unseal(ann._key, first.name, "in.0", data)[1]) for data in boxes(first, 0)]
        assert texts and not any(str(mine) in t for t in texts)  # the seed never reaches the student
    finally:
        for room, student in played:
            student.close()
            room.close()


def boxes(room, index):
    """Every message still in student `index`'s in-box."""
    return [data for _, _, data in room.channel.read({f"in.{index}": 0})]
