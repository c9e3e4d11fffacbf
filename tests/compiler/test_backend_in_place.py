"""The compiling back end's statements written out (moves to a grid's cells, assignments to
an item of a list, `say ... to`) and its blocks run in place (a branch, a loop's body or a
procedure that cannot ask a player runs where it is entered, without frames): each against
the interpreter, state for state, refusal for refusal, line for line."""

from __future__ import annotations

import json

import pytest

from gamedsl.compiler.backend import generate_block
from gamedsl.errors import RuleError
from gamedsl.pipeline import load
from tools.lockstep import lockstep

CELLS = """\
game "Cells"
players 2
table set:
  | a | b |
  | 1 | 2 |
  | 3 | 4 |
kind tile:
  from set
  faces a, b
kind stone:
  copies 6
zone bag of tile, stone: public
zone board of tile, stone: grid 3 by 2, public
zone open of stone, tile: grid, public
player zone mat of stone: grid 2 by 2, public
def free() = [s for s in stone if s in bag]
setup:
  move tile to bag
  move stone to bag
turn:
  choose by current:
    put(x in [0, 1, 2, 3], y in [0, 1, 2]) "put {x} {y}":
      move first(free()) to board at (x, y)
    again "again":
      move first([s for s in stone if s not in bag]) to board at (0, 0)
    float "float":
      move first(free()) to board at (0.0, 1)
    tile "tile":
      move first([t for t in tile if t in bag]) to open at [(5, 5), (5, 6)]
    tile_one "tile one":
      move first([t for t in tile if t in bag]) to open at (7, 7)
    two "two":
      move free() to board at (2, 1)
    mine(x in [0, 1, 2]) "mine {x}":
      move first(free()) to current.mat at (x, 0)
    back "back":
      move [s for s in stone if s not in bag] to bag
  if round > 20:
    end game
score of p: len(p.mat)
"""

ITEMS = """\
game "Items"
players 2
var row: list of number = [1, 2, 3]
var who: player? = none
player var marks: list of number = [0, 0]
kind token:
  copies 2
  state slots: list of number = [5, 6, 7]
zone pool of token: public
setup:
  move token to pool
turn:
  choose by current:
    bump(i in [0, 2, -1, -3, 3, 1.5, 1.0]) "bump {i}":
      row[i] += 1
    mark(i in [0, 1, 2]) "mark {i}":
      current.marks[i] = current.marks[i] + 10
    grow "grow":
      row[0] *= 1000000000
    slot(t in pool, i in [0, 2, 5]) "slot {t} {i}":
      t.slots[i] -= 2
    local "local":
      let l = [1, 2]
      l[1] = 7
      row[0] = l[1] + len(l)
    nobody "nobody":
      who.marks[0] = 1
    tell "tell":
      say "row " + text(row[0]) to current
    tell_nobody "tell nobody":
      say "row " + text(row[0]) to who
  if round > 20:
    end game
score of p: p.marks[0]
"""

BUSY = """\
game "Busy"
players 2
var n: number = 0
kind token:
  copies 60
zone pile of token: public
zone heap of token: public
player zone hand of token: owner
procedure fill(k: number):
  for i in [1, 2, 3, 4, 5]:
    n += i
    if i > k:
      say "over " + text(i) to current
    else:
      draw 1 from pile to current.hand
  while len(heap) < n / 10:
    draw 1 from pile to heap
setup:
  move token to pile
  repeat 6 times:
    fill(2)
turn:
  choose by current:
    go "go":
      fill(3)
    stop "stop":
      end game
score of p: n
"""


NESTED = """\
game "Nested"
players 2
var n: number = 0
var calls: number = 0
player var got: number = 0
kind token:
  copies 30
zone pile of token: public
player zone hand of token: owner
procedure outer(k: number):
  n += k
  inner(k)
  n += 1
procedure inner(k: number):
  if k > 1:
    choose by current:
      take "take":
        draw 1 from pile to current.hand
        current.got += 1
      skip "skip":
        pass
      stop "stop":
        end game
    n += 10
  elif k == 1 and round > 6:
    let before = n
    end game after round
    n = before + 2
  else:
    pass
procedure deep(d: number):
  calls += 1
  if d > 0:
    deep(d - 1)
setup:
  move token to pile
turn:
  outer(round % 3)
  deep(n % 7)
  if n > 400:
    end game
score of p: p.got
"""


