"""Pieces with faces on a grid, the builtins of tile-laying games, and typed move parameters.

Each feature is run through a small game written here: `faces` in a kind, `move x to G at
[cells]`, `face`, a grid listing a piece once, `placements`, `word_lines`, `word_placements`
(with a word list written to a temporary folder), `picks`, `assignable`, `index_of`, typed
parameters of type number, cell, enum and list of text, and the view's `faces` and `moved`.
"""

from __future__ import annotations

import json
import textwrap

import pytest

from gamedsl.errors import MoveError, RuleError
from gamedsl.pipeline import load
from gamedsl.runtime.ctx import Ctx
from gamedsl.syntax.parser import parse

# ---------------------------------------------------------------- helpers


def _expr(text: str):
    tree, errors = parse(f"score of p: {text}\n", "<expr>")
    assert not errors, errors
    return tree.decls[0].expr


def _body(text: str):
    tree, errors = parse("setup:\n" + textwrap.indent(textwrap.dedent(text).strip() + "\n", "  "), "<given>")
    assert not errors, errors
    return tree.decls[0].body


def ev(game, state, text: str):
    return game.evaluate(state, _expr(text))


def run(game, state, text: str) -> dict:
    return game.run_statements(state, _body(text))


def dump(state) -> str:
    return json.dumps(state, sort_keys=True)


def cells_of(value) -> list:
    """Placements' cells as tuples, for comparing with sets."""
    return [tuple(tuple(c) for c in cells) for cells in value]


# ---------------------------------------------------------------- a game of pieces with faces

PIECES = '''
game "Pieces"
players 2

table set:
  | a | b |
  | 1 | 2 |
  | 3 | 3 |
  | 1 | 2 |
  | 4 | 5 |
  | 2 | 1 |

kind tile:
  from set
  faces a, b
  show text(a) + "|" + text(b)

kind stone:
  copies 2
  show "o"

zone bag of tile, stone: public
zone board of tile, stone: grid
zone small of tile, stone: grid 3 by 2

def t12() = first([t for t in tile if t.a == 1])
def t12b() = last([t for t in tile if t.a == 1])
def t33() = first([t for t in tile if t.a == 3])
def t45() = first([t for t in tile if t.a == 4])
def t21() = first([t for t in tile if t.a == 2])

setup:
  move tile to bag
  move stone to bag

turn:
  choose by current:
    wait "wait":
      pass
'''


@pytest.fixture(scope="module")
def pieces(tmp_path_factory):
    path = tmp_path_factory.mktemp("pieces") / "pieces.game"
    path.write_text(PIECES)
    return load(str(path))


@pytest.fixture
def fresh(pieces):
    return pieces.new_game(2, seed=0)


def test_a_piece_with_faces_covers_one_cell_per_face_in_face_order(pieces, fresh):
    s = run(pieces, fresh, "move t12() to board at [(0, 1), (0, 0)]")
    t = ev(pieces, s, "t12()")
    assert s["zones"]["board"] == {"0,1": t, "0,0": t}
    assert s["where"][t] == ["board", -1, ["0,1", "0,0"]]
    # face 1 (a = 1) on the first cell listed, face 2 (b = 2) on the second
    assert ev(pieces, s, "face(board, (0, 1))") == 1
    assert ev(pieces, s, "face(board, (0, 0))") == 2
    assert ev(pieces, s, "at(board, (0, 0)) == t12() and at(board, (0, 1)) == t12()") is True


def test_a_piece_moved_off_a_grid_frees_all_its_cells(pieces, fresh):
    s = run(pieces, fresh, """
        move t12() to board at [(0, 0), (1, 0)]
        move t12() to bag
    """)
    t = ev(pieces, s, "t12()")
    assert s["zones"]["board"] == {}
    assert s["zones"]["bag"][-1] == t and s["where"][t] == ["bag", -1, None]
    # and the freed cells take another piece
    s = run(pieces, s, "move t45() to board at [(1, 0), (0, 0)]")
    assert ev(pieces, s, "[face(board, (0, 0)), face(board, (1, 0))]") == [5, 4]


