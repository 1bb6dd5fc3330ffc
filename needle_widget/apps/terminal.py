"""The table as text, and a small game against a bot in the terminal (`needle-widget play`)."""

from __future__ import annotations

from typing import Any, TextIO

from ..engine import actions as A
from ..engine.cards import Card
from ..engine.errors import NeedleError
from ..engine.game import Game
from ..engine.narration import narrate
from ..engine.observation import reads_history
from ..engine.result import Result


def printable(text: object) -> str:
    r"""`str(text)` with every non-printable character escaped as `repr` would, but no quotes.

    For names that come from files (replays): they must not move the cursor, change
    colours or break lines in a terminal.

    >>> printable("Ann\x1b[31m\nBob")
    'Ann\\x1b[31m\\nBob'
    >>> printable("Zoë ♠")
    'Zoë ♠'
    """
    text = str(text)
    return "".join(c if c.isprintable() else repr(c)[1:-1] for c in text)


def _cards(codes) -> str:
    return " ".join(str(Card.parse(c)) for c in codes) or "-"


def describe_table(view: dict[str, Any]) -> str:
    """A few lines of text showing what a JSON view holds."""
    me = view["perspective"]
    lines = []
    if view["phase"] == "over":
        lines.append(f"Round over after turn {view['turn']}.")
    elif view["phase"] == "needle":
        lines.append(f"Picking needles: Player {view['to_move'] + 1} to pick.")
    else:
        lines.append(f"Turn {view['turn']}: Player {view['to_move'] + 1} to {view['phase']}.")
    top = view["discard_pile"][-1:] or []
    discards = f"Discard pile: {len(view['discard_pile'])} cards, top {_cards(top)}."
    lines.append(f"Draw pile: {view['pile_size']} cards. {discards}")
    for p, seat in enumerate(view["players"]):
        name = "You" if me == p else f"Player {p + 1}"
        hand = _cards(seat["hand"]) if seat["hand"] is not None else f"{seat['hand_size']} cards"
        needle = str(Card.parse(seat["needle"])) if seat["needle"] else ("?" if seat["needle_chosen"] else "not picked")
        sets = ", ".join(f"{_cards(s['cards'])} ({s['points']})" for s in seat["sets"]) or "none"
        if seat["may_steal"]:
            steal = "may steal now"
        elif seat["next_steal_turn"] > view["turn"]:
            steal = f"next steal on turn {seat['next_steal_turn']}"
        else:
            steal = "may steal at their next draw"
        lines.append(f"{name}: {seat['score']} pts; hand {hand}; needle {needle}; sets {sets}; {steal}.")
    if view.get("known_opponent_cards"):
        lines.append(f"You know the opponent holds {_cards(view['known_opponent_cards'])}.")
    if view["result"]:
        lines.append(Result.from_dict(view["result"]).describe())
    return "\n".join(lines)


def play_in_terminal(opponent: str, seed: int | None, you: int, save: str | None,
                     stdin: TextIO, stdout: TextIO) -> int:
    """Play one game against the bot `opponent` from `stdin`, telling `stdout` what seat `you` may know.

    The deal's seed gives away every hidden card, so it is shown only once the round is over.
    """
    from ..players.bots import bot_seed, make_bot

    bot = make_bot(opponent, seed=seed)
    game = Game(seed=seed)
    game.players = ("human", bot.name) if you == 0 else (bot.name, "human")
    if hasattr(bot, "new_game"):
        bot.new_game(bot_seed(game.seed, 1 - you), 1 - you)
    say = lambda text="": print(text, file=stdout, flush=True)  # noqa: E731
    say(f"Needle in a Card Stack: you are Player {you + 1} against {printable(bot.name)}.")
    say("Type the number of an action, or its words ('draw', 'steal', 'lay 4c 5h 6h', 'end', 'discard 7h').")
    told = 0
    while game.phase != "over":
        lines = narrate(game, you)
        for line in lines[told:]:
            if not line.startswith("You "):
                say(f"  {line}")
        told = len(lines)
        legal = game.legal_actions()
        if game.to_move != you:
            view = game.player_view(1 - you, record=reads_history(bot))
            game.apply(bot.choose(view, legal) if len(legal) > 1 else legal[0])
            continue
        say()
        say(describe_table(game.view(you)))
        for i, action in enumerate(legal, start=1):
            say(f"  {i:>2}. {action}")
        while True:
            stdout.write("> ")
            stdout.flush()
            line = stdin.readline()
            if not line:
                say("\nBye.")
                return 0
            text = line.strip()
            try:
                action = legal[int(text) - 1] if text.isdigit() and 1 <= int(text) <= len(legal) else A.parse(text)
                game.apply(action)
                break
            except NeedleError as error:
                say(f"  {error}")
    lines = narrate(game, you)
    for line in lines[told:]:
        say(f"  {line}")
    say(describe_table(game.view(you)))
    say(f"The deal's seed was {game.seed}: replay it with `needle-widget play --seed {game.seed}`.")
    if save:
        game.replay().save(save)
        say(f"Saved the replay to {save}.")
    return 0
