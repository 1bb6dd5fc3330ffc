"""Replay: a versioned JSON record of one game, checked on load, any step in an instant.

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
from collections.abc import Callable, Iterable, Sequence
from typing import Any

from ..engine import actions as A
from ..engine.cards import Card
from ..engine.errors import NeedleError, ReplayError
from ..engine.game import Game
from ..engine.observers import Observers
from ..engine.paths import write_text
from ..engine.result import Result
from ..engine.rules import Rules
from ..engine.seats import Perspective, as_seat, perspective_named
from .jsontext import parse
from .notes import MAX_NOTES, Note, NoteError, NoteNotFound, NoteStepError, Question, check_viewer, note_list
from .steps import Step, cards_of, play
from .variations import MAX_VARIATIONS, Variation, VariationError, VariationNotFound, World, check_all

FORMAT = "needle-replay"
VERSION = 3
"""The newest version this needle_widget writes: 3 for a replay with variations, else 2 (which older
needle_widgets read)."""
READS = (1, 2, 3)
"""The versions it reads: 1 (no notes), 2 (optional notes) and 3 (optional notes and variations)."""
SNAPSHOT_EVERY = 8
MAX_FILE_BYTES = 32 * 2**20
"""The largest replay file `Replay.load` reads (a round of `rules.MAX_TURNS` turns is about 5 MB)."""
MAX_NAME_LENGTH = 100
_TOP_KEYS = {"format", "version", "rules", "seed", "deck", "first_player", "players", "actions", "result"}
_OPTIONAL_KEYS = {2: {"notes"}, 3: {"notes", "variations"}}
"""Top-level fields a version may have besides _TOP_KEYS."""
_KEEP: Any = type("Keep", (), {"__repr__": lambda self: "<keep>"})()
"""`edit_note`'s default: leave the field as it is."""


