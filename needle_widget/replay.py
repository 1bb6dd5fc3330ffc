"""Replay: a versioned JSON record of one game, checked on load, any step in an instant.

The format (``"format": "needle-replay"``, ``"version": 1``), for tools written around it::

    {
      "format": "needle-replay",
      "version": 1,
      "rules": {"hand_size": 7, "first_player": 0, "steal_every": 3, "ace": "low",
                "needle_bonus": 0, "max_turns": 300},
      "seed": 7,                  # the game's generator seed (int >= 0)
      "deck": ["8S", ...],        # the 52 cards as dealt: Player 1's hand, Player 2's, then the pile top first
      "first_player": 0,          # who took turn 1 (0 or 1)
      "players": ["greedy", "human"],   # a bot's name or "human", per seat
      "actions": [                # every action in order
        {"player": 0, "turn": 0, "type": "choose_needle", "card": "7H"},
        {"player": 0, "turn": 1, "type": "draw_pile", "cards": ["QD"]},
        {"player": 1, "turn": 2, "type": "steal", "cards": ["9C"]},        # the stolen card (chance)
        {"player": 0, "turn": 3, "type": "lay_set", "cards": ["4C", "5H", "6H"]},
        {"player": 0, "turn": 3, "type": "end_sets", "drawn": ["2D", "KC", "8H"]},
        {"player": 0, "turn": 3, "type": "discard", "card": "KC"},
        {"player": 1, "turn": 40, "type": "draw_pile", "cards": ["3S"],
         "reshuffle": ["3S", "JD", ...]}                                  # D1: the new pile, top first (chance)
      ],
      "result": {"winner": 0, "reason": "discarded", "scores": [3, 1],
                 "needle_owner": 1, "needle": "7H", "turn": 57}   # or null while in progress
    }

An action's fields are those of `actions.Action.to_dict()`; "cards" on draw_pile and
steal, and "drawn" on end_sets, list the cards that entered the player's hand.
Loading re-applies every action through the engine with the recorded chance
outcomes (`Game.apply_recorded`), so a replay reproduces without trusting the
generator, and compares every recorded card and the result. Any problem raises
ReplayError (a ValueError) naming the place: "action 17: Discard 9♣ not allowed:
Player 2 does not hold 9♣".
"""

from __future__ import annotations

import json
import os
import stat
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from . import actions as A
from .cards import Card
from .errors import NeedleError, ReplayError
from .game import Game
from .result import Result
from .rules import Rules
from .seats import player_name

FORMAT = "needle-replay"
VERSION = 1
SNAPSHOT_EVERY = 8
MAX_FILE_BYTES = 32 * 2**20
"""The largest replay file `Replay.load` reads (a round of `rules.MAX_TURNS` turns is about 5 MB)."""
MAX_NAME_LENGTH = 100
_TOP_KEYS = {"format", "version", "rules", "seed", "deck", "first_player", "players", "actions", "result"}


@dataclass(frozen=True)
class Step:
    """One recorded action: who, on which turn, what, and its chance outcome."""

    player: int
    turn: int
    action: A.Action
    cards: tuple[Card, ...] = ()
    """Cards that entered the player's hand: the pile draw, the stolen card, the replenished cards."""
    reshuffle: tuple[Card, ...] | None = None
    """The new draw pile (top first) if this action reshuffled the discards (D1)."""

    def to_dict(self) -> dict[str, Any]:
        """The JSON form of this step (see the module docstring)."""
        data: dict[str, Any] = {"player": self.player, "turn": self.turn, **self.action.to_dict()}
        if type(self.action) is A.EndSets:
            data["drawn"] = [c.code for c in self.cards]
        elif self.cards:
            data["cards"] = [c.code for c in self.cards]
        if self.reshuffle is not None:
            data["reshuffle"] = [c.code for c in self.reshuffle]
        return data


