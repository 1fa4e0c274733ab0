"""The 1v1 endgame, the full game from the deal and the stored records: what the Coup
wing shares.

An :class:`Endgame` names one capped 1v1 game; :func:`full_game` loads the 2-player game
from the deal. An endgame's records (one JSON file per endgame
under the data folder's ``coup/``) are located, read and written here, so that the
sweeps, the studies and the report agree on where they are and which are current.
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path

import pyspiel

from analysis.shared import store
from analysis.shared.store import CorruptFileError, atomic_write_text, read_record
from games.coup import cards as C
from games.coup import endgame_game
from games.errors import InvalidParameterError

GAME = "python_coup"  # the OpenSpiel game of Coup, as the agents register for it
# The revealed pair (mover's lost card, other's lost card) of the main sweep, and the
# other pairs solved for the effect of revealed cards.
MAIN_REVEALED = ("contessa", "contessa")
REVEALED_SETS = (("contessa", "contessa"), ("duke", "captain"), ("assassin", "assassin"))
DEFAULT_CAP = 2
# A bracket at most this wide (in win probability) counts as converged.
CONVERGED_WIDTH = 1e-3
# The version stamped on every endgame and bracket record; others are stale.
SWEEP_VERSION = 1


def printed_rules_only(numbers: C.Numbers, what: str, instead: str = "fast, search or honest"
                       ) -> None:
    """Refuse, in one line naming the parameter, a game whose rules' numbers differ from
    the printed ones, for ``what`` was built from tables solved for the printed rules (a
    blueprint, leaf values, stored openings): it must never play them silently in a
    variant."""
    changed = numbers.changed()
    if changed:
        name = changed[0]
        raise InvalidParameterError(
            f"{what} was built for the printed rules and cannot play {name}="
            f"{getattr(numbers, name)}; use {instead} for this variant")


def two_card_hands_only(numbers: C.Numbers, what: str) -> None:
    """Refuse a variant whose hands are not of two cards, for an agent whose beliefs are
    built over pairs of cards."""
    if numbers.hand_size != C.PRINTED.hand_size:
        raise InvalidParameterError(
            f"{what} keeps beliefs over hands of {C.PRINTED.hand_size} cards and cannot play "
            f"hand_size={numbers.hand_size}; use fast, search or honest for this variant")


# --------------------------------------------------------------------------- locations
def data_dir(*parts: str) -> Path:
    """A location under the data folder's ``coup/`` (computed now: tests redirect it)."""
    return store.data("coup", *parts)


def endgames_dir() -> Path:
    """The solved endgames, the cap scoring 0 (one record per endgame)."""
    return data_dir("endgames")


def priced_dir() -> Path:
    """The same endgames with the cap priced by Markov guarantees, walked along the safe
    profile (:func:`analysis.coup.solvers.endgames.solve_priced_endgame`)."""
    return data_dir("endgames_priced")


def brackets_dir() -> Path:
    """The brackets whose cap pays a loss and a win."""
    return data_dir("brackets")


def markov_brackets_dir() -> Path:
    """The brackets whose cap pays the Markov guarantees (:mod:`analysis.coup.guarantees`)."""
    return data_dir("brackets_markov")


# --------------------------------------------------------------------------- endgames
@dataclass(frozen=True)
class Endgame:
    """A 1v1 endgame: coins of the player to move and of the other, deck, revealed cards."""

    mover_coins: int
    other_coins: int
    deck: str = "ambassador"
    revealed: tuple[str, str] = MAIN_REVEALED
    turn_cap: int = DEFAULT_CAP

    def __post_init__(self):
        if self.deck not in C.DECKS:
            raise InvalidParameterError(f"deck must be one of {', '.join(C.DECKS)}, not {self.deck!r}")
        if self.turn_cap < 1:
            raise InvalidParameterError(f"turn cap must be at least 1, not {self.turn_cap}")

    def position(self, move: int = 0) -> str:
        """The position string; ``move=1`` writes the same endgame with the seats swapped."""
        mover = f"?/{self.revealed[0]}/{self.mover_coins}"
        other = f"?/{self.revealed[1]}/{self.other_coins}"
        if move == 0:
            return f"{mover};{other};move:0"
        return f"{other};{mover};move:1"

    def params(self) -> dict:
        return {"deck": self.deck, "turn_cap": self.turn_cap}

    def game(self, move: int = 0) -> pyspiel.Game:
        return endgame_game(self.position(move), **self.params())

    def slug(self) -> str:
        r0, r1 = self.revealed
        return f"{self.deck}_{r0}-{r1}_m{self.mover_coins}_o{self.other_coins}_cap{self.turn_cap}"

    def to_json(self) -> dict:
        """The ``endgame`` field of a record (every field, ``revealed`` as a pair)."""
        return dataclasses.asdict(self)

    @classmethod
    def from_json(cls, data: dict) -> Endgame:
        """The endgame a record's ``endgame`` field names (without ``turn_cap``, as in the
        state-keyed estimates whose records span caps: the default cap; without
        ``revealed``: the main sweep's pair)."""
        return cls(data["mover_coins"], data["other_coins"], data["deck"],
                   tuple(data.get("revealed", MAIN_REVEALED)), data.get("turn_cap", DEFAULT_CAP))


