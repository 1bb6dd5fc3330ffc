"""What if: the JSON of a seat's hypotheticals, as the widget shows them.

Three figures, each built from one seat's view alone:

- `worlds_panel`: a few possible worlds the seat cannot tell from the real one (the
  opponent's hand and needle, the next cards of the draw pile), what is the same in all
  of them, and what differs;
- `playout`: those worlds played to the end by two GreedyBots, as shares with intervals;
- `graph_point`, `graph_truth`, `graph_markers`: one step of the game's graph (the seat's
  win share and its belief about the opponent's needle), and the steals, sets and
  reshuffles along the way.

`thought` bounds what a searching bot reports of its last decision. The opponent model
is named (`MODELS`): "random" draws the worlds uniformly among those consistent with the
view, "greedy" weighs them by how likely GreedyBot was to play what the opponent played.

The secrecy rule: every function reads a view dict (`game.view(seat)`) and nothing else,
so twin games that differ only in cards the seat cannot see give the same output, and
the same view, seed, model and n always give the same JSON. Only the teacher's panel
shows the real world, and the real `Game` is then passed explicitly (`real=`).
Floats are rounded to 4 digits.
"""

from __future__ import annotations

import random
from typing import Any

from ..engine.cards import Card
from ..engine.errors import ArgumentError, PerspectiveError, finite, quote
from ..engine.game import Game
from ..engine.seats import player_name
from ..inference import knowledge
from ..inference import worlds as W
from ..inference.outcomes import outcomes
from ..players.bots import GreedyBot

__all__ = [
    "GRAPH_WORLDS", "MODELS", "MODEL_PARTICLES", "PILE_SHOWN", "PLAYOUT_WORLDS", "WORLDS_SHOWN", "check_model",
    "graph_markers", "graph_point", "graph_truth", "model_for", "playout", "thought", "worlds_panel", "worlds_text",
]

MODELS: dict[str, str] = {"random": "plays at random", "greedy": "plays like GreedyBot"}
"""The opponent models, with their labels: how the opponent's past choices are read."""
WORLDS_SHOWN = 6
"""Rows in the possible-worlds panel."""
PILE_SHOWN = 5
"""Next draw-pile cards shown per world."""
PLAYOUT_WORLDS = 200
"""Worlds played out by "Play them out"."""
GRAPH_WORLDS = 200
"""Worlds per step of the graph. Measured on a 2-core machine, model "random": a whole 64-71 action
replay takes 2.6-2.9 s (median 36-43 ms a step, worst 75 ms), leaving room for the 10 s goal on a machine
three times slower; model "greedy" about 8 s (the belief's posterior then has n particles too)."""
MODEL_PARTICLES = 200
"""Particles of the greedy model's posterior in the panel (the rows are n of them)."""
SAME_WORLDS = 200
"""Worlds (besides the rows) the panel checks "the same in every world" against, so that a card six
rows happen to share is not taken for one the seat knows (about 20 ms, model-free)."""
THOUGHT_VALUES = 8
"""The most candidates `thought` keeps."""
THOUGHT_TEXT = 80
"""The longest text `thought` keeps."""


def _rounded(value: Any, digits: int = 4) -> Any:
    if isinstance(value, float):
        return round(value, digits)
    if isinstance(value, (list, tuple)):
        return [_rounded(v, digits) for v in value]
    if isinstance(value, dict):
        return {k: _rounded(v, digits) for k, v in value.items()}
    return value


def check_model(name: Any) -> str:
    """`name` if it is an opponent model ("random" or "greedy"), else ArgumentError quoting it.

    >>> check_model("greedy")
    'greedy'
    >>> check_model("smart")
    Traceback (most recent call last):
    ...
    needle_widget.engine.errors.ArgumentError: model must be 'random' or 'greedy', not 'smart'
    """
    if type(name) is not str or name not in MODELS:
        raise ArgumentError(f"model must be 'random' or 'greedy', not {quote(name)}")
    return name