class Replay:
    """A finished (or paused) game, step by step.

    >>> from needle_widget import Game, actions
    >>> g = Game(seed=7)
    >>> g.apply(actions.ChooseNeedle("7h")); g.apply(actions.ChooseNeedle("QS")); g.apply(actions.DrawPile())
    >>> r = Replay.from_json(g.replay().to_json())
    >>> len(r), r.game_at(2).phase, r.game_at(3).hand(0) == g.hand(0)
    (3, 'draw', True)
    """

    def __init__(self, rules: Rules, seed: int, deck: Sequence[Card], first_player: int,
                 players: Sequence[str], steps: Sequence[Step], result: dict | None = None) -> None:
        self.rules = rules
        self.seed = seed
        self.deck: tuple[Card, ...] = tuple(deck)
        self.first_player = first_player
        self.players: tuple[str, str] = (players[0], players[1])
        self.steps: tuple[Step, ...] = tuple(steps)
        self._snapshots: list[Game] = []
        self._final: Game | None = None
        self._rebuild(result)

    # ---- making and reading -------------------------------------------------------

    @classmethod
    def from_game(cls, game: Game) -> Replay:
        """The record of `game` so far (`Game.replay()` calls this)."""
        steps = [
            Step(e.player, e.turn, e.action, e.cards, e.reshuffles[0] if e.reshuffles else None)
            for e in game.history
        ]
        result = game.result.to_dict() if game.result else None
        return cls(game.rules, game.seed, game.deck, game.first_player, game.players, steps, result)

    def to_dict(self) -> dict[str, Any]:
        """The whole record as a JSON-ready dict (see the module docstring)."""
        return {
            "format": FORMAT,
            "version": VERSION,
            "rules": self.rules.to_dict(),
            "seed": self.seed,
            "deck": [c.code for c in self.deck],
            "first_player": self.first_player,
            "players": list(self.players),
            "actions": [s.to_dict() for s in self.steps],
            "result": self.result.to_dict() if self.result else None,
        }

    def to_json(self, indent: int | None = None) -> str:
        """The JSON text; one action per line when `indent` is None (diff-friendly)."""
        if indent is not None:
            return json.dumps(self.to_dict(), indent=indent, ensure_ascii=False)
        data = self.to_dict()
        steps = data.pop("actions")
        head = json.dumps(data, ensure_ascii=False)[:-1]
        lines = ",\n  ".join(json.dumps(s, ensure_ascii=False) for s in steps)
        return f'{head}, "actions": [\n  {lines}\n]}}\n' if steps else f'{head}, "actions": []}}\n'

    def save(self, path: str | os.PathLike) -> None:
        """Write `to_json()` to `path`."""
        with open(path, "w", encoding="utf-8") as f:
            f.write(self.to_json())

    @classmethod
    def load(cls, path: str | os.PathLike) -> Replay:
        """Read and check a replay file; any problem raises ReplayError naming the file."""
        name = os.fspath(path)
        try:
            info = os.stat(path)
            if not stat.S_ISREG(info.st_mode):
                raise ReplayError(f"Cannot read replay {name!r}: not a regular file")
            if info.st_size > MAX_FILE_BYTES:
                raise ReplayError(
                    f"Replay {name!r} is too big: {info.st_size:,} bytes, "
                    f"more than {MAX_FILE_BYTES // 2**20} MB ({MAX_FILE_BYTES:,} bytes): over the limit"
                )
            with open(path, encoding="utf-8") as f:
                text = f.read(MAX_FILE_BYTES + 1)
        except (OSError, UnicodeDecodeError) as error:
            raise ReplayError(f"Cannot read replay {os.fspath(path)!r}: {error}") from None
        try:
            return cls.from_json(text)
        except ReplayError as error:
            raise ReplayError(f"{os.fspath(path)}: {error}") from None

    @classmethod
    def from_json(cls, text: str | bytes) -> Replay:
        """Read and check a replay from its JSON text; any problem raises ReplayError."""
        if len(text) > MAX_FILE_BYTES:
            raise ReplayError(f"Not a replay: {len(text):,} characters is over the limit of {MAX_FILE_BYTES:,}")
        try:
            data = json.loads(text)
        except (ValueError, RecursionError) as error:
            raise ReplayError(f"Not a replay: invalid JSON ({error})") from None
        return cls.from_dict(data)

    @classmethod
    def from_dict(cls, data: Any) -> Replay:
        """Check every field, then re-apply every action; raise ReplayError at the first problem."""
        if not isinstance(data, dict):
            raise ReplayError(f"Not a replay: expected a JSON object, got {type(data).__name__}")
        if data.get("format") != FORMAT:
            raise ReplayError(f"Not a replay: format is {data.get('format')!r}, expected {FORMAT!r}")
        version = data.get("version")
        if version != VERSION or type(version) is not int:
            raise ReplayError(f"Unsupported replay version {version!r}; this needle_widget reads version {VERSION}")
        missing = sorted(_TOP_KEYS - set(data))
        unknown = sorted(set(data) - _TOP_KEYS)
        if missing or unknown:
            raise ReplayError(
                "Replay fields: " + "; ".join(
                    ([f"missing {', '.join(missing)}"] if missing else [])
                    + ([f"unknown {', '.join(unknown)}"] if unknown else [])
                )
            )
        try:
            rules = Rules.from_dict(data["rules"])
        except (NeedleError, TypeError) as error:
            raise ReplayError(f"rules: {error}") from None
        seed = data["seed"]
        if type(seed) is not int or seed < 0:
            raise ReplayError(f"seed: {seed!r} is not an integer >= 0")
        deck = _cards(data["deck"], "deck")
        if len(deck) != 52 or len(set(deck)) != 52:
            raise ReplayError(f"deck: {len(deck)} cards, {len(set(deck))} different; a deck is the 52 cards once each")
        first = data["first_player"]
        if first not in (0, 1) or type(first) is not int:
            raise ReplayError(f"first_player: {first!r} is not 0 or 1")
        if rules.first_player != "random" and rules.first_player != first:
            raise ReplayError(f"first_player: {first} contradicts rules.first_player {rules.first_player}")
        players = data["players"]
        if not isinstance(players, list) or len(players) != 2 or not all(isinstance(p, str) for p in players):
            raise ReplayError(f"players: {players!r}"[:200] + " is not a list of two names")
        for name in players:
            _check_name(name)
        raw_steps = data["actions"]
        if not isinstance(raw_steps, list):
            raise ReplayError(f"actions: expected a list, got {type(raw_steps).__name__}")
        steps = [_step(raw, k) for k, raw in enumerate(raw_steps)]
        result = data["result"]
        if result is not None and not isinstance(result, dict):
            raise ReplayError(f"result: {result!r} is neither null nor an object")
        return cls(rules, seed, deck, first, players, steps, result)

    # ---- stepping -----------------------------------------------------------------

    def __len__(self) -> int:
        """The number of recorded actions."""
        return len(self.steps)

    @property
    def result(self) -> Result | None:
        """How the recorded game ended, or None if it is in progress."""
        return self._final.result

    @property
    def final_game(self) -> Game:
        """A copy of the game after every action."""
        return self._final.copy()

    def game_at(self, k: int) -> Game:
        """A new Game after the first `k` actions (0 = dealt, needles not yet picked; len(self) = the end).

        Fast for any k: it copies the nearest stored snapshot and applies at most
        a few recorded actions.
        """
        if type(k) is not int or not 0 <= k <= len(self.steps):
            raise ReplayError(f"step {k!r} is out of range 0..{len(self.steps)}")
        base = k // SNAPSHOT_EVERY
        game = self._snapshots[base].copy()
        for step in self.steps[base * SNAPSHOT_EVERY : k]:
            _apply(game, step)
        return game

    def branch(self, k: int) -> Game:
        """The real game after the first `k` actions, live and independent of this replay: "play from here".

        Its generator state is the one the original game had at that step (the
        replay re-applies each recorded chance outcome and advances the generator as
        the original did), so applying the recorded actions from here on with plain
        `apply` reproduces the original, steals and reshuffles included; any other
        action starts a new line of play. Fast for any k (as `game_at`); a bad k
        raises ReplayError.

        One record cannot tell two originals apart: a game dealt from a given deck
        under `first_player="random"` that drew the first player from the generator
        (`Game(deck=...)`) or was told it (`Game(deck=..., first_player=...)`); a
        branch follows the second. A game dealt by its seed alone is always exact.

        >>> from needle_widget import Game
        >>> g = Game(seed=7)
        >>> for _ in range(30):
        ...     g.apply(g.legal_actions()[-1])
        >>> b = g.replay().branch(10)
        >>> for event in g.history[10:]:
        ...     b.apply(event.action)
        >>> b.snapshot() == g.snapshot()
        True
        """
        return self.game_at(k)

    def _rebuild(self, result: dict | None) -> None:
        dealt = Game(rules=self.rules, seed=self.seed)
        if dealt.deck != self.deck or dealt.first_player != self.first_player:
            dealt = Game(rules=self.rules, seed=self.seed, deck=self.deck, first_player=self.first_player)
        dealt.players = self.players
        game = dealt
        self._snapshots = [game.copy()]
        for k, step in enumerate(self.steps):
            where = f"action {k} ({step.action})"
            if game.phase == "over":
                raise ReplayError(f"{where}: the round was already over ({game.result.describe()})")
            if step.player != game.to_move or step.turn != game.turn:
                raise ReplayError(
                    f"{where}: recorded as {player_name(step.player)} on turn {step.turn}, but it is "
                    f"{player_name(game.to_move)}'s move on turn {game.turn}"
                )
            try:
                _apply(game, step)
            except NeedleError as error:
                raise ReplayError(f"{where}: {error}") from None
            happened = game.event(-1).cards
            if happened != step.cards:
                raise ReplayError(
                    f"{where}: recorded cards {' '.join(map(str, step.cards)) or 'none'}, but the game gives "
                    f"{' '.join(map(str, happened)) or 'none'}"
                )
            if (k + 1) % SNAPSHOT_EVERY == 0:
                self._snapshots.append(game.copy())
        actual = game.result.to_dict() if game.result else None
        if result != actual:
            raise ReplayError(f"result: recorded {result!r}, but the actions give {actual!r}")
        self._final = game

    def __repr__(self) -> str:
        end = self.result.describe() if self.result else "in progress"
        return f"<Replay seed={self.seed}, {len(self)} actions, {self.players[0]} vs {self.players[1]}: {end}>"


