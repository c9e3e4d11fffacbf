"""A changed rule file parsed again one declaration at a time.

`gamedsl.syntax.cache` answers an unchanged file whole. After an edit the whole file used to be
parsed again (~60 ms of lark for the largest games, a fifth of a `gamedsl check`), though
an edit nearly always touches one declaration. Here a file is cut into its top-level
declarations; each is parsed alone, as a file of its own padded with blank lines so its
spans are those of the whole file, and kept by its text and first line. After an edit only
the declarations whose text changed are parsed again; one that only moved (lines added or
removed above it) gets its spans moved with it.

The cut is made only where a top-level declaration must begin: a line starting with a
letter, outside brackets and not continuing the line before. Wherever a declaration fails
to parse alone, the whole file is parsed instead, so a mistake is reported exactly as before.
"""

from __future__ import annotations

from typing import Dict, List, Optional, Tuple

import attrs

from gamedsl.files import real_path
from gamedsl.syntax import ast as A
from gamedsl.syntax.cache_store import entry_file, load, store
from gamedsl.syntax.cuts import declarations
from gamedsl.diagnostics import Diagnostic

SUFFIX = ".decls"
def parse(folder: str, source: str, path: str, version: bytes):
    """`syntax.parse(source, path)` for a game file, declarations already parsed (by their
    text and first line) taken from the folder's record of this path. The pieces not known
    are parsed together where they follow one another (one lark call for the rest of the
    file below an added line, not one per declaration)."""
    from gamedsl.syntax.parser import parse as parse_text

    pieces = declarations(source)
    if len(pieces) < 2:
        return parse_text(source, path)
    record = _record_file(folder, path)
    parsed = _parse_pieces(pieces, _read(record, version, path), path, keep_going=False)
    if parsed is None:
        return parse_text(source, path)  # the whole file, for the diagnostics it gives
    store(folder, record, (version, parsed, path))
    return _joined(pieces, parsed, path)


@attrs.frozen
class Parsed:
    """A parse of one text: the tree and diagnostics of parsing the file whole (tree None
    when it has errors), and `decls`, the declarations that parse on their own even then
    (all of the tree's when it has none), so an editor still knows the names of a file
    while a line of it is half typed."""

    tree: object
    diagnostics: List[Diagnostic]
    decls: tuple


class InMemory:
    """One file's declarations kept in memory between edits, as the folder's record keeps
    them between runs: an editor's server parses each keystroke's text with it. Nothing is
    read from or written to the cache folder, whose pickling would cost more than the parse."""

    def __init__(self, path: str):
        self.path = path
        self._known: dict = {}

    def parse(self, source: str) -> Parsed:
        from gamedsl.syntax.parser import parse as parse_text

        pieces = declarations(source)
        if len(pieces) < 2:
            tree, diags = parse_text(source, self.path)
            return Parsed(tree, diags, tree.decls if tree is not None else ())
        parsed, ok = _parse_pieces(pieces, self._known, self.path, keep_going=True)
        self._known = parsed
        if ok:
            tree, diags = _joined(pieces, parsed, self.path)
            return Parsed(tree, diags, tree.decls)
        tree, diags = parse_text(source, self.path)
        decls = tuple(d for key in pieces if key in parsed for d in parsed[key][1])
        return Parsed(tree, diags, tree.decls if tree is not None else decls)


