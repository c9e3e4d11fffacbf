"""Parsed files kept between runs, the way Python keeps .pyc files.

Reading a rule file with lark costs ~0.1 s for the real games, plus ~0.06 s to import lark and
load the built parser: most of a cold `gamedsl check`. A file whose text has not changed since
it was last read gets its syntax tree (and its parse warnings) back from the cache folder, and
lark is not imported at all. A changed file misses and is parsed again — a rule file only
in the declarations that changed (gamedsl/syntax/decl_cache.py); a changed parser (the grammar or
the modules that build the tree) misses every entry.

Entries are pickles, so each is signed with the user's own key and unpickled only once the
signature is verified, in a folder nobody else may write (gamedsl/syntax/cache_store.py); an
entry that cannot be read or verified is a miss, never an error. Only parses without errors are kept, and the
folder keeps at most MAX_ENTRIES of them (the oldest go first).
"""

from __future__ import annotations

import hashlib
import os
from pathlib import Path
from typing import List, Optional, Tuple

from gamedsl.diagnostics import Diagnostic
from gamedsl.files import real_path
from gamedsl.language import grammar_text
from gamedsl.syntax.cache_store import entry_file, load, private_folder, store
from gamedsl.syntax.decl_cache import parse as parse_by_declaration
from gamedsl.syntax.decl_cache import respelled

# What the tree of a given text depends on: any change to these misses every entry.
_PARSER_MODULES = ("syntax/parser.py", "syntax/to_ast.py", "syntax/ast.py", "syntax/decl_cache.py", "syntax/cuts.py", "diagnostics.py",
                   "language.py")
_SUFFIX = ".ast"


_parser_digest: Optional[bytes] = None


def _parser_version() -> bytes:
    global _parser_digest
    if _parser_digest is None:
        h = hashlib.sha256(grammar_text().encode("utf-8"))
        here = Path(__file__).resolve().parent.parent
        for name in _PARSER_MODULES:
            h.update((here / name).read_bytes())
        _parser_digest = h.digest()
    return _parser_digest


def _entry(folder: str, source: str, path: str, start: str) -> Tuple[str, bytes]:
    """The entry's file (one per file, whatever path names it, and start rule) and the
    digest its contents must carry."""
    digest = hashlib.sha256(_parser_version() + source.encode("utf-8", "surrogatepass")).digest()
    return entry_file(folder, f"{start}\0{real_path(path)}", _SUFFIX), digest


def _read(entry: str, digest: bytes, path: str):
    saved = load(entry)
    if not (isinstance(saved, tuple) and len(saved) == 4 and saved[0] == digest and isinstance(saved[3], str)):
        return None
    tree, diags = saved[1], list(saved[2])
    if saved[3] != path:  # (kept as read through another path: the spans say this one)
        tree, diags = respelled((tree, diags), saved[3], path)
    return tree, diags


def _write(folder: str, entry: str, digest: bytes, tree, diags: List[Diagnostic], path: str) -> None:
    store(folder, entry, (digest, tree, tuple(diags), path))


def parse(source: str, path: str = "<text>", start: str = "game_file") -> Tuple[Optional[object], List[Diagnostic]]:
    """`gamedsl.syntax.parse`, answered from the cache when this text was parsed before."""
    folder = private_folder()
    if folder is None:
        return _parse_text(source, path, start)
    entry, digest = _entry(folder, source, path, start)
    hit = _read(entry, digest, path)
    if hit is not None:
        # A hit is touched so that pruning drops the entries not used for longest.
        try:
            os.utime(entry)
        except OSError:
            pass
        return hit
    if start == "game_file":
        tree, diags = parse_by_declaration(folder, source, path, _parser_version())
    else:
        tree, diags = _parse_text(source, path, start)
    if tree is not None and not any(d.is_error for d in diags):
        _write(folder, entry, digest, tree, diags, path)
    return tree, diags


def _parse_text(source: str, path: str, start: str):
    # The parser imports lark (~50 ms): only a miss pays for it.
    from gamedsl.syntax.parser import parse

    return parse(source, path, start)
