"""One deal for the whole class: every student plays the same deal against the same bot.

The room holds the deal (its seed), every student's game and the bot, as a game server does: a
student's kernel sends its moves and receives its own seat's frames, so no student's Python can read
the bot's hand or the pile. A finished game's replay stays in the room; the board ranks the students
by their luck-adjusted score (`review.matches`: the review's start value and skill, the bot's skill
counted against the student) beside the raw result.
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass
from typing import Any

from ..engine.errors import NeedleError, quote
from ..engine.game import Game
from ..engine.rules import Rules
from ..players.bots import BOTS, make_bot
from ..records.replay import Replay
from ..review.matches import MATCH_WORLDS, SeatLedger, ledger, match_score
from ..screen.desk import Desk
from ..screen.frames import FIXED
from ..screen.guard import play_bots
from ..screen.session import Session
from ..screen.synced import Synced
from .activity import Activity, Handled, request
from .errors import ClassError

__all__ = ["Challenge", "Played", "CHALLENGE_WORLDS"]

CHALLENGE_WORLDS = MATCH_WORLDS
"""Worlds per decision in the reviews that rank a challenge (as a luck-adjusted tournament's)."""
ONLY = "In a challenge you see your own seat only"
RANKING_NOTE = ("Ranked by luck-adjusted score: the result with the luck of the deal and the draws taken out (each "
                "decision valued from what the student knew; the bot's skill counts against them). The raw result is "
                "beside it.")


@dataclass
class Played:
    """A student's game of the challenge, its screen, and (once reviewed) the two seats' ledgers."""

    game: Game
    session: Session
    synced: Synced
    ledgers: tuple[SeatLedger, SeatLedger] | None = None

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
        if not isinstance(opponent, str) or opponent.strip().lower() not in BOTS:
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
            played.session.request_act(raw)
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

    @request("act", "challenge", "action")
    def request_act(self, member: Any, challenge: Any, action: Any) -> Handled:
        """A student's move in their game of challenge `challenge` (this one's id)."""
        if challenge != self.id:
            raise ClassError(self.absent)
        before = self.played(member.index).finished
        self.act(member.index, action)
        return Handled(finished=not before and self.played(member.index).finished)

    def finished(self, index: int) -> None:
        """Review student `index`'s finished game (for the board's luck-adjusted ranking)."""
        if index in self.games:
            self.review(index)

    def pending(self) -> list[int]:
        """The finished games (each reviewed again after the room reopens)."""
        return [index for index, played in self.games.items() if played.finished]

    def review(self, index: int, worlds: int = CHALLENGE_WORLDS) -> tuple[SeatLedger, SeatLedger]:
        """Both seats' ledgers of student `index`'s finished game (the student's, the bot's)."""
        played = self.games[index]
        if played.ledgers is None:
            replay = played.game.replay()
            played.ledgers = (ledger(replay, 0, worlds=worlds, seed=self.seed),
                              ledger(replay, 1, worlds=worlds, seed=self.seed))
        return played.ledgers

    def row(self, index: int) -> dict[str, Any]:
        """The board's row for student `index` (without name or rank)."""
        played = self.games.get(index)
        if played is None:
            return {"status": "not started", "result": "Not started", "score": None, "luck": None,
                    "adjusted": None, "can_open": False, "sort": None}
        game = played.game
        if not played.finished:
            return {"status": "playing", "result": f"Playing (step {len(game.replay())})", "score": None,
                    "luck": None, "adjusted": None, "can_open": True, "sort": None}
        result = game.result
        mine, theirs = result.scores
        head = "Won" if result.winner == 0 else "Lost" if result.winner == 1 else "Drew"
        row = {"status": "finished", "result": f"{head} {mine}–{theirs}", "score": mine - theirs,
               "luck": None, "adjusted": None, "can_open": True, "sort": None}
        if played.ledgers is not None:
            me, bot = played.ledgers
            adjusted = match_score(me, bot)
            row.update(luck=f"{me.luck:+.2f}", adjusted=f"{adjusted:.2f}", sort=adjusted)
        return row

    def board(self, view: str, members: list[Any]) -> dict[str, Any]:
        """The board's ranking: the finished games by luck-adjusted score, the raw result beside it."""
        rows = [{**self.row(m.index), "name": m.name if view == "teacher" else None}
                for m in members if m.index in self.games]
        ranked = sorted(rows, key=lambda r: (r["sort"] is None, -(r["sort"] or 0), -(r["score"] or -999)))
        for rank, row in enumerate(ranked, start=1):
            row["rank"] = rank if row["sort"] is not None else None
            row["can_open"] = row["can_open"] and view == "teacher"
            del row["sort"]
        return {"challenge": {"opponent": self.opponent, "rows": ranked, "note": RANKING_NOTE}}

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
