"""Every example runs: each command line a ``farol ... --help`` shows under "examples:",
and each whole ``farol`` command in the README, runs as written (with smaller budgets
where a flag allows) and exits 0; and every value a flag's help gives "e.g." is one of
its help's examples, so it runs too. What they print is scanned for the text slips of
``tests/report/test_text_hygiene.py`` (a negative zero, "1 coins"), and running them
leaves the repository as it was: a command writes where its output goes (the temporary
data and cache folders here), nowhere else.

A few examples are not run, each for the reason given beside it in ``NOT_RUN`` (hours of
CPU, a Dask cluster, a server that runs until stopped); the ones that take over ~20 s
here are marked slow.
"""

from __future__ import annotations

import argparse
import os
import re
import shlex
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from text_hygiene import slips

from analysis.cli import build_parser
from analysis.cli.parser import FarolParser

ROOT = Path(__file__).resolve().parents[2]
README = ROOT / "README.md"

# Examples not run, with why (the rest must run).
NOT_RUN = {
    "farol cobardes sweep --kind hidden --matchups Squire/Archer,Archer/Squire":
        "solves two full battles with hidden villains: hours of CPU and 5 GB each",
    "farol cobardes sweep --kind hidden --scheduler tcp://host:8786":
        "needs a Dask scheduler at that address, and hours of CPU",
    "farol cobardes openings --matchups Squire/Archer":
        "solves a full battle when its opening is not stored: minutes and 5 GB",
    "farol explore": "a server for the browser: it runs until stopped (its API is asked "
                     "through Flask's test client in tests/explore and the consistency suite)",
    "farol explore --port 8765 --no-browser": "a server: it runs until stopped",
    "farol goat-lords balance --only seats --players 2,4":
        "the balance sweep's games: hours of CPU (its --status example runs)",
    "farol cobardes abstraction --iterations 200":
        "compiles and solves a full battle under the abstraction: tens of minutes",
    "farol coup blueprint build --deck ambassador --setups basic":
        "trains the blueprint of a deck: hours of CPU and several GB",
    "farol coup blueprint continuations --deck ambassador --setups basic":
        "needs the deck's blueprint built first (hours), then minutes a table",
    "farol report goat_lords --out my-reports":
        "writes the Goat Lords guide: runs in tests/report (a few minutes here)",
}
# Smaller budgets for a run here (appended: the last value of a flag counts).
SMALLER = {
    "farol whatif coup": ["--precision", "0.2", "--max-games", "40", "--skill-players", "2"],
    "farol whatif goat-lords": ["--precision", "0.2", "--max-games", "40",
                                "--strong", "lord:4"],
    "farol goat-lords match --agents lord": ["--games", "6"],
    "farol coup match --agents fast": ["--games", "4"],
    "farol coup match": ["--games", "40"],
    "farol coup balance": ["--games", "20", "--panel", "honest,bluffer"],
    "farol coup play-tables": ["--games", "20"],
    "farol goat-lords --players": ["--games", "6"],
}
# Over ~20 s here (measured with the machine's two cores shared by many runs).
SLOW = ("farol solve", "farol coup brackets", "farol coup sweep", "farol cobardes renewal",
        "farol whatif coup", "farol whatif goat-lords", "farol coup balance",
        "farol coup openings", "farol goat-lords match --agents lord", "farol cobardes sweep",
        "farol coup full-game", "farol coup larger", "farol coup cap-study",
        "farol coup abstraction", "farol coup match --agents fast")
# A value given "e.g." in a flag's help: a quoted one, or one word (commas, slashes... in it).
EG = re.compile(r"e\.g\. ('[^']*'|--param \S+(?: --param \S+)*|[^\s(),;]+(?:,[^\s(),;]+)*)")


def parsers() -> list[tuple[str, FarolParser]]:
    """Every parser of ``farol`` (commands and sub-commands), filled in, by its command."""
    out = []

    def walk(parser: argparse.ArgumentParser, name: str) -> None:
        parser.configure_now()
        out.append((name, parser))
        for action in parser._actions:
            if isinstance(action, argparse._SubParsersAction):
                for sub, child in action.choices.items():
                    walk(child, f"{name} {sub}")

    walk(build_parser(), "farol")
    return out


def help_examples() -> list[str]:
    return [line for _, parser in parsers() for line in parser.examples]


