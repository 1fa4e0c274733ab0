"""Solvers for Coup spots that the whole-game engine cannot reach (re-solving)."""
