"""Rollouts: a game played on to its end by two trusted bots, on the game's numbers alone, for its result.

A review values each decision by thousands of rollouts, and a rollout needs only the result: not the history,
not the views, not a copy of the game. `play_on` takes the state as plain numbers and lists (`Game.play_on`
gives them, and keeps its own), plays each action as `Game.apply_trusted` would, in one loop over local
integers, and returns the `Result`. Its draws are the numbers the game's generator would draw from where it
is (`draws.Stream`), so the result is the one `playout.play_out` gives on a copy, move for move; the test run
checks it over thousands of games of every rule variant (tests/test_rollout.py).

A bot plays here through its `choose_masks(rules, phase, hand_mask, table_mask, known_opponent_mask,
may_steal)`: the fields of its `PlayerView` it reads, and nothing else of the game. As on the trusted path,
it is asked only where it has a choice.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Final

from . import actions as A
from .actions import Action
from .bitmasks import FULL, has_set
from .cards import DECK, Card
from .draws import Stream
from .result import Reason, Result
from .rules import Rules, set_points

__all__ = ["Chooser", "Entry", "Record", "play_on"]

Chooser = Callable[[Rules, str, int, int, int, bool], Action]
"""A trusted bot's choice from the fields of its view it reads: (rules, phase, hand_mask, table_mask,
known_opponent_mask, may_steal) -> the action `choose_trusted(view)` gives."""

Entry = tuple[int, int, Action, tuple[Card, ...], tuple[tuple[Card, ...], ...]]
"""A log entry: an `Event`'s fields as a plain tuple (turn, player, action, cards drawn, reshuffles)."""

_NEEDLE: Final = 0
_DRAW: Final = 1
_SETS: Final = 2
_DISCARD: Final = 3
_TURN_END: Final = 4
_PHASES: Final = {"needle": _NEEDLE, "draw": _DRAW, "sets": _SETS, "discard": _DISCARD}
_POINTS: Final[dict[int, int]] = {}
"""A set's points (P1/P2) by its cards' mask, as `set_points` gives them: at most one entry per set of the deck."""
_STEAL: Final = A.Steal
_LAY_SET: Final = A.LaySet


def _nth(mask: int, n: int) -> int:
    """The index of the n-th set bit of `mask` (from 0, in index order)."""
    while n:
        mask &= mask - 1
        n -= 1
    return (mask & -mask).bit_length() - 1


class Record:
    """What a game keeps beyond a rollout's needs, for `play_on` to keep too when it plays a game itself
    (`Game.play_through`): the log, each player's shed and stolen cards, last steal and sets, the reshuffles,
    and where the game stands: the pile, the table, the turn, the player to move, the cards laid this turn and
    the phase, at the end, or before the choice where a chooser raised.
    """

    def __init__(self, log: list[Entry], shed: list[int], stolen: list[int], last_steal: list[int | None],
                 sets: list[list[tuple[Card, Card, Card]]], reshuffles: int, pile: list[int], table: int, turn: int,
                 to_move: int, laid: int, phase: str) -> None:
        self.log = log
        self.shed = shed
        self.stolen = stolen
        self.last_steal = last_steal
        self.sets = sets
        self.reshuffles = reshuffles
        self.at(pile, table, turn, to_move, laid, phase)

    def at(self, pile: list[int], table: int, turn: int, to_move: int, laid: int, phase: str) -> None:
        """Where the game stands (before each choice, and at the end): what it takes on if a chooser raises."""
        self.pile = pile
        self.table = table
        self.turn = turn
        self.to_move = to_move
        self.laid = laid
        self.phase = phase