def _apply(game: Game, step: Step) -> None:
    stolen = step.cards[0] if type(step.action) is A.Steal and step.cards else None
    game.apply_recorded(step.action, stolen=stolen, reshuffle=step.reshuffle)


def _check_name(name: str) -> None:
    """A player's name must be savable, showable and sendable: UTF-8 text of at most MAX_NAME_LENGTH characters."""
    if not 0 < len(name) <= MAX_NAME_LENGTH:
        raise ReplayError(f"players: a name must have 1 to {MAX_NAME_LENGTH} characters, not {len(name)}")
    try:
        name.encode("utf-8")
    except UnicodeEncodeError:
        raise ReplayError(f"players: {name!r} cannot be encoded as UTF-8 (a lone surrogate)") from None


def _cards(value: Any, where: str) -> list[Card]:
    if not isinstance(value, list):
        raise ReplayError(f"{where}: expected a list of card codes, got {value!r}"[:200])
    try:
        return [Card.parse(c) for c in value]
    except NeedleError as error:
        raise ReplayError(f"{where}: {error}") from None


def _step(raw: Any, k: int) -> Step:
    where = f"action {k}"
    if not isinstance(raw, dict):
        raise ReplayError(f"{where}: expected an object, got {raw!r}"[:200])
    player, turn = raw.get("player"), raw.get("turn")
    if player not in (0, 1) or type(player) is not int:
        raise ReplayError(f"{where}: player {player!r} is not 0 or 1")
    if type(turn) is not int or turn < 0:
        raise ReplayError(f"{where}: turn {turn!r} is not an integer >= 0")
    fields = {key: v for key, v in raw.items() if key not in ("player", "turn", "drawn", "reshuffle")}
    kind = raw.get("type")
    cards: tuple[Card, ...] = ()
    if kind in ("draw_pile", "steal"):
        cards = tuple(_cards(fields.pop("cards", None), f"{where} cards"))
        if len(cards) != 1:
            raise ReplayError(f"{where}: a {kind} moves exactly one card, recorded {len(cards)}")
    elif "drawn" in raw and kind != "end_sets":
        raise ReplayError(f"{where}: only end_sets records drawn cards")
    if kind == "end_sets":
        cards = tuple(_cards(raw.get("drawn", []), f"{where} drawn"))
    try:
        action = A.from_dict(fields)
    except NeedleError as error:
        raise ReplayError(f"{where}: {error}") from None
    reshuffle = None
    if "reshuffle" in raw:
        reshuffle = tuple(_cards(raw["reshuffle"], f"{where} reshuffle"))
    return Step(player, turn, action, cards, reshuffle)