def test_a_piece_moved_along_a_grid_leaves_its_old_cells(pieces, fresh):
    s = run(pieces, fresh, """
        move t12() to board at [(0, 0), (1, 0)]
        move t12() to board at [(1, 0), (1, 1)]
    """)
    t = ev(pieces, s, "t12()")
    assert s["zones"]["board"] == {"1,0": t, "1,1": t}
    assert ev(pieces, s, "[face(board, (1, 0)), face(board, (1, 1)), face(board, (0, 0))]") == [1, 2, None]


def test_a_grid_lists_a_piece_with_faces_once(pieces, fresh):
    s = run(pieces, fresh, """
        move t12() to board at [(0, 0), (1, 0)]
        move t45() to board at [(0, 1), (1, 1)]
        move first(stone) to board at (2, 0)
    """)
    assert ev(pieces, s, "len(board)") == 3
    assert ev(pieces, s, "board == [t12(), first(stone), t45()]") is True   # in cell order
    assert ev(pieces, s, "len(cells(board))") == 5


def test_a_taken_cell_is_refused_and_nothing_changes(pieces, fresh):
    s = run(pieces, fresh, "move t12() to board at [(0, 0), (1, 0)]")
    before = dump(s)
    with pytest.raises(RuleError, match="cell 1,0 of 'board' is taken"):
        run(pieces, s, "move t45() to board at [(1, 0), (2, 0)]")
    with pytest.raises(RuleError, match="taken"):
        run(pieces, s, "move t45() to board at [(5, 5), (5, 5)]")   # one cell for two faces
    assert dump(s) == before


def test_the_wrong_number_of_cells_is_refused(pieces, fresh):
    with pytest.raises(RuleError, match="has 2 faces: it needs 2 cells, not 1"):
        run(pieces, fresh, "move t12() to board at (0, 0)")
    with pytest.raises(RuleError, match="has 2 faces: it needs 2 cells, not 3"):
        run(pieces, fresh, "move t12() to board at [(0, 0), (1, 0), (2, 0)]")
    with pytest.raises(RuleError, match="covers one cell"):
        run(pieces, fresh, "move first(stone) to board at [(0, 0), (1, 0)]")
    with pytest.raises(RuleError, match="an empty list of cells"):
        run(pieces, fresh, "move t12() to board at []")
    with pytest.raises(RuleError, match="outside the 3 by 2 grid"):
        run(pieces, fresh, "move t12() to small at [(2, 1), (3, 1)]")


def test_face_is_none_on_an_empty_cell_and_under_a_piece_without_faces(pieces, fresh):
    s = run(pieces, fresh, "move first(stone) to board at (0, 0)")
    assert ev(pieces, s, "face(board, (0, 0))") is None
    assert ev(pieces, s, "face(board, (7, 7))") is None
    assert ev(pieces, s, "at(board, (0, 0)) == first(stone)") is True


# ---------------------------------------------------------------- placements


def _brute_placements(occupied: set, size=None, k=2):
    """Every ordered line of k empty cells, one of them next to an occupied cell (any cell of an
    empty bounded grid, a line over (0, 0) on an empty unbounded one), worked out cell by cell."""
    def inside(c):
        return size is None or (0 <= c[0] < size[0] and 0 <= c[1] < size[1])

    def near(c):
        return any((c[0] + dx, c[1] + dy) in occupied for dx, dy in ((1, 0), (-1, 0), (0, 1), (0, -1)))

    span = range(-4, 5) if size is None else range(0, max(size))
    out = set()
    for x in span:
        for y in span:
            for dx, dy in ((1, 0), (-1, 0), (0, 1), (0, -1)):
                line = tuple((x + i * dx, y + i * dy) for i in range(k))
                if not all(inside(c) and c not in occupied for c in line):
                    continue
                if occupied:
                    ok = any(near(c) for c in line)
                else:
                    ok = size is not None or (0, 0) in line
                if ok:
                    out.add(line)
    return out


