"""Every notebook runs top to bottom with FAROL_QUICK=1 (small budgets) and shows every
chart it draws: a cell that calls ``plt.show()`` leaves an image, or says in its output
which command makes the results it would chart."""

from __future__ import annotations

import os
from pathlib import Path

import nbformat
import pytest
from nbclient import NotebookClient

NOTEBOOKS = sorted((Path(__file__).resolve().parents[2] / "notebooks").glob("*.ipynb"))


def test_there_are_notebooks():
    assert NOTEBOOKS, "no notebooks found in notebooks/"


def _text(output) -> str:
    if output.get("output_type") == "stream":
        return output.get("text", "")
    return str(output.get("data", {}).get("text/plain", ""))


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.name)
def test_notebook_runs_and_shows_its_charts(path, monkeypatch):
    monkeypatch.setenv("FAROL_QUICK", "1")
    # The backend a Jupyter kernel starts with: charts become image outputs.
    monkeypatch.setenv("MPLBACKEND", "module://matplotlib_inline.backend_inline")
    notebook = nbformat.read(path, as_version=4)
    client = NotebookClient(
        notebook, timeout=600, kernel_name="python3", resources={"metadata": {"path": str(path.parent)}}
    )
    client.execute()
    code = [cell for cell in notebook.cells if cell.cell_type == "code"]
    errors = [out for cell in code for out in cell.get("outputs", [])
              if out.get("output_type") == "error"]
    assert not errors
    for cell in code:
        if "plt.show()" not in cell.source:
            continue
        outputs = cell.get("outputs", [])
        images = [o for o in outputs if "image/png" in o.get("data", {})]
        said = "not measured yet" in "".join(_text(o) for o in outputs)
        assert images or said, f"a chart that does not show: {cell.source[:80]!r}"
    assert os.environ["FAROL_QUICK"] == "1"
