"""Quiz: a seat's forecasts at a replay's steps, the truth and the model beside them, and the score.

The pure-Python core of quiz mode (the widget asks and shows; this module decides):

1. `QuizQuestion(step, kind, seat, prompt=None)`: ask `seat` (0 or 1) a question of a
   `notes.QUESTION_KINDS` kind at `step` of a replay (the position after that many
   actions); `questions_from_notes(replay, seat)` takes those of the notes the seat may read.
2. `ask(replay, question)`: what the seat sees then (its view dict, nothing else: twin
   games that differ only in what the seat cannot see give the same dict) and the form
   of the answer. It never reads the record past the step.
3. `check_answer(question, answer, candidates=...)`: the answer, normalized, or
   AnswerError quoting it.
4. `reveal(replay, question, answer, seed=0)`: the truth, what the model says, the score.

The records of the answers, their files, a student's run through a quiz and the
teacher's view of the class are in `needle_widget.teaching.answers`.

Kinds, answers and scores
-------------------------
- needle: the answer is 1 to 3 distinct cards among the candidates; the truth is the
  opponent's real needle; the score is `coverage`, the model-free probability of the
  chosen cards (the sum of their odds), and `hit`, whether the needle is among them.
- next_draw: a probability 0..1; the truth is 1 if the seat's next pile draw after the
  step brought its needle, else 0; the score is the Brier score (p - truth)^2, with the
  models' Brier scores beside it.
- winner: P(the seat wins), 0..1; the truth is 1 if the seat won, else 0 (a loss or a
  draw); Brier scores as for next_draw.
- pile_or_steal: "pile" or "steal"; the truth is what was played and who won; the score
  is `vs_best`, the chosen draw's win share minus the better draw's (0 if it chose the
  better one, else negative).
- your_move: one of the seat's legal actions (at a decision of the seat: more than one
  legal action); the truth is what was played and who won; the score is the review's
  judgement of the move (`review.judge` on `n` worlds drawn from the seat's view, as the
  review values a decision): its `loss` of win chance against the best candidate, its
  standard error and its `mark` (best, good, inaccuracy, mistake, blunder), with the best
  move found and the candidates' values.

"The seat's next pile draw" is its first DrawPile action at or after the step; if the
round ends before it draws from the pile again the truth is 0 (a needle found while
replenishing after sets, T4, is not found by a pile draw). The model-free forecast is
`knowledge.own_needle_odds(view).next_draw` (the chance the top card of the pile is the
needle, the same for every pile position before a reshuffle); under the GreedyBot
opponent model it is the share of posterior worlds with the needle in the pile, divided
by the pile size. For "winner" both forecasts are `outcomes.outcomes(view, (GreedyBot(),
GreedyBot()), n)`'s win share (model None, or GreedyBot()). For "pile_or_steal" the same
n worlds drawn from the seat's view get each draw applied first, then GreedyBots play
on: the win shares of the two draws, with the standard error of their world-by-world
difference. Everything is determined by the replay, the question, the answer, `seed`
and `n`; no clock is read.

>>> from needle_widget import bots
>>> from needle_widget.players.sim import play_game
>>> r = play_game(bots.GreedyBot(), bots.GreedyBot(), seed=2).replay()
>>> q = QuizQuestion(10, "winner", 0)
>>> asked = ask(r, q)
>>> asked["form"], asked["prompt"]
({'type': 'probability', 'min': 0.0, 'max': 1.0, 'label': 'P(Player 1 wins)'}, 'Who will win from here?')
>>> shown = reveal(r, q, 0.7, n=20)
>>> shown["score"]["brier"] == (0.7 - shown["truth"]["outcome"]) ** 2
True
>>> check_answer(q, 1.5)
Traceback (most recent call last):
...
needle_widget.teaching.quiz.AnswerError: answer 1.5 to a winner question is not a probability from 0 to 1
"""

from __future__ import annotations

import copy
import math
import random
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

from ..engine import actions as A
from ..engine.cards import Card
from ..engine.errors import NeedleError, finite
from ..engine.errors import quote as _quote
from ..engine.game import Game
from ..engine.playout import rollout
from ..engine.seats import player_name
from ..inference.knowledge import opponent_needle_odds, own_needle_odds
from ..inference.outcomes import outcomes, wilson
from ..inference.worlds import check_count, check_seed, sample
from ..players.bots import GreedyBot
from ..records.notes import MAX_PROMPT_LENGTH, QUESTION_KINDS, Question
from ..review.review import judge

