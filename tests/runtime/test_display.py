"""`display:` and `say ... to P`: presentation compiled into Program.display, and a private
message that only its seat's view holds."""

from __future__ import annotations

from gamedsl.pipeline import load


def load_text(text: str):
    return load("told.game", text)

GAME = '''
game "Told"
players 3
kind card:
  copies 6
  show "c"
  state seen: bool = false
zone deck of card: hidden
player zone hand of card: owner
var moves: number = 0
player var points: number = 0
display:
  header "moves so far: " + text(moves)
  hide seen
  table deck "draw pile"
  mat points "points" , hand "hand" (seen "seen")
  reveal hand at end
setup:
  move card to deck
turn:
  say "before"
  draw 1 from deck to current.hand
  say "you drew a card" to current
  say "after"
  moves += 1
  choose by current:
    go "go":
      current.points += 1
    stop "stop":
      end game
'''


def test_display_is_compiled_for_clients():
    game = load_text(GAME)
    d = game.program.display
    assert d.hidden == frozenset({"seen"}) and d.reveal == frozenset({"hand"})
    assert d.table == [("deck", "draw pile")] and d.mat == [("points", "points"), ("hand", "hand")]
    assert d.states == {"hand": (("seen", "seen"),)} and d.label("deck") == "draw pile"
    state = game.new_game(3, 1)
    assert game.view(state, 0)["header"] == "moves so far: 1"


def test_a_private_message_is_in_its_seats_view_only_in_order_and_for_one_move():
    game = load_text(GAME)
    state = game.new_game(3, 1)  # P1's turn has begun: the messages of its start
    views = [game.view(state, s) for s in range(3)]
    assert views[0]["heard"] == ["before", "you drew a card", "after"]
    assert views[0]["told"] == ["you drew a card"]
    assert views[1]["heard"] == ["before", "after"] == views[1]["said"] and views[1]["told"] == []
    state = game.apply(state, game.legal_moves(state)[0])  # P1 goes on; P2's turn begins
    assert game.view(state, 0)["heard"] == ["before", "after"]
    assert game.view(state, 1)["told"] == ["you drew a card"]


def test_the_end_reveals_the_declared_zones():
    game = load_text(GAME)
    state = game.new_game(3, 1)
    assert game.view(state, 1)["zones"]["hand"][0] == {"count": 1}
    state = game.apply(state, {"seat": 0, "alt": "stop", "args": []})
    assert isinstance(game.view(state, 1)["zones"]["hand"][0], list)