def readme_examples() -> list[str]:
    """The README's whole commands: lines of its code blocks that run ``farol`` with no
    placeholder (``[...]``, ``A|B``, ``...``, a word in capitals)."""
    text = README.read_text(encoding="utf-8")
    blocks = re.findall(r"```[a-z]*\n(.*?)```", text, flags=re.S)
    out = []
    for line in (ln for block in blocks for ln in block.splitlines()):
        line = line.split("  #")[0].strip().removeprefix("$ ")
        if not line.startswith(".venv/bin/farol "):
            continue
        if re.search(r"\[|\||\.\.\.|\b[A-Z]{2,}\b|\bA/B\b", line):
            continue
        out.append("farol " + line.removeprefix(".venv/bin/farol "))
    return out


def _marks(example: str) -> list:
    if example in NOT_RUN:
        return [pytest.mark.skip(reason=NOT_RUN[example])]
    return [pytest.mark.slow] if example.startswith(SLOW) else []


EXAMPLES = sorted(set(help_examples()) | set(readme_examples()))


def test_every_command_shows_an_example():
    bare = [name for name, parser in parsers()
            if not any(isinstance(a, argparse._SubParsersAction) and a.required
                       for a in parser._actions) and not parser.examples]
    assert not bare, f"commands with no example in their help: {bare}"


def test_the_readme_examples_are_read():
    readme = readme_examples()
    assert "farol games" in readme
    assert "farol whatif cobardes --param kinds=warriors --param victories=2" in readme


@pytest.mark.parametrize("name", [name for name, _ in parsers()])
def test_every_value_a_help_gives_runs_in_its_examples(name):
    parser = dict(parsers())[name]
    shown = " ".join(parser.examples)
    missing = [(action.option_strings or [action.dest])[0] + ": " + value
               for action in parser._actions for value in EG.findall(action.help or "")
               if value.rstrip(".:") not in shown]
    assert not missing, f"{name}: values given e.g. that no example of its help runs: {missing}"


def test_the_value_check_catches_the_comma_joined_params():
    """The example that was refused (``--param`` joined by commas) is caught."""
    old = "a game parameter for --history, e.g. deck=inquisitor,two_player_setup=standard"
    shown = ("farol advise coup --param deck=inquisitor --param two_player_setup=standard "
             "--history 'Income'")
    assert EG.findall(old) == ["deck=inquisitor,two_player_setup=standard"]
    assert EG.findall(old)[0] not in shown


@pytest.fixture(scope="module")
def sandbox(tmp_path_factory) -> dict:
    """A copy of the stored results to read and write, and empty caches: an example's
    files go there (or under the working folder, a temporary one)."""
    root = tmp_path_factory.mktemp("examples")
    shutil.copytree(ROOT / "reports" / "data", root / "data")
    (root / "cache").mkdir()
    (root / "work").mkdir()
    env = dict(os.environ, FAROL_DATA_DIR=str(root / "data"),
               FAROL_CACHE_DIR=str(root / "cache"), FAROL_PROGRESS="0",
               PYTHONPATH=str(ROOT), MPLBACKEND="Agg")
    return {"env": env, "cwd": root / "work"}


# Where a command could leave files in the repository (not the code, tests and docs).
CODE = ("analysis/", "games/", "tests/", "docs/", "benchmarks/", "README.md", "CHANGELOG.md",
        "pyproject.toml")


def _repository_state() -> list[str]:
    lines = subprocess.run(["git", "status", "--porcelain", "--untracked-files=all"],
                           cwd=ROOT, capture_output=True, text=True, check=True).stdout
    return [line for line in lines.splitlines() if not line[3:].startswith(CODE)]


def argv_of(example: str) -> list[str]:
    words = shlex.split(example)
    assert words[0] == "farol"
    for prefix, extra in SMALLER.items():
        if example.startswith(prefix):
            return words[1:] + extra
    return words[1:]


@pytest.mark.parametrize("example", [pytest.param(e, marks=_marks(e)) for e in EXAMPLES])
def test_every_example_runs(example, sandbox):
    before = _repository_state()
    done = subprocess.run(
        [sys.executable, "-c", "import sys; from analysis.cli import main; sys.exit(main())",
         *argv_of(example)],
        cwd=sandbox["cwd"], env=sandbox["env"], capture_output=True, text=True,
        stdin=subprocess.DEVNULL, timeout=900)
    assert done.returncode == 0, f"{example}\n{done.stderr[-2000:]}"
    assert not slips(done.stdout), (example, slips(done.stdout))
    assert _repository_state() == before, f"{example} wrote inside the repository"
