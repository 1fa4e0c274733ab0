"""Shared fixtures: every test runs with Farol's games registered and quick budgets."""

import os

os.environ.setdefault("FAROL_QUICK", "1")

import games  # noqa: E402,F401  (registers the games)
