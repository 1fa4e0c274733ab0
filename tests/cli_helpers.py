"""Helpers for tests that run ``farol`` commands."""

from __future__ import annotations


def param_flags(params: str) -> list[str]:
    """``"k=v,k=v"`` as the command line's repeated ``--param k=v``."""
    return [word for item in params.split(",") if item for word in ("--param", item)]