__all__ = [
    "CHOICES", "MAX_CHOSEN", "QUIZ_WORLDS", "AnswerError", "AnswerFileError", "AnswerLocked", "QuizError",
    "QuizQuestion", "QuizQuestionError", "ask", "brier", "check_answer", "check_question", "questions_from_notes",
    "reveal", "revealer",
]

QUIZ_WORLDS = 200
"""Worlds (and posterior particles) `reveal` uses by default."""
MAX_CHOSEN = 3
"""The most cards a needle answer may name."""
CHOICES = ("pile", "steal")
"""The answers to a pile_or_steal question."""



class QuizError(NeedleError):
    """A quiz question, answer or answer file that cannot be used; the message quotes it."""


class QuizQuestionError(QuizError):
    """A question that is malformed, or cannot be asked (or revealed) at its step of a replay."""


class AnswerError(QuizError):
    """An answer that does not fit its question (cards, probability or choice), or a bad answer record."""


class AnswerLocked(AnswerError):
    """A second answer to a question already answered and revealed (`QuizRun.answer`)."""


class AnswerFileError(QuizError):
    """An answer file that cannot be read or written: too big, a bad row (named), an unknown suffix."""


# ---- questions -------------------------------------------------------------------------------


@dataclass(frozen=True)
class QuizQuestion:
    """A question for `seat` (0 or 1) at `step` of a replay: a `kind` from QUESTION_KINDS and
    optional `prompt` words (else the kind's default, as asked of the seat).

    >>> q = QuizQuestion(12, "needle", 0)
    >>> q.text, q.to_dict()
    ("Which card is Player 2's needle?", {'step': 12, 'kind': 'needle', 'seat': 0})
    >>> QuizQuestion(12, "colour", 0)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    needle_widget.teaching.quiz.QuizQuestionError: question kind 'colour' is not one of needle, next_draw, winner, ...
    """

    step: int
    kind: str
    seat: int
    prompt: str | None = None

    def __post_init__(self) -> None:
        if type(self.step) is not int or self.step < 0:
            raise QuizQuestionError(f"question step {_quote(self.step)} is not an integer >= 0")
        if type(self.kind) is not str or self.kind not in QUESTION_KINDS:
            raise QuizQuestionError(f"question kind {_quote(self.kind)} is not one of {', '.join(QUESTION_KINDS)}")
        if type(self.seat) is not int or self.seat not in (0, 1):
            raise QuizQuestionError(f"question seat {_quote(self.seat)} is not a player (0 or 1)")
        if self.prompt is not None and (
            type(self.prompt) is not str or not self.prompt.strip() or len(self.prompt) > MAX_PROMPT_LENGTH
        ):
            raise QuizQuestionError(f"question prompt {_quote(self.prompt)} is not 1 to {MAX_PROMPT_LENGTH} "
                                    "characters of text")

    @property
    def text(self) -> str:
        """The words to show: the prompt, or the kind's default as asked of the seat."""
        return Question(self.kind, self.prompt).text(self.seat)

    def to_dict(self) -> dict[str, Any]:
        """{"step", "kind", "seat"} and "prompt" when there is one."""
        data: dict[str, Any] = {"step": self.step, "kind": self.kind, "seat": self.seat}
        if self.prompt is not None:
            data["prompt"] = self.prompt
        return data

    @classmethod
    def of(cls, value: Any) -> QuizQuestion:
        """A QuizQuestion, or its dict, as a QuizQuestion."""
        if isinstance(value, QuizQuestion):
            return value
        if isinstance(value, dict):
            unknown = sorted(str(k) for k in value if k not in ("step", "kind", "seat", "prompt"))
            missing = [k for k in ("step", "kind", "seat") if k not in value]
            if unknown or missing:
                raise QuizQuestionError(f"question {_quote(value)}: " + "; ".join(
                    ([f"missing {', '.join(missing)}"] if missing else [])
                    + ([f"unknown {', '.join(unknown)}"] if unknown else [])))
            return cls(value["step"], value["kind"], value["seat"], value.get("prompt"))
        raise QuizQuestionError(f"a question must be a QuizQuestion or its dict, not {_quote(value)}")


