"""The private cache folder and its entries: written whole or not at all, pruned to a bound,
and signed.

Shared by the whole-file cache (gamedsl.syntax.cache), the per-declaration one
(gamedsl.syntax.decl_cache), the built parser (gamedsl.syntax.parser), the compiled code
(gamedsl.compiler.codecache) and the indexes of word lists (`Kept`); what an entry holds is
theirs to say.

Entries are pickles, and unpickling runs whatever the pickle says: so an entry is unpickled
only once its signature is verified, an HMAC-SHA256 under a key of the user's own (random,
kept in the folder in a file only the user may read). Whoever could plant an entry cannot
sign it. The folder must be the user's and writable by nobody else (else no cache is used
and every file is parsed: others could replace the key, or the entries, at will).
"""

from __future__ import annotations

import hashlib
import hmac
import importlib.util
import os
import pickle
import stat
import sys
from typing import Optional

# The Python that wrote an entry of compiled code or marshalled data (whose formats are that
# version's): an entry written by another is a miss.
PYTHON = f"{sys.implementation.cache_tag}:{importlib.util.MAGIC_NUMBER.hex()}"
MAX_ENTRIES = 256
MAX_ENTRY_BYTES = 64 * 1024 * 1024  # (the built parser is ~1 MB, a parsed game less)
_KEY_NAME = "key"
_KEY_BYTES = 32
_MAC_BYTES = 32
_NOFOLLOW = getattr(os, "O_NOFOLLOW", 0)


def private_folder() -> Optional[str]:
    """~/.cache/gamedsl (or under $XDG_CACHE_HOME), made private; None when it cannot be: not
    a folder of the user's (a link, another owner's), or one others may write into."""
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    folder = os.path.join(base, "gamedsl")
    try:
        os.makedirs(folder, mode=0o700, exist_ok=True)
        st = os.lstat(folder)
        if not stat.S_ISDIR(st.st_mode) or st.st_uid != os.getuid() or st.st_mode & 0o022:
            return None
    except (OSError, AttributeError):
        return None
    return folder


_keys: dict = {}  # folder -> its key, read once a process


def _key(folder: str) -> Optional[bytes]:
    """The user's signing key, made on first use; None when the file holding it is not the
    user's alone (then nothing is read from the cache, nor written)."""
    key = _keys.get(folder)
    if key is None:
        key = _keys[folder] = _read_key(folder)
    return key


def _read_key(folder: str) -> Optional[bytes]:
    path = os.path.join(folder, _KEY_NAME)
    for _ in range(2):
        try:
            fd = os.open(path, os.O_RDONLY | _NOFOLLOW)
        except FileNotFoundError:
            try:
                fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL | _NOFOLLOW, 0o600)
            except FileExistsError:
                continue  # another process made it meanwhile: read theirs
            except OSError:
                return None
            try:
                key = os.urandom(_KEY_BYTES)
                os.write(fd, key)
                return key
            finally:
                os.close(fd)
        except OSError:
            return None
        try:
            st = os.fstat(fd)
            if not stat.S_ISREG(st.st_mode) or st.st_uid != os.getuid() or st.st_mode & 0o077:
                return None
            key = os.read(fd, _KEY_BYTES + 1)
        finally:
            os.close(fd)
        return key if len(key) == _KEY_BYTES else None
    return None


def entry_file(folder: str, key: str, suffix: str) -> str:
    """The file of the entry kept under `key` (a path, and what of it is kept)."""
    name = hashlib.sha256(key.encode("utf-8", "surrogatepass")).hexdigest()[:32]
    return os.path.join(folder, name + suffix)


def _sign(key: bytes, entry: str, data: bytes) -> bytes:
    # (the entry's own name is signed too: an entry copied over another is not that one)
    return hmac.new(key, os.path.basename(entry).encode() + b"\0" + data, hashlib.sha256).digest()


def load(entry: str):
    """What an entry holds; None if it cannot be read (missing, truncated, from another
    version of Python) or its signature is not the user's: a miss, never an error. Nothing
    is unpickled before its signature is verified."""
    key = _key(os.path.dirname(entry))
    if key is None:
        return None
    try:
        fd = os.open(entry, os.O_RDONLY | _NOFOLLOW)
        try:
            st = os.fstat(fd)
            if not stat.S_ISREG(st.st_mode) or st.st_size > MAX_ENTRY_BYTES:
                return None
            with os.fdopen(fd, "rb") as f:
                fd = -1
                blob = f.read(MAX_ENTRY_BYTES + 1)
        finally:
            if fd >= 0:
                os.close(fd)
        mac, data = blob[:_MAC_BYTES], blob[_MAC_BYTES:]
        if len(mac) != _MAC_BYTES or not hmac.compare_digest(mac, _sign(key, entry, data)):
            return None
        return pickle.loads(data)
    except Exception:
        return None


def store(folder: str, entry: str, payload) -> None:
    """Write an entry whole or not at all (a reader never sees half of one), signed, then
    prune the entries of its kind (its suffix)."""
    key = _key(folder)
    if key is None:
        return
    tmp = f"{entry}.{os.getpid()}.tmp"
    try:
        data = pickle.dumps(payload, protocol=pickle.HIGHEST_PROTOCOL)
        with open(os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC | _NOFOLLOW, 0o600), "wb") as f:
            f.write(_sign(key, entry, data) + data)
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


class Kept:
    """Blobs kept by name in the private cache folder, one signed entry each (`suffix`: their
    kind): for a part of the engine that must not know where, or how, they are kept (the
    runtime's word lists keep an index through one). A blob written by another version of
    Python, or an entry that cannot be read or verified, is not found."""

    def __init__(self, suffix: str):
        self.suffix = suffix

    def get(self, name: str) -> Optional[bytes]:
        folder = private_folder()
        if folder is None:
            return None
        saved = load(entry_file(folder, name, self.suffix))
        if isinstance(saved, tuple) and len(saved) == 2 and saved[0] == PYTHON and type(saved[1]) is bytes:
            return saved[1]
        return None

    def put(self, name: str, blob: bytes) -> None:
        folder = private_folder()
        if folder is not None:
            store(folder, entry_file(folder, name, self.suffix), (PYTHON, blob))