def full_game(setup: str, deck: str, cap: int) -> pyspiel.Game:
    """The 2-player game from the deal, capped at ``cap`` turns (the cap pays 0)."""
    return pyspiel.load_game("python_coup", {"two_player_setup": setup, "deck": deck,
                                             "turn_cap": cap})


# --------------------------------------------------------------------------- records
class StoredRecord:
    """What the typed records share: ``from_json`` reads a stored record's dict (its
    ``endgame`` as an :class:`Endgame`) and ``to_json`` gives it back, key for key in the
    order read, so a re-saved file is byte-identical. Keys absent from the dict are
    ``None`` and stay absent; a key the record does not know is an error (never dropped).
    A record built in code (``key_order`` empty) writes its non-``None`` fields in order.
    Every field may be missing (``None``), as in the small records some tests write."""

    def to_json(self) -> dict:
        names = self.key_order or tuple(
            f.name for f in dataclasses.fields(self)
            if f.name != "key_order" and getattr(self, f.name) is not None)
        out = {}
        for name in names:
            value = getattr(self, name)
            out[name] = self.endgame_json(value) if isinstance(value, Endgame) else value
        return out

    def endgame_json(self, endgame: Endgame) -> dict:
        """The stored form of the record's ``endgame`` (every field)."""
        return endgame.to_json()

    @classmethod
    def from_json(cls, data: dict):
        known = {f.name for f in dataclasses.fields(cls)} - {"key_order"}
        unknown = [k for k in data if k not in known]
        if unknown:
            raise ValueError(f"{cls.__name__}: unknown keys {', '.join(unknown)}")
        values = {k: Endgame.from_json(v) if k == "endgame" else v for k, v in data.items()}
        return cls(**values, key_order=tuple(data))


def read_typed_rows(cls, path: Path) -> dict:
    """The rows of a resumable results file (``{key: row}``, as
    :func:`analysis.shared.store.write_rows` writes them) as ``cls`` records; raises
    ``OSError`` when the file is missing and :class:`CorruptFileError` (a ``ValueError``)
    naming the file when it is not such a file (truncated, foreign)."""
    text = Path(path).read_text()
    try:
        rows = json.loads(text)
        if not isinstance(rows, dict) or not all(isinstance(row, dict) for row in rows.values()):
            raise ValueError("it is not an object of rows")
        return {key: cls.from_json(row) for key, row in rows.items()}
    except (ValueError, TypeError, KeyError, AttributeError) as exc:
        reason = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
        raise CorruptFileError(f"{path} is not a {cls.__name__} rows file ({reason})") from None


@dataclass(frozen=True)
class EndgameRecord(StoredRecord):
    """One solved endgame (:func:`analysis.coup.solvers.endgames.solve_endgame`), or the
    same with the cap priced by Markov guarantees
    (:func:`~analysis.coup.solvers.endgames.solve_priced_endgame`: ``cap_payoffs``,
    ``sides``, the win bounds and the cap's shares are set then)."""

    endgame: Endgame | None = None
    position: str | None = None
    solver: str | None = None
    cap_payoffs: str | None = None
    method: str | None = None
    iterations: int | None = None
    exploitability: float | None = None
    sides: dict | None = None
    lower_win: float | None = None
    upper_win: float | None = None
    value: float | None = None
    win: float | None = None
    draw: float | None = None
    lose: float | None = None
    cap_win: float | None = None
    cap_lose: float | None = None
    win_range: list | None = None
    nodes: int | None = None
    infosets: int | None = None
    compile_seconds: float | None = None
    solve_seconds: float | None = None
    walk_seconds: float | None = None
    claims: dict | None = None
    card_values: dict | None = None
    first_mix: dict | None = None
    openspiel_exploitability: float | None = None
    version: int | None = None
    key_order: tuple[str, ...] = field(default=(), compare=False, repr=False)


