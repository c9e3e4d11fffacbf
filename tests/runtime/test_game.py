"""The engine's contract: plain-data state, refusals that change nothing, budgets, secrets."""

import json

import pytest

from gamedsl.errors import GameError
from gamedsl.errors import OptionError
from gamedsl.runtime.program import ChooseStmt
from gamedsl.runtime.state import clone
from gamedsl.errors import MoveError, RuleError
from gamedsl.pipeline import load
from tests.support.fixtures import COUNTER


def game_from(text, tmp_path, name="g.game"):
    path = tmp_path / name
    path.write_text(text)
    return load(str(path))


def dump(state):
    return json.dumps(state, sort_keys=True)


def test_moves_apply_and_the_winner_is_declared(tmp_path):
    g = game_from(COUNTER, tmp_path)
    s = g.new_game(2, seed=1)
    assert [g.move_text(s, m) for m in g.legal_moves(s)] == ["add 1", "add 2", "hold"]
    for text in ["add 2", "add 1", "add 2", "hold", "add 2"]:
        s = g.apply(s, g.parse_move(s, text))
    assert g.is_over(s)
    assert g.results(s)["winners"] == [0]
    assert g.results(s)["scores"] == [6, 1]


def test_a_refused_move_leaves_the_state_unchanged(tmp_path):
    g = game_from(COUNTER, tmp_path)
    s = g.new_game(2, seed=1)
    before = dump(s)
    for bad in ({"seat": 0, "alt": "add", "args": [3]}, {"seat": 1, "alt": "hold", "args": []},
                {"seat": 0, "alt": "jump", "args": []}, {"nonsense": True}, "add 1"):
        with pytest.raises(MoveError):
            g.apply(s, bad)
        assert dump(s) == before
    with pytest.raises(MoveError) as err:
        g.parse_move(s, "add 7")
    assert "legal moves start with" in err.value.message


def test_a_refused_text_is_repeated_on_one_short_line_without_control_characters(tmp_path):
    g = game_from(COUNTER, tmp_path)
    s = g.new_game(2, seed=1)
    for typed, shown in [("add  7\n", "'add 7'"), ("a\x1b[2Jb", "'a\\x1b[2Jb'"), ("x" * 100_000, "'" + "x" * 60 + "…'")]:
        with pytest.raises(MoveError) as err:
            g.parse_move(s, typed)
        assert err.value.message.startswith(shown + " is not a legal move"), err.value.message
        assert "\n" not in err.value.message and "\x1b" not in err.value.message


def test_state_survives_json_mid_turn_and_replays_identically(tmp_path):
    g = game_from(COUNTER, tmp_path)
    s = g.new_game(3, seed=7)
    moves = []
    while not g.is_over(s):
        m = g.legal_moves(s)[len(moves) % 2]
        moves.append(m)
        reloaded = json.loads(json.dumps(s))
        assert g.apply(reloaded, m) == g.apply(s, m)
        s = g.apply(s, m)
    again = g.new_game(3, seed=7)
    for m in moves:
        again = g.apply(again, m)
    assert dump(again) == dump(s)


def test_options_are_checked(tmp_path):
    g = game_from(COUNTER, tmp_path)
    assert g.new_game(2, options={"target": "2"})["options"]["target"] == 2
    with pytest.raises(OptionError, match="1..20"):
        g.new_game(2, options={"target": "99"})
    with pytest.raises(OptionError, match="unknown option"):
        g.new_game(2, options={"speed": "1"})
    with pytest.raises(OptionError, match="2 to 3 players"):
        g.new_game(4)


def test_a_runaway_loop_stops_with_its_line(tmp_path):
    text = COUNTER.replace("    hold \"hold\":\n      pass", "    hold \"hold\":\n      while true:\n        pass")
    g = game_from(text, tmp_path)
    s = g.new_game(2)
    before = dump(s)
    with pytest.raises(RuleError) as err:
        g.apply(s, g.parse_move(s, "hold"))
    assert err.value.code == "E501"
    assert err.value.span.line == 12  # the `while` that never ends
    assert dump(s) == before


def test_runaway_recursion_stops(tmp_path):
    text = COUNTER + "def forever(n: number) = forever(n + 1)\nresult r of p: forever(1)\n"
    g = game_from(text, tmp_path)
    s = g.new_game(2)
    with pytest.raises(RuleError) as err:
        g.results(s)
    assert err.value.code == "E502"


