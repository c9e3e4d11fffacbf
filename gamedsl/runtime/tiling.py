"""Pieces with faces on a grid, and the words they make: the builtins of tile-laying games.

A component whose kind declares `faces a, b` covers one cell per face; on a grid each of its
cells maps to the component, and `state["where"]` keeps its cells in face order, so the face
on a cell is found without storing letters in the state.

`word_placements` is the crossword search a bot needs on every turn: every way to lay each
piece next to the pieces already down, and the words of a list each line through it would
read. It is written once here, in Python, because the same search spelt in rules would walk
thousands of placements through the interpreter per turn; the rules still decide what a
player may claim from the words it finds.
"""

from __future__ import annotations

from itertools import product
from typing import Dict, List, Sequence, Tuple

from gamedsl.runtime.values import (as_list,
                                    cell_key,
                                    check_cell,
                                    grid_of,
                                    is_number,
                                    key_cell,
                                    plain,
                                    word_list)
from gamedsl.errors import RuleError
from gamedsl.runtime.wordlists import WordList

MAX_PICKS = 20_000  # choices made by one picks() call

_AXES = ((1, 0), (0, 1))
_DIRECTIONS = ((1, 0), (-1, 0), (0, 1), (0, -1))


def _board_letters(ctx, zone, z: dict) -> Dict[Tuple[int, int], object]:
    """Each occupied cell (x, y) -> what it shows: the face on it (a piece with faces) or its
    show. Kept while moves are listed (ctx.memo), when the state cannot change."""
    memo = ctx.memo
    key = ("tiling board", tuple(zone))
    if memo is not None and key in memo:
        return memo[key]
    cat = ctx.cat
    where = ctx.state["where"]
    out = {}
    for k, comp in z.items():
        faces = cat.faces[comp]
        x, y = k.split(",")
        out[(int(x), int(y))] = faces[where[comp][2].index(k)] if faces is not None else cat.show[comp]
    if memo is not None:
        memo[key] = out
    return out


def face(ctx, span, zone, cell):
    z, _ = grid_of(ctx, zone, span)
    key = cell_key(check_cell(cell, span))
    comp = z.get(key)
    if comp is None:
        return None
    faces = ctx.cat.faces[comp]
    if faces is None:
        return None
    return faces[ctx.state["where"][comp][2].index(key)]


def _pieces(ctx, span, pieces, what: str) -> List[int]:
    """The components of a list, each with faces; identical pieces once (the first one). A
    piece lies either way round, so faces 1, 2 and faces 2, 1 are the same piece."""
    out, seen = [], set()
    for comp in as_list(pieces, span):
        if not (isinstance(comp, int) and not isinstance(comp, bool) and 0 <= comp < len(ctx.cat.kind)):
            raise RuleError("E504", f"{what} needs components, not {plain(comp)}", span)
        faces = ctx.cat.faces[comp]
        if faces is None:
            raise RuleError("E504", f"{what}: a {ctx.cat.kind[comp]} has no faces "
                            "(declare them in its kind: faces a, b)", span)
        key = tuple(faces)
        if key not in seen and key[::-1] not in seen:
            seen.add(key)
            out.append(comp)
    return out


def _anchors(z: dict, size) -> List[Tuple[int, int]]:
    """The empty cells a new piece must cover one of: next to an occupied cell; on an empty
    grid, the cell (0, 0) of an unbounded grid or any cell of a bounded one."""
    if not z:
        if size is None:
            return [(0, 0)]
        return [(x, y) for y in range(size[1]) for x in range(size[0])]
    out = set()
    for key in z:
        x, y = key_cell(key)
        for dx, dy in _DIRECTIONS:
            n = (x + dx, y + dy)
            if f"{n[0]},{n[1]}" not in z and _inside(n, size):
                out.add(n)
    return sorted(out, key=lambda c: (c[1], c[0]))


def _inside(c, size) -> bool:
    return size is None or (0 <= c[0] < size[0] and 0 <= c[1] < size[1])


def _cell_lines(z: dict, size, k: int) -> List[Tuple[Tuple[int, int], ...]]:
    """Every line of k empty cells (in any of 4 directions from its first cell) covering an anchor."""
    out, seen = [], set()
    for ax, ay in _anchors(z, size):
        for dx, dy in _DIRECTIONS:
            for j in range(k):
                sx, sy = ax - j * dx, ay - j * dy
                cells = tuple((sx + i * dx, sy + i * dy) for i in range(k))
                if cells in seen:
                    continue
                seen.add(cells)
                if all(_inside(c, size) and f"{c[0]},{c[1]}" not in z for c in cells):
                    out.append(cells)
    return out


