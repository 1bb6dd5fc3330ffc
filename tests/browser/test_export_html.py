"""A replay exported as one HTML file, opened from disk in Chromium with the network blocked:
it steps with the buttons, the slider, the event list and the keys, with no kernel, and looks
right without JupyterLab's --jp-* variables, in a light and a dark system theme.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page

from needle_widget import examples

from .axe import audit
from .conftest import ARTIFACTS

pytestmark = pytest.mark.filterwarnings("ignore::needle_widget.apps.export.GuessableSeedWarning")


@pytest.fixture
def exported(tmp_path: Path) -> Path:
    path = tmp_path / "game.html"
    examples.load("long_with_reshuffle").cut(60).to_html(path, perspective=0)
    return path


def open_offline(browser: Browser, path: Path, scheme: str, fragment: str = "") -> tuple[Page, list[str], list[str]]:
    """The file (at `fragment`, e.g. "#step=12") in a fresh context with no network; returns the page,
    the URLs it asked for and its errors.
    """
    context = browser.new_context(viewport={"width": 1200, "height": 900}, color_scheme=scheme, offline=True,
                                  accept_downloads=True)
    asked: list[str] = []
    errors: list[str] = []
    context.route("**/*", lambda route: route.continue_() if route.request.url.startswith("file://")
                  else (asked.append(route.request.url), route.abort()))
    page = context.new_page()
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.on("console", lambda message: errors.append(message.text) if message.type == "error" else None)
    page.goto(path.as_uri() + fragment)
    page.wait_for_selector(".nw-root .nw-live", timeout=10_000)
    return page, asked, errors


def until(page: Page, check, timeout: float = 10.0) -> None:
    """Poll from Python: the page's policy forbids the string evaluation wait_for_function uses."""
    for _ in range(int(timeout / 0.05)):
        if check():
            return
        page.wait_for_timeout(50)
    raise AssertionError(f"timed out: step {slider(page)}, {live(page)!r}")


def live(page: Page) -> str:
    return page.inner_text(".nw-live")


def slider(page: Page) -> str:
    return page.eval_on_selector('input[data-input="step"]', "el => el.value")


def test_the_exported_file_steps_from_disk_with_no_network(browser: Browser, exported: Path) -> None:
    page, asked, errors = open_offline(browser, exported, "light")
    assert live(page).startswith("Step 0 of 60")
    # No JupyterLab theme here: the fallbacks give a white board surround and dark text.
    style = "getComputedStyle(document.querySelector('.nw-root'))"
    assert page.evaluate(f"{style}.getPropertyValue('--jp-layout-color1')").strip() == ""
    assert page.evaluate(f"{style}.backgroundColor") == "rgb(255, 255, 255)"

    page.get_by_role("button", name="Next step").click()
    until(page, lambda: slider(page) == "1")
    page.get_by_role("button", name="Last step").click()
    until(page, lambda: slider(page) == "60")
    assert live(page).startswith("Step 60 of 60")

    # The event list: a click on an event goes to its step.
    page.locator(".nw-events [data-request]").nth(10).click()
    until(page, lambda: slider(page) != "60")
    at = int(slider(page))
    assert 0 < at < 60

    # The keys, with the widget focused.
    page.focus(".nw-root")
    page.keyboard.press("Home")
    until(page, lambda: slider(page) == "0")
    for _ in range(3):
        page.keyboard.press("ArrowRight")
    until(page, lambda: slider(page) == "3")
    page.keyboard.press("ArrowLeft")
    until(page, lambda: slider(page) == "2")

    # The slider, dragged by the keyboard and set directly.
    page.focus('input[data-input="step"]')
    page.keyboard.press("ArrowRight")
    until(page, lambda: slider(page) == "3")
    page.eval_on_selector('input[data-input="step"]',
                          "el => { el.value = '30'; el.dispatchEvent(new Event('input', {bubbles: true})); }")
    until(page, lambda: live(page).startswith("Step 30 of 60"))

    # Save picture works from the file too: the policy lets the picture draw from data: URLs only.
    with page.expect_download(timeout=30_000) as download:
        page.get_by_role("button", name="Save picture").click()
    png = Path(download.value.path()).read_bytes()
    assert download.value.suggested_filename == "needle-step-30-player-1.png"
    assert png.startswith(b"\x89PNG\r\n\x1a\n") and 20_000 < len(png) < 5_000_000

    # Other perspectives are not in the file: their buttons are closed, with the reason.
    assert page.get_by_role("button", name="Player 2", exact=True).is_disabled()
    assert "Player 1's view only" in page.inner_text(".nw-root")
    assert asked == [] and errors == []
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / "export-light.png"), full_page=True, animations="disabled")
    audit(page, page.locator(".nw-root"), "export-light")
    page.context.close()


