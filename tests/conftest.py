"""Small helpers for the rules-engine tests: stacked decks, needle picks, scripted turns.

Cards are written as text everywhere ("4c 5h 6h", "10♥", "QD"), as `Card.parse` reads them.
"""

from __future__ import annotations

import sys
import threading
from collections.abc import Iterable
from contextlib import contextmanager

import pytest

import needle_widget
from needle_widget import Card, Game, Rules, actions
from needle_widget.apps.builds import build_of
from needle_widget.engine.actions import Action

COMPILED = build_of(needle_widget) != "pure Python"
"""Whether this run imports the compiled core (CI's second stage, .ci/compiled)."""
pure_arguments = pytest.mark.skipif(
    COMPILED, reason="the compiled core checks an argument's Python type before the engine does (mypyc's TypeError: "
    "'int or None object expected; got float'), and reads True as 1 (docs/DEVELOPMENT.md, 'A compiled core')")
"""For a test of what a wrongly typed argument raises: the pure build's words, not the compiled build's."""

ALL_CARDS: tuple[Card, ...] = tuple(Card.from_index(i) for i in range(52))
"""The 52 cards in index order (A♣ A♦ A♥ A♠ 2♣ ... K♠)."""

CardsLike = str | Iterable[str | Card]
Step = str | Action


def cards(text: CardsLike) -> list[Card]:
    """Cards from text such as "4c 5h 6h" (or a list of cards / codes)."""
    if isinstance(text, str):
        text = text.replace(",", " ").split()
    return [Card.parse(c) for c in text]


def stacked(
    hand0: CardsLike,
    hand1: CardsLike,
    pile_top_first: CardsLike = (),
    rules: Rules | None = None,
    seed: int = 0,
) -> Game:
    """A Game dealt from a chosen deck (as `Game(deck=)` deals: hand0, hand1, then the pile top first).

    The hand size is `rules.hand_size` if rules are given, else len(hand0). A hand
    shorter than the hand size is padded with the lowest unused cards (index order),
    Player 1's first. The draw pile is `pile_top_first`, then every unused card, also
    in index order. `seed` drives the later chance events (steals, reshuffles).
    """
    h0, h1, pile = cards(hand0), cards(hand1), cards(pile_top_first)
    if rules is None:
        rules = Rules(hand_size=len(h0))
    size = rules.hand_size
    named = h0 + h1 + pile
    assert len(set(named)) == len(named), f"a card is named twice: {named}"
    assert len(h0) <= size and len(h1) <= size, "a hand is longer than rules.hand_size"
    spare = [c for c in ALL_CARDS if c not in set(named)]
    h0 = h0 + [spare.pop(0) for _ in range(size - len(h0))]
    h1 = h1 + [spare.pop(0) for _ in range(size - len(h1))]
    deck = h0 + h1 + pile + spare
    assert len(deck) == 52
    return Game(rules=rules, seed=seed, deck=deck)


def pick(game: Game, n0: str | Card, n1: str | Card) -> Game:
    """Both needle picks (S3): Player 1 picks n0, then Player 2 picks n1."""
    game.apply(actions.ChooseNeedle(Card.parse(n0)))
    game.apply(actions.ChooseNeedle(Card.parse(n1)))
    return game


def pick_deep(game: Game) -> Game:
    """Needles that stay out of the way: the two bottom cards of the draw pile."""
    pile = game.draw_pile
    return pick(game, pile[-1], pile[-2])


def play(game: Game, *steps: Step) -> Game:
    """Apply each step: an action, or its text as `actions.parse` reads it ("draw", "lay 4c 5h 6h")."""
    for step in steps:
        game.apply(actions.parse(step) if isinstance(step, str) else step)
    return game


def quiet_turn(game: Game) -> None:
    """One turn that changes as little as possible: draw from the pile, lay nothing,
    discard the lowest card that is not the opponent's needle.
    """
    assert game.phase == "draw"
    p = game.to_move
    play(game, "draw", "end")
    if game.phase == "discard":
        keep = game.needle(1 - p)
        card = next(c for c in game.hand(p) if c != keep)
        game.apply(actions.Discard(card))


def all_zones(game: Game) -> list[Card]:
    """Every card in every zone: both hands, draw pile, discard pile, both players' sets."""
    out = game.hand(0) + game.hand(1) + game.draw_pile + game.discard_pile
    for p in (0, 1):
        for s in game.sets(p):
            out += list(s)
    return out


def pick_crossed(game: Game) -> Game:
    """Needles that never end the round under `quiet_turn`: each player's needle is the
    highest card of the opponent's hand, which quiet turns never discard, lay or steal.
    """
    return pick(game, max(game.hand(1)), max(game.hand(0)))


