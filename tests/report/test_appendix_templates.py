"""The methods appendices keep their prose in Jinja2 templates (analysis/report/templates/),
as the guides do: a section's module computes facts and fills a template, so no string of
its code is prose. Checked on the source: no string literal (f-strings included, docstrings
excepted) of more than ``MAX_WORDS`` words, which leaves chart titles and labels."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from analysis.report.templating import TEMPLATES, render

ROOT = Path(__file__).resolve().parents[2]
MAX_WORDS = 20
# Every game's appendix, and the sections every report starts with.
TEMPLATED = ("analysis/report/goat_lords", "analysis/report/cobardes", "analysis/report/coup",
             "analysis/report/base.py")


def prose_strings(path: Path, max_words: int = MAX_WORDS) -> list[str]:
    """``file:line: first words`` for each string literal of more than ``max_words`` words
    (an f-string's fields count as one word each); docstrings are not prose of a report."""
    tree = ast.parse(path.read_text(), str(path))
    docstrings = {id(node.body[0].value) for node in ast.walk(tree)
                  if isinstance(node, (ast.Module, ast.FunctionDef, ast.AsyncFunctionDef,
                                       ast.ClassDef)) and ast.get_docstring(node) is not None}
    inner = {id(v) for node in ast.walk(tree) if isinstance(node, ast.JoinedStr)
             for v in node.values}
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.JoinedStr):
            text = "".join(v.value if isinstance(v, ast.Constant) else " x " for v in node.values)
        elif (isinstance(node, ast.Constant) and isinstance(node.value, str)
              and id(node) not in docstrings and id(node) not in inner):
            text = node.value
        else:
            continue
        if len(text.split()) > max_words:
            found.append(f"{path.relative_to(ROOT) if path.is_relative_to(ROOT) else path}:"
                         f"{node.lineno}: {' '.join(text.split()[:8])} ...")
    return found


def _modules() -> list[Path]:
    paths = []
    for entry in TEMPLATED:
        path = ROOT / entry
        paths += sorted(path.glob("*.py")) if path.is_dir() else [path]
    return paths


def test_the_check_sees_prose_built_in_code(tmp_path):
    section = tmp_path / "section.py"
    section.write_text(
        '"""A docstring may be as long as it likes, and this one is longer than twenty words '
        'on purpose, to show it is left alone."""\n'
        'TITLE = "Battle value for player 0 (win 1, crown 3, draw 0)"\n'
        "def section(n):\n"
        '    return (f"## Courtiers\\n\\nEvery courtier pairing in both seat orders, {n} of '
        '90 battles solved exactly with full armies and cached "\n'
        '            "on disk for the report.")\n')
    assert prose_strings(section) == [
        f"{section}:4: ## Courtiers Every courtier pairing in both seat ..."]


@pytest.mark.parametrize("path", _modules(), ids=lambda p: str(p.relative_to(ROOT)))
def test_an_appendix_keeps_its_prose_in_templates(path):
    found = prose_strings(path)
    assert not found, "prose built in code (move it to a template):\n" + "\n".join(found)


def test_every_appendix_template_renders_from_its_facts_only():
    """A template names every fact it prints: filled with nothing, each fails on a missing
    fact (StrictUndefined) or renders a fixed text, never an empty string."""
    import jinja2

    for path in sorted(TEMPLATES.glob("*/appendix/*.md.j2")) + sorted(TEMPLATES.glob("base/*.md.j2")):
        name = str(path.relative_to(TEMPLATES))
        try:
            text = render(name)
        except (jinja2.UndefinedError, TypeError):
            continue
        assert text.strip() or "macros" in name, f"{name} renders nothing"