def model_for(name: str) -> Any:
    """The opponent model `worlds` and `outcomes` take: None for "random", a GreedyBot for "greedy"."""
    if check_model(name) == "random":
        return None
    return GreedyBot()


def _seat(view: Any) -> int | str:
    """The seat whose view this is (0, 1 or "spectator"), else ArgumentError / PerspectiveError."""
    if not isinstance(view, dict) or not isinstance(view.get("history"), list):
        raise ArgumentError(f"view must be a view dict (game.view(seat)), not {type(view).__name__}")
    seat = view.get("perspective")
    if seat == "teacher":
        raise PerspectiveError("hypotheticals need a player's or the spectator's view, not the teacher's: "
                               "the teacher sees the real world")
    if seat not in (0, 1, "spectator") or type(seat) not in (int, str):
        raise PerspectiveError(f"view perspective must be 0, 1 or 'spectator', not {seat!r}"[:200])
    return seat


def _check_seed(seed: Any) -> int:
    if type(seed) is not int or seed < 0:
        raise ArgumentError(f"seed must be a non-negative integer, not {seed!r}"[:200])
    return seed


def _model(view: dict[str, Any], model: Any) -> tuple[int | str, str]:
    """(seat, model name), with the spectator refused any model but "random"."""
    seat = _seat(view)
    model = check_model(model)
    if model != "random" and seat == "spectator":
        raise ArgumentError(f"model {model!r} needs a player's view: the spectator's worlds are drawn at random "
                            "(the model reads the opponent's decisions from a player's seat)")
    return seat, model


def _world_cards(world: Game, hidden: list[int]) -> tuple[dict[str, list[Card]], dict[str, str | None], list[str]]:
    hands = {str(q): world.hand(q) for q in hidden}
    needles = {str(q): (c.code if (c := world.needle(q)) is not None else None) for q in hidden}
    pile = [c.code for c in world.draw_pile[:PILE_SHOWN]]
    return hands, needles, pile


