"""Cooperative and team games (one shared result, teams ranked as one) and one move per
look-alike component, through the public Game API, in both back ends."""

import pytest

from gamedsl.logs import replay, write_log
from gamedsl.pipeline import load
from gamedsl.syntax.parser import parse

BACKENDS = ["compiled", "interpreter"]

COOP = """game "together"
players 2..3
cooperative
var stars: number = 0
score: stars
turn:
  choose by current:
    shine "shine":
      stars += 1
    fail "fail":
      end game lost
  if stars >= 3:
    end game won
"""

TEAMS = """game "teams"
players 4
player var points: number = 0
team of p: seat(p) % 2
score of p: p.points
turn:
  choose by current:
    one "one":
      current.points += 1
    three "three":
      current.points += 3
  if round == 2:
    end game after round
"""

ALIKE = """game "alike"
players 2
var chosen: card? = none
table cards:
  | colour | copies |
  | green  | 2      |
  | red    | 1      |
kind card:
  from cards
  copies copies
  show colour
  state worn: bool = false
player zone hand of card: owner
zone pile of card: public
zone board of card: grid 3 by 1
setup:
  move card to players[0].hand
turn:
  choose by current:
    play(c in current.hand) "play {c}":
      move c to pile
    pair(a in current.hand, b in current.hand) "pair {a} {b}" if a != b:
      pass
    wait "wait":
      pass
"""


def game_from(text, tmp_path, backend):
    path = tmp_path / "g.game"
    path.write_text(text)
    return load(str(path), backend=backend)


def texts(g, s):
    return [g.move_text(s, m) for m in g.legal_moves(s)]


@pytest.mark.parametrize("backend", BACKENDS)
def test_a_cooperative_game_is_won_together_with_one_shared_score(tmp_path, backend):
    g = game_from(COOP, tmp_path, backend)
    s = g.new_game(3, seed=1)
    assert g.sides(s) == [[0, 1, 2]] and g.cooperative
    for _ in range(3):
        s = g.apply(s, g.parse_move(s, "shine"))
    r = g.results(s)
    assert r["cooperative"] and r["outcome"] == "won"
    assert r["winners"] == [0, 1, 2] and r["ranks"] == [1, 1, 1]
    assert r["shared_score"] == 3 and r["scores"] == [3, 3, 3]


@pytest.mark.parametrize("backend", BACKENDS)
def test_a_cooperative_game_is_lost_together(tmp_path, backend):
    g = game_from(COOP, tmp_path, backend)
    s = g.new_game(2, seed=1)
    s = g.apply(s, g.parse_move(s, "shine"))
    s = g.apply(s, g.parse_move(s, "fail"))
    r = g.results(s)
    assert r["outcome"] == "lost" and r["winners"] == [] and r["shared_score"] == 1


@pytest.mark.parametrize("backend", BACKENDS)
def test_teams_are_ranked_by_their_summed_score(tmp_path, backend):
    g = game_from(TEAMS, tmp_path, backend)
    s = g.new_game(4, seed=1)
    assert g.sides(s) == [[0, 2], [1, 3]]
    # P1 3, P2 3, P3 1, P4 1, then P1 1, P2 1, P3 1, P4 3: team P1+P3 6, team P2+P4 8
    for text in ["three", "three", "one", "one", "one", "one", "one", "three"]:
        s = g.apply(s, g.parse_move(s, text))
    r = g.results(s)
    assert r["teams"] == [[0, 2], [1, 3]] and r["team_scores"] == [6, 8]
    assert r["team_ranks"] == [2, 1] and r["ranks"] == [2, 1, 2, 1]
    # P1 has the best score of anyone, but P2's team wins: both its players
    assert r["scores"][0] == 4 and r["winners"] == [1, 3]


@pytest.mark.parametrize("backend", BACKENDS)
def test_identical_components_give_one_move_and_a_named_copy_still_applies(tmp_path, backend):
    g = game_from(ALIKE, tmp_path, backend)
    s = g.new_game(2, seed=1)
    assert texts(g, s) == ["play green", "play red", "pair green green", "pair green red",
                           "pair red green", "wait"]
    second = {"seat": 0, "alt": "play", "args": [1]}  # the second green: not listed, still legal
    assert second not in g.legal_moves(s) and g.is_legal(s, second)
    after = g.apply(s, second)
    assert after["zones"]["pile"] == [1]


def test_a_log_naming_the_second_copy_replays_as_played(tmp_path):
    # a log written before copies were merged names the copy that was played
    g = game_from(ALIKE, tmp_path, "compiled")
    s = g.new_game(2, seed=1)
    moves = [({"seat": 0, "alt": "play", "args": [1]}, "play green"), ({"seat": 1, "alt": "wait", "args": []}, "wait")]
    for move, _ in moves:
        s = g.apply(s, move)
    write_log(tmp_path / "old.jsonl", g, 2, 1, {}, 5000, moves)
    done = replay(tmp_path / "old.jsonl")
    assert done.state["zones"]["pile"] == [1] and done.state == s


@pytest.mark.parametrize("backend", BACKENDS)
def test_copies_a_state_or_a_variable_tells_apart_are_two_moves(tmp_path, backend):
    g = game_from(ALIKE, tmp_path, backend)
    s = g.new_game(2, seed=1)
    worn = g.run_statements(s, _parse_body("first(card).worn = true"))
    assert texts(g, worn).count("play green") == 2
    named = g.run_statements(s, _parse_body("chosen = first(card)"))
    assert texts(g, named).count("play green") == 2


MARKED = """game "marked"
players 2
kind card:
  copies 3
  show "card"
zone deck of card: public
player zone hand of card: public
player var points: number = 0
setup:
  move card to deck
  draw 3 from deck to first(players).hand
turn:
  let marked = last(current.hand)
  choose by current:
    play(c in current.hand) "play {c}":
      if c == marked:
        current.points += 5
      move c to deck
  end game
score of p: p.points
"""


@pytest.mark.parametrize("backend", BACKENDS)
def test_a_copy_a_local_name_holds_is_a_move_of_its_own(tmp_path, backend):
    # the rules tell the marked card from its look-alikes: so does the list of moves
    g = game_from(MARKED, tmp_path, backend)
    s = g.new_game(2, seed=1)
    moves = g.legal_moves(s)
    assert [m["args"] for m in moves] == [[0], [2]]
    assert g.results(g.apply(s, moves[1]))["scores"] == [5, 0]


HIDDEN = """game "blind"
players 2
table cards:
  | colour | copies |
  | green  | 3      |
kind card:
  from cards
  copies copies
  show colour
zone deck of card: hidden
player zone hand of card: owner
setup:
  move card to deck
  draw 2 from deck to players[1].hand
turn:
  choose by current:
    take(c in deck) "take a card":
      move c to current.hand
    steal(c in players[1].hand) "steal a card" if current != players[1]:
      move c to current.hand
"""


@pytest.mark.parametrize("backend", BACKENDS)
def test_copies_the_seat_cannot_see_are_not_merged(tmp_path, backend):
    # merging them would tell P1 that the deck's card and P2's two are alike
    g = game_from(HIDDEN, tmp_path, backend)
    s = g.new_game(2, seed=1)
    assert [m["alt"] for m in g.legal_moves(s)] == ["take", "steal", "steal"]


def _parse_body(text):
    tree, _ = parse("turn:\n  " + text + "\n")
    return tree.decls[0].body