LONGEST_BROWSER_FILES = (
    "test_class_term_in_jupyterlab", "test_class_on_jupyterhub", "test_whatif_in_jupyterlab",
    "test_widget_in_jupyterlab", "test_summary_and_deals_in_jupyterlab", "test_marimo", "test_quiz_in_jupyterlab",
    "test_keys_and_picture", "test_stepping_and_reasons", "test_wheel_in_browser", "test_notebook7_and_voila",
    "test_review_in_jupyterlab", "test_class_in_jupyterlab", "test_projector_layout",
)
"""The browser test files that take longest, longest first (measured at 938cba3, each file alone: about 50 s down
to 20 s), sent out first: with two workers taking a file at a time, the short files then fill in at the end instead
of one worker running a long file alone."""


def _order(item) -> tuple[int, int]:  # noqa: ANN001
    path = str(item.fspath).replace("\\", "/")
    if "/tests/browser/" not in path:
        return (0, 0)
    stem = path.rsplit("/", 1)[-1].removesuffix(".py")
    return (1, LONGEST_BROWSER_FILES.index(stem) if stem in LONGEST_BROWSER_FILES else len(LONGEST_BROWSER_FILES))


def pytest_collection_modifyitems(config, items) -> None:  # noqa: ANN001
    """Browser tests last: Playwright's sync API leaves an event loop running in the main
    thread, which other tests (asyncio.run, the widget's scheduling) must not see. With
    pytest-xdist (`--dist loadfile`) each file runs on one worker: a notebook's cells in order
    in one kernel, a browser module with the worker's one Jupyter server. The browser tests and
    lessons 02-06 are `slow`; other slow tests carry the mark themselves.
    """
    items.sort(key=_order)
    for item in items:  # the quick run (-m "not slow") keeps lesson 01 and leaves the browser and the other lessons
        path = str(item.fspath).replace("\\", "/")
        if "/tests/browser/" in path or (path.endswith(".ipynb") and not path.endswith("/01_play.ipynb")):
            item.add_marker(pytest.mark.slow)


@pytest.fixture(scope="session")
def redis_server(worker_id):
    """The tests' redis-server on 127.0.0.1: CI's (NEEDLE_REDIS_PORT), else one of this session's own
    (tests/redis_server.py).
    """
    import os

    from redis_server import RedisServer, require_redis

    port = os.environ.get("NEEDLE_REDIS_PORT")
    if port:
        yield RedisServer(int(port), worker=worker_id if worker_id != "master" else "")
        return
    require_redis()
    server = RedisServer().start()
    yield server
    server.stop()


@pytest.fixture(params=["folder", "redis"])
def class_url(request, tmp_path):
    """A new class room's address, on each channel: a folder in tmp_path, or a room no test has used on the
    tests' Redis (class tests get it as `url`, through their module's alias).
    """
    if request.param == "folder":
        return f"folder:{tmp_path}/room"
    return request.getfixturevalue("redis_server").fresh_url("room")


def settle(room, *students, rounds: int = 3) -> None:
    """Pump a room and its students by hand (`start=False`) until their messages have gone both ways."""
    for _ in range(rounds):
        room.pump()
        for s in students:
            s.pump()


@contextmanager
def pumped_class(url: str, names: Iterable[str]):
    """A room at `url` (pumped by hand) with `names` invited and joined: (room, students), closed after."""
    from needle_widget import classroom

    room = classroom.open(url, start=False)
    students = [classroom.join(room.url, room.invite(name).code, start=False) for name in names]
    settle(room, *students)
    try:
        yield room, students
    finally:
        for s in students:
            s.close()
        room.close()


@contextmanager
def _untraced(item):  # noqa: ANN001
    """No tracing while `item` (marked `untraced`) sets up and runs: this thread's trace function and the one
    new threads get are set aside, then handed back (coverage's C tracer installs itself again).

    For the long statistical and twin tests, whose games are built in fixtures too. Coverage (CI only) more
    than doubles such pure-Python loops (the worlds' posterior test: 25 s, 59 s with coverage); the code they
    run is covered by quicker tests. (pytest-cov's own `no_cover` pauses only its controller, for the call
    only: in an xdist worker coverage's own measurement goes on tracing.)
    """
    if not item.get_closest_marker("untraced"):
        yield
        return
    here, new = sys.gettrace(), threading.gettrace()
    sys.settrace(None)
    threading.settrace(None)  # type: ignore[arg-type]
    try:
        yield
    finally:
        threading.settrace(new)  # type: ignore[arg-type]
        sys.settrace(here)


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_setup(item):  # noqa: ANN001, ANN201
    with _untraced(item):
        yield


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_call(item):  # noqa: ANN001, ANN201
    with _untraced(item):
        yield
