"""A replay's file: the versioned JSON text of one game's record, written (`Replay.to_json`, `Replay.save`)
and read back checked (`Replay.load`, `Replay.from_json`, `Replay.from_dict`).

The format (``"format": "needle-replay"``, ``"version": 2`` or ``3``), for tools written around it::

    {
      "format": "needle-replay",
      "version": 2,               # 1, 2 or 3: this needle_widget reads all three; it writes 3 for a
                                  # replay with variations, else 2
      "rules": {"hand_size": 7, "first_player": 0, "steal_every": 3, "ace": "low",
                "needle_bonus": 0, "max_turns": 300},
      "seed": 7,                  # the game's generator seed (int >= 0)
      "deck": ["8S", ...],        # the 52 cards as dealt: Player 1's hand, Player 2's, then the pile top first
      "first_player": 0,          # who took turn 1 (0 or 1)
      "players": ["greedy", "human"],   # a bot's name or "human", per seat
      "result": {"winner": 0, "reason": "discarded", "scores": [3, 1],
                 "needle_owner": 1, "needle": "7H", "turn": 57},  # or null while in progress
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
      "notes": [                  # version 2, optional: absent when there are none
        {"step": 0, "text": "Watch the discards."},                       # for everyone
        {"step": 12, "text": "Why steal here?", "perspective": 1,         # for Player 2 (and the teacher)
         "question": {"kind": "pile_or_steal"}},
        {"step": 30, "text": "Who wins?", "perspective": "spectator",
         "question": {"kind": "winner", "prompt": "Who is ahead now, and why?"}}
      ],
      "variations": [             # version 3, optional: absent when there are none
        {"name": "Steal instead", "step": 12, "world": "real",            # the game's own cards
         "actions": [{"player": 1, "turn": 5, "type": "steal", "cards": ["9C"]}, ...],
         "notes": [{"step": 13, "text": "Better?"}]},                     # optional, on its moves
        {"step": 20, "world": {"seat": 0, "seed": 3, "deck": ["2S", ...], # a world drawn from Player 1's view
                               "actions": [...]},                         # its record of steps 0..19
         "actions": [...]}
      ]
    }

An action's fields are those of `actions.Action.to_dict()`; "cards" on draw_pile and
steal, and "drawn" on end_sets, list the cards that entered the player's hand.
Loading re-applies every action through the engine with the recorded chance
outcomes (`Game.apply_recorded`), so a replay reproduces without trusting the
generator, and compares every recorded card and the result. Any problem raises
ReplayError (a ValueError) naming the place: "action 17: Discard 9♣ not allowed:
Player 2 does not hold 9♣". Files are read up to MAX_FILE_BYTES.

Notes (version 2; `needle_widget.records.notes`) are a teacher's words tied to a step, the
position after that many actions (0 to the number of actions, as `Replay.game_at`).
Variations (version 3; `needle_widget.records.variations`) are lines of play kept beside the game,
each from a main-line "step" (the position after that many actions; the round not over there), with
its "actions" in the same form as the game's (each with its chance outcome), an optional "name" and
"notes" on its moves (steps step + 1 to step + its actions). "world" is "real" (the game's own cards:
the line continues the game's record) or a possible world drawn from one seat's view: its "seat" (0,
1 or "spectator"), the "seed" that drew it, and its own record up to the step ("deck", "actions"),
which must give that seat exactly the view it had of the game there. Loading re-applies every line
and checks it so; a bad one is refused with its index ("variation 2: ..."). At most
`variations.MAX_VARIATIONS` variations and `variations.MAX_VARIATION_STEPS` moves in all. A replay
without variations is written as version 2, byte for byte as before, so older needle_widgets read it.

A note has "step" and "text" (1 to `notes.MAX_TEXT_LENGTH` characters), and may have
"perspective" (0, 1, "spectator" or "teacher": who it is written for; absent or null:
everyone) and "question" ({"kind": one of `notes.QUESTION_KINDS`, "prompt": optional
words}); no other fields. A writer lists them in step order (notes at one step in the
order they were added) and a reader sorts them so; at most MAX_NOTES. A bad note is
refused with its index: "note 3: note perspective 2 is not 0, 1, 'spectator',
'teacher' or None". A version 1 file has no "notes"; a version 2 file without notes
is the version 1 text with "version": 2, byte for byte. A version above 3 is refused.
Saved with `to_json()` (the default), the text has one action and one note per line,
the actions after the other fields and the notes last; its fields are in the order above.
"""

