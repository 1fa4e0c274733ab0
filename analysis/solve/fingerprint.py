"""Fingerprints of code, for the disk cache: a compiled game is reused only while both
the compiler and the game's rules are the ones that made it."""

from __future__ import annotations

import hashlib
import os
import sys
from pathlib import Path

import pyspiel

from analysis.solve import builder, compiled, digest, layout, lifted, walk
from analysis.solve import compile as compile_module
from analysis.solve.compiled import COMPILE_VERSION

# The modules whose code determines the compiled arrays.
COMPILER_MODULES = (compile_module, compiled, builder, walk, lifted, layout, digest)


def compiler_fingerprint() -> str:
    """The compile version and a digest of the compiler's source (:data:`COMPILER_MODULES`)."""
    source = b"".join(Path(module.__file__).read_bytes() for module in COMPILER_MODULES)
    return f"{COMPILE_VERSION}-{hashlib.sha256(source).hexdigest()[:12]}"


def game_code_fingerprint(game: pyspiel.Game) -> str:
    """What identifies the code behind ``game``: the stamps (size, modification time) of
    every Python file of its package, or OpenSpiel's version for its own games."""
    module = type(game).__module__
    if module and not module.startswith("pyspiel"):
        path = getattr(sys.modules.get(module), "__file__", None)
        if path and os.path.exists(path):
            # The rules live in sibling modules (cards, engine...): stamp them all.
            folder = os.path.dirname(path)
            stamps = []
            for name in sorted(os.listdir(folder)):
                if name.endswith(".py"):
                    stat = os.stat(os.path.join(folder, name))
                    stamps.append(f"{name}:{stat.st_size}:{stat.st_mtime_ns}")
            return module + "|" + ",".join(stamps)
    return f"pyspiel:{getattr(pyspiel, '__version__', 'unknown')}"
