"""One deal for the whole class: every student plays the same deal against the same bot.

The room holds the deal (its seed), every student's game and the bot, as a game server does: a
student's kernel sends its moves and receives its own seat's frames, so no student's Python can read
the bot's hand or the pile. Each finished game goes into the class's record (`classroom.record`); the
board lists this deal's games with each one's result and luck-adjusted score, and places no student above
another on one deal: the record does that, over the games students share.
"""

from __future__ import annotations

import secrets
from collections.abc import Container
from dataclasses import dataclass
from typing import Any

from ..engine.errors import NeedleError, quote
from ..engine.game import Game
from ..engine.rules import Rules
from ..players.bots import BOTS, make_bot
from ..records.replay import Replay
from ..review.verdict import points_text, signed_points
from ..screen.desk import Desk
from ..screen.features import REQUESTS
from ..screen.frames import FIXED
from ..screen.guard import play_bots
from ..screen.session import Session
from ..screen.synced import Synced
from .activity import Activity, Handled, request
from .errors import ClassError
from .record import FinishedGame, Record

__all__ = ["Challenge", "Played"]

ONLY = "In a challenge you see your own seat only"
RANKING_NOTE = ("Each game's luck-adjusted score, in points of win chance (a win is 100, a draw 50, a loss 0): its "
                "result with the luck of the cards taken out (the student's decisions valued from what they could "
                "see, as their Review panel shows); its luck, in the same points, is the result minus it. One "
                "game's figure can pass 0 or 100 (the review's noise). One deal cannot rank a class: the record "
                "below places students only where the games they share separate them.")


@dataclass
class Played:
    """A student's game of the challenge and its screen."""

    game: Game
    session: Session
    synced: Synced

    @property
    def finished(self) -> bool:
        """The round is over."""
        return self.game.result is not None


