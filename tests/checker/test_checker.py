"""The checker: golden bad files (tests/checker/bad/*.game), clean examples, types and messages.

Each file in tests/checker/bad starts with ``# expect: CODE LINE:COL`` lines, one per diagnostic
it must produce; the test demands exactly those (no more, no fewer).
"""

from __future__ import annotations

import re
from pathlib import Path

import attrs
import pytest

from gamedsl.syntax import ast as A
from gamedsl.checker import types as T
from gamedsl.checker.checker import check
from gamedsl.diagnostics import render_all
from gamedsl.checker.signatures import BUILTIN_NAMES, BUILTINS
from gamedsl.syntax.parser import parse
from tests.support.fixtures import codes, diagnose

ROOT = Path(__file__).resolve().parents[2]
BAD = Path(__file__).resolve().parent / "bad"
EXPECT = re.compile(r"^#\s*expect:\s*([EW]\d{3})\s+(\d+):(\d+)\s*$", re.M)


def docs_example() -> str:
    md = (ROOT / "docs" / "language.md").read_text("utf-8")
    blocks = re.findall(r"```game\n(.*?)```", md, re.S)
    return next(b for b in blocks if 'game "Highest card"' in b)


# ---------------------------------------------------------------- golden bad files


@pytest.mark.parametrize("path", sorted(BAD.glob("*.game")), ids=lambda p: p.stem)
def test_bad_file(path: Path):
    text = path.read_text("utf-8")
    expected = sorted((c, int(line), int(col)) for c, line, col in EXPECT.findall(text))
    assert expected, f"{path.name} must start with '# expect: CODE LINE:COL' lines"
    diags, _ = diagnose(text, str(path))
    got = sorted((d.code, d.span.line, d.span.col) for d in diags)
    assert got == expected, render_all(diags, {str(path): text})


# ---------------------------------------------------------------- clean games


@pytest.mark.parametrize("path", sorted((Path(__file__).resolve().parent / "good").glob("*.game")),
                         ids=lambda p: p.stem)
def test_good_file_is_silent(path: Path):
    text = path.read_text("utf-8")
    diags, result = diagnose(text, str(path))
    assert diags == [], render_all(diags, {str(path): text})
    exprs = []
    expressions(parse(text, str(path))[0], exprs)
    assert [e for e in exprs if e not in result.types] == []


def test_tictactoe_is_clean():
    path = ROOT / "examples" / "tictactoe.game"
    diags, _ = diagnose(path.read_text("utf-8"), str(path))
    assert diags == []


def test_docs_example_is_clean():
    diags, _ = diagnose(docs_example(), "docs/language.md")
    assert diags == []


@pytest.mark.parametrize("path", sorted((ROOT / "games").glob("*.game")) +
                         sorted((ROOT / "examples").glob("*.game")), ids=lambda p: p.stem)
def test_shipped_games_are_clean(path: Path):
    """DESIGN.md: `gamedsl check` on every file in games/ and examples/ is clean."""
    from gamedsl.pipeline import parse_with_extends
    loaded = parse_with_extends(str(path))
    assert loaded.game is not None, render_all(loaded.diagnostics, loaded.sources)
    result = check(loaded.game, loaded.sources)
    assert result.diagnostics == [], render_all(result.diagnostics, loaded.sources)


EXPR_TYPES = (A.Name, A.Number, A.Text, A.Bool, A.NoneLit, A.Attribute, A.Index, A.Call,
              A.BinOp, A.Compare, A.And, A.Or, A.Not, A.Negate, A.Conditional, A.ListExpr,
              A.TupleExpr, A.Comprehension, A.Sort)


def expressions(node, out, skip=False):
    """Every expression node of a tree (not the names that only label: var flags, 'then')."""
    if isinstance(node, tuple):
        for item in node:
            expressions(item, out, skip)
        return
    if not attrs.has(type(node)):
        return
    if isinstance(node, EXPR_TYPES) and not skip:
        out.append(node)
    for field in attrs.fields(type(node)):
        label = (isinstance(node, A.VarDecl) and field.name == "flags") or \
            (isinstance(node, A.PhaseDecl) and field.name == "then")
        expressions(getattr(node, field.name), out, label)


@pytest.mark.parametrize("text", [docs_example(), (ROOT / "examples/tictactoe.game").read_text()],
                         ids=["docs", "tictactoe"])
def test_every_expression_has_a_type(text):
    _, result = diagnose(text)
    exprs = []
    expressions(parse(text, "test.game")[0], exprs)
    assert exprs and [e for e in exprs if e not in result.types] == []


