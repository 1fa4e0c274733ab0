"""Farol's analysis side: solvers, metrics, reports and the ``farol`` command."""