from __future__ import annotations

import json
import os
import stat
from typing import TYPE_CHECKING, Any, NamedTuple

from ..engine.cards import Card
from ..engine.errors import NeedleError, ReplayError
from ..engine.rules import Rules
from .jsontext import parse
from .notes import Note, note_list
from .steps import Step, cards_of

if TYPE_CHECKING:
    from .replay import Replay

__all__ = ["FORMAT", "MAX_FILE_BYTES", "MAX_NAME_LENGTH", "READS", "VERSION", "Fields", "fields", "json_text", "parsed",
           "read", "record"]

FORMAT = "needle-replay"
VERSION = 3
"""The newest version this needle_widget writes: 3 for a replay with variations, else 2 (which older
needle_widgets read)."""
READS = (1, 2, 3)
"""The versions it reads: 1 (no notes), 2 (optional notes) and 3 (optional notes and variations)."""
MAX_FILE_BYTES = 32 * 2**20
"""The largest replay file `Replay.load` reads (a round of `rules.MAX_TURNS` turns is about 5 MB)."""
MAX_NAME_LENGTH = 100
"""The longest player's name a replay keeps, in characters."""
_TOP_KEYS = {"format", "version", "rules", "seed", "deck", "first_player", "players", "actions", "result"}
_OPTIONAL_KEYS = {2: {"notes"}, 3: {"notes", "variations"}}
"""Top-level fields a version may have besides _TOP_KEYS."""


class Fields(NamedTuple):
    """A replay file's fields, each checked on its own (`fields`); `Replay` checks them against each other
    by re-applying the actions, and the variations against the game.
    """

    rules: Rules
    seed: int
    deck: list[Card]
    first_player: int
    players: list[str]
    steps: list[Step]
    result: dict | None
    notes: list[Note]
    variations: list[Any]
    """As the file gives them (Variations' dicts): `Replay` checks them."""


def record(replay: Replay) -> dict[str, Any]:
    """The whole record of `replay` as a JSON-ready dict (see the module docstring); "notes" only if there
    are some, "variations" (and version 3) only if there are some, else version 2.
    """
    data = {
        "format": FORMAT,
        "version": VERSION if replay.variations else 2,
        "rules": replay.rules.to_dict(),
        "seed": replay.seed,
        "deck": [c.code for c in replay.deck],
        "first_player": replay.first_player,
        "players": list(replay.players),
        "actions": [s.to_dict() for s in replay.steps],
        "result": replay.result.to_dict() if replay.result else None,
    }
    if replay.notes:
        data["notes"] = [note.to_dict() for note in replay.notes]
    if replay.variations:
        data["variations"] = [v.to_dict() for v in replay.variations]
    return data


def json_text(data: dict[str, Any], indent: int | None = None) -> str:
    """The JSON text of a `record`; one action and one note per line when `indent` is None (diff-friendly)."""
    if indent is not None:
        return json.dumps(data, indent=indent, ensure_ascii=False)
    data = dict(data)
    steps = data.pop("actions")
    notes = data.pop("notes", None)
    variations = data.pop("variations", None)
    head = json.dumps(data, ensure_ascii=False)[:-1]
    text = f'{head}, "actions": {_lines(steps)}'
    if notes:
        text += f', "notes": {_lines(notes)}'
    if variations:
        items = ",\n  ".join(_variation_text(v) for v in variations)
        text += f', "variations": [\n  {items}\n]'
    return text + "}\n"


def read(path: str | os.PathLike) -> str:
    """The text of a replay file: a regular file of at most MAX_FILE_BYTES, read as UTF-8; any problem raises
    ReplayError naming the file.
    """
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
            return f.read(MAX_FILE_BYTES + 1)
    except (OSError, UnicodeDecodeError) as error:
        raise ReplayError(f"Cannot read replay {os.fspath(path)!r}: {error}") from None


def parsed(text: str | bytes) -> Any:
    """A replay's JSON text (str, or UTF-8 bytes) parsed within bounds (`records.jsontext`: size, nesting,
    finite numbers); any problem raises ReplayError.
    """
    given: object = text  # checked (by `parse`): a caller may pass anything
    if isinstance(given, (str, bytes, bytearray)) and len(given) > MAX_FILE_BYTES:
        raise ReplayError(f"Not a replay: {len(text):,} characters is over the limit of {MAX_FILE_BYTES:,}")
    return parse(text, "Not a replay", ReplayError)