SECRET = '''
game "Secret bids"
players 3
player var bid: number = 0, secret
player var shown: number = 0

turn:
  choose secretly by each p in players:
    bid(n in [1, 2, 3]) "bid {n}":
      p.bid = n
  for p in players:
    p.shown = p.bid
  end game

score of p: p.shown
'''


def test_secret_choices_are_hidden_until_all_have_chosen(tmp_path):
    g = game_from(SECRET, tmp_path)
    s = g.new_game(3)
    assert g.waiting_for(s) == [0, 1, 2]
    s = g.apply(s, g.parse_move(s, "bid 3", seat=1))
    assert g.waiting_for(s) == [0, 2]
    assert g.view(s, 1)["submitted"]["args"] == [3]
    assert g.view(s, 0)["submitted"] is None
    assert "3" not in json.dumps(g.view(s, 0)["pvars"]["shown"])
    with pytest.raises(MoveError):
        g.apply(s, g.parse_move(g.new_game(3), "bid 1", seat=1) | {"seat": 1})
    s = g.apply(s, g.parse_move(s, "bid 1", seat=0))
    s = g.apply(s, g.parse_move(s, "bid 2", seat=2))
    assert g.is_over(s)
    assert g.results(s)["scores"] == [1, 3, 2]
    assert g.view(s, 0)["pvars"]["bid"] == [1, "?", "?"]


def test_a_variant_replaces_what_it_redeclares(tmp_path):
    game_from(COUNTER, tmp_path, "base.game")
    variant = 'extends "base.game"\ngame "Counter, quick"\noption target: 1..20 = 2\n'
    g = game_from(variant, tmp_path, "quick.game")
    assert g.title == "Counter, quick"
    s = g.new_game(2)
    s = g.apply(s, g.parse_move(s, "add 2"))
    assert g.is_over(s)


def test_a_variant_may_not_reach_outside_its_folder(tmp_path):
    with pytest.raises(GameError) as err:
        game_from('extends "../base.game"\n', tmp_path)
    assert err.value.diagnostics[0].code == "E007"


def test_clone_is_deep(tmp_path):
    g = game_from(COUNTER, tmp_path)
    s = g.new_game(2)
    c = clone(s)
    c["pvars"]["total"][0] = 99
    assert s["pvars"]["total"][0] == 0


ROUNDS = '''
game "Rounds"
players 2..3
player var turns: number = 0
var order: list of player = []

phase play:
  turn:
    current.turns += 1
    choose by current:
      ok "ok":
        pass
  end when round > 2
  then tally

phase tally:
  on begin:
    order = sort p in players by most seat(p), then fewest p.turns

score of p: p.turns
'''


def test_end_when_round_counts_whole_rounds(tmp_path):
    g = game_from(ROUNDS, tmp_path)
    for n in (2, 3):
        s = g.new_game(n)
        while not g.is_over(s):
            s = g.apply(s, g.legal_moves(s)[0])
        assert g.results(s)["scores"] == [2] * n
        assert s["vars"]["order"] == list(reversed(range(n)))


def test_a_sort_ends_at_a_plain_comma(tmp_path):
    text = ROUNDS + "def leader() = first(sort p in players by most p.turns, then fewest seat(p))\n"
    text += "result once of p: count(sort q in players by most q.turns, p)\n"
    g = game_from(text.replace("order = sort", "order = [leader()] + sort"), tmp_path)
    s = g.new_game(2)
    while not g.is_over(s):
        s = g.apply(s, g.legal_moves(s)[0])
    assert s["vars"]["order"] == [0, 1, 0]
    assert g.results(s)["fields"]["once"] == [1, 1]


SEQUENCES = '''
game "Sequences"
players 2
var numbers: list of number = [5, 1, 2, 3, 9, 7, 8, 2]
result r of p: runs(numbers, 2)
result longest of p: longest_run(numbers)
result chain0 of p: chain([0, 1, 3], 0, seat(p) - 1)
result tally of p: counts([3, 1, 3])
result nothing of p: longest_run([])

turn:
  end game
'''


def test_sequence_builtins(tmp_path):
    g = game_from(SEQUENCES, tmp_path)
    s = g.new_game(2)
    fields = g.results(s)["fields"]
    assert fields["r"][0] == [[1, 2, 3], [7, 8, 9]]
    assert fields["longest"][0] == 3
    assert fields["chain0"] == [2, 4]   # 0,1 then a gap; with one joker 0,1,(2),3
    assert fields["tally"][0] == [[3, 2], [1, 1]]
    assert fields["nothing"][0] == 0