def questions_from_notes(replay: Any, seat: int) -> list[QuizQuestion]:
    """The questions of the notes `seat` may read (`replay.notes_for(seat)`), in step order.

    >>> from needle_widget import Game, actions
    >>> from needle_widget.records.replay import Replay
    >>> g = Game(seed=7)
    >>> g.apply(actions.ChooseNeedle("7h")); g.apply(actions.ChooseNeedle("QS"))
    >>> r = g.replay()
    >>> _ = r.add_note(2, "Think first.", question="pile_or_steal")
    >>> _ = r.add_note(2, "For Player 2 only.", perspective=1, question="needle")
    >>> questions_from_notes(r, 0)
    [QuizQuestion(step=2, kind='pile_or_steal', seat=0, prompt=None)]
    """
    seat = _check_seat(seat)
    return [QuizQuestion(note.step, note.question.kind, seat, note.question.prompt)
            for note in replay.notes_for(seat) if note.question is not None]


def _check_seat(seat: Any) -> int:
    if type(seat) is not int or seat not in (0, 1):
        raise QuizQuestionError(f"seat {_quote(seat)} is not a player (0 or 1)")
    return seat


def _game_at(replay: Any, question: QuizQuestion) -> Game:
    if question.step > len(replay):
        raise QuizQuestionError(f"question step {question.step} is past the replay's end: its steps are "
                                f"0..{len(replay)}")
    return replay.game_at(question.step)


def _applicable(game: Game, q: QuizQuestion) -> None:
    """QuizQuestionError unless `q` can be asked in `game` (its step), judged from the seat's view only."""
    where = f"{q.kind} question for {player_name(q.seat)} at step {q.step}"
    if game.phase == "over":
        assert game.result is not None  # a round over has its result
        raise QuizQuestionError(f"{where}: the round is over then ({game.result.describe()})")
    view = game.player_view(q.seat)
    opponent = 1 - q.seat
    if q.kind == "needle" and not game.view(q.seat)["players"][opponent]["needle_chosen"]:
        raise QuizQuestionError(f"{where}: {player_name(opponent)} has not picked a needle yet")
    if q.kind == "next_draw" and view.needle is None:
        raise QuizQuestionError(f"{where}: {player_name(q.seat)} has not picked a needle yet")
    if q.kind == "your_move" and (game.to_move != q.seat or len(game.legal_actions()) < 2):
        what = (f"it is {player_name(game.to_move)}'s move" if game.to_move != q.seat
                else f"{player_name(q.seat)}'s only legal action is {game.legal_actions()[0]}")
        raise QuizQuestionError(f"{where}: {player_name(q.seat)} must have a choice to make, but {what}")
    if q.kind == "pile_or_steal":
        legal = game.legal_actions()
        if game.phase != "draw" or game.to_move != q.seat or A.DRAW_PILE not in legal or A.STEAL not in legal:
            state = (f"it is {player_name(game.to_move)}'s {game.phase} phase on turn {game.turn}"
                     if game.phase != "needle" else "the players are picking needles")
            if game.phase == "draw" and game.to_move == q.seat:
                state = "only " + " and ".join(map(str, legal)) + " is legal then"
            raise QuizQuestionError(f"{where}: {player_name(q.seat)} must be to draw with both pile and steal "
                                    f"legal, but {state}")


def _truth_available(replay: Any, q: QuizQuestion) -> None:
    """QuizQuestionError unless the replay records the truth `reveal` needs."""
    if q.kind in ("winner", "pile_or_steal", "your_move") and replay.result is None:
        raise QuizQuestionError(f"{q.kind} question at step {q.step}: the replay ends at step {len(replay)} "
                                "with the round in progress: who won is not recorded")
    if q.kind == "next_draw" and replay.result is None and _next_pile_draw(replay, q) is None:
        raise QuizQuestionError(f"next_draw question at step {q.step}: the replay ends at step {len(replay)} in "
                                f"progress before {player_name(q.seat)} draws from the pile again")