def worlds_panel(view: dict[str, Any], *, seed: int, model: str = "random", n: int = WORLDS_SHOWN,
                 real: Game | None = None) -> dict[str, Any]:
    """The possible-worlds panel: `n` worlds the seat of `view` cannot tell from the real one.

    `hidden` lists the players whose hand and needle are drawn (the opponent, or both for
    the spectator). `same` holds what every world shares, checked against SAME_WORLDS more
    worlds than the rows (the model's MODEL_PARTICLES with "greedy"; for the spectator, whose
    worlds are drawn by rejection, it is read from its view), so that it is what the seat
    knows, not a coincidence of six rows: per hidden player the cards in that hand in
    every world (by card index), the needle if it is one card in every world (None before
    the pick; the key is absent when it varies), and per position of the next PILE_SHOWN
    pile cards the card if it is the same everywhere, else None. Each row
    holds only the rest: `hands[q]` is the world's hand minus `same`, `needles[q]` is given
    only where `same` has no needle, and `pile[i]` is None where `same.pile[i]` is a card.

    With model "greedy" (a player's view only) the rows are n of MODEL_PARTICLES worlds of
    `worlds.posterior` with GreedyBot as the opponent, and `ess` is its effective sample
    size. With `real` (the teacher's panel: the game the view was made from) the real world
    comes first, marked "real", and `same` is then what it shares with the sampled worlds.

    >>> from needle_widget import Game, actions
    >>> g = Game(seed=7)
    >>> g.apply(actions.ChooseNeedle("7h")); g.apply(actions.ChooseNeedle("QS"))
    >>> panel = worlds_panel(g.view(0), seed=3)
    >>> panel["hidden"], len(panel["rows"]), panel["same"]["hands"], panel["same"]["needles"]
    ([1], 6, {'1': []}, {})
    >>> [len(row["hands"]["1"]) for row in panel["rows"]]   # Player 2's 7 cards: none known to Player 1
    [7, 7, 7, 7, 7, 7]
    >>> panel == worlds_panel(g.view(0), seed=3), panel == worlds_panel(g.view(0), seed=4)
    (True, False)
    """
    seat, model = _model(view, model)
    seed = _check_seed(seed)
    n = W.check_count(n)
    hidden = [1 - seat] if seat in (0, 1) else [0, 1]
    ess = particles = None
    if seat == "spectator":  # drawn by rejection (slow late in long games): what it knows is in its view
        worlds = pool = W.sample(view, n, seed=seed)
    elif model == "random":
        pool = W.sample(view, n + SAME_WORLDS, seed=seed)
        worlds = pool[:n]
    else:
        if n > MODEL_PARTICLES:
            raise ArgumentError(f"n must be at most {MODEL_PARTICLES} with model 'greedy', not {n!r}")
        post = W.posterior(view, MODEL_PARTICLES, seed=seed, model=model_for(model))
        picked = random.Random(f"whatif worlds_panel {seed}").sample(range(MODEL_PARTICLES), n)
        worlds = [post.worlds[i] for i in picked]
        pool = post.worlds
        ess, particles = post.ess, MODEL_PARTICLES
    drawn = [_world_cards(w, hidden) for w in worlds]
    checked = [_world_cards(w, hidden) for w in pool]
    if real is not None:
        given: object = real  # checked: a caller may pass anything
        if not isinstance(given, Game) or real.view(seat) != view:
            raise ArgumentError(f"real must be the Game this view was made from, not {real!r}"[:200])
        drawn.insert(0, _world_cards(real, hidden))
        checked.append(drawn[0])
    same_hands: dict[str, list[Card]] = {}
    same_needles: dict[str, str | None] = {}
    size = min(PILE_SHOWN, view["pile_size"])
    if seat == "spectator":
        for q in map(str, hidden):
            shown = view["players"][int(q)]
            same_hands[q] = sorted((Card.parse(c) for c in shown["hand"] or []), key=lambda c: c.index)
            if shown["needle"] is not None or not shown["needle_chosen"]:
                same_needles[q] = shown["needle"]
        same_pile: list[str | None] = [None] * size
    else:
        for q in map(str, hidden):
            common = set(checked[0][0][q]).intersection(*(set(h[q]) for h, _, _ in checked[1:]))
            same_hands[q] = sorted(common, key=lambda c: c.index)
            picks = {needles[q] for _, needles, _ in checked}
            if len(picks) == 1:
                same_needles[q] = picks.pop()
        same_pile = [checked[0][2][i] if all(pile[i] == checked[0][2][i] for _, _, pile in checked) else None
                     for i in range(size)]
    rows = []
    for k, (hands, needles, pile) in enumerate(drawn):
        is_real = real is not None and k == 0
        rows.append({
            "label": "Real" if is_real else f"World {k + (0 if real is not None else 1)}",
            "real": is_real,
            "hands": {q: [c.code for c in hand if c not in same_hands[q]] for q, hand in hands.items()},
            "needles": {q: code for q, code in needles.items() if q not in same_needles},
            "pile": [None if same_pile[i] is not None else pile[i] for i in range(size)],
        })
    who = player_name(seat) if seat in (0, 1) else "the spectator"
    how = f"{player_name(1 - seat)} {MODELS[model]}" if seat in (0, 1) else "both players play at random"
    note = f"{n} world{'s' if n != 1 else ''} {who} cannot tell from the real one, as if {how}."
    if real is not None:
        note += " The real world comes first."
    return _rounded({
        "seat": seat, "step": len(view["history"]), "model": model, "model_label": MODELS[model], "seed": seed,
        "n": n, "hidden": hidden, "pile_size": view["pile_size"],
        "same": {"hands": {q: [c.code for c in cards] for q, cards in same_hands.items()},
                 "needles": same_needles, "pile": same_pile},
        "rows": rows, "ess": ess, "particles": particles, "note": note,
    })


