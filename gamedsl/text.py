"""Texts from a rule file (a `say`, a name, a table's cell) written where a person reads them.

A rule file is untrusted: a text holding terminal escape sequences would clear the screen,
recolour it or set the window title when printed raw. `visible` writes control characters
as escapes a person can read (`\\x1b`), so they show instead of acting; line breaks and tabs
stay what they are.
"""

from __future__ import annotations

import re

# C0 controls but tab and newline, DEL, the C1 controls (the 8-bit ESC-[ is \x9b), and the
# marks that reorder a line's letters (bidirectional overrides and isolates).
_CONTROL = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u200e\u200f\u202a-\u202e\u2066-\u2069]")


def _escape(m: "re.Match") -> str:
    c = m.group()
    return f"\\x{ord(c):02x}" if ord(c) < 0x100 else f"\\u{ord(c):04x}"


def visible(text: str) -> str:
    """`text` with its control characters written out (`\\x1b`): safe to print."""
    return _CONTROL.sub(_escape, text) if _CONTROL.search(text) else text


def visible_line(text: str) -> str:
    """`visible`, on one line: a line break written out too (`\\n`)."""
    return visible(text).replace("\n", "\\n").replace("\t", "\\t")
