"""A replay's variations, kept, checked and edited: `ReplayVariations`, the part of `Replay` that holds the
lines of play kept beside the game (the values themselves, their worlds and who may open which, are
`needle_widget.records.variations`).

>>> from needle_widget import examples
>>> r = examples.load("found_early")
>>> v = r.add_variation(6, r.branch(6).legal_actions()[:1], name="The other draw")
>>> w = r.extend_variation(v, r.line(v).final_game.legal_actions()[:1])
>>> r.variations == (w,), len(w), r.line(w).steps[:6] == r.steps[:6]
(True, 2, True)
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING, Any

from ..engine import actions as A
from ..engine.cards import Card
from ..engine.errors import NeedleError, ReplayError
from ..engine.game import Game
from ..engine.rules import Rules
from ..engine.seats import Perspective, as_seat
from .notes import Note, check_viewer
from .replaynotes import ReplayNotes
from .steps import Step, play
from .variations import MAX_VARIATIONS, Variation, VariationError, VariationNotFound, World, check_all

if TYPE_CHECKING:
    from .replay import Replay

__all__ = ["ReplayVariations"]


class ReplayVariations(ReplayNotes):
    """The variations of a replay, in step order, each checked against the game, and their editing;
    part of `Replay`.

    It keeps the variations in `_variations` (a list in step order) and each one's whole line, once made,
    in `_lines` (a replay, by variation); `_keep_variations` and `_share_variations` start them. It reads
    the replay's record (`rules`, `seed`, `deck`, `first_player`, `players`, `steps`, `game_at`, `branch`)
    and its notes (`ReplayNotes`: a line holds the main line's notes up to its step).
    """

    rules: Rules
    seed: int
    deck: tuple[Card, ...]
    first_player: int
    players: tuple[str, str]
    _variations: list[Variation]
    _lines: dict[Variation, Replay]

    if TYPE_CHECKING:
        def game_at(self, k: int) -> Game:
            """The game after the first `k` actions (`Replay.game_at`)."""

        def branch(self, k: int) -> Game:
            """The real game after the first `k` actions, live (`Replay.branch`)."""

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
        from .replay import Replay  # the class this one is a part of

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

    def _keep_variations(self, variations: Iterable[Variation | dict], made: ReplayVariations | None = None) -> None:
        """Start this replay's variations: `variations`, each checked against the game by making its line
        (unless `made`, a replay of the same record, has made it already).
        """
        self._lines = {} if made is None else dict(made._lines)
        self._variations = self._checked_variations(variations)

    def _share_variations(self, source: ReplayVariations, keep: Callable[[Variation], bool] | None = None) -> None:
        """Start this replay's variations as `source`'s, a replay of the same record, without checking them
        again: all of them and their lines, or only those `keep` keeps (their lines made again when asked).
        """
        if keep is None:
            self._lines, self._variations = dict(source._lines), list(source._variations)
        else:
            self._lines, self._variations = {}, [v for v in source._variations if keep(v)]

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