def test_placements_on_an_empty_unbounded_grid_cover_the_centre_four_ways(pieces, fresh):
    found = ev(pieces, fresh, "placements(board, [t12()])")
    assert {p[0] for p in found} == {ev(pieces, fresh, "t12()")}
    cells = cells_of([p[1] for p in found])
    assert len(cells) == len(set(cells)) == 8
    assert set(cells) == _brute_placements(set())
    # each direction, from the first face to the second
    steps = {(c[1][0] - c[0][0], c[1][1] - c[0][1]) for c in cells}
    assert steps == {(1, 0), (-1, 0), (0, 1), (0, -1)}


def test_placements_touch_the_pieces_down_and_avoid_their_cells(pieces, fresh):
    s = run(pieces, fresh, """
        move first(stone) to board at (0, 0)
        move t45() to board at [(2, 0), (2, 1)]
    """)
    cells = cells_of([p[1] for p in ev(pieces, s, "placements(board, [t12()])")])
    assert len(cells) == len(set(cells))
    assert set(cells) == _brute_placements({(0, 0), (2, 0), (2, 1)})


def test_placements_keep_to_a_bounded_grid(pieces, fresh):
    empty = cells_of([p[1] for p in ev(pieces, fresh, "placements(small, [t12()])")])
    assert set(empty) == _brute_placements(set(), (3, 2)) and len(empty) == len(set(empty))
    s = run(pieces, fresh, "move first(stone) to small at (2, 0)")
    cells = cells_of([p[1] for p in ev(pieces, s, "placements(small, [t12()])")])
    assert set(cells) == _brute_placements({(2, 0)}, (3, 2))
    assert all(0 <= x < 3 and 0 <= y < 2 for line in cells for x, y in line)


def test_placements_give_identical_pieces_once(pieces, fresh):
    found = ev(pieces, fresh, "placements(board, [t12b(), t12(), t45()])")
    by_piece = {}
    for piece, cells in found:
        by_piece.setdefault(piece, []).append(cells)
    # the two 1|2 tiles are alike: only the first listed is offered
    assert set(by_piece) == {ev(pieces, fresh, "t12b()"), ev(pieces, fresh, "t45()")}
    assert len(by_piece[ev(pieces, fresh, "t12b()")]) == 8
    # 2|1 is 1|2 turned round: the same piece, so the same placements, offered once
    found = ev(pieces, fresh, "placements(board, [t21(), t12()])")
    assert {p[0] for p in found} == {ev(pieces, fresh, "t21()")} and len(found) == 8


def test_placements_give_a_piece_reading_the_same_both_ways_once_per_pair_of_cells(pieces, fresh):
    cells = cells_of([p[1] for p in ev(pieces, fresh, "placements(board, [t33()])")])
    assert len(cells) == 4
    assert {frozenset(c) for c in cells} == {frozenset(c) for c in _brute_placements(set())}


def test_placements_need_pieces_with_faces(pieces, fresh):
    with pytest.raises(RuleError, match="has no faces"):
        ev(pieces, fresh, "placements(board, [first(stone)])")


# ---------------------------------------------------------------- words on the grid

WORDY = '''
game "Wordy"
players 2

table letters:
  | ch  |
  | "c" |
  | "a" |
  | "t" |
  | "x" |
  | "s" |

table pairs:
  | a   | b   |
  | "t" | "x" |
  | "o" | "p" |

table accents:
  | letter | as  |
  | "ä"    | "a" |

words dict from "words.txt":
  fold accents

kind letter:
  from letters
  faces ch
  show ch

kind tile:
  from pairs
  faces a, b
  show a + b

zone bag of letter, tile: public
zone board of letter, tile: grid

def l(c: text) = first([x for x in letter if x.ch == c])
def tx() = first([t for t in tile if t.a == "t"])
def op() = first([t for t in tile if t.a == "o"])

setup:
  move letter to bag
  move tile to bag

turn:
  choose by current:
    wait "wait":
      pass
'''


