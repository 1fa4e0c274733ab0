"""The committed screenshots of the guides' website (docs/screenshots/): one for every page
and width the browser test shoots (tests/report/test_site_browser.py), each a PNG the size of its
window. They are made by

    FAROL_SCREENSHOTS=docs/screenshots pytest tests/report/test_site_browser.py -m slow -k screenshots
"""

from __future__ import annotations

import struct
from pathlib import Path

from test_site_browser import SHOTS, WIDTHS

SCREENSHOTS = Path(__file__).resolve().parents[2] / "docs" / "screenshots"


def shot_name(name: str, anchor: str | None, label: str) -> str:
    return f"{name}{'_' + anchor if anchor else ''}_{label}.png"


def test_a_screenshot_of_each_guide_page_at_laptop_and_phone_widths():
    expected = {shot_name(n, a, label) for n, a in SHOTS for label in WIDTHS}
    assert expected <= {p.name for p in SCREENSHOTS.glob("*.png")}
    for name in expected:
        data = (SCREENSHOTS / name).read_bytes()
        assert data[:8] == b"\x89PNG\r\n\x1a\n" and data[12:16] == b"IHDR", name
        size = struct.unpack(">II", data[16:24])
        assert size == WIDTHS[name.rsplit("_", 1)[1].removesuffix(".png")], (name, size)
