"""Helpers every layer may use: where files live (store), progress lines, provenance,
process pools, and loading games with user-given parameters (params).

They import only the games and each other, so any layer can import them.
"""
