"""The state machine of test_session.py, through NeedleWidget itself: every update message
the browser receives is merged into what the browser holds, and checked after each
request, Python call and timer tick.
"""

from __future__ import annotations

import json
from typing import Any

import pytest
import traitlets
from test_session import Driver, check_synced
from test_widget import Recorder, send, state

from needle_widget import Game, NeedleError, NeedleWidget
from needle_widget.engine.views import PERSPECTIVES


class WidgetDriver(Driver):
    """Drives a NeedleWidget as the browser (messages), Python (methods, traits) and its timer would."""

    def open(self, **kwargs: Any) -> None:
        self.w = NeedleWidget(**kwargs)
        self.browser_state = state(self.w)
        self.recorder = Recorder(self.w)
        self.entitled_before: set = set(PERSPECTIVES)

    def live(self) -> Game | None:
        return self.w.game if self.w.mode != "replay" else None

    def now(self) -> tuple[int, Any]:
        return self.w.steps, self.w.perspective

    def browser(self, method: str, *args: Any) -> bool:
        fields = {"perspective": ("to",), "step": ("to",), "act": ("action",), "reveal": (),
                  "autoplay": ("playing", "speed"), "resume": ("bot",)}[method]
        request = {"kind": method, **{k: v for k, v in zip(fields, args, strict=False) if v is not None}}
        send(self.w, **request)
        return self.w.error is None

    def python(self, method: str, *args: Any) -> bool:
        try:
            if method == "show":
                self.w.perspective = args[0]
            elif method == "__setattr__":
                setattr(self.w, *args)
            else:
                getattr(self.w, method)(*args)
        except (NeedleError, traitlets.TraitError):
            return False
        return True

    def timer(self) -> None:
        if self.w.playing:
            self.w._runner.tick()  # what the event loop would call (there is none here)

    def shown(self) -> tuple[Any, tuple, dict | None]:
        """What the browser holds after merging every update it was sent, each checked on arrival."""
        for message in self.recorder.messages:
            assert message.get("method") == "update", message
            self.browser_state.update(message["state"])
            p = self.browser_state["perspective"]
            assert p in self.entitled_before | set(self.browser_state["perspectives"]) | {self.model.peek}, self.log
            assert self.browser_state["table"]["perspective"] == p, self.log
        self.recorder.messages.clear()
        held = self.browser_state
        return held["perspective"], tuple(held["perspectives"]), held

    def check_state(self, entitled: tuple, full: dict | None) -> None:
        check_synced(full, entitled, self.model.peek)
        error = full["error"]
        assert error is None or "Something went wrong" not in error["text"], error
        if self.rng.random() < 0.05:  # the browser holds exactly what Python has
            assert json.dumps(full, sort_keys=True) == json.dumps(state(self.w), sort_keys=True)
        self.entitled_before = set(entitled)

    def cover(self) -> dict | None:
        return self.browser_state["cover"]


SEQUENCES = 300
OPERATIONS = 25


@pytest.mark.parametrize("chunk", range(3))
def test_no_widget_ever_sends_a_perspective_beyond_its_entitlement(chunk: int) -> None:
    """300 random sequences (3 chunks of 100) through the widget, every synced message checked."""
    per = SEQUENCES // 3
    for seed in range(10_000 + chunk * per, 10_000 + (chunk + 1) * per):
        driver = WidgetDriver(seed)
        driver.check()
        for _ in range(OPERATIONS):
            driver.step()
