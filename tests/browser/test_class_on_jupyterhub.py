"""A class where classes run (issue 30, part 4): a real JupyterHub on this machine, an OS account per user.

Three accounts are made for the test (a teacher and two students, each with a group of its own; the teacher's
account is a member of each student's group, as docs/CLASS.md's "What is protected" tells an admin to do) and removed
after it, with their homes. The hub (configurable-http-proxy, a shared password, LocalProcessSpawner) runs each
user's JupyterLab under their own account; the class's shared folder is the teacher's. In her own browser
context the teacher logs in, opens a room on the shared folder, invites Ann and Bob (each ticket a file only
that student's group may read) and shows the board; each student logs in in their own context and joins.
From inside each student's own kernel: the other student's boxes and ticket, the room's teacher/ folder and
the listing of in/ and out/ are all refused (permission denied). Then the teacher starts a match (issue 30,
part 2: students play each other): each student's screen is in class mode and tells them their seat; Ann and
Bob pick their needles by clicking, each seeing the other's pick, and then Ann's Draw opens and Bob has none;
Ann draws and discards, Bob draws, each seeing the other's moves; the board shows the table live (its players,
deal 1 of 1, playing); their own kernels play the deal out (through their Student objects: the room), and the
board shows the round over, its margin and the record: both students, provisional, level (places 1–2: one
game each cannot tell them apart). Ann opens her own review by clicking. Screenshots, light and dark, of the
board and of Ann's screen during the match, of the board and its record after it, and of Ann's review.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import stat
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, expect

from . import hub as hubs
from .conftest import ARTIFACTS, KERNEL_READY, REQUIRED, write_notebook
from .test_class_in_jupyterlab import board_root, key, shoot
from .test_widget_in_jupyterlab import kernel_eval, widget_root

ROLES = ("teacher", "ann", "bob")
NAMES = {"ann": "Ann", "bob": "Bob"}
NEWS_OFF = ".jupyter/lab/user-settings/@jupyterlab/apputils-extension/notification.jupyterlab-settings"
PROBE = """
import json, os
def probe(how, path):
    try:
        if how == "list":
            os.listdir(path)
        elif how == "read":
            with open(path, "rb") as f:
                f.read(1)
        elif how == "write":
            with open(os.path.join(path, "00000000000000000001.msg"), "xb"):
                pass
        elif how == "rename":
            os.rename(path, path + ".mine")
        return "allowed"
    except PermissionError:
        return "denied"
    except OSError as error:
        return type(error).__name__
print(json.dumps({f"{how} {path}": probe(how, path) for how, path in CHECKS}))
"""
FINISH = """
import threading, time
def finish(s=me.student):
    for _ in range(3000):
        state = s.state()
        if state["table"] is not None and state["table"]["result"] is not None:
            return
        if state["can_act"]:
            s.act(state["table"]["legal_actions"][0])
        time.sleep(0.02)
threading.Thread(target=finish, daemon=True).start()
"""
"""Run in a student's kernel: the rest of the deal, the first legal move each time it is their turn."""


@pytest.fixture(scope="module")
def class_hub() -> Iterator[dict[str, Any]]:
    """The hub, its three accounts (servers started at once and ready), the shared folder and the timings."""
    reason = hubs.missing()
    if reason is not None:
        if REQUIRED:
            pytest.fail(f"NEEDLE_REQUIRE_BROWSER=1 but the JupyterHub test cannot run: {reason}")
        pytest.skip(reason)
    start = time.monotonic()
    base = hubs.private_base()
    try:
        with hubs.accounts(*ROLES) as accounts:
            shared = base / "class"  # the admin's shared folder: the teacher's, open to pass through
            shared.mkdir()
            accounts["teacher"].chown(shared)
            os.chmod(shared, 0o755)
            for account in accounts.values():
                settings = account.home / NEWS_OFF
                settings.parent.mkdir(parents=True)
                settings.write_text('{"fetchNews": "false"}')
                account.chown(account.home / ".jupyter")
            python = base / "python"
            with hubs.jupyterhub(base, list(accounts.values()), python / "bin" / "python") as hub:
                try:
                    how, python_seconds = hubs.users_python(python, accounts["teacher"])  # while the hub starts
                    hub.wait_up()
                    up = time.monotonic() - start
                    hub.spawn(*accounts.values())
                    yield {"hub": hub, "accounts": accounts, "shared": shared,
                           "timings": {"python": python_seconds, "python_how": how, "hub_up": up,
                                       "servers_ready": time.monotonic() - start}}
                finally:
                    ARTIFACTS.mkdir(parents=True, exist_ok=True)
                    shutil.copy(hub.log, ARTIFACTS / "hub.log")  # the hub's and the servers' log, for a failure
    finally:
        shutil.rmtree(base, ignore_errors=True)


