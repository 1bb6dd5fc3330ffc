# Lesson 01 (notebooks/01_play.ipynb) as a marimo notebook: `marimo edit notebooks/marimo/01_play.py`
# to read and change the code, `marimo run notebooks/marimo/01_play.py` for the app a student gets
# (no code shown). Needs `pip install -e ".[marimo]"` (marimo 0.19.8 or later; tested with 0.25.2).

import marimo

__generated_with = "0.25.2"
app = marimo.App(width="medium", app_title="1 · Play Needle in a Card Stack")


@app.cell(hide_code=True)
def _():
    import marimo as mo

    return (mo,)


@app.cell(hide_code=True)
def _(mo):
    mo.md(r"""
    # 1 · Play *Needle in a Card Stack*

    Two players, one deck, and a secret each. In this notebook you learn the rules by looking
    at a few chosen moments of a game, then you play: against a bot, or against a classmate
    on the same screen.

    **The rules in brief** (the full rule book, with an ID for every rule, is `docs/RULES.md`
    in the project folder):

    1. **Needles.** Each player gets 7 cards, then secretly picks a *needle*: a card they do
       **not** hold, which they hope to find.
    2. **A turn.** Draw one card: the top of the draw pile, *or* a random card from your
       opponent's hand (a **steal**, at most once every three of your turns). Then lay as
       many **sets** as you like: three cards of consecutive ranks (4-5-6; suits don't
       matter; A-2-3 but not Q-K-A). After laying sets, draw as many cards as you laid.
       Then discard one card.
    3. **Points.** A set is worth 1 point, or **2** if its three cards share a suit or are
       J-Q-K.
    4. **The end.** The round stops *at once* when a needle is **found** (it enters its
       owner's hand), **discarded**, or **laid** in a set. Then the higher score wins, so
       finding your needle is only good news when you are ahead!
    """)
    return


@app.cell
def _():
    from needle_widget import Card, Game, NeedleWidget, actions, bots, set_points
    from needle_widget.engine.cards import DECK
    from needle_widget.engine.narration import narrate


    def dealt(hand1, hand2, pile="", seed=1):
        """A game dealt from a chosen deck: Player 1's hand, Player 2's hand, then the pile (top first)."""
        first = [Card.parse(c) for c in f"{hand1} {hand2} {pile}".split()]
        return Game(seed=seed, deck=first + [c for c in DECK if c not in first])

    return Card, NeedleWidget, actions, bots, dealt, narrate, set_points


@app.cell(hide_code=True)
def _(mo):
    mo.md(r"""
    ## A set worth 2

    Cards are written like `7h` or `7♥` (`Card.parse` reads both). A set is three
    consecutive ranks; it scores 2 when the suits match or when it is J-Q-K.
    """)
    return


@app.cell
def _(Card, mo, set_points):
    _lines = []
    for _cards in ["4c 5h 6h", "jd qd kd", "jc qh ks", "10c jh qs", "as 2d 3c"]:
        _trio = [Card.parse(c) for c in _cards.split()]
        _lines.append(f"{' '.join(map(str, _trio))} -> {set_points(_trio)} point(s)")
    mo.plain_text("\n".join(_lines))
    return


@app.cell(hide_code=True)
def _(mo):
    mo.md(r"""
    Here Player 1 holds 4♣ 5♥ 6♥ and J♦ Q♦ K♦. After drawing, they can lay both sets:
    1 point for the run in mixed suits, 2 for the diamonds. The widget below shows the
    table from Player 1's side, and it follows the game: when Python plays on, it moves on too.
    Pick three cards in the widget and press **Lay set** yourself, or press the button under
    the widget and Python lays both sets (the ones still in the hand) and ends the laying:
    six new cards drawn to replace them, and Player 1 about to discard. Then, to see the moment
    before the sets were laid, step back with ← (or the slider) to step 3; there the widget
    says "Go to the latest step (6) to play", because moves are made only at the latest step.
    """)
    return


@app.cell
def _(NeedleWidget, actions, dealt, mo):
    set_game = dealt("4c 5h 6h 9s jd qd kd", "2c 3d 7s 8d 10c ah 9h", pile="2s")
    set_game.apply(actions.ChooseNeedle("qs"))   # Player 1's needle
    set_game.apply(actions.ChooseNeedle("8c"))   # Player 2's needle
    set_game.apply(actions.DrawPile())
    set_widget = mo.ui.anywidget(NeedleWidget(game=set_game, perspective="p1"))
    lay_button = mo.ui.run_button(label="Lay both sets from Python")
    mo.vstack([
        mo.plain_text(str([str(a) for a in set_game.legal_actions()])),
        set_widget,
        lay_button,
    ])
    return lay_button, set_game, set_widget


@app.cell
def _(actions, lay_button, mo, set_game):
    mo.stop(not lay_button.value)
    for _move in [actions.LaySet(("jd", "qd", "kd")), actions.LaySet(("4c", "5h", "6h")), actions.EndSets()]:
        if set_game.is_legal(_move):   # a set already laid in the widget is skipped
            set_game.apply(_move)      # the widget above moves on too
    mo.plain_text(f"scores: {set_game.scores} | hand: {' '.join(map(str, set_game.hand(0)))}")
    return


@app.cell(hide_code=True)
def _(mo):
    mo.md(r"""
    ## A steal

    Instead of the pile, you may take a random card from your opponent's hand. Both
    players then know which card moved; a spectator does not. Narration shows the same
    moment from each side:
    """)
    return


