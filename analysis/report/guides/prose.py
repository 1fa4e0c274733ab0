"""How long a guide reads: its words of prose, and its sentences.

Prose is the Markdown text outside tables and code blocks. Precisely, of a Markdown
text, :func:`prose` keeps every line except

- the lines of a fenced code block (from a line opening with three backticks or three
  tildes to the line that closes it, both included);
- the lines of a table (a line whose first character other than a space is ``|``);

and in the lines kept it drops images whole (``![alt](address)``), keeps a link's text
but not its address, and drops HTML comments. :func:`words` counts a word for every
run of characters between spaces that holds a letter or a digit, so Markdown marks
(``#``, ``**``, a list's ``-``) and a lone dash count nothing, while ``46.4%`` and
``[45.9,`` count one each. Headings and list items are prose; a table's cells are not.
"""

from __future__ import annotations

import re

FENCE = re.compile(r"^\s*(```|~~~)")
IMAGE = re.compile(r"!\[[^\]]*\]\([^)]*\)")
LINK = re.compile(r"\[([^\]]*)\]\([^)]*\)")
COMMENT = re.compile(r"<!--.*?-->", re.DOTALL)
WORD = re.compile(r"[^\W_]")  # a letter or a digit
# A sentence ends at a full stop, question or exclamation mark followed by a space and a
# capital, a digit or a Markdown mark opening the next one ("46.4%" has no space after
# its point).
SENTENCE_END = re.compile(r"(?<=[.!?])\s+(?=[A-Z0-9*_`\[(])")


def prose(text: str) -> str:
    """The prose of a Markdown text (see the module's docstring), line by line."""
    kept, fence = [], None
    for line in COMMENT.sub("", text).splitlines():
        opening = FENCE.match(line)
        if fence is not None:
            if opening and opening.group(1) == fence:
                fence = None
            continue
        if opening:
            fence = opening.group(1)
            continue
        if line.lstrip().startswith("|"):
            continue
        kept.append(LINK.sub(r"\1", IMAGE.sub("", line)))
    return "\n".join(kept)


def words(text: str) -> int:
    """The words of a plain text: runs between spaces holding a letter or a digit."""
    return sum(1 for token in text.split() if WORD.search(token))


def prose_words(text: str) -> int:
    """The words of prose of a Markdown text: what a reader reads outside its tables and
    code blocks."""
    return words(prose(text))


def sentences(paragraph: str) -> list[str]:
    """A paragraph's sentences, in order."""
    text = " ".join(paragraph.split())
    return [s for s in SENTENCE_END.split(text) if s]


def first_sentence(paragraph: str) -> str:
    found = sentences(paragraph)
    return found[0] if found else ""
