"""Word lists read from files beside a game: membership, "words formable from letters",
and words read from letters where some letters count as others (a `words` block's folding).

A `words NAME from "file"` declaration names a list; the loader makes a WordList for each
file (one per value of an option named in the file name) and the rules ask it questions.
A list is part of the compiled program, never of the state: it is read on first use and
shared by every game of the process (keyed by the file's path, size and mtime).
"""

from __future__ import annotations

import gzip
import hashlib
import io
import marshal
from bisect import bisect_left
from collections import Counter
from itertools import product
from pathlib import Path
from typing import Callable, Dict, Iterable, List, Optional, Sequence, Tuple

import attrs

from gamedsl.errors import RuleError
from gamedsl.files import FileRefused, read_bytes

MAX_LIST_BYTES = 16 * 1024 * 1024   # a list's file, and its text after decompression
# Letters in the tree the lists are searched by (a node per letter of a prefix; a `match`
# letter adds a branch per letter it matches, for every word holding it): the largest real
# list makes ~560,000. Far more would fill the memory (a dict a node).
MAX_TRIE_NODES = 1_200_000
MAX_FORMABLE_SETS = 200_000          # sub-multisets tried by one formable() call
MAX_WILD_STEPS = 50_000              # remembered steps over a wild mark (and after it), per list
MAX_FOLDED = 100_000                 # remembered folded texts, per list
MAX_FORMED = 10_000                  # remembered answers of formable, per list

_CACHE: Dict[tuple, "WordList"] = {}


class ListError(RuleError):
    """A word list that cannot be used (unreadable, too large): a rule error where the rules
    first use the list (the caller that knows the line adds it)."""

    def __init__(self, message: str):
        super().__init__("E504", message)


def read_list_text(path: Path, checked=None) -> str:
    """The text of a word list file; `.gz` files are decompressed, never past MAX_LIST_BYTES.
    `checked`: the file's identity and the game's folder when it was found (gamedsl.files)."""
    try:
        raw = read_bytes(path, MAX_LIST_BYTES, *(checked or ()))
    except FileRefused as err:
        raise ListError(f"'{path.name}' {err}") from None
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


@attrs.frozen
class Folding:
    """Which letters of a list count as equal (a `words` block): `fold` pairs each key letter
    with the letter it counts as, `matches` pairs a letter of dictionary words with the letters
    it stands for, `wild` is the mark that matches any letter in letters being read. Hashable:
    it is part of a list's cache key."""

    fold: Tuple[Tuple[str, str], ...] = ()
    matches: Tuple[Tuple[str, str], ...] = ()
    wild: Optional[str] = None

    def __bool__(self) -> bool:
        return bool(self.fold or self.matches or self.wild)


class _Folds(dict):
    """WordList.fold: a text -> the text lower-cased, each letter replaced by the one it counts
    as (once); worked out when first asked, at most MAX_FOLDED kept."""

    __slots__ = ("table",)

    def __init__(self, table: dict):
        super().__init__()
        self.table = table

    def __missing__(self, text: str) -> str:
        if len(self) >= MAX_FOLDED:
            self.clear()
        folded = self[text] = text.lower().translate(self.table)
        return folded


NO_FOLDING = Folding()
_END = ""  # a trie node's key for the words that end there: no cell is ever the empty text


