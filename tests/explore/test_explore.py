"""``farol explore``: the app's JSON (Flask's test client) gives the advice ``farol advise``
gives, the moves OpenSpiel names, and one-line errors; the command serves and stops."""

from __future__ import annotations

import contextlib
import json
import os
import re
import shlex
import signal
import socket
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest
from cli_helpers import param_flags

from analysis.cli import main
from analysis.explore import answers, spots
from analysis.explore.app import create_app
from analysis.explore.games import PAGES
from analysis.explore.games import cobardes as cobardes_page
from analysis.explore.games import coup as coup_page
from analysis.explore.games import goat_lords as goat_page
from analysis.explore.words import page_words
from analysis.explore.worker import Solves
from analysis.shared import store

ROOT = Path(__file__).resolve().parents[2]
SMALL = "kinds=warriors+courtiers,warriors=2,combats=2,courtier0=Squire,courtier1=Archer"
ENDGAME = "deck=ambassador,position=?/duke/3;?/captain/2;move:0"
# One face-down card each, both having lost a Contessa: the endgames the report charts.
CONTESSAS = "deck=ambassador,position=?/contessa/3;?/contessa/2;move:0"
QUICK_COUP = {"turn_cap": 1, "cap_pricing": "draw", "exact": True}  # the exact solve, small
# The flags of what the page offers as its own controls.
PAGE_CONTROLS = ("--param", "--history", "--turn-cap", "--cap-pricing", "--mine", "--theirs",
                 "--my-courtier", "--their-courtier", "--my-villain", "--their-villain",
                 "--combat", "--score", "--warriors", "--solve")


@pytest.fixture()
def client(tmp_path):
    (tmp_path / "reports").mkdir()
    (tmp_path / "reports" / "coup_bluff_rates.png").write_bytes(b"\x89PNG\r\n\x1a\nfake")
    (tmp_path / "reports" / "notes.txt").write_text("not a chart")
    with store.use(tmp_path / "data"):
        app = create_app(tmp_path / "reports")
        app.config["TESTING"] = True
        yield app.test_client()