# ---------------------------------------------------------------- what types say

GAME = """\
players 2..4
option challenge: auto | players = auto
option retries: 0..10 | unlimited = 3
enum suit: china, japan
table payout by length:
  | length | coins |
  | 3      | 1     |
  | 4..6   | 2     |
kind card:
  copies 2
  suit_of = china
  state up: bool = false
kind coin:
  copies 3 per player
zone deck of card, coin
player zone hand of card, coin: owner
player var coins: number = 0
var leader: player? = none
setup:
  move card to deck
  move coin to deck
  leader = current
  say payout[3].coins + current.coins
turn:
  {body}
"""


def body_types(body: str):
    text = GAME.replace("{body}", body)
    diags, result = diagnose(text)
    return diags, result


def type_of(body: str, needle: str):
    """The type of the expression in `body` whose source text is `needle`."""
    diags, result = body_types(body)
    lines = GAME.replace("{body}", body).splitlines()
    first = lines.index("turn:") + 1
    for node, t in result.types.items():
        s = node.span
        if s.line > first and s.line == s.end_line and \
                lines[s.line - 1][s.col - 1:s.end_col - 1] == needle:
            return t
    raise AssertionError(f"no expression {needle!r}: {diags}")


def test_option_word_that_is_also_a_builtin_name():
    assert type_of("say challenge == players", "players") == T.Enum("challenge")
    assert type_of("say len(players)", "players") == T.List(T.PLAYER)


def test_mixed_option_compares_with_words_and_numbers():
    assert codes(GAME.replace("{body}", "say retries == unlimited or retries > 2")) == []
    assert type_of("say retries + 1", "retries + 1") == T.NUMBER


def test_result_types():
    assert codes(GAME.replace("{body}", "pass")) == []
    assert type_of("say first(current.hand)", "first(current.hand)") == T.kind("card", "coin")
    assert type_of("say payout[5]", "payout[5]") == T.Row("payout")
    assert type_of("say payout[5].coins", "payout[5].coins") == T.NUMBER
    assert type_of("say rows(payout)", "rows(payout)") == T.List(T.Row("payout"))
    assert type_of("say card", "card") == T.List(T.kind("card"))
    assert type_of("say holder(first(deck))", "holder(first(deck))") == T.Optional(T.PLAYER)
    assert type_of("say (1, 2)", "(1, 2)") == T.CELL
    assert type_of("say [c.suit_of for c in card]", "[c.suit_of for c in card]") == \
        T.List(T.Enum("suit"))
    assert type_of("say leader", "leader") == T.Optional(T.PLAYER)


def test_choice_parameters_have_types():
    body = "choose by current:\n    play(c in current.hand) \"play {c}\":\n      pass"
    _, result = body_types(body)
    params = [n for n in result.types if isinstance(n, A.AltParam)]
    assert [result.types[p] for p in params] == [T.kind("card", "coin")]


def test_attribute_on_a_union_needs_every_kind():
    diags, _ = body_types("for x in current.hand:\n    say x.up")
    assert [d.code for d in diags] == ["E102"]
    assert "coin has none" in diags[0].message


def test_did_you_mean_in_the_message():
    diags, _ = body_types("draw 1 from deck to current.hnad")
    assert [d.message for d in diags] == ["unknown zone 'hnad' (did you mean 'hand'?)"]


def test_optional_values_are_usable():
    assert codes(GAME.replace("{body}", "if leader != none and leader == current:\n    "
                              "leader.coins += 1")) == []


def test_let_none_takes_a_value_later():
    assert codes(GAME.replace("{body}", "let best = none\n  best = current\n  say best")) == []


def test_comprehension_variables_may_hide_locals():
    assert codes(GAME.replace("{body}", "for c in deck:\n    say [c for c in deck]")) == []
    assert codes(GAME.replace("{body}", "say [round for round in [1]]")) == ["E105"]


def test_lets_are_function_level():
    assert codes(GAME.replace("{body}", "if true:\n    let x = 1\n  say x")) == []


def test_errors_do_not_cascade():
    assert codes(GAME.replace("{body}", "let x = nothing + 1\n  say x.coins + len(x)")) == ["E101"]


def test_recursive_def():
    text = GAME.replace("{body}", "say fact(3)") + \
        "def fact(n: number) = 1 if n <= 1 else n * fact(n - 1)\n"
    assert codes(text) == []


