"""Students play each other: a duplicate match (`room.match(deals=2)`).

The room seats the students at tables, two a table in the order invited; with an odd count a bot
(`opponent`) takes the last table's empty seat. Every table plays the same deals, one a round, as a
duplicate movement: in each round half the tables play the deal one way round and half with the seats
swapped (the even-numbered tables in the first round, the odd-numbered ones in the second, and so on), so
each deal's cards are held from both seats across the class, and a student alternates seats from deal to
deal. Nobody plays a deal twice: a second time the student would know the opponent's hand (their own from
before) and the pile's order. Students who held the same cards of the same deal are the ones to compare. A
table moves on to its next round when one of its students asks for the next deal (the widget's "New game")
once the round is over.

The room is the game server: it holds the deals (their seeds), the games and the bot. A student's kernel
sends its moves and receives only its own seat's frames; the opponent's moves reach its screen as the
room sends it the new frame. Each finished round is kept (`Table.results`) for the board and the record.
"""

from __future__ import annotations

import logging
import random
import secrets
import time
from collections.abc import Callable, Container
from dataclasses import dataclass, field
from typing import Any

from ..engine.errors import quote
from ..engine.game import Game
from ..engine.rules import Rules
from ..engine.seats import player_name
from ..players.bots import BOTS, make_bot
from ..records.replay import Replay
from ..screen import guard
from ..screen.desk import Desk
from ..screen.frames import FIXED
from ..screen.guard import play_bots
from ..screen.session import Session
from ..screen.synced import Synced
from .activity import Activity, Handled, request
from .errors import ClassError
from .record import FinishedGame, Record

__all__ = ["Match", "Table", "MAX_DEALS"]

MAX_DEALS = 20
"""Deals in one match at most (each is played twice at every table)."""
ONLY = "In a match you see your own seat only"
log = logging.getLogger("needle_widget.classroom")


@dataclass
class Table:
    """A table of a match: its two students (member indices; None is the bot), the round it plays (round r is
    deal r; the seats swapped when number - 1 + r is odd), its game and each human seat's screen, and the finished
    rounds' results.
    """

    number: int
    players: tuple[int, int | None]
    round: int = 0
    game: Game | None = None
    sessions: dict[int, Session] = field(default_factory=dict)
    synced: dict[int, Synced] = field(default_factory=dict)
    results: list[dict[str, Any]] = field(default_factory=list)
    since: float = 0.0
    """When the game last moved (the match's clock): a seat waited on longer than `replace_after` is stood in for."""
    stand_ins: dict[int, Any] = field(default_factory=dict)
    """Seats a bot plays for the rest of this round, their student having left them waiting."""
    finishers: dict[int, Any] = field(default_factory=dict)
    """Seats a bot plays to the round's end as the match ends (`Match.end`), their student not having left."""
    joining: int | None = None
    """A student who came late and takes the bot's seat at this table from its next round (`Match.arrive`)."""

    @property
    def swapped(self) -> bool:
        """The table's second player sits at Player 1's seat this round."""
        return (self.number - 1 + self.round) % 2 == 1

    def seat_of(self, index: int) -> int:
        """The seat student `index` plays this round."""
        seat = self.players.index(index)
        return 1 - seat if self.swapped else seat

    def at_seat(self, seat: int) -> int | None:
        """The student at `seat` this round (None: the bot)."""
        return self.players[1 - seat if self.swapped else seat]

    @property
    def over(self) -> bool:
        """The round at this table is over."""
        return self.game is not None and self.game.result is not None


def _monotonic() -> float:
    return time.monotonic()


