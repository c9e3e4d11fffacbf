"""Parsed files kept between runs, the way Python keeps .pyc files.

Reading a rule file with lark costs ~0.1 s for the real games, plus ~0.06 s to import lark and
load the built parser: most of a cold `gamedsl check`. A file whose text has not changed since
it was last read gets its syntax tree (and its parse warnings) back from the cache folder, and
lark is not imported at all. A changed file misses and is parsed again — a rule file only
in the declarations that changed (gamedsl/decl_cache.py); a changed parser (the grammar or
the modules that build the tree) misses every entry.

The folder is private (mode 0700, owned by the user) because entries are pickles; an entry
that cannot be read is a miss, never an error. Only parses without errors are kept, and the
folder keeps at most MAX_ENTRIES of them (the oldest go first).
"""

from __future__ import annotations

import hashlib
import os
import pickle
from pathlib import Path
from typing import List, Optional, Tuple

from .diagnostics import Diagnostic

MAX_SOURCE_BYTES = 4 * 1024 * 1024  # larger sources are refused before they are read or parsed
MAX_ENTRIES = 256
# What the tree of a given text depends on: any change to these misses every entry.
_PARSER_MODULES = ("syntax.py", "to_ast.py", "ast.py", "diagnostics.py", "builtins.py", "decl_cache.py")
_SUFFIX = ".ast"


def grammar_text() -> str:
    """The grammar: installed as package data (gamedsl/grammar/), or in a checkout, grammar/.
    Found by path rather than with importlib.resources, whose import costs every run ~30 ms."""
    here = Path(__file__).resolve().parent
    installed = here / "grammar" / "gamedsl.lark"
    return (installed if installed.is_file() else here.parent / "grammar" / "gamedsl.lark").read_text("utf-8")


def private_folder() -> Optional[str]:
    """~/.cache/gamedsl (or under $XDG_CACHE_HOME), made private; None when it cannot be."""
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    folder = os.path.join(base, "gamedsl")
    try:
        os.makedirs(folder, mode=0o700, exist_ok=True)
        if os.stat(folder).st_uid != os.getuid():
            return None
    except (OSError, AttributeError):
        return None
    return folder


_parser_digest: Optional[bytes] = None


def _parser_version() -> bytes:
    global _parser_digest
    if _parser_digest is None:
        h = hashlib.sha256(grammar_text().encode("utf-8"))
        here = Path(__file__).resolve().parent
        for name in _PARSER_MODULES:
            h.update((here / name).read_bytes())
        _parser_digest = h.digest()
    return _parser_digest


def _entry(folder: str, source: str, path: str, start: str) -> Tuple[str, bytes]:
    """The entry's file (one per path and start rule) and the digest its contents must carry."""
    digest = hashlib.sha256(_parser_version() + source.encode("utf-8", "surrogatepass")).digest()
    return entry_file(folder, f"{start}\0{path}", _SUFFIX), digest


def entry_file(folder: str, key: str, suffix: str) -> str:
    """The file of the entry kept under `key` (a path, and what of it is kept)."""
    name = hashlib.sha256(key.encode("utf-8", "surrogatepass")).hexdigest()[:32]
    return os.path.join(folder, name + suffix)


def _read(entry: str, digest: bytes):
    saved = load(entry)
    if not (isinstance(saved, tuple) and len(saved) == 3 and saved[0] == digest):
        return None
    return saved[1], list(saved[2])


def load(entry: str):
    """What an entry holds; None if it cannot be read (missing, truncated, from another
    version of Python): a miss, never an error."""
    try:
        with open(entry, "rb") as f:
            return pickle.load(f)
    except Exception:
        return None


def _write(folder: str, entry: str, digest: bytes, tree, diags: List[Diagnostic]) -> None:
    store(folder, entry, (digest, tree, tuple(diags)))


def store(folder: str, entry: str, payload) -> None:
    """Write an entry whole or not at all (a reader never sees half of one), then prune
    the entries of its kind (its suffix)."""
    tmp = f"{entry}.{os.getpid()}.tmp"
    try:
        with open(os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600), "wb") as f:
            pickle.dump(payload, f, protocol=pickle.HIGHEST_PROTOCOL)
        os.replace(tmp, entry)
        _prune(folder, os.path.splitext(entry)[1])
    except (OSError, pickle.PicklingError, RecursionError):
        try:
            os.unlink(tmp)
        except OSError:
            pass


def _prune(folder: str, suffix: str) -> None:
    entries = [e for e in os.scandir(folder) if e.name.endswith(suffix)]
    if len(entries) <= MAX_ENTRIES:
        return
    entries.sort(key=lambda e: e.stat().st_mtime)
    for e in entries[:len(entries) - MAX_ENTRIES // 2]:
        try:
            os.unlink(e.path)
        except OSError:
            pass


def parse(source: str, path: str = "<text>", start: str = "game_file") -> Tuple[Optional[object], List[Diagnostic]]:
    """`gamedsl.syntax.parse`, answered from the cache when this text was parsed before."""
    folder = private_folder()
    if folder is None:
        from .syntax import parse as parse_text
        return parse_text(source, path, start)
    entry, digest = _entry(folder, source, path, start)
    hit = _read(entry, digest)
    if hit is not None:
        # A hit is touched so that pruning drops the entries not used for longest.
        try:
            os.utime(entry)
        except OSError:
            pass
        return hit
    if start == "game_file":
        from .decl_cache import parse as parse_by_declaration
        tree, diags = parse_by_declaration(folder, source, path, _parser_version())
    else:
        from .syntax import parse as parse_text
        tree, diags = parse_text(source, path, start)
    if tree is not None and not any(d.is_error for d in diags):
        _write(folder, entry, digest, tree, diags)
    return tree, diags