def fields(data: Any) -> Fields:
    """Check every field of a parsed replay on its own (format, version, the fields it may have, each
    field's type and range); raise ReplayError at the first problem.
    """
    if not isinstance(data, dict):
        raise ReplayError(f"Not a replay: expected a JSON object, got {type(data).__name__}")
    if data.get("format") != FORMAT:
        raise ReplayError(f"Not a replay: format is {data.get('format')!r}, expected {FORMAT!r}")
    _check_keys(data)
    try:
        rules = Rules.from_dict(data["rules"])
    except (NeedleError, TypeError) as error:
        raise ReplayError(f"rules: {error}") from None
    seed = data["seed"]
    if type(seed) is not int or seed < 0:
        raise ReplayError(f"seed: {seed!r} is not an integer >= 0")
    deck = cards_of(data["deck"], "deck")
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
    steps = [Step.from_dict(raw, k) for k, raw in enumerate(raw_steps)]
    result = data["result"]
    if result is not None and not isinstance(result, dict):
        raise ReplayError(f"result: {result!r} is neither null nor an object")
    notes = note_list(data.get("notes", []), len(steps))
    raw_variations = data.get("variations", [])
    if not isinstance(raw_variations, list):
        raise ReplayError(f"variations: expected a list, got {type(raw_variations).__name__}")
    return Fields(rules, seed, deck, first, players, steps, result, notes, raw_variations)


def _check_keys(data: dict) -> None:
    """A version this needle_widget reads, and the fields that version has: none missing, none unknown."""
    version = data.get("version")
    if type(version) is not int or version not in READS:
        newer = " (written by a newer needle_widget? update needle_widget to read it)" if (
            type(version) is int and version > VERSION) else ""
        raise ReplayError(
            f"Unsupported replay version {version!r}"[:200]
            + f"; this needle_widget reads versions {', '.join(map(str, READS[:-1]))} and {READS[-1]}{newer}"
        )
    allowed = _TOP_KEYS | _OPTIONAL_KEYS.get(version, set())
    missing = sorted(_TOP_KEYS - set(data))
    unknown = sorted(set(data) - allowed)
    if missing or unknown:
        later = [key for key in unknown if any(key in keys for keys in _OPTIONAL_KEYS.values())]
        raise ReplayError(
            "Replay fields: " + "; ".join(
                ([f"missing {', '.join(missing)}"] if missing else [])
                + ([f"unknown {', '.join(unknown)}"] if unknown else [])
            ) + (f" ({', '.join(later)} need version "
                 f"{min(v for v, keys in _OPTIONAL_KEYS.items() if later[0] in keys)})" if later else "")
        )


def _check_name(name: str) -> None:
    """A player's name must be savable, showable and sendable: UTF-8 text of at most MAX_NAME_LENGTH characters."""
    if not 0 < len(name) <= MAX_NAME_LENGTH:
        raise ReplayError(f"players: a name must have 1 to {MAX_NAME_LENGTH} characters, not {len(name)}")
    try:
        name.encode("utf-8")
    except UnicodeEncodeError:
        raise ReplayError(f"players: {name!r} cannot be encoded as UTF-8 (a lone surrogate)") from None


def _lines(items: list[dict], depth: int = 1) -> str:
    """A JSON list with one item per line (indented by `depth` levels of two spaces)."""
    if not items:
        return "[]"
    pad = "\n" + "  " * depth
    return "[" + pad + ("," + pad).join(json.dumps(item, ensure_ascii=False) for item in items) + pad[:-2] + "]"


def _variation_text(variation: dict) -> str:
    """A variation's JSON with one action (and one note) per line, its world's actions too."""
    variation = dict(variation)
    steps = variation.pop("actions")
    notes = variation.pop("notes", None)
    world = variation.pop("world")
    head = json.dumps(variation, ensure_ascii=False)[:-1]
    if world == "real":
        head += ', "world": "real"'
    else:
        world = dict(world)
        world_steps = world.pop("actions")
        head += f', "world": {json.dumps(world, ensure_ascii=False)[:-1]}, "actions": {_lines(world_steps, 2)}}}'
    text = f'{head}, "actions": {_lines(steps, 2)}'
    if notes:
        text += f', "notes": {_lines(notes, 2)}'
    return text + "}"