@pytest.fixture(scope="module")
def wordy(tmp_path_factory):
    folder = tmp_path_factory.mktemp("wordy")
    (folder / "words.txt").write_text("cat\ncät\ntac\nat\ncats\ntx\n")
    (folder / "wordy.game").write_text(WORDY)
    return load(str(folder / "wordy.game"))


@pytest.fixture
def ca(wordy):
    """c on 0,0 and a on 1,0."""
    return run(wordy, wordy.new_game(2), """
        move l("c") to board at (0, 0)
        move l("a") to board at [(1, 0)]
    """)


def test_a_one_face_piece_lies_at_a_cell_or_a_list_of_one(wordy, ca):
    assert ev(wordy, ca, "[face(board, (0, 0)), face(board, (1, 0))]") == ["c", "a"]


def test_word_lines_read_forwards_only_with_two_ways(wordy, ca):
    assert ev(wordy, ca, 'word_lines(dict, board, [(2, 0)], ["t"], 3, 2)') == [["cat"]]


def test_word_lines_give_each_word_once_by_its_folded_form(wordy, ca):
    # "cät" folds to "cat": the line reads one word, spelt as the list's first spelling
    assert ev(wordy, ca, 'word_lines(dict, board, [(2, 0)], ["t"], 3, 2)') == [["cat"]]
    s = run(wordy, wordy.new_game(2), 'move l("c") to board at (0, 0)')
    assert ev(wordy, s, 'word_lines(dict, board, [(1, 0), (2, 0)], ["ä", "t"], 3, 2)') == [["cat"]]


def test_word_lines_read_backwards_too_with_four_ways(wordy, ca):
    assert ev(wordy, ca, 'word_lines(dict, board, [(2, 0)], ["t"], 3, 4)') == [["cat", "tac"]]


def test_word_lines_keep_words_of_at_least_n_letters(wordy, ca):
    assert ev(wordy, ca, 'word_lines(dict, board, [(2, 0)], ["t"], 2, 2)') == [["at", "cat"]]
    assert ev(wordy, ca, 'word_lines(dict, board, [(2, 0)], ["t"], 4, 2)') == []


def test_word_lines_leave_out_lines_without_words(wordy, ca):
    s = run(wordy, ca, 'move l("x") to board at (2, -1)')
    # t on 2,0: across "cat"; down "xt", a word only read upwards ("tx")
    assert ev(wordy, s, 'word_lines(dict, board, [(2, 0)], ["t"], 2, 2)') == [["at", "cat"]]
    assert ev(wordy, s, 'word_lines(dict, board, [(2, 0)], ["t"], 2, 4)') == [["at", "cat", "tac"], ["tx"]]
    # s instead: across "cas", down "xs": no word on either line
    assert ev(wordy, s, 'word_lines(dict, board, [(2, 0)], ["s"], 2, 4)') == []


def test_a_word_must_cover_a_new_letter(wordy, ca):
    s = run(wordy, ca, 'move l("t") to board at (2, 0)')
    # "cat" and "at" lie on the board already: laying "s" after them reads "cats" only
    assert ev(wordy, s, 'word_lines(dict, board, [(3, 0)], ["s"], 2, 2)') == [["cats"]]
    # "catc": "cat", "at" and backwards "tac" are there, but none reaches the new c
    assert ev(wordy, s, 'word_lines(dict, board, [(3, 0)], ["c"], 2, 4)') == []


def test_word_lines_read_every_line_through_several_new_letters(wordy, ca):
    # "t" on 2,0 and "x" below it: across "cat" (and "at"), down "tx"
    assert ev(wordy, ca, 'word_lines(dict, board, [(2, 0), (2, 1)], ["t", "x"], 2, 2)') == [["at", "cat"], ["tx"]]
    # the same cells the other way round: across "cax" no word, down "xt" no word forwards
    assert ev(wordy, ca, 'word_lines(dict, board, [(2, 0), (2, 1)], ["x", "t"], 2, 2)') == []