def begin(pages: dict[str, Page], hub: hubs.Hub, accounts: dict[str, hubs.Account],
          cells: dict[str, list[str]]) -> None:
    """Log each account in on its page (the hub's form, all at once) and start opening its notebook
    `class-<role>.ipynb` (written in their home, theirs) in their JupyterLab, in a workspace of its own;
    `finish` waits for it and runs it.
    """
    expect.set_options(timeout=60_000)
    for role, page in pages.items():
        page.set_default_timeout(60_000)
        page.set_viewport_size({"width": 1500, "height": 1700})
        path = accounts[role].home / f"class-{role}.ipynb"
        write_notebook(path, cells[role])
        os.chown(path, accounts[role].uid, accounts[role].gid)
        page.goto(f"{hub.base}/hub/login", wait_until="domcontentloaded")
    for role, page in pages.items():
        page.locator("#username_input").fill(accounts[role].name)
        page.locator("#password_input").fill(hub.password)
        page.locator("#login_submit").click()
    for role, page in pages.items():
        user = accounts[role].name
        page.wait_for_url(re.compile(f"/user/{user}/"), wait_until="commit")
        page.goto(f"{hub.base}/user/{user}/lab/workspaces/class-{role}/tree/class-{role}.ipynb?reset",
                  wait_until="commit")


def finish(page: Page, cells: int, shows: str = ".nw-root") -> None:
    """Wait for the notebook begun on `page`, run all its cells, and wait until `shows` is visible."""
    expect(page.locator(".jp-NotebookPanel:not(.lm-mod-hidden) .jp-Cell")).to_have_count(cells)
    page.wait_for_function(KERNEL_READY)
    page.get_by_role("menuitem", name="Run", exact=True).click()
    page.get_by_role("menuitem", name=re.compile(r"^Run All Cells")).click()
    expect(page.locator(f".jp-NotebookPanel:not(.lm-mod-hidden) {shows}").first).to_be_visible()


def teacher_cells(url: str, tickets: Path, accounts: dict[str, hubs.Account]) -> list[str]:
    students = [(NAMES[role], accounts[role].name) for role in ("ann", "bob")]
    return [
        "import grp, os\n"
        "from needle_widget import classroom\n"
        f"room = classroom.open({url!r})\n"
        f"tickets = {str(tickets)!r}\n"
        "os.makedirs(tickets, exist_ok=True)\n"
        "os.chmod(tickets, 0o711)  # each student opens their own ticket by name; nobody lists them\n"
        f"for name, account in {students!r}:  # a ticket only the student's group may read\n"
        "    fd = os.open(f'{tickets}/{account}.ticket', os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)\n"
        "    os.fchown(fd, -1, grp.getgrnam(account).gr_gid)\n"
        "    os.fchmod(fd, 0o640)\n"
        "    os.write(fd, room.invite(name).code.encode())\n"
        "    os.close(fd)",
        "board = room.board()\nboard",
    ]


def student_cells(url: str, ticket: Path) -> list[str]:
    return ["from needle_widget import NeedleWidget\n"
            f"me = NeedleWidget.join({url!r}, open({str(ticket)!r}).read())\n"
            "me"]


def probe(page: Page, checks: list[tuple[str, Path]]) -> dict[str, str]:
    """What the page's kernel (its user's account) may do to each path: allowed, denied, or the error."""
    code = f"CHECKS = {[(how, str(path)) for how, path in checks]!r}\n{PROBE}"
    return json.loads(kernel_eval(page, code))


