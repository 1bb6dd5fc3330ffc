"""A closed widget is freed (issue 20): anywidget tied every instance to its watched bundle file
(anywidget#929), and ipywidgets leaves a widget's `layout` open, so each closed widget kept
70-140 KB (its desk, replay and caches) for the life of the kernel.
"""

from __future__ import annotations

import gc
import sys
import weakref

from needle_widget import NeedleWidget, bots, examples

REPLAY = examples.load("found_early")


def _made_and_closed(i: int, panels: bool = False) -> weakref.ref:
    if i % 2:
        widget = NeedleWidget.from_replay(REPLAY, perspective="teacher", step=i % 10)
        if panels:
            widget.show_worlds()
            widget.show_graph()
    else:
        widget = NeedleWidget.play(opponent=bots.GreedyBot(), seed=i)
    ref = weakref.ref(widget)
    widget.close()
    return ref


def test_a_closed_widget_is_collected() -> None:
    refs = [_made_and_closed(i, panels=True) for i in range(2)]
    gc.collect()
    assert [ref() for ref in refs] == [None, None]


def test_two_hundred_widgets_made_and_closed_leave_memory_flat() -> None:
    for i in range(10):  # warm up: the caches of traitlets and ipywidgets fill once
        _made_and_closed(i)
    gc.collect()
    before = sys.getallocatedblocks()
    for i in range(200):
        _made_and_closed(i)
    gc.collect()
    grown = sys.getallocatedblocks() - before
    assert grown < 200 * 10, f"200 closed widgets still hold {grown} memory blocks"