def check_question(replay: Any, question: QuizQuestion | dict) -> QuizQuestion:
    """`question` if it can be asked at its step of `replay` and revealed from its record, else
    QuizQuestionError saying why (for a quiz to refuse it when it is set, before anyone answers).

    Asked: the step is in the replay and the round live then; "needle" needs the opponent's
    pick made, "next_draw" the seat's; "pile_or_steal" needs the seat to draw with both
    pile and steal legal. Revealed: "winner" and "pile_or_steal" need a finished replay,
    "next_draw" a finished one or a later pile draw by the seat.
    """
    q = QuizQuestion.of(question)
    _applicable(_game_at(replay, q), q)
    _truth_available(replay, q)
    return q


def _next_pile_draw(replay: Any, q: QuizQuestion) -> int | None:
    """The index of the seat's first DrawPile action at or after the question's step, or None."""
    for j in range(q.step, len(replay)):
        s = replay.steps[j]
        if s.player == q.seat and type(s.action) is A.DrawPile:
            return j
    return None


# ---- asking and answering ----------------------------------------------------------------------


def _candidates(game: Game, seat: int) -> list[str]:
    odds = opponent_needle_odds(game.player_view(seat))
    mask = odds.possible_mask
    return [Card.from_index(i).code for i in range(52) if mask >> i & 1]


def ask(replay: Any, question: QuizQuestion | dict) -> dict[str, Any]:
    """What `question.seat` sees at the question's step, and the form of its answer (JSON-ready).

    {"question": its dict, "prompt": the words, "view": `game.view(seat)` at the step, "form": ...}
    where the form is {"type": "cards", "min": 1, "max": 3, "candidates": [codes in card order]}
    (the cards the opponent's needle may be, from the seat's view), {"type": "probability",
    "min": 0.0, "max": 1.0, "label": ...}, {"type": "choice", "options": ["pile", "steal"]} or
    {"type": "action", "options": [the seat's legal actions in words, as the view lists them]}.
    Built from the seat's view alone (no figure of the model: that comes with the reveal);
    it reads nothing of the record past the step. A question that cannot be asked there
    raises QuizQuestionError.
    """
    q = QuizQuestion.of(question)
    game = _game_at(replay, q)
    _applicable(game, q)
    view = game.view(q.seat)
    form: dict[str, Any]
    if q.kind == "needle":
        form = {"type": "cards", "min": 1, "max": MAX_CHOSEN, "candidates": _candidates(game, q.seat)}
    elif q.kind == "pile_or_steal":
        form = {"type": "choice", "options": list(CHOICES)}
    elif q.kind == "your_move":
        form = {"type": "action", "options": [str(A.from_dict(a)) for a in view["legal_actions"]]}
    else:
        label = (f"P(your next pile draw finds your needle {Card.parse(view['players'][q.seat]['needle'])})"
                 if q.kind == "next_draw" else f"P({player_name(q.seat)} wins)")
        form = {"type": "probability", "min": 0.0, "max": 1.0, "label": label}
    return {"question": q.to_dict(), "prompt": q.text, "view": view, "form": form}


def check_answer(question: QuizQuestion | dict, answer: Any, candidates: Iterable[str] | None = None) -> Any:
    """The answer to `question`, normalized, or AnswerError quoting it.

    needle: 1 to MAX_CHOSEN distinct cards (text such as "7h" or Cards; a single card may
    stand alone), among `candidates` (card codes, as `ask` lists them) when given; returned
    as a tuple of codes in card order. next_draw, winner: a finite number from 0 to 1
    (not a bool), returned as a float. pile_or_steal: "pile" or "steal" (any case). your_move:
    an action (an Action, its dict, or its words as `ask` lists them) among `candidates` (the
    options' words) when given; returned as its words ("Discard 5♥").

    >>> check_answer(QuizQuestion(5, "needle", 0), ["qs", "7H"])
    ('7H', 'QS')
    >>> check_answer(QuizQuestion(5, "needle", 0), ["7h", "7H"])
    Traceback (most recent call last):
    ...
    needle_widget.teaching.quiz.AnswerError: answer ['7h', '7H'] to a needle question names 7H twice
    """
    q = QuizQuestion.of(question)
    if q.kind == "needle":
        return _check_cards(answer, candidates)
    if q.kind == "your_move":
        return _check_action(answer, candidates)
    if q.kind == "pile_or_steal":
        choice = answer.strip().lower() if isinstance(answer, str) else None
        if choice not in CHOICES:
            raise AnswerError(f"answer {_quote(answer)} to a pile_or_steal question is not 'pile' or 'steal'")
        return choice
    value = finite(answer)
    if value is None or not 0 <= value <= 1:
        raise AnswerError(f"answer {_quote(answer)} to a {q.kind} question is not a probability from 0 to 1")
    return value


