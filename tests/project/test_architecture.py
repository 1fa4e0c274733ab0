"""The layering rules of the code base, checked on the source (``ast``, nothing imported).

* imports go one way between the layers (:data:`LAYERS`): a module imports only its own
  package, the layers below it and the shared helpers (:data:`SHARED`), never a layer
  above nor a sibling package of its own layer; every module belongs to a layer;
* inside every game's wing the same rule holds between its floors (:data:`FLOORS`: its
  ground, the solvers, the agents, the studies, the advice), and its top holds only the
  ground's modules (:data:`GROUND`);
* no import cycle among the modules of ``games/`` and ``analysis/``;
* no import inside a function, except of an optional heavy dependency;
* ``argparse`` (and ``add_argument``) only in the command line, ``analysis/cli/``;
* the data folder's location only in ``analysis/shared/store.py``.

Each rule is a helper over a list of files, run on the whole code base and on the
solver's area (which must pass already).
"""

from __future__ import annotations

import ast
from collections.abc import Iterable
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PACKAGES = ("games", "analysis")
# Imported inside a function where only some runs need them (slow to import, or optional).
LAZY_ALLOWED = frozenset({"dask", "distributed", "pandas", "IPython", "matplotlib", "scipy",
                          "flask", "werkzeug"})
STORE = "analysis/shared/store.py"

# The layers from the ground up; the packages of one layer are siblings that do not
# import each other. docs/architecture.md draws the same picture.
LAYERS = (
    ("games",),                                             # the rules
    ("analysis.solve",),                                    # the solver engine, knows no game
    ("analysis.play",),                                     # bots, matches, play-outs of any game
    ("analysis.coup", "analysis.cobardes", "analysis.goat_lords"),  # the studies
    ("analysis.wings",),                                    # each game's contract, once
    ("analysis.report", "analysis.explore"),                # what users read and browse
    ("analysis.cli",),                                      # the `farol` command
)
# Beside the layers: every layer of ``analysis`` may use them; they import only the games
# and each other. ``analysis`` itself is the (empty) root package: it counts as shared, but
# a module directly under it is loose, in no layer.
SHARED = ("analysis", "analysis.shared", "analysis.statistics")
ROOT_PACKAGES = ("analysis",)

# Inside every game's wing (analysis/<game>/), its floors from the ground up, one folder
# each; the ground is the package's top, which holds only the wing's GROUND modules. A
# floor imports its own folder, the floors below it and the ground (no solver imports an
# agent, no agent a study, no study advice). A wing without a floor of its own (Goat Lords
# has no solver and no advice) simply has no such folder. docs/architecture.md draws the
# same picture.
FLOORS = ("solvers", "agents", "studies", "advice")
GROUND = {
    "analysis.coup": ("__init__", "model", "guarantees"),  # the endgame model, Markov guarantees
    "analysis.cobardes": ("__init__", "model"),   # a battle, how it ends, the war's scores
    "analysis.goat_lords": ("__init__", "model"),  # the hidden cards as one seat knows them
}
WINGS = tuple(GROUND)


def wing_layers(wing: str) -> tuple[tuple[str, ...], ...]:
    """The wing's ground, then each of its floors, as the layers of :func:`upward_imports`."""
    return ((wing,),) + tuple((f"{wing}.{floor}",) for floor in FLOORS)


COUP = "analysis.coup"
COUP_LAYERS = wing_layers(COUP)

# The solver's area: the engine, its commands, the shared helpers and the games package root.
SOLVER_AREA = (
    [f"analysis/solve/{p.name}" for p in sorted((ROOT / "analysis/solve").glob("*.py"))]
    + [f"analysis/cli/{name}.py" for name in
       ("__init__", "solve", "games", "play", "report", "advise")]
    + [f"analysis/shared/{name}.py" for name in ("__init__", "params", "store")]
    + [f"analysis/play/{name}.py" for name in
       ("__init__", "bots", "simulate", "gametree", "session", "coaching")]
    + [f"analysis/report/{name}.py" for name in ("__init__", "context", "base")]
    + [f"games/{name}.py" for name in ("__init__", "catalog", "keys", "errors")]
)