def worlds_text(panel: dict[str, Any]) -> str:
    """A `worlds_panel` in words, one line per world with its rows made whole again (what is the
    same in every world is said once, first), for a notebook or a terminal.

    >>> from needle_widget import Game, actions
    >>> g = Game(seed=7)
    >>> g.apply(actions.ChooseNeedle("7h")); g.apply(actions.ChooseNeedle("QS"))
    >>> print(worlds_text(worlds_panel(g.view(0), seed=3, n=2)))  # doctest: +NORMALIZE_WHITESPACE
    2 worlds Player 1 cannot tell from the real one, as if Player 2 plays at random.
    Same in every world: nothing.
    World 1: Player 2 holds A♥ 2♣ 2♥ 2♠ 5♣ 10♦ K♣, needle 4♦; the pile 7♦ 4♦ 4♥ 6♠ 6♥
    World 2: Player 2 holds 4♣ 5♠ 7♣ Q♦ Q♥ K♣ K♥, needle A♦; the pile 7♠ 4♠ 4♥ J♦ 3♣
    """
    def cards(codes: list[str | None]) -> str:
        return " ".join(str(Card.parse(c)) if c else "?" for c in codes) or "no card"

    same, hidden = panel["same"], [str(q) for q in panel["hidden"]]
    common = [f"{player_name(int(q))} holds {cards(same['hands'][q])}" for q in hidden if same["hands"].get(q)]
    common += [f"{player_name(int(q))}'s needle {cards([same['needles'][q]]) if same['needles'][q] else 'not picked'}"
               for q in hidden if q in same["needles"]]
    if any(same["pile"]):
        common.append(f"the pile {cards(same['pile'])}")
    lines = [panel["note"], f"Same in every world: {'; '.join(common) or 'nothing'}."]
    for row in panel["rows"]:
        parts = []
        for q in hidden:
            needle = row["needles"].get(q, same["needles"].get(q))
            held = sorted(same["hands"].get(q, []) + row["hands"].get(q, []), key=lambda c: Card.parse(c).index)
            picked = cards([needle]) if needle else "not picked"
            parts.append(f"{player_name(int(q))} holds {cards(held)}, needle {picked}")
        pile = [mine or common for mine, common in zip(row["pile"], same["pile"], strict=True)]
        lines.append(f"{row['label']}: {'; '.join(parts)}; the pile {cards(pile)}")
    return "\n".join(lines)


def _pair() -> tuple[Any, Any]:
    return GreedyBot(), GreedyBot()


def playout(view: dict[str, Any], *, seed: int, model: str = "random", n: int = PLAYOUT_WORLDS) -> dict[str, Any]:
    """`n` worlds of `view` played to the end by two GreedyBots (`outcomes.outcomes(...).to_dict()`),
    with `text` (the shares in words), `model` and `who` (the player the shares are for: the
    seat, or Player 1 for the spectator).
    """
    seat, model = _model(view, model)
    o = outcomes(view, _pair(), n, seed=_check_seed(seed), model=model_for(model))
    return _rounded({**o.to_dict(), "text": o.describe(), "model": model, "who": player_name(o.player)})


def graph_point(view: dict[str, Any], *, step: int, seed: int, model: str = "random", n: int = GRAPH_WORLDS,
                needle: str | None = None) -> dict[str, Any]:
    """One point of the graph: the seat's win share over `n` worlds played on by two GreedyBots
    (with its Wilson 95% interval `lo`-`hi`, and the draw share; `certain` once the round is
    over), and `belief`, P(the opponent's needle is `needle`) from this view
    (`knowledge.opponent_needle_odds`, with `n` particles under the greedy model), None when
    `needle` is None, for the spectator, or before the opponent picks.
    """
    seat, model = _model(view, model)
    seed = _check_seed(seed)
    if type(step) is not int or step < 0:
        raise ArgumentError(f"step must be a non-negative integer, not {step!r}"[:200])
    o = outcomes(view, _pair(), n, seed=seed, model=model_for(model))
    lo, hi = o.interval("win")
    belief = None
    if needle is not None and seat in (0, 1) and view["players"][1 - seat]["needle_chosen"]:
        card = Card.parse(needle)
        if model == "random":
            world = W.sample(view, 1, seed=random.Random(f"whatif graph_point {seed}").getrandbits(63))[0]
            odds = knowledge.opponent_needle_odds(world.player_view(seat))
        else:
            odds = knowledge.opponent_needle_odds(view, model_for(model), n=n, seed=seed)
        belief = odds.of(card)
    return _rounded({"step": step, "win": o.win, "lo": lo, "hi": hi, "draw": o.draw, "certain": o.certain,
                     "belief": belief})


