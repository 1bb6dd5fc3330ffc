"""The screen contract's slots (`screen.contract`) as traitlets: each widget's synced traits are made here
from the one declaration, never written out by hand.
"""

from __future__ import annotations

import traitlets

from ..screen.contract import Slot

__all__ = ["slot_trait", "traits_of"]


def slot_trait(slot: Slot) -> traitlets.TraitType:
    """A new synced traitlet for a slot of the screen contract, documented by its `doc`."""
    empty = slot.empty
    trait: traitlets.TraitType
    if slot.kind == "perspective":
        trait = traitlets.Union([traitlets.Int(), traitlets.Unicode()], default_value=empty)
    elif slot.kind == "text":
        trait = traitlets.Unicode(empty, allow_none=False)
    elif slot.kind == "optional_text":
        trait = traitlets.Unicode(empty, allow_none=True)
    elif slot.kind in ("dict", "optional_dict"):
        trait = traitlets.Dict(allow_none=slot.kind == "optional_dict",
                               default_value=None if empty is None else dict(empty))
    elif slot.kind == "list":
        trait = traitlets.List(default_value=list(empty))
    else:
        trait = {"int": traitlets.Int, "float": traitlets.Float, "bool": traitlets.Bool,
                 "any": traitlets.Any}[slot.kind](empty)
    trait.help = " ".join(slot.doc.split())
    return trait.tag(sync=True)


def traits_of(slots: dict[str, Slot]) -> dict[str, traitlets.TraitType]:
    """New synced traitlets for `slots` (of the screen contract), by name."""
    return {name: slot_trait(slot) for name, slot in slots.items()}