def _placements_of(ctx, span, zone, pieces, what):
    z, size = grid_of(ctx, zone, span)
    comps = _pieces(ctx, span, pieces, what)
    by_size: Dict[int, List[int]] = {}
    for comp in comps:
        by_size.setdefault(len(ctx.cat.faces[comp]), []).append(comp)
    out = []
    for k, group in by_size.items():
        lines = _cell_lines(z, size, k)
        for comp in group:
            faces = ctx.cat.faces[comp]
            seen = set()
            for cells in lines:
                # a piece whose faces read the same both ways lies the same either way round
                key = frozenset(zip(cells, faces))
                if key in seen:
                    continue
                seen.add(key)
                out.append((comp, cells))
    return z, size, out


def placements(ctx, span, zone, pieces):
    _, _, found = _placements_of(ctx, span, zone, pieces, "placements")
    return [[comp, [list(c) for c in cells]] for comp, cells in found]


def _runs_through(occupied, cells: Sequence[Tuple[int, int]], n: int):
    """The maximal lines of occupied-or-new cells through the new `cells`, across and down,
    of at least n cells: (cells of the line in reading order, indices of new cells in it)."""
    new = set(cells)
    runs, seen = [], set()
    for dx, dy in _AXES:
        for cx, cy in cells:
            x, y = cx, cy
            while (x - dx, y - dy) in new or (x - dx, y - dy) in occupied:
                x, y = x - dx, y - dy
            start = (x, y, dx, dy)
            if start in seen:
                continue
            seen.add(start)
            line = []
            while (x, y) in new or (x, y) in occupied:
                line.append((x, y))
                x, y = x + dx, y + dy
            if len(line) >= n:
                runs.append((line, tuple([i for i, c in enumerate(line) if c in new])))
    return runs


def _ways(ways, span, what) -> bool:
    if ways not in (2, 4):
        raise RuleError("E504", f"{what} reads in 2 directions (left to right, top to bottom) "
                        f"or 4 (and backwards), not {plain(ways)}", span)
    return ways == 4


def _min_length(n, span, what) -> int:
    if not is_number(n) or n < 1:
        raise RuleError("E504", f"{what} needs a word length of at least 1, not {plain(n)}", span)
    return int(n)


class WordLineReader:
    """The words of each line through new letters, each line's distinct by folded form.
    A line is read once per process: the search for a bot's moves and the check of each
    move it then makes read the same lines (word lists live as long as the process)."""

    cache: Dict[tuple, List[str]] = {}
    CACHE_SIZE = 200_000

    def __init__(self, words, n: int, both: bool):
        self.words, self.n, self.both = words, n, both
        if len(self.cache) > self.CACHE_SIZE:
            self.cache.clear()

    def line(self, letters: tuple, placed: tuple) -> List[str]:
        key = (id(self.words), self.n, self.both, letters, placed)
        found = self.cache.get(key)
        if found is None:
            hits = sorted(self.words.words_through(letters, placed, self.n, self.both))
            found, folded, fold = [], set(), self.words.fold
            for w in hits:
                f = fold(w)
                if f not in folded:
                    folded.add(f)
                    found.append(w)
            self.cache[key] = found
        return found

    def lines(self, board: dict, runs, placed_letters: dict) -> List[List[str]]:
        out = []
        line = self.line
        for cells, placed in runs:
            letters = tuple([placed_letters[c] if c in placed_letters else board[c] for c in cells])
            found = line(letters, placed)
            if found:
                out.append(found)
        return out


def word_lines(ctx, span, words, zone, cells, letters, n, ways):
    memo = ctx.memo
    if memo is not None:
        found = _lines_known(memo, words, zone, cells, letters, n, ways)
        if found is not None:
            return found
    what = "word_lines"
    words = word_list(span, what, words)
    both = _ways(ways, span, what)
    n = _min_length(n, span, what)
    z, _ = grid_of(ctx, zone, span)
    cells = [tuple(check_cell(c, span)) for c in as_list(cells, span)]
    letters = as_list(letters, span)
    if len(cells) != len(letters) or len(set(cells)) != len(cells):
        raise RuleError("E504", f"{what} needs one letter for each of distinct cells", span)
    memo = ctx.memo
    key = _lines_key(words, n, both, zone, cells, letters)
    if memo is not None and key is not None and key in memo:
        return memo[key]
    board = _board_letters(ctx, zone, z)
    runs = _runs_through(board, cells, n)
    found = WordLineReader(words, n, both).lines(board, runs, dict(zip(cells, letters)))
    if memo is not None and key is not None:
        memo[key] = found
    return found


