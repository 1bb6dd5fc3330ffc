"""The documentation site (issue 47): built by Sphinx from docs/ with every warning an error, every link inside it
leads to a page and an anchor that exist, its live games are exported replay pages, and README stays short.
"""

from __future__ import annotations

import html.parser
import re
import subprocess
import sys
import urllib.parse
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
README_LINES = 250
"""The README's length at most: what it is, install, the three things it does, the lessons, links (issue 47)."""

pytestmark = pytest.mark.slow


class _Links(html.parser.HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.links: list[str] = []
        self.ids: set[str] = set()

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        for name, value in attrs:
            if value is None:
                continue
            if name == "id" or (tag == "a" and name == "name"):
                self.ids.add(value)
            elif (name == "href" and tag in ("a", "link")) or (name == "src" and tag in ("img", "iframe", "script")):
                self.links.append(value)


def _parse(path: Path) -> _Links:
    parser = _Links()
    parser.feed(path.read_text(encoding="utf-8"))
    return parser


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    pytest.importorskip("sphinx", reason="the docs extra (pip install -e '.[dev]')")
    out = tmp_path_factory.mktemp("site")
    done = subprocess.run([sys.executable, "-m", "sphinx", "-W", "--keep-going", "-q", "-b", "html",
                           str(ROOT / "docs"), str(out)], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr[-4000:]
    return out


def test_the_site_builds_with_no_warning_and_has_its_pages(site: Path) -> None:
    for page in ("index", "GUIDE", "CLASS", "REVIEW", "JUPYTERLITE", "RULES", "CHANGELOG", "api/index",
                 "api/engine", "api/widget", "api/classroom"):
        assert (site / f"{page}.html").is_file(), page


def test_every_link_inside_the_site_leads_to_a_page_and_an_anchor_that_exist(site: Path) -> None:
    pages = {path: _parse(path) for path in site.rglob("*.html")}
    checked = 0
    for path, parsed in pages.items():
        for link in parsed.links:
            url = urllib.parse.urlsplit(link)
            if url.scheme or url.netloc or link.startswith(("mailto:", "data:", "javascript:")):
                continue
            target = (path.parent / urllib.parse.unquote(url.path)).resolve() if url.path else path
            assert target.is_relative_to(site.resolve()), (path.name, link)
            if target.is_dir():
                target = target / "index.html"
            assert target.is_file(), (str(path.relative_to(site)), link)
            if url.fragment and target.suffix == ".html":
                ids = pages[target].ids if target in pages else _parse(target).ids
                assert url.fragment in ids, (str(path.relative_to(site)), link)
            checked += 1
    assert checked > 500


def test_the_api_reference_is_read_from_the_docstrings(site: Path) -> None:
    widget = (site / "api" / "widget.html").read_text(encoding="utf-8")
    engine = (site / "api" / "engine.html").read_text(encoding="utf-8")
    assert 'id="needle_widget.jupyter.widget.NeedleWidget.play"' in widget
    assert 'id="needle_widget.engine.game.Game.why_not"' in engine


def test_the_live_games_are_exported_replay_pages_of_one_perspective(site: Path) -> None:
    index = _parse(site / "index.html")
    frames = [link for link in index.links if link.startswith("replays/")]
    assert frames == ["replays/found_early_p1.html"]
    page = (site / frames[0]).read_text(encoding="utf-8")
    assert '"perspective":0' in page and '"perspective":1' not in page and '"perspective":"teacher"' not in page
    assert not set(re.findall(r"https?://[^\"' )]+", page)) - {"http://www.w3.org/2000/svg"}  # loads nothing


def test_the_readme_is_short_and_its_links_exist() -> None:
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    assert len(text.splitlines()) <= README_LINES
    for target in re.findall(r"\]\((?!https?:|#)([^)\s]+)\)", text):
        path, _, anchor = target.partition("#")
        assert (ROOT / path).exists(), target
        if anchor:  # a heading of that page, as GitHub and the site name it
            headings = re.findall(r"^#+ (.+)$", (ROOT / path).read_text(encoding="utf-8"), re.M)
            slugs = {re.sub(r"[^\w\- ]", "", h).strip().lower().replace(" ", "-") for h in headings}
            assert anchor in slugs, target