PUBLIC = '''
game "Public facts"
players 2
kind card:
  copies 6
player zone hand of card: owner
zone deck of card: hidden
public cards of p: len(p.hand)
public big of p: len([c for c in p.hand if c > 2])

setup:
  move card to deck
  draw 2 from deck to first(players).hand
  draw 1 from deck to last(players).hand

turn:
  end game
'''


def test_public_facts_are_seen_by_every_seat(tmp_path):
    g = game_from(PUBLIC.replace("c > 2", "seat(holder(c)) > 0"), tmp_path)
    s = g.new_game(2)
    for seat in (0, 1):
        assert g.view(s, seat)["public"] == {"cards": [2, 1], "big": [2, 1]}
    assert g.view(s, 1)["zones"]["hand"][0] == {"count": 2}


ITEMS = '''
game "List items"
players 2
kind box:
  copies 2
  state tally: list of number = [0, 0]
player var marks: list of number = [1, 1, 1]
var before: list of number = []

setup:
  let b = first(box)
  before = b.tally
  b.tally[seat(last(players)) - 1] += 3
  last(players).marks[-1] = 7

turn:
  end game

result tally of p: first(box).tally
result other of p: last(box).tally
result marks of p: p.marks
result before of p: before
'''


def test_an_item_of_a_list_changes_alone(tmp_path):
    g = game_from(ITEMS, tmp_path)
    s = g.new_game(2)
    fields = g.results(s)["fields"]
    assert fields["tally"][0] == [0, 3]
    assert fields["other"][0] == [0, 0]          # the other box's list is its own
    assert fields["marks"] == [[1, 1, 1], [1, 1, 7]]
    assert fields["before"][0] == [0, 0]         # a copy taken before keeps its items


def test_an_item_past_the_end_is_a_rule_error(tmp_path):
    with pytest.raises(RuleError, match="outside this list of 2"):
        g = game_from(ITEMS.replace("seat(last(players)) - 1", "5"), tmp_path)
        g.new_game(2)


PAIRS = '''
game "Pairs"
players 2

turn:
  choose by current:
    pick(a in [1, 2, 3], b in [x for x in [1, 2, 3, 4] if x > a]) "pick {a} {b}":
      end game winner current
    both(a in [1, 2], b in [5, 6]) "both {a} {b}" if a + b != 7:
      end game winner current
    none_left(a in [x for x in [1] if x > 1], b in [1]) "none {a} {b}":
      pass
'''


def test_moves_are_listed_in_order_whether_or_not_a_choice_depends_on_another(tmp_path):
    # `pick` lists b for each a (b's choices name a); `both` and `none_left` are the product of
    # choices computed once, `both` filtered by its guard, `none_left` empty by its first list
    g = game_from(PAIRS, tmp_path)
    fixed = {a.name: a.fixed for st in g.program.stmts if isinstance(st, ChooseStmt) for a in st.alts}
    assert fixed == {"pick": False, "both": True, "none_left": True}
    s = g.new_game(2)
    moves = [(m["alt"], m["args"]) for m in g.legal_moves(s)]
    assert moves == [("pick", [1, 2]), ("pick", [1, 3]), ("pick", [1, 4]), ("pick", [2, 3]), ("pick", [2, 4]),
                     ("pick", [3, 4]), ("both", [1, 5]), ("both", [2, 6])]
    for m in g.legal_moves(s):
        assert g.is_legal(s, m)
    assert not g.is_legal(s, {"seat": 0, "alt": "both", "args": [1, 6]})
    assert not g.is_legal(s, {"seat": 0, "alt": "pick", "args": [3, 3]})


@pytest.mark.parametrize("module", ["gamedsl.runtime.tiling", "gamedsl.runtime.wordlists", "gamedsl.runtime.builtins"])
def test_each_module_imports_on_its_own(module):
    # builtins and tiling import each other: whichever comes first, both must load
    import subprocess
    import sys
    from pathlib import Path
    root = Path(__file__).resolve().parents[2]
    done = subprocess.run([sys.executable, "-c", f"import {module}"], cwd=root,
                          capture_output=True, text=True)
    assert done.returncode == 0, done.stderr


THEN_SECRET = '''
game "Then secret"
players 2
player var chose_right: bool = false

turn:
  choose by current:
    left "left":
      pass
    right "right":
      current.chose_right = true
  if current.chose_right:
    end game
  choose secretly by each p in players:
    low "low":
      pass
    high "high":
      pass
  end game
'''


