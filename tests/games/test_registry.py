"""Every game of ours is registered under a python_ name that OpenSpiel does not use."""

import importlib
import importlib.util
import os
import subprocess
import sys

import pyspiel

from games import catalog


def _openspiel_native_names() -> set[str]:
    """Registered names in a fresh interpreter that has not imported Farol."""
    code = "import pyspiel; print('\\n'.join(pyspiel.registered_names()))"
    env = dict(os.environ)
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, check=True)
    names = set(out.stdout.split())
    # OpenSpiel's own Python games register only when their modules are imported.
    spec = importlib.util.find_spec("open_spiel.python.games")
    games_dir = os.path.dirname(spec.origin)
    for filename in os.listdir(games_dir):
        if filename.endswith(".py") and not filename.endswith("_test.py"):
            names.add("python_" + filename[:-3])
    return names


def test_every_entry_is_registered_with_openspiel():
    registered = set(pyspiel.registered_names())
    for entry in catalog.entries():
        assert entry.name in registered, entry.name
        game = pyspiel.load_game(entry.name)
        assert game.get_type().short_name == entry.name


def test_names_are_prefixed_and_do_not_shadow_openspiel():
    native = _openspiel_native_names()
    for entry in catalog.entries():
        assert entry.name.startswith("python_"), entry.name
        assert entry.name not in native, f"{entry.name} would replace an OpenSpiel game"


def test_catalog_rejects_unprefixed_names():
    bad = catalog.GameFamily("x", "X", "", "docs/rules/x.md", (catalog.GameEntry("x_game", "X"),))
    try:
        catalog.register_family(bad)
    except ValueError as exc:
        assert "python_" in str(exc)
    else:
        raise AssertionError("an unprefixed name was accepted")
    assert "x" not in [f.key for f in catalog.families()]


def test_every_family_has_a_rulings_file():
    root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    for fam in catalog.families():
        assert os.path.exists(os.path.join(root, fam.rules_doc)), fam.rules_doc


def test_games_module_imports_cleanly():
    """Importing the package again registers nothing twice and loses nothing: the same
    families in the same order, every game still loading with its own name and players."""
    before = [(f.key, [e.name for e in f.games]) for f in catalog.families()]
    importlib.reload(importlib.import_module("games"))
    assert [(f.key, [e.name for e in f.games]) for f in catalog.families()] == before
    assert {"python_coup", "python_goat_lords", "python_cobardes_war"} <= {
        e.name for e in catalog.entries()}
    for entry in catalog.entries():
        game = pyspiel.load_game(entry.name)
        assert game.get_type().short_name == entry.name
        assert game.num_players() >= 2
