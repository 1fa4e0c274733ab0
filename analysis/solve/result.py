"""The result of a solve: figures plus the average strategy, saved as JSON + NPZ."""

from __future__ import annotations

import hashlib
import io
import json
import os
import shutil
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np
import pyspiel
from open_spiel.python import policy as policy_lib

from analysis.shared.store import READ_ERRORS, CorruptFileError, publish_mode
from analysis.solve.compiled import names_from_json, names_to_json
from analysis.solve.errors import SolveError

if TYPE_CHECKING:
    import pandas as pd

RESULT_JSON = "result.json"
STRATEGY_NPZ = "strategy.npz"


def _checksum(figures: dict, npz: bytes) -> str:
    """SHA-256 of a result's figures (canonical JSON) and its strategy file's bytes."""
    digest = hashlib.sha256(json.dumps(figures, sort_keys=True).encode())
    digest.update(npz)
    return digest.hexdigest()


@dataclass(frozen=True, eq=False)
class SolveResult:
    """A solved game: what was solved, how, how well, and the average strategy.

    Attributes
    ----------
    game
        The game string as given (``str(game)``).
    parameters
        The game's parameters.
    method
        ``"cfr+"``, ``"dcfr"``, ``"lcfr"``, ``"pcfr+"`` or ``"pdcfr+"``, with
        ``method_parameters`` (DCFR's and LCFR's alpha, beta, gamma; PDCFR+'s alpha, gamma).
    iterations, seconds
        Iterations run in total (across resumes) and solver seconds (compile excluded).
    exploitability, value, nash_conv, best_response
        Of the average strategy: OpenSpiel's exploitability (NashConv / 2), player 0's
        expected utility, NashConv and each player's best-response value.
    mode
        ``"tree"`` or ``"graph"``.
    abstraction
        True when the graph merged histories a player can tell apart (an imperfect-recall
        abstraction): ``exploitability`` is then measured within the abstraction (against
        a best response that also forgets), not in the full game.
    compiled_game
        The game actually walked (the turn-based form of a simultaneous game).
    engine
        ``"public"`` (public-tree passes vectorised over private states) or ``"history"``.
    """

    game: str
    parameters: dict[str, Any]
    method: str
    iterations: int
    seconds: float
    exploitability: float
    value: float
    nash_conv: float
    best_response: tuple[float, float]
    mode: str
    abstraction: bool
    compiled_game: str
    method_parameters: dict[str, float] = field(default_factory=dict)
    engine: str = "history"
    compile_seconds: float = 0.0
    num_nodes: int = 0
    infoset_keys: list[str] = field(default_factory=list, repr=False)
    infoset_player: np.ndarray = field(default_factory=lambda: np.zeros(0, np.int8), repr=False)
    infoset_offset: np.ndarray = field(default_factory=lambda: np.zeros(1, np.int64), repr=False)
    infoset_actions: np.ndarray = field(default_factory=lambda: np.zeros(0, np.int32), repr=False)
    strategy: np.ndarray = field(default_factory=lambda: np.zeros(0), repr=False)
    action_names: list[dict[int, str]] = field(default_factory=lambda: [{}, {}], repr=False)

    # ------------------------------------------------------------------ views
    def strategy_table(self) -> pd.DataFrame:
        """One row per (information set, action): player, infoset, action, action_name,
        probability."""
        import pandas as pd  # here, not at the top: loading a result needs no pandas

        counts = np.diff(self.infoset_offset)
        infoset_index = np.repeat(np.arange(len(counts)), counts)
        keys = np.asarray(self.infoset_keys, dtype=object)
        players = self.infoset_player[infoset_index].astype(int)
        actions = self.infoset_actions.astype(int)
        names = [self.action_names[p].get(a, str(a)) for p, a in zip(players, actions, strict=True)]
        return pd.DataFrame(
            {
                "player": players,
                "infoset": keys[infoset_index] if len(keys) else keys,
                "action": actions,
                "action_name": names,
                "probability": self.strategy,
            }
        )

    def infoset_strategy(self, key: str) -> dict[int, float]:
        """Action → probability at the information set named ``key``."""
        try:
            i = self.infoset_keys.index(key)
        except ValueError:
            raise SolveError(f"no information set {key!r} in the solution of {self.game}") from None
        lo, hi = self.infoset_offset[i], self.infoset_offset[i + 1]
        return dict(
            zip(self.infoset_actions[lo:hi].tolist(), self.strategy[lo:hi].tolist(), strict=True)
        )

    def to_tabular_policy(self, game: pyspiel.Game | None = None):
        """The average strategy as an OpenSpiel ``TabularPolicy`` over ``compiled_game``.

        Information sets the solve never met keep the uniform policy. In graph mode the
        game's states must offer ``infoset_key`` (each OpenSpiel information state takes the
        strategy of its key); simultaneous games are supported in tree mode only.
        """
        if game is None:
            game = pyspiel.load_game(self.compiled_game)
        tabular = policy_lib.TabularPolicy(game)
        index = {key: i for i, key in enumerate(self.infoset_keys)}
        for info_state, row in tabular.state_lookup.items():
            if self.mode == "tree":
                i = index.get(info_state)
            else:
                state = tabular.states[row]
                if state.is_simultaneous_node():
                    raise SolveError(
                        "a graph-mode solution of a simultaneous game has no "
                        "OpenSpiel tabular form; solve it in tree mode"
                    )
                player = state.current_player()
                key = state.infoset_key(player)
                i = index.get(key if isinstance(key, str) else repr(key))
            if i is None:
                continue
            lo, hi = self.infoset_offset[i], self.infoset_offset[i + 1]
            probs = tabular.action_probability_array[row]
            probs[:] = 0.0
            probs[self.infoset_actions[lo:hi]] = self.strategy[lo:hi]
        return tabular

    # ------------------------------------------------------------------ files
    def figures(self) -> dict[str, Any]:
        return {
            "game": self.game,
            "parameters": self.parameters,
            "method": self.method,
            "method_parameters": self.method_parameters,
            "iterations": self.iterations,
            "seconds": self.seconds,
            "exploitability": self.exploitability,
            "value": self.value,
            "nash_conv": self.nash_conv,
            "best_response": list(self.best_response),
            "mode": self.mode,
            "abstraction": self.abstraction,
            "compiled_game": self.compiled_game,
            "engine": self.engine,
            "compile_seconds": self.compile_seconds,
            "num_nodes": self.num_nodes,
        }

    def save(self, directory: str | os.PathLike) -> Path:
        """Write ``result.json`` and ``strategy.npz`` into ``directory``.

        Both are written into a temporary sibling directory first and moved into place,
        so an interrupted save leaves the previous result (or nothing), never half of one.
        """
        target = Path(directory)
        target.parent.mkdir(parents=True, exist_ok=True)
        tmp = Path(tempfile.mkdtemp(dir=target.parent, prefix=f".{target.name}.tmp"))
        try:
            keys = [k.encode() for k in self.infoset_keys]
            key_offsets = np.zeros(len(keys) + 1, dtype=np.int64)
            np.cumsum([len(k) for k in keys], out=key_offsets[1:])
            np.savez(
                tmp / STRATEGY_NPZ,
                strategy=self.strategy,
                infoset_player=self.infoset_player,
                infoset_offset=self.infoset_offset,
                infoset_actions=self.infoset_actions,
                key_blob=np.frombuffer(b"".join(keys), dtype=np.uint8),
                key_offsets=key_offsets,
                action_names=np.frombuffer(
                    names_to_json(self.action_names).encode(), dtype=np.uint8
                ),
            )
            figures = json.loads(json.dumps(self.figures()))  # as a reader will see them
            figures["checksum"] = _checksum(figures, (tmp / STRATEGY_NPZ).read_bytes())
            (tmp / RESULT_JSON).write_text(json.dumps(figures, indent=2) + "\n")
            publish_mode(tmp, directory=True)
            if target.exists():
                old = Path(tempfile.mkdtemp(dir=target.parent, prefix=f".{target.name}.old"))
                os.replace(target, old / "previous")
                try:
                    os.replace(tmp, target)
                except OSError:
                    os.replace(old / "previous", target)  # put the previous result back
                    raise
                finally:
                    shutil.rmtree(old, ignore_errors=True)
            else:
                os.replace(tmp, target)
        finally:
            if tmp.exists():
                shutil.rmtree(tmp, ignore_errors=True)
        return target

    @classmethod
    def load(cls, directory: str | os.PathLike) -> SolveResult:
        """Read a result written by :meth:`save`.

        Raises
        ------
        CorruptFileError
            If either file is missing or unreadable.
        """
        path = Path(directory)
        try:
            figures = json.loads((path / RESULT_JSON).read_text())
            if not isinstance(figures, dict):
                raise ValueError(f"{RESULT_JSON} is not a solve result")
            stored = figures.pop("checksum", None)
            npz = (path / STRATEGY_NPZ).read_bytes()
            # Results saved before checksums were kept have none: their format is checked.
            if stored is not None and stored != _checksum(figures, npz):
                raise ValueError("its checksum does not match its contents")
            with np.load(io.BytesIO(npz), allow_pickle=False) as data:
                arrays = {k: data[k] for k in data.files}
            raw = arrays["key_blob"].tobytes()
            offsets = arrays["key_offsets"]
            keys = [raw[offsets[i] : offsets[i + 1]].decode() for i in range(len(offsets) - 1)]
            figures["best_response"] = tuple(figures["best_response"])
            offsets = arrays["infoset_offset"]
            if not (len(keys) + 1 == len(offsets) == len(arrays["infoset_player"]) + 1
                    and int(offsets[-1]) == len(arrays["strategy"])
                    == len(arrays["infoset_actions"])):
                raise ValueError("its arrays do not fit together")
            return cls(
                **figures,
                infoset_keys=keys,
                infoset_player=arrays["infoset_player"],
                infoset_offset=arrays["infoset_offset"],
                infoset_actions=arrays["infoset_actions"],
                strategy=arrays["strategy"],
                action_names=names_from_json(arrays["action_names"].tobytes().decode()),
            )
        except READ_ERRORS as exc:
            text = str(exc).strip()
            reason = text.splitlines()[0] if text else type(exc).__name__
            raise CorruptFileError(f"cannot read a solve result from {path}: {reason}",
                                   reason=reason) from None