class Replay:
    """A finished (or paused) game, step by step, with the teacher's notes.

    The game's record (rules, deck, steps, result) is fixed once made: it is checked by
    re-applying every action, and `game_at` relies on snapshots of it. The notes are
    not part of the game, and change in place (`add_note`, `edit_note`, `remove_note`,
    `replace_notes`): each note is a frozen `notes.Note`, and `notes` is a tuple, so
    what a caller holds never changes under it. `copy()` makes another replay sharing
    the fixed record (no re-applying) with notes of its own.

    >>> from needle_widget import Game, actions
    >>> g = Game(seed=7)
    >>> g.apply(actions.ChooseNeedle("7h")); g.apply(actions.ChooseNeedle("QS")); g.apply(actions.DrawPile())
    >>> r = Replay.from_json(g.replay().to_json())
    >>> len(r), r.game_at(2).phase, r.game_at(3).hand(0) == g.hand(0)
    (3, 'draw', True)
    >>> r.add_note(3, "Did the draw help?", perspective=0)
    Note(step=3, text='Did the draw help?', perspective=0, question=None)
    >>> r.notes_for(0), r.notes_for(1)
    ((Note(step=3, text='Did the draw help?', perspective=0, question=None),), ())
    """

    def __init__(self, rules: Rules, seed: int, deck: Sequence[Card], first_player: int,
                 players: Sequence[str], steps: Sequence[Step], result: dict | None = None, *,
                 notes: Iterable[Note | dict] = (), variations: Iterable[Variation | dict] = ()) -> None:
        self.rules = rules
        self.seed = seed
        self.deck: tuple[Card, ...] = tuple(deck)
        self.first_player = first_player
        self.players: tuple[str, str] = (players[0], players[1])
        self.steps: tuple[Step, ...] = tuple(steps)
        self._snapshots: list[Game] = []
        self._final: Game  # set by _rebuild
        self._rebuild(result)
        self._notes: list[Note] = []
        self._revision = 0
        self._observers = Observers()
        self._notes = self._checked_notes(notes)
        self._lines: dict[Variation, Replay] = {}
        self._variations: list[Variation] = self._checked_variations(variations)

    # ---- making and reading -------------------------------------------------------

    @classmethod
    def from_game(cls, game: Game, *, notes: Iterable[Note | dict] = (),
                  variations: Iterable[Variation | dict] = ()) -> Replay:
        """The record of `game` so far (`Game.replay()` calls this), with `notes` and `variations` if given."""
        steps = [Step.of(e) for e in game.history]
        result = game.result.to_dict() if game.result else None
        return cls(game.rules, game.seed, game.deck, game.first_player, game.players, steps, result, notes=notes,
                   variations=variations)

    def copy(self, *, notes: Iterable[Note | dict] | None = None,
             variations: Iterable[Variation | dict] | None = None) -> Replay:
        """Another replay of the same game, made at once (the record is shared, not re-applied),
        with a copy of these notes and variations or the `notes` and `variations` given:
        `r.copy(notes=r.notes_for(0), variations=r.variations_for(0))` is the replay to hand
        Player 1, with only the notes and variations Player 1 may read.
        """
        other = object.__new__(type(self))
        other.__dict__.update(self.__dict__)
        other._notes, other._revision, other._observers = [], 0, Observers()
        other._notes = other._checked_notes(self._notes if notes is None else notes)
        other._lines = dict(self._lines)
        other._variations = (list(self._variations) if variations is None
                             else other._checked_variations(variations))
        return other

    def to_dict(self) -> dict[str, Any]:
        """The whole record as a JSON-ready dict (see the module docstring); "notes" only if there are
        some, "variations" (and version 3) only if there are some, else version 2.
        """
        data = {
            "format": FORMAT,
            "version": VERSION if self._variations else 2,
            "rules": self.rules.to_dict(),
            "seed": self.seed,
            "deck": [c.code for c in self.deck],
            "first_player": self.first_player,
            "players": list(self.players),
            "actions": [s.to_dict() for s in self.steps],
            "result": self.result.to_dict() if self.result else None,
        }
        if self._notes:
            data["notes"] = [note.to_dict() for note in self._notes]
        if self._variations:
            data["variations"] = [v.to_dict() for v in self._variations]
        return data

    def to_json(self, indent: int | None = None) -> str:
        """The JSON text; one action and one note per line when `indent` is None (diff-friendly)."""
        if indent is not None:
            return json.dumps(self.to_dict(), indent=indent, ensure_ascii=False)
        data = self.to_dict()
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

    def save(self, path: str | os.PathLike) -> None:
        """Write `to_json()` to `path` (text or a pathlib.Path; anything else, a missing folder or a
        failed write raises ReplayError, and an old file at `path` is left as it was).
        """
        write_text(path, self.to_json(), "Replay.save", ReplayError)

    def to_html(self, path: str | os.PathLike | None = None, perspective: Any = 0, step: int = 0,
                spoilers: bool = True, *, review: bool = False, reveal_at_end: bool = False,
                review_worlds: int | None = None) -> str:
        """One self-contained HTML page of this replay seen from `perspective` (0, 1, "spectator",
        "teacher"), opening at `step`, that steps like the widget with no kernel: written to `path`
        if given, and returned. Only that perspective's view is in it (`needle_widget.apps.export`);
        `review=True` adds the review it may see (a player's own; the opponent's only with
        `reveal_at_end=True`).
        """
        from ..apps.export import to_html  # the page is built by the layers above this one

        return to_html(self, path, perspective=perspective, step=step, spoilers=spoilers, review=review,
                       reveal_at_end=reveal_at_end, review_worlds=review_worlds)

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
        except ReplayError as error:  # the same class (a bad note's NoteError subclass), naming the file
            raise type(error)(f"{os.fspath(path)}: {error}") from None

    @classmethod
    def from_json(cls, text: str | bytes) -> Replay:
        """Read and check a replay from its JSON text (str, or UTF-8 bytes), parsed within bounds
        (`records.jsontext`: size, nesting, finite numbers); any problem raises ReplayError.
        """
        given: object = text  # checked (by `parse`): a caller may pass anything
        if isinstance(given, (str, bytes, bytearray)) and len(given) > MAX_FILE_BYTES:
            raise ReplayError(f"Not a replay: {len(text):,} characters is over the limit of {MAX_FILE_BYTES:,}")
        return cls.from_dict(parse(text, "Not a replay", ReplayError))

    @classmethod
    def from_dict(cls, data: Any) -> Replay:
        """Check every field, then re-apply every action; raise ReplayError at the first problem."""
        if not isinstance(data, dict):
            raise ReplayError(f"Not a replay: expected a JSON object, got {type(data).__name__}")
        if data.get("format") != FORMAT:
            raise ReplayError(f"Not a replay: format is {data.get('format')!r}, expected {FORMAT!r}")
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
        return cls(rules, seed, deck, first, players, steps, result, notes=notes, variations=raw_variations)

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
            step.apply_to(game)
        return game

    def cut(self, k: int) -> Replay:
        """The replay of the first `k` actions: the record as it stood at step k, as if the game
        had been saved then (the same as `Replay.from_game(self.game_at(k))`): its result only if
        the round was over at step k, only the notes at steps up to k, and only the variations from
        steps up to k that play a sampled world (one with the real cards would tell the draws to
        come). Made at once (the record's snapshots are shared, nothing is re-applied); a bad k
        raises ReplayError.

        >>> from needle_widget import examples
        >>> r = examples.load("found_early")
        >>> c = r.cut(5)
        >>> len(c), c.result, c.to_dict() == Replay.from_game(r.game_at(5)).to_dict()
        (5, None, True)
        """
        if type(k) is not int or not 0 <= k <= len(self.steps):
            raise ReplayError(f"step {k!r} is out of range 0..{len(self.steps)}")
        other = object.__new__(type(self))
        other.__dict__.update(self.__dict__)
        other.steps = self.steps[:k]
        other._snapshots = self._snapshots[: k // SNAPSHOT_EVERY + 1]
        other._final = self._final if k == len(self.steps) else self.game_at(k)
        other._notes, other._revision, other._observers = [], 0, Observers()
        other._notes = other._checked_notes([note for note in self._notes if note.step <= k])
        other._lines = {}
        other._variations = [v for v in self._variations if v.step <= k and not v.real]
        return other

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

    # ---- variations ---------------------------------------------------------------------

    @property
    def variations(self) -> tuple[Variation, ...]:
        """Every variation, in step order (those from one step in their order: `promote`, `demote`).

        All of them, for Python and the teacher: what a perspective may open is `variations_for`.
        """
        return tuple(self._variations)

    def variations_for(self, perspective: Perspective, *, until: int | None = None,
                       sampled_only: bool = False) -> tuple[Variation, ...]:
        """The variations `perspective` may open (`Variation.open_to`), in order; `until`: only those from
        steps up to it; `sampled_only`: only those playing a sampled world (spoiler-free review, a quiz).
        """
        viewer = check_viewer(as_seat(perspective))
        if until is not None:
            self._check_step(until)
        return tuple(v for v in self._variations if v.open_to(viewer) and (until is None or v.step <= until)
                     and not (sampled_only and v.real))

    def add_variation(self, step: int, moves: Iterable[A.Action | Step] = (), *, world: World | str | None = None,
                      name: str | None = None) -> Variation:
        """Add a line of play from `step` (0..len(self), a step where the round is not over), after any
        variation already there, and return it.

        `moves`: actions played from there in order (the chance outcomes drawn as the game would: with
        the real cards, the draws the game would have given), or `Step`s with their outcomes.
        `world`: None or "real" for the game's own cards, or a `World`
        (`needle_widget.inference.worlds.world_for` draws one from a seat's view). Bad input raises a
        ReplayError (a VariationError, or the engine's error for an illegal move, naming it) and adds
        nothing.
        """
        if world == "real":
            world = None
        if world is not None and not isinstance(world, World):
            raise VariationError(f"world must be 'real', None or a World, not {world!r}"[:200])
        if len(self._variations) >= MAX_VARIATIONS:
            raise VariationError(f"this replay already has {len(self._variations)} variations, "
                                 f"the most it keeps ({MAX_VARIATIONS})")
        variation = Variation(step, world=world, name=name)
        game = self._start(variation)
        variation = Variation(step, self._played(game, moves, step), world, name)
        self._variations = self._checked_variations([*self._variations, variation])
        self._changed()
        return variation

    def extend_variation(self, which: int | Variation, moves: Iterable[A.Action | Step]) -> Variation:
        """Play `moves` (actions or `Step`s, as `add_variation`) on at the end of a variation, chosen by its
        index in `variations` or by the Variation itself, and return the new variation (in its place).
        """
        index = self._variation_index(which)
        old = self._variations[index]
        game = self.line(old).final_game
        new = Variation(old.step, old.steps + self._played(game, moves, old.end), old.world, old.name, old.notes)
        return self._put(index, new)

    def rename_variation(self, which: int | Variation, name: str | None) -> Variation:
        """Give a variation a name (1 to `variations.MAX_NAME_LENGTH` characters; None: "Variation N")."""
        index = self._variation_index(which)
        old = self._variations[index]
        return self._put(index, Variation(old.step, old.steps, old.world, name, old.notes))

    def replace_variation_notes(self, which: int | Variation, notes: Iterable[Note | dict]) -> Variation:
        """Replace a variation's notes (Notes or their dicts, at steps on its moves); a bad one changes nothing."""
        index = self._variation_index(which)
        old = self._variations[index]
        checked = self._checked_notes(notes, old.end)
        return self._put(index, Variation(old.step, old.steps, old.world, old.name, tuple(checked)))

    def promote(self, which: int | Variation) -> Variation:
        """Move a variation one place up among those from its step (the first is shown first); return it."""
        return self._move(which, -1)

    def demote(self, which: int | Variation) -> Variation:
        """Move a variation one place down among those from its step; return it."""
        return self._move(which, 1)

    def remove_variation(self, which: int | Variation) -> Variation:
        """Remove a variation, chosen by its index in `variations` or by the Variation itself, and return it."""
        variation = self._variations.pop(self._variation_index(which))
        self._changed()
        return variation

    def line(self, which: int | Variation) -> Replay:
        """A variation's whole line as a replay of its own: the main line's first `step` actions (a
        sampled world's record, for a variation that plays one), then its moves; with the main line's
        notes up to its step and its own notes after. Kept once made (a variation is a value).
        """
        variation = which if isinstance(which, Variation) else self._variations[self._variation_index(which)]
        line = self._lines.get(variation)
        if line is None:
            world = variation.world
            base = list(self.steps[: variation.step] if world is None else world.steps)
            end = play(self._start(variation), variation.steps, first=variation.step, label="variation action")
            notes = [note for note in self._notes if note.step <= variation.step] + list(variation.notes)
            line = Replay(self.rules, self.seed if world is None else world.seed,
                          self.deck if world is None else world.deck, self.first_player, self.players,
                          base + list(variation.steps), end.result.to_dict() if end.result else None, notes=notes)
            if len(self._lines) >= MAX_VARIATIONS:
                self._lines.clear()
            self._lines[variation] = line
        return line

    def _start(self, variation: Variation) -> Game:
        """The game at a variation's step: the real one, or its world's (checked against the seat's view)."""
        k = variation.step
        self._check_variation_step(k)
        if variation.world is None:
            game = self.branch(k)
        else:
            view = self.game_at(k).view(variation.world.seat)
            game = variation.world.check(self.rules, self.first_player, k, view)
        if game.phase == "over":
            raise VariationError(f"variation step {k}: the round is over there, so no line starts from it")
        game.players = self.players
        return game

    def _played(self, game: Game, moves: Iterable[A.Action | Step], first: int) -> tuple[Step, ...]:
        if isinstance(moves, (str, bytes, dict, A.Action, Step)) or not isinstance(moves, Iterable):
            raise VariationError(f"moves must be a list of actions or steps, not {moves!r}"[:200])
        start = len(game)
        for k, move in enumerate(moves, first):
            if isinstance(move, Step):
                play(game, [move], first=k, label="variation action")
            elif isinstance(move, A.Action):
                try:
                    game.apply(move)
                except NeedleError as error:
                    raise VariationError(f"variation action {k}: {error}") from None
            else:
                raise VariationError(f"variation action {k}: {move!r}"[:200] + " is not an action or a step")
        return tuple(Step.of(e) for e in game.history[start:])

    def _checked_variations(self, items: Iterable[Variation | dict]) -> list[Variation]:
        checked = check_all(items)
        seen: dict[Variation, int] = {}
        for k, variation in enumerate(checked):
            if variation in seen:  # a variation is chosen by its value: two equal ones could not be told apart
                raise VariationError(f"variation {k} is the same as variation {seen[variation]}: name one of them, "
                                     "or keep one")
            seen[variation] = k
            try:
                if variation not in self._lines:
                    self.line(variation)
            except ReplayError as error:
                raise type(error)(f"variation {k}: {error}") from None
        return sorted(checked, key=lambda v: v.step)

    def _check_variation_step(self, step: Any) -> None:
        if type(step) is not int or not 0 <= step <= len(self.steps):
            raise VariationError(
                f"variation step {step!r}"[:200] + f" is out of range: this replay's steps are 0..{len(self.steps)}"
            )

    def _variation_index(self, which: Any) -> int:
        count = len(self._variations)
        if isinstance(which, Variation):
            if which not in self._variations:
                raise VariationNotFound(f"this replay has no variation {which.label(0)!r} from step {which.step}")
            return self._variations.index(which)
        if type(which) is not int:
            raise VariationNotFound(f"choose a variation by its index in variations or by the Variation itself, "
                                    f"not {which!r}"[:200])
        if not -count <= which < count:
            raise VariationNotFound(f"no variation {which}: this replay has {count} variation{'s' * (count != 1)}")
        return which % count

    def _put(self, index: int, variation: Variation) -> Variation:
        old = self._variations[index]
        line = self._lines.get(old)
        if line is not None and (old.step, old.steps, old.world) == (variation.step, variation.steps, variation.world):
            notes = [note for note in self._notes if note.step <= variation.step] + list(variation.notes)
            if list(line.notes) != notes:
                line.replace_notes(notes)
            self._lines[variation] = line  # the same line, renamed or with other notes: whoever shows it goes on
        items = list(self._variations)
        items[index] = variation
        self._variations = self._checked_variations(items)
        self._changed()
        return variation

    def _move(self, which: int | Variation, by: int) -> Variation:
        index = self._variation_index(which)
        variation = self._variations[index]
        other = index + by
        if 0 <= other < len(self._variations) and self._variations[other].step == variation.step:
            self._variations[index], self._variations[other] = self._variations[other], variation
            self._changed()
        return variation

    # ---- notes --------------------------------------------------------------------------

    @property
    def notes(self) -> tuple[Note, ...]:
        """Every note, in step order (notes at one step in the order they were added).

        All of them, for Python and the teacher: what a perspective may read is `notes_for`.
        """
        return tuple(self._notes)

    def notes_for(self, perspective: Perspective, step: int | None = None, *,
                  until: int | None = None) -> tuple[Note, ...]:
        """The notes `perspective` may read, in step order: those for everyone (no perspective),
        and those written for it; the teacher reads every note (`notes.Note.visible_to`). A
        player never gets a note written for the other player, the spectator or the teacher.

        `step`: only the notes at that step; `until`: only those at or before it (nothing
        past the step shown). A bad perspective raises PerspectiveError, a bad step NoteStepError.
        """
        viewer = check_viewer(as_seat(perspective))
        if step is not None:
            self._check_step(step)
        if until is not None:
            self._check_step(until)
        return tuple(
            note for note in self._notes
            if note.visible_to(viewer) and (step is None or note.step == step)
            and (until is None or note.step <= until)
        )

    def note_steps(self, perspective: Perspective, *, until: int | None = None) -> tuple[int, ...]:
        """The steps holding a note `perspective` may read, each once, in order (the slider's marks)."""
        return tuple(sorted({note.step for note in self.notes_for(perspective, until=until)}))

    def add_note(self, step: int, text: str, *, perspective: Perspective | None = None,
                 question: Question | str | dict | None = None) -> Note:
        """Add a note at `step` (0..len(self)), after any already there, and return it.

        `perspective`: who it is written for ("p1" or 0, "p2" or 1, "spectator", "teacher"; None: everyone);
        `question`: a kind from `notes.QUESTION_KINDS`, {"kind": ..., "prompt": ...} or a
        `notes.Question`. Bad input raises a NoteError subclass and adds nothing.
        """
        note = Note(step, text, _as_named(perspective), question)
        self._check_step(note.step)
        if len(self._notes) >= MAX_NOTES:
            raise NoteError(f"this replay already has {len(self._notes)} notes, the most it keeps ({MAX_NOTES})")
        self._insert(note)
        self._changed()
        return note

    def edit_note(self, which: int | Note, *, step: int = _KEEP, text: str = _KEEP,
                  perspective: Perspective | None = _KEEP, question: Question | str | dict | None = _KEEP) -> Note:
        """Change the fields given of a note, chosen by its index in `notes` or by the Note itself
        (the first equal one), and return the new note. It keeps its place among the notes at
        its step, or goes after them if the step changes. Bad input changes nothing.
        """
        index = self._index(which)
        old = self._notes[index]
        new = Note(
            old.step if step is _KEEP else step, old.text if text is _KEEP else text,
            old.perspective if perspective is _KEEP else _as_named(perspective),
            old.question if question is _KEEP else question,
        )
        self._check_step(new.step)
        if new.step == old.step:
            self._notes[index] = new
        else:
            del self._notes[index]
            self._insert(new)
        self._changed()
        return new

    def remove_note(self, which: int | Note) -> Note:
        """Remove a note, chosen by its index in `notes` or by the Note itself, and return it."""
        note = self._notes.pop(self._index(which))
        self._changed()
        return note

    def replace_notes(self, notes: Iterable[Note | dict]) -> None:
        """Replace every note at once (Notes or their dicts; `()` removes them all); all are
        checked first, and a bad one changes nothing.
        """
        self._notes = self._checked_notes(notes)
        self._changed()

    @property
    def notes_revision(self) -> int:
        """A count that goes up at every change of the notes (to tell whether they changed)."""
        return self._revision

    def observe_notes(self, callback: Callable[[Replay], Any]) -> Callable[[], None]:
        """Call `callback(replay)` after every change of the notes; return a function that stops it.

        A bound method is held weakly (an observer that is gone is dropped); any other
        callable, strongly.
        """
        return self._observers.add(callback, TypeError, "observe_notes")

    def _changed(self) -> None:
        self._revision += 1
        self._observers.notify(self)

    def _checked_notes(self, notes: Iterable[Note | dict], steps: int | None = None) -> list[Note]:
        if isinstance(notes, (str, bytes, dict, Note)) or not isinstance(notes, Iterable):
            raise NoteError(f"notes must be a list of notes, not {notes!r}"[:200])
        return note_list(list(notes), len(self.steps) if steps is None else steps)

    def _check_step(self, step: Any) -> None:
        if type(step) is not int or not 0 <= step <= len(self.steps):
            raise NoteStepError(
                f"note step {step!r}"[:200] + f" is out of range: this replay's steps are 0..{len(self.steps)}"
            )

    def _insert(self, note: Note) -> None:
        at = len(self._notes)
        while at and self._notes[at - 1].step > note.step:
            at -= 1
        self._notes.insert(at, note)

    def _index(self, which: Any) -> int:
        count = len(self._notes)
        if isinstance(which, Note):
            if which not in self._notes:
                raise NoteNotFound(f"this replay has no note {which!r}"[:200])
            return self._notes.index(which)
        if type(which) is not int:
            raise NoteNotFound(f"choose a note by its index in notes or by the Note itself, not {which!r}"[:200])
        if not -count <= which < count:
            raise NoteNotFound(f"no note {which}: this replay has {count} note{'s' * (count != 1)}")
        return which % count

    def _rebuild(self, result: dict | None) -> None:
        dealt = Game.dealt(self.rules, self.seed, self.deck, self.first_player)
        dealt.players = self.players
        game = dealt
        self._snapshots = [game.copy()]

        def keep(k: int, game: Game) -> None:
            if (k + 1) % SNAPSHOT_EVERY == 0:
                self._snapshots.append(game.copy())

        play(game, self.steps, each=keep)
        actual = game.result.to_dict() if game.result else None
        if result != actual:
            raise ReplayError(f"result: recorded {result!r}, but the actions give {actual!r}")
        self._final = game

    def __repr__(self) -> str:
        end = self.result.describe() if self.result else "in progress"
        notes = f", {len(self._notes)} note{'s' * (len(self._notes) != 1)}" if self._notes else ""
        count = len(self._variations)
        notes += f", {count} variation{'s' * (count != 1)}" if count else ""
        return f"<Replay seed={self.seed}, {len(self)} actions{notes}, {self.players[0]} vs {self.players[1]}: {end}>"



def _lines(items: list[dict], depth: int = 1) -> str:
    """A JSON list with one item per line (indented by `depth` levels of two spaces)."""
    if not items:
        return "[]"
    pad = "\n" + "  " * depth
    return "[" + pad + ("," + pad).join(json.dumps(item, ensure_ascii=False) for item in items) + pad[:-2] + "]"


def _variation_text(variation: dict) -> str:
    """A variation's JSON with one action (and one note) per line, its world's actions too."""
    steps = variation.pop("actions")
    notes = variation.pop("notes", None)
    world = variation.pop("world")
    head = json.dumps(variation, ensure_ascii=False)[:-1]
    if world == "real":
        head += ', "world": "real"'
    else:
        world_steps = world.pop("actions")
        head += f', "world": {json.dumps(world, ensure_ascii=False)[:-1]}, "actions": {_lines(world_steps, 2)}}}'
    text = f'{head}, "actions": {_lines(steps, 2)}'
    if notes:
        text += f', "notes": {_lines(notes, 2)}'
    return text + "}"


def _as_named(perspective: Perspective | None) -> Perspective | None:
    """`seats.as_named` for a note's perspective ("p2" -> 1, "Teacher" -> "teacher", else as given), typed:
    what it names, or the perspective itself.
    """
    named = perspective_named(perspective)
    return perspective if named is None else named


def _check_name(name: str) -> None:
    """A player's name must be savable, showable and sendable: UTF-8 text of at most MAX_NAME_LENGTH characters."""
    if not 0 < len(name) <= MAX_NAME_LENGTH:
        raise ReplayError(f"players: a name must have 1 to {MAX_NAME_LENGTH} characters, not {len(name)}")
    try:
        name.encode("utf-8")
    except UnicodeEncodeError:
        raise ReplayError(f"players: {name!r} cannot be encoded as UTF-8 (a lone surrogate)") from None