class Match(Activity):
    """The match `room.match(...)` started: see the module docstring."""

    kind = "match"
    absent = "No match is being played"
    leads = False

    def __init__(self, players: list[int], deals: int = 2, seed: int | None = None, opponent: str = "greedy", *,
                 ident: int = 1, rules: Rules | None = None, seeds: list[int] | None = None,
                 replace_after: float | None = None, clock: Callable[[], float] | None = None,
                 names: dict[int, str] | None = None) -> None:
        if type(deals) is not int or not 1 <= deals <= MAX_DEALS:
            raise ClassError(f"A match plays 1 to {MAX_DEALS} deals, not {quote(deals)}")
        if seed is not None and (type(seed) is not int or not 0 <= seed < 2**63):
            raise ClassError(f"A match's seed is a whole number from 0 to 2**63 - 1, not {quote(seed)}")
        bot: object = opponent  # checked: a caller may pass anything
        if not isinstance(bot, str) or opponent.strip().lower() not in BOTS:
            raise ClassError(f"A match's bot is one of {', '.join(BOTS)}, not {quote(opponent)}")
        after: object = replace_after  # checked too (a bool is no number of seconds)
        if replace_after is not None and (isinstance(after, bool) or not isinstance(after, (int, float))
                                          or not 1 <= replace_after <= 3600):
            raise ClassError(f"replace_after is 1 to 3600 seconds, or None (never), not {quote(replace_after)}")
        if len(players) < 1:
            raise ClassError("A match needs at least one invited student")
        rng = random.Random(secrets.randbits(63) if seed is None else seed)
        self.seeds = list(seeds) if seeds is not None else [rng.getrandbits(63) for _ in range(deals)]
        self.opponent, self.id, self.rules = opponent.strip().lower(), ident, rules or Rules()
        self.names = dict(names or {})
        """The students' names by index: each table's seats and titles name who sits there."""
        self.replace_after, self._clock = replace_after, clock or _monotonic
        self.title = f"Match of {len(self.seeds)} deals"
        pairs = [(players[i], players[i + 1] if i + 1 < len(players) else None) for i in range(0, len(players), 2)]
        self.tables = [Table(n + 1, pair) for n, pair in enumerate(pairs)]
        self._sent: dict[int, tuple[int, int]] = {}
        for table in self.tables:
            self._deal(table)

    def __repr__(self) -> str:
        return f"Match(deals={len(self.seeds)}, tables={len(self.tables)}, opponent={self.opponent!r})"

    @property
    def rounds(self) -> int:
        """Rounds at every table: one a deal."""
        return len(self.seeds)

    def _deal(self, table: Table, replay: Replay | None = None) -> None:
        seed = self.seeds[table.round]
        game = Game(seed=seed, rules=self.rules) if replay is None else replay.game_at(len(replay))
        table.game, table.sessions, table.synced, table.stand_ins, table.finishers = game, {}, {}, {}, {}
        for seat in (0, 1):
            if table.at_seat(seat) is None:
                continue
            other = table.at_seat(1 - seat)
            bots = play_bots(game, make_bot(self.opponent, seed=seed), seat) if other is None else {}
            session = Session(game, seat, mode="play", bots=bots)
            table.sessions[seat], table.synced[seat] = session, Synced(Desk(session))
        game.players = (self._name_at(table, 0), self._name_at(table, 1))  # after the bots named their seats
        self._follow(table)

    def _name_at(self, table: Table, seat: int) -> str:
        index = table.at_seat(seat)
        return self.opponent if index is None else self.names.get(index, "human")

    def _follow(self, table: Table) -> None:
        """Let the bots answer (the table's, and any standing in), then every screen show the latest step."""
        game = table.game
        assert game is not None
        while True:
            before = len(game)
            for session in table.sessions.values():
                session.run_bots()
            seat = game.to_move
            bot = table.stand_ins.get(seat, table.finishers.get(seat))
            if game.result is None and bot is not None:
                _, error = guard.move(bot, game, seat)
                if error is not None:  # the student has the seat back rather than the table waiting for ever
                    log.warning("class: the bot standing in at table %d failed: %s", table.number, error.public)
                    table.stand_ins.pop(seat, None)
                    table.finishers.pop(seat, None)
                    break
            if len(game) == before:
                break
        for session in table.sessions.values():
            if session.step != len(game):
                session.go(len(game))
        table.since = self._clock()

    def _bot(self, table: Table, seat: int) -> Any:
        """The match's bot, told the game so far from `seat` at `table` (to stand in or finish there)."""
        assert table.game is not None
        bot = make_bot(self.opponent, seed=self.seeds[table.round])
        guard.tell(bot, table.game, seat)
        return bot

    def _stand_in(self, table: Table, seat: int) -> None:
        """The match's bot plays `seat` at `table` for the rest of the round."""
        table.stand_ins[seat] = self._bot(table, seat)
        self._follow(table)

    def _record_if_over(self, table: Table) -> None:
        """Keep the table's round among its results once it is over (once)."""
        if table.over and len(table.results) == table.round:
            self._record(table)

    def tick(self, now: float) -> tuple[int, ...]:
        """Stand a bot in for each student who has left their table waiting `replace_after` seconds or more
        (for the rest of the round; the record marks it); the students whose screens changed.
        """
        if self.replace_after is None:
            return ()
        changed: list[int] = []
        for table in self.tables:
            game = table.game
            if game is None or game.result is not None or now - table.since < self.replace_after:
                continue
            seat = game.to_move
            index = table.at_seat(seat)
            if index is None or seat in table.stand_ins:
                continue
            self._stand_in(table, seat)
            self._record_if_over(table)
            changed += [i for i in table.players if i is not None]
        return tuple(changed)

    def end(self) -> tuple[int, ...]:
        """End the match: every deal still open is played to its end by the match's bot, so that it counts in the
        record. The student whose move it waited on counts as having left it (stood in for: a loss, as a walk-away
        is, docs/REVIEW.md); the other student's seat is played out too and their game counts as played. The
        students whose screens changed.
        """
        changed: list[int] = []
        for table in self.tables:
            game = table.game
            if game is None or game.result is not None:
                continue
            if table.at_seat(game.to_move) is not None and game.to_move not in table.stand_ins:
                self._stand_in(table, game.to_move)
            for seat in (0, 1):
                if not table.over and table.at_seat(seat) is not None and seat not in table.stand_ins:
                    table.finishers[seat] = self._bot(table, seat)
            self._follow(table)
            self._record_if_over(table)
            changed += [i for i in table.players if i is not None]
        return tuple(changed)

    def arrive(self, member: Any) -> tuple[int, ...]:
        """A student not seated who joins while the match is on takes the seat the bot plays at a table (the last
        one, with an odd count): at once if that table's game has not started (nobody has made a move), else from
        its next round, so nobody's game changes hands in the middle. Without a bot's seat free they wait for the
        next match. The students whose screens changed.
        """
        index = member.index
        if any(index in t.players or t.joining == index for t in self.tables):
            return ()
        table = next((t for t in self.tables if None in t.players and t.joining is None), None)
        if table is None:
            return ()
        self.names[index] = member.name
        if table.game is not None and len(table.game.history) == 0 and not table.results:
            table.players = (table.players[0], index)
            self._deal(table)
            return tuple(i for i in table.players if i is not None)
        table.joining = index
        return (index,)

    def _seat_joining(self, table: Table) -> None:
        """The latecomer waiting at `table` (`arrive`) takes the bot's seat, as its next round starts."""
        if table.joining is not None:
            table.players, table.joining = (table.players[0], table.joining), None

    def table_of(self, index: int) -> Table:
        """Student `index`'s table."""
        table = next((t for t in self.tables if index in t.players), None)
        if table is None:
            raise ClassError(f"Student {quote(index)} has no table in this match (invited after it started)")
        return table

    def frame(self, index: int) -> dict[str, Any]:
        """Student `index`'s screen at their table's latest step (their seat's view, with its legal moves)."""
        table = self.table_of(index)
        seat = table.seat_of(index)
        state = table.synced[seat].state()
        more = table.round + 1 < self.rounds
        offers = {"new_game": {"reason": None if table.over and more else
                               "The next deal starts once this one is over" if more else
                               "That was the match's last deal", "deals": ["new"]}}
        frame = {**state, **{k: v for k, v in FIXED.items() if k not in ("busy",)}, "perspectives": [seat],
                 "hidden_reason": ONLY, "mode": "play", "offers": offers}
        if seat in table.stand_ins and not table.over:
            frame["can_act"], frame["act_reason"] = False, self._stood_in()
        return frame

    def _stood_in(self) -> str:
        why = "" if self.replace_after is None else f": your move waited {self.replace_after:g} s"
        return f"A bot plays your seat for the rest of this deal{why}. You play again from the next deal"

    def screens(self, member: Any, reset: bool) -> list[dict[str, Any]]:
        """The student's game at its latest step, in one message (the whole screen again at a new round); a
        student invited after the match started waits for the next activity.
        """
        if not any(member.index in t.players for t in self.tables):
            waiting = next((t for t in self.tables if t.joining == member.index), None)
            title = ("The match started before you joined: you play in the next one" if waiting is None else
                     f"You take the bot's seat at table {waiting.number} from its next deal, once this one is over")
            return [{"kind": self.kind, "id": self.id, "reset": True, "live": None, "first": None, "frames": None,
                     "quiz": None, "title": title}]
        table = self.table_of(member.index)
        shown = (table.round, table.seat_of(member.index))
        reset = reset or self._sent.get(member.index) != shown
        self._sent[member.index] = shown
        frame = self.frame(member.index)
        step = frame["steps"]
        opponent = table.at_seat(1 - shown[1])
        against = "the bot" if opponent is None else self.names.get(opponent, "a classmate")
        title = (f"Match · deal {table.round + 1} of {len(self.seeds)} · you are {player_name(shown[1])}, "
                 f"against {against}")
        return [{"kind": self.kind, "id": self.id, "reset": reset, "live": step, "title": title, "first": step,
                 "frames": [frame], "quiz": None}]

    def replay_of(self, number: Any, round: Any = None) -> Replay:
        """Table `number`'s game as the teacher's replay: the round played now (None), or finished `round`."""
        table = next((t for t in self.tables if t.number == number and type(number) is int), None)
        if table is None:
            raise ClassError(f"There is no table {quote(number)}: the match has tables 1 to {len(self.tables)}")
        if round is None:
            assert table.game is not None
            return table.game.replay()
        done = {r["round"] + 1: r for r in table.results}
        if type(round) is not int or round not in done:
            raise ClassError(f"Table {number} has not finished round {quote(round)}"
                             f" (finished: {', '.join(map(str, done)) or 'none yet'})")
        return Replay.from_dict(done[round]["replay"])

    def _others(self, table: Table, index: int) -> tuple[int, ...]:
        return tuple(i for i in table.players if i is not None and i != index)

    @request("act", "match", "action")
    def request_act(self, member: Any, match: Any, action: Any) -> Handled:
        """A student's move at their table; the bot answers; both screens follow."""
        if match != self.id:
            raise ClassError(self.absent)
        table = self.table_of(member.index)
        if table.seat_of(member.index) in table.stand_ins:
            raise ClassError(self._stood_in())
        self.answer_screen(member, "act", {"action": action})
        self._follow(table)
        self._record_if_over(table)
        return Handled(finished=table.over, also=self._others(table, member.index))

    def seat_session(self, member: Any) -> Session | None:
        """The session of the student's seat at their table this round (None: no table, invited later)."""
        table = next((t for t in self.tables if member.index in t.players), None)
        return None if table is None else table.sessions.get(table.seat_of(member.index))

    @request("new_game", "match", "deal")
    def request_next(self, member: Any, match: Any, deal: Any) -> Handled:
        """The next deal at the student's table, once the round is over."""
        if match != self.id:
            raise ClassError(self.absent)
        if deal not in (None, "new"):
            raise ClassError(f"A match deals its own deals in turn, not {quote(deal)}")
        table = self.table_of(member.index)
        if not table.over:
            raise ClassError("The next deal starts once this one is over")
        if table.round + 1 >= self.rounds:
            raise ClassError("That was the match's last deal")
        table.round += 1
        late = table.joining
        self._seat_joining(table)
        self._deal(table)
        return Handled(also=self._others(table, member.index) + ((late,) if late is not None else ()))

    def _record(self, table: Table) -> None:
        assert table.game is not None and table.game.result is not None
        result = table.game.result
        table.results.append({"round": table.round, "deal": table.round,
                              "seats": [table.at_seat(0), table.at_seat(1)], "scores": list(result.scores),
                              "winner": result.winner, "replay": table.game.replay().to_dict(),
                              "stood_in": sorted(i for s, i in ((s, table.at_seat(s)) for s in table.stand_ins)
                                                 if i is not None)})

    def source(self, table: Table, round: int) -> str:
        """The record's name of table `table`'s game of round `round`."""
        return f"match {self.id}/table {table.number}/deal {round + 1}"

    def outcomes(self, known: Container[str] = ()) -> list[FinishedGame]:
        """The finished rounds not `known`, at every table (the seats as played; the students a bot stood in for)."""
        return [FinishedGame(self.source(t, r["round"]), f"match {self.id} · deal {r['deal'] + 1}",
                             Replay.from_dict(r["replay"]), tuple(r["seats"]),
                             self.opponent if None in r["seats"] else None, tuple(r["stood_in"]))
                for t in self.tables for r in t.results if self.source(t, r["round"]) not in known]

    def shown_game(self, index: int) -> tuple[str, int] | None:
        """Student `index`'s round, once over."""
        table = next((t for t in self.tables if index in t.players), None)
        if table is None or not table.over:
            return None
        return self.source(table, table.round), table.seat_of(index)

    def board(self, view: str, members: list[Any], record: Record) -> dict[str, Any]:
        """Each table: who sits there (names on the teacher's view), the round, and the margin over the deals
        every table has finished (a deal's results stay hidden while another table still plays it).
        """
        names = {m.index: m.name for m in members}
        settled = min(len(t.results) for t in self.tables)  # a deal's results once every table has played it
        tables = []
        for table in self.tables:
            who = [("Bot" if i is None else names.get(i, "?") if view == "teacher" else f"Seat {n + 1}")
                   for n, i in enumerate(table.players)]
            points = [0, 0]
            for r in table.results[:settled]:
                for n, index in enumerate(table.players):
                    if index not in r["seats"]:  # a latecomer, who took the bot's seat after this round
                        continue
                    seat = r["seats"].index(index)
                    points[n] += r["scores"][seat] - r["scores"][1 - seat]
            status = "over" if table.over else "stood in" if table.stand_ins else "playing"
            tables.append({"table": table.number, "players": who, "round": table.round + 1, "rounds": self.rounds,
                           "status": status, "margin": points})
        return {"match": {"deals": len(self.seeds), "settled": settled, "tables": tables}}

    def headline(self, board: dict[str, Any]) -> dict[str, str]:
        """"Match: 2 deals at 3 tables, 2 still playing"."""
        tables = board["match"]["tables"]
        playing = sum(t["status"] != "over" for t in tables)
        deals, count = len(self.seeds), len(tables)
        return {"kind": self.kind, "text": f"Match: {deals} deal{'s' * (deals != 1)} at {count} "
                                           f"table{'s' * (count != 1)}, {playing} still playing"}

    @classmethod
    def board_empty(cls, view: str, members: list[Any]) -> dict[str, Any]:
        """No match yet."""
        return {"match": None}

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready, for the room's saved state (the seeds are the teacher's: the state is sealed)."""
        return {"id": self.id, "seeds": self.seeds, "opponent": self.opponent, "rules": self.rules.to_dict(),
                "replace_after": self.replace_after,
                "tables": [{"number": t.number, "players": list(t.players), "round": t.round, "results": t.results,
                            "stand_ins": sorted(t.stand_ins), "joining": t.joining,
                            "game": t.game.replay().to_dict() if t.game is not None else None} for t in self.tables]}

    @classmethod
    def load(cls, room: Any, data: dict[str, Any]) -> Match:
        """The inverse of `to_dict`."""
        players = [i for t in data["tables"] for i in t["players"] if i is not None]
        joining = [t["joining"] for t in data["tables"] if t.get("joining") is not None]
        match = cls(players, len(data["seeds"]), opponent=data["opponent"], ident=data["id"],
                    rules=Rules.from_dict(data["rules"]), seeds=data["seeds"],
                    replace_after=data.get("replace_after"), names=_names(room, players + joining))
        for table, saved in zip(match.tables, data["tables"], strict=True):
            table.round, table.results, table.joining = saved["round"], saved["results"], saved.get("joining")
            match._deal(table, Replay.from_dict(saved["game"]) if saved["game"] else None)
            for seat in saved.get("stand_ins", []):
                match._stand_in(table, seat)
        return match


def _names(room: Any, players: list[int]) -> dict[int, str]:
    """The names `room` knows of `players` (none for a room that names nobody)."""
    name = getattr(room, "student_name", None)
    return {i: name(i) for i in players} if callable(name) else {}