@dataclass(frozen=True)
class Bracket:
    """Bounds on an endgame's uncapped value as player 0's win probabilities: every
    bracket record's ``lower_win``, ``upper_win``, ``width`` (in win probability) and
    ``converged`` (width at most :data:`CONVERGED_WIDTH`) are written from one."""

    lower_win: float
    upper_win: float
    width: float

    @classmethod
    def of_values(cls, lower: float, upper: float) -> Bracket:
        """The bracket of player 0's value bounds (-1 to 1)."""
        return cls((1 + lower) / 2, (1 + upper) / 2, (upper - lower) / 2)

    @classmethod
    def of_wins(cls, lower_win: float, upper_win: float) -> Bracket:
        """The bracket of win-probability bounds."""
        return cls(lower_win, upper_win, upper_win - lower_win)

    @property
    def converged(self) -> bool:
        return self.width <= CONVERGED_WIDTH

    def as_record(self) -> dict:
        """As a record writes it: ``lower_win``, ``upper_win``, ``width``, ``converged``."""
        return {"lower_win": self.lower_win, "upper_win": self.upper_win,
                "width": self.width, "converged": self.converged}


@dataclass(frozen=True)
class BracketFields(StoredRecord):
    """The fields of every stored Coup bracket (:class:`BracketRecord`, and the rows of
    :mod:`analysis.coup.studies.full_game` and :mod:`~analysis.coup.studies.larger`), as
    :func:`analysis.coup.solvers.brackets.bracket_of` writes them: the compile's seconds,
    the tree's size, the two solves (``low``/``high``: the cap paying a loss / a win, or
    the Markov guarantees' ends), player 0's value bounds and their :class:`Bracket`."""

    compile_seconds: float | None = None
    nodes: int | None = None
    infosets: int | None = None
    cap_terminals: int | None = None
    low: dict | None = None
    high: dict | None = None
    lower: float | None = None
    upper: float | None = None
    lower_win: float | None = None
    upper_win: float | None = None
    width: float | None = None
    converged: bool | None = None


@dataclass(frozen=True)
class BracketRecord(BracketFields):
    """Bounds on one endgame's uncapped value from its cap
    (:func:`analysis.coup.solvers.brackets.solve_bracket`; its fields of
    :class:`BracketFields`); ``markov`` says what priced the cap. :func:`merge_brackets`
    builds one with only the ends and the sides' exploitability."""

    endgame: Endgame | None = None
    position: str | None = None
    solver: str | None = None
    decisive_coup: bool | None = None
    cap_payoffs: str | None = None
    markov: dict | None = None
    version: int | None = None
    key_order: tuple[str, ...] = field(default=(), compare=False, repr=False)


def record_path(directory: Path, endgame: Endgame) -> Path:
    """Where ``endgame``'s record lives in ``directory`` (endgames and brackets alike)."""
    return Path(directory) / f"{endgame.slug()}.json"


def _load(directory: Path, endgame: Endgame) -> dict | None:
    # The stored dict of ``endgame`` in ``directory``, or None (missing, unreadable, stale).
    # A damaged file is refused naming it (read_record), never taken as missing.
    record = read_record(record_path(directory, endgame))
    return record if record is not None and record.get("version") == SWEEP_VERSION else None


def _typed(directory: Path, endgame: Endgame, cls):
    # ``endgame``'s current record in ``directory`` as ``cls``; a file of the current version
    # whose fields are not ``cls``'s is named in one CorruptFileError (a ValueError).
    record = _load(directory, endgame)
    if record is None:
        return None
    try:
        return cls.from_json(record)
    except (ValueError, TypeError, KeyError, AttributeError) as exc:
        path = record_path(directory, endgame)
        reason = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
        raise CorruptFileError(f"{path} is not a {cls.__name__} ({reason}); delete it") from None


