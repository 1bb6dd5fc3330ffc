"""How the package writes a figure in words: one rule for every share, probability and score a
screen shows, so the same number never reads "25%" in one place and "24%" in another.

`percent` is the front end's rule too (js/src/dom.js `percent`): a share below 9.95% gets one
decimal ("9.9%"), from there a whole percent ("10%", never "10.0%"), halves rounded up, as
JavaScript's `toFixed` and `Math.round` round the same binary value; the examples in
`PERCENT_EXAMPLES` are shared with the front end (js/src/shared.js), whose test checks it writes
each the same way. `brier` writes a Brier score
with three decimals everywhere (a headline "0.00" beside a table's "0.001" was two rules).

>>> percent(0.845), percent(0.0222), percent(0.245), percent(0), percent(0.0004), percent(None)
('85%', '2.2%', '25%', '0%', '<0.1%', '–')
>>> interval(0.2, 0.31), brier(0.0006925), brier(0.25)
('20%–31%', '0.001', '0.250')
"""

from __future__ import annotations

from decimal import ROUND_HALF_UP, Decimal
from typing import Any

from .errors import finite

__all__ = ["PERCENT_EXAMPLES", "brier", "interval", "percent"]

NONE = "–"
"""What a missing figure reads as."""


def _half_up(x: float, places: int) -> str:
    return str(Decimal(x).quantize(Decimal(1).scaleb(-places), rounding=ROUND_HALF_UP))


def percent(p: Any) -> str:
    """A share 0..1 as a percentage: "85%", "2.2%" (one decimal below 9.95%), "<0.1%", "0%", "100%" (from
    99.95%), or "–" for None or anything that is not a finite number.
    """
    value = finite(p)
    if value is None:
        return NONE
    x = value * 100
    if x == 0:
        return "0%"
    if x >= 99.95:
        return "100%"
    if x < 0.1:
        return "<0.1%"
    if x < 9.95:
        return f"{_half_up(x, 1)}%"
    return f"{_half_up(x, 0)}%"


def interval(lo: Any, hi: Any) -> str:
    """A 95% interval of a share, "20%–31%"."""
    return f"{percent(lo)}–{percent(hi)}"


def brier(score: Any) -> str:
    """A Brier score (0 is perfect, 1 the worst) with three decimals: "0.001", "0.250"."""
    value = finite(score)
    return NONE if value is None else _half_up(value, 3)


PERCENT_EXAMPLES: tuple[float, ...] = (
    0.0, 0.0004, 0.00049999, 0.0005, 0.001, 0.0222, 0.025, 0.0245, 0.02625, 0.0995, 0.09949, 0.09951,
    0.1, 0.245, 0.2450000001, 0.125, 0.5, 0.675, 0.845, 0.995, 0.9994, 0.99949, 0.9995, 1.0, 1 / 3, 2 / 3,
)
"""Shares whose text both sides must agree on (halves, the 10% and 99.95% edges, tiny ones)."""