# ---------------------------------------------------------------- helpers
def module_files(root: Path = ROOT, packages: Iterable[str] = PACKAGES) -> dict[str, Path]:
    """Every module under ``packages``, by dotted name (a package by its ``__init__``)."""
    modules = {}
    for package in packages:
        for path in sorted((root / package).rglob("*.py")):
            parts = list(path.relative_to(root).with_suffix("").parts)
            if parts[-1] == "__init__":
                parts.pop()
            modules[".".join(parts)] = path
    return modules


def imported_modules(name: str, path: Path, known: Iterable[str]) -> set[str]:
    """The modules of ``known`` that module ``name`` imports, anywhere in its file.

    ``from X import Y`` counts as an import of ``X.Y`` when that is a module, else of
    ``X``; relative imports are resolved against the module's package.
    """
    known = set(known)
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found = set()
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            targets = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")
                anchor = anchor[: len(anchor) - (node.level - 1)]
                base = ".".join(anchor + ([base] if base else []))
            targets = [f"{base}.{alias.name}" if f"{base}.{alias.name}" in known else base
                       for alias in node.names]
        else:
            continue
        for target in targets:
            # ``import a.b.c`` of a name that is not a module: its longest module prefix.
            while target and target not in known:
                target = target.rpartition(".")[0]
            if target and target != name:
                found.add(target)
    return found


def import_graph(modules: dict[str, Path]) -> dict[str, set[str]]:
    """Module -> the modules (of ``modules``) it imports."""
    return {name: imported_modules(name, path, modules) for name, path in modules.items()}


def find_cycle(graph: dict[str, set[str]]) -> list[str] | None:
    """One import cycle as ``[a, b, ..., a]``, or ``None`` (iterative depth-first search)."""
    state: dict[str, int] = {}  # 1: on the current path, 2: done
    for start in sorted(graph):
        if start in state:
            continue
        path, stack = [start], [iter(sorted(graph[start]))]
        state[start] = 1
        while stack:
            child = next(stack[-1], None)
            if child is None:
                state[path.pop()] = 2
                stack.pop()
            elif state.get(child) == 1:
                return path[path.index(child):] + [child]
            elif child not in state and child in graph:
                state[child] = 1
                path.append(child)
                stack.append(iter(sorted(graph[child])))
    return None


def package_of(name: str, layers=LAYERS, shared=SHARED) -> str | None:
    """The layer's package (or shared package) that module ``name`` belongs to, or ``None``."""
    packages = [p for layer in layers for p in layer] + list(shared)
    found = [p for p in packages if name == p
             or (name.startswith(p + ".") and p not in ROOT_PACKAGES)]
    return max(found, key=len) if found else None


def upward_imports(graph: dict[str, set[str]], layers=LAYERS,
                   shared=SHARED) -> list[str]:
    """``a -> b`` for each import that climbs a layer or crosses to a sibling package,
    each import of a layer above the rules by a shared helper, and each module in no
    layer. The ground layer (the rules) imports no shared helper either."""
    rank = {p: i for i, layer in enumerate(layers) for p in layer}
    found = []
    for name in sorted(graph):
        home = package_of(name, layers, shared)
        if home is None:
            found.append(f"{name}: in no layer (put it in one of the folders of LAYERS)")
            continue
        for target in sorted(graph[name]):
            there = package_of(target, layers, shared)
            if there is None or there == home:
                continue
            if there in shared:
                if home not in shared and rank[home] == 0:  # the rules stand alone
                    found.append(f"{name} -> {target}: imports upward")
            elif home in shared:
                if rank[there] > 0:
                    found.append(f"{name} -> {target}: a shared helper imports a layer")
            elif rank[there] > rank[home]:
                found.append(f"{name} -> {target}: imports upward")
            elif rank[there] == rank[home]:
                found.append(f"{name} -> {target}: imports a sibling of its layer")
    return found


