"""The reports as a static website: ``<outdir>/site/`` with an index, each game's guide
and its methods appendix as HTML pages, charts linked (PNG) or inlined (SVG, so a
browser shows each cell's value on hover). No server, no script; no timestamps, so the
same reports give the same site."""

from __future__ import annotations

import re
from pathlib import Path

import markdown

from analysis.report.templating import ENV
from games import catalog

SITE = "site"


def pages(outdir: Path, keys: list[str]) -> list[tuple[str, Path]]:
    """(label, Markdown file) of every page present, the index first, guides before
    appendices."""
    found = [("Index", outdir / "index.md")]
    titles = {k: catalog.family(k).title for k in keys}
    found += [(f"{titles[k]} guide", outdir / f"{k}_guide.md") for k in keys]
    found += [(f"{titles[k]} appendix", outdir / f"{k}.md") for k in keys]
    return [(label, path) for label, path in found if path.exists()]


def html_name(md: str) -> str:
    return Path(md).with_suffix(".html").name


def rewrite(html: str, outdir: Path) -> str:
    """Links as seen from ``site/``: pages to their HTML, charts and files one folder up,
    SVG charts inlined."""
    def link(m: re.Match) -> str:
        target = m.group(2)
        if re.match(r"^[a-z]+:|^#", target):
            return m.group(0)
        page, _, anchor = target.partition("#")
        if "/" not in page and page.endswith(".md"):
            return f'{m.group(1)}="{html_name(page)}{"#" + anchor if anchor else ""}"'
        return f'{m.group(1)}="../{target}"'

    def inline_svg(m: re.Match) -> str:
        path = outdir / m.group(1)
        return path.read_text(encoding="utf-8") if path.exists() else m.group(0)

    html = re.sub(r'<img alt="[^"]*" src="([^"/]+\.svg)" ?/?>', inline_svg, html)
    html = keep_together(html)
    return re.sub(r'\b(href|src)="([^"]+)"', link, html)


# A figure and its interval, "46.4% [45.9, 47.0]": a narrow screen breaks the line before
# or after it, never inside it.
FIGURE = re.compile(r"(\d(?:%|&nbsp;pp)?) \[([^\]\s<>]+), ([^\]\s<>]+)\]")
POINTS = re.compile(r"(\d) pp\b")


def keep_together(html: str) -> str:
    """``html`` with the spaces inside each figure with its interval made non-breaking
    ("+1.7 pp" is one word too)."""
    return FIGURE.sub(r"\1&nbsp;[\2,&nbsp;\3]", POINTS.sub(r"\1&nbsp;pp", html))


def write_site(outdir: Path, keys: list[str]) -> Path:
    """Write ``<outdir>/site/`` from the Markdown pages present; returns its index."""
    site = outdir / SITE
    site.mkdir(parents=True, exist_ok=True)
    found = pages(outdir, keys)
    nav = [(label, html_name(p.name)) for label, p in found]
    written = set()
    template = ENV.get_template("page.html.j2")
    for _, path in found:
        text = path.read_text(encoding="utf-8")
        title = next((line[2:].strip() for line in text.splitlines() if line.startswith("# ")),
                     path.stem)
        body = markdown.markdown(text, extensions=["tables", "fenced_code"])
        name = html_name(path.name)
        (site / name).write_text(template.render(title=title, nav=nav,
                                                 body=rewrite(body, outdir)) + "\n",
                                 encoding="utf-8")
        written.add(name)
    for stale in site.glob("*.html"):
        if stale.name not in written:
            stale.unlink()
    return site / "index.html"