def test_a_class_on_jupyterhub_keeps_each_student_s_boxes_to_them_and_plays_a_match(
        class_hub: dict[str, Any], browser: Browser) -> None:
    started = time.monotonic()
    hub, accounts, shared = class_hub["hub"], class_hub["accounts"], class_hub["shared"]
    room_folder, tickets = shared / "monday", shared / "tickets"
    url = f"folder:{room_folder}"
    contexts = {role: browser.new_context() for role in ROLES}
    pages = {role: contexts[role].new_page() for role in ROLES}
    try:
        # ---- log in, all three at once; the teacher opens the room and invites; the students join ----------------
        cells = {"teacher": teacher_cells(url, tickets, accounts)}
        for role in ("ann", "bob"):
            cells[role] = student_cells(url, tickets / f"{accounts[role].name}.ticket")
        begin(pages, hub, accounts, cells)
        teacher = pages["teacher"]
        finish(teacher, len(cells["teacher"]), shows=".nb-root")
        board = board_root(teacher)
        expect(key(board, "roster")).to_have_text("0 of 2 joined · 0 online")
        for role in ("ann", "bob"):
            finish(pages[role], len(cells[role]))
            expect(key(widget_root(pages[role]), "follow")).to_contain_text(NAMES[role])
        expect(key(board, "roster")).to_have_text("2 of 2 joined · 2 online")
        joined = time.monotonic() - started

        # ---- the folder's modes, as the admin and the room set them --------------------------------------------
        assert kernel_eval(teacher, "import os; print(os.getuid(), os.getgroups() and sorted(os.getgroups()))") \
            == f"{accounts['teacher'].uid} {sorted({accounts[r].gid for r in ROLES})}"
        status = {p: os.lstat(p) for p in (room_folder / "teacher", room_folder / "in", room_folder / "out")}
        assert [stat.S_IMODE(s.st_mode) for s in status.values()] == [0o700, 0o1733, 0o1733]
        assert {s.st_uid for s in status.values()} == {accounts["teacher"].uid}
        for index, role in enumerate(("ann", "bob")):
            for side in ("in", "out"):
                box = os.lstat(room_folder / side / str(index))
                assert (box.st_uid, box.st_gid, stat.S_IMODE(box.st_mode)) == \
                    (accounts[role].uid, accounts[role].gid, 0o2770), (role, side)
            messages = list((room_folder / "in" / str(index)).glob("*.msg"))
            assert messages and all(stat.S_IMODE(m.stat().st_mode) == 0o640 for m in messages)
            assert all(m.stat().st_gid == accounts[role].gid for m in messages)  # set-group-ID: the student's group

        # ---- from inside each student's own kernel: the other's boxes, the teacher's files: refused -------------
        for index, (role, other) in enumerate((("ann", "bob"), ("bob", "ann"))):
            theirs = 1 - index
            files = [p for side in ("in", "out") for p in (room_folder / side / str(theirs)).glob("*.msg")]
            refused = [("list", room_folder / "teacher"), ("read", room_folder / "teacher" / "secret"),
                       ("read", room_folder / "teacher" / "state"), ("list", room_folder / "in"),
                       ("list", room_folder / "out"), ("list", tickets),
                       ("read", tickets / f"{accounts[other].name}.ticket"), ("list", accounts["teacher"].home)]
            for side in ("in", "out"):
                box = room_folder / side / str(theirs)
                refused += [("list", box), ("write", box), ("rename", box)]
            refused += [("read", f) for f in files]
            allowed = [("list", room_folder / "in" / str(index)), ("list", room_folder / "out" / str(index)),
                       ("read", tickets / f"{accounts[role].name}.ticket")]
            seen = probe(pages[role], refused + allowed)
            assert seen == {**{f"{how} {p}": "denied" for how, p in refused},
                            **{f"{how} {p}": "allowed" for how, p in allowed}}, seen
            assert any(str(f) in " ".join(seen) for f in files)  # a message of the other's was there to try
        probed = time.monotonic() - started

        # ---- a match: Ann and Bob play each other by clicking; the board shows the table live ------------------
        kernel_eval(teacher, "match = room.match(deals=1, seed=3)")
        ann, bob = widget_root(pages["ann"]), widget_root(pages["bob"])
        expect(key(ann, "follow")).to_contain_text("you are Player 1, against Bob")
        expect(key(bob, "follow")).to_contain_text("you are Player 2, against Ann")
        expect(ann.locator(".nw-mode")).to_have_text("Class")
        ann.get_by_role("grid", name="Pick your needle").locator("button:not([aria-disabled=true])").first.click()
        expect(bob.locator(".nw-events")).to_contain_text("Player 1 picked a needle.")
        bob.get_by_role("grid", name="Pick your needle").locator("button:not([aria-disabled=true])").first.click()
        expect(ann.locator(".nw-events")).to_contain_text("Player 2 picked a needle.")
        draw = ann.get_by_role("button", name="Draw from pile")
        expect(draw).to_be_enabled()  # Ann's turn: her Draw opens; Bob, waiting, has none
        expect(bob.get_by_role("button", name="Draw from pile")).to_have_count(0)
        draw.click()
        expect(bob.locator(".nw-events")).to_contain_text("Player 1 drew")
        ann.get_by_role("button", name="Done laying sets").click()
        expect(ann.locator(".nw-controls-discard")).to_be_visible()  # else a card clicked first is unselected
        hand = ann.get_by_role("grid", name=re.compile(r"^Player 1's hand"))
        hand.get_by_role("button").last.click()  # K♥ (seed 3; her first card, A♣, is Bob's needle)
        ann.get_by_role("button", name="Discard").click()
        expect(bob.locator(".nw-events")).to_contain_text("Player 1 discarded")
        bob.get_by_role("button", name="Draw from pile").click()
        expect(ann.locator(".nw-events")).to_contain_text("Player 2 drew")
        tables = key(board, "match")
        row = tables.locator("tbody tr").first
        expect(row).to_contain_text("Ann · Bob")
        expect(row).to_contain_text("1 of 1")
        expect(row).to_contain_text("Playing")
        # Both pages stay in the dark theme the shots end in (no switch back): nothing below depends on it, and
        # the next shots of each page start in it.
        shoot(teacher, board, "hub-match-board", restore=False)
        shoot(pages["ann"], ann, "hub-ann", restore=False)

        # ---- the rest of the deal through each student's own kernel (their Student: the room), then the result --
        for role in ("ann", "bob"):
            kernel_eval(pages[role], FINISH)
        expect(row).to_contain_text("Round over", timeout=90_000)
        expect(row.locator("td").last).to_have_text(re.compile(r"^[+-]?\d+ / [+-]?\d+$"))
        record = key(board, "record")
        expect(record.locator("tbody tr")).to_have_count(2)
        for name in NAMES.values():
            expect(record).to_contain_text(name)
        expect(record).to_contain_text("provisional")
        expect(record.locator("tbody tr").first).to_contain_text("1–2")  # one game each: they cannot be told apart
        for page in (pages["ann"], pages["bob"]):
            expect(widget_root(page).locator(".nw-events")).to_contain_text(re.compile("wins|draw|tie", re.I))
        shoot(teacher, board, "hub-match-over", (record, "match-record"), restore=False)  # the last of the page

        # ---- Ann opens her own review of the game by clicking ---------------------------------------------------
        toggle = ann.get_by_role("button", name="Review", exact=True)
        expect(toggle).to_be_enabled(timeout=60_000)
        toggle.click()
        expect(ann.get_by_role("region", name="Review", exact=True)).to_contain_text("Review: Player")
        shoot(pages["ann"], ann, "match-review", restore=False)  # the last of the page
        played = time.monotonic() - started
    finally:
        for context in contexts.values():
            context.close()
    timings = {**class_hub["timings"], "joined": joined, "probed": probed, "played": played}
    print("hub timings (s):", {k: round(v, 1) if isinstance(v, float) else v for k, v in timings.items()})
