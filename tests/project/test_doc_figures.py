"""The figures the README and the docs quote are their results files' figures.

Each row of :data:`FIGURES` names a document, the text in it that carries a figure, the
results file the figure comes from, and how that text is written from the file (a
pattern reading the file's numbers and the words they make). A figure changed in a
document without its measurement, or a measurement made again without its figure, fails
here. The README's what-if example is checked against the command itself (slow).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
RESULTS = ROOT / "benchmarks" / "results"


def pct(x: str) -> str:
    return f"{100 * float(x):.0f}"


def pts(x: str) -> str:
    return f"{100 * float(x):+.1f}"


def read(name: str) -> str:
    return (RESULTS / name).read_text(encoding="utf-8")


def found(pattern: str, text: str) -> tuple[str, ...]:
    match = re.search(pattern, text)
    assert match, f"pattern {pattern!r} not in the results"
    return match.groups()


NUM = r"([+-]?[0-9.]+)"


def advice_speed(text: str) -> list[str]:
    median, slowest = found(r"median ([0-9.]+) s, slowest ([0-9.]+) s", text)
    return [f"median {median} s, slowest {slowest} s"]


def fast_against_honest(text: str) -> list[str]:
    p, plo, phi, v, vlo, vhi, d, dlo, dhi = found(
        rf"fast's win rate against 3 honest .*?: printed {NUM} \[{NUM}, {NUM}\], variant "
        rf"{NUM} \[{NUM}, {NUM}\], difference {NUM} \[{NUM}, {NUM}\]", text)
    return [f"wins {pct(v)}% [{pct(vlo)}, {pct(vhi)}] against three `honest` agents",
            f"({pct(p)}% [{pct(plo)}, {pct(phi)}] under the\nprinted rules",
            f"the difference {pts(d)[0] if float(d) < 0 else ''}{abs(100 * float(d)):.1f} "
            f"points [{pts(dlo)}, {pts(dhi)}]"]


def coup_whatif(text: str) -> list[str]:
    widest = found(r"widest 95% half-width ([0-9.]+) points", text)[0]
    games = found(r"'table': ([0-9]+)", text)[0]
    _, lo, hi = found(rf"turns a game lasts: .*difference {NUM} \[{NUM}, {NUM}\]", text)
    turns = found(rf"turns a game lasts: .*difference {NUM}", text)[0]
    a, alo, ahi = found(rf"dealt the Assassin: .*difference {NUM} \[{NUM}, {NUM}\]", text)
    d, dlo, dhi = found(rf"dealt the Duke: .*difference {NUM} \[{NUM}, {NUM}\]", text)
    halves = [(float(h) - float(lo_)) / 2 for _, lo_, h in re.findall(
        rf"seat \d's win rate: .*difference {NUM} \[{NUM}, {NUM}\]", text)]
    wall, cpu = found(r"variant ([0-9]+) s wall.*\n.*\n.*processor time of the variant's run: "
                      r"([0-9]+) s", text)
    return [f"is ±{100 * max(halves):.1f} points wide",
            f"every seat known to ±{float(widest):.1f}\npoints over {int(games):,} games",
            f"games last {float(turns):.1f} turns longer [{float(lo):.1f}, {float(hi):.1f}]",
            f"wins {-100 * float(a):.1f} points less [{-100 * float(ahi):.1f}, "
            f"{-100 * float(alo):.1f}]",
            f"Duke {100 * float(d):.1f} more [{100 * float(dlo):.1f}, {100 * float(dhi):.1f}]",
            f"in {wall} s ({cpu} processor seconds"]


def whatif_wall(text: str) -> list[str]:
    wall, cpu = found(r"variant ([0-9]+) s wall.*\n(?:.*\n)*?.*processor time of the "
                      r"variant's run: ([0-9]+) s", text)
    return [f"{wall} s ({cpu} processor"]


def dcfr_iteration(text: str) -> list[str]:
    cpu, iterations = found(r"solve, new \(dcfr.*\): ([0-9]+) CPU s, ([0-9]+) iterations run",
                            text)
    return [f"{int(cpu) / int(iterations):.2f} CPU s (Discounted CFR: {cpu} CPU s for "
            f"{iterations} iterations"]


def true_exploitability(text: str) -> list[str]:
    largest = found(r"warriors 0-3, 3 combats, all 9 villains hidden: .*\(([0-9.]+)x\)", text)[0]
    procuress = found(r"Procuress vs Fortune-Teller.*\(([0-9.]+)x\)", text)[0]
    return [f"it was {float(largest):.2f} times\nlarger",
            f"with the Procuress {float(procuress):.1f} times larger"]


def exact_solver(text: str) -> list[str]:
    python, compiled, times = found(r"Python ([0-9.]+), compiled ([0-9.]+); ([0-9]+) times "
                                    r"faster", text)
    return [f"{times} times faster ({compiled} µs a position against {python} µs"]


def matchup_compile(text: str) -> list[str]:
    cpu = found(r"compile, compiled walk: ([0-9]+) CPU s", text)[0]
    floor = found(r"new [0-9]+ CPU s \(([0-9.]+) min\)", text)[0]
    solve, exploit = found(r"solve, new .*: ([0-9]+) CPU s, .*abstraction ([0-9.]+)", text)
    old, old_exploit = found(r"total: old ([0-9]+) CPU s", text)[0], found(
        r"solve, old .*abstraction ([0-9.]+)", text)[0]
    peak = found(r"peak memory ([0-9.]+) GB", text)[0]
    return [f"{cpu} CPU s, how each battle ends kept",
            f"{floor} min ({solve} CPU s to the floor, {float(exploit):.3f} within the abstraction)",
            f"took {old} CPU s and reached {float(old_exploit):.3f}",
            f"{peak} GB |\n"]


Row = tuple[str, str, Callable[[str], list[str]]]
FIGURES: list[Row] = [
    ("README.md", "coup_advice_speed.txt", advice_speed),
    ("docs/coup_analysis.md", "coup_advice_speed.txt", advice_speed),
    ("README.md", "whatif_speed_coup.txt", fast_against_honest),
    ("README.md", "whatif_speed_coup.txt", coup_whatif),
    ("README.md", "whatif_speed_cobardes.txt", whatif_wall),
    ("README.md", "whatif_speed_goat-lords.txt", whatif_wall),
    ("docs/solve.md", "cobardes_matchup_speed.txt", dcfr_iteration),
    ("docs/solve.md", "cobardes_matchup_speed.txt", matchup_compile),
    ("docs/solve.md", "cobardes_true_exploitability.txt", true_exploitability),
    ("docs/solve.md", "cobardes_exact_speed.txt", exact_solver),
]


@pytest.mark.parametrize("doc, source, words", FIGURES,
                         ids=[f"{d}:{s}:{w.__name__}" for d, s, w in FIGURES])
def test_the_figure_is_its_results_file(doc, source, words):
    text = (ROOT / doc).read_text(encoding="utf-8")
    # Line breaks in the document are spaces in its prose.
    flat = re.sub(r"\s*\n\s*", " ", text)
    for phrase in words(read(source)):
        assert re.sub(r"\s*\n\s*", " ", phrase) in flat, (
            f"{doc} should say {phrase!r} ({source})")


def test_each_quoted_results_file_is_named_where_it_is_quoted():
    """A document quoting a results file's figure names the file (so a reader finds it),
    but for the README's one-line command comments, whose figures the docs they point
    to name."""
    for doc, source, _ in FIGURES:
        text = (ROOT / doc).read_text(encoding="utf-8")
        if doc == "README.md" and source == "coup_advice_speed.txt":
            assert "docs/coup_analysis.md" in text
            continue
        assert source.removesuffix(".txt") in text, (doc, source)


@pytest.mark.slow
def test_the_readme_whatif_example_is_what_the_command_prints(tmp_path, monkeypatch, capsys):
    """The README's ¡Cobardes! what-if example, every line of it, is what the command prints."""
    from analysis import cli
    from analysis.shared import store

    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    command = "farol whatif cobardes --param kinds=warriors --param victories=2"
    block = readme.split(f"$ .venv/bin/{command}\n")[1].split("```")[0].strip().splitlines()
    monkeypatch.setenv(store.CACHE_ENV, str(tmp_path / "cache"))
    monkeypatch.setenv("FAROL_PROGRESS", "0")
    monkeypatch.chdir(tmp_path)
    with store.use(tmp_path / "data"):
        assert cli.main(command.split()[1:]) == 0
    printed = [line for line in capsys.readouterr().out.splitlines() if line.strip()]
    assert printed == block