def load_record(directory: Path, endgame: Endgame) -> EndgameRecord | None:
    """The stored endgame record of ``endgame`` in ``directory``, or ``None`` (missing,
    unreadable or stale)."""
    return _typed(directory, endgame, EndgameRecord)


def save_record(directory: Path, endgame: Endgame, record: dict) -> None:
    """Store ``record`` as ``endgame``'s in ``directory``, stamped with the sweep's version
    (what :func:`load_record` reads back); written atomically."""
    record["version"] = SWEEP_VERSION
    atomic_write_text(record_path(directory, endgame), json.dumps(record, indent=1) + "\n")


def cached(endgames: list[Endgame], directory: Path | None = None) -> list[EndgameRecord]:
    """The endgame records already on disk (missing ones left out; default: the cap-0
    endgames)."""
    directory = endgames_dir() if directory is None else Path(directory)
    out = (load_record(directory, eg) for eg in endgames)
    return [r for r in out if r is not None]


# --------------------------------------------------------------------------- brackets
bracket_path = record_path
save_bracket = save_record


def load_bracket(directory: Path, endgame: Endgame) -> BracketRecord | None:
    """The stored bracket record of ``endgame`` in ``directory``, or ``None`` (missing,
    unreadable or stale)."""
    return _typed(directory, endgame, BracketRecord)


def cached_brackets(endgames: list[Endgame], directory: Path | None = None) -> list[BracketRecord]:
    """The bracket records already on disk (missing ones left out; default: the plain
    brackets)."""
    directory = brackets_dir() if directory is None else Path(directory)
    out = (load_bracket(directory, eg) for eg in endgames)
    return [r for r in out if r is not None]


def merge_brackets(records: list[BracketRecord]) -> BracketRecord:
    """One endgame's brackets at one cap, priced two ways (plain and Markov), as one: the
    larger lower end, the smaller upper end, the worse exploitability of each side."""
    if len(records) == 1:
        return records[0]
    bracket = Bracket.of_wins(max(r.lower_win for r in records),
                              min(r.upper_win for r in records))
    side = {name: {"exploitability": max(getattr(r, name)["exploitability"] for r in records)}
            for name in ("low", "high") if all(getattr(r, name) is not None for r in records)}
    return BracketRecord(
        endgame=records[0].endgame, **bracket.as_record(),
        cap_payoffs="+".join(r.cap_payoffs or "loss/win" for r in records), **side)


def brackets_by_cap(directory: Path, endgame: Endgame, caps: Iterable[int] = range(1, 10),
                    also: Path | None = None) -> dict[int, BracketRecord]:
    """The bracket records on disk of ``endgame`` at each of ``caps`` (missing ones left
    out); ``also``: a second directory (the Markov-priced brackets), whose record at the
    same cap is merged in (:func:`merge_brackets`)."""
    out = {}
    for cap in caps:
        eg = dataclasses.replace(endgame, turn_cap=cap)
        records = [r for r in (load_bracket(directory, eg),
                               load_bracket(also, eg) if also is not None else None)
                   if r is not None]
        if records:
            out[cap] = merge_brackets(records)
    return out


def intersect_brackets(by_cap: dict[int, BracketRecord]) -> dict | None:
    """The intersection of one endgame's brackets at several caps (``{cap: record}``).

    Every cap's bracket holds the uncapped value, so their intersection does too:
    ``lower_win`` is the largest lower end, ``upper_win`` the smallest upper end
    (``lower_cap``/``upper_cap``: the smallest caps they come from), ``width``, and the
    ``caps`` used. ``None`` without a record.
    """
    if not by_cap:
        return None
    caps = sorted(by_cap)
    low = max(caps, key=lambda c: by_cap[c].lower_win)
    high = min(caps, key=lambda c: by_cap[c].upper_win)
    bracket = Bracket.of_wins(by_cap[low].lower_win, by_cap[high].upper_win)
    return {"lower_win": bracket.lower_win, "upper_win": bracket.upper_win,
            "width": bracket.width, "lower_cap": low, "upper_cap": high, "caps": caps}
