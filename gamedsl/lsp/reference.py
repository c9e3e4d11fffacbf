"""The built-in names' and functions' documentation, read from the language reference
(docs/language.md, its tables "Built-in names" and "Built-in functions"), so hover says
what the reference says. The page is installed with the package (gamedsl/reference/);
in a checkout it is read from docs/."""

from __future__ import annotations

import re
from functools import lru_cache
from pathlib import Path
from typing import Dict, Optional

import attrs

from gamedsl.checker.signatures import BUILTINS


@attrs.frozen
class Doc:
    usage: str  # how it is written: `len(L)`, or the name
    text: str  # what the reference says of it


def reference_path() -> Optional[Path]:
    here = Path(__file__).resolve().parent.parent
    for path in (here / "reference" / "language.md", here.parent / "docs" / "language.md"):
        if path.is_file():
            return path
    return None


@lru_cache(maxsize=1)
def builtin_docs() -> Dict[str, Doc]:
    """name -> its Doc, for every built-in the reference's tables list (a row naming several,
    `sum(L)`, `max(L)`, `min(L)`, documents each)."""
    path = reference_path()
    text = path.read_text("utf-8") if path is not None else ""
    return docs_of(text)


def docs_of(text: str) -> Dict[str, Doc]:
    out: Dict[str, Doc] = {}
    for title in ("Built-in names", "Built-in functions"):
        m = re.search(r"^#+ " + re.escape(title) + r"\n(.*?)(?=^#|\Z)", text, re.M | re.S)
        if not m:
            continue
        for line in m.group(1).splitlines():
            cells = [c.strip() for c in line.strip().strip("|").split("|")]
            if len(cells) < 2 or not cells[0].startswith("`"):
                continue
            items = re.findall(r"`([^`]+)`", cells[0])
            for item in items:
                name = re.match(r"\w+", item)
                if name and name.group() not in out:
                    summary = cells[1] or _summary(name.group())
                    out[name.group()] = Doc(", ".join(items), summary)
    return out


def _summary(name: str) -> str:
    b = BUILTINS.get(name)
    return b.summary if b is not None else ""


def builtin_doc(name: str) -> Optional[Doc]:
    doc = builtin_docs().get(name)
    if doc is None and name in BUILTINS:  # a built-in the reference does not list yet
        b = BUILTINS[name]
        return Doc(b.usage or f"{name}(...)", b.summary)
    return doc