def inner_graph(graph: dict[str, set[str]], package: str) -> dict[str, set[str]]:
    """``graph`` inside ``package``: its modules, each with the modules of ``package`` it
    imports (what it imports from outside is the outer layers' business)."""
    def inside(name: str) -> bool:
        return name == package or name.startswith(package + ".")

    return {name: {t for t in targets if inside(t)} for name, targets in graph.items()
            if inside(name)}


def function_imports(path: Path, allowed: Iterable[str] = LAZY_ALLOWED) -> list[str]:
    """``file:line: import ...`` for each import inside a function body, except of
    ``allowed`` top-level packages."""
    allowed = set(allowed)
    found = []
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            continue
        for inner in ast.walk(node):
            if isinstance(inner, ast.Import):
                roots = [alias.name.split(".")[0] for alias in inner.names]
            elif isinstance(inner, ast.ImportFrom):
                roots = [(inner.module or "").split(".")[0] if not inner.level else "."]
            else:
                continue
            if any(r not in allowed for r in roots):
                found.append(f"{_shown(path)}:{inner.lineno}: {ast.unparse(inner)}")
    return sorted(set(found))


def command_line_code(path: Path) -> list[str]:
    """``file:line: ...`` for each import of argparse and each ``add_argument`` call."""
    found = []
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            names = [node.module or ""]
        else:
            names = []
        if any(n.split(".")[0] == "argparse" for n in names):
            found.append(f"{_shown(path)}:{node.lineno}: {ast.unparse(node)}")
        elif (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
              and node.func.attr == "add_argument"):
            found.append(f"{_shown(path)}:{node.lineno}: add_argument(...)")
    return found


def data_locations(path: Path) -> list[str]:
    """``file:line: ...`` for each "reports/data" string and each path built from
    "reports" then "data" (``x / "reports" / "data"``, ``Path("reports", "data")``...)."""
    def const(node, text):
        return isinstance(node, ast.Constant) and node.value == text

    found = []
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Constant) and isinstance(node.value, str):
            if "reports/data" in node.value or "reports\\data" in node.value:
                found.append(f"{_shown(path)}:{node.lineno}: {node.value[:60]!r}")
        elif isinstance(node, ast.BinOp) and isinstance(node.op, ast.Div) and const(
                node.right, "data"):
            left = node.left
            if const(left, "reports") or (isinstance(left, ast.BinOp)
                                          and isinstance(left.op, ast.Div)
                                          and const(left.right, "reports")):
                found.append(f"{_shown(path)}:{node.lineno}: ... / 'reports' / 'data'")
        elif isinstance(node, ast.Call):
            args = node.args
            if any(const(a, "reports") and const(b, "data") for a, b in zip(args, args[1:], strict=False)):
                found.append(f"{_shown(path)}:{node.lineno}: (..., 'reports', 'data')")
    return found


def _shown(path: Path) -> str:
    try:
        return str(path.relative_to(ROOT))
    except ValueError:
        return str(path)


def _files(relative: Iterable[str] | None = None) -> list[Path]:
    if relative is None:
        return sorted(module_files().values())
    return [ROOT / r for r in relative]


def _check(findings: list[str], rule: str) -> None:
    assert not findings, f"{rule}:\n" + "\n".join(findings)


# ---------------------------------------------------------------- the helpers work
def test_the_cycle_finder_sees_a_cycle_through_a_relative_import(tmp_path):
    pkg = tmp_path / "games" / "pkg"
    pkg.mkdir(parents=True)
    (tmp_path / "games" / "__init__.py").write_text("")
    (pkg / "__init__.py").write_text("from games.pkg.a import f\n")
    (pkg / "a.py").write_text("def f():\n    from . import b\n")
    (pkg / "b.py").write_text("from games.pkg import c\n")
    (pkg / "c.py").write_text("import games.pkg.a\n")
    graph = import_graph(module_files(tmp_path, ["games"]))
    assert graph["games.pkg"] == {"games.pkg.a"}
    assert find_cycle(graph) == ["games.pkg.a", "games.pkg.b", "games.pkg.c", "games.pkg.a"]
    # Importing a package runs its __init__, not its submodules: no cycle.
    (pkg / "__init__.py").write_text("")
    (pkg / "c.py").write_text("import games.pkg\n")
    assert find_cycle(import_graph(module_files(tmp_path, ["games"]))) is None
    assert function_imports(pkg / "a.py") == [f"{pkg / 'a.py'}:2: from . import b"]


