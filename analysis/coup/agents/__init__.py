"""Coup agents that reason from the history, built on the exact beliefs of
:mod:`analysis.coup.solvers.beliefs`."""
