"""Variations: lines of play kept beside a replay's game, each from a step of it, with the game's own
cards or with a possible world drawn from one seat's view.

A `Variation` is a value: the main-line `step` it starts from (the position after that many actions
of the game), its moves (`steps`, each a `steps.Step` with its chance outcome, so it replays exactly),
where its hidden cards come from (`world`), an optional `name`, and notes on its moves. `Replay` keeps
a replay's variations and saves them (`Replay.add_variation`); the file format is in
`needle_widget.records.replay`.

Where the hidden cards come from decides who may open a variation (`Variation.open_to`):

| world                                   | its line holds                        | open to               |
| None: the real cards                    | the game's own deal and draws         | the teacher           |
| a `World` drawn from seat 0's (1's) view | seat 0's (1's) real cards, the rest drawn | that seat, the teacher |
| a `World` drawn from the spectator's view | no hidden card of the game at all     | everyone              |

(A screen adds what it may reveal: every perspective once the round is over with `reveal_at_end`.)

A `World` is the possible world as a record: the deal and the actions that give, at the variation's
step, exactly the view the seat had (`World.check` re-applies them and compares the views), with the
`seed` that drew it (`needle_widget.inference.worlds.world_for` draws one from the seat's view alone,
so a world carries nothing of the game that the seat could not see).

>>> from needle_widget import examples
>>> r = examples.load("found_early")
>>> v = r.add_variation(6, r.branch(6).legal_actions()[:1], name="The other draw")
>>> v.step, len(v), v.world is None, v.open_to("teacher"), v.open_to(0)
(6, 1, True, True, False)
>>> r.line(v).steps[6] == v.steps[0], len(r.line(v))
(True, 7)
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from ..engine.cards import Card
from ..engine.errors import ReplayError
from ..engine.errors import quote as _quote
from ..engine.game import Game
from ..engine.rules import Rules
from ..engine.seats import Perspective, player_name
from .notes import Note, NoteStepError, check_viewer, note_list
from .steps import Step, cards_of, play

__all__ = ["MAX_NAME_LENGTH", "MAX_VARIATIONS", "MAX_VARIATION_STEPS", "Variation", "VariationError",
           "VariationNotFound", "World", "WORLD_SEATS"]

MAX_VARIATIONS = 100
"""The most variations a replay keeps (checking one on load re-applies up to two rounds' actions)."""
MAX_VARIATION_STEPS = 20_000
"""The most moves all of a replay's variations hold together."""
MAX_NAME_LENGTH = 100
"""The longest name of a variation, in characters."""
WORLD_SEATS: tuple[Perspective, ...] = (0, 1, "spectator")
"""The views a world may be drawn from: a player's, or the spectator's."""
_VARIATION_KEYS = ("name", "step", "world", "actions", "notes")
_WORLD_KEYS = ("seat", "seed", "deck", "actions")


class VariationError(ReplayError):
    """A variation that cannot be kept (its step, moves, world or name), or one that is not there;
    the message quotes the bad input. A ReplayError: a file with a bad variation raises it with the
    variation's index in front ("variation 2: ...").
    """


class VariationNotFound(VariationError):
    """An index or a variation the replay does not have."""


@dataclass(frozen=True)
class World:
    """A possible world drawn from `seat`'s view (0, 1 or "spectator") by a sampler seeded with `seed`,
    as a record: its deal (`deck`, the 52 cards as dealt) and its actions up to the variation's step
    (`steps`, with their chance outcomes). Every entry is the world's own, the ones that agree with the
    game's too: which of them agree is itself what the seat could not see.
    """

    seat: Perspective
    seed: int
    deck: tuple[Card, ...]
    steps: tuple[Step, ...] = ()

    def __post_init__(self) -> None:
        if not (type(self.seat) in (int, str) and self.seat in WORLD_SEATS):
            raise VariationError(f"world seat {_quote(self.seat)} is not 0, 1 or 'spectator'")
        if type(self.seed) is not int or self.seed < 0:
            raise VariationError(f"world seed {_quote(self.seed)} is not an integer >= 0")
        if len(self.deck) != 52 or len(set(self.deck)) != 52:
            raise VariationError(f"world deck: {len(self.deck)} cards, {len(set(self.deck))} different; "
                                 "a deck is the 52 cards once each")

    @classmethod
    def of(cls, world: Game, seat: Perspective, seed: int) -> World:
        """The world `world` (a live Game the sampler drew from `seat`'s view, with `seed`) as a record."""
        return cls(seat, seed, tuple(world.deck), tuple(Step.of(e) for e in world.history))

    def check(self, rules: Rules, first_player: int, step: int, view: dict) -> Game:
        """The world's game at `step`, re-applied from its deal; VariationError if it is not at `step` or
        does not give `view` (the seat's view of the game at that step) exactly.
        """
        if len(self.steps) != step:
            raise VariationError(f"the world records {len(self.steps)} actions, but its variation starts at "
                                 f"step {step}")
        world = Game.dealt(rules, self.seed, self.deck, first_player)
        play(world, self.steps, label="world action")
        if world.view(self.seat) != view:
            raise VariationError(f"the world does not give {_seat_name(self.seat)}'s view at step {step}: "
                                 "it is not a world that seat could not tell from the game")
        return world

    def to_dict(self) -> dict[str, Any]:
        """{"seat", "seed", "deck", "actions"}."""
        return {"seat": self.seat, "seed": self.seed, "deck": [c.code for c in self.deck],
                "actions": [s.to_dict() for s in self.steps]}

    @classmethod
    def from_dict(cls, data: Any) -> World:
        """The world a `to_dict` gave; anything else raises VariationError (a ReplayError)."""
        if not isinstance(data, dict):
            raise VariationError(f"world must be 'real' or an object, not {_quote(data)}")
        unknown = sorted(str(key) for key in data if key not in _WORLD_KEYS)
        missing = [key for key in _WORLD_KEYS if key not in data]
        if unknown or missing:
            raise VariationError("world fields: " + "; ".join(
                ([f"unknown {', '.join(unknown)}"] if unknown else []) + ([f"missing {', '.join(missing)}"]
                                                                          if missing else [])))
        raw = data["actions"]
        if not isinstance(raw, list):
            raise VariationError(f"world actions: expected a list, got {type(raw).__name__}")
        if len(raw) > MAX_VARIATION_STEPS:
            raise VariationError(f"world actions: {len(raw):,}, more than {MAX_VARIATION_STEPS:,}")
        steps = tuple(Step.from_dict(item, k, "world action") for k, item in enumerate(raw))
        return cls(data["seat"], data["seed"], tuple(cards_of(data["deck"], "world deck")), steps)


@dataclass(frozen=True)
class Variation:
    """A line of play from the main line's `step`: its moves (`steps`), where its hidden cards come from
    (`world`: None for the real cards, or a `World`), an optional `name`, and `notes` on its moves (at
    steps step + 1 to `end`, counted along the line). Checked against the replay by `Replay`; made here,
    it checks only its own fields.
    """

    step: int
    steps: tuple[Step, ...] = ()
    world: World | None = None
    name: str | None = None
    notes: tuple[Note, ...] = ()

    def __post_init__(self) -> None:
        if type(self.step) is not int or self.step < 0:
            raise VariationError(f"variation step {_quote(self.step)} is not an integer >= 0")
        name: object = self.name  # as given: a file's variation may name itself anything
        if name is not None:
            if not isinstance(name, str) or not name.strip() or len(name) > MAX_NAME_LENGTH:
                raise VariationError(f"variation name {_quote(name)} is not 1 to {MAX_NAME_LENGTH} characters")
            try:
                name.encode("utf-8")
            except UnicodeEncodeError:
                raise VariationError(f"variation name {_quote(self.name)} cannot be saved as UTF-8") from None
        for note in self.notes:
            if not self.step < note.step <= self.end:
                raise NoteStepError(f"note step {note.step} is not on this variation's moves "
                                    f"(steps {self.step + 1}..{self.end})" if self.steps else
                                    f"note step {note.step}: this variation has no moves to note yet")

    def __len__(self) -> int:
        """The number of moves."""
        return len(self.steps)

    @property
    def end(self) -> int:
        """The step its last move reaches, counted along the line (`step` + its moves)."""
        return self.step + len(self.steps)

    @property
    def real(self) -> bool:
        """Whether it plays the game's own cards (no sampled world)."""
        return self.world is None

    def open_to(self, perspective: Perspective) -> bool:
        """Whether `perspective` may open it (the table in the module docstring)."""
        viewer = check_viewer(perspective)
        if viewer == "teacher":
            return True
        if self.world is None:
            return False
        return self.world.seat == "spectator" or self.world.seat == viewer

    def source(self) -> str:
        """Where its cards come from, in words: "the real cards", "a world drawn from Player 2's view"."""
        if self.world is None:
            return "the real cards"
        return f"a possible world drawn from {_seat_name(self.world.seat)}'s view"

    def label(self, index: int) -> str:
        """Its name, or "Variation {index + 1}"."""
        return self.name if self.name is not None else f"Variation {index + 1}"

    def notes_for(self, perspective: Perspective) -> tuple[Note, ...]:
        """Its notes `perspective` may read (`notes.Note.visible_to`)."""
        return tuple(note for note in self.notes if note.visible_to(perspective))

    def to_dict(self) -> dict[str, Any]:
        """The JSON form: name (if any), step, world ("real" or the world's object), actions, notes (if any)."""
        data: dict[str, Any] = {} if self.name is None else {"name": self.name}
        data["step"] = self.step
        data["world"] = "real" if self.world is None else self.world.to_dict()
        data["actions"] = [s.to_dict() for s in self.steps]
        if self.notes:
            data["notes"] = [n.to_dict() for n in self.notes]
        return data

    @classmethod
    def from_dict(cls, data: Any) -> Variation:
        """The variation a `to_dict` gave (its fields only: `Replay` checks it against the game)."""
        if not isinstance(data, dict):
            raise VariationError(f"a variation must be an object with a step and actions, not {_quote(data)}")
        unknown = sorted(str(key) for key in data if key not in _VARIATION_KEYS)
        if unknown:
            raise VariationError(f"unknown fields {', '.join(map(_quote, unknown))}; "
                                 f"a variation has {', '.join(_VARIATION_KEYS)}")
        for key in ("step", "world", "actions"):
            if key not in data:
                raise VariationError(f"the variation has no {key}")
        world = None if data["world"] == "real" else World.from_dict(data["world"])
        raw = data["actions"]
        if not isinstance(raw, list):
            raise VariationError(f"variation actions: expected a list, got {type(raw).__name__}")
        if len(raw) > MAX_VARIATION_STEPS:
            raise VariationError(f"variation actions: {len(raw):,} moves, more than {MAX_VARIATION_STEPS:,}")
        steps = tuple(Step.from_dict(item, k) for k, item in enumerate(raw))
        step = data["step"]
        end = step + len(steps) if type(step) is int else 0
        notes = note_list(data.get("notes", []), end)
        return cls(step, steps, world, data.get("name"), tuple(notes))


def _seat_name(seat: Perspective) -> str:
    """A world's seat in words: "Player 1", "Player 2" or "the spectator" (a World's seat is one of WORLD_SEATS)."""
    return player_name(seat) if isinstance(seat, int) else "the spectator"


def check_all(variations: Iterable[Any]) -> list[Variation]:
    """Variations (Variations or their dicts) as a list, each bad one with its index; the limits on
    their count and moves. Their fit to the game is `Replay`'s to check.
    """
    if isinstance(variations, (str, bytes, dict, Variation)) or not isinstance(variations, Iterable):
        raise VariationError(f"variations must be a list of variations, not {_quote(variations)}")
    items = list(variations)
    if len(items) > MAX_VARIATIONS:
        raise VariationError(f"variations: {len(items):,}, more than a replay keeps ({MAX_VARIATIONS})")
    out = []
    for k, item in enumerate(items):
        try:
            out.append(item if isinstance(item, Variation) else Variation.from_dict(item))
        except ReplayError as error:
            raise type(error)(f"variation {k}: {error}") from None
    moves = sum(len(v) for v in out)
    if moves > MAX_VARIATION_STEPS:
        raise VariationError(f"variations: {moves:,} moves in all, more than {MAX_VARIATION_STEPS:,}")
    return out
