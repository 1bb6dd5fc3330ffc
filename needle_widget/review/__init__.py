"""Game review: each decision judged from what its player knew, and a ledger that separates skill from luck.

- `review(replay, seat)`: a `Review` of one seat's decisions (`review.review`);
- `Reviewer`: the same, one decision at a time (for screens);
- `exercises(reviews)`: the marked decisions as exercises ("You played X. Find a better move": `exercises`);
- `marks`: labels, thresholds and accuracy; `story`: what a seat saw (the review's only door to
  the replay); `values`: candidates valued on common worlds.

docs/REVIEW.md explains the method and its limits.
"""

from .exercises import Attempt, AttemptResult, Exercise, exercise_at, exercises
from .marks import LABELS, THRESHOLDS, accuracy, label
from .review import (
    DEFAULT_WORLDS,
    MORE,
    STEP,
    CandidateValue,
    Decision,
    Entry,
    LuckTerm,
    Review,
    Reviewer,
    judge,
    review,
    reviews,
)

__all__ = ["DEFAULT_WORLDS", "LABELS", "MORE", "STEP", "THRESHOLDS", "Attempt", "AttemptResult", "CandidateValue",
           "Decision", "Entry", "Exercise", "LuckTerm", "Review", "Reviewer", "accuracy", "exercise_at", "exercises",
           "judge", "label", "review", "reviews"]