def test_the_rules_see_what_they_forbid(tmp_path):
    bad = tmp_path / "bad.py"
    bad.write_text(
        'import argparse\nfrom pathlib import Path\nROOT = Path(".")\n'
        'A = ROOT / "reports" / "data"\nB = Path("reports", "data")\n'
        'C = "reports/data/coup"\n\n'
        "def f(parser):\n    import pandas\n    import json\n"
        '    parser.add_argument("--x")\n'
    )
    assert len(command_line_code(bad)) == 2
    assert len(data_locations(bad)) == 3
    assert function_imports(bad) == [f"{bad}:10: import json"]


def test_the_layer_check_sees_an_upward_import(tmp_path):
    def write(relative, text=""):
        path = tmp_path / relative
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)

    for package in ("games", "analysis", "analysis/shared", "analysis/solve",
                    "analysis/coup", "analysis/cobardes", "analysis/cli"):
        write(f"{package}/__init__.py")
    write("games/rules.py")
    write("analysis/shared/store.py", "import games.rules\n")
    write("analysis/solve/cfr.py", "from analysis.shared import store\nimport games.rules\n")
    write("analysis/coup/study.py", "from analysis.solve import cfr\n")
    write("analysis/cli/main.py", "from analysis.coup import study\n")
    graph = lambda: import_graph(module_files(tmp_path, PACKAGES))  # noqa: E731
    assert upward_imports(graph()) == []
    # The engine reaching up into a study, a study into its sibling, the rules into the
    # helpers, a helper into the engine, and a loose module: each is named.
    write("analysis/solve/cfr.py", "from analysis.coup import study\n")
    write("analysis/cobardes/studies/sweep.py", "from analysis.coup.study import x\n")
    write("games/rules.py", "from analysis.shared import store\n")
    write("analysis/shared/store.py", "from analysis.solve import cfr\n")
    write("analysis/loose.py", "import games\n")
    assert upward_imports(graph()) == [
        "analysis.cobardes.studies.sweep -> analysis.coup.study: imports a sibling of its layer",
        "analysis.loose: in no layer (put it in one of the folders of LAYERS)",
        "analysis.shared.store -> analysis.solve.cfr: a shared helper imports a layer",
        "analysis.solve.cfr -> analysis.coup.study: imports upward",
        "games.rules -> analysis.shared.store: imports upward",
    ]


def test_the_coup_floors_check_sees_an_import_back_up(tmp_path):
    def write(relative, text=""):
        path = tmp_path / relative
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)

    for package in ("analysis", "analysis/shared", "analysis/coup", "analysis/coup/solvers",
                    "analysis/coup/agents", "analysis/coup/studies", "analysis/coup/advice"):
        write(f"{package}/__init__.py")
    write("analysis/coup/model.py", "from analysis.shared import store\n")
    write("analysis/coup/solvers/beliefs.py", "from analysis.coup import model\n")
    write("analysis/coup/agents/__init__.py", "from analysis.coup.agents import belief\n")
    write("analysis/coup/agents/belief.py", "from analysis.coup.solvers.beliefs import x\n")
    write("analysis/coup/studies/sweep.py", "import analysis.coup.agents\n")
    write("analysis/coup/advice/spot.py", "from analysis.coup.studies import sweep\n")
    graph = lambda: inner_graph(import_graph(module_files(tmp_path, PACKAGES)), COUP)  # noqa: E731
    assert "analysis.shared.store" not in graph() and graph()["analysis.coup.model"] == set()
    assert upward_imports(graph(), COUP_LAYERS, ()) == []
    # A solver reaching up into an agent, an agent into a study, the ground into the
    # advice: each is named.
    write("analysis/coup/solvers/beliefs.py", "from analysis.coup.agents.belief import y\n")
    write("analysis/coup/agents/belief.py", "from analysis.coup.studies import sweep\n")
    write("analysis/coup/model.py", "import analysis.coup.advice.spot\n")
    assert upward_imports(graph(), COUP_LAYERS, ()) == [
        "analysis.coup.agents.belief -> analysis.coup.studies.sweep: imports upward",
        "analysis.coup.model -> analysis.coup.advice.spot: imports upward",
        "analysis.coup.solvers.beliefs -> analysis.coup.agents.belief: imports upward",
    ]


