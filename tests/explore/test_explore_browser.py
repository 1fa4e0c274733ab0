"""``farol explore`` in a real browser: headless Chromium (Debian's ``chromium``) loads the
page from a running ``farol explore``, a mouse click plays a move, and the advice the page
shows is the app's; a spot in the address and bad input are shown as the page should.

Chromium is driven through its DevTools protocol (tornado's websocket client); nothing is
downloaded. Without Chromium the tests are skipped with how to install it.
"""

from __future__ import annotations

import asyncio
import base64
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import time
import urllib.error
import urllib.parse
import urllib.request
from pathlib import Path

import pytest
from tornado.websocket import websocket_connect

ROOT = Path(__file__).resolve().parents[2]
CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
SMALL = "kinds=warriors,warriors=3,combats=3"
ENDGAME = "deck=ambassador,position=?/duke/3;?/captain/2;move:0"
# One face-down card each, both having lost a Contessa: the endgames the report charts.
CONTESSAS = "deck=ambassador,position=?/contessa/3;?/contessa/2;move:0"
TWO_CARDS = "deck=ambassador,position=duke+contessa/-/7;captain+assassin/-/2;move:0"
TIMEOUT = 120
# As CI runs it: as root (no sandbox), no GPU, and none of Chromium's own network calls.
FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync",
         "--disable-dev-shm-usage"]

# A browser and a server start in ~10 s, and each test takes a few seconds more.
pytestmark = [pytest.mark.slow, pytest.mark.skipif(
    CHROMIUM is None, reason="Chromium is not installed; `apt-get install chromium` "
    "(Debian's package, as .ci/run does) runs these browser tests")]


@pytest.fixture(scope="module")
def explorer(tmp_path_factory):
    """The address of a running ``farol explore`` (stopped by Ctrl-C afterwards)."""
    tmp = tmp_path_factory.mktemp("explore")
    env = dict(os.environ, PYTHONPATH=str(ROOT), FAROL_DATA_DIR=str(tmp / "data"),
               FAROL_CACHE_DIR=str(tmp / "cache"))
    command = [sys.executable, "-c", "import sys; from analysis.cli import main; "
               "sys.exit(main(['explore', '--port', '0', '--no-browser']))"]
    # A background shell (or an xdist worker) may start us with Ctrl-C ignored, which a
    # child inherits and Python then keeps: the server gets the default back.
    proc = subprocess.Popen(command, cwd=ROOT, env=env, stdout=subprocess.PIPE,
                            stderr=subprocess.DEVNULL, text=True,
                            preexec_fn=default_ctrl_c)
    try:
        line = proc.stdout.readline()
        assert line.startswith("Farol explorer at "), line
        yield line.split()[3]
    finally:
        proc.send_signal(2)
        try:
            proc.wait(timeout=30)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()