def play_on(
    rules: Rules, choose: tuple[Chooser, Chooser], first: Action | None, draws: Stream, first_player: int,
    phase_name: str, to_move: int, turn: int, hands: list[int], pile: list[int], discards: list[int], table: int,
    needles: list[int], scores: list[int], known: list[int], next_steals: list[int], laid: int,
    extra_starts: tuple[int, ...], steal_gap: int, free_steal: bool, record: Record | None = None,
) -> Result:
    """The result of playing on from this state: `first` (if given, an action legal now), then each player's
    choice by `choose[p]` where they have one, to the end of the round. The lists are played on: pass copies.
    The chance draws are `draws`'s. With a `record`, also what a game keeps (`Record`).
    """
    max_turns, bonus, no_first_draw = rules.max_turns, rules.needle_bonus, rules.first_draw == "none"
    phase = _PHASES[phase_name]
    action = first
    reason: Reason | None = None
    owner = -1
    log = record.log if record is not None else None
    while True:
        if phase == _TURN_END:  # T5 done (or a sets phase that left no card): the next player's draw
            laid = 0
            if turn >= max_turns:
                reason = Reason.TURN_LIMIT
                break
            turn += 1
            to_move ^= 1
            phase = _DRAW
            if _no_draw(hands[to_move ^ 1], turn >= next_steals[to_move], pile, discards):
                reason = Reason.EXHAUSTED
                break
        p = to_move
        hand = hands[p]
        if phase == _DRAW:
            if action is None:
                may_steal = hands[1 - p] != 0 and turn >= next_steals[p]
                if not may_steal:
                    action = A.DRAW_PILE
                elif pile or len(discards) >= 2:
                    if record is not None:
                        record.at(pile, table, turn, p, laid, "draw")
                    action = choose[p](rules, "draw", hand, table, known[p], True)
                else:
                    action = A.STEAL
            shuffled: tuple[tuple[Card, ...], ...] = ()
            if type(action) is _STEAL:
                opponent = hands[1 - p]
                card = _nth(opponent, draws.below(opponent.bit_count()))
                bit = 1 << card
                hands[1 - p] = opponent ^ bit
                hands[p] = hand | bit
                known[1 - p] |= bit
                known[p] &= ~bit
                next_steals[p] = 4 if turn == 2 and free_steal and p != first_player else turn + steal_gap
                if record is not None:
                    record.stolen[p] |= bit
                    record.last_steal[p] = turn
            else:
                if not pile:
                    pile, table = _reshuffle(draws, discards, table)
                    if record is not None:
                        record.reshuffles += 1
                        shuffled = (_top_first(pile),)
                card = pile.pop()
                hands[p] = hand | 1 << card
            if log is not None:
                log.append((turn, p, action, (DECK[card],), shuffled))
            if card == needles[p]:
                reason, owner = Reason.FOUND, p
                break
            phase = _SETS
        elif phase == _SETS:
            if action is None:
                if not has_set(hand, extra_starts):
                    action = A.END_SETS
                else:
                    if record is not None:
                        record.at(pile, table, turn, p, laid, "sets")
                    action = choose[p](rules, "sets", hand, table, known[p], False)
            if type(action) is _LAY_SET:
                trio = action.cards
                x, y, z = trio
                mask = 1 << x.index | 1 << y.index | 1 << z.index
                hands[p] = hand ^ mask
                known[1 - p] &= ~mask
                table |= mask
                points = _POINTS.get(mask)
                if points is None:
                    points = _POINTS[mask] = set_points(trio)
                scores[p] += points
                laid += 1
                if record is not None:
                    record.shed[p] |= mask
                    record.sets[p].append(trio)
                if log is not None:
                    log.append((turn, p, action, (), ()))
                if needles[1 - p] >= 0 and mask >> needles[1 - p] & 1:
                    reason, owner = Reason.MELDED, 1 - p
                    break
            else:
                found = False
                drawn: list[int] = []
                shuffles: list[tuple[Card, ...]] = []
                for _ in range(3 * laid):
                    if not pile:
                        if len(discards) < 2:
                            break
                        pile, table = _reshuffle(draws, discards, table)
                        if record is not None:
                            record.reshuffles += 1
                            shuffles.append(_top_first(pile))
                    card = pile.pop()
                    hand |= 1 << card
                    if log is not None:
                        drawn.append(card)
                    if card == needles[p]:
                        found = True
                        break
                hands[p] = hand
                if log is not None:
                    log.append((turn, p, action, tuple([DECK[i] for i in drawn]), tuple(shuffles)))
                if found:
                    reason, owner = Reason.FOUND, p
                    break
                phase = _DISCARD if hand else _TURN_END
        elif phase == _DISCARD:
            if action is None:
                if not hand & (hand - 1):
                    action = A.DISCARD[hand.bit_length() - 1]
                else:
                    if record is not None:
                        record.at(pile, table, turn, p, laid, "discard")
                    action = choose[p](rules, "discard", hand, table, known[p], False)
            assert type(action) is A.Discard  # the only action of a discard phase
            index = action.card.index
            bit = 1 << index
            hands[p] = hand ^ bit
            known[1 - p] &= ~bit
            discards.append(index)
            table |= bit
            if record is not None:
                record.shed[p] |= bit
            if log is not None:
                log.append((turn, p, action, (), ()))
            if index == needles[1 - p]:
                reason, owner = Reason.DISCARDED, 1 - p
                break
            phase = _TURN_END
        else:
            if action is None:
                outside = FULL & ~hand
                if not outside & (outside - 1):  # one card outside the hand: the only needle
                    action = A.CHOOSE_NEEDLE[outside.bit_length() - 1]
                else:
                    if record is not None:
                        record.at(pile, table, turn, p, laid, "needle")
                    action = choose[p](rules, "needle", hand, table, known[p], False)
            assert type(action) is A.ChooseNeedle  # the only action of the needle phase
            needles[p] = action.card.index
            if log is not None:
                log.append((turn, p, action, (), ()))
            if p == 0:
                to_move = 1
            else:
                to_move = first_player
                turn = 1
                phase = _SETS if no_first_draw else _DRAW
                if phase == _DRAW and _no_draw(hands[1 - to_move], turn >= next_steals[to_move], pile, discards):
                    reason = Reason.EXHAUSTED
                    break
        action = None
    assert reason is not None  # the loop ends only with a reason
    if reason is Reason.FOUND:
        scores[owner] += bonus
    if record is not None:
        record.at(pile, table, turn, to_move, laid, "over")
    one, two = scores
    return Result(None if one == two else (0 if one > two else 1), reason, (one, two), owner if owner >= 0 else None,
                  DECK[needles[owner]] if owner >= 0 else None, turn)


def _no_draw(opponent: int, steal_due: bool, pile: list[int], discards: list[int]) -> bool:
    """E4: the player to move may neither steal (T1/T2) nor draw from the pile (D1)."""
    return not (opponent and steal_due) and not (pile or len(discards) >= 2)


def _top_first(pile: list[int]) -> tuple[Card, ...]:
    """A new pile as the log keeps it: cards, top first."""
    return tuple([DECK[i] for i in reversed(pile)])


def _reshuffle(draws: Stream, discards: list[int], table: int) -> tuple[list[int], int]:
    """D1: the discards but the top one shuffled into a new pile (top last), and the table without them."""
    rest = discards[:-1]
    del discards[:-1]
    for i in rest:
        table &= ~(1 << i)
    draws.shuffle(rest)
    return rest, table