# ---------------------------------------------------------------- the solver's area
def test_the_solver_area_has_no_import_cycle():
    modules = module_files()
    area = {name for name, path in modules.items() if _shown(path) in SOLVER_AREA}
    assert "analysis.solve.compile" in area and "games" in area
    graph = {name: imports & area for name, imports in import_graph(modules).items()
             if name in area}
    assert find_cycle(graph) is None, " -> ".join(find_cycle(graph))


def test_the_solver_area_keeps_the_rules():
    files = _files(SOLVER_AREA)
    _check([f for p in files for f in function_imports(p)], "imports inside functions")
    _check([f for p in files if "analysis/cli/" not in _shown(p)
            for f in command_line_code(p)], "command-line code outside analysis/cli/")
    _check([f for p in files if _shown(p) != STORE for f in data_locations(p)],
           "data locations outside analysis/shared/store.py")


# ---------------------------------------------------------------- the whole code base

def test_imports_go_down_the_layers():
    _check(upward_imports(import_graph(module_files())),
           "imports against the layers (docs/architecture.md)")


@pytest.mark.parametrize("wing", WINGS)
def test_imports_go_down_every_wings_floors(wing):
    _check(upward_imports(inner_graph(import_graph(module_files()), wing), wing_layers(wing), ()),
           f"imports against the floors of {wing} (docs/architecture.md)")


@pytest.mark.parametrize("wing", WINGS)
def test_the_top_of_every_wing_holds_only_its_ground(wing):
    top = ROOT / wing.replace(".", "/")
    assert {p.stem for p in top.glob("*.py")} == set(GROUND[wing]), (
        f"a module at the top of {_shown(top)}/ belongs in one of its floors' folders")
    folders = {p.parent.name for p in top.glob("*/__init__.py")}
    assert folders <= set(FLOORS), f"{_shown(top)}/ has folders that are no floor: {folders - set(FLOORS)}"
    assert folders >= {"agents", "studies"}, f"{_shown(top)}/ lacks its agents or studies"


def test_every_studied_game_is_a_wing():
    studies = {p for p in LAYERS[3]}
    assert studies == set(WINGS)


# The walk of ``--deck`` from ``farol coup match`` to the rules (docs/architecture.md): the
# files the deck's value passes through, in order, each with the code that hands it on.
# argparse checks it against its owner, games/coup/cards.py (typed ``Deck``), which the
# route reads but does not pass through.
DECK_ROUTE = (
    ("analysis/cli/coup.py", '"deck": args.deck'),         # into the game's parameters
    ("analysis/play/match.py", "pyspiel.load_game(game_name, params)"),  # to OpenSpiel
    ("games/coup/game.py", 'deck = choice("deck", C.DECKS)'),  # checked, into Config.deck
    ("games/coup/engine.py", "self.cfg.deck"),             # the state asks the rules
    ("games/coup/rules.py", 'if deck == "inquisitor":'),   # examine: the inquisitor's
)


def test_the_deck_walks_down_to_the_rules_in_few_files():
    rank = {p: i for i, layer in enumerate(LAYERS) for p in layer}
    modules = {_shown(path): name for name, path in module_files().items()}
    ranks = [rank[package_of(modules[f])] for f, _ in DECK_ROUTE]
    assert len(DECK_ROUTE) <= 6
    assert ranks == sorted(ranks, reverse=True), "the route climbs back up a layer"
    for f, step in DECK_ROUTE:
        assert step in (ROOT / f).read_text(), f"{f} no longer hands the deck on: {step}"