def _check_action(answer: Any, candidates: Iterable[str] | None) -> str:
    words: str | None
    try:
        action = (answer if isinstance(answer, A.Action) else A.from_dict(answer) if isinstance(answer, dict)
                  else A.parse(answer) if isinstance(answer, str) else None)
        words = None if action is None else str(action)
    except NeedleError:
        words = answer if isinstance(answer, str) else None
    options = None if candidates is None else list(candidates)
    if words is None or (options is not None and words not in options):
        legal = f": choose one of {', '.join(options)}" if options is not None else ""
        raise AnswerError(f"answer {_quote(answer)} to a your_move question is not a legal move here{legal}"[:300])
    return words


def _check_cards(answer: Any, candidates: Iterable[str] | None) -> tuple[str, ...]:
    items = [answer] if isinstance(answer, (str, Card)) else answer
    if not isinstance(items, (list, tuple)):
        raise AnswerError(f"answer {_quote(answer)} to a needle question is not a list of 1 to {MAX_CHOSEN} cards")
    if not 1 <= len(items) <= MAX_CHOSEN:
        raise AnswerError(f"answer {_quote(answer)} to a needle question names {len(items)} cards: "
                          f"choose 1 to {MAX_CHOSEN}")
    cards: list[Card] = []
    for item in items:
        try:
            card = Card.parse(item)
        except NeedleError:
            raise AnswerError(f"answer {_quote(answer)} to a needle question: {_quote(item)} is not a card") from None
        if card in cards:
            raise AnswerError(f"answer {_quote(answer)} to a needle question names {card.code} twice")
        cards.append(card)
    if candidates is not None:
        allowed = set(candidates)
        outside = [c.code for c in cards if c.code not in allowed]
        if outside:
            raise AnswerError(f"answer {_quote(answer)} to a needle question: {', '.join(outside)} cannot be the "
                              f"needle from this seat's view ({len(allowed)} cards can)")
    return tuple(c.code for c in sorted(cards, key=lambda c: c.index))


# ---- revealing ------------------------------------------------------------------------------


def brier(forecast: float, outcome: int | float) -> float:
    """The Brier score of a probability against what happened (1 or 0): (forecast - outcome)^2.

    >>> round(brier(0.7, 1), 10), brier(0.0, 0)
    (0.09, 0.0)
    """
    return (forecast - outcome) ** 2


def _part_seed(seed: int, q: QuizQuestion, part: str) -> int:
    return random.Random(f"needle quiz {seed} {q.step} {q.seat} {q.kind} {part}").getrandbits(63)


def reveal(replay: Any, question: QuizQuestion | dict, answer: Any, *, seed: int = 0,
           n: int = QUIZ_WORLDS) -> dict[str, Any]:
    """The truth, what the model says and the score of `answer` to `question` (JSON-ready).

    {"question": ..., "prompt": ..., "answer": the normalized answer (a list of codes for
    needle), "truth": {...}, "model": {"free": {...}, "greedy": {...}}, "score": {...}};
    see the module docstring for each kind. "free" is the model-free model (A1-A3 of
    `knowledge`), "greedy" the GreedyBot opponent model (`n` posterior particles). The
    same arguments give the same dict. A bad answer raises AnswerError; a question that
    cannot be asked, or whose truth the replay does not record, QuizQuestionError.
    """
    return revealer(replay, question, seed=seed, n=n)(answer)


