"""The compiled code of a game's generated sources, kept between runs beside its parsed files.

The compiling back end writes Python for a game as it first runs each part of it (a block,
a choice's listing, an expression, the copier, a search's memo readers) and hands it to
`compile()`: 20-55 ms for a real game, paid again by every process that plays it. The same
text always compiles to the same code, and the generator writes the same text for the same
rules in every process (the names it makes come from what they hold: see
gamedsl/compiler/pysource.py). So the code of each source is kept by the digest of its
text, the way Python keeps a module's in a .pyc:

- one entry per game file in the private cache folder (gamedsl/syntax/cache_store.py:
  signed with the user's key before anything in it is read, written whole or not at all,
  pruned to a bound), read when the process first compiles and then kept in memory, so that
  a game loaded again in the same process (a comparison's rounds, the tests) finds it too;
- what a process compiled is added to the entry at most once a second while it plays and
  when it exits, merged with what other processes wrote meanwhile;
- an entry written by another version of Python, or that cannot be read or verified, is a
  miss: the source is compiled, as it would be without a cache.

Only code the generator wrote is kept; a rule's text never becomes code (the sources hold
the generator's names and numbers only), so a rule file cannot put code in the cache.
"""

from __future__ import annotations

import atexit
import hashlib
import marshal
import os
import time
from typing import Dict, Optional

from gamedsl.files import real_path
from gamedsl.syntax.cache_store import PYTHON, entry_file, load, private_folder, store

_SUFFIX = ".code"
# The most sources an entry keeps (a real game writes ~30-400): each edit of a draft adds the
# sources it changed, so the entry keeps the ones used last and lets the oldest go.
MAX_CODES = 4096
SAVE_EVERY = 1.0  # seconds between two writes of the entry while new code comes
_UNASKED = object()  # (the entry's file, before it is first asked for)


class CodeCache:
    """`compile(source, filename)` answered from the code compiled before, in this process or
    an earlier one, for the game kept under `key` (None: kept nowhere, every source compiled)."""

    def __init__(self, key: Optional[str] = None):
        self.key = key
        self._codes: Optional[Dict[bytes, bytes]] = None  # digest -> marshalled code
        self._ready: Dict[bytes, object] = {}              # digest -> code, unmarshalled
        self._added: Dict[bytes, bytes] = {}               # compiled here, not yet written
        self._used: Dict[bytes, bytes] = {}                # found here in the entry, not yet written
        self._saved_at = 0.0
        self._at_exit = False
        self._where = _UNASKED  # the entry's file (None: none), found once
        self.hits = 0    # sources whose code was found
        self.misses = 0  # sources compiled

    def compile(self, source: str, filename: str):
        """The code of `source` (Python's `compile(source, filename, "exec")`); raises as it
        does. A source met again in this process gets the same code object."""
        return self._code(source, filename, True)

    def compile_own(self, source: str, filename: str):
        """`compile`, but a code object no one else was given: for functions made from one
        source that meet values of different types (Python specialises a code object to the
        types it meets, and one shared by such functions would keep changing)."""
        return self._code(source, filename, False)

    def _code(self, source: str, filename: str, shared: bool):
        digest = hashlib.sha256(f"{filename}\0{source}".encode("utf-8", "surrogatepass")).digest()
        code = self._ready.get(digest) if shared else None
        if code is not None:
            self.hits += 1
            return code
        if self._codes is None:
            self._codes = self._read()
            self._saved_at = time.monotonic()
        blob = self._codes.get(digest)
        if blob is not None:
            try:
                code = marshal.loads(blob)
                if shared:
                    self._ready[digest] = code
                self._used[digest] = blob
                self.hits += 1
                return code
            except (EOFError, ValueError, TypeError):
                pass  # (a damaged blob under a good signature: compiled again)
        code = compile(source, filename, "exec")
        self.misses += 1
        if max(len(self._codes), len(self._ready)) >= MAX_CODES:  # (many drafts met: the oldest go)
            self._codes.clear()
            self._ready.clear()
        if shared:
            self._ready[digest] = code
        if self.key is not None:  # (a cache kept nowhere has nothing to write)
            self._codes[digest] = self._added[digest] = marshal.dumps(code)
            self._keep()
        return code

    def _keep(self) -> None:
        if not self._at_exit:
            self._at_exit = True
            atexit.register(self.save)
        if time.monotonic() - self._saved_at >= SAVE_EVERY:
            self.save()

    def _entry(self) -> Optional[str]:
        """The entry's file, in the cache folder as it was when first asked (what is compiled
        is written where it was read from, whatever the environment says by then)."""
        if self._where is _UNASKED:
            folder = private_folder() if self.key is not None else None
            self._where = entry_file(folder, "code\0" + self.key, _SUFFIX) if folder is not None else None
        return self._where

    def _read(self) -> Dict[bytes, bytes]:
        entry = self._entry()
        saved = load(entry) if entry is not None else None
        if (isinstance(saved, tuple) and len(saved) == 2 and saved[0] == PYTHON
                and isinstance(saved[1], dict)):
            return {k: v for k, v in saved[1].items() if type(k) is bytes and type(v) is bytes}
        return {}

    def save(self) -> None:
        """Add the code compiled here to the entry (as others left it), if there is any new:
        last, with the code found there, so that an entry grown too big keeps those."""
        self._saved_at = time.monotonic()
        if not self._added:
            return
        entry = self._entry()
        if entry is None:
            return
        merged = self._read()
        for digest in (*self._used, *self._added):
            merged.pop(digest, None)
        merged.update(self._used)
        merged.update(self._added)
        if len(merged) > MAX_CODES:
            merged = dict(list(merged.items())[-MAX_CODES:])
        self._added, self._used = {}, {}
        store(os.path.dirname(entry), entry, (PYTHON, merged))


_CACHES: Dict[str, CodeCache] = {}


def for_game(path: str) -> CodeCache:
    """The code cache of the game file at `path`, one a process."""
    key = real_path(path)
    cache = _CACHES.get(key)
    if cache is None:
        cache = _CACHES[key] = CodeCache(key)
    return cache
