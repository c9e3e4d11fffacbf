"""Fenced blocks of the docs pages, with what the page says about them.

A fence's info string is its language and words after it (```game, ```game error E102,
```console). The HTML comment right above a fence says where the block comes from:
  <!-- file: PATH -->                   the block is that file of the repository, verbatim
  <!-- run in DIR -->                    a console block run in a copy of DIR
  <!-- run in DIR, with "A" for "B" in FILE -->   ... after replacing B by A in FILE
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Iterator, List, Optional

import attrs

ROOT = Path(__file__).resolve().parents[2]
DOCS = ROOT / "docs"

FENCE = re.compile(r"(?:^<!--(?P<note>[^\n]*?)-->\n)?^```(?P<info>[^\n`]*)\n(?P<body>.*?)^```[ \t]*$", re.S | re.M)
RUN = re.compile(r'^run in (?P<dir>\S+?)(?:, with "(?P<new>[^"]*)" for "(?P<old>[^"]*)" in (?P<file>\S+))?$')


@attrs.frozen
class Block:
    page: Path
    line: int
    lang: str
    words: List[str]
    body: str
    note: str

    @property
    def file(self) -> Optional[str]:
        return self.note[len("file:"):].strip() if self.note.startswith("file:") else None

    @property
    def run(self) -> Optional[re.Match]:
        return RUN.match(self.note)

    @property
    def where(self) -> str:
        return f"{self.page.relative_to(ROOT)}:{self.line}"


def blocks(page: Path) -> Iterator[Block]:
    text = page.read_text("utf-8")
    for m in FENCE.finditer(text):
        info = m.group("info").split()
        yield Block(page, text.count("\n", 0, m.start("body")), info[0] if info else "", info[1:],
                    m.group("body"), (m.group("note") or "").strip())


def pages() -> List[Path]:
    return sorted(DOCS.glob("**/*.md"))