def graph_truth(final_view: dict[str, Any]) -> str | None:
    """The opponent's needle (its code) if this player's view shows it (the round is over), else None."""
    seat = _seat(final_view)
    if seat not in (0, 1):
        return None
    return final_view["players"][1 - seat]["needle"]


def graph_markers(view: dict[str, Any]) -> list[dict[str, Any]]:
    """The steals, sets and reshuffles in the public history of `view` (any perspective but
    the teacher's), each at the step after its action: {"step", "kind", "player", "text"}.
    """
    _seat(view)
    out = []
    for k, event in enumerate(view["history"]):
        who = player_name(event["player"])
        kind = event.get("type")
        if kind == "steal":
            out.append({"step": k + 1, "kind": "steal", "player": event["player"], "text": f"{who} steals"})
        elif kind == "lay_set":
            cards = " ".join(str(Card.parse(c)) for c in event["cards"])
            out.append({"step": k + 1, "kind": "set", "player": event["player"], "text": f"{who} lays {cards}"})
        if event.get("reshuffles"):
            out.append({"step": k + 1, "kind": "reshuffle", "player": event["player"],
                        "text": f"The discards are reshuffled into a new draw pile ({who} drew)"})
    return out


def _text(value: Any) -> str | None:
    if not isinstance(value, str):
        return None
    return value if len(value) <= THOUGHT_TEXT else value[: THOUGHT_TEXT - 1] + "…"


def _count(value: Any) -> int | None:
    return value if type(value) is int and value >= 0 else None


def thought(decision: Any) -> dict[str, Any] | None:
    """What a searching bot thought (a `search.Decision.to_dict()`), bounded for the screen:
    {"chosen", "worlds", "rollouts", "legal", "kept", "values": [{"action", "value", "count"}]}
    with at most THOUGHT_VALUES candidates and texts cut to THOUGHT_TEXT characters; None for
    anything else (a dict of the wrong shape included). The time it took is left out.

    >>> thought({"chosen": "Draw from pile", "worlds": 16, "rollouts": 32, "legal": 2, "kept": True,
    ...          "values": [{"action": "Draw from pile", "value": 0.5, "count": 16}], "seconds": 0.01})
    ... # doctest: +NORMALIZE_WHITESPACE
    {'chosen': 'Draw from pile', 'worlds': 16, 'rollouts': 32, 'legal': 2, 'kept': True,
     'values': [{'action': 'Draw from pile', 'value': 0.5, 'count': 16}]}
    >>> thought({"values": "x"}) is None
    True
    """
    if not isinstance(decision, dict):
        return None
    chosen = _text(decision.get("chosen"))
    counts = [_count(decision.get(key)) for key in ("worlds", "rollouts", "legal")]
    kept = decision.get("kept", False)
    values = decision.get("values")
    if chosen is None or None in counts or type(kept) is not bool or not isinstance(values, list):
        return None
    out = []
    for item in values[:THOUGHT_VALUES]:
        if not isinstance(item, dict):
            return None
        action, value, count = _text(item.get("action")), item.get("value"), _count(item.get("count"))
        if action is None or count is None or type(value) not in (int, float) or (number := finite(value)) is None:
            return None
        out.append({"action": action, "value": round(number, 4), "count": count})
    worlds, rollouts, legal = counts
    return {"chosen": chosen, "worlds": worlds, "rollouts": rollouts, "legal": legal, "kept": kept, "values": out}
