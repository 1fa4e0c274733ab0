"""``farol explore``: the app's JSON (Flask's test client) gives the advice ``farol advise``
gives, the moves OpenSpiel names, and one-line errors; the command serves and stops."""

from __future__ import annotations

import json
import os
import shlex
import signal
import socket
import subprocess
import sys
import urllib.request
from pathlib import Path

import pytest

from analysis import store
from analysis.cli import main
from analysis.explore import spots
from analysis.explore.app import create_app

ROOT = Path(__file__).resolve().parents[1]
SMALL = "kinds=warriors+courtiers,warriors=2,combats=2,courtier0=Squire,courtier1=Archer"
ENDGAME = "deck=ambassador,position=?/duke/3;?/captain/2;move:0"
QUICK_COUP = {"turn_cap": 1, "cap_pricing": "draw"}


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
    assert main(["advise", *args, "--json"]) == 0
    return json.loads(capsys.readouterr().out)


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


def test_the_catalog_offers_both_games_and_every_preset_loads(client):
    data = client.get("/api/catalog").get_json()
    assert [g["name"] for g in data["games"]] == ["python_cobardes_battle", "python_coup"]
    for game in data["games"]:
        assert game["presets"]
        for preset in game["presets"]:
            assert spots.load(game["key"], preset["params"]) is not None
    assert data["coup"]["decks"]["inquisitor"][3] == "Inquisitor"
    assert data["cobardes"]["warriors"][0] == "Prince"
    assert data["charts"] == ["coup_bluff_rates.png"]  # only the charts the folder holds


def test_the_page_and_its_files_are_served(client):
    page = client.get("/")
    assert page.status_code == 200 and b'<script src="/page/explore.js">' in page.data
    assert b"function showAdvice" in client.get("/page/explore.js").data
    assert client.get("/charts/coup_bluff_rates.png").data.endswith(b"fake")
    # Only the report's charts, never another file of the folder.
    assert _error_line(client.get("/charts/notes.txt"), 404) == "no chart 'notes.txt'"


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
    assert "prepare warrior 2" in after["text"]


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
    expected = _advise_json(capsys, "cobardes", "--params", SMALL, "--history", history[0])
    assert got["json"] == expected
    assert answer["command"] == f"farol advise cobardes --params {SMALL} --history " \
        "'play warrior 2'"
    assert _run_command(capsys, answer) == expected
    assert got["player"] == "you" and got["value"] == expected["value"]
    # The actions shown are advise's actions, most played first.
    assert sorted(got["actions"], key=lambda r: r["action"]) == sorted(
        expected["actions"], key=lambda r: r["action"])
    probabilities = [r["probability"] for r in got["actions"]]
    assert probabilities == sorted(probabilities, reverse=True)
    assert {c["file"] for c in got["charts"]} == {"cobardes_courtier_battle.png",
                                                  "cobardes_courtier_war.png"}


def test_a_hidden_villains_spot_is_farol_advise_at_the_same_spot(client, capsys):
    params = "kinds=warriors+villains,warriors=2,combats=2"
    history = ["draw Friar", "draw Thug", "play warrior 1"]
    answer = client.post("/api/advice", json={"game": "cobardes", "params": params,
                                              "history": history}).get_json()
    expected = _advise_json(capsys, "cobardes", "--params", params, "--history",
                            ";".join(history))
    assert answer["advice"]["json"] == expected
    assert expected["source"].startswith("stored hidden-villain solve")
    # Player 1 cannot tell player 0's villain: any of the eight that are not the Thug.
    assert len(expected["opponent_hand"]) == 8 and "Thug" not in expected["opponent_hand"]


def test_coup_advice_is_farol_advise_at_the_same_spot(client, capsys):
    history = ["Draw Duke", "Draw Captain", "Income"]
    got = client.post("/api/advice", json={"game": "coup", "params": ENDGAME,
                                           "history": history, "options": QUICK_COUP})
    answer = got.get_json()
    got = answer["advice"]
    expected = _advise_json(capsys, "coup", "--params", ENDGAME, "--history",
                            ";".join(history), "--turn-cap", "1", "--cap-pricing", "draw")
    assert got["json"] == expected
    assert _run_command(capsys, answer) == expected
    assert got["json"]["position"] == "?/duke/4;captain/captain/2;move:1"
    assert got["player"] == 1
    assert got["opponent_hand"] == expected["opponent_hand"]
    assert sum(r["probability"] for r in got["actions"]) == pytest.approx(1.0)


