"""Write the reports: each ruleset's guide, its methods appendix (its sections in order in
one Markdown file), an index and the website.

The sections come from an explicit table: the base sections every ruleset starts with
(:mod:`analysis.report.base`) and each ruleset's own.
"""

from __future__ import annotations

from pathlib import Path

from analysis.report import base
from analysis.report import cobardes as cobardes_report
from analysis.report import coup as coup_report
from analysis.report import goat_lords as goat_lords_report
from analysis.report.context import ReportContext, Section, quick_mode
from analysis.report.guides.common import render
from analysis.report.guides.write import GUIDES, guide_path, methods_section, write_guide
from analysis.report.site import write_site
from analysis.shared.progress import bar
from games import catalog

# Each ruleset's sections as (order, section); lower order comes first (base sections < 50).
FAMILY_SECTIONS: dict[str, tuple[tuple[int, Section], ...]] = {
    "coup": coup_report.SECTIONS,
    "cobardes": cobardes_report.SECTIONS,
    "goat_lords": goat_lords_report.SECTIONS,
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
    Progress (the reports written of all, with the time left) goes to standard error."""
    written = []
    with bar(total=2 * len(keys), desc="writing the reports", unit=" reports") as shown:
        for key in keys:
            written.append(write_family_report(key, outdir, quick))
            shown.update(1)
            written.append(write_guide(key, outdir))
            shown.update(1)
    written.append(write_index(outdir))
    written.append(write_site(outdir, [f.key for f in catalog.families()
                                       if (outdir / f"{f.key}.md").exists()]))
    return written