DEEP = """\
game "Rec"
players 2
var n: number = 0
var limit: number = 95
procedure rec(d: number):
  if d > 0:
    rec(d - 1)
  else:
    leaf()
procedure leaf():
  n += 1
  inner()
procedure inner():
  n += 2
turn:
  choose by current:
    go "go":
      limit += 1
      rec(limit)
  if n > 100:
    end game
score of p: n
"""


def played(game, moves) -> list:
    """After each move of `moves` (texts) from a new game: the whole state, or the refusal
    and its line (then on from a new game)."""
    state = game.new_game(2, seed=1)
    out = []
    for text in moves:
        try:
            state = game.apply(state, game.parse_move(state, text))
            out.append(json.dumps(state, sort_keys=True))
        except RuleError as err:
            out.append((str(err).split(": ", 1)[1], err.diagnostic().span.line))
            state = game.new_game(2, seed=1)
    return out


def in_both(tmp_path, text: str, moves) -> list:
    path = tmp_path / "g.game"
    path.write_text(text)
    runs = [played(load(str(path), backend=name), moves) for name in ("interpreter", "compiled")]
    assert runs[0] == runs[1]
    return [r for r in runs[0] if isinstance(r, tuple)]


def test_moves_to_a_grid_s_cells_play_and_fail_alike(tmp_path):
    """A stone on a cell (moved again, onto itself, onto a player's grid), a piece with faces,
    a cell given as decimals: the same states; a taken cell, one off the grid, the wrong
    number of cells, two stones at once: the same refusals at the same lines."""
    moves = ["put 1 1", "again", "again", "put 0 0", "put 0 0", "put 3 0", "put 1 2", "float",
             "tile", "tile one", "two", "mine 0", "mine 0", "mine 0", "mine 2", "back", "put 2 1"]
    failures = in_both(tmp_path, CELLS, moves)
    assert {text for text, _ in failures} >= {
        "error[E504]: cell 0,0 of 'board' is taken", "error[E504]: cell 3,0 is outside the 3 by 2 grid",
        "error[E504]: a tile has 2 faces: it needs 2 cells, not 1",
        "error[E504]: only one component fits on a cell", "error[E504]: cell 2,0 is outside the 2 by 2 grid"}


def test_assignments_to_an_item_and_say_to_play_and_fail_alike(tmp_path):
    """An item of the game's list, a player's, a component's and a local's changed: the same
    states; a position off the list, not whole, a number past the bounds, nobody's list, a
    message to no player: the same refusals at the same lines."""
    moves = (["bump 0", "bump 2", "bump -1", "bump -3", "bump 3", "bump 1.5", "bump 1", "mark 0",
              "mark 2", "slot token1 2", "slot token0 5", "local", "nobody", "tell", "tell nobody"]
             + ["grow"] * 3 + ["mark 1"] * 3)
    failures = in_both(tmp_path, ITEMS, moves)
    assert {text for text, _ in failures} == {
        "error[E504]: position 3 is outside this list of 3", "error[E504]: position 1.5 is outside this list of 3",
        "error[E504]: position 2 is outside this list of 2", "error[E504]: position 5 is outside this list of 3",
        "error[E504]: '.marks' needs a player, not none", "error[E504]: 'say ... to' needs a player",
        "error[E504]: a number beyond ±1e+15: the rules compute without end?"}


def test_blocks_run_in_place_count_steps_as_frames_do(tmp_path):
    """A procedure with a loop whose body branches, run in place: under each budget around
    the one the setup needs, both back ends finish, or both stop blaming the same loop."""
    path = tmp_path / "busy.game"
    path.write_text(BUSY)
    compiled = load(str(path))
    assert "'act'" not in generate_block(compiled.program, compiled.program.setup)
    lines = set()
    for budget in range(100, 160, 3):
        failures = []
        for name in ("interpreter", "compiled"):
            try:
                load(str(path), backend=name, max_steps=budget).new_game(2)
                failures.append(None)
            except RuleError as err:
                failures.append((str(err), err.diagnostic().span.line))
        assert failures[0] == failures[1], (budget, failures)
        lines.add(failures[0] and failures[0][1])
    assert lines >= {None, 10, 16, 20}  # (the for, the while, the repeat; and enough)