def test_no_import_cycle():
    cycle = find_cycle(import_graph(module_files()))
    assert cycle is None, "import cycle: " + " -> ".join(cycle)



def test_no_import_inside_a_function():
    _check([f for p in _files() for f in function_imports(p)],
           f"imports inside functions (allowed lazily: {', '.join(sorted(LAZY_ALLOWED))})")



def test_argparse_only_in_the_command_line():
    _check([f for p in _files() if "analysis/cli/" not in _shown(p)
            for f in command_line_code(p)], "command-line code outside analysis/cli/")



def test_the_data_folder_is_located_only_by_the_store():
    _check([f for p in _files() if _shown(p) != STORE for f in data_locations(p)],
           "data locations outside analysis/shared/store.py (ask analysis.shared.store)")


def test_importing_the_reports_leaves_matplotlibs_backend_alone():
    """A notebook that imports the report modules keeps its inline charts."""
    import subprocess
    import sys

    code = ("import matplotlib; matplotlib.use('svg'); import analysis.report.write, "
            "analysis.report.coup, analysis.report.cobardes, analysis.report.goat_lords; "
            "print(matplotlib.get_backend())")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True, cwd=ROOT)
    assert out.stdout.strip() == "svg"


IMPORT_EACH = """
import importlib, pathlib, sys
failed = []
for path in sorted(pathlib.Path("analysis").rglob("*.py")):
    name = ".".join(path.with_suffix("").parts).removesuffix(".__init__")
    for loaded in [m for m in sys.modules if m == "analysis" or m.startswith("analysis.")]:
        del sys.modules[loaded]
    try:
        importlib.import_module(name)
    except Exception as exc:  # noqa: BLE001
        failed.append(f"{name}: {exc!r}"[:200])
print("\\n".join(failed))
"""


def test_every_module_imports_first():
    """Each module of ``analysis`` imports as the first one a program loads (a notebook or
    a script may start anywhere): a package whose ``__init__`` reaches back to a module
    still being imported fails only for the one who imports it first."""
    import subprocess
    import sys

    out = subprocess.run([sys.executable, "-c", IMPORT_EACH], capture_output=True,
                         text=True, check=True, cwd=ROOT)
    assert out.stdout.strip() == "", out.stdout


# ---------------------------------------------------------------- the report wing
# Inside analysis/report/, from the ground up (docs/architecture.md): the ground at its top
# (the context, Markdown and chart helpers, the templates' environment, the rule that
# separates intervals), the facts (analysis/report/facts/<game>/: what the reports state,
# read once from the records), then the methods appendices' sections
# (analysis/report/<game>/) beside the guides (analysis/report/guides/): both read the
# facts and never each other; then the pages put together (the website, the what-if
# page) and the writing of every report (write.py).
REPORT = "analysis.report"
REPORT_LAYERS = (
    (REPORT,),                                      # the ground: the modules at its top
    (f"{REPORT}.facts",),                           # what the reports state
    tuple(f"{REPORT}.{p}" for p in ("coup", "cobardes", "goat_lords", "guides")),
    (f"{REPORT}.site", f"{REPORT}.whatif"),         # pages
    (f"{REPORT}.write",),                           # every report, guide, index and site
)


def report_packages(graph: dict[str, set[str]], package: str = REPORT) -> dict[str, set[str]]:
    """``graph`` inside ``package`` at the level of its packages: each folder directly
    under it is one node (its subfolders folded in), each module at its top one node;
    an arrow where a module of one node imports a module of another."""
    def node(name: str) -> str:
        rest = name[len(package) + 1:].split(".") if name != package else []
        return f"{package}.{rest[0]}" if rest else package

    folded: dict[str, set[str]] = {}
    for name, targets in inner_graph(graph, package).items():
        folded.setdefault(node(name), set()).update(node(t) for t in targets)
    return {name: targets - {name} for name, targets in folded.items()}


