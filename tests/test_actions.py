"""Actions (`needle_widget.engine.actions`): frozen dataclasses, JSON round trip, text parsing, bad input."""

from __future__ import annotations

import dataclasses
import json

import pytest

from needle_widget import Card, IllegalAction, actions
from needle_widget.engine.actions import Action, ChooseNeedle, Discard, DrawPile, EndSets, LaySet, Steal

EXAMPLES: list[Action] = [
    ChooseNeedle(Card.parse("7h")),
    DrawPile(),
    Steal(),
    LaySet((Card.parse("4c"), Card.parse("5h"), Card.parse("6h"))),
    EndSets(),
    Discard(Card.parse("QD")),
]


def all_simple_actions() -> list[Action]:
    every: list[Action] = [DrawPile(), Steal(), EndSets()]
    for i in range(52):
        card = Card.from_index(i)
        every += [ChooseNeedle(card), Discard(card)]
    return every


@pytest.mark.parametrize("action", EXAMPLES, ids=str)
def test_actions_are_frozen(action: Action) -> None:
    field_names = [f.name for f in dataclasses.fields(action)] or ["anything"]
    with pytest.raises(dataclasses.FrozenInstanceError):
        setattr(action, field_names[0], None)


@pytest.mark.parametrize("action", EXAMPLES, ids=str)
def test_to_dict_from_dict_round_trip_through_json(action: Action) -> None:
    data = action.to_dict()
    assert json.loads(json.dumps(data)) == data
    back = actions.from_dict(json.loads(json.dumps(data)))
    assert back == action
    assert type(back) is type(action)


def test_round_trip_for_every_card_action() -> None:
    for action in all_simple_actions():
        assert actions.from_dict(action.to_dict()) == action
        assert actions.parse(str(action)) == action


def test_json_form_uses_card_codes() -> None:
    assert Discard("10♥").to_dict() == {"type": "discard", "card": "10H"}
    assert ChooseNeedle("q♦").to_dict() == {"type": "choose_needle", "card": "QD"}
    assert LaySet(("6h", "4c", "5h")).to_dict() == {"type": "lay_set", "cards": ["4C", "5H", "6H"]}
    assert DrawPile().to_dict() == {"type": "draw_pile"}
    assert Steal().to_dict() == {"type": "steal"}
    assert EndSets().to_dict() == {"type": "end_sets"}


def test_actions_accept_card_text_and_compare_by_value() -> None:
    assert Discard("7h") == Discard(Card.parse("7H"))
    assert hash(Discard("7h")) == hash(Discard("7♥"))
    assert ChooseNeedle("TH") == ChooseNeedle("10h")
    assert DrawPile() == DrawPile() and Steal() != DrawPile()


def test_lay_set_is_order_insensitive() -> None:
    a = LaySet(("6h", "4c", "5h"))
    assert a == LaySet(("4c", "5h", "6h")) == LaySet("5h 6h 4c")
    assert [c.code for c in a.cards] == ["4C", "5H", "6H"]


@pytest.mark.parametrize("given", [("4c", "5h"), ("4c", "5h", "6h", "7h"), ()])
def test_lay_set_needs_three_cards(given: tuple[str, ...]) -> None:
    with pytest.raises(IllegalAction, match="exactly 3 cards"):
        LaySet(given)  # type: ignore[arg-type]


def test_str_is_readable() -> None:
    assert [str(a) for a in EXAMPLES] == [
        "Choose needle 7♥",
        "Draw from pile",
        "Steal from opponent",
        "Lay set 4♣ 5♥ 6♥",
        "Done laying sets",
        "Discard Q♦",
    ]


@pytest.mark.parametrize(
    "text, expected",
    [
        ("draw", DrawPile()),
        ("Draw from pile", DrawPile()),
        ("steal", Steal()),
        ("end", EndSets()),
        ("done", EndSets()),
        ("discard 7h", Discard("7h")),
        ("DISCARD 7♥", Discard("7h")),
        ("needle 7h", ChooseNeedle("7h")),
        ("choose needle qd", ChooseNeedle("QD")),
        ("lay 4c 5h 6h", LaySet(("4c", "5h", "6h"))),
        ("lay set 6h, 5h, 4c", LaySet(("4c", "5h", "6h"))),
    ],
)
def test_parse_text(text: str, expected: Action) -> None:
    assert actions.parse(text) == expected


@pytest.mark.parametrize(
    "text", ["", "   ", "fly", "discard", "discard 7x", "discard 7h 8h", "needle", "lay 4c 5h", "lay"]
)
def test_parse_bad_text_raises_illegal_action_quoting_it(text: str) -> None:
    with pytest.raises(IllegalAction) as info:
        actions.parse(text)
    assert isinstance(info.value, ValueError)
    assert repr(text) in str(info.value) or "exactly 3 cards" in str(info.value)


MALFORMED: list[object] = [
    None,
    "draw_pile",
    ["draw_pile"],
    {},
    {"type": "fly"},
    {"type": None},
    {"type": "DRAW_PILE"},
    {"type": ["draw_pile"]},  # unhashable type values once raised TypeError
    {"type": {"a": 1}},
    {"type": "draw_pile", "card": "7H"},
    {"type": "steal", "extra": 1},
    {"type": "discard"},
    {"type": "discard", "card": "7X"},
    {"type": "discard", "card": 7},
    {"type": "discard", "card": None},
    {"type": "discard", "card": ["7H"]},
    {"type": "discard", "cards": ["7H"]},
    {"type": "choose_needle", "card": "11H"},
    {"type": "choose_needle", "card": "7H", "player": 0},
    {"type": "lay_set"},
    {"type": "lay_set", "cards": "4C 5H 6H"},
    {"type": "lay_set", "cards": None},
    {"type": "lay_set", "cards": ["4C", "5H"]},
    {"type": "lay_set", "cards": ["4C", "5H", "6H", "7H"]},
    {"type": "lay_set", "cards": ["4C", "5H", "ZZ"]},
    {"type": "lay_set", "cards": [4, 5, 6]},
    {"type": "lay_set", "cards": [{"card": "4C"}, "5H", "6H"]},
]


@pytest.mark.parametrize("data", MALFORMED, ids=repr)
def test_malformed_dicts_raise_illegal_action(data: object) -> None:
    with pytest.raises(IllegalAction) as info:
        actions.from_dict(data)
    assert isinstance(info.value, ValueError)


@pytest.mark.parametrize("data", [{"type": "fly"}, {"type": "discard", "card": "7X"}, None], ids=repr)
def test_malformed_dict_message_quotes_the_input(data: object) -> None:
    with pytest.raises(IllegalAction) as info:
        actions.from_dict(data)
    assert repr(data) in str(info.value)


def test_a_lay_of_thousands_of_cards_is_refused_in_a_few_words() -> None:
    """The refusal quotes at most six of the cards it was given: a class's student may send thousands, and the
    words go back to their screen (issue 43).
    """
    with pytest.raises(IllegalAction, match=r"got 3000: (2♠ ){6}\.\.\.$"):
        actions.LaySet(["2s"] * 3000)