@app.cell
def _(actions, dealt, mo, narrate):
    _game = dealt("4c 5h 6h 9s jd qd kd", "2c 3d 7s 8d 10c ah 9h", seed=3)
    _game.apply(actions.ChooseNeedle("qs"))
    _game.apply(actions.ChooseNeedle("8c"))
    _game.apply(actions.Steal())
    _lines = [f"{str(who):>9}: {narrate(_game, who)[-1]}" for who in (0, 1, "spectator")]
    _lines.append(f"Player 1 may steal again on turn {_game.next_steal_turn(0)}")
    mo.plain_text("\n".join(_lines))
    return


@app.cell(hide_code=True)
def _(mo):
    mo.md(r"""
    ## A needle found

    Player 2's needle is the 5♦, and it is the next card of the pile. Player 2 is
    behind when they draw it... and the round ends at once.
    """)
    return


@app.cell
def _(NeedleWidget, actions, dealt, mo):
    found_game = dealt("2c 3c 4c 9s jd qd 8h", "4h 8s jc 6c 10d as 9h", pile="7d kh kc kd 5d")
    found_game.apply(actions.ChooseNeedle("qs"))
    found_game.apply(actions.ChooseNeedle("5d"))
    for _move in ["draw", "lay 2c 3c 4c", "end", "discard 9s", "draw"]:
        found_game.apply(actions.parse(_move))
    found_widget = mo.ui.anywidget(NeedleWidget(game=found_game, perspective="teacher"))
    mo.vstack([mo.plain_text(found_game.result.describe()), found_widget])
    return (found_widget,)


@app.cell(hide_code=True)
def _(mo):
    mo.md(r"""
    ## Your turn: play against a bot

    Choose your seat, the bot and the deal: each change deals a new game in the widget below.
    Then play in the widget: pick a needle (any card you don't hold), then
    **Draw from pile** or **Steal from opponent**, lay sets, **Done laying sets**, and
    **Discard**. The bot answers after a short pause. Use the keyboard if you like: Tab
    moves between controls, ←/→ step through what happened.

    RandomBot is an easy opponent, GreedyBot and OddsBot harder ones. The class deal is
    seeded: the same seed deals the same cards, so the whole class can play the *same* deal
    and compare; "a new deal" deals cards nobody else has. When the round is over,
    **New deal** deals new cards against the same bot; **Same deal again** deals these once more.

    The class deal, **seed 1511**, is chosen on purpose: from Player 1's seat, GreedyBot's
    needle is neither in your hand nor near the top of the pile, so none of your first moves
    can end the round by discarding or laying it. Your hand already holds a set, 10♣ J♦ Q♣:
    do you lay it on your first turn for 1 point, or keep J♦ Q♣ for a king (J-Q-K scores 2)?
    No card you cannot see is named here: a needle picked knowing the top of the pile would be
    found at your first draw, ending the round. Two GreedyBots playing this deal go on for 33
    turns: there is a whole game to play and compare.
    """)
    return


@app.cell
def _(mo):
    # The controls: changing one re-runs the cell that makes the widget (marimo's reactivity).
    seat = mo.ui.dropdown(options={"Player 1 (you start)": 0, "Player 2": 1}, value="Player 1 (you start)",
                          label="Your seat")
    opponent = mo.ui.dropdown(options={"GreedyBot": "GreedyBot", "RandomBot (easy)": "RandomBot",
                                       "OddsBot": "OddsBot"}, value="GreedyBot", label="The bot")
    deal = mo.ui.dropdown(options={"the class deal (seed 1511)": 1511, "a new deal": "new"},
                          value="the class deal (seed 1511)", label="The deal")
    mo.hstack([seat, opponent, deal], justify="start", gap=2)
    return deal, opponent, seat


@app.cell
def _(mo):
    # How many steps the game below has: set on every move (the student's, the bot's), so the
    # cell reading `get_moves()` runs again after each one.
    get_moves, set_moves = mo.state(0)
    return get_moves, set_moves


@app.cell
def _(NeedleWidget, bots, deal, mo, opponent, seat, set_moves):
    _bot = {"GreedyBot": bots.GreedyBot, "RandomBot": lambda: bots.RandomBot(seed=1),
            "OddsBot": bots.OddsBot}[opponent.value]()
    _seed = None if deal.value == "new" else deal.value
    _widget = NeedleWidget.play(opponent=_bot, seed=_seed, you=seat.value)
    # A move arrives as a request from the browser (or from the bot's timer), never as a trait the
    # browser sets, so marimo would not re-run the cells that read `w` by itself: the widget's
    # `steps` trait changes with every move, and a marimo state carries that to the cells below.
    _widget.observe(lambda change: set_moves(change["new"]), names=["steps"])
    w = mo.ui.anywidget(_widget)
    w
    return (w,)


@app.cell(hide_code=True)
def _(mo):
    mo.md(r"""
    Python sees the same game the widget shows (`w.game`), and this line follows it after
    every move, yours and the bot's:
    """)
    return


@app.cell
def _(get_moves, mo, w):
    get_moves()   # runs again after every move
    _game = w.game
    _line = f"turn {_game.turn} · {_game.phase} · scores {_game.scores}"
    if _game.result is not None:
        _line += f" · {_game.result.describe()}"
    mo.md(f"**{_line}**")
    return


@app.cell(hide_code=True)
def _(mo):
    mo.md(r"""
    ## Two students, one screen

    In *hotseat* mode the table is covered between turns: "Pass to Player 2". Only the
    player whose turn it is uncovers their hand.
    """)
    return


@app.cell
def _(NeedleWidget, mo):
    hotseat = mo.ui.anywidget(NeedleWidget.hotseat(seed=7))
    hotseat
    return (hotseat,)


@app.cell(hide_code=True)
def _(mo):
    mo.md(r"""
    **To try next:** with a projector, `NeedleWidget.play(..., scale=1.5)` makes
    everything bigger. Notebook 2 replays whole games and shows what each player could
    and could not know.
    """)
    return


if __name__ == "__main__":
    app.run()