def test_moves_listed_by_a_choose_are_those_of_the_decision_now(tmp_path):
    # A `choose` keeps the moves it listed for the next listing of the same decision: a
    # move played without that listing must not leave them for the next decision.
    g = game_from(THEN_SECRET, tmp_path)
    s = g.new_game(2, seed=3)
    g.apply_legal(s, {"seat": 0, "alt": "left", "args": []}, in_place=True)
    assert [m["alt"] for m in g.legal_moves(s, 0)] == ["low", "high"]
    assert [m["alt"] for m in g.legal_moves(s, 1)] == ["low", "high"]
    s = g.new_game(2, seed=3)
    g.apply_legal(s, {"seat": 0, "alt": "right", "args": []}, in_place=True)
    assert g.is_over(s)
    assert g.legal_moves(s, 0) == []


def test_the_moves_handed_out_belong_to_the_caller(tmp_path):
    g = game_from(COUNTER, tmp_path)
    s = g.new_game(2, seed=1)
    first = g.legal_moves(s)
    first[0]["args"].append(99)
    first.clear()
    assert [g.move_text(s, m) for m in g.legal_moves(s)] == ["add 1", "add 2", "hold"]


@pytest.mark.parametrize("name", ["trade_tycoon", "legendary_inventors"])
def test_listing_after_a_move_in_place_is_a_fresh_listing(name):
    g = load(f"games/{name}.game")
    rng = __import__("random").Random(7)
    s = g.new_game(3, seed=7)
    steps = 0
    while not g.is_over(s) and steps < 150:
        for seat in g.waiting_for(s):
            fresh = g.legal_moves(clone(s), seat)
            assert g.legal_moves(s, seat) == fresh
            assert g.legal_moves(s, seat) == fresh
        seat = g.waiting_for(s)[0]
        g.apply_legal(s, rng.choice(g.legal_moves(clone(s), seat)), in_place=True)
        steps += 1
    assert steps > 50


def test_each_statement_has_its_own_work_budget(tmp_path):
    # 3,000 statements of ~3,000 values each: 9 million values in one run, more than one
    # expression may go through, but no single statement comes near it. The run's step budget
    # counts them (100 values a step): a budget large enough lets them all run, the default
    # stops them as the runaway they would be at the loop.
    text = COUNTER.replace("    hold \"hold\":\n      pass", "    hold \"hold\":\n      repeat 3000 times:\n"
                           "        current.total = len([i for i in range(1, 1000) if i >= 0])")
    path = tmp_path / "g.game"
    path.write_text(text)
    g = load(str(path), max_steps=200_000)
    s = g.apply(g.new_game(2), {"seat": 0, "alt": "hold", "args": []})
    assert s["pvars"]["total"] == [1000, 0]  # (range(1, 1000) includes both ends)
    g = load(str(path))
    with pytest.raises(RuleError) as err:
        g.apply(g.new_game(2), {"seat": 0, "alt": "hold", "args": []})
    assert err.value.code == "E501" and "repeat 3000 times" in text.splitlines()[err.value.span.line - 1]


def test_full_width_digits_and_signs_are_read_as_ascii():
    """A move typed from a Japanese keyboard (１, ，, ＊, the ideographic space) reads as ASCII."""
    from gamedsl.runtime.game import halfwidth
    assert halfwidth("place １ at ２，－３　right claim き＊") == "place 1 at 2,-3 right claim き*"
    assert halfwidth("ねこ、いぬ") == "ねこ、いぬ"


def test_scenario_snippets_leave_the_compiled_program_as_it_was(tmp_path):
    """A scenario's statements and expressions are compiled on their own, beside the game's
    Program: they run against it but never add to it."""
    import textwrap

    from gamedsl.syntax.parser import parse

    g = game_from(COUNTER, tmp_path)
    blocks, stmts = g.program.blocks, g.program.stmts
    tree, errors = parse("setup:\n" + textwrap.indent("current.total = 5\nfor i in [1, 2]:\n  current.total += i\n", "  "), "<given>")
    assert not errors
    state = g.new_game(2, seed=1)
    before = dump(state)
    after = g.run_statements(state, tree.decls[0].body)
    assert after["pvars"]["total"][0] == 8 and dump(state) == before
    score, errors = parse("score of p: current.total * 2\n", "<expr>")
    assert g.evaluate(after, score.decls[0].expr) == 16
    assert g.program.blocks is blocks and g.program.stmts is stmts
    assert not hasattr(g.program, "compiler")