@pytest.mark.parametrize("game,params,history,cli", [
    # Inside a turn: Coup advice starts at a turn.
    ("coup", ENDGAME, ["Draw Duke", "Draw Captain", "Tax (claims Duke)"],
     ["--turn-cap", "1", "--cap-pricing", "draw"]),
    # Villains dealt face down in a full army's battle not solved yet.
    ("cobardes", "kinds=warriors+villains", ["draw Friar", "draw Thug"], []),
])
def test_a_spot_without_advice_says_why_in_advises_words(client, capsys, game, params,
                                                         history, cli):
    got = client.post("/api/advice", json={"game": game, "params": params,
                                           "history": history, "options": QUICK_COUP})
    assert got.status_code == 200
    message = got.get_json()["unavailable"]
    code = main(["advise", game, "--params", params, "--history", ";".join(history), *cli])
    assert code == 2
    assert capsys.readouterr().err.strip() == f"farol advise: error: {message}"
    # So does the command line the page shows.
    assert main(shlex.split(got.get_json()["command"])[1:]) == 2
    assert capsys.readouterr().err.strip() == f"farol advise: error: {message}"


@pytest.mark.parametrize("path,body,words", [
    ("/api/moves", {"game": "chess"}, "game must be one of cobardes, coup, not 'chess'"),
    ("/api/moves", {"game": "cobardes", "params": "colour=red"},
     "python_cobardes_battle has no parameter 'colour'"),
    ("/api/moves", {"game": "cobardes", "params": SMALL, "history": ["play warrior 6"]},
     "move 1 'play warrior 6' is not legal here; legal: play warrior 0 (prince)"),
    ("/api/moves", {"game": "cobardes", "history": {"a": 1}},
     "history must be a list of move names"),
    ("/api/advice", {"game": "coup", "params": ENDGAME, "history": [],
                     "options": {"turn_cap": 99}},
     "turn cap must be a whole number from 1 to 6"),
    ("/api/advice", {"game": "coup", "params": ENDGAME, "history": [],
                     "options": {"cap_pricing": "free"}}, "cap pricing must be one of"),
    ("/api/position", {"game": "cobardes", "fields": {"mine": ["Prince", "Wizard"]}},
     "Wizard"),
    ("/api/position", {"game": "coup", "fields": {"you": {"hidden": []}}},
     "your cards: pick one or two face-down cards"),
    ("/api/position", {"game": "coup", "fields": {"you": {"hidden": ["Duke"], "coins": 40}}},
     "your coins must be a whole number from 0 to 12"),
])
def test_bad_input_is_one_line_naming_it(client, path, body, words):
    assert words in _error_line(client.post(path, json=body))


def test_a_body_that_is_not_json_and_an_unknown_address_are_one_line(client):
    assert _error_line(client.post("/api/moves", data="x")) == \
        "the request must be a JSON object"
    assert _error_line(client.get("/api/nothing"), 404).startswith("404 Not Found")


def test_a_failure_of_the_explorer_is_one_line_too(client, monkeypatch):
    def broken(state):
        raise RuntimeError("a bug\nwith two lines")
    monkeypatch.setattr(spots, "describe", broken)
    message = _error_line(client.post("/api/moves", json={"game": "cobardes"}), 500)
    assert message.startswith("the explorer failed (RuntimeError: a bug with two lines)")


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
    assert spots.coup_position(fields) == (position, "ambassador")


def test_a_built_coup_position_is_advised_or_says_why_not(client, capsys):
    fields = {"deck": "ambassador", "seat": 0,
              "you": {"hidden": ["Duke"], "revealed": ["Contessa"], "coins": 3},
              "rival": {"hidden": 1, "revealed": ["Captain"], "coins": 5},
              "options": QUICK_COUP}
    got = client.post("/api/position", json={"game": "coup", "fields": fields}).get_json()
    expected = _advise_json(capsys, "coup", "duke/contessa/3;?/captain/5;move:0",
                            "--turn-cap", "1", "--cap-pricing", "draw")
    assert got["advice"]["json"] == expected and got["spot"] == expected["position"]
    assert _run_command(capsys, got) == expected
    # Two face-down cards each: the cap cannot be priced; advise's line says so.
    fields |= {"you": {"hidden": ["Duke", "Duke"], "coins": 2},
               "rival": {"hidden": 2, "coins": 2}, "options": {"turn_cap": 1}}
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
        proc.send_signal(signal.SIGINT)
        out, err = proc.communicate(timeout=30)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.communicate()
    assert proc.returncode == 0
    assert "Farol explorer stopped" in err and "Traceback" not in err
