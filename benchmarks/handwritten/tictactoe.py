"""Tic-tac-toe written by hand behind the engine's API: what the tree walk's target asks of a back end.

The same game as examples/tictactoe.game, behind the same kind of API as gamedsl's Game, as
`benchmarks/handwritten/trade_tycoon.py` is for Trade Tycoon: `new_game(players, seed)`,
`waiting_for`, `legal_moves`, `apply` (a new state, the move checked; the given state is
untouched), `is_over`, `results`. A state is plain data: the stones are the engine's
components (0-4 the first player's, 5-9 the second's), the supply a list, the board a dict
from a cell's key ("x,y") to the stone on it, and a move the engine's move dict
({"seat", "alt": "place", "args": [[x, y]]}), so the tree walk takes this module as it takes
a `Game` (`python benchmarks/tree_walk.py --handwritten`).

It is written as a back end with a state of its own would write it: the board looked up by
cell, every line looked at after each move (as the rules say), the move checked against the
empty cells without listing the moves. What it does not do, and the engine does, is its price: no step
budget, no rule coverage, no messages.
"""

from __future__ import annotations

from typing import List, Optional

SIZE = 3
STONES_EACH = 5
CELLS = [(x, y) for x in range(SIZE) for y in range(SIZE)]
KEYS = {cell: f"{cell[0]},{cell[1]}" for cell in CELLS}
# the eight three-in-a-rows, as cell keys
LINES = ([[KEYS[(x, y)] for x in range(SIZE)] for y in range(SIZE)]
         + [[KEYS[(x, y)] for y in range(SIZE)] for x in range(SIZE)]
         + [[KEYS[(i, i)] for i in range(SIZE)], [KEYS[(i, SIZE - 1 - i)] for i in range(SIZE)]])

min_players = max_players = 2


def new_game(players: int = 2, seed: int = 0) -> dict:
    if players != 2:
        raise ValueError("tic-tac-toe is for 2 players")
    return {"n": 2, "supply": list(range(2 * STONES_EACH)), "board": {},
            "flow": {"start": 0, "current": 0, "over": False, "winners": [], "turn": 1}}


def owner(stone: int) -> int:
    return stone // STONES_EACH


def is_over(state: dict) -> bool:
    return state["flow"]["over"]


def waiting_for(state: dict) -> List[int]:
    flow = state["flow"]
    return [] if flow["over"] else [flow["current"]]


def legal_moves(state: dict, seat: Optional[int] = None) -> List[dict]:
    flow = state["flow"]
    current = flow["current"]
    if flow["over"] or (seat is not None and seat != current):
        return []
    board = state["board"]
    return [{"seat": current, "alt": "place", "args": [[x, y]]} for (x, y) in CELLS if KEYS[(x, y)] not in board]


def _cell_of(move: dict) -> Optional[str]:
    """The key of the empty cell `move` places on, if it is a well-formed place."""
    args = move.get("args")
    if move.get("alt") != "place" or type(args) is not list or len(args) != 1:
        return None
    cell = args[0]
    if type(cell) is not list or len(cell) != 2:
        return None
    return KEYS.get((cell[0], cell[1])) if type(cell[0]) is int and type(cell[1]) is int else None


def apply(state: dict, move: dict) -> dict:
    """The state after `move`; raises ValueError (the state unchanged) if it is not legal now."""
    flow = state["flow"]
    if flow["over"]:
        raise ValueError("the game is over")
    if type(move) is not dict or move.get("seat") != flow["current"]:
        raise ValueError(f"not this seat's turn: {move}")
    key = _cell_of(move)
    if key is None or key in state["board"]:
        raise ValueError(f"not a legal move now: {move}")
    return _placed(state, key)


def _placed(state: dict, key: str) -> dict:
    flow = dict(state["flow"])
    board = dict(state["board"])
    supply = list(state["supply"])
    current = flow["current"]
    stone = next(s for s in supply if owner(s) == current)
    supply.remove(stone)
    board[key] = stone
    if any(all(k in board and owner(board[k]) == current for k in line) for line in LINES):
        flow["over"], flow["winners"] = True, [current]
    elif len(board) == SIZE * SIZE:
        flow["over"] = True
    else:
        flow["current"] = 1 - current
        flow["turn"] += 1
    return {"n": 2, "supply": supply, "board": board, "flow": flow}


def results(state: dict) -> dict:
    flow = state["flow"]
    winners = list(flow["winners"])
    return {"finished": flow["over"], "unfinished": False, "scores": [0, 0],
            "ranks": [1 if not winners or p in winners else 2 for p in range(2)],
            "winners": winners if winners or not flow["over"] else [0, 1]}