LOOPS = """\
game "Loops"
players 2
var n: number = 0
var log: list of number = []
def total(l: list of number) = sum([x for x in l])
procedure deep(d: number):
  let s = total(log)
  if d > 0:
    deep(d - 1)
  n += 1
turn:
  choose by current:
    spin(k in [1, 2, 3]) "spin {k}":
      for i in [1, 2, 3]:
        n += 1
        repeat k times:
          log = log + [i]
          while total(log) < n * k:
            n += 1
        let s = total(log)
      deep(k)
  if n > 400:
    end game
score of p: n
"""


def test_loops_run_in_place_spend_the_budget_where_frames_do(tmp_path):
    """Loops nested in a move's block run in place without the interpreter's loop frames,
    then a procedure calling itself (its blocks' functions calling each other): under each
    budget, every move's state is the interpreter's, or the budget runs out at the same
    statement, blaming the same loop (the innermost around it) or statement at the same line."""
    path = tmp_path / "loops.game"
    path.write_text(LOOPS)
    game = load(str(path))
    source = "\n".join(generate_block(game.program, b) for b in range(len(game.program.blocks)))
    assert "'k': 'for'" not in source and "'k': 'rep'" not in source and "'k': 'while'" not in source
    moves = ["spin 1", "spin 3", "spin 2", "spin 3", "spin 3", "spin 2"]
    lines = set()
    for budget in range(8, 60):
        runs = [played(load(str(path), backend=name, max_steps=budget), moves)
                for name in ("interpreter", "compiled")]
        assert runs[0] == runs[1], budget
        lines |= {r[1] if isinstance(r, tuple) else None for r in runs[0]}
    # (moves that finish; the for, the repeat, the while blamed; the procedure's statements)
    assert lines >= {None, 14, 16, 18, 7, 10}


def test_choices_in_procedures_run_in_place_play_alike(tmp_path):
    """A choice in a branch of a procedure called by a procedure, both run in place (their
    frames made when the choice is reached), `end game` and `end game after round` there, a
    procedure calling itself (not run in place): move for move as the interpreter plays."""
    path = tmp_path / "nested.game"
    path.write_text(NESTED)
    a, b = load(str(path), backend="interpreter"), load(str(path))
    source = generate_block(b.program, b.program.phases[0].turn)
    assert "stack.extend" in source  # (the choice's frames are made in the turn's own code)
    turns = [lockstep(a, b, 2, seed)["turns"] for seed in range(10)]
    assert min(turns) < 5 < max(turns)  # (games stopped early, and games ended after a round)


@pytest.mark.parametrize("seed", range(3))
def test_a_state_waiting_in_a_procedure_run_in_place_resumes_in_either_back_end(tmp_path, seed):
    """The frames at a choice reached in place are the interpreter's: a state of one back
    end plays on in the other, move for move alike, each move's state from the other."""
    path = tmp_path / "nested.game"
    path.write_text(NESTED)
    games = load(str(path), backend="interpreter"), load(str(path))
    state = games[1].new_game(2, seed=seed)
    assert state == games[0].new_game(2, seed=seed)
    for turn in range(8):
        if games[0].is_over(state):
            break
        move = games[0].legal_moves(state)[(seed + turn) % 2]
        after = [game.apply(state, move) for game in games]
        assert after[0] == after[1]
        state = after[turn % 2]
    assert turn > 2


def test_a_call_in_procedures_run_in_place_counts_their_frames_against_the_depth(tmp_path):
    """The activations run in place count as the interpreter's frames do: a call 100
    procedures deep is refused at the same call, after the same moves."""
    path = tmp_path / "deep.game"
    path.write_text(DEEP)
    runs = []
    for name in ("interpreter", "compiled"):
        game = load(str(path), backend=name)
        state, states = game.new_game(2, seed=0), []
        with pytest.raises(RuleError) as err:
            for _ in range(10):
                state = game.apply(state, game.legal_moves(state)[0])
                states.append(state)
        runs.append((states, str(err.value), err.value.diagnostic().span.line))
    assert runs[0] == runs[1]
    assert "'inner' calls itself more than 100 deep" in runs[0][1] and runs[0][2] == 12