class WordList:
    """One list: lower-case words, and indexes built on first use: sorted letters -> the
    words they spell (formable), and a trie over folded letters (folding, matching, readings).

    The trie is nested dicts: a node maps a folded letter to the next node, and _END to the
    words (as spelt, a tuple) that end there. A match letter of a word is expanded when the trie is
    built (one branch for itself and one for each letter of its set), so a query walks letters
    with one dict look-up each; only a wild mark in the query branches, over a node's children."""

    def __init__(self, path: str, read: Callable[[], str], folding: Folding = NO_FOLDING, kept=None):
        self.path = path
        self._read = read
        # where formable's index is kept between runs, by the digest of the list's text: an
        # object with get(name) -> bytes or None, and put(name, blob)
        # (gamedsl.syntax.cache_store.Kept); None: built in every process
        self._kept = kept
        self._digest = ""
        self.folding = folding
        self._fold = {k.lower(): v.lower() for k, v in folding.fold}
        self._fold_table = str.maketrans(self._fold)  # one letter to one letter (the checker sees to it)
        self._wild = folding.wild.lower() if folding.wild else None
        self._words = None
        self._index = None
        self._trie = None
        self._sorted_trie = None  # see _formable_walk
        self._sorted_keys: tuple = ()
        self._cells: Dict[object, object] = {}  # a cell's text -> its folded letter (memo)
        self._formed: Dict[tuple, List[str]] = {}  # (letters, doubles) -> formable(...) (memo)
        # a text -> fold(text), worked out on the first ask (a search folds the same words again);
        # `fold` is the memo's own look-up, so a text folded before costs no Python call
        self._folded = _Folds(self._fold_table)
        self.fold = self._folded.__getitem__
        self._wild_steps: Dict[tuple, list] = {}  # see _below
        self._steps: Dict[tuple, tuple] = {}  # see _then
        # a match letter (folded) -> the letters it matches: itself and its set, folded
        self._expands: Dict[str, tuple] = {}
        for letter, letters in folding.matches:
            key = self.fold(letter)
            self._expands[key] = tuple(dict.fromkeys([key] + list(self.fold(letters))))

    def _load(self) -> None:
        text = self._read()
        self._digest = hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()
        self._words = frozenset(w for w in (line.strip().lower() for line in text.splitlines())
                                if w and not w.startswith("#"))

    @property
    def words(self) -> frozenset:
        if self._words is None:
            self._load()
        return self._words

    # ------------------------------------------------------------ folding

    def _cell(self, text):
        """A letter being read, folded; _WILD for the wild mark; None if it is not one letter
        (an empty cell, none, a longer text), which nothing matches."""
        try:
            return self._cells[text]
        except KeyError:
            pass
        except TypeError:  # unhashable: not a letter
            return None
        if not isinstance(text, str) or len(text) != 1:
            out = None
        else:
            low = text.lower()
            out = _WILD if low == self._wild else self._fold.get(low, low)
        if len(self._cells) < 4096:  # letters are few; a stream of odd texts must not grow it
            self._cells[text] = out
        return out

    def _build_trie(self) -> dict:
        expand = self._expands
        root: dict = {}
        made = [0]

        def child(node, letter):
            nxt = node.get(letter)
            if nxt is None:
                made[0] += 1
                if made[0] > MAX_TRIE_NODES:
                    raise ListError(f"'{Path(self.path).name}' with its folding makes more than "
                                    f"{MAX_TRIE_NODES:,} letters to search (a 'match' letter "
                                    "matching many, in long words?)")
                nxt = node[letter] = {}
            return nxt

        def insert(node, letters, i, word):
            # Shares the walk of a common prefix among a word's expansions.
            while i < len(letters):
                alts = expand.get(letters[i])
                if alts is not None:
                    for a in alts:
                        insert(child(node, a), letters, i + 1, word)
                    return
                nxt = node.get(letters[i])  # (child(), written out: the hot loop of loading a list)
                node = nxt if nxt is not None else child(node, letters[i])
                i += 1
            # (a tuple of texts: the cyclic garbage collector stops tracking it)
            ends = node.get(_END)
            node[_END] = (word,) if ends is None else ends + (word,)

        for w in sorted(self.words):
            insert(root, self.fold(w), 0, w)
        return root

    @property
    def trie(self) -> dict:
        if self._trie is None:
            self._trie = self._build_trie()
        return self._trie

    def _walk(self, cells) -> list:
        """The trie nodes reached by reading prepared cells from the root."""
        nodes = [self.trie]
        for c in cells:
            if c is None:
                return []
            if c is _WILD:
                nodes = [child for nd in nodes for k, child in nd.items() if k is not _END]
            else:
                nodes = [child for nd in nodes if (child := nd.get(c)) is not None]
            if not nodes:
                return []
        return nodes

    def __contains__(self, word) -> bool:
        if not isinstance(word, str):
            return False
        if not self.folding:
            return word.lower() in self.words
        return any(_END in nd for nd in self._walk([self._cell(ch) for ch in word]))

    def matching(self, letters: Sequence) -> List[str]:
        """The words (as spelt, sorted, each once) matching `letters` (one-letter texts, maybe
        the wild mark) position by position."""
        found = {w for nd in self._walk([self._cell(x) for x in letters]) for w in nd.get(_END, ())}
        return sorted(found)

    def reads(self, word: str, letters: Sequence) -> bool:
        """Is `word` a word of the list read from `letters` (one-letter texts, maybe the wild
        mark) position by position? Some word of the list must match both, and each letter of
        `word` must be the letter being read (folded), or be read from a wild mark, or be the
        list word's own match letter there: so a list's "a?" is read from "ae" as "ae" or
        "a?", never as "ai"."""
        if not isinstance(word, str) or len(word) != len(letters):
            return False
        both = set(self.matching(letters)).intersection(self.matching(list(word)))
        if not both:
            return False
        typed = [self._cell(ch) for ch in word]
        read = [self._cell(x) for x in letters]
        for d in both:
            own = self.fold(d)
            if all(t == r or t is _WILD or r is _WILD or (t == own[i] and t in self._expands)
                   for i, (t, r) in enumerate(zip(typed, read))):
                return True
        return False

    def readings(self, line: Sequence, placed: Iterable[int], n: int,
                 both_ways: bool) -> List[Tuple[int, int, bool, str]]:
        """Every word readable on consecutive cells line[start:end] (end - start >= n) whose
        span holds an index of `placed`: (start, end, backwards, word), sorted, each once.
        Backwards readings (with both_ways) read line[end-1], ..., line[start]."""
        return sorted(self.read_through(line, placed, n, both_ways))

    def read_through(self, line: Sequence, placed: Iterable[int], n: int, both_ways: bool) -> set:
        """The readings as a set, unsorted."""
        found: set = set()
        self._read_cells(line, placed, n, both_ways, found, False)
        return found

    def words_through(self, line: Sequence, placed: Iterable[int], n: int, both_ways: bool) -> set:
        """The words of the readings, as a set (for a caller that wants only the words: no
        reading is made, each word ending on a walk's node is added at once)."""
        found: set = set()
        self._read_cells(line, placed, n, both_ways, found, True)
        return found

    def _read_cells(self, line, placed, n, both_ways, found: set, words_only: bool) -> None:
        known = self._cells
        try:
            cells = [known[c] for c in line]
        except (KeyError, TypeError):  # (a letter not met yet, or no letter)
            cells = [self._cell(c) for c in line]
        size = len(cells)
        marks = sorted({int(p) for p in placed if 0 <= p < size})
        if not marks:
            return
        self._read_line(cells, marks, n, False, found, words_only)
        if both_ways:
            self._read_line(cells[::-1], [size - 1 - p for p in reversed(marks)], n, True, found, words_only)

    def _read_line(self, cells, marks, n, backwards, found, words_only) -> None:
        size = len(cells)
        root = self.trie
        last = size - 1
        add = found.add
        k = 0
        for s in range(marks[-1] + 1):
            # the first cell a word from s may end on: the first placed one from s on, and n long
            while marks[k] < s:
                k += 1
            need = marks[k]
            if need < s + n - 1:
                need = s + n - 1
            node = root
            # One node while no wild is read (the hot loop); a None cell is no key: the walk ends.
            for e in range(s, size):
                c = cells[e]
                if c is _WILD:
                    self._read_wild(cells, s, e, need, [node], backwards, found, words_only)
                    break
                node = node.get(c)
                if node is None:
                    break
                if e >= need:
                    ws = node.get(_END)
                    if ws:
                        if words_only:
                            found.update(ws)
                        else:
                            for w in ws:
                                add((last - e, size - s, True, w) if backwards else (s, e + 1, False, w))

    def _read_wild(self, cells, s, e, need, nodes, backwards, found, words_only) -> None:
        """The rest of a walk from s that meets a wild mark at e: several nodes at once."""
        size = len(cells)
        last = size - 1
        then = self._then
        while e < size:
            c = cells[e]
            if c is _WILD:
                after = cells[e + 1] if e + 1 < size else None
                if e >= need:  # words ending on the wild mark
                    ws = then(nodes, _WILD, _END)
                    if words_only:
                        found.update(ws)
                    else:
                        for w in ws:
                            found.add((last - e, size - s, True, w) if backwards else (s, e + 1, False, w))
                if after is None:
                    return
                # the wild mark and the letter after it in one step
                nodes = then(nodes, _WILD, after)
                e += 1
            else:
                nodes = then(nodes, c)
            if not nodes:
                return
            if e >= need:
                ws = then(nodes, _END)
                if words_only:
                    found.update(ws)
                else:
                    for w in ws:
                        found.add((last - e, size - s, True, w) if backwards else (s, e + 1, False, w))
            e += 1

    def _then(self, nodes: list, *step) -> list:
        """From the trie nodes `nodes`: (c) the nodes a letter leads to; (_END) the words
        ending there; (_WILD, c) as _below. Remembered for the lists it makes, which walks
        over wild marks meet again and again (a list is never changed once made, and is kept
        alive with its answers, so its id names it)."""
        if len(nodes) == 1 and step[0] is _WILD:
            return self._below(nodes[0], step[1])
        key = (id(nodes), *step)
        known = self._steps.get(key)
        if known is not None:
            return known[1]
        if step[0] is _WILD:
            out = [x for nd in nodes for x in self._below(nd, step[1])]
        elif step[0] is _END:
            out = [w for nd in nodes for w in nd.get(_END, ())]
        else:
            c = step[0]
            out = [child for nd in nodes if (child := nd.get(c)) is not None]
        if len(self._steps) >= MAX_WILD_STEPS:
            self._steps.clear()
        self._steps[key] = (nodes, out)
        return out

    def _below(self, node: dict, c) -> list:
        """One wild letter below `node`, then `c`: the nodes reached for a letter (every child
        for _WILD), or for _END the words that end on the wild letter. Remembered: the same
        few nodes (the root, short prefixes) meet wild marks again and again."""
        key = (id(node), c)
        out = self._wild_steps.get(key)
        if out is None:
            kids = [child for k, child in node.items() if k is not _END]
            if c is _END:
                out = [w for child in kids for w in child.get(_END, ())]
            elif c is _WILD:
                out = [x for child in kids for k, x in child.items() if k is not _END]
            else:
                out = [x for child in kids if (x := child.get(c)) is not None]
            if len(self._wild_steps) >= MAX_WILD_STEPS:
                self._wild_steps.clear()
            self._wild_steps[key] = out
        return out

    # ------------------------------------------------------------ formable

    def _formable_walk(self, have: Counter, doubles: int) -> List[str]:
        """formable() for one-character letters: a tree of the words' sorted letters walked
        with the letters in hand, so only keys the hand can spell are visited. A letter is
        used from the hand while it lasts; then, with `doubles` left, once more if the hand
        held it (a word using it n + 1 times, n >= 1 of them from the hand). A branch with
        one key left is that key's rest and its words (a node per letter would take ~50 MB);
        branches are made as walks first reach them."""
        keys, entries = self._sorted_keys
        if self._sorted_trie is None:
            self._sorted_trie = _key_level(keys, entries, 0, 0, len(entries)) if entries else {}
        left = dict(have)
        found: set = set()

        def fits(rest, extra):
            used = []
            ok = True
            for ch in rest:
                n = left.get(ch)
                if n:
                    left[ch] = n - 1
                    used.append(ch)
                elif extra and n == 0:
                    extra -= 1
                else:
                    ok = False
                    break
            for ch in used:
                left[ch] += 1
            return ok

        # (a key's letters are sorted: below the branch of a letter, only that letter and those
        # after it can follow, so a node is asked only for the hand's letters from there on)
        held = sorted(left)

        def walk(node, extra, start):
            ws = node.get(_END)
            if ws:
                found.update(ws)
            for i in range(start, len(held)):
                ch = held[i]
                n = left[ch]
                if not n and not extra:  # (0: used up; once more only with a double left)
                    continue
                nxt = node.get(ch)
                if nxt is None:
                    continue
                if type(nxt) is int:
                    nxt = node[ch] = _key_level(keys, entries, nxt >> 48, (nxt >> 24) & _FIELD, nxt & _FIELD)
                if n:
                    left[ch] = n - 1
                    step(nxt, extra, i)
                    left[ch] = n
                else:
                    step(nxt, extra - 1, i)

        def step(nxt, extra, start):
            if type(nxt) is tuple:
                if fits(nxt[0], extra):
                    found.update(nxt[1])
            else:
                walk(nxt, extra, start)

        step(self._sorted_trie, doubles, 0)
        return sorted(found)

    def _formable_entries(self) -> list:
        """formable's index: for each word's letters sorted, the words they spell (sorted), in
        the order of the keys. Built from the words (a quarter of a second for a list of
        100,000), or read back as a process before this one kept it (`kept`)."""
        words = self.words  # (read first: the digest of its text names what is kept)
        name = f"formable {self._digest}"
        if self._kept is not None:
            blob = self._kept.get(name)
            if blob is not None:
                try:
                    entries = marshal.loads(blob)
                except (EOFError, ValueError, TypeError):
                    entries = None
                if _index_entries(entries):
                    return entries
        grouped: Dict[str, list] = {}
        for w in words:
            grouped.setdefault("".join(sorted(w)), []).append(w)
        # (tuples of texts: the cyclic garbage collector stops tracking them, so the
        # ~100,000 groups of a large list are not gone through at each full collection)
        entries = sorted((k, tuple(sorted(v))) for k, v in grouped.items())
        if self._kept is not None:
            self._kept.put(name, marshal.dumps(entries))
        return entries

    def formable(self, letters: List[str], doubles: int = 0) -> List[str]:
        """Every word spelt by a sub-multiset of `letters` (one-letter texts), where up to
        `doubles` of the letters used may be used once more. Sorted, each word once."""
        if self._index is None:
            entries = self._formable_entries()
            self._index = dict(entries)
            self._sorted_keys = [k for k, _ in entries], entries
        have = Counter(x.lower() for x in letters)
        keys = sorted(have)
        # a game asks again and again for the same hands (each listing of the moves, each
        # word tried with the letters left): answers are remembered
        asked = (tuple((k, have[k]) for k in keys), doubles)
        known = self._formed.get(asked)
        if known is not None:
            return list(known)
        ranges = [range(have[k] + 1) for k in keys]
        total = 1
        for r in ranges:
            total *= len(r)
        if total * (1 + doubles * len(keys)) > MAX_FORMABLE_SETS:
            raise ListError(f"formable: too many letters ({len(letters)})")
        if all(len(k) == 1 for k in keys):
            words = self._formable_walk(have, doubles)
            if len(self._formed) >= MAX_FORMED:
                self._formed.clear()
            self._formed[asked] = words
            return list(words)
        # (letters of several characters, or none: the sub-multisets one by one)
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
        if len(self._formed) >= MAX_FORMED:
            self._formed.clear()
        self._formed[asked] = words = sorted(found)
        return list(words)


