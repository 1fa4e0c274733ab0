"""Write a game's guide: ``<outdir>/<key>_guide.md`` and its charts."""

from __future__ import annotations

import re
from pathlib import Path

from analysis.report.guides import cobardes, coup, goat_lords
from analysis.report.guides.common import Guide, GuideContext, render

GUIDES: dict[str, Guide] = {g.key: g for g in (cobardes.GUIDE, coup.GUIDE, goat_lords.GUIDE)}


def guide_path(outdir: Path, key: str) -> Path:
    return outdir / f"{key}_guide.md"


def render_guide(guide: Guide, outdir: Path) -> str:
    """The guide's Markdown (its charts written into ``outdir``)."""
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