def revealer(replay: Any, question: QuizQuestion | dict, *, seed: int = 0,
             n: int = QUIZ_WORLDS) -> Callable[[Any], dict[str, Any]]:
    """`reveal` for many answers to one question (a class's): the truth and the models' figures are
    worked out once, at the first answer (after it is checked), and each answer is scored against them.

    >>> from needle_widget import examples
    >>> score = revealer(examples.load("detective"), QuizQuestion(36, "winner", 0), n=20)
    >>> [round(score(p)["score"]["brier"], 2) for p in (0.2, 0.9)]
    [0.64, 0.01]
    """
    q = QuizQuestion.of(question)
    seed, n = check_seed(seed), check_count(n)
    game = _game_at(replay, q)
    _applicable(game, q)
    _truth_available(replay, q)
    view = game.view(q.seat)
    candidates = (_candidates(game, q.seat) if q.kind == "needle" else
                  [str(A.from_dict(a)) for a in view["legal_actions"]] if q.kind == "your_move" else None)
    figures: dict[str, Any] = {}

    def model() -> dict[str, Any]:
        if not figures:
            figures.update(_figures(replay, game, q, view, seed, n))
        return figures

    def score(answer: Any) -> dict[str, Any]:
        answer = check_answer(q, answer, candidates)
        head = {"question": q.to_dict(), "prompt": q.text, "answer": list(answer) if q.kind == "needle" else answer}
        f = model()
        if q.kind == "needle":
            return {**head, **_score_needle(f, answer)}
        if q.kind == "pile_or_steal":
            return {**head, **_score_draw(f, answer)}
        if q.kind == "your_move":
            return {**head, **_score_move(f, answer)}
        outcome = f["truth"]["outcome"]
        score = {"brier": brier(answer, outcome), "model_brier": f["model"]["free"]["brier"],
                 "greedy_brier": f["model"]["greedy"]["brier"]}
        return {**head, "truth": dict(f["truth"]), "model": copy.deepcopy(f["model"]), "score": score}

    return score


def _figures(replay: Any, game: Game, q: QuizQuestion, view: dict, seed: int, n: int) -> dict[str, Any]:
    """What every answer to `q` is scored against: the truth and the models' figures."""
    if q.kind == "needle":
        opponent_needle = game.needle(1 - q.seat)
        assert opponent_needle is not None  # asked only once the opponent has picked (`_applicable`)
        return {"truth": opponent_needle.code, "free": opponent_needle_odds(game.player_view(q.seat)),
                "greedy": opponent_needle_odds(view, model=GreedyBot(), n=n, seed=_part_seed(seed, q, "greedy"))}
    if q.kind == "pile_or_steal":
        played = replay.steps[q.step].action if q.step < len(replay) else None
        truth = {"played": "pile" if type(played) is A.DrawPile else "steal" if type(played) is A.Steal else None,
                 "winner": replay.result.winner, "result": replay.result.describe()}
        free_draws = _draw_values(view, q, _part_seed(seed, q, "free"), None, n)
        greedy_draws = _draw_values(view, q, _part_seed(seed, q, "greedy"), GreedyBot(), n)
        return {"truth": truth, "model": {"free": free_draws, "greedy": greedy_draws}}
    if q.kind == "your_move":
        truth = {"played": str(replay.steps[q.step].action), "winner": replay.result.winner,
                 "result": replay.result.describe()}
        by_words = {str(A.from_dict(a)): A.from_dict(a) for a in view["legal_actions"]}
        return {"truth": truth, "judge": _move_judge(view, q, by_words, _part_seed(seed, q, "review"), n)}
    if q.kind == "winner":
        outcome = int(replay.result.winner == q.seat)
        truth = {"outcome": outcome, "winner": replay.result.winner, "result": replay.result.describe()}
        pair = (GreedyBot(), GreedyBot())
        free = outcomes(view, pair, n, seed=_part_seed(seed, q, "free")).win
        greedy = outcomes(view, pair, n, seed=_part_seed(seed, q, "greedy"), model=GreedyBot()).win
    else:
        needle = game.needle(q.seat)
        assert needle is not None  # asked only once the seat has picked (`_applicable`)
        j = _next_pile_draw(replay, q)
        found = j is not None and replay.steps[j].cards[:1] == (needle,)
        outcome = int(found)
        truth = {"outcome": outcome, "needle": needle.code, "draw_step": j,
                 "drawn": replay.steps[j].cards[0].code if j is not None else None}
        next_draw = own_needle_odds(game.player_view(q.seat)).next_draw
        assert next_draw is not None  # the seat has picked and the round is not over (`_applicable`)
        free = next_draw
        worlds = sample(view, n, seed=_part_seed(seed, q, "greedy"), model=GreedyBot())
        greedy = sum(w.pile_size and (needle in w.draw_pile) / w.pile_size for w in worlds) / n
    return {"truth": truth, "model": {"free": {"forecast": free, "brier": brier(free, outcome)},
                                      "greedy": {"forecast": greedy, "brier": brier(greedy, outcome)}}}


