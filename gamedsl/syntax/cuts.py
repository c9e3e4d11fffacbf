"""Where a rule file may be cut into its top-level declarations, each of which parses alone:
used to parse again only the declarations an edit changed (gamedsl/syntax/decl_cache.py) and
to go on reading a file after a syntax error (gamedsl/syntax/parser.py)."""

from __future__ import annotations

from typing import List, Tuple

_OPEN, _CLOSE = "([", ")]"


def declarations(source: str) -> List[Tuple[int, str]]:
    """The source cut into (first line, text) pieces, each one or more whole top-level
    declarations (comments and blank lines go with the declaration above, those at the top
    with the first); joined, the pieces are the source."""
    pieces: List[Tuple[int, List[str]]] = []
    depth, continued, has_decl = 0, False, False
    lines = source.split("\n")
    for number, line in enumerate(lines, 1):
        text = line + "\n" if number < len(lines) else line
        first = line[:1]
        starts = depth == 0 and not continued and first.isascii() and first.isalpha()
        if not pieces or (starts and has_decl):
            pieces.append((number, []))
            has_decl = False
        pieces[-1][1].append(text)
        has_decl = has_decl or starts
        depth, continued = _scan(line, depth)
    return [(number, "".join(texts)) for number, texts in pieces if texts]


def _scan(line: str, depth: int) -> Tuple[int, bool]:
    """The bracket depth after `line`, and whether it ends in a `\\` that joins the next
    line to it (as the grammar's line continuation). Texts and comments are skipped as the
    lexer skips them; a text left open poisons the depth, so nothing below is cut."""
    in_text, escaped, last = False, False, ""
    for ch in line:
        if in_text:
            if escaped:
                escaped = False
            elif ch == "\\":
                escaped = True
            elif ch == '"':
                in_text = False
            continue
        if ch == "#":
            return depth, False
        if ch == '"':
            in_text = True
        elif ch in _OPEN:
            depth += 1
        elif ch in _CLOSE:
            depth -= 1
        if ch not in " \t\f\r":
            last = ch
    if in_text:
        return -(1 << 30), False
    return depth, last == "\\"