def _lines_known(memo: dict, words, zone, cells, letters, n, ways):
    """word_lines' answer kept in `memo` for arguments of the exact types a checked rule
    passes (a word list, cells of two whole numbers, whole numbers n and ways), as the
    checked call would find it; None if not kept, or for anything else. A key in the memo
    was made from arguments that passed the checks, and these are equal to them."""
    if not (type(words) is WordList and type(n) is int and n >= 1 and (ways == 2 or ways == 4)
            and type(ways) is int and type(cells) is list and type(letters) is list):
        return None
    coords = []
    for c in cells:
        if not (type(c) is list and len(c) == 2 and type(c[0]) is int and type(c[1]) is int):
            return None
        coords.append((c[0], c[1]))
    key = ("tiling lines", id(words), n, ways == 4, tuple(zone), tuple(coords), tuple(letters))
    try:
        return memo.get(key)
    except TypeError:  # (letters that cannot be a key)
        return None


def _lines_key(words, n, both, zone, cells, letters):
    """word_lines' answer is kept while moves are listed (ctx.memo): a guard asks it again
    for each placement word_placements has just read. None: letters that cannot be a key."""
    key = ("tiling lines", id(words), n, both, tuple(zone), tuple(cells), tuple(letters))
    try:
        hash(key)
    except TypeError:  # (a scenario's unchecked expression may pass anything)
        return None
    return key


def word_placements(ctx, span, words, zone, pieces, n, ways):
    what = "word_placements"
    words = word_list(span, what, words)
    both = _ways(ways, span, what)
    n = _min_length(n, span, what)
    z, size, found = _placements_of(ctx, span, zone, pieces, what)
    board = _board_letters(ctx, zone, z)
    reader = WordLineReader(words, n, both)
    memo = ctx.memo
    # (each placement's lines kept as word_lines keeps them: the key's parts that do not
    # change from one placement to the next made once)
    head = ("tiling lines", id(words), n, both, tuple(zone))
    all_faces = ctx.cat.faces
    runs_of: Dict[tuple, list] = {}
    out = []
    for comp, cells in found:
        runs = runs_of.get(cells)
        if runs is None:
            runs = runs_of[cells] = _runs_through(board, cells, n)
        if not runs:
            continue
        faces = all_faces[comp]
        lines = reader.lines(board, runs, dict(zip(cells, faces)))
        if memo is not None:
            key = (*head, cells, tuple(faces))
            try:
                memo[key] = lines
            except TypeError:  # (faces that cannot be a key)
                pass
        if lines:
            out.append([comp, [list(c) for c in cells], lines])
    return out


# ---------------------------------------------------------------- choosing among groups


def picks(ctx, span, groups):
    """Every non-empty choice of at most one item from each group, in group order; choices
    holding the same items (in any order) once."""
    groups = [as_list(g, span) for g in as_list(groups, span)]
    total = 1
    for g in groups:
        total *= len(g) + 1
        if total > MAX_PICKS:
            raise RuleError("E504", f"picks: more than {MAX_PICKS} choices", span)
    out, seen = [], set()
    for choice in product(*[[None] + list(g) for g in groups]):
        items = [x for x in choice if x is not None]
        key = tuple(sorted(repr(x) for x in items))
        if items and key not in seen:
            seen.add(key)
            out.append(items)
    return out


def assignable(ctx, span, items, groups):
    """Can each item be given a group of its own that holds it (a matching of items to groups)?"""
    items = as_list(items, span)
    groups = [as_list(g, span) for g in as_list(groups, span)]
    if len(items) == 1:  # (the common claim: one item needs one group holding it)
        item = items[0]
        for g in groups:
            if item in g:
                return True
        return False
    try:
        # each item is looked for in each group, again and again: as sets when all can be
        # (`in` a set and `in` a list agree on values that hash)
        hash(tuple(items))
        groups = [set(g) for g in groups]
    except TypeError:
        pass
    owner: Dict[int, int] = {}  # group index -> item index

    def place(i: int, tried: set) -> bool:
        for gi, g in enumerate(groups):
            if gi in tried or items[i] not in g:
                continue
            tried.add(gi)
            if gi not in owner or place(owner[gi], tried):
                owner[gi] = i
                return True
        return False

    return all(place(i, set()) for i in range(len(items)))