def test_word_lines_refuse_bad_arguments(wordy, ca):
    with pytest.raises(RuleError, match="2 directions"):
        ev(wordy, ca, 'word_lines(dict, board, [(2, 0)], ["t"], 3, 3)')
    with pytest.raises(RuleError, match="at least 1"):
        ev(wordy, ca, 'word_lines(dict, board, [(2, 0)], ["t"], 0, 2)')
    with pytest.raises(RuleError, match="one letter for each of distinct cells"):
        ev(wordy, ca, 'word_lines(dict, board, [(2, 0), (3, 0)], ["t"], 3, 2)')
    with pytest.raises(RuleError, match="one letter for each of distinct cells"):
        ev(wordy, ca, 'word_lines(dict, board, [(2, 0), (2, 0)], ["t", "t"], 3, 2)')


def test_word_placements_are_the_placements_whose_lines_read_words(wordy, ca):
    tx, op = ev(wordy, ca, "tx()"), ev(wordy, ca, "op()")
    letters = {tx: ["t", "x"], op: ["o", "p"]}
    found = ev(wordy, ca, "word_placements(dict, board, [tx(), op()], 3, 2)")
    expected = []
    for piece, cells in ev(wordy, ca, "placements(board, [tx(), op()])"):
        lines = ev(wordy, ca, f"word_lines(dict, board, {_cells_text(cells)}, {json.dumps(letters[piece])}, 3, 2)")
        if lines:
            expected.append([piece, cells, lines])
    assert found == expected
    # only t beside the a reads a word ("cat"); down, "tx" is shorter than 3; o|p reads nothing
    assert {tuple(map(tuple, p[1])) for p in found} == {((2, 0), (3, 0)), ((2, 0), (2, 1)), ((2, 0), (2, -1))}
    assert all(p[0] == tx and p[2] == [["cat"]] for p in found)


def test_word_placements_read_four_ways_when_asked(wordy, ca):
    two = ev(wordy, ca, "word_placements(dict, board, [tx()], 3, 2)")
    four = ev(wordy, ca, "word_placements(dict, board, [tx()], 3, 4)")
    assert [p[1] for p in four] == [p[1] for p in two]
    assert all(p[2] == [["cat", "tac"]] for p in four)
    # with 2 letters enough, "tx" down counts as a line of its own
    two_letters = ev(wordy, ca, "word_placements(dict, board, [tx()], 2, 2)")
    assert [ev(wordy, ca, "tx()"), [[2, 0], [2, 1]], [["at", "cat"], ["tx"]]] in two_letters


def test_word_lines_answer_alike_within_a_listing_after_word_placements(wordy, ca):
    """While moves are listed (one memo for the listing), word_lines of a placement that
    word_placements just read is taken from it: it must be the same answer as alone."""

    def listing_ctx():
        ctx = Ctx(wordy.program, ca, {}, wordy.catalogue(ca), pure=True)
        ctx.memo = {}
        return ctx

    def value(ctx, text):
        return wordy.snippets.expr(_expr(text))(ctx)

    ctx = listing_ctx()
    found = value(ctx, "word_placements(dict, board, [tx()], 2, 4)")
    assert found
    for piece, cells, lines in found:
        asked = f'word_lines(dict, board, {_cells_text(cells)}, ["t", "x"], 2, 4)'
        assert value(ctx, asked) == lines == ev(wordy, ca, asked)
    # the same cells with other letters are read afresh
    other = 'word_lines(dict, board, [(2, 0), (2, 1)], ["x", "t"], 2, 4)'
    assert value(ctx, other) == ev(wordy, ca, other) == [["tx"]]
    # letters that cannot be a key (a scenario's unchecked expression) are refused alike
    odd = 'word_lines(dict, board, [(2, 0)], [[1]], 2, 2)'
    for read in (lambda: value(listing_ctx(), odd), lambda: ev(wordy, ca, odd)):
        with pytest.raises(RuleError, match="cannot take"):
            read()


def _cells_text(cells) -> str:
    return "[" + ", ".join(f"({x}, {y})" for x, y in cells) + "]"


