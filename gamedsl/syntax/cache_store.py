"""The private cache folder and its entries: written whole or not at all, pruned to a bound.

Shared by the whole-file cache (gamedsl.syntax.cache) and the per-declaration one
(gamedsl.syntax.decl_cache); what an entry holds is theirs to say.
"""

from __future__ import annotations

import hashlib
import os
import pickle
from typing import Optional

MAX_ENTRIES = 256


MAX_ENTRIES = 256


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


def entry_file(folder: str, key: str, suffix: str) -> str:
    """The file of the entry kept under `key` (a path, and what of it is kept)."""
    name = hashlib.sha256(key.encode("utf-8", "surrogatepass")).hexdigest()[:32]
    return os.path.join(folder, name + suffix)


def load(entry: str):
    """What an entry holds; None if it cannot be read (missing, truncated, from another
    version of Python): a miss, never an error."""
    try:
        with open(entry, "rb") as f:
            return pickle.load(f)
    except Exception:
        return None


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
