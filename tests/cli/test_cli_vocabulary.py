"""One command-line vocabulary: comma lists read by one parser, ``--param K=V`` repeated,
one meaning per option name, and the old spellings still working with a one-line note."""

from __future__ import annotations

import json

import pytest

from analysis.cli import main
from analysis.cli.lists import comma_list
from games.errors import InvalidParameterError

SMALL = ("kinds=warriors+courtiers", "warriors=2", "combats=2", "courtier0=Squire",
         "courtier1=Archer")


def _run(capsys, *args):
    code = main(list(args))
    out = capsys.readouterr()
    return code, out.out, out.err


# ---------------------------------------------------------------- the parser
def test_a_comma_list_is_stripped_converted_and_checked():
    assert comma_list("--caps", " 4, 8,16 ", int) == (4, 8, 16)
    assert comma_list("--decks", "inquisitor", choices=("ambassador", "inquisitor")) == (
        "inquisitor",)
    assert comma_list("--only", "seats,,sensitivity,", empty_ok=True) == ("seats", "sensitivity")


@pytest.mark.parametrize(("args", "message"), [
    (("--caps", "4,x", int), "--caps '4,x': write turn caps like 4,8"),
    (("--caps", "4,,8", int), "--caps '4,,8': write turn caps like 4,8"),
    (("--decks", "ambassador,spy"), "--decks 'spy': choose from ambassador, inquisitor"),
    (("--agents", ""), "--agents '': a value is empty; separate values by single commas"),
])
def test_bad_lists_are_refused_in_one_line(args, message):
    kwargs = {"choices": ("ambassador", "inquisitor")} if args[0] == "--decks" else {}
    if args[0] == "--caps":
        kwargs["hint"] = "write turn caps like 4,8"
    with pytest.raises(InvalidParameterError) as caught:
        comma_list(*args, **kwargs)
    assert str(caught.value) == message


@pytest.mark.parametrize("argv", [
    ["coup", "full-game", "--decks", "ambassador,spy"],
    ["coup", "match", "--agents", "honest,,bluffer", "--games", "1"],
    ["coup", "balance", "--setups", "basic,lunch"],
    ["coup", "balance", "--players", "2,x"],
    ["advise", "cobardes", "--param", "warriors=2"],
])
def test_the_command_line_says_a_bad_list_in_one_line(capsys, argv):
    code, out, err = _run(capsys, *argv)
    assert code == 2 and out == ""
    assert len(err.strip().splitlines()) == 1 and "Traceback" not in err
    assert err.startswith(f"farol {argv[0]}: error: ")


# ---------------------------------------------------------------- --param, and old spellings
def test_param_repeats_and_the_old_params_gives_the_same_answer_with_a_note(capsys):
    repeated = [w for item in SMALL for w in ("--param", item)]
    code, new, err = _run(capsys, "advise", "cobardes", *repeated, "--history", "", "--json")
    assert code == 0 and err == ""
    code, old, err = _run(capsys, "advise", "cobardes", "--params", ",".join(SMALL),
                          "--history", "", "--json")
    assert code == 0 and json.loads(old) == json.loads(new)
    assert err == "farol: --params is now spelled --param K=V (repeat it for each parameter)\n"


def test_deck_names_one_deck_and_decks_a_list_in_every_command(capsys):
    """``coup abstraction`` took its list as ``--deck``: that spelling still works, names
    ``--decks`` and means it."""
    code, _, err = _run(capsys, "coup", "abstraction", "--deck", "spy")
    lines = err.strip().splitlines()
    assert code == 2 and lines == [
        "farol: --deck is now spelled --decks (a comma list)",
        "farol coup: error: --decks 'spy': choose from ambassador, inquisitor"]
    code, _, err = _run(capsys, "coup", "match", "--deck", "ambassador,inquisitor")
    assert code == 2 and "--deck: invalid choice" in err


def test_courtiers_take_a_comma_list_and_the_old_slashes_still_work(capsys, tmp_path):
    for courtiers, note in (("Squire,Bogus", []),
                            ("Squire/Bogus", ["farol: --courtiers A/B is now spelled "
                                              "--courtiers A,B (a comma list)"])):
        code, _, err = _run(capsys, "cobardes", "renewal", "--courtiers", courtiers,
                            "--dir", str(tmp_path))
        lines = err.strip().splitlines()
        assert code == 2 and lines[:-1] == note
        assert "unknown ¡Cobardes! courtier 'Bogus'" in lines[-1]
