"""Write the reports: each ruleset's guide, its methods appendix (its sections in order in
one Markdown file), an index and the website.

The sections come from an explicit table: the base sections every ruleset starts with
(:mod:`analysis.report.base`) and each ruleset's own, ``SECTIONS`` of the report package
named after its wing (:mod:`analysis.wings`: ``analysis/report/<key>/``).
"""

from __future__ import annotations

import contextlib
import importlib
import json
import time
from pathlib import Path

from analysis.report import base
from analysis.report.context import ReportContext, Section, quick_mode
from analysis.report.guides.write import GUIDES, guide_path, methods_section, write_guide
from analysis.report.site import write_site
from analysis.report.templating import render
from analysis.shared import store
from analysis.shared.progress import bar
from analysis.wings import WINGS
from games import catalog

# Each ruleset's sections as (order, section); lower order comes first (base sections < 50).
FAMILY_SECTIONS: dict[str, tuple[tuple[int, Section], ...]] = {
    wing.key: importlib.import_module(f"analysis.report.{wing.key}").SECTIONS for wing in WINGS
}

# Where a guide of questions says how each answer was measured: after the base sections.
GUIDE_METHODS = 45


def sections_for(family_key: str) -> list[Section]:
    """The sections of a ruleset's report in order (with how its guide's answers were
    measured, for a guide of questions)."""
    guide = GUIDES.get(family_key)
    methods = ((GUIDE_METHODS, methods_section),) if guide is not None and guide.sections else ()
    ordered = sorted(base.SECTIONS + FAMILY_SECTIONS.get(family_key, ()) + methods,
                     key=lambda p: p[0])
    return [section for _, section in ordered]


def write_family_report(key: str, outdir: Path, quick: bool | None = None) -> Path:
    """Write ``<outdir>/<key>.md`` and its charts; returns the Markdown path."""
    family = catalog.family(key)
    outdir.mkdir(parents=True, exist_ok=True)
    ctx = ReportContext(family, outdir, quick_mode() if quick is None else quick)
    parts = [render("appendix_intro.md.j2", title=family.title, key=key) + "\n"]
    parts += [section(ctx).rstrip() + "\n" for section in sections_for(key)]
    path = outdir / f"{key}.md"
    path.write_text("\n".join(parts), encoding="utf-8")
    return path


def write_index(outdir: Path) -> Path:
    """Write ``<outdir>/index.md`` linking every guide present, then every appendix."""
    families = catalog.families()
    text = render("index.md.j2",
                  guides=[f for f in families if guide_path(outdir, f.key).exists()],
                  appendices=[f for f in families if (outdir / f"{f.key}.md").exists()])
    path = outdir / "index.md"
    path.write_text(text + "\n", encoding="utf-8")
    return path


def write_all(keys: list[str], outdir: Path, quick: bool | None = None) -> list[Path]:
    """Each ruleset's appendix and guide, the index and the website; the paths written.
    Progress (the share of the work done, with the time left) goes to standard error:
    each step counts for the seconds it took the last time (kept in the cache), so the
    time left settles instead of growing when a slow step comes."""
    written = []
    steps = [(f"{key} appendix", lambda k=key: write_family_report(k, outdir, quick))
             for key in keys]
    steps = [s for key, step in zip(keys, steps, strict=True)
             for s in (step, (f"{key} guide", lambda k=key: write_guide(k, outdir)))]
    steps.append(("index and site", lambda: [write_index(outdir), write_site(
        outdir, [f.key for f in catalog.families() if (outdir / f"{f.key}.md").exists()])]))
    timings = _timings()
    weight = {name: max(timings.get(name, 1.0), 0.1) for name, _ in steps}
    took = {}
    with bar(total=100, desc="writing the reports", unit="%",
             bar_format="{l_bar}{bar}| [{elapsed}<{remaining}]") as shown:
        for name, step in steps:
            tick = time.perf_counter()
            out = step()
            took[name] = time.perf_counter() - tick
            written += out if isinstance(out, list) else [out]
            shown.update(100 * weight[name] / sum(weight.values()))
    _save_timings(timings | took)
    return written


def _timings_path() -> Path:
    return store.cache("report_timings.json")


def _timings() -> dict[str, float]:
    """The seconds each report step took the last time (empty: never written here)."""
    try:
        data = json.loads(_timings_path().read_text())
        return {k: float(v) for k, v in data.items()}
    except (OSError, ValueError, TypeError, AttributeError):
        return {}


def _save_timings(timings: dict[str, float]) -> None:
    with contextlib.suppress(OSError):  # timings only pace the progress bar
        store.atomic_write_text(_timings_path(), json.dumps(timings, indent=1))