# ---------------------------------------------------------------- picks, assignable, index_of


def test_picks_choose_at_most_one_item_of_each_list(pieces, fresh):
    assert ev(pieces, fresh, "picks([[1, 2], [3]])") == [[3], [1], [1, 3], [2], [2, 3]]
    # the same items in another order, or from another list, are one choice
    assert ev(pieces, fresh, 'picks([["a"], ["a"]])') == [["a"], ["a", "a"]]
    assert ev(pieces, fresh, 'picks([["a", "b"], ["b", "a"]])') == [["b"], ["a"], ["a", "b"], ["a", "a"], ["b", "b"]]
    assert ev(pieces, fresh, "picks([[], []])") == []


def test_picks_refuses_too_many_choices(pieces, fresh):
    with pytest.raises(RuleError, match="more than"):
        ev(pieces, fresh, "picks([range(1, 20), range(1, 20), range(1, 20), range(1, 20)])")


def test_assignable_gives_each_item_a_list_of_its_own(pieces, fresh):
    # "a" first takes the first list, and must give it up to "b" (an augmenting path)
    assert ev(pieces, fresh, 'assignable(["a", "b"], [["a", "b"], ["a"]])') is True
    assert ev(pieces, fresh, 'assignable(["a", "a"], [["a", "b"]])') is False
    assert ev(pieces, fresh, 'assignable(["a", "a"], [["a"], ["a"]])') is True
    assert ev(pieces, fresh, 'assignable(["c"], [["a", "b"]])') is False
    assert ev(pieces, fresh, "assignable([], [])") is True
    assert ev(pieces, fresh, 'assignable(["a", "b", "c"], [["a", "b", "c"], ["a"], ["a"]])') is False
    assert ev(pieces, fresh, 'assignable(["a", "b", "c"], [["a", "b", "c"], ["a"], ["b"]])') is True


def test_index_of_is_the_first_position_from_zero(pieces, fresh):
    assert ev(pieces, fresh, "index_of([5, 6, 7], 7)") == 2
    assert ev(pieces, fresh, "index_of([5, 6, 5], 5)") == 0
    assert ev(pieces, fresh, "index_of(bag, t45())") == 3
    with pytest.raises(RuleError, match="index_of: 9 is not in the list"):
        ev(pieces, fresh, "index_of([5, 6], 9)")


# ---------------------------------------------------------------- typed parameters, the view

TYPED = '''
game "Typed"
players 2

enum way: right, left, down, up

table pairs:
  | a   | b   |
  | "x" | "y" |
  | "p" | "q" |

kind tile:
  from pairs
  faces a, b
  show a + b

kind chip:
  copies 1
  show "chip"

zone bag of tile: public
zone board of tile: grid
zone spare of chip: public
zone box of chip: hidden

var claims: list of text = []
var called: text = ""
var went: text = ""

def beside(c: cell, w: way) = (
  (c[0] + 1, c[1]) if w == right else
  (c[0] - 1, c[1]) if w == left else
  (c[0], c[1] + 1) if w == down else
  (c[0], c[1] - 1))

setup:
  move tile to bag
  move chip to spare

turn:
  choose by current:
    place(i: number, c: cell, w: way, ws: list of text) "place {i} at {c} {w} claim {ws}" \\
        suggest [(1, (0, 0), right, ["xy"])] \\
        if i >= 1 and i <= len(bag) and len(ws) > 0 else "no tile " + text(i) + " or no claim":
      claims = ws
      went = text(w)
      move bag[i - 1] to board at [c, beside(c, w)]
      move chip to box
    call(t: text) "call {t}" suggest ["hi"] if len(t) > 1 else "too short":
      called = t
    wait "wait":
      pass
'''


@pytest.fixture(scope="module")
def typed(tmp_path_factory):
    path = tmp_path_factory.mktemp("typed") / "typed.game"
    path.write_text(TYPED)
    return load(str(path))


