"""`NeedleWidget.save_png`: Python asks the open views for a picture and never waits; the first
valid PNG a view sends back for that request is written, once. Drawing happens in the browser
(tests/browser/test_keys_and_picture.py); here a view's answer is played by hand.
"""

from __future__ import annotations

import base64
import logging
import struct
import zlib
from pathlib import Path
from typing import Any

import pytest

from needle_widget import NeedleWidget, bots, play_game
from needle_widget.engine.errors import ArgumentError
from needle_widget.jupyter.widget import MAX_PICTURE


def tiny_png() -> bytes:
    """A real 1x1 PNG."""
    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", 1, 1, 8, 6, 0, 0, 0))
            + chunk(b"IDAT", zlib.compress(b"\x00\x11\x22\x33\xff")) + chunk(b"IEND", b""))


def data_url(data: bytes) -> str:
    return "data:image/png;base64," + base64.b64encode(data).decode()


class Views:
    """Stands in for the comm: the custom messages Python sends to its views."""

    def __init__(self, widget: NeedleWidget) -> None:
        self.sent: list[dict] = []
        widget.comm.send = self.send  # type: ignore[method-assign]

    def send(self, data: Any = None, buffers: Any = None, **_: Any) -> None:
        if data.get("method") == "custom":
            self.sent.append(data["content"])


@pytest.fixture
def widget() -> NeedleWidget:
    replay = play_game(bots.GreedyBot(), bots.RandomBot(seed=2), seed=12).replay()
    w = NeedleWidget.from_replay(replay, perspective="teacher", step=6)
    yield w
    w.close()


def answer(w: NeedleWidget, **content: Any) -> None:
    w._on_message(w, {"kind": "picture", **content}, [])


def test_save_png_asks_the_views_and_returns_at_once(widget: NeedleWidget, tmp_path: Path) -> None:
    views = Views(widget)
    target = tmp_path / "view.png"
    assert widget.save_png(target) is None
    assert views.sent == [{"kind": "picture", "id": 1}]
    assert not target.exists()  # nothing is written until a view answers
    answer(widget, id=1, png=data_url(tiny_png()))
    assert target.read_bytes() == tiny_png()


def test_the_first_answer_is_written_once(widget: NeedleWidget, tmp_path: Path) -> None:
    Views(widget)
    target = tmp_path / "once.png"
    widget.save_png(str(target))
    answer(widget, id=1, png=data_url(tiny_png()))
    answer(widget, id=1, png=data_url(tiny_png() + b"another view"))
    assert target.read_bytes() == tiny_png()


def test_each_call_has_its_own_id(widget: NeedleWidget, tmp_path: Path) -> None:
    views = Views(widget)
    widget.save_png(tmp_path / "a.png")
    widget.save_png(tmp_path / "b.png")
    assert [m["id"] for m in views.sent] == [1, 2]
    answer(widget, id=2, png=data_url(tiny_png()))
    assert (tmp_path / "b.png").exists() and not (tmp_path / "a.png").exists()


@pytest.mark.parametrize("content", [
    {"id": 1, "png": data_url(b"GIF89a not a png")},
    {"id": 1, "png": "data:image/jpeg;base64," + base64.b64encode(tiny_png()).decode()},
    {"id": 1, "png": "data:image/png;base64,!!not base64!!"},
    {"id": 1, "png": None},
    {"id": 1, "png": data_url(b"\x89PNG\r\n\x1a\n" + bytes(MAX_PICTURE))},
    {"id": 2, "png": data_url(tiny_png())},  # an id never asked for
    {"id": "1", "png": data_url(tiny_png())},
    {"png": data_url(tiny_png())},
])
def test_a_bad_or_unasked_picture_is_ignored(widget: NeedleWidget, tmp_path: Path, content: dict,
                                              caplog: pytest.LogCaptureFixture) -> None:
    Views(widget)
    target = tmp_path / "bad.png"
    widget.save_png(target)
    before = widget.get_state()
    with caplog.at_level(logging.WARNING, logger="needle_widget"):
        answer(widget, **content)
    assert not target.exists()
    assert "ignored a picture" in caplog.text
    assert widget.get_state() == before  # no error line, no answer: it was no request of the browser's
    answer(widget, id=1, png=data_url(tiny_png()))  # a later valid answer still counts
    assert target.read_bytes() == tiny_png()


def test_a_picture_is_no_request_and_answers_nothing(widget: NeedleWidget, tmp_path: Path) -> None:
    Views(widget)
    widget._on_message(widget, {"kind": "step", "to": 7, "id": 5}, [])
    assert widget.answer == {"id": 5, "ok": True, "error": None}
    widget.save_png(tmp_path / "p.png")
    answer(widget, id=1, png=data_url(tiny_png()))
    assert widget.answer == {"id": 5, "ok": True, "error": None}
    assert widget.error is None


def test_a_missing_folder_is_refused_at_once(widget: NeedleWidget, tmp_path: Path) -> None:
    views = Views(widget)
    with pytest.raises(ArgumentError, match="does not exist"):
        widget.save_png(tmp_path / "no" / "such" / "x.png")
    assert views.sent == []


def test_a_folder_is_refused_at_once(widget: NeedleWidget, tmp_path: Path) -> None:
    views = Views(widget)
    with pytest.raises(ArgumentError, match="is a folder"):
        widget.save_png(tmp_path)
    assert views.sent == []


def test_a_second_view_s_late_answer_is_no_warning(widget: NeedleWidget, tmp_path: Path,
                                                    caplog: pytest.LogCaptureFixture) -> None:
    Views(widget)
    target = tmp_path / "two-views.png"
    widget.save_png(target)
    with caplog.at_level(logging.WARNING, logger="needle_widget"):
        answer(widget, id=1, png=data_url(tiny_png()))
        answer(widget, id=1, png=data_url(tiny_png() + b"the other view"))
    assert target.read_bytes() == tiny_png() and caplog.text == ""


def test_a_file_that_cannot_be_written_shows_an_error(widget: NeedleWidget, tmp_path: Path) -> None:
    Views(widget)
    folder = tmp_path / "dir.png"
    widget.save_png(folder)
    folder.mkdir()  # the path became a folder meanwhile
    answer(widget, id=1, png=data_url(tiny_png()))
    assert widget.error is not None and "Could not save the picture" in widget.error["text"]


def test_only_the_latest_requests_wait_for_a_view(widget: NeedleWidget, tmp_path: Path) -> None:
    Views(widget)
    for k in range(40):
        widget.save_png(tmp_path / f"p{k}.png")
    answer(widget, id=1, png=data_url(tiny_png()))  # asked long ago, with no view open: forgotten
    answer(widget, id=40, png=data_url(tiny_png()))
    assert not (tmp_path / "p0.png").exists() and (tmp_path / "p39.png").exists()