def test_the_exported_file_autoplays_and_follows_a_dark_system_theme(browser: Browser, exported: Path) -> None:
    page, asked, errors = open_offline(browser, exported, "dark")
    background = page.evaluate("getComputedStyle(document.querySelector('.nw-root')).backgroundColor")
    assert background != "rgb(255, 255, 255)"
    page.get_by_role("combobox", name="Speed").select_option("8")
    page.get_by_role("button", name="Play", exact=True).click()
    until(page, lambda: int(slider(page)) >= 3)
    page.get_by_role("button", name="Pause", exact=True).click()
    stopped = slider(page)
    page.wait_for_timeout(1500)
    assert slider(page) == stopped
    assert asked == [] and errors == []
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / "export-dark.png"), full_page=True, animations="disabled")
    audit(page, page.locator(".nw-root"), "export-dark")
    page.context.close()


def test_the_address_opens_a_step_and_follows_the_steps(browser: Browser, exported: Path) -> None:
    """`game.html#step=12` opens at step 12; stepping rewrites the address in place (no history entry,
    no request); a step out of range is clamped, a malformed one ignored, never an error.
    """
    page, asked, errors = open_offline(browser, exported, "light", "#step=12")
    hash_ = lambda: page.evaluate("location.hash")  # noqa: E731
    until(page, lambda: slider(page) == "12")
    assert live(page).startswith("Step 12 of 60")
    entries = page.evaluate("history.length")
    page.get_by_role("button", name="Next step").click()
    until(page, lambda: hash_() == "#step=13")
    page.focus(".nw-root")
    for _ in range(3):
        page.keyboard.press("ArrowRight")
    until(page, lambda: hash_() == "#step=16")
    page.keyboard.press("End")
    until(page, lambda: hash_() == "#step=60")
    assert page.evaluate("history.length") == entries  # replaced, never pushed
    # A link to another step on the same page (a fragment change, no reload) goes there.
    page.evaluate("location.hash = '#step=7'")
    until(page, lambda: slider(page) == "7")
    assert hash_() == "#step=7"
    # Opened out of range or malformed: clamped to the replay, or the file's own first step; the address follows.
    for wanted, shown in (("999", "60"), ("-3", "0"), ("abc", "0"), ("1e3", "0"), ("", "0")):
        page.goto("about:blank")  # a fresh load, not a fragment change
        page.goto(f"{exported.as_uri()}#step={wanted}")
        page.wait_for_selector(".nw-root .nw-live")
        until(page, lambda shown=shown: slider(page) == shown)
        until(page, lambda shown=shown: hash_() == f"#step={shown}")
    assert asked == [] and errors == []  # no network, no error, the policy held (a violation is a console error)
    page.context.close()


def test_a_spoiler_free_address_tells_nothing_past_the_step(browser: Browser, tmp_path: Path) -> None:
    """Spoiler-free: `#step=12` opens at 12 with nothing later; a step past the end is ignored, not
    clamped (clamping would show where the replay ends).
    """
    path = tmp_path / "free.html"
    examples.load("long_with_reshuffle").cut(60).to_html(path, perspective=0, spoilers=False)
    page, asked, errors = open_offline(browser, path, "light", "#step=12")
    until(page, lambda: slider(page) == "12")
    assert live(page).startswith("Step 12:")
    assert page.eval_on_selector('input[data-input="step"]', "el => el.max") == "12"
    page.evaluate("location.hash = '#step=999'")  # a fragment change: ignored, the address put back
    until(page, lambda: page.evaluate("location.hash") == "#step=12")
    assert live(page).startswith("Step 12:")
    page.goto("about:blank")
    page.goto(f"{path.as_uri()}#step=999")  # a fresh load: the file's own first step
    page.wait_for_selector(".nw-root .nw-live")
    until(page, lambda: live(page).startswith("Step 0:"))
    until(page, lambda: page.evaluate("location.hash") == "#step=0")
    assert asked == [] and errors == []
    page.context.close()
