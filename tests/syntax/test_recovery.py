"""A file with syntax errors is read again one top-level declaration at a time: every
declaration's mistake is reported at once, and the checker still speaks about the
declarations that could be read (but not about what the broken ones might declare)."""

from gamedsl.syntax.parser import parse
from tests.support.fixtures import diagnose

BROKEN = '''game "Broken"
players 2
player var points: number = 0
player var coins number = 0
zone deck of card: hidden
def twice(n: number) = n * (2 +

setup:
  pass

turn:
  if current.points = 3:
    end game
  current.points += coins
  current.points += nothing

score of p: p.points
'''


def test_every_declarations_syntax_error_is_reported():
    tree, diags = parse(BROKEN, "b.game")
    assert [(d.code, d.span.line) for d in diags] == [("E003", 4), ("E006", 6), ("E003", 12)]
    assert tree is not None and len(tree.unparsed) == 3
    # the declarations that could be read are in the tree, at their own lines
    assert [d.span.line for d in tree.decls] == [1, 2, 3, 5, 8, 17]


def test_the_checker_speaks_only_where_that_is_sound():
    diags, _ = diagnose(BROKEN, "b.game")
    got = [(d.code, d.span.line) for d in diags]
    # 'card' (undeclared) is reported; no turn is missing (the broken 'turn:' has one),
    # 'coins' is not unknown (its broken declaration may declare it), nothing is unused.
    assert sorted(got) == [("E003", 4), ("E003", 12), ("E006", 6), ("E106", 5)], got


def test_a_file_without_syntax_errors_reads_as_before():
    tree, diags = parse(BROKEN.replace("coins number", "coins: number")
                        .replace("(2 +", "2").replace("points = 3", "points == 3"), "b.game")
    assert diags == [] and tree.unparsed == ()


def test_one_declaration_reports_as_before():
    tree, diags = parse("players 2\nturn:\n  if round = 3:\n    end game\n", "b.game")
    assert [(d.code, d.span.line, d.span.col) for d in diags] == [("E003", 3, 12)]
    assert tree is not None and [type(d).__name__ for d in tree.decls] == ["PlayersDecl"]
