"""The reports' website in a real browser (headless Chromium), at a laptop's width
(1366 x 768) and a phone's (390 x 844): no page scrolls sideways, and a table wider than
the screen scrolls within its own box.

The pages are written from the committed records into a temporary folder. With
``FAROL_SCREENSHOTS=docs/screenshots`` set, the screenshots of the guides at both widths
are written there (the committed ones were made so); otherwise into the temporary folder.
Without Chromium the tests are skipped with how to install it, as the explorer's are.
"""

from __future__ import annotations

import base64
import os
from pathlib import Path

import pytest
from test_explore_browser import CHROMIUM, Page, browse
from test_guides import site_from_committed

WIDTHS = {"laptop": (1366, 768), "phone": (390, 844)}
# The guides' pages, and the questions whose answers the screenshots show (None: the top).
SHOTS = [("coup_guide", None), ("coup_guide", "does-the-first-player-win-more"),
         ("goat_lords_guide", "when-should-you-duel")]

pytestmark = [pytest.mark.slow, pytest.mark.skipif(
    CHROMIUM is None, reason="Chromium is not installed; `apt-get install chromium` "
    "(Debian's package, as .ci/run does) runs these browser tests")]

# What a page measures of itself: how wide the page is against the window, and each
# table's box (its right edge, and whether it scrolls within itself).
MEASURE = """(() => {
  const tables = [...document.querySelectorAll('table')].map(t => {
    const box = t.getBoundingClientRect();
    return {right: box.right, left: box.left, scroll: t.scrollWidth, client: t.clientWidth,
            overflow: getComputedStyle(t).overflowX};
  });
  return {width: window.innerWidth, page: document.documentElement.scrollWidth,
          body: document.body.scrollWidth, tables: tables};
})()"""


async def at_width(page: Page, width: int, height: int) -> None:
    await page.send("Emulation.setDeviceMetricsOverride", width=width, height=height,
                    deviceScaleFactor=1, mobile=width < 600)


async def load(page: Page, url: str) -> None:
    await page.send("Page.navigate", url=url)
    await page.wait_for(f"location.href === {url!r} && document.readyState === 'complete'")


@pytest.fixture(scope="module")
def site(tmp_path_factory) -> Path:
    return site_from_committed(tmp_path_factory.mktemp("site"))


@pytest.mark.parametrize("name", ["coup_guide", "goat_lords_guide", "cobardes_guide",
                                  "index", "coup", "goat_lords"])
def test_no_page_scrolls_sideways_and_tables_scroll_in_their_box(site, tmp_path, name):
    async def script(page: Page):
        found = {}
        for label, (width, height) in WIDTHS.items():
            await at_width(page, width, height)
            await load(page, (site / f"{name}.html").as_uri())
            found[label] = await page.js(MEASURE)
        return found

    for label, m in browse(tmp_path, script).items():
        assert m["page"] <= m["width"] and m["body"] <= m["width"], (label, m)
        for t in m["tables"]:
            assert t["left"] >= 0 and t["right"] <= m["width"] + 0.5, (label, t)
            if t["scroll"] > t["client"]:  # wider than its box: it scrolls there
                assert t["overflow"] in ("auto", "scroll"), (label, t)
    # On a phone the guides' widest tables are wider than the screen, so the check bites.
    if name == "coup_guide":
        phone = browse(tmp_path / "again", script)["phone"]
        assert any(t["scroll"] > t["client"] for t in phone["tables"])


def test_screenshots_of_the_guides_at_laptop_and_phone_widths(site, tmp_path):
    out = Path(os.environ.get("FAROL_SCREENSHOTS") or tmp_path / "shots")
    out.mkdir(parents=True, exist_ok=True)

    async def script(page: Page):
        written = []
        for label, (width, height) in WIDTHS.items():
            await at_width(page, width, height)
            for name, anchor in SHOTS:
                await load(page, (site / f"{name}.html").as_uri())
                if anchor:
                    await page.js(f"(() => {{ const h = [...document.querySelectorAll('h3')]"
                                  f".find(e => e.textContent.toLowerCase().replace(/[^a-z0-9]+/g,"
                                  f" '-').replace(/-$/, '') === {anchor!r}); h.scrollIntoView();"
                                  " return true; })()")
                shot = await page.send("Page.captureScreenshot", format="png")
                path = out / f"{name}{'_' + anchor if anchor else ''}_{label}.png"
                path.write_bytes(base64.b64decode(shot["data"]))
                written.append(path)
        return written

    written = browse(tmp_path, script)
    assert len(written) == len(SHOTS) * len(WIDTHS)
    for path in written:
        assert path.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n" and path.stat().st_size > 5000