def _score_needle(f: dict[str, Any], chosen: tuple[str, ...]) -> dict[str, Any]:
    truth = f["truth"]
    model = {}
    for name in ("free", "greedy"):
        odds = f[name]
        top = odds.most_likely(MAX_CHOSEN)
        model[name] = {"top": [[c.code, p] for c, p in top], "best_coverage": sum(p for _, p in top),
                       "coverage": sum(odds.of(c) for c in chosen), "truth_odds": odds.of(truth)}
    score = {"coverage": model["free"]["coverage"], "hit": truth in chosen,
             "greedy_coverage": model["greedy"]["coverage"], "best_coverage": model["free"]["best_coverage"]}
    return {"truth": {"needle": truth}, "model": model, "score": score}


def _score_draw(f: dict[str, Any], choice: str) -> dict[str, Any]:
    model = copy.deepcopy(f["model"])
    for m in model.values():
        m["vs_best"] = m["shares"][choice] - max(m["shares"].values())
    score = {"vs_best": model["free"]["vs_best"], "greedy_vs_best": model["greedy"]["vs_best"],
             "best": model["free"]["best"]}
    return {"truth": dict(f["truth"]), "model": model, "score": score}


def _move_judge(view: dict, q: QuizQuestion, by_words: dict[str, A.Action], seed: int,
                n: int) -> Callable[[str], dict[str, Any]]:
    """The review's judgement of a move (by its words) at the question's decision, each move judged once."""
    judged: dict[str, dict[str, Any]] = {}
    worlds = min(max(n, 2), 2_000)

    def of(words: str) -> dict[str, Any]:
        if words not in judged:
            e = judge(view, by_words[words], q.step, worlds=worlds, seed=seed)
            best = e.value_of(e.best)
            judged[words] = {"mark": e.label, "loss": e.loss, "se": e.se, "value": e.value_of(e.action).value,
                             "best": str(e.best), "best_value": best.value, "worlds": e.worlds,
                             "values": [{"move": str(v.action), "value": v.value, "se": v.se} for v in e.values]}
        return judged[words]

    return of


def _score_move(f: dict[str, Any], words: str) -> dict[str, Any]:
    judged = f["judge"](words)
    score = {"loss": judged["loss"], "se": judged["se"], "mark": judged["mark"], "best": judged["best"]}
    return {"truth": dict(f["truth"]), "model": {"review": copy.deepcopy(judged)}, "score": score}


def _roll_share(worlds: list[Game], action: A.Action, seat: int) -> list[int]:
    """Apply `action` in each world and play on with GreedyBots (the world unchanged): 1 where `seat` wins, else 0."""
    bots = (GreedyBot(), GreedyBot())
    return [int(rollout(world, bots, action).winner == seat) for world in worlds]


def _draw_values(view: dict, q: QuizQuestion, seed: int, model: Any, n: int) -> dict[str, Any]:
    worlds = sample(view, n, seed=seed, model=model)
    pile = _roll_share(worlds, A.DRAW_PILE, q.seat)
    steal = _roll_share(worlds, A.STEAL, q.seat)
    diffs = [a - b for a, b in zip(pile, steal, strict=True)]
    mean = sum(diffs) / n
    se = math.sqrt(sum((d - mean) ** 2 for d in diffs) / (n - 1) / n) if n > 1 else math.inf
    shares = {"pile": sum(pile) / n, "steal": sum(steal) / n}
    best = "pile" if shares["pile"] >= shares["steal"] else "steal"
    return {"shares": shares, "intervals": {"pile": list(wilson(sum(pile), n)), "steal": list(wilson(sum(steal), n))},
            "best": best, "difference": mean, "se": se, "n": n}