@pytest.mark.parametrize("text, args", [
    ("place 2 at 4,-1 down claim ab, cd", [2, [4, -1], "down", ["ab", "cd"]]),
    ("place 2 at (4, -1) DOWN claim ab cd", [2, [4, -1], "down", ["ab", "cd"]]),
    ("  Place 1 at 0,0 left claim ab,cd,ef  ", [1, [0, 0], "left", ["ab", "cd", "ef"]]),
    ("place 1 at -3, 7 up claim xy", [1, [-3, 7], "up", ["xy"]]),
])
def test_typed_parameters_read_numbers_cells_enum_words_and_lists(typed, text, args):
    state = typed.new_game(2)
    move = typed.parse_move(state, text)
    assert move == {"seat": 0, "alt": "place", "args": args}


def test_a_typed_move_runs_with_its_values(typed):
    state = typed.new_game(2)
    after = typed.apply(state, typed.parse_move(state, "place 2 at 4,-1 down claim ab, cd"))
    assert after["vars"]["claims"] == ["ab", "cd"] and after["vars"]["went"] == "down"
    q = typed.evaluate(after, _expr('first([t for t in tile if t.a == "p"])'))
    assert after["zones"]["board"] == {"4,-1": q, "4,0": q}
    assert typed.apply(state, typed.parse_move(state, "call hello"))["vars"]["called"] == "hello"


@pytest.mark.parametrize("text, why", [
    ("place 3 at 0,0 up claim ab", "no tile 3 or no claim"),
    ("call x", "too short"),
])
def test_a_refused_typed_move_says_why_and_changes_nothing(typed, text, why):
    state = typed.new_game(2)
    before = dump(state)
    with pytest.raises(MoveError, match=why):
        typed.parse_move(state, text)
    assert dump(state) == before


@pytest.mark.parametrize("text", [
    "place 1 at 0,0 sideways claim ab",      # not a word of the enum
    "place 1 at 0 up claim ab",              # not a cell
    "place one at 0,0 up claim ab",          # not a number
])
def test_text_that_does_not_fit_the_types_is_not_a_move(typed, text):
    state = typed.new_game(2)
    with pytest.raises(MoveError, match="not a legal move"):
        typed.parse_move(state, text)


@pytest.mark.parametrize("args", [
    [1, [0, 0], "sideways", ["ab"]],
    [1, [0], "up", ["ab"]],
    [1, [0, 0], "up", ["ab", 3]],
    [1, [0, 0], "up", "ab"],
    ["1", [0, 0], "up", ["ab"]],
])
def test_a_move_whose_values_are_not_of_the_types_is_refused(typed, args):
    state = typed.new_game(2)
    before = dump(state)
    with pytest.raises(MoveError):
        typed.apply(state, {"seat": 0, "alt": "place", "args": args})
    assert dump(state) == before


def test_a_parameter_of_another_type_cannot_be_typed(tmp_path):
    from tests.support.fixtures import codes
    bad = TYPED.replace("ws: list of text", "ws: list of number")
    assert "E315" in codes(bad)
    assert "E315" not in codes(TYPED)


def test_the_view_shows_the_faces_on_each_cell_and_what_the_last_move_moved(typed):
    state = typed.new_game(2)
    after = typed.apply(state, typed.parse_move(state, "place 1 at 0,0 down claim xy"))
    x = typed.evaluate(after, _expr('first([t for t in tile if t.a == "x"])'))
    chip = typed.evaluate(after, _expr("first(chip)"))
    for seat in (0, 1):
        view = typed.view(after, seat)
        assert view["zones"]["board"] == {"0,0": x, "0,1": x}
        assert view["faces"] == {"board": {"0,0": "x", "0,1": "y"}}
        # the chip went into a hidden zone: what nobody sees is not pointed out
        assert view["moved"] == [x]
    assert after["moved"] == [x, chip]
    # a move that moves nothing clears the list; the faces stay
    later = typed.apply(after, typed.parse_move(after, "wait"))
    assert typed.view(later, 0)["moved"] == []
    assert typed.view(later, 0)["faces"] == {"board": {"0,0": "x", "0,1": "y"}}


