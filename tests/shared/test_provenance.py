"""Stored results say which code made them."""

from __future__ import annotations

import re

from analysis.shared.provenance import provenance


def test_provenance_names_version_commit_and_seed():
    made = provenance(7)
    assert made["seed"] == 7
    assert re.fullmatch(r"\d+\.\d+\.\d+.*", made["version"])
    # A checkout gives its commit (marked when games/ or analysis/ differ from it).
    assert made["commit"] == "unknown" or re.fullmatch(r"[0-9a-f]{40}(\+changes)?",
                                                       made["commit"])
