"""Write a game's guide: ``<outdir>/<key>_guide.md`` and its charts."""

from __future__ import annotations

import importlib
import re
from pathlib import Path

from analysis.report.guides.common import Guide, GuideContext, Reply
from analysis.report.templating import render
from analysis.wings import WINGS

# Each game's guide: ``GUIDE`` of the guides package named after its wing
# (``analysis/report/guides/<key>/``).
GUIDES: dict[str, Guide] = {
    wing.key: importlib.import_module(f"analysis.report.guides.{wing.key}").GUIDE
    for wing in WINGS
}


def guide_path(outdir: Path, key: str) -> Path:
    return outdir / f"{key}_guide.md"


def replies(guide: Guide, outdir: Path) -> list[tuple[str, list[Reply], str]]:
    """Each section of a guide of sections: its title, its answered questions and its
    caveat (charts written into ``outdir``)."""
    outdir.mkdir(parents=True, exist_ok=True)
    ctx = GuideContext(guide.key, outdir)
    return [(s.title, [reply(ctx) for reply in s.replies], s.caveat(ctx))
            for s in guide.sections]


def render_guide(guide: Guide, outdir: Path) -> str:
    """The guide's Markdown (its charts written into ``outdir``)."""
    if guide.sections:
        text = render("guide_sections.md.j2", title=guide.title, key=guide.key,
                      intro=guide.intro, sections=replies(guide, outdir))
        return re.sub(r"\n{3,}", "\n\n", text) + "\n"
    ctx = GuideContext(guide.key, outdir)
    play = [part(ctx) for part in guide.play]
    answers = [question(ctx) for question in guide.questions]
    rows = [(a.question, a.answer, a.model) for a in answers]
    details = [a.detail for a in answers if a.detail]
    text = render("guide.md.j2", title=guide.title, key=guide.key, intro=guide.intro,
                  play=play, rows=rows, details=details)
    return re.sub(r"\n{3,}", "\n\n", text) + "\n"


def write_guide(key: str, outdir: Path) -> Path:
    """Write the guide of ruleset ``key``; returns its path."""
    outdir.mkdir(parents=True, exist_ok=True)
    path = guide_path(outdir, key)
    path.write_text(render_guide(GUIDES[key], outdir), encoding="utf-8")
    return path


def methods(key: str, outdir: Path) -> str:
    """How each answer of a guide of sections was measured, for its methods appendix:
    one paragraph per question, under its section's title ("" for an older guide)."""
    guide = GUIDES[key]
    if not guide.sections:
        return ""
    ctx = GuideContext(key, outdir)
    sections = []
    for title, answered, _ in replies(guide, outdir):
        said: list[tuple[list[str], str]] = []  # questions measured alike, said once
        for r in answered:
            if not r.method:
                continue
            if said and said[-1][1] == r.method:
                said[-1][0].append(r.question)
            else:
                said.append(([r.question], r.method))
        sections.append((title, said))
    return render("guide_methods.md.j2", title=guide.title, key=key,
                  notes=[note(ctx) for note in guide.notes], sections=sections)


def methods_section(ctx) -> str:
    """The methods appendix's section on the guide's answers (a report section: ``ctx`` is
    an :class:`analysis.report.context.ReportContext`)."""
    return methods(ctx.family.key, ctx.outdir)
