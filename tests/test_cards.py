"""Cards (docs/RULES.md C1; `needle_widget.engine.cards.Card`): parsing, formatting, identity."""

from __future__ import annotations

import copy
import pickle

import pytest
from conftest import ALL_CARDS

from needle_widget import Card, CardError


@pytest.mark.parametrize("text", ["10h", "10H", "TH", "th", "10♥", "T♥", " 10h ", "10♡"])
def test_parse_ten_of_hearts_in_every_spelling(text: str) -> None:
    card = Card.parse(text)
    assert card is Card.parse("10H")
    assert (card.rank, card.suit, card.code, str(card)) == (10, "H", "10H", "10♥")


@pytest.mark.parametrize(
    "text, code, shown, rank, suit",
    [
        ("q♦", "QD", "Q♦", 12, "D"),
        ("Qd", "QD", "Q♦", 12, "D"),
        ("as", "AS", "A♠", 1, "S"),
        ("A♠", "AS", "A♠", 1, "S"),
        ("1h", "AH", "A♥", 1, "H"),  # the engine accepts 1 for the ace
        ("2c", "2C", "2♣", 2, "C"),
        ("j♣", "JC", "J♣", 11, "C"),
        ("kS", "KS", "K♠", 13, "S"),
    ],
)
def test_parse_is_case_insensitive_and_formats(text: str, code: str, shown: str, rank: int, suit: str) -> None:
    card = Card.parse(text)
    assert card.code == code
    assert str(card) == shown
    assert card.rank == rank
    assert card.suit == suit


@pytest.mark.parametrize("text", ["", "x", "11h", "0h", "10", "h10", "QX", "10hh", "AH KH", "14S", "♥"])
def test_bad_text_raises_value_error_quoting_it(text: str) -> None:
    with pytest.raises(ValueError) as info:
        Card.parse(text)
    assert isinstance(info.value, CardError)
    assert repr(text) in str(info.value)


@pytest.mark.parametrize("value", [None, 10, 3.5, ["10H"]])
def test_non_text_raises_value_error(value: object) -> None:
    with pytest.raises(ValueError, match="Not a card"):
        Card.parse(value)  # type: ignore[arg-type]


def test_parse_returns_a_card_unchanged() -> None:
    card = Card.parse("7h")
    assert Card.parse(card) is card


def test_52_distinct_cards_with_every_rank_and_suit() -> None:  # R-C1
    assert len(ALL_CARDS) == 52
    assert len(set(ALL_CARDS)) == 52
    assert len({c.code for c in ALL_CARDS}) == 52
    assert len({str(c) for c in ALL_CARDS}) == 52
    assert {(c.rank, c.suit) for c in ALL_CARDS} == {(r, s) for r in range(1, 14) for s in "CDHS"}


def test_every_code_and_str_parses_back_to_the_same_card() -> None:
    for card in ALL_CARDS:
        assert Card.parse(card.code) is card
        assert Card.parse(str(card)) is card
        assert Card.parse(card.code.lower()) is card


def test_face_cards_are_jack_queen_king() -> None:  # R-C1
    assert {c.rank for c in ALL_CARDS if c.is_face} == {11, 12, 13}


def test_constructor_gives_the_one_instance() -> None:
    assert Card(12, "D") is Card.parse("QD")
    with pytest.raises(ValueError):
        Card(14, "D")
    with pytest.raises(ValueError):
        Card(1, "X")


def test_cards_are_immutable() -> None:
    card = Card.parse("7h")
    with pytest.raises(AttributeError):
        card.rank = 8  # type: ignore[misc]


def test_pickling_and_copying_keep_identity() -> None:
    for card in ALL_CARDS:
        assert pickle.loads(pickle.dumps(card)) is card
        assert copy.copy(card) is card
        assert copy.deepcopy(card) is card
    assert pickle.loads(pickle.dumps(list(ALL_CARDS))) == list(ALL_CARDS)


def test_equality_and_hashing() -> None:
    a, b = Card.parse("10h"), Card.parse("TH")
    assert a == b and hash(a) == hash(b)
    assert a != Card.parse("10d")
    assert a != "10H"
    assert len({a, b, Card.parse("10♥")}) == 1