def test_check_never_raises_on_odd_input():
    odd = ["players 2\nturn:\n  pass\nkind k:\n  copies k\n",
           "players 2\nturn:\n  say a.b.c[1]\n",
           "players 2\nzone z of z: sorted by z, refill from z\nturn:\n  move z to z at z\n",
           "players 2\nkind k:\n  a = k\n  show [x.a for x in k]\nturn:\n  say k[0].a.b\n"]
    for text in odd:
        diags, _ = diagnose(text)
        assert all(d.code[0] in "EW" for d in diags)


def test_too_big_file():
    game, diags = parse("#" * (4 * 1024 * 1024 + 1), "big.game")
    assert game is None and [d.code for d in diags] == ["E001"]


def test_without_sources_the_same_diagnostics_on_the_same_lines():
    for path in sorted(BAD.glob("*.game")):
        text = path.read_text("utf-8")
        game, _ = parse(text, str(path))
        if game is None:
            continue
        with_text = check(game, {str(path): text}).diagnostics
        without = check(game).diagnostics
        assert [d.code for d in with_text] == [d.code for d in without], path.name


CSV_GAME = """\
players 2
table tiles from "tiles.csv"
kind tile:
  from tiles
  copies count
  show letter
zone bag of tile
setup:
  move tile to bag
turn:
  say sum([t.points for t in bag]) + len(first(bag).letter)
  say first(bag).nope
"""
CSV_TEXT = "letter,count,points\nA,9,1\nB,2,3\n"


def csv_game(tmp_path, csv_text=None):
    game_path = tmp_path / "tiles.game"
    if csv_text is not None:
        (tmp_path / "tiles.csv").write_text(csv_text)
    return diagnose(CSV_GAME, str(game_path))[0]


def test_csv_table_from_disk(tmp_path):
    assert [(d.code, d.span.line) for d in csv_game(tmp_path, CSV_TEXT)] == [("E102", 12)]


def test_csv_table_cells_are_checked(tmp_path):
    assert sorted(d.code for d in csv_game(tmp_path, CSV_TEXT + "C,x,1\n")) == ["E102", "E309"]


def test_csv_table_missing(tmp_path):
    assert [(d.code, d.span.line, d.span.col) for d in csv_game(tmp_path)] == [("E001", 2, 18)]


# ---------------------------------------------------------------- types and signatures


def test_assignable():
    assert T.assignable(T.NONE, T.Optional(T.PLAYER))
    assert T.assignable(T.kind("card"), T.kind("card", "coin"))
    assert not T.assignable(T.kind("card", "coin"), T.kind("card"))
    assert T.assignable(T.Zone("deck", frozenset({"card"})), T.List(T.kind("card")))
    assert T.assignable(T.List(T.ANY), T.List(T.NUMBER))
    assert not T.assignable(T.TEXT, T.NUMBER)
    assert T.assignable(T.OptionMix("retries"), T.NUMBER)


def test_render():
    assert T.render(T.List(T.Optional(T.PLAYER))) == "list of player?"
    assert T.render(T.Optional(T.List(T.NUMBER))) == "(list of number)?"
    assert T.render(T.CELL) == "cell"
    assert T.render(T.kind("card", "coin")) == "card or coin"


def test_builtin_signatures():
    assert set(BUILTINS) >= {"len", "sum", "max", "min", "abs", "ceil", "floor", "any", "all",
                             "first", "last", "range", "sorted", "reversed", "distinct",
                             "count", "top", "text", "seat", "left_of", "right_of", "others",
                             "players_from", "distance", "holder", "random", "rows", "cells",
                             "empty_cells", "at", "neighbours", "lines"}
    assert [n for n, b in BUILTINS.items() if not b.pure] == ["random"]
    assert BUILTINS["first"].infer([T.List(T.TEXT)], [A.NO_SPAN]) == (T.TEXT, [])
    assert BUILTIN_NAMES["start_player"].assignable


# ---------------------------------------------------------------- docs/diagnostics.md


CHECKER_MODULES = ["checker/checker.py", "checker/scope.py", "checker/exprs.py", "checker/stmts.py",
                   "checker/decls.py", "checker/tables.py", "checker/flow.py", "checker/types.py",
                   "checker/signatures.py"]


def emitted_codes(modules=CHECKER_MODULES):
    found = set()
    for name in modules:
        found |= set(re.findall(r'"([EW][0-9]{3})"', (ROOT / "gamedsl" / name).read_text("utf-8")))
    return found


def file_codes():
    """The E0xx codes of reading and parsing files (the parser, the pipeline)."""
    return {c for c in emitted_codes(["syntax/parser.py", "pipeline.py"]) if c.startswith("E0")}