_WILD = object()  # a prepared cell: the wild mark


_FIELD = (1 << 24) - 1  # (a list holds far fewer than 2**24 words: MAX_LIST_BYTES)


def _key_level(keys: list, entries: list, depth: int, lo: int, hi: int):
    """One node of the tree of the sorted (key, words) entries[lo:hi] (keys[lo:hi] their
    keys), which share key[:depth]: a dict from the next letter (and _END, for the key that
    ends here) to its branch, a branch made when first walked (until then depth, lo and hi
    in one number: no container for the garbage collector to track);
    or, for one entry left, (the key's rest, its words)."""
    if hi - lo == 1:
        key, ws = entries[lo]
        return key[depth:], ws
    node: dict = {}
    i = lo
    if len(keys[i]) == depth:  # (sorted: a key ending here comes first)
        node[_END] = entries[i][1]
        i += 1
    while i < hi:
        key = keys[i]
        after = ord(key[depth]) + 1  # (the keys from the next letter on)
        j = bisect_left(keys, key[:depth] + chr(after), i + 1, hi) if after <= 0x10FFFF else hi
        node[key[depth]] = (depth + 1) << 48 | i << 24 | j
        i = j
    return node


def _index_entries(value) -> bool:
    """Whether a value read back is an index as _formable_entries makes it (its first entry
    looked at: what is kept is written by this module alone, and signed)."""
    if type(value) is not list:
        return False
    if not value:
        return True
    first = value[0]
    return (type(first) is tuple and len(first) == 2 and type(first[0]) is str and type(first[1]) is tuple
            and all(type(w) is str for w in first[1]))


def word_list(path: Path, folding: Folding = NO_FOLDING, checked=None, kept=None) -> WordList:
    """The list of a file with its folding, shared while the file is unchanged. `checked`: what
    the file must still be when it is read (see read_list_text); `kept`: where its indexes
    are kept between runs (see WordList)."""
    st = path.stat()
    key = (str(path.resolve()), st.st_size, st.st_mtime_ns, st.st_ino, folding)
    wl = _CACHE.get(key)
    if wl is None:
        wl = _CACHE[key] = WordList(str(path), lambda: read_list_text(path, checked), folding, kept)
    return wl


def option_in_name(source: str) -> str:
    """'english_{dictionary}.txt.gz' -> 'dictionary': the option named in braces, or ''."""
    start, end = source.find("{"), source.find("}")
    if start < 0 or end < start:
        return ""
    return source[start + 1:end].strip()

