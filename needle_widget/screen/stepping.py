"""The step rules of a screen: which step the browser may ask for, and the refusal's words when it may not.

Each rule is a pure function of the step asked for (`to`, anything the browser sent) and what the screen
holds: None when the step is allowed, else the refusal's text (the caller raises its own error with it).
`Session.request_step` uses the quiz, whole and spoiler-free rules; a screen that holds only the steps it received
(a student's class screen) uses `held_refusal`. The front end keeps a copy of these rules in JavaScript:
`step_cases()` lists cases for every branch, so a fixture can pin both copies to the same words.

>>> spoiler_free_refusal(9, step=4, end=20)
'Cannot go to step 9: spoiler-free review goes back to any step from 0 to 4, or on to the next one (5)'
"""

from __future__ import annotations

from collections.abc import Callable, Collection
from typing import Any

from ..engine.errors import quote

__all__ = ["STEP_RULES", "held_refusal", "quiz_refusal", "spoiler_free_refusal", "step_cases", "whole_refusal"]


def quiz_refusal(to: Any, horizon: int) -> str | None:
    """A quiz: any step from 0 to `horizon`, the step the quiz has reached.

    >>> quiz_refusal(3, horizon=3) is None, quiz_refusal(4, horizon=3)
    (True, 'Cannot go to step 4: the quiz shows steps 0 to 3 now')
    """
    if type(to) is not int or not 0 <= to <= horizon:
        return f"Cannot go to step {quote(to)}: the quiz shows steps 0 to {horizon} now"
    return None


def whole_refusal(to: Any, end: int) -> str | None:
    """A replay or a game shown whole: any step from 0 to `end`.

    >>> whole_refusal(7, end=7) is None, whole_refusal(8, end=7)
    (True, 'Cannot go to step 8: steps run from 0 to 7')
    """
    if type(to) is not int or not 0 <= to <= end:
        return f"Cannot go to step {quote(to)}: steps run from 0 to {end}"
    return None


def spoiler_free_refusal(to: Any, step: int, end: int) -> str | None:
    """Spoiler-free review at `step` of a replay of `end` steps: back to any step, or on to the next one.
    The next one past the real end is refused with the current step (what the player learns there too);
    any step further is refused whatever `end`, so a refusal tells nothing of what comes after.

    >>> spoiler_free_refusal(5, step=4, end=20) is None, spoiler_free_refusal(5, step=4, end=4)
    (True, 'The replay ends at step 4')
    """
    if type(to) is int and to == step + 1 and to > end:
        return f"The replay ends at step {step}"
    if type(to) is not int or not 0 <= to <= step + 1:
        return (f"Cannot go to step {quote(to)}: spoiler-free review goes back to any step from 0 to {step}, "
                f"or on to the next one ({step + 1})")
    return None


def held_refusal(to: Any, held: Collection[int], label: str | None = None) -> str | None:
    """A screen that holds only the steps it received (`held`): of the class's game, or with `label`, of
    that variation. Nothing held: nothing to show yet.

    >>> held_refusal(2, {0, 1, 2}) is None, held_refusal(7, {0, 1, 2})
    (True, 'Cannot show step 7: the class has shown steps 0 to 2')
    >>> held_refusal(2, [5, 6, 7], "variation 1")
    'Cannot show step 2 of variation 1: it has steps 5 to 7'
    >>> held_refusal(0, [])
    'Nothing has been shown yet: wait for the teacher'
    """
    if type(to) is int and to in held:
        return None
    if not held:
        return "Nothing has been shown yet: wait for the teacher"
    if label is None:
        return f"Cannot show step {quote(to)}: the class has shown steps 0 to {max(held)}"
    return f"Cannot show step {quote(to)} of {label}: it has steps {min(held)} to {max(held)}"


STEP_RULES: dict[str, Callable[..., str | None]] = {
    "quiz": quiz_refusal,
    "whole": whole_refusal,
    "spoiler_free": spoiler_free_refusal,
    "held": held_refusal,
}
"""Each rule by the name `step_cases()` gives it."""


def step_cases() -> list[dict[str, Any]]:
    """Cases that reach every branch of every rule, JSON-ready: {"rule": a name of `STEP_RULES`, "args": its
    keyword arguments, "refusal": what it answers (None: allowed)}.

    >>> cases = step_cases()
    >>> all(STEP_RULES[c["rule"]](**c["args"]) == c["refusal"] for c in cases)
    True
    """
    args: list[tuple[str, dict[str, Any]]] = [
        ("quiz", {"to": 0, "horizon": 0}),
        ("quiz", {"to": 3, "horizon": 5}),
        ("quiz", {"to": 6, "horizon": 5}),
        ("quiz", {"to": -1, "horizon": 5}),
        ("quiz", {"to": 2.5, "horizon": 5}),
        ("quiz", {"to": "3", "horizon": 5}),
        ("whole", {"to": 0, "end": 7}),
        ("whole", {"to": 7, "end": 7}),
        ("whole", {"to": 8, "end": 7}),
        ("whole", {"to": -2, "end": 7}),
        ("whole", {"to": None, "end": 7}),
        ("whole", {"to": True, "end": 7}),
        ("whole", {"to": "it's", "end": 7}),
        ("whole", {"to": [1, "a", None], "end": 7}),
        ("spoiler_free", {"to": 0, "step": 4, "end": 20}),
        ("spoiler_free", {"to": 5, "step": 4, "end": 20}),
        ("spoiler_free", {"to": 5, "step": 4, "end": 4}),
        ("spoiler_free", {"to": 4, "step": 4, "end": 4}),
        ("spoiler_free", {"to": 6, "step": 4, "end": 20}),
        ("spoiler_free", {"to": 6, "step": 4, "end": 4}),
        ("spoiler_free", {"to": -1, "step": 4, "end": 20}),
        ("spoiler_free", {"to": 4.5, "step": 4, "end": 20}),
        ("spoiler_free", {"to": "5", "step": 4, "end": 20}),
        ("spoiler_free", {"to": None, "step": 4, "end": 4}),
        ("held", {"to": 2, "held": [0, 1, 2], "label": None}),
        ("held", {"to": 3, "held": [0, 1, 2], "label": None}),
        ("held", {"to": 1.5, "held": [0, 1, 2], "label": None}),
        ("held", {"to": 0, "held": [], "label": None}),
        ("held", {"to": 6, "held": [5, 6, 7], "label": "variation 1"}),
        ("held", {"to": 4, "held": [5, 6, 7], "label": "variation 1"}),
        ("held", {"to": 5, "held": [], "label": "variation 1"}),
        ("held", {"to": "x" * 80, "held": [0, 1], "label": None}),
        ("held", {"to": False, "held": [0, 1], "label": "this variation"}),
    ]
    return [{"rule": rule, "args": given, "refusal": STEP_RULES[rule](**given)} for rule, given in args]