def _report_tree(tmp_path: Path, files: dict[str, str]) -> dict[str, set[str]]:
    for relative in ("analysis", "analysis/report", "analysis/report/facts",
                     "analysis/report/facts/coup", "analysis/report/coup",
                     "analysis/report/guides", "analysis/report/guides/coup"):
        (tmp_path / relative).mkdir(parents=True, exist_ok=True)
        (tmp_path / relative / "__init__.py").touch()
    for relative, text in files.items():
        (tmp_path / relative).write_text(text)
    return inner_graph(import_graph(module_files(tmp_path, ["analysis"])), REPORT)


def test_the_report_checks_see_a_guide_imported_by_a_section(tmp_path):
    fine = {
        "analysis/report/markdown.py": "",
        "analysis/report/facts/coup/records.py": "from analysis.report import markdown\n",
        "analysis/report/coup/edges.py": "from analysis.report.facts.coup import records\n",
        "analysis/report/guides/common.py": "",
        "analysis/report/guides/coup/seats.py": (
            "from analysis.report.facts.coup import records\n"
            "from analysis.report.guides import common\n"),
        "analysis/report/guides/write.py": "from analysis.report.guides.coup import seats\n",
        "analysis/report/write.py": "from analysis.report.coup import edges\n"
                                    "from analysis.report.guides import write\n",
    }
    graph = _report_tree(tmp_path, fine)
    assert upward_imports(graph, REPORT_LAYERS, ()) == []
    # The guides' folder and its game's folder import each other: one node, no cycle.
    assert find_cycle(report_packages(graph)) is None
    assert report_packages(graph)["analysis.report.guides"] == {"analysis.report.facts"}
    assert report_packages(graph)["analysis.report.facts"] == {"analysis.report.markdown"}
    # An appendix section reading a guide, the facts reading a section, the ground the
    # facts: each is named.
    graph = _report_tree(tmp_path, fine | {
        "analysis/report/coup/edges.py": "from analysis.report.guides.coup import seats\n",
        "analysis/report/facts/coup/records.py": "import analysis.report.coup.edges\n",
        "analysis/report/markdown.py": "from analysis.report.facts.coup.records import x\n",
    })
    assert upward_imports(graph, REPORT_LAYERS, ()) == [
        "analysis.report.coup.edges -> analysis.report.guides.coup.seats: "
        "imports a sibling of its layer",
        "analysis.report.facts.coup.records -> analysis.report.coup.edges: imports upward",
        "analysis.report.markdown -> analysis.report.facts.coup.records: imports upward",
    ]


def test_the_report_package_check_sees_a_cycle_no_module_closes(tmp_path):
    """Two folders that import each other through different modules: no module cycle,
    but a package cycle."""
    graph = _report_tree(tmp_path, {
        "analysis/report/coup/a.py": "from analysis.report.guides.coup import q\n",
        "analysis/report/coup/b.py": "",
        "analysis/report/guides/coup/q.py": "from analysis.report.coup import b\n",
    })
    assert find_cycle(graph) is None
    assert find_cycle(report_packages(graph)) in (
        ["analysis.report.coup", "analysis.report.guides", "analysis.report.coup"],
        ["analysis.report.guides", "analysis.report.coup", "analysis.report.guides"])


def test_the_report_wing_goes_one_way():
    """No appendix section imports a guide, no guide a section; both read the facts, which
    import neither."""
    graph = inner_graph(import_graph(module_files()), REPORT)
    assert {p.parent.name for p in (ROOT / "analysis/report").glob("*/__init__.py")} == {
        p.rpartition(".")[2] for layer in REPORT_LAYERS[1:3] for p in layer}, (
        "a folder of analysis/report/ missing from REPORT_LAYERS")
    _check(upward_imports(graph, REPORT_LAYERS, ()),
           "imports against the report wing's layers (docs/architecture.md)")


def test_no_import_cycle_between_the_report_packages():
    cycle = find_cycle(report_packages(import_graph(module_files())))
    assert cycle is None, "package cycle in analysis/report/: " + " -> ".join(cycle)
