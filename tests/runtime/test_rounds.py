"""Rounds that last until everyone has left them (`leave round`, `end round`, `in_round`), the
header's counter (`var ..., counter`), the lowest score winning (`score ..., lowest wins`) and
a parameter that may be nobody (`x in L or nobody`), in both back ends."""

from __future__ import annotations

import pytest

from gamedsl.pipeline import load
from gamedsl.runtime.values import in_round

BACKENDS = ("compiled", "interpreter")

# Each turn a player takes one coin from the pot, or takes the row (the coins on the table)
# and leaves the round. The round ends by itself once everyone has taken a row.
ROWS = '''game "Rows"
players 2..4
player var coins: number = 0
player var taken: number = 0
var row: number = 0
var hand: number = 1, counter
var rounds_seen: list of number = []

turn:
  choose by current:
    add "add a coin":
      row += 1
    take "take the row":
      current.coins += row
      current.taken += 1
      row = 0
      leave round
  rounds_seen = rounds_seen + [round]
  if len(in_round) == 0:
    hand += 1
  if hand > 2:
    end game after round

score of p: p.coins, lowest wins
'''


def game(tmp_path, text=ROWS, backend="compiled"):
    path = tmp_path / "g.game"
    path.write_text(text, encoding="utf-8")
    return load(str(path), backend=backend)


def play(g, s, *texts):
    for t in texts:
        s = g.apply(s, g.parse_move(s, t))
    return s


@pytest.mark.parametrize("backend", BACKENDS)
def test_a_player_who_left_is_skipped_and_the_round_ends_when_everyone_has_left(tmp_path, backend):
    g = game(tmp_path, backend=backend)
    s = g.new_game(3, seed=1)
    s = play(g, s, "add a coin", "take the row")          # P2 leaves with 1 coin
    assert s["flow"]["current"] == 2
    assert in_round(s) == [0, 2]
    s = play(g, s, "add a coin")                           # P3
    assert s["flow"]["current"] == 0                       # P1: P2 is skipped
    s = play(g, s, "add a coin", "add a coin")             # P1, P3
    assert s["flow"]["current"] == 0 and s["flow"]["round"] == 1   # laps are not rounds here
    s = play(g, s, "take the row", "take the row")         # P1 leaves, then P3: everyone has left
    assert in_round(s) == [0, 1, 2]
    assert s["flow"]["round"] == 2 and s["flow"]["current"] == 0   # start_player leads the next
    s = play(g, s, "add a coin")
    assert s["vars"]["rounds_seen"] == [1] * 7 + [2]
    assert s["pvars"]["coins"] == [3, 1, 0]


@pytest.mark.parametrize("backend", BACKENDS)
def test_end_game_after_round_waits_for_everyone_to_leave(tmp_path, backend):
    g = game(tmp_path, backend=backend)
    s = g.new_game(2, seed=1)
    s = play(g, s, "take the row", "take the row")         # hand 1 over
    s = play(g, s, "add a coin", "take the row")           # hand 2: P2 leaves, hand becomes 3
    assert not g.is_over(s)
    s = play(g, s, "add a coin", "add a coin")             # P1 alone: still the same round
    assert not g.is_over(s)
    s = play(g, s, "take the row")
    assert g.is_over(s)


@pytest.mark.parametrize("backend", BACKENDS)
def test_the_lowest_score_wins_and_is_shown_as_it_is(tmp_path, backend):
    g = game(tmp_path, backend=backend)
    s = g.new_game(2, seed=1)
    s = play(g, s, "add a coin", "add a coin", "take the row", "take the row",
              "take the row", "add a coin", "take the row")
    assert g.is_over(s)
    r = g.results(s)
    assert r["scores"] == [2, 1] and r["winners"] == [1] and r["ranks"] == [2, 1]
    assert g.lowest_wins and g.heuristics(s) == [-2, -1]   # bots: higher is better


def test_the_header_shows_the_counter(tmp_path):
    g = game(tmp_path)
    s = g.new_game(2, seed=1)
    assert g.header(s) == "hand 1" and g.view(s, 0)["header"] == "hand 1"
    s = play(g, s, "take the row", "take the row")
    assert g.view(s, 1)["header"] == "hand 2"


TARGET = '''game "Target"
players 3
player var hits: number = 0
player var shielded: bool = false
var tries: number = 0

turn:
  choose by current:
    aim(p in [q for q in others(current) if not q.shielded] or nobody) "aim at {p}":
      tries += 1
      if p != none:
        p.hits += 1
    hide "hide":
      current.shielded = true
  if tries >= 4:
    end game

score of p: p.hits
'''


@pytest.mark.parametrize("backend", BACKENDS)
def test_nobody_is_the_one_move_when_the_list_is_empty(tmp_path, backend):
    g = game(tmp_path, TARGET, backend)
    s = g.new_game(3, seed=1)
    assert [g.move_text(s, m) for m in g.legal_moves(s)] == ["aim at P2", "aim at P3", "hide"]
    s = play(g, s, "hide", "hide")                         # P1 and P2 behind shields
    moves = g.legal_moves(s)
    assert [g.move_text(s, m) for m in moves] == ["aim at nobody", "hide"]
    assert moves[0]["args"] == [None]
    assert g.move_parts(s, moves[0]) == ("aim at <p>", [("p", "nobody")])
    s = play(g, s, "aim at nobody")
    assert s["vars"]["tries"] == 1 and g.results(s)["scores"] == [0, 0, 0]
    with pytest.raises(Exception):
        g.parse_move(s, "aim at nobody")                   # P1 has targets again: not offered