def test_every_code_is_documented():
    doc = (ROOT / "docs" / "diagnostics.md").read_text("utf-8")
    documented = set(re.findall(r"^## ([EW]\d{3})\b", doc, re.M))
    assert (emitted_codes() | file_codes()) - documented == set()


def test_every_checker_code_has_a_bad_file():
    covered = set()
    for path in BAD.glob("*.game"):
        covered |= {c for c, _, _ in EXPECT.findall(path.read_text("utf-8"))}
    assert emitted_codes() - covered == set()


def test_a_variant_is_not_warned_about_base_declarations_it_no_longer_uses(tmp_path):
    from gamedsl.pipeline import check_files
    (tmp_path / "base.game").write_text(
        'game "Base"\nplayers 2\nplayer var points: number = 0\n'
        "def bonus() = 2\ndef total(p: player) = p.points + bonus()\n"
        "turn:\n  current.points += 1\n  end game after round\n"
        "score of p: total(p)\n")
    (tmp_path / "variant.game").write_text(
        'extends "base.game"\ngame "Variant"\n'
        "def total(p: player) = p.points\ndef spare() = 1\n")
    diags, _ = check_files([str(tmp_path / "variant.game")])
    # 'bonus' (the base's, now unused) is not the variant's mistake; 'spare' is.
    assert [(d.code, d.message) for d in diags] == [("W101", "def 'spare' is never used")]


def test_a_wrong_name_in_a_moves_text_lists_the_moves_parameters():
    text = (ROOT / "tests/checker/bad/move_texts.game").read_text("utf-8")
    diags, _ = diagnose(text)
    e109 = [d for d in diags if d.code == "E109"]
    assert e109[0].hint == "this move's parameters are written {n}"
    assert e109[1].hint == "this move has no parameters: its text is written as it stands"
    e110 = [d for d in diags if d.code == "E110"]
    assert [d.message for d in e110] == ["a move's text writes only its parameters, not '{n + 1}'",
                                         "a move's text writes only its parameters, not '{p.total}'"]


LETS_IN_ALTERNATIVES = '''game "Lets"
players 2
player var total: number = 0

turn:
  choose by current:
    add(n in [1, 2]) "add {n}":
      let gain = n * 2
      current.total += gain
    word "word":
      let gain = "two"
      say gain
      let step = 1
      current.total += step
  let step = 3
  if current.total >= 5:
    end game winner current

score of p: p.total
'''


def test_lets_of_sibling_alternatives_do_not_clash():
    """Only one alternative of a choice runs: each one's lets are its own (no E105 for a name
    a sibling also lets, or one let after the choice), and the game runs with either."""
    from gamedsl.pipeline import load
    assert codes(LETS_IN_ALTERNATIVES) == []
    assert codes(LETS_IN_ALTERNATIVES.replace("  let step = 3\n", "  say gain\n")) == ["E101"]
    game = load("lets.game", LETS_IN_ALTERNATIVES)
    state = game.new_game(2, seed=1)
    for text in ("add 2", "word", "add 1"):
        state = game.apply(state, game.parse_move(state, text))
    assert game.results(state)["scores"] == [6, 1]


UNUSED_BUT_TESTED = '''game "W"
players 2
player var total: number = 0
def doubled(p: player) = p.total * 2
def helper() = 3
turn:
  choose by current:
    add(n in [1, 2]) "add {n}":
      current.total += n
  if current.total >= 5:
    end game winner current
score of p: p.total
'''


def test_a_def_a_scenario_of_the_game_uses_is_used(tmp_path):
    """W101: a def written for a scenario's `expect` is used when the scenario lies beside the
    game or in scenarios/ beside it and names it; comments, texts and other games' scenarios
    do not count, and the warning left says where a scenario must lie."""
    from gamedsl.pipeline import check_files
    game = tmp_path / "g.game"
    game.write_text(UNUSED_BUT_TESTED, "utf-8")
    (tmp_path / "scenarios").mkdir()
    (tmp_path / "scenarios" / "g.scenario").write_text(
        'game "../g.game"\n# helper, in a comment\nscenario "doubled":\n  move "add 2 helper"\n'
        '  expect doubled(p1) == 4\n', "utf-8")
    (tmp_path / "other.scenario").write_text('game "other.game"\nscenario "x":\n  expect helper() == 3\n')
    diags, _ = check_files([str(game)])
    assert [(d.code, d.message) for d in diags] == [("W101", "def 'helper' is never used")]
    assert "scenarios/ beside it" in diags[0].hint
    (tmp_path / "g.scenario").write_text('game "g.game"\nscenario "x":\n  expect helper() == 3\n')
    assert check_files([str(game)])[0] == []
