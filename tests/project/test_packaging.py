"""The package's metadata: ``pip install -e .`` reads it, and must print no warning.

Setuptools deprecated the ``license = {text = ...}`` table in favour of an SPDX
expression, which it reads from version 77 on; both halves are checked here.
"""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

PYPROJECT = Path(__file__).resolve().parents[2] / "pyproject.toml"


def _project() -> dict:
    return tomllib.loads(PYPROJECT.read_text())


def test_license_is_an_spdx_expression():
    assert _project()["project"]["license"] == "Apache-2.0"


def test_build_needs_a_setuptools_that_reads_spdx_licences():
    requires = _project()["build-system"]["requires"]
    pins = [r for r in requires if r.replace(" ", "").startswith("setuptools")]
    assert len(pins) == 1
    found = re.search(r">=\s*(\d+)", pins[0])
    assert found and int(found.group(1)) >= 77, pins[0]