def default_ctrl_c() -> None:
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def _advise_json(capsys, *args) -> dict:
    """``farol advise ... --json`` less its ``schema`` header (the command's envelope: the
    explorer's JSON is the advice itself)."""
    assert main(["advise", *args, "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out.pop("schema").startswith("advise-")
    return out


def _without_seconds(advice: dict) -> dict:
    """Advice JSON less the time it took (the one field two askings may differ in)."""
    return {k: v for k, v in advice.items() if k != "seconds"}


def _run_command(capsys, answer: dict) -> dict:
    """The JSON of the ``farol advise`` command line the app shows beside its advice."""
    words = shlex.split(answer["command"])
    assert words[:2] == ["farol", "advise"]
    return _advise_json(capsys, *words[2:])


def _error_line(response, status: int = 400) -> str:
    assert response.status_code == status
    message = response.get_json()["error"]
    assert "\n" not in message and "Traceback" not in message
    return message


def test_the_catalog_offers_every_game_and_every_preset_loads(client):
    data = client.get("/api/catalog").get_json()
    assert [g["name"] for g in data["games"]] == ["python_cobardes_battle", "python_coup",
                                                   "python_goat_lords"]
    assert [g["build"] for g in data["games"]] == [True, True, False]
    for game in data["games"]:
        assert game["presets"]
        for preset in game["presets"]:
            assert spots.load(game["key"], preset["params"]) is not None
    assert data["coup"]["decks"]["inquisitor"][3] == "Inquisitor"
    assert data["cobardes"]["warriors"][0] == "Prince"
    assert data["charts"] == ["coup_bluff_rates.png"]  # only the charts the folder holds


def test_the_page_and_its_files_are_served(client):
    for address in ("/", "/cobardes", "/coup", "/goat_lords"):
        page = client.get(address)
        assert page.status_code == 200 and b'<script src="/page/explore.js">' in page.data
    assert b"function showAdvice" in client.get("/page/explore.js").data
    assert client.get("/charts/coup_bluff_rates.png").data.endswith(b"fake")
    # Only the report's charts, never another file of the folder.
    assert _error_line(client.get("/charts/notes.txt"), 404) == "no such chart"


def test_an_unknown_game_in_the_address_is_a_page_not_found(client):
    page = client.get("/chess")
    assert page.status_code == 404 and page.mimetype == "text/html"
    text = page.get_data(as_text=True)
    assert "There is no such game or page here" in text and "chess" not in text
    assert '<a href="/coup">Coup, 2-6 players</a>' in text
    assert b"chess" not in client.get("/%3Cb%3Echess%3C%2Fb%3E").data


def test_moves_are_named_as_the_game_names_them_and_a_click_plays_one(client):
    start = client.post("/api/moves", json={"game": "cobardes", "params": SMALL,
                                            "history": []}).get_json()
    state = spots.load("cobardes", SMALL).new_initial_state()
    assert [m["name"] for m in start["moves"]] == [
        state.action_to_string(0, a) for a in state.legal_actions()]
    assert start["player"] == 0 and not start["chance"] and not start["terminal"]
    after = client.post("/api/moves", json={"game": "cobardes", "params": SMALL,
                                            "history": [start["moves"][2]["name"]]})
    after = after.get_json()
    assert after["player"] == 1 and after["moves_played"] == 1
    # The game's own text, as player 1 sees it: player 0's card is face down.
    assert after["seat"] == 1 and after["text"].startswith("You are P1. combat 1")
    assert "Your courtier: Archer   Enemy courtier: Squire" in after["text"]
    assert "The enemy has prepared a card face down." in after["text"]
    assert "warrior 2" not in after["text"] and not re.search(r"\(-?\d+, ", after["text"])


@pytest.mark.parametrize("game,params,history,seat,shown,hidden", [
    # P1 holds the Thug and sees that the rival holds a villain, not which.
    ("cobardes", "kinds=warriors+villains,warriors=2,combats=2",
     ["draw Friar", "draw Thug", "play warrior 1"], 1, ["Your hand: Prince 1 2 Thug",
                                                         "1 villain(s)"], ["Friar"]),
    ("cobardes", "kinds=warriors+villains,warriors=2,combats=2", ["draw Friar", "draw Thug"],
     0, ["Your hand: Prince 1 2 Friar"], ["Thug"]),
    # A chance move next, before anyone has moved: shown as P0 sees it.
    ("coup", ENDGAME, ["Draw Duke"], 0, ["P0 (you): Duke"], []),
    # P0 sees the rival's face-down count, not the Contessa dealt to it.
    ("coup", ENDGAME, ["Draw Duke", "Draw Contessa"], 0,
     ["P0 (you): Duke", "P1: 1 face-down; revealed Captain", "P1 is dealt a card"],
     ["Contessa"]),
])
def test_the_state_is_the_games_text_without_the_rivals_hidden_cards(
        client, game, params, history, seat, shown, hidden):
    data = client.post("/api/moves", json={"game": game, "params": params,
                                           "history": history}).get_json()
    assert data["seat"] == seat
    for words in shown:
        assert words in data["text"]
    for card in hidden:
        assert card not in data["text"]


def test_chance_outcomes_are_listed_with_their_probabilities(client):
    data = client.post("/api/moves", json={"game": "coup", "params": ENDGAME,
                                           "history": ["Draw Duke"]}).get_json()
    assert data["chance"] and data["player"] == -1
    assert sum(m["probability"] for m in data["moves"]) == pytest.approx(1.0)
    # The rival's card is drawn from the court: 3 copies of 5 characters less the
    # Duke and Captain face up and the Duke just dealt.
    shares = {m["name"]: m["probability"] for m in data["moves"]}
    assert shares["Draw Duke"] == pytest.approx(1 / 12)
    assert shares["Draw Contessa"] == pytest.approx(3 / 12)


def test_battle_advice_is_farol_advise_at_the_same_spot(client, capsys):
    history = ["play warrior 2"]
    answer = client.post("/api/advice", json={"game": "cobardes", "params": SMALL,
                                              "history": history}).get_json()
    got = answer["advice"]
    expected = _advise_json(capsys, "cobardes", *param_flags(SMALL), "--history", history[0])
    assert got["json"] == expected
    params = " ".join(f"--param {item}" for item in SMALL.split(","))
    assert answer["command"] == f"farol advise cobardes {params} --history 'play warrior 2'"
    assert _run_command(capsys, answer) == expected
    assert got["player"] == "you" and got["value"] == expected["value"]
    # The actions shown are advise's actions, most played first.
    assert sorted(got["actions"], key=lambda r: r["action"]) == sorted(
        expected["actions"], key=lambda r: r["action"])
    probabilities = [r["probability"] for r in got["actions"]]
    assert probabilities == sorted(probabilities, reverse=True)
    # The report's courtier charts are of full armies: none describes this small battle.
    assert got["charts"] == []


def test_a_hidden_villains_spot_is_farol_advise_at_the_same_spot(client, capsys):
    params = "kinds=warriors+villains,warriors=2,combats=2"
    history = ["draw Friar", "draw Thug", "play warrior 1"]
    answer = client.post("/api/advice", json={"game": "cobardes", "params": params,
                                              "history": history}).get_json()
    expected = _advise_json(capsys, "cobardes", *param_flags(params), "--history",
                            ";".join(history))
    assert answer["advice"]["json"] == expected
    assert expected["source"].startswith("stored hidden-villain solve")
    # Its exploitability is measured within an abstraction: the page says "at least".
    accuracy = answer["advice"]["accuracy"]
    assert accuracy["kind"] == "lower bound"
    assert accuracy["exploitability"] == expected["exploitability"]
    assert accuracy["text"].startswith("exploitability at least ")
    assert "a lower bound on the true one" in accuracy["text"]
    # Player 1 cannot tell player 0's villain: any of the eight that are not the Thug.
    assert len(expected["opponent_hand"]) == 8 and "Thug" not in expected["opponent_hand"]


def test_solving_the_whole_battle_is_farol_advise_with_solve(client, capsys):
    """"Solve the whole battle" under Advanced is --solve, stepped or built; anything but
    true or false is refused."""
    params = "kinds=warriors+villains,warriors=2,combats=2"
    history = ["draw Friar", "draw Thug", "play warrior 1"]
    answer = client.post("/api/advice", json={"game": "cobardes", "params": params,
                                              "history": history,
                                              "options": {"solve": True}}).get_json()
    assert answer["command"].endswith("--solve")
    assert answer["advice"]["json"] == _run_command(capsys, answer)
    built = client.post("/api/position", json={"game": "cobardes", "fields": {
        "warriors": 2, "mine": ["Prince", "1", "2"], "theirs": ["Prince", "1", "2"],
        "my_villain": "Friar", "options": {"solve": True}}}).get_json()
    assert built["command"].endswith("--solve") and "advice" in built
    refused = client.post("/api/advice", json={"game": "cobardes", "params": params,
                                               "history": history,
                                               "options": {"solve": "yes"}})
    assert refused.status_code == 400 and "solve must be true or false" in refused.get_json()[
        "error"]


def test_coup_advice_is_farol_advise_at_the_same_spot(client, capsys):
    history = ["Draw Duke", "Draw Captain", "Income"]
    got = client.post("/api/advice", json={"game": "coup", "params": ENDGAME,
                                           "history": history, "options": QUICK_COUP})
    answer = got.get_json()
    got = answer["advice"]
    expected = _advise_json(capsys, "coup", *param_flags(ENDGAME), "--history",
                            ";".join(history), "--exact", "--turn-cap", "1", "--cap-pricing",
                            "draw")
    assert got["json"] == expected
    assert _run_command(capsys, answer) == expected
    assert got["json"]["position"] == "?/duke/4;captain/captain/2;move:1"
    assert got["player"] == 1
    assert got["opponent_hand"] == expected["opponent_hand"]
    assert sum(r["probability"] for r in got["actions"]) == pytest.approx(1.0)
    # Without "Solve exactly", best's mix, as farol advise gives it without --exact.
    answer = client.post("/api/advice", json={"game": "coup", "params": ENDGAME,
                                              "history": history}).get_json()
    expected = _advise_json(capsys, "coup", *param_flags(ENDGAME), "--history",
                            ";".join(history))
    assert _without_seconds(answer["advice"]["json"]) == _without_seconds(expected)
    assert _without_seconds(_run_command(capsys, answer)) == _without_seconds(expected)
    assert expected["agent"] == "best" and expected["player"] == 1


def test_coup_advice_inside_a_turn_is_the_re_solve_farol_advise_gives(client, capsys):
    """A block the exact solve and the opening table cannot answer: the page gives the
    re-solve's advice, as farol advise does, and says first what its model leaves out."""
    history = ["Draw Duke", "Draw Contessa", "Draw Captain", "Draw Assassin", "Foreign Aid"]
    answer = client.post("/api/advice", json={"game": "coup", "params": "",
                                              "history": history}).get_json()
    got = answer["advice"]
    expected = _without_seconds(_advise_json(capsys, "coup", "--history", ";".join(history)))
    assert _without_seconds(got["json"]) == expected
    assert _without_seconds(_run_command(capsys, answer)) == expected
    assert got["source"] == ("best: the re-solve of the rest of the turn over the public "
                             "beliefs")
    assert got["limits"].startswith("Truncated model: only the rest of this turn is solved")
    assert got["player"] == 1 and "No block" in {a["action"] for a in got["actions"]}
    assert sum(a["probability"] for a in got["actions"]) == pytest.approx(1.0)
    assert got["opponent_hand"] == expected["opponent_hands"]


def test_coup_advice_at_four_players_is_what_farol_advise_gives(client, capsys):
    """A 4-player spot: each move's chance of winning with its interval, ties marked, as
    farol advise coup --players 4 gives it (the same seed, so the same numbers)."""
    history = ["Draw Captain", "Draw Contessa", "Draw Duke", "Draw Contessa", "Draw Assassin",
               "Draw Captain", "Draw Ambassador", "Draw Assassin", "Income"]
    answer = client.post("/api/advice", json={"game": "coup", "params": "players=4",
                                              "history": history}).get_json()
    got = answer["advice"]
    expected = _without_seconds(_advise_json(capsys, "coup", "--param", "players=4",
                                             "--history", ";".join(history)))
    assert _without_seconds(got["json"]) == expected
    assert got["win_chances"] and got["player"] == 1 and got["players"] == 4
    assert [a["action"] for a in got["actions"]] == [m["move"] for m in expected["moves"]]
    top = got["actions"][0]
    assert all(a["tie"] == (a["ci95"][1] >= top["ci95"][0]) for a in got["actions"])
    assert set(got["opponent_hands"]) == {"P0", "P2", "P3"}
    assert "opponents who play like best" in got["limits"]


@pytest.mark.parametrize("game,params,history,cli", [
    # Where a card is still to be drawn, no one decides.
    ("coup", ENDGAME, ["Draw Duke"], ["--exact", "--turn-cap", "1", "--cap-pricing", "draw"]),
    # Villains dealt face down in a full army's battle not solved yet.
    ("cobardes", "kinds=warriors+villains", ["draw Friar", "draw Thug"], []),
])
def test_a_spot_without_advice_says_why_in_advises_words(client, capsys, game, params,
                                                         history, cli):
    got = client.post("/api/advice", json={"game": game, "params": params,
                                           "history": history, "options": QUICK_COUP})
    assert got.status_code == 200
    message = got.get_json()["unavailable"]
    code = main(["advise", game, *param_flags(params), "--history", ";".join(history), *cli])
    assert code == 2
    said = capsys.readouterr().err.strip().removeprefix("farol advise: error: ")
    # advise's message, with the flags of the page's own controls named as the page names
    # them.
    assert message == page_words(said)
    assert not any(flag in message for flag in PAGE_CONTROLS), message
    # So does the command line the page shows.
    assert main(shlex.split(got.get_json()["command"])[1:]) == 2
    assert capsys.readouterr().err.strip() == f"farol advise: error: {said}"


@pytest.mark.parametrize("said,shown", [
    ("--history ends inside a turn (at the challenge decision); advice is given at the "
     "start of a turn", "the moves played end inside a turn (at the challenge decision); "
     "advice is given at the start of a turn"),
    ("--history: the battle is over after these moves", "the battle is over after these moves"),
    ("position: pricing the cap ... (~15 minutes, ~8 GB); use --cap-pricing draw",
     "position: pricing the cap ... (~15 minutes, ~8 GB); choose the cap pricing draw "
     "under Advanced"),
    ("--mine has 2 warriors out of hand before combat 2", "your hand has 2 warriors out of "
     "hand before combat 2"),
    ("--score needs a battle without villains", "a war score needs a battle without villains"),
])
def test_messages_name_the_pages_controls_not_command_line_flags(said, shown):
    assert page_words(said) == shown


def test_the_page_asks_for_no_command_line_flag():
    """The page's own texts: no flag of the command line (its controls are on the page)."""
    for name in ("explore.js", "index.html"):
        text = (ROOT / "analysis" / "explore" / "page" / name).read_text()
        assert not re.search(r"--[a-z]", text), name


@pytest.mark.parametrize("path,body,words", [
    ("/api/moves", {"game": "chess"}, "game must be one of cobardes, coup, goat_lords"),
    ("/api/moves", {"game": "cobardes", "params": "colour=red"},
     "python_cobardes_battle has no such parameter; its parameters: "),
    ("/api/moves", {"game": "cobardes", "params": "warriors=abc"},
     "parameter 'warriors' takes a whole number"),
    ("/api/moves", {"game": "cobardes", "params": SMALL, "history": ["play warrior 6"]},
     "moves played: move 1 is not legal here; legal: play warrior 0 (prince)"),
    ("/api/moves", {"game": "cobardes", "history": {"a": 1}},
     "history must be a list of move names"),
    ("/api/advice", {"game": "coup", "params": ENDGAME, "history": [],
                     "options": {"turn_cap": 99}},
     "turn cap must be a whole number from 1 to 6"),
    ("/api/advice", {"game": "coup", "params": ENDGAME, "history": [],
                     "options": {"cap_pricing": "free"}}, "cap pricing must be one of"),
    ("/api/position", {"game": "cobardes", "fields": {"mine": ["Prince", "Wizard"]}},
     "unknown ¡Cobardes! card; warriors are 0-6"),
    ("/api/position", {"game": "goat_lords", "fields": {}},
     "Goat Lords: a spot is reached by stepping through a game, not built"),
    ("/api/position", {"game": "coup", "fields": {"you": {"hidden": []}}},
     "your cards: pick one or two face-down cards"),
    ("/api/position", {"game": "coup", "fields": {"you": {"hidden": ["Duke"], "coins": 40}}},
     "your coins must be a whole number from 0 to 12"),
    ("/api/moves", {"game": "coup", "params": "position=duke/assassin;captain/contessa/2"},
     "position: write player 0 as hidden/revealed/coins (face-down cards, lost cards, coins: "
     "e.g. duke+?/-/2)"),
])
def test_bad_input_is_one_line_naming_it(client, path, body, words):
    message = _error_line(client.post(path, json=body))
    assert words in message
    # What was sent is not said back.
    for sent in ("chess", "colour", "abc", "play warrior 6", "99", "free", "Wizard", "40"):
        assert sent not in message


def test_a_body_that_is_not_json_and_an_unknown_address_are_one_line(client):
    assert _error_line(client.post("/api/moves", data="x")) == \
        "the request must be a JSON object"
    assert _error_line(client.get("/api/nothing"), 404).startswith("404 Not Found")


def test_a_failure_of_the_explorer_is_one_line_too(client, monkeypatch):
    def broken(state):
        raise RuntimeError("a bug\nwith two lines")
    monkeypatch.setattr(spots, "describe", broken)
    message = _error_line(client.post("/api/moves", json={"game": "cobardes"}), 500)
    assert message == "the explorer failed (RuntimeError); the server's log has the details"


def test_a_built_battle_is_farol_advise_with_the_same_flags(client, capsys):
    fields = {"warriors": 3, "mine": ["Prince", "1", "3"], "theirs": ["1", "2", "3"],
              "combat": 2, "combats": 3, "my_courtier": "Squire", "their_courtier": "",
              "my_villain": "", "their_villain": "", "score": ""}
    answer = client.post("/api/position", json={"game": "cobardes", "fields": fields})
    answer = answer.get_json()
    expected = _advise_json(capsys, "cobardes", "--warriors", "3", "--mine", "Prince,1,3",
                            "--theirs", "1,2,3", "--combat", "2", "--combats", "3",
                            "--my-courtier", "Squire")
    assert answer["advice"]["json"] == expected
    assert _run_command(capsys, answer) == expected


@pytest.mark.parametrize("seat,position", [
    (0, "duke/contessa/3;?/captain/5;move:0"),
    (1, "?/captain/5;duke/contessa/3;move:1"),
])
def test_a_built_coup_position_is_written_as_advise_reads_it(seat, position):
    fields = {"deck": "ambassador", "seat": seat,
              "you": {"hidden": ["Duke"], "revealed": ["Contessa"], "coins": 3},
              "rival": {"hidden": 1, "revealed": ["Captain"], "coins": 5}}
    assert coup_page.position_of(fields) == (position, "ambassador")


def test_a_built_coup_position_is_advised_or_says_why_not(client, capsys):
    fields = {"deck": "ambassador", "seat": 0,
              "you": {"hidden": ["Duke"], "revealed": ["Contessa"], "coins": 3},
              "rival": {"hidden": 1, "revealed": ["Captain"], "coins": 5},
              "options": QUICK_COUP}
    got = client.post("/api/position", json={"game": "coup", "fields": fields}).get_json()
    expected = _advise_json(capsys, "coup", "duke/contessa/3;?/captain/5;move:0",
                            "--exact", "--turn-cap", "1", "--cap-pricing", "draw")
    assert got["advice"]["json"] == expected and got["spot"] == expected["position"]
    assert _run_command(capsys, got) == expected
    # Without "Solve exactly": best's mix, as farol advise gives it for the position.
    best = client.post("/api/position", json={"game": "coup", "fields": fields | {
        "options": {}}}).get_json()
    expected = _without_seconds(_advise_json(capsys, "coup",
                                             "duke/contessa/3;?/captain/5;move:0"))
    assert _without_seconds(best["advice"]["json"]) == expected
    assert _without_seconds(_run_command(capsys, best)) == expected
    assert expected["agent"] == "best" and expected["hand"] == "Duke"
    # Two face-down cards each: the cap cannot be priced; advise's line says so.
    fields |= {"you": {"hidden": ["Duke", "Duke"], "coins": 2},
               "rival": {"hidden": 2, "coins": 2}, "options": {"turn_cap": 1, "exact": True}}
    got = client.post("/api/position", json={"game": "coup", "fields": fields}).get_json()
    assert got["unavailable"].startswith("position: pricing the cap of a position with two "
                                         "face-down cards each")


def test_the_port_is_checked(capsys):
    assert main(["explore", "--port", "70000", "--no-browser"]) == 2
    err = capsys.readouterr().err.strip()
    assert err.startswith("farol explore: error: argument --port:") and "\n" not in err


def test_a_port_in_use_is_one_line(capsys):
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        assert main(["explore", "--port", str(port), "--no-browser"]) == 2
    err = capsys.readouterr().err.strip()
    assert err.startswith(f"farol explore: error: --port {port}: cannot listen on 127.0.0.1")
    assert "\n" not in err


def test_farol_explore_prints_its_address_serves_and_stops_on_ctrl_c(tmp_path):
    env = dict(os.environ, PYTHONPATH=str(ROOT), FAROL_DATA_DIR=str(tmp_path / "data"),
               FAROL_CACHE_DIR=str(tmp_path / "cache"))
    for name in ("DISPLAY", "WAYLAND_DISPLAY"):  # no screen: no browser is started
        env.pop(name, None)
    command = [sys.executable, "-c", "import sys; from analysis.cli import main; "
               "sys.exit(main(['explore', '--port', '0']))"]
    # A background shell (or an xdist worker) may start us with Ctrl-C ignored, which a
    # child inherits and Python then keeps: the server gets the default back.
    proc = subprocess.Popen(command, cwd=ROOT, env=env, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True,
                            preexec_fn=default_ctrl_c)
    try:
        line = proc.stdout.readline()
        assert line.startswith("Farol explorer at http://127.0.0.1:"), line
        url = line.split()[3]
        if sys.platform.startswith("linux"):
            assert proc.stdout.readline().startswith("No browser to open here")
        with urllib.request.urlopen(url + "api/catalog", timeout=30) as answer:
            assert json.load(answer)["games"][0]["key"] == "cobardes"
        # A solve (in a worker process) does not keep the server from stopping.
        status, answer = _post(url + "api/advice", {"game": "cobardes", "params": SMALL,
                                                    "history": ["play warrior 2"]})
        assert status == 200 and answer["advice"]["player"] == "you"
        proc.send_signal(signal.SIGINT)
        out, err = proc.communicate(timeout=30)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.communicate()
    assert proc.returncode == 0
    assert "Farol explorer stopped" in err and "Traceback" not in err


# ------------------------------------------------------------------ limits on requests
def test_a_body_over_64_kb_is_refused_in_one_line(client):
    big = {"game": "cobardes", "params": "x" * (64 * 1024)}
    assert _error_line(client.post("/api/moves", json=big), 413) == \
        "the request is larger than 64 KB"
    # Just under the limit is read (and its parameters refused without repeating them).
    fits = {"game": "cobardes", "params": "y" * (60 * 1024)}
    message = _error_line(client.post("/api/moves", json=fits))
    assert "yyy" not in message and len(message) < 300


@pytest.mark.parametrize("body,words", [
    ('{"game": "cobardes", "history": ' + "[" * 9 + "]" * 9 + "}",
     "the request's JSON nests deeper than 8 levels"),
    ("[" * 30_000 + "]" * 30_000, "the request's JSON nests deeper than 8 levels"),
    ('{"a": ' * 9_000 + "1" + "}" * 9_000, "the request's JSON nests deeper than 8 levels"),
    # Brackets inside a text do not count.
    ('{"game": "cobardes", "params": "[[[[[[[[[[[[", "history": "{{{{{{{{{{"}',
     "parameter must be written key=value"),
    ('{"game": "cobardes", "history": ' + "[" * 7 + "]" * 7 + "}",
     "history must be a list of move names"),
    ('{"game": NaN}', "the request must be a JSON object"),
    ("[1, 2]", "the request must be a JSON object"),
])
def test_deep_or_odd_json_is_a_400_in_one_line(client, body, words):
    response = client.post("/api/moves", data=body, content_type="application/json")
    assert words in _error_line(response, 400)


def test_a_body_that_is_not_utf8_is_one_line(client):
    response = client.post("/api/moves", data=b'{"game": "\xff"}',
                           content_type="application/json")
    assert _error_line(response) == "the request must be a JSON object (in UTF-8)"


def test_what_was_sent_is_never_said_back(client):
    mark = "<b>zq</b>"
    for path, body in [
        ("/api/moves", {"game": mark}),
        ("/api/moves", {"game": "coup", "params": f"deck={mark}"}),
        ("/api/moves", {"game": "coup", "params": f"{mark}=1"}),
        ("/api/moves", {"game": "coup", "params": mark}),
        ("/api/moves", {"game": "coup", "params": ENDGAME, "history": [mark]}),
        ("/api/advice", {"game": "coup", "params": ENDGAME, "history": [],
                         "options": {"turn_cap": mark}}),
        ("/api/position", {"game": "coup", "fields": {"deck": mark}}),
        ("/api/position", {"game": "coup", "fields": {"you": {"hidden": [mark]}}}),
        ("/api/position", {"game": "cobardes", "fields": {"my_villain": mark}}),
        ("/api/position", {"game": "cobardes", "fields": {"score": mark}}),
    ]:
        message = _error_line(client.post(path, json=body))
        assert "zq" not in message, (body, message)


# ------------------------------------------------------------------ Goat Lords
GOAT = "players=2,scoring=single"


def _dealt(client) -> tuple[list[str], dict]:
    """The moves of a Goat Lords deal (each first outcome) up to the first decision."""
    history: list[str] = []
    while True:
        data = client.post("/api/moves", json={"game": "goat_lords", "params": GOAT,
                                               "history": history}).get_json()
        if not data["chance"]:
            return history, data
        assert sum(m["probability"] for m in data["moves"]) == pytest.approx(1.0)
        assert all(m["name"].startswith("Draw ") for m in data["moves"])
        history.append(data["moves"][0]["name"])


def test_goat_lords_is_stepped_through_as_its_seat_sees_it(client):
    history, data = _dealt(client)
    assert len(history) == 11  # five cards each and the discard pile's first
    assert data["player"] == 0 and data["seat"] == 0
    text = data["text"]
    assert text.startswith("Goat Lords — round 1, turn 1 (you are seat 0)")
    assert "Your hand: " in text
    # The other seat's hand is a count of cards only.
    assert re.search(r"^  seat 1: 5 cards in hand; herd \(0 pts\): \(no goats\)$", text, re.M)
    assert data["moves"] and all("probability" not in m for m in data["moves"])


def test_goat_lords_advice_is_the_best_agents_move(client):
    history, data = _dealt(client)
    answer = client.post("/api/advice", json={"game": "goat_lords", "params": GOAT,
                                              "history": history}).get_json()
    advice = answer["advice"]
    assert advice["agent"] and advice["player"] == 0
    assert sorted(a["action"] for a in advice["actions"]) == sorted(
        m["name"] for m in data["moves"])
    chosen = [a["action"] for a in advice["actions"] if a["probability"] == 1.0]
    assert chosen == [advice["actions"][0]["action"]] == [advice["json"]["move"]]
    # No value: the page says why in words, and claims no accuracy it has not measured.
    assert advice["value"] is None and advice["no_value"].startswith("Goat Lords is not solved")
    assert advice["accuracy"]["kind"] == "not measured" and advice["exploitability"] is None
    assert "exploitability" not in advice["accuracy"]["text"] and advice["charts"] == []
    # The same agent, seeded alike, at the same spot.
    from analysis.goat_lords.agents import build_bot
    state = spots.spot("goat_lords", GOAT, history)
    agent = build_bot("best", state.get_game(), 0, goat_page.AGENT_SEED)
    assert state.action_to_string(0, agent(state.clone())) == chosen[0]
    # Where nobody decides, the page is told so.
    dealing = client.post("/api/advice", json={"game": "goat_lords", "params": GOAT,
                                               "history": history[:3]}).get_json()
    assert dealing["unavailable"].startswith("chance moves next")


# ------------------------------------------------------------------ what the page shows
# A block with one face-down card each, and with two each: best's re-solve answers both.
BLOCK_ONE_EACH = ["Draw Duke", "Draw Captain", "Steal from P1 (claims Captain)"]
BLOCK_TWO_EACH = ["Draw Duke", "Draw Contessa", "Draw Captain", "Draw Assassin", "Foreign Aid"]
ANSWERS = {  # a spot of each kind of answer: game, parameters, moves, settings
    "coup exact": ("coup", ENDGAME, ["Draw Duke", "Draw Captain"], QUICK_COUP),
    "coup exact, both lost a Contessa": ("coup", CONTESSAS, ["Draw Duke", "Draw Captain"],
                                         QUICK_COUP),
    "coup re-solve, one card each": ("coup", ENDGAME, BLOCK_ONE_EACH, None),
    "coup re-solve, two cards each": ("coup", "", BLOCK_TWO_EACH, None),
    "battle exact": ("cobardes", SMALL, ["play warrior 2"], None),
}


def _answer(client, name: str) -> dict:
    game, params, history, options = ANSWERS[name]
    answer = client.post("/api/advice", json={"game": game, "params": params,
                                              "history": history, "options": options})
    return answer.get_json()["advice"]


def source_line(advice: dict) -> str:
    """The source line as the page writes it (explore.js, sourceLine)."""
    return f"Source: {advice['source']}; {advice['accuracy']['text']}."


@pytest.mark.parametrize("name", list(ANSWERS))
def test_the_value_shown_is_a_number_for_the_player_to_move(client, name):
    advice = _answer(client, name)
    assert isinstance(advice["value"], float) and advice["no_value"] is None
    if "value" in advice["json"]:  # the solve's own value
        assert advice["value_from"] == "solve" and advice["value"] == advice["json"]["value"]
    else:  # the re-solve gives each move's value: the mix's value is their mean
        assert advice["value_from"] == "mix"
        assert advice["value"] == pytest.approx(
            sum(r["probability"] * r["value"] for r in advice["actions"]))
        assert -1 <= advice["value"] <= 1
    assert advice["player"] == advice["json"]["player"]


@pytest.mark.parametrize("name,kind,words", [
    ("coup exact", "measured", "measured exactly in the game capped at 1 turn"),
    ("coup re-solve, one card each", "not measured",
     "its loss to a best response in the whole game is not measured"),
    ("coup re-solve, two cards each", "not measured",
     "its loss to a best response in the whole game is not measured"),
    ("battle exact", "exact", "exploitability 0, exact (no strategy gains against it)"),
])
def test_one_source_line_says_what_answered_and_how_accurate_it_is(client, name, kind, words):
    advice = _answer(client, name)
    line = source_line(advice)
    assert line.count("Source") == 1 and "\n" not in line
    assert advice["source"] and advice["source"] in line
    accuracy = advice["accuracy"]
    assert accuracy["kind"] == kind and words in accuracy["text"]
    if kind == "not measured":
        assert advice["exploitability"] is None
        assert "exploitability 0" not in line and "exploitability at least" not in line
        # What it does measure is said as what it is: the re-solved turn's own gap.
        assert "inside the re-solved turn a best response gains at most" in accuracy["text"]
        assert advice["limits"].startswith("Truncated model")
        assert "Truncated model" not in line
    else:
        assert advice["exploitability"] == advice["json"]["exploitability"]
        assert advice["limits"] is None


def test_the_exact_coup_solve_names_its_cap_and_pricing(client):
    advice = _answer(client, "coup exact")
    assert advice["source"] == ("exact solve of the endgame capped at 1 turn, a game "
                                "reaching the cap counted as a draw")


def _lower_bounds(tmp_path, rows) -> None:
    path = tmp_path / "data" / "coup" / "lower_bounds.json"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps({"format": 1, "bounds": rows}))


BOUND = {"agent": "resolve", "deck": "ambassador", "setup": "basic", "games": 1000,
         "planned": 1000, "gain": 0.183, "gain_ci95": [0.151, 0.215]}


def test_a_stored_lower_bound_is_the_re_solves_accuracy(client, tmp_path):
    _lower_bounds(tmp_path, [BOUND | {"agent": "blueprint"}, BOUND | {"deck": "inquisitor"},
                             BOUND])
    advice = _answer(client, "coup re-solve, two cards each")
    accuracy = advice["accuracy"]
    assert accuracy["kind"] == "lower bound" and advice["exploitability"] == 0.183
    assert accuracy["text"].startswith(
        "in games from the deal a best response gains at least +0.183 [+0.151, +0.215] in "
        "win probability (a lower bound with its 95% interval: a local best response over "
        "1,000 games); inside the re-solved turn")
    line = source_line(advice)
    assert line.count("Source") == 1 and "exploitability 0" not in line


def test_a_stopped_run_whose_interval_holds_zero_is_no_bound(client, tmp_path):
    _lower_bounds(tmp_path, [BOUND | {"games": 20, "gain": 0.25,
                                      "gain_ci95": [-0.054, 0.5]}])
    advice = _answer(client, "coup re-solve, two cards each")
    accuracy = advice["accuracy"]
    assert accuracy["kind"] == "not measured" and advice["exploitability"] is None
    assert accuracy["text"].startswith(
        "its loss to a best response in the whole game is not measured: a local best "
        "response gained +0.250 [-0.054, +0.500] in win probability in games from the deal "
        "(over 20 games, a run stopped at 20 of 1,000), an interval that holds 0; inside "
        "the re-solved turn")
    assert "at least" not in accuracy["text"]


def test_the_blueprints_answers_use_its_stored_bound(tmp_path):
    _lower_bounds(tmp_path, [BOUND | {"agent": "blueprint"}])
    blueprint = {"deck": "ambassador", "setup": "basic", "exploitability": 0.157,
                 "exploitability_kind": "lower bound, win probability"}
    with store.use(tmp_path / "data"):
        plain = coup_page.accuracy_of(blueprint)
        resolved = coup_page.accuracy_of(blueprint | {"resolve": {
            "depth": 2, "nodes": 10, "iterations": 5, "exploitability": 0.004}})
    assert plain["kind"] == "lower bound" and plain["exploitability"] == 0.183
    assert "+0.183 [+0.151, +0.215]" in plain["text"]
    # Its re-solve is another strategy: no bound of its own is stored.
    assert resolved["kind"] == "not measured" and resolved["exploitability"] is None
    assert resolved["text"] == ("its loss to a best response in the whole game is not "
                                "measured; inside the re-solved decisions a best response "
                                "gains at most 0.004")


@pytest.mark.parametrize("stored", [
    [BOUND | {"deck": "inquisitor"}, BOUND | {"agent": "blueprint"}],  # none of this one
    [BOUND | {"gain": "a lot"}],  # not a number
    "not a list",
])
def test_no_lower_bound_is_made_up(client, tmp_path, stored):
    _lower_bounds(tmp_path, stored)
    accuracy = _answer(client, "coup re-solve, two cards each")["accuracy"]
    assert accuracy["kind"] == "not measured" and accuracy["exploitability"] is None


def test_an_unreadable_lower_bounds_file_is_no_bound(client, tmp_path):
    _lower_bounds(tmp_path, [BOUND])
    (tmp_path / "data" / "coup" / "lower_bounds.json").write_text("{not json")
    assert _answer(client, "coup re-solve, two cards each")["accuracy"]["kind"] == \
        "not measured"


@pytest.mark.parametrize("advice,kind,words", [
    ({"exploitability": 0.0, "source": "exact solve"}, "exact", "exploitability 0, exact"),
    ({"exploitability": 0.042, "abstraction": True}, "lower bound",
     "exploitability at least 0.042 (measured within the solve's abstraction"),
    ({"exploitability": 3.4e-05, "abstraction": False}, "measured",
     "exploitability 3.4e-05, measured exactly"),
    # The blueprint with no bound stored: not measured.
    ({"exploitability": 0.12, "exploitability_kind": "lower bound, win probability",
      "exploitability_detail": "at least 0.120", "deck": "ambassador", "setup": "basic"},
     "not measured", "its loss to a best response in the whole game is not measured"),
    ({"source": "a solve that says nothing of its accuracy"}, "not measured",
     "accuracy not measured"),
])
def test_accuracy_claims_no_more_than_is_measured(advice, kind, words, tmp_path):
    game = "coup" if "exploitability_kind" in advice else "cobardes"
    with store.use(tmp_path / "data"):  # no lower bound stored
        accuracy = PAGES[game].accuracy(advice) or answers.accuracy_of(advice)
    assert accuracy["kind"] == kind and words in accuracy["text"]
    if kind != "exact":
        assert "exploitability 0" not in accuracy["text"]


COUP_CHARTS = ["coup_endgame_value.png", "coup_endgame_draw.png", "coup_bluff_rates.png",
               "coup_bluff_by_coins.png", "coup_priced_bluff_rates.png"]


@pytest.mark.parametrize("name,files", [
    # One card each, both having lost a Contessa: the endgames the charts are of.
    ("coup exact, both lost a Contessa", COUP_CHARTS),
    ("coup exact", []),  # one card each, but a Duke and a Captain lost: other endgames
    ("coup re-solve, one card each", []),
    ("coup re-solve, two cards each", []),  # no chart is of a spot with two cards each
    ("battle exact", []),  # warriors 0-2, 2 combats: the charts are of full armies
])
def test_charts_are_shown_only_where_they_describe_the_spot(client, name, files):
    advice = _answer(client, name)
    assert [c["file"] for c in advice["charts"]] == files
    assert all(c["describes"] for c in advice["charts"])


def test_a_built_coup_spot_gets_the_endgame_charts_at_one_card_each(client):
    fields = {"deck": "ambassador", "seat": 0,
              "you": {"hidden": ["Duke"], "revealed": ["Contessa"], "coins": 3},
              "rival": {"hidden": 1, "revealed": ["Contessa"], "coins": 5},
              "options": QUICK_COUP}
    got = client.post("/api/position", json={"game": "coup", "fields": fields}).get_json()
    assert [c["file"] for c in got["advice"]["charts"]] == COUP_CHARTS
    # The rival lost a Captain: not the endgames charted.
    fields |= {"rival": {"hidden": 1, "revealed": ["Captain"], "coins": 5}}
    got = client.post("/api/position", json={"game": "coup", "fields": fields}).get_json()
    assert got["advice"]["charts"] == []
    # Two against one: none.
    fields |= {"you": {"hidden": ["Duke", "Duke"], "coins": 3}}
    got = client.post("/api/position", json={"game": "coup", "fields": fields}).get_json()
    assert got["advice"]["charts"] == []


def _battle_charts(params: str, advice: dict | None = None) -> list[str]:
    facts = cobardes_page.cobardes_facts(spots.load("cobardes", params), advice or {})
    return [c["file"] for c in spots.charts_for(facts)]


def test_battle_charts_follow_the_battle_on_screen():
    assert _battle_charts("kinds=warriors") == ["cobardes_warriors_mix.png",
                                                "cobardes_card_importance.png"]
    assert _battle_charts("kinds=warriors,warriors=3,combats=3") == []
    assert _battle_charts("kinds=warriors+courtiers,courtier0=Wolf,courtier1=Royal Guard") \
        == ["cobardes_courtier_battle.png", "cobardes_courtier_war.png"]
    hidden = {"value_given": "holding the Friar", "abstraction": True}
    assert _battle_charts("kinds=warriors+villains,warriors=3,combats=3", hidden) == [
        "cobardes_hidden_villains.png"]
    assert _battle_charts("kinds=warriors+villains") == ["cobardes_villain_matchups.png"]
    assert _battle_charts("courtier0=Squire,courtier1=Archer", hidden) == [
        "cobardes_full_battle_villains.png"]
    assert _battle_charts("courtier0=Archer,courtier1=Squire", hidden) == []
    # A built battle with a war score: the war charts of its kind.
    query = cobardes_page.cobardes_query({"my_courtier": "Squire*", "their_courtier": "Archer",
                                  "score": "1-0"})
    facts = cobardes_page.query_facts(query, {})
    assert facts.courtiers == ("Squire", "Archer") and facts.score
    assert [c["file"] for c in spots.charts_for(facts)] == [
        "cobardes_courtier_war.png", "cobardes_war_by_score.png"]


def test_every_chart_a_spot_may_show_is_one_of_the_reports():
    for chart in spots.CHART_FILES:
        assert (ROOT / "reports" / chart).is_file(), chart


# ------------------------------------------------------------------ solves in workers
def slow_advice(game, params, history, options=None):
    """A solve that takes a minute; it adds its process id to the file ``params`` names."""
    with open(params, "a") as out:
        out.write(f"{os.getpid()}\n")
    time.sleep(60)
    return {"unavailable": "never reached"}


@contextlib.contextmanager
def serving(tmp_path, limit: float):
    """A running explorer (Werkzeug's threaded server, as ``farol explore`` runs it) whose
    solves stop after ``limit`` seconds: its address and its solves."""
    from werkzeug.serving import make_server

    solves = Solves(limit=limit)
    with store.use(tmp_path / "data"):
        server = make_server("127.0.0.1", 0, create_app(None, solves), threaded=True)
        thread = threading.Thread(target=server.serve_forever, daemon=True)
        thread.start()
        try:
            yield f"http://127.0.0.1:{server.port}", solves
        finally:
            server.shutdown()
            server.server_close()
            solves.close()


def _pids(path: Path, count: int = 1) -> list[int]:
    end = time.monotonic() + 60
    while time.monotonic() < end:
        if path.exists() and len(lines := path.read_text().split()) >= count:
            return [int(p) for p in lines]
        time.sleep(0.05)
    raise AssertionError("the solve never started")


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    return True


def _ended(pid: int, seconds: float = 5) -> bool:
    end = time.monotonic() + seconds
    while _alive(pid):
        if time.monotonic() > end:
            return False
        time.sleep(0.05)
    return True


def _post_raw(url: str, body: dict) -> socket.socket:
    """A POST whose answer is never read: the open connection is its page."""
    host, port = url.removeprefix("http://").split(":")
    data = json.dumps(body).encode()
    conn = socket.create_connection((host, int(port)))
    conn.sendall(b"POST /api/advice HTTP/1.1\r\nHost: explorer\r\nContent-Type: "
                 b"application/json\r\nContent-Length: %d\r\n\r\n%s" % (len(data), data))
    return conn


def _post(url: str, body: dict, timeout: float = 30) -> tuple[int, dict]:
    request = urllib.request.Request(url, json.dumps(body).encode(),
                                     {"Content-Type": "application/json"})
    try:
        with urllib.request.urlopen(request, timeout=timeout) as answer:
            return answer.status, json.load(answer)
    except urllib.error.HTTPError as exc:
        return exc.code, json.load(exc)


def test_a_long_solve_holds_up_no_other_request_and_stops_at_its_time_limit(tmp_path,
                                                                          monkeypatch):
    monkeypatch.setattr(spots, "advice_at", slow_advice)
    marks = tmp_path / "slow"
    with serving(tmp_path, limit=4) as (url, solves):
        answers = []
        slow = threading.Thread(target=lambda: answers.append(_post(
            url + "/api/advice", {"game": "cobardes", "params": str(marks)})))
        slow.start()
        pid = _pids(marks)[0]
        # Meanwhile other requests are answered at once.
        tick = time.monotonic()
        with urllib.request.urlopen(url + "/api/catalog", timeout=10) as answer:
            assert json.load(answer)["time_limit"] == 4
        status, moves = _post(url + "/api/moves", {"game": "cobardes", "params": SMALL},
                              timeout=10)
        assert status == 200 and moves["player"] == 0
        assert time.monotonic() - tick < 3
        assert slow.is_alive() and _alive(pid) and solves.running() == 1
        # The time limit ends the solve, and says so in one line.
        slow.join(30)
        assert answers == [(504, {"error": "this solve takes longer than the explorer's "
                                  "limit of 4 seconds, so it was stopped (the command "
                                  "line, farol advise, has no limit)"})]
        assert _ended(pid) and solves.running() == 0
        # The server goes on working: a new solve starts and is answered.
        monkeypatch.setattr(spots, "advice_at", spots_advice_at)
        status, answer = _post(url + "/api/advice", {"game": "cobardes", "params": SMALL,
                                                     "history": ["play warrior 2"]})
        assert status == 200 and answer["advice"]["player"] == "you"


spots_advice_at = spots.advice_at


def test_a_solve_stops_when_every_page_that_asked_for_it_has_gone(tmp_path, monkeypatch):
    monkeypatch.setattr(spots, "advice_at", slow_advice)
    marks = tmp_path / "slow"
    with serving(tmp_path, limit=60) as (url, solves):
        body = {"game": "cobardes", "params": str(marks)}
        first = _post_raw(url, body)
        pid = _pids(marks)[0]
        # A second page asking for the same spot shares the solve.
        second = _post_raw(url, body)
        time.sleep(0.5)
        assert solves.running() == 1 and marks.read_text().split() == [str(pid)]
        first.close()  # one page goes: the other still waits for it
        time.sleep(0.5)
        assert _alive(pid) and solves.running() == 1
        second.close()  # the last page goes: the solve is stopped
        assert _ended(pid, 5) and solves.running() == 0 and not solves.jobs
        # ... long before its time limit, and the server answers as before.
        status, moves = _post(url + "/api/moves", {"game": "cobardes", "params": SMALL})
        assert status == 200 and moves["moves"]


# ------------------------------------------------------------------ the committed screenshots
SCREENSHOTS = ROOT / "docs" / "screenshots"
SHOWN = ("coup_two_cards", "coup_one_card", "cobardes", "goat_lords")


@pytest.mark.parametrize("width_name,width", [("laptop", 1280), ("phone", 390)])
def test_the_explorers_screenshots_are_committed_at_laptop_and_phone_widths(width_name,
                                                                            width):
    # Written by tests/explore/test_explore_browser.py (FAROL_SCREENSHOTS=docs/screenshots), which
    # checks what each shows: a number for the value, one source line, the spot's charts.
    for name in SHOWN:
        data = (SCREENSHOTS / f"explore_{name}_{width_name}.png").read_bytes()
        assert data[:8] == b"\x89PNG\r\n\x1a\n" and data[12:16] == b"IHDR"
        assert int.from_bytes(data[16:20], "big") == width
        assert int.from_bytes(data[20:24], "big") >= 600  # the page, not a blank strip
