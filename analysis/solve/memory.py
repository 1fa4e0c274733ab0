"""Memory budgets of a compile: what is available, what a node costs, sizes as text."""

from __future__ import annotations

from games.errors import InvalidParameterError

# Bytes a node costs at its peak: the walk's growable arrays, their numpy copies and the
# solver's working arrays (reaches, values); ~1 edge a node. Graph mode adds the key tables,
# 16-byte digests (measured: 252 bytes a node at the peak of a 12.2 million-node ¡Cobardes!
# villain graph, 308 on a 0.5 million-node one that tracks positions throughout; 555 when
# the tables held the key tuples themselves).
TREE_BYTES_PER_NODE = 140
GRAPH_BYTES_PER_NODE = 300


def available_memory() -> int:
    """Bytes of memory available now (``MemAvailable``), or 4 GiB when unknown."""
    try:
        with open("/proc/meminfo") as fh:
            for line in fh:
                if line.startswith("MemAvailable:"):
                    return int(line.split()[1]) * 1024
    except OSError:
        pass
    return 4 << 30


def default_memory_budget() -> int:
    """Half of the available memory: the machine is shared."""
    return available_memory() // 2


def format_bytes(n: float) -> str:
    for unit in ("B", "KB", "MB", "GB", "TB", "PB"):
        if n < 1000 or unit == "PB":
            return f"{n:z,.1f} {unit}" if n < 10_000 else f"{n:z.3g} {unit}"
        n /= 1000
    return f"{n:z.1f} PB"


def parse_memory(text: str | int | None) -> int | None:
    """``"8GB"``, ``"512MB"``, ``"1e9"`` or an int of bytes; ``None`` stays ``None``."""
    if text is None or isinstance(text, int):
        return text
    units = {"KB": 10**3, "MB": 10**6, "GB": 10**9, "TB": 10**12, "B": 1}
    raw = str(text).strip().upper()
    number, scale = raw, 1
    for suffix, factor in units.items():
        if raw.endswith(suffix):
            number, scale = raw[: -len(suffix)].strip(), factor
            break
    try:
        value = float(number) * scale
    except ValueError:
        raise InvalidParameterError(
            f"memory budget {text!r} is not a size like 8GB or 512MB"
        ) from None
    return int(value)

