"""The pure build imports without compiled packages (issue 43, item 7): JupyterLite's browser Python has neither
`cryptography` nor `redis`. The widget, the engine, the review and practice import and play with both blocked;
the class imports them only when a class is opened, and says which package it needs.
"""

from __future__ import annotations

import subprocess
import sys
import textwrap

SCRIPT = textwrap.dedent("""
    import sys

    class Blocked:
        def find_spec(self, name, path=None, target=None):
            if name.split(".")[0] in ("cryptography", "redis"):
                raise ImportError(f"No module named {name!r} (blocked: as in JupyterLite)")
            return None

    sys.meta_path.insert(0, Blocked())

    from needle_widget import NeedleWidget, bots, examples
    from needle_widget.review import review
    from needle_widget.teaching.practice import Deck
    from needle_widget.review.exercises import exercises
    from needle_widget import classroom  # importing the class is fine; opening one needs the packages

    widget = NeedleWidget.play(opponent=bots.GreedyBot(), seed=8)
    moves = 0
    while widget.table["phase"] != "over":
        legal = widget.table["legal_actions"]
        widget._on_message(widget, {"kind": "act", "action": {k: v for k, v in legal[-1].items()
                                                               if k not in ("label", "points")}}, [])
        assert widget.error is None, widget.error
        moves += 1
    finished = review(widget.replay, 0, worlds=4)
    deck = Deck(exercises([finished]))
    try:
        classroom.open("folder:" + sys.argv[1] + "/room", start=False)
    except classroom.ClassError as refused:
        assert "cryptography" in str(refused), refused
    else:
        raise AssertionError("a class opened without cryptography")
    try:
        classroom.open("redis://127.0.0.1:1/0?room=monday", start=False)
    except classroom.ClassError as refused:
        assert "cryptography" in str(refused) or "'redis'" in str(refused), refused
    loaded = sorted(m for m in sys.modules if m.split(".")[0] in ("cryptography", "redis"))
    assert not loaded, loaded
    print("played", moves, "moves; reviewed", len(finished.entries), "decisions;", len(deck), "exercises")
""")


def test_the_widget_review_and_practice_play_without_cryptography_or_redis(tmp_path):
    done = subprocess.run([sys.executable, "-c", SCRIPT, str(tmp_path)], capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr[-3000:]
    assert done.stdout.startswith("played"), done.stdout
