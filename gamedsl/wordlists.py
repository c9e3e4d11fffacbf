"""Word lists read from files beside a game: membership and "words formable from letters".

A `words NAME from "file"` declaration names a list; the loader makes a WordList for each
file (one per value of an option named in the file name) and the rules ask it questions.
A list is part of the compiled program, never of the state: it is read on first use and
shared by every game of the process (keyed by the file's path, size and mtime).
"""

from __future__ import annotations

import gzip
import io
from collections import Counter
from itertools import product
from pathlib import Path
from typing import Callable, Dict, List

MAX_LIST_BYTES = 32 * 1024 * 1024   # a list's text, after decompression
MAX_FORMABLE_SETS = 200_000          # sub-multisets tried by one formable() call

_CACHE: Dict[tuple, "WordList"] = {}


class ListError(ValueError):
    pass


def read_list_text(path: Path) -> str:
    """The text of a word list file; `.gz` files are decompressed, never past MAX_LIST_BYTES."""
    raw = path.read_bytes()
    if path.name.endswith(".gz"):
        try:
            with gzip.GzipFile(fileobj=io.BytesIO(raw)) as gz:
                raw = gz.read(MAX_LIST_BYTES + 1)
        except (OSError, EOFError) as err:
            raise ListError(f"'{path.name}' is not a gzip file ({err})") from None
    if len(raw) > MAX_LIST_BYTES:
        raise ListError(f"'{path.name}' holds more than {MAX_LIST_BYTES // 2**20} MiB of text")
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError:
        raise ListError(f"'{path.name}' is not UTF-8 text") from None


class WordList:
    """One list: lower-case words, and an index from sorted letters to the words they spell."""

    def __init__(self, path: str, read: Callable[[], str]):
        self.path = path
        self._read = read
        self._words = None
        self._index = None

    def _load(self) -> None:
        words = {w for w in (line.strip().lower() for line in self._read().splitlines())
                 if w and not w.startswith("#")}
        index: Dict[str, List[str]] = {}
        for w in words:
            index.setdefault("".join(sorted(w)), []).append(w)
        for v in index.values():
            v.sort()
        self._words, self._index = frozenset(words), index

    @property
    def words(self) -> frozenset:
        if self._words is None:
            self._load()
        return self._words

    def __contains__(self, word) -> bool:
        return isinstance(word, str) and word.lower() in self.words

    def formable(self, letters: List[str], doubles: int = 0) -> List[str]:
        """Every word spelt by a sub-multiset of `letters` (one-letter texts), where up to
        `doubles` of the letters used may be used once more. Sorted, each word once."""
        if self._index is None:
            self._load()
        have = Counter(x.lower() for x in letters)
        keys = sorted(have)
        ranges = [range(have[k] + 1) for k in keys]
        total = 1
        for r in ranges:
            total *= len(r)
        if total * (1 + doubles * len(keys)) > MAX_FORMABLE_SETS:
            raise ListError(f"formable: too many letters ({len(letters)})")
        found = set()
        index = self._index
        for counts in product(*ranges):
            base = "".join(k * n for k, n in zip(keys, counts))
            hits = index.get(base)
            if hits:
                found.update(hits)
            if doubles:
                for k, n in zip(keys, counts):
                    if n:
                        hits = index.get("".join(sorted(base + k)))
                        if hits:
                            found.update(hits)
        return sorted(found)


def word_list(path: Path) -> WordList:
    """The list of a file, shared while the file is unchanged."""
    st = path.stat()
    key = (str(path.resolve()), st.st_size, st.st_mtime_ns)
    wl = _CACHE.get(key)
    if wl is None:
        wl = _CACHE[key] = WordList(str(path), lambda: read_list_text(path))
    return wl


def option_in_name(source: str) -> str:
    """'english_{dictionary}.txt.gz' -> 'dictionary': the option named in braces, or ''."""
    start, end = source.find("{"), source.find("}")
    if start < 0 or end < start:
        return ""
    return source[start + 1:end].strip()


# TEMPORARY (replaced by the folding word lists branch): naive readings for development
def _fold(self, text):
    return text.lower()


def _readings(self, line, placed, n, both_ways):
    out = set()
    placed = set(placed)
    for s in range(len(line)):
        for e in range(s + n, len(line) + 1):
            if not any(s <= i < e for i in placed):
                continue
            seg = "".join(line[s:e])
            if seg in self.words:
                out.add((s, e, False, seg))
            if both_ways and seg[::-1] in self.words:
                out.add((s, e, True, seg[::-1]))
    return sorted(out)


WordList.fold = _fold
WordList.readings = _readings
