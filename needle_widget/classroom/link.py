"""A channel's two workers for one end of a class: a sender that posts queued messages in order (and
keeps them while the channel is down, retrying), and a reader that waits for new messages and hands
them over. Nothing here waits in the caller's thread: `send` queues, the workers post and read.
Without the workers (`start` not called: a test, a script) `pump` does one round of both.
"""

from __future__ import annotations

import collections
import logging
import threading
import time
from collections.abc import Callable

from .channel import Channel, Message
from .errors import ChannelDown, ClassError

__all__ = ["Link", "MAX_QUEUE", "READ_WAIT"]

log = logging.getLogger("needle_widget.classroom")
MAX_QUEUE = 20_000
"""Messages that may wait to be posted while the channel is down."""
READ_WAIT = 1.0
"""Seconds one read waits for a message before it looks again."""
BACKOFF = (0.25, 0.5, 1.0, 2.0, 4.0)
"""Seconds between tries while the channel is down."""


class Link:
    """Posts `send`'s messages to `channel`; reads the boxes `cursors()` names and calls `handle(messages)`.
    `status(connected, why)` is told when the channel goes down or comes back.
    """

    def __init__(self, channel: Channel, cursors: Callable[[], dict[str, int]],
                 handle: Callable[[list[Message]], None], status: Callable[[bool, str | None], None],
                 name: str) -> None:
        self.channel, self._cursors, self._handle, self._status, self.name = channel, cursors, handle, status, name
        self._queue: collections.deque[tuple[str, Callable[[], None], str | None, float | None]] = collections.deque()
        self._lock = threading.Lock()
        self._wake, self._stop = threading.Event(), threading.Event()
        self._threads: list[threading.Thread] = []
        self.connected: bool = True
        self.why: str | None = None

    @property
    def waiting(self) -> int:
        """Operations queued and not yet done."""
        return len(self._queue)

    def do(self, what: str, operation: Callable[[], None], key: str | None = None, at: float | None = None) -> None:
        """Queue `operation` (a call on the channel) for the sender, after what is queued before. With
        `key`, a queued operation of the same key is replaced (only the latest state is worth saving).
        With `at` (a `time.monotonic()` time), the running sender does it no sooner (the operations
        queued after it go first); a flush by hand (`pump`, `close`) does not wait for it.
        """
        entry = (what, operation, key, at)
        with self._lock:
            if key is not None:
                for n, queued in enumerate(self._queue):
                    if queued[2] == key:
                        self._queue[n] = entry
                        break
                else:
                    self._queue.append(entry)
            else:
                if len(self._queue) >= MAX_QUEUE:
                    raise ClassError(f"{len(self._queue):,} messages are waiting for the class's channel "
                                     f"({self.why or 'it does not answer'}): nothing more is queued")
                self._queue.append(entry)
        self._wake.set()

    def send(self, box: str, seq: int, data: bytes) -> None:
        """Queue a message; the sender posts it (at once if it is running)."""
        self.do(f"message {seq} for {box}", lambda: self.channel.post(box, seq, data))

    def drop(self, box: str, upto: int) -> None:
        """Queue the dropping of `box`'s messages numbered `upto` or lower."""
        self.do(f"dropping {box} up to {upto}", lambda: self.channel.drop(box, upto))

    def _set(self, connected: bool, why: str | None) -> None:
        if (connected, why) != (self.connected, self.why):
            self.connected, self.why = connected, why
            if not connected:
                log.warning("class (%s): %s", self.name, why)
            self._status(connected, why)

    def flush(self, early: bool = True) -> bool:
        """Do every queued operation in order; False (the rest kept) if the channel is down. `early=False`
        (the running sender): an operation queued with a later `at` waits, the ones after it go on.
        """
        while True:
            with self._lock:
                now = time.monotonic()
                entry = next((e for e in self._queue if early or e[3] is None or e[3] <= now), None)
                if entry is None:
                    return True
                what, operation = entry[0], entry[1]
            try:
                operation()
            except ChannelDown as down:
                self._set(False, str(down))
                return False
            except ClassError as refused:
                log.warning("class (%s): gave up %s: %s", self.name, what, refused)
            except Exception:  # a bug in one operation must not stop the sender: logged, dropped, the rest go on
                log.exception("class (%s): gave up %s", self.name, what)
            with self._lock:
                for n, queued in enumerate(self._queue):
                    if queued[1] is operation:
                        del self._queue[n]
                        break
            self._set(True, None)

    def _pause(self) -> float:
        """Seconds the sender may sleep: until the earliest operation put off to later, at most READ_WAIT."""
        with self._lock:
            times = [e[3] for e in self._queue if e[3] is not None]
        return READ_WAIT if not times else max(0.0, min(READ_WAIT, min(times) - time.monotonic()))

    def read(self, timeout: float = 0.0) -> bool:
        """One read of the boxes (waiting up to `timeout`) and the handling of what came; False if down."""
        try:
            messages = self.channel.read(self._cursors(), timeout, self._stop)
        except (ChannelDown, ClassError) as down:  # ClassError: the channel refuses us (a ticket taken back)
            self._set(False, str(down))
            return False
        self._set(True, None)
        if messages:
            self._handle(messages)
        return True

    def pump(self, timeout: float = 0.0) -> None:
        """Without the workers: post what is queued, then read once."""
        self.flush()
        self.read(timeout)
        self.flush()

    def start(self) -> None:
        """Start the sender and the reader (daemon threads)."""
        if self._threads:
            return
        self._stop.clear()
        self._threads = [threading.Thread(target=self._sending, name=f"needle-class-{self.name}-send", daemon=True),
                         threading.Thread(target=self._reading, name=f"needle-class-{self.name}-read", daemon=True)]
        for thread in self._threads:
            thread.start()

    def stop(self) -> None:
        """Stop the workers (what is queued stays queued)."""
        self._stop.set()
        self._wake.set()
        for thread in self._threads:
            if thread is not threading.current_thread():
                thread.join(timeout=5)
        self._threads = []

    def close(self) -> None:
        """Stop the workers, post what is queued (while the channel answers), and let go of the channel."""
        if self._threads:
            self.stop()
        self.flush()
        self.channel.close()

    @property
    def running(self) -> bool:
        """The workers are running."""
        return bool(self._threads)

    def _sending(self) -> None:
        tries = 0
        while not self._stop.is_set():
            self._wake.wait(self._pause())
            self._wake.clear()
            while not self._stop.is_set() and not self.flush(early=False):
                self._stop.wait(BACKOFF[min(tries, len(BACKOFF) - 1)])
                tries += 1
            tries = 0

    def _reading(self) -> None:
        tries = 0
        while not self._stop.is_set():
            try:
                ok = self.read(READ_WAIT)
            except Exception:  # a handler's bug must not end the class: it is logged, the reader goes on
                log.exception("class (%s): a message could not be handled", self.name)
                self._stop.wait(BACKOFF[0])
                ok = True
            if ok:
                tries = 0
            else:
                self._stop.wait(BACKOFF[min(tries, len(BACKOFF) - 1)])
                tries += 1