def default_ctrl_c() -> None:
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def _post(url: str, body: dict) -> dict:
    request = urllib.request.Request(url, json.dumps(body).encode(),
                                     {"Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=TIMEOUT) as answer:
        return json.load(answer)


def _address(base: str, **spot: str) -> str:
    return base + "#" + urllib.parse.urlencode(spot, quote_via=urllib.parse.quote)


# ------------------------------------------------------------------ a DevTools client
class Page:
    """One tab of headless Chromium, driven by DevTools protocol commands."""

    def __init__(self, socket):
        self.socket = socket
        self.sent = 0

    async def send(self, method: str, **params):
        self.sent += 1
        await self.socket.write_message(json.dumps({"id": self.sent, "method": method,
                                                    "params": params}))
        while True:
            message = await asyncio.wait_for(self.socket.read_message(), TIMEOUT)
            assert message is not None, "Chromium closed the connection"
            data = json.loads(message)
            if data.get("id") == self.sent:
                assert "error" not in data, data["error"]
                return data["result"]

    async def js(self, expression: str):
        result = await self.send("Runtime.evaluate", expression=expression,
                                 returnByValue=True, awaitPromise=True)
        assert "exceptionDetails" not in result, result["exceptionDetails"]
        return result["result"].get("value")

    async def wait_for(self, expression: str, seconds: float = TIMEOUT):
        """The value of ``expression`` once it is truthy (an error, as while the page
        loads, counts as false)."""
        end = time.monotonic() + seconds
        while time.monotonic() < end:
            try:
                value = await self.js(f"(() => {{ try {{ return ({expression}); }} "
                                      "catch (e) { return null; } })()")
            except AssertionError:  # the page was replaced meanwhile (a navigation)
                value = None
            if value:
                return value
            await asyncio.sleep(0.1)
        raise AssertionError(f"the page never made {expression!r} true")

    async def click(self, selector: str):
        """A mouse click (pressed and released) at the middle of the element, once it
        is shown."""
        box = await self.wait_for(
            f"(() => {{ const e = document.querySelector({json.dumps(selector)}); if (!e) "
            "return null; e.scrollIntoView(); const r = e.getBoundingClientRect(); "
            "return r.width > 0 ? [r.x + r.width / 2, r.y + r.height / 2] : null; })()")
        for kind in ("mousePressed", "mouseReleased"):
            await self.send("Input.dispatchMouseEvent", type=kind, x=box[0], y=box[1],
                            button="left", clickCount=1)


def browse(tmp_path: Path, script) -> object:
    """Start Chromium, run ``await script(page)`` on a blank tab, close Chromium."""
    profile = tmp_path / "chromium"
    proc = subprocess.Popen([CHROMIUM, *FLAGS, f"--user-data-dir={profile}",
                             "--remote-debugging-port=0", "--window-size=1200,900",
                             "about:blank"], stdout=subprocess.DEVNULL,
                            stderr=subprocess.DEVNULL)
    try:
        port_file = profile / "DevToolsActivePort"
        end = time.monotonic() + 60
        while not (port_file.exists() and port_file.read_text().count("\n") >= 1):
            assert time.monotonic() < end and proc.poll() is None, "Chromium did not start"
            time.sleep(0.1)
        port = port_file.read_text().split()[0]
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/json/list", timeout=30) as r:
            tab = next(t for t in json.load(r) if t["type"] == "page")

        async def run():
            socket = await websocket_connect(tab["webSocketDebuggerUrl"],
                                             max_message_size=64 << 20)
            try:
                return await script(Page(socket))
            finally:
                socket.close()

        return asyncio.run(run())
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=30)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()


def _rows() -> str:
    return ("[...document.querySelectorAll('#actions tr')].slice(1).map("
            "r => [...r.cells].map(c => c.textContent.trim()))")


# ------------------------------------------------------------------ the tests
def test_a_click_plays_a_move_and_the_page_shows_the_advice_there(explorer, tmp_path):
    async def script(page: Page):
        await page.send("Page.navigate", url=_address(explorer, game="cobardes",
                                                      mode="step", params=SMALL))
        await page.wait_for("document.querySelectorAll('#moves button').length === 4")
        await page.click('#moves button[data-move="play warrior 2"]')
        await page.wait_for("document.querySelector('#history li')?.textContent "
                            "=== 'play warrior 2'")
        await page.wait_for("document.getElementById('advice').dataset.state === 'ready'")
        return {"rows": await page.js(_rows()),
                "value": await page.js("document.getElementById('value').textContent"),
                "to_move": await page.js("document.getElementById('to-move').textContent"),
                "command": await page.js("document.getElementById('command').textContent"),
                "hash": await page.js("location.hash")}

    shown = browse(tmp_path, script)
    answer = _post(explorer + "api/advice", {"game": "cobardes", "params": SMALL,
                                             "history": ["play warrior 2"]})
    advice = answer["advice"]
    assert shown["command"] == answer["command"]
    assert shown["to_move"] == "P1 to move"
    assert shown["value"].startswith("Value for you: ")
    assert float(shown["value"].split()[-1]) == pytest.approx(advice["value"], abs=5e-5)
    assert [r[:2] for r in shown["rows"]] == [
        [a["action"], f"{100 * a['probability']:.1f}%"] for a in advice["actions"]]
    assert [float(r[3]) for r in shown["rows"]] == pytest.approx(
        [a["value"] for a in advice["actions"]], abs=5e-4)
    # The spot is kept in the address, so a link shows it again.
    spot = urllib.parse.parse_qs(shown["hash"].lstrip("#"))
    assert spot["history"] == ["play warrior 2"] and spot["params"] == [SMALL]


def test_a_four_player_spot_shows_each_moves_chance_of_winning(explorer, tmp_path):
    """At 4 players the page shows each move's chance of winning with its interval, as
    the app answers it (the same seed, so the same numbers), best first."""
    history = ["Draw Captain", "Draw Contessa", "Draw Duke", "Draw Contessa", "Draw Assassin",
               "Draw Captain", "Draw Ambassador", "Draw Assassin", "Income"]

    async def script(page: Page):
        await page.send("Page.navigate", url=_address(
            explorer, game="coup", mode="step", params="players=4", history=";".join(history)))
        await page.wait_for("document.getElementById('advice').dataset.state === 'ready'")
        return {"rows": await page.js(_rows()),
                "value": await page.js("document.getElementById('value').textContent")}

    shown = browse(tmp_path, script)
    advice = _post(explorer + "api/advice", {"game": "coup", "params": "players=4",
                                             "history": history})["advice"]
    assert [r[:2] for r in shown["rows"]] == [
        [a["action"], f"{100 * a['win']:.1f}%"] for a in advice["actions"]]
    assert shown["value"].startswith("Best for P1 (you)")


def test_a_spot_in_the_address_without_advice_says_why_in_one_line(explorer, tmp_path):
    # A card to lose with two in hand: the exact solve advises at the start of a turn only.
    history = ["Coup P1"]
    options = {"turn_cap": 1, "cap_pricing": "draw", "exact": True}

    async def script(page: Page):
        await page.send("Page.navigate", url=_address(
            explorer, game="coup", mode="step", params=TWO_CARDS, history=";".join(history),
            options=json.dumps(options)))
        await page.wait_for("document.getElementById('advice').dataset.state "
                            "=== 'unavailable'")
        return await page.js("document.getElementById('unavailable').textContent")

    expected = _post(explorer + "api/advice", {"game": "coup", "params": TWO_CARDS,
                                               "history": history,
                                               "options": options})["unavailable"]
    assert browse(tmp_path, script) == f"No advice here: {expected}"
    assert "advice is given at the start of a turn" in expected


def test_bad_parameters_typed_in_the_page_are_one_line_in_the_page(explorer, tmp_path):
    async def script(page: Page):
        await page.send("Page.navigate", url=_address(explorer, game="cobardes",
                                                      mode="step", params=SMALL))
        await page.wait_for("document.querySelectorAll('#moves button').length === 4")
        await page.js("document.getElementById('params').value = 'kinds=warriors,colour=red'")
        await page.click("#start")
        await page.wait_for("!document.getElementById('error').hidden")
        return await page.js("document.getElementById('error').textContent")

    message = browse(tmp_path, script)
    assert message.startswith("python_cobardes_battle has no such parameter; its "
                              "parameters: allow_mirror, ")
    assert "colour" not in message
    assert "\n" not in message and "Traceback" not in message


def test_a_battle_built_by_clicking_cards_is_advised_as_the_app_advises_it(explorer,
                                                                         tmp_path):
    async def script(page: Page):
        await page.send("Page.navigate", url=_address(explorer, game="cobardes",
                                                      mode="step", params=SMALL))
        await page.wait_for("document.querySelectorAll('#moves button').length === 4")
        await page.click("#mode-build")
        await page.wait_for("!document.getElementById('build').hidden")
        await page.js("(() => { const s = document.getElementById('cb-warriors'); "
                      "s.value = '3'; s.dispatchEvent(new Event('change')); })()")
        # Your Prince and the rival's 3 leave the hands; the combat is the second of 3.
        await page.click('#cb-mine button[data-card="Prince"]')
        await page.click('#cb-theirs button[data-card="3"]')
        await page.js("document.getElementById('cb-combat').value = '2'; "
                      "document.getElementById('cb-combats').value = '3'")
        await page.click("#build-advise")
        await page.wait_for("document.getElementById('advice').dataset.state === 'ready'")
        return {"rows": await page.js(_rows()),
                "command": await page.js("document.getElementById('command').textContent")}

    shown = browse(tmp_path, script)
    answer = _post(explorer + "api/position", {"game": "cobardes", "fields": {
        "warriors": 3, "mine": ["1", "2", "3"], "theirs": ["Prince", "1", "2"],
        "combat": 2, "combats": 3}})
    assert shown["command"] == answer["command"]
    assert "--mine 1,2,3 --theirs Prince,1,2 --combat 2 --combats 3" in answer["command"]
    assert [r[:2] for r in shown["rows"]] == [
        [a["action"], f"{100 * a['probability']:.1f}%"] for a in answer["advice"]["actions"]]


@pytest.mark.parametrize("address", ["chess", "#game=chess&mode=step"])
def test_an_unknown_game_in_the_address_is_a_page_not_found(explorer, tmp_path, address):
    async def script(page: Page):
        await page.send("Page.navigate", url=explorer + address)
        await page.wait_for("!!document.getElementById('missing')")
        return {"text": await page.js("document.body.innerText"),
                "path": await page.js("location.pathname"),
                "links": await page.js("[...document.links].map(a => a.pathname)")}

    shown = browse(tmp_path, script)
    assert shown["path"] == "/chess"
    assert "There is no such game or page here" in shown["text"]
    assert shown["links"] == ["/cobardes", "/coup", "/goat_lords"]
    with pytest.raises(urllib.error.HTTPError) as answer:
        urllib.request.urlopen(explorer + "chess", timeout=TIMEOUT)
    assert answer.value.code == 404


def test_the_state_box_is_the_games_text_as_the_player_to_move_sees_it(explorer, tmp_path):
    params = "kinds=warriors+villains,warriors=2,combats=2"

    async def script(page: Page):
        await page.send("Page.navigate", url=explorer + "cobardes#" + urllib.parse.urlencode(
            {"mode": "step", "params": params, "history": "draw Friar;draw Thug;play warrior 1"},
            quote_via=urllib.parse.quote))
        await page.wait_for("document.getElementById('state').textContent.length > 0")
        return {"state": await page.js("document.getElementById('state').textContent"),
                "seen": await page.js("document.getElementById('seen-by').textContent"),
                "path": await page.js("location.pathname")}

    shown = browse(tmp_path, script)
    assert shown["path"] == "/cobardes"
    assert shown["seen"] == "The table as P1 sees it"
    assert shown["state"].startswith("You are P1. combat 1, confrontation, your move")
    assert "Your hand: Prince 1 2 Thug" in shown["state"]
    assert "Enemy hand: warriors Prince 1 2, 1 villain(s)" in shown["state"]
    assert "Friar" not in shown["state"]  # the rival's villain is hidden from P1


def test_goat_lords_is_dealt_and_the_best_agents_move_is_shown(explorer, tmp_path):
    async def script(page: Page):
        await page.send("Page.navigate", url=explorer + "goat_lords")
        await page.wait_for("!document.getElementById('deal').hidden")
        build_tab = await page.js("document.getElementById('mode-build').hidden")
        await page.click("#deal")
        await page.wait_for("document.getElementById('advice').dataset.state === 'ready'")
        return {"build_tab_hidden": build_tab,
                "history": await page.js("[...document.querySelectorAll('#history li')]"
                                         ".map(li => li.textContent)"),
                "moves": await page.js("[...document.querySelectorAll('#moves button')]"
                                       ".map(b => b.dataset.move)"),
                "value": await page.js("document.getElementById('value').textContent"),
                "rows": await page.js(_rows()),
                "state": await page.js("document.getElementById('state').textContent")}

    shown = browse(tmp_path, script)
    assert shown["build_tab_hidden"]
    assert len(shown["history"]) == 11 and all(m.startswith("Draw ") for m in shown["history"])
    assert shown["state"].startswith("Goat Lords — round 1, turn 1 (you are seat 0)")
    answer = _post(explorer + "api/advice", {"game": "goat_lords", "params": "players=2,"
                                             "scoring=single", "history": shown["history"]})
    move = answer["advice"]["json"]["move"]
    assert shown["value"] == f"Farol's strongest agent, in P0's seat, plays: {move}"
    assert sorted(r[0] for r in shown["rows"]) == sorted(shown["moves"])
    assert [r[0] for r in shown["rows"] if r[1] == "plays this"] == [move]


def _running(base: str) -> int:
    with urllib.request.urlopen(base + "api/solves", timeout=TIMEOUT) as answer:
        return json.load(answer)["running"]


def test_stop_ends_the_solve_on_the_server(explorer, tmp_path):
    # Two face-down cards each with a turn cap of 2: a solve of well over ten seconds.
    spot = {"deck": "ambassador", "seat": 0, "you": {"hidden": ["Duke", "Captain"], "coins": 2},
            "rival": {"hidden": 2, "coins": 2}}
    options = {"turn_cap": 2, "cap_pricing": "draw", "exact": True}

    async def script(page: Page):
        await page.send("Page.navigate", url=explorer + "coup#" + urllib.parse.urlencode(
            {"mode": "build", "spot": json.dumps(spot), "options": json.dumps(options)},
            quote_via=urllib.parse.quote))
        await page.wait_for("document.getElementById('advice').dataset.state === 'solving'")
        end = time.monotonic() + 30
        while _running(explorer) != 1:
            assert time.monotonic() < end, "the solve never started"
            await asyncio.sleep(0.1)
        await page.click("#stop")
        await page.wait_for("document.getElementById('advice').dataset.state === 'stopped'")
        end = time.monotonic() + 5
        while _running(explorer) != 0:
            assert time.monotonic() < end, "the solve went on after Stop"
            await asyncio.sleep(0.1)
        return await page.js("document.getElementById('advice').textContent")

    assert browse(tmp_path, script).startswith("Stopped.")


# ------------------------------------------------------------------ what the page shows, seen
# The spots the screenshots show (docs/screenshots): Coup with two face-down cards each (best's
# re-solve) and with one each (the exact solve, beside the endgame charts), a small battle,
# and a Goat Lords deal (no value: the agent's move).
SCREENS = {
    "coup_two_cards": {"game": "coup", "params": "deck=ambassador",
                       "history": ["Draw Duke", "Draw Contessa", "Draw Captain",
                                   "Draw Assassin", "Foreign Aid"]},
    "coup_one_card": {"game": "coup", "params": CONTESSAS,
                      "history": ["Draw Duke", "Draw Captain"],
                      "options": {"turn_cap": 1, "cap_pricing": "draw", "exact": True}},
    "cobardes": {"game": "cobardes", "params": SMALL, "history": ["play warrior 2"]},
    "goat_lords": {"game": "goat_lords", "params": "players=2,scoring=single", "history": [
        "Draw Krakengoat", "Draw Flying Goat-a-Corn", "Draw Gleeful Ghoast",
        "Draw Magical Goatini", "Draw Friendly T-Goat", "Draw Goat Ninja",
        "Draw Magical Goatini", "Draw Friendly T-Goat", "Draw Goat Lord", "Draw Goat Ninja",
        "Draw Flying Goat-a-Corn"]},
}
WIDTHS = {"laptop": (1280, 800, False), "phone": (390, 844, True)}
SHOTS = Path(os.environ.get("FAROL_SCREENSHOTS", "")) if os.environ.get("FAROL_SCREENSHOTS") \
    else None  # FAROL_SCREENSHOTS=docs/screenshots writes the documentation's screenshots


def png_size(data: bytes) -> tuple[int, int]:
    """A PNG's width and height, from its header."""
    assert data[:8] == b"\x89PNG\r\n\x1a\n" and data[12:16] == b"IHDR", "not a PNG"
    return int.from_bytes(data[16:20], "big"), int.from_bytes(data[20:24], "big")


def _seen(page_text: dict, advice: dict) -> None:
    """What a screenshot shows, checked: the value is a number (never a dash), one source
    line naming the answer's source and accuracy, the solver settings tucked away, the
    charts of the spot and nothing wider than the screen."""
    value, box = page_text["value"], page_text["advice"]
    assert "—" not in box and "exploitability 0," not in box.replace(
        "exploitability 0, exact", "")
    assert not re.search(r"-0\.0+\b", box), box  # no negative zero
    assert box.count("Source:") == 1 and page_text["sources"] == 1
    assert advice["source"] in page_text["source"]
    assert advice["accuracy"]["text"] in page_text["source"]
    if advice.get("agent"):  # Goat Lords: the move, and why there is no value
        assert value.startswith("Farol's strongest agent") and page_text["no_value"]
    else:
        number = value.rsplit(" ", 1)[-1]
        assert value.startswith("Value for ") and float(number) == pytest.approx(
            advice["value"], abs=5e-5)
    assert page_text["charts"] == [c["file"] for c in advice["charts"]]
    assert page_text["settings_shown"] is False
    assert page_text["scroll_width"] <= page_text["width"], "wider than the screen"


def test_screenshots_show_a_number_one_source_and_the_spots_charts(explorer, tmp_path):
    async def script(page: Page):
        seen = {}
        for width_name, (width, height, mobile) in WIDTHS.items():
            await page.send("Emulation.setDeviceMetricsOverride", width=width, height=height,
                            deviceScaleFactor=1, mobile=mobile)
            for name, spot in SCREENS.items():
                # A new page each time (a link that differs only after # loads no page).
                await page.send("Page.navigate", url="about:blank")
                await page.wait_for("location.href === 'about:blank'")
                await page.send("Page.navigate", url=explorer + spot["game"] + "#" +
                                urllib.parse.urlencode({
                                    "mode": "step", "params": spot["params"],
                                    "history": ";".join(spot["history"]),
                                    "options": json.dumps(spot.get("options", {}))},
                                    quote_via=urllib.parse.quote))
                await page.wait_for("document.getElementById('advice').dataset.state "
                                    "=== 'ready'")
                # The charts load lazily: all of them now, for the screenshot.
                await page.js("document.querySelectorAll('.charts img').forEach(i => "
                              "i.loading = 'eager')")
                await page.wait_for("[...document.querySelectorAll('.charts img')]"
                                    ".every(i => i.complete && i.naturalWidth > 0)")
                text = await page.js("""(() => {
                  const options = document.getElementById('coup-options');
                  return {
                    value: document.getElementById('value').textContent,
                    advice: document.getElementById('advice').innerText,
                    source: document.getElementById('source').textContent,
                    sources: document.querySelectorAll('#source').length,
                    no_value: !!document.getElementById('no-value'),
                    charts: [...document.querySelectorAll('.charts img')].map(
                      i => i.getAttribute('src').replace('/charts/', '')),
                    settings_shown: options.open ||
                      document.getElementById('turn-cap').checkVisibility(),
                    advanced: !options.hidden && !!options.querySelector('summary'),
                    scroll_width: Math.max(document.documentElement.scrollWidth,
                      ...[...document.querySelectorAll('body *')].map(
                        e => Math.ceil(e.getBoundingClientRect().right))),
                  }; })()""")
                metrics = await page.send("Page.getLayoutMetrics")
                full = metrics["cssContentSize"]
                shot = await page.send("Page.captureScreenshot", format="png",
                                       captureBeyondViewport=True, clip={
                                           "x": 0, "y": 0, "width": width,
                                           "height": min(full["height"], 4000), "scale": 1})
                seen[name, width_name] = text | {"png": shot["data"]}
        return seen

    seen = browse(tmp_path, script)
    if SHOTS is not None:
        SHOTS.mkdir(parents=True, exist_ok=True)
        for (name, width_name), shown in seen.items():
            (SHOTS / f"explore_{name}_{width_name}.png").write_bytes(
                base64.b64decode(shown["png"]))
    for (name, width_name), shown in seen.items():
        spot = SCREENS[name]
        answer = _post(explorer + "api/advice", {"game": spot["game"], "params": spot["params"],
                                                 "history": spot["history"],
                                                 "options": spot.get("options")})
        _seen(shown | {"width": WIDTHS[width_name][0]}, answer["advice"])
        assert shown["advanced"] is (spot["game"] == "coup")
        assert png_size(base64.b64decode(shown["png"]))[0] == WIDTHS[width_name][0]