class Challenge(Activity):
    """The challenge `room.challenge(seed, opponent)` started: seat 0 for every student, the bot at seat 1."""

    kind = "challenge"
    absent = "No challenge is being played"
    leads = False

    def __init__(self, seed: int | None = None, opponent: str = "greedy", *, ident: int = 1,
                 rules: Rules | None = None) -> None:
        if seed is None:
            seed = secrets.randbits(63)
        if type(seed) is not int or not 0 <= seed < 2**63:
            raise ClassError(f"A challenge's seed is a whole number from 0 to 2**63 - 1, not {quote(seed)}")
        given: object = opponent  # checked: a caller may pass anything
        if not isinstance(given, str) or opponent.strip().lower() not in BOTS:
            raise ClassError(f"A challenge's opponent is one of {', '.join(BOTS)}, not {quote(opponent)}")
        self.seed, self.opponent, self.id = seed, opponent.strip().lower(), ident
        self.rules = rules or Rules()
        self.games: dict[int, Played] = {}
        self.title = f"One deal for the class, against {self.opponent}"
        Game(seed=seed, rules=self.rules)  # a bad seed or rules fail here, not at a student's first move

    def __repr__(self) -> str:
        done = sum(p.finished for p in self.games.values())
        return f"Challenge(opponent={self.opponent!r}, games={len(self.games)}, finished={done})"

    def played(self, index: int, replay: Replay | None = None) -> Played:
        """Student `index`'s game (dealt on first use, or carried on from `replay` after a restart)."""
        if index not in self.games:
            game = Game(seed=self.seed, rules=self.rules) if replay is None else replay.game_at(len(replay))
            bot = make_bot(self.opponent, seed=self.seed)
            session = Session(game, 0, mode="play", bots=play_bots(game, bot, 0))
            session.run_bots()
            self.games[index] = Played(game, session, Synced(Desk(session)))
        return self.games[index]

    def act(self, index: int, raw: Any) -> None:
        """Student `index`'s move (checked by the game's one legality rule), then the bot's answer."""
        played = self.played(index)
        try:
            REQUESTS["act"].call(played.session, {"action": raw})  # the local widget's handler of "act"
        except NeedleError as refused:
            raise ClassError(str(refused)) from None
        played.session.run_bots()

    def frame(self, index: int) -> dict[str, Any]:
        """Student `index`'s screen at the game's latest step (seat 0's view, with its legal moves)."""
        played = self.played(index)
        state = played.synced.state()
        return {**state, **{k: v for k, v in FIXED.items() if k not in ("busy",)}, "perspectives": [0],
                "hidden_reason": ONLY, "mode": "play"}

    def screens(self, member: Any, reset: bool) -> list[dict[str, Any]]:
        """The student's game at its latest step, in one message."""
        frame = self.frame(member.index)
        step = frame["steps"]
        return [{"kind": self.kind, "id": self.id, "reset": reset, "live": step, "title": self.title,
                 "first": step, "frames": [frame], "quiz": None}]

    def seat_session(self, member: Any) -> Any:
        """The session of the student's own game (None before they have one)."""
        played = self.games.get(member.index)
        return None if played is None else played.session

    @request("act", "challenge", "action")
    def request_act(self, member: Any, challenge: Any, action: Any) -> Handled:
        """A student's move in their game of challenge `challenge` (this one's id)."""
        if challenge != self.id:
            raise ClassError(self.absent)
        before = self.played(member.index).finished
        self.answer_screen(member, "act", {"action": action})  # the local widget's handler, on the seat's session
        self.played(member.index).session.run_bots()
        return Handled(finished=not before and self.played(member.index).finished)

    def source(self, index: int) -> str:
        """The record's name of student `index`'s game."""
        return f"challenge {self.id}/student {index}"

    def outcomes(self, known: Container[str] = ()) -> list[FinishedGame]:
        """The finished games not `known` (the student at seat 0, the bot at seat 1)."""
        return [FinishedGame(self.source(index), f"challenge {self.id}", played.game.replay(), (index, None),
                             self.opponent) for index, played in self.games.items()
                if played.finished and self.source(index) not in known]

    def shown_game(self, index: int) -> tuple[str, int] | None:
        """Student `index`'s game, once over (seat 0)."""
        played = self.games.get(index)
        return (self.source(index), 0) if played is not None and played.finished else None

    def row(self, index: int, record: Record) -> dict[str, Any]:
        """The board's row for student `index` (without name): its luck and luck-adjusted score in points of win
        chance (`review.verdict.UNIT`), `score` the margin of the game's points.
        """
        played = self.games.get(index)
        if played is None:
            return {"status": "not started", "result": "Not started", "score": None, "luck": None,
                    "adjusted": None, "can_open": False, "sort": None}
        game = played.game
        if not played.finished:
            return {"status": "playing", "result": f"Playing (step {len(game.replay())})", "score": None,
                    "luck": None, "adjusted": None, "can_open": True, "sort": None}
        result = game.result
        assert result is not None  # finished
        mine, theirs = result.scores
        head = "Won" if result.winner == 0 else "Lost" if result.winner == 1 else "Drew"
        row = {"status": "finished", "result": f"{head} {mine}–{theirs}", "score": mine - theirs,
               "luck": None, "adjusted": None, "can_open": True, "sort": None}
        entry = record.entry(self.source(index), 0)
        if entry is not None and entry.adjusted is not None:
            luck = entry.result - entry.adjusted if entry.luck is None else entry.luck
            row.update(luck=signed_points(luck), adjusted=points_text(entry.adjusted), sort=entry.adjusted)
        return row

    def board(self, view: str, members: list[Any], record: Record) -> dict[str, Any]:
        """The deal's games by luck-adjusted score, the raw result beside it; no rank (one deal ranks nobody)."""
        rows = [{**self.row(m.index, record), "name": m.name if view == "teacher" else None}
                for m in members if m.index in self.games]
        ranked = sorted(rows, key=lambda r: (r["sort"] is None, -(r["sort"] or 0), -(r["score"] or -999)))
        for row in ranked:
            row["can_open"] = row["can_open"] and view == "teacher"
            del row["sort"]
        return {"challenge": {"opponent": self.opponent, "rows": ranked, "note": RANKING_NOTE}}

    def headline(self, board: dict[str, Any]) -> dict[str, str]:
        """"Challenge: one deal against greedy, 3 of 5 games finished"."""
        rows = board["challenge"]["rows"]
        done = sum(r.get("status") == "finished" for r in rows)
        return {"kind": self.kind, "text": f"Challenge: one deal against {self.opponent}, {done} of {len(rows)} games "
                                           "finished"}

    @classmethod
    def board_empty(cls, view: str, members: list[Any]) -> dict[str, Any]:
        """No challenge yet: no ranking."""
        return {"challenge": None}

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready, for the room's saved state (the seed is the teacher's: the state is sealed)."""
        return {"id": self.id, "seed": self.seed, "opponent": self.opponent, "rules": self.rules.to_dict(),
                "games": {str(k): p.game.replay().to_dict() for k, p in self.games.items()}}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Challenge:
        """The inverse of `to_dict`."""
        challenge = cls(data["seed"], data["opponent"], ident=data["id"], rules=Rules.from_dict(data["rules"]))
        for key, replay in data["games"].items():
            challenge.played(int(key), Replay.from_dict(replay))
        return challenge

    @classmethod
    def load(cls, room: Any, data: dict[str, Any]) -> Challenge:
        """`from_dict` (a challenge needs nothing of its room)."""
        return cls.from_dict(data)