def test_play_draws_each_face_on_its_cell_and_marks_what_moved():
    import io

    from rich.console import Console

    from gamedsl.cli.terminal import render_zone

    grid = {"0,0": 7, "1,0": 7, "1,1": 8, "1,2": 8, "3,3": 9}
    shows = {"7": "ab", "8": "cd", "9": "o"}
    faces = {"0,0": "a", "1,0": "b", "1,1": "c", "1,2": "d"}
    buf = io.StringIO()
    console = Console(file=buf, width=80, color_system="standard", force_terminal=True)
    console.print(render_zone(grid, shows, None, faces, {8}))
    out = buf.getvalue()
    plain = Console(file=io.StringIO(), width=80)
    plain.print(render_zone(grid, shows, None, faces, {8}))
    text = plain.file.getvalue()
    rows = [line for line in text.splitlines() if "│" in line]
    assert "ab" not in text and "cd" not in text          # faces, not the pieces' shows
    assert rows[1].split("│")[2:4] == [" a ", " b "]
    assert rows[2].split("│")[3].strip() == "c" and rows[3].split("│")[3].strip() == "d"
    assert rows[4].split("│")[5].strip() == "o"             # a component without faces: its show
    # the piece moved last stands out (bold, reversed); the others do not
    assert "\x1b[1;7mc" in out and "\x1b[1;7md" in out
    assert "\x1b[1;7ma" not in out and "\x1b[1;7mo" not in out


SECRET = '''
game "Secret"
players 2

kind chip:
  copies 2
  show "chip"

zone pool of chip: public
zone pot of chip: public
player var pick: number = 0, secret

setup:
  move chip to pool

turn:
  choose secretly by each p in players:
    pick(n in [1, 2]) "pick {n}":
      p.pick = n
  move first(pool) to pot
'''


def test_a_secret_choice_recorded_but_not_carried_out_leaves_moved_alone(tmp_path):
    path = tmp_path / "secret.game"
    path.write_text(SECRET)
    game = load(str(path))
    state = game.new_game(2)
    before = game.view(state, 1)
    assert before["moved"] == [0, 1]                     # setup moved both chips
    state = game.apply(state, game.parse_move(state, "pick 1", 0))
    after = game.view(state, 1)
    assert after["moved"] == before["moved"]             # P2 learns nothing from P1's pick
    state = game.apply(state, game.parse_move(state, "pick 2", 1))
    assert game.view(state, 1)["moved"] == [0]           # both chose: the turn ran


@pytest.mark.parametrize("value, cell", [
    ([1, 2], True), ([1.5, -2], True), ([0, 0.0], True),
    ([True, 1], False), ([1, False], False), ([1], False), ([1, 2, 3], False), ((1, 2), False),
    ("12", False), ([1, "2"], False), ([1, None], False), ([[1], 2], False), (None, False),
])
def test_a_cell_is_a_list_of_two_numbers(value, cell):
    from gamedsl.runtime.values import is_cell
    assert is_cell(value) is cell


def test_word_lines_kept_in_a_listing_answer_only_the_arguments_that_pass_the_checks(wordy):
    """While moves are listed word_lines' answers are kept by their arguments; a cell that
    is equal to a kept one without being a cell (true for 1) is still refused."""
    state = run(wordy, wordy.new_game(2), 'move l("c") to board at (0, 0)')
    ctx = Ctx(wordy.program, state, {}, wordy.catalogue(state), pure=True)
    ctx.memo = {}
    lines = wordy.snippets.expr(_expr('word_lines(dict, board, [(1, 0)], ["a"], 2, 2)'))
    assert lines(ctx) == []
    assert lines(ctx) == []
    for bad in ('[(true, 0)]', '[(1, 0), (1, 0)]'):
        with pytest.raises(RuleError) as err:
            wordy.snippets.expr(_expr(f'word_lines(dict, board, {bad}, ["a"], 2, 2)'))(ctx)
        assert err.value.code == "E504"