def _parse_pieces(pieces: List[Tuple[int, str]], known: dict, path: str, keep_going: bool):
    """Each piece's (start, declarations, diagnostics): known, moved or parsed now. When a
    run of pieces does not parse: None, or with `keep_going` (parsed, False) where `parsed`
    holds the pieces that parse alone (each piece of the failed run tried on its own)."""
    from gamedsl.syntax.parser import parse as parse_text

    # a declaration that only moved (lines added or removed above it) is moved, not parsed
    moved = {text: (line, entry) for (line, text), entry in known.items() if line > 1}
    parsed: Dict[Tuple[int, str], tuple] = {}
    missing: List[Tuple[int, str]] = []
    ok = True
    for key in pieces + [None]:
        if key is not None and key not in known:
            if key[0] > 1 and key[1] in moved:
                was, entry = moved[key[1]]
                known[key] = (None, *_moved((entry[1], entry[2]), key[0] - was, path))
            else:
                missing.append(key)
                continue
        if missing and not _parse_run(parse_text, missing, path, parsed):
            if not keep_going:
                return None
            ok = False
            if len(missing) > 1:
                for piece in missing:
                    _parse_run(parse_text, [piece], path, parsed)
        missing = []
        if key is not None:
            parsed[key] = known[key]
    return (parsed, ok) if keep_going else parsed


def _joined(pieces: List[Tuple[int, str]], parsed: dict, path: str):
    """The tree and diagnostics of the whole file, from those of its pieces."""
    entries = [parsed[key] for key in pieces]
    decls = tuple(d for _, ds, _ in entries for d in ds)
    line, col = entries[0][0]
    tree = A.GameFile(A.Span(path, line, col, decls[-1].span.end_line, decls[-1].span.end_col), decls)
    diags: List[Diagnostic] = [d for _, _, ds in entries for d in ds]
    return tree, diags


def _parse_run(parse_text, run: List[Tuple[int, str]], path: str, parsed: dict) -> bool:
    """Parse pieces that follow one another in one call, and share out its declarations and
    warnings by the line they begin on. False if they do not parse without errors."""
    first_line = run[0][0]
    tree, diags = parse_text("\n" * (first_line - 1) + "".join(text for _, text in run), path)
    if tree is None or any(d.is_error for d in diags) or not tree.decls:
        return False
    # (the file's own start is where the parse of its first line began)
    start = (tree.span.line, tree.span.col) if first_line == 1 else None
    ends = [line for line, _ in run[1:]] + [float("inf")]
    for (line, text), end in zip(run, ends):
        parsed[(line, text)] = (start if line == 1 else None,
                                tuple(d for d in tree.decls if line <= d.span.line < end),
                                tuple(d for d in diags if line <= _line_of(d, first_line) < end))
    return True


def _moved(value, lines: int, path: str, to: Optional[str] = None):
    """`value` (nodes, diagnostics, tuples, lists and dicts of them) with every span of the
    file `path` `lines` lines further down, and named `to` where given (the same file named
    by another path)."""
    if isinstance(value, A.Span):
        if value.file != path:
            return value
        return A.Span(to or path, value.line + lines, value.col, value.end_line + lines, value.end_col)
    if isinstance(value, (tuple, list)):
        return type(value)(_moved(v, lines, path, to) for v in value)
    if isinstance(value, dict):
        return {k: _moved(v, lines, path, to) for k, v in value.items()}
    if attrs.has(type(value)):
        return attrs.evolve(value, **{f.name: _moved(getattr(value, f.name), lines, path, to)
                                      for f in attrs.fields(type(value)) if f.init})
    return value


def respelled(value, old: str, new: str):
    """`value` (trees, diagnostics, containers of them) with every span in the file `old`
    in the file `new`: the same file named by another path, which is how a command that
    named it so shows where things are."""
    return _moved(value, 0, old, new)


def _line_of(diag: Diagnostic, default: int):
    return diag.span.line if diag.span is not None else default


def _record_file(folder: str, path: str) -> str:
    return entry_file(folder, f"decls\0{real_path(path)}", SUFFIX)


def _read(record: str, version: bytes, path: str) -> dict:
    saved = load(record)
    if (isinstance(saved, tuple) and len(saved) == 3 and saved[0] == version and isinstance(saved[1], dict)
            and isinstance(saved[2], str)):
        return saved[1] if saved[2] == path else respelled(saved[1], saved[2], path)
    return {}
