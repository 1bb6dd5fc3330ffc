"""The ledger drawn: a review's value line with a skill bar at each decision and a luck bar after it, as SVG.

For a notebook (`Review._repr_html_` shows it with the summary and the marks), a terminal that writes
files, or a page. Plain SVG text with an accessible title and description. Its palette is the widget's
(`COLOURS`, the hues of js/src/style.css: one palette, checked by tests/test_ledger_palette.py): one hue
for skill, one for luck; whether a bar gained or lost is its direction (up or down from the line, as
the legend says), never its colour. The marks ?! ? ?? take the widget's mark colours; the value line,
axes and text use `currentColor`, so the picture reads on light and dark backgrounds.

>>> from needle_widget import examples
>>> from needle_widget.review import review
>>> svg = ledger_svg(review(examples.load("found_early"), 1, worlds=4))
>>> svg.startswith("<svg") and "<title>" in svg and svg.count('class="skill') >= 1
True
"""

from __future__ import annotations

from html import escape
from typing import TYPE_CHECKING

from ..engine.seats import player_name

if TYPE_CHECKING:
    from .review import Review

__all__ = ["COLOURS", "ledger_svg", "review_html"]

COLOURS = {"skill": "#cc79a7", "luck": "#009e73",
           "mark-inaccuracy": "#b8860b", "mark-mistake": "#e66a00", "mark-blunder": "#e0262f"}
"""The widget's palette (style.css's `--nw-<name>`): skill reddish purple, luck bluish green (Okabe-Ito
hues, told apart with any colour vision), and the marks' colours. Gained or lost is a bar's direction."""

SYMBOLS = {"inaccuracy": "?!", "mistake": "?", "blunder": "??"}


def ledger_svg(review: Review, width: int = 640, height: int = 220) -> str:
    """The ledger of `review` as an SVG document (see the module docstring)."""
    left, right, top, bottom = 40, 12, 26, 28
    span = max(1, max([e.step for e in review.entries] + [_end_step(review)]))
    plot_w, plot_h = width - left - right, height - top - bottom

    def x(step: float) -> float:
        return left + plot_w * step / span

    def y(value: float) -> float:
        return top + plot_h * (1 - value)

    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {width} {height}" width="{width}" '
             f'height="{height}" role="img" aria-labelledby="ledger-title ledger-desc" '
             'style="font: 11px sans-serif; color: inherit">',
             f'<title id="ledger-title">{escape(player_name(review.seat))}\'s ledger</title>',
             f'<desc id="ledger-desc">{escape(review.summary())}</desc>']
    for v in (0, 0.5, 1):
        parts.append(f'<line x1="{left}" x2="{width - right}" y1="{y(v):.1f}" y2="{y(v):.1f}" stroke="currentColor" '
                     f'stroke-opacity="{0.35 if v == 0.5 else 0.2}"/>')
        parts.append(f'<text x="{left - 4}" y="{y(v) + 4:.1f}" text-anchor="end" fill="currentColor">{v:.0%}</text>')
    parts.append(f'<text x="{left + plot_w / 2:.1f}" y="{height - 6}" text-anchor="middle" fill="currentColor">'
                 'step</text>')
    for step, anchor, words in ((0, "start", "1"), (span, "end", str(span))):
        parts.append(f'<text x="{x(step):.1f}" y="{height - 6}" text-anchor="{anchor}" fill="currentColor">'
                     f'{words}</text>')
    legend = ((None, f"{player_name(review.seat)}'s expected score"), ("skill", "skill (a decision)"),
              ("luck", "luck (the cards)"))
    lx: int | float = left + 8  # an int until the first legend entry's width is added (drawn "48", not "48.0")
    for key, words in legend:
        if key is None:
            parts.append(f'<line x1="{lx}" x2="{lx + 9}" y1="{top - 5.5}" y2="{top - 5.5}" stroke="currentColor" '
                         'stroke-opacity="0.55" stroke-width="2"/>')
        else:
            parts.append(f'<rect x="{lx + 2}" y="{top - 11}" width="5" height="11" fill="{COLOURS[key]}"/>')
        parts.append(f'<text x="{lx + 12}" y="{top - 2}" fill="currentColor">{escape(words)}</text>')
        lx += 22 + 5.8 * len(words)
    parts.append(f'<text x="{lx}" y="{top - 2}" fill="currentColor">bar up: gained · down: lost</text>')
    points = []
    for i, e in enumerate(review.entries):
        points.append((e.step, e.reference_value))
        bar = max(2.0, plot_w / span * 0.35)
        low, high = sorted((y(e.reference_value), y(e.chosen_value)))
        parts.append(f'<rect class="skill" x="{x(e.step) - bar / 2:.1f}" y="{low:.1f}" width="{bar:.1f}" '
                     f'height="{max(1.0, high - low):.1f}" fill="{COLOURS["skill"]}"><title>Step {e.step + 1}: '
                     f'{escape(str(e.action))}, skill {100 * e.skill:+.0f} points ({e.label})</title></rect>')
        if e.label in SYMBOLS:
            parts.append(f'<text x="{x(e.step):.1f}" y="{top + 10}" text-anchor="middle" '
                         f'fill="{COLOURS["mark-" + e.label]}" font-weight="bold">{SYMBOLS[e.label]}</text>')
        if i < len(review.luck):
            t = review.luck[i]
            mid = (t.start + t.end) / 2
            after = t.luck + e.chosen_value
            low, high = sorted((y(e.chosen_value), y(after)))
            parts.append(f'<rect class="luck" x="{x(mid) - bar / 2:.1f}" y="{low:.1f}" width="{bar:.1f}" '
                         f'height="{max(1.0, high - low):.1f}" fill="{COLOURS["luck"]}" fill-opacity="0.7"><title>'
                         f'Steps {t.start + 2}-{t.end}: luck {100 * t.luck:+.0f} points</title></rect>')
    if review.complete and review.entries:
        points.append((_end_step(review), review.end_value))
    if len(points) > 1:
        path = " ".join(f"{x(s):.1f},{y(v):.1f}" for s, v in points)
        parts.append(f'<polyline class="value" points="{path}" fill="none" stroke="currentColor" '
                     'stroke-opacity="0.55" stroke-width="2"/>')
    parts.append("</svg>")
    return "".join(parts)


def review_html(review: Review) -> str:
    """The summary, the ledger and the marked decisions, as HTML (a notebook's `_repr_html_`)."""
    rows = "".join(f"<tr><td>{e.step + 1}</td><td>{escape(str(e.action))}</td><td>{e.label} "
                   f"{SYMBOLS.get(e.label, '')}</td><td>{100 * e.loss:.0f} ± {100 * e.se:.0f}</td>"
                   f"<td style='text-align:left'>{escape(e.explain())}</td></tr>"
                   for e in review.entries if e.label in SYMBOLS)
    table = ("<table><thead><tr><th>step</th><th>action</th><th>mark</th><th>loss (points)</th>"
             f"<th>why</th></tr></thead><tbody>{rows}</tbody></table>") if rows else "<p>No marks.</p>"
    return (f"<div><p><strong>{escape(review.verdict())}</strong></p><p>{escape(review.summary())}</p>"
            f"{ledger_svg(review)}{table}</div>")


def _end_step(review: Review) -> int:
    return review.luck[-1].end if review.luck else (review.entries[-1].step if review.entries else 0)
