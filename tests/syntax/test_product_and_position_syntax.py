"""The syntax of kinds made from a product, ranges, several `for`s and positions in a zone."""

from gamedsl.syntax import ast as A
from gamedsl.syntax.parser import parse

HEAD = 'game "g"\nplayers 2\n'


def decls(text: str):
    game, diags = parse(HEAD + text, "g.game")
    assert not diags, diags
    return game.decls[2:]


def body(expr: str):
    (d,) = decls(f"def f() = {expr}\n")
    return d.body


def test_a_kind_names_each_list_it_is_made_from():
    (k,) = decls("kind card:\n  for colour in colour, value in 2..10\n  copies 2\n")
    assert [(e.name, type(e.source).__name__) for e in k.each] == [("colour", "Name"), ("value", "Call")]
    assert k.each[1].source.name == "range" and [a.value for a in k.each[1].source.args] == [2, 10]
    assert k.each[0].span.line == 4


def test_a_range_binds_looser_than_arithmetic_and_tighter_than_in():
    r = body("1..n + 1")
    assert isinstance(r, A.Call) and r.name == "range"
    assert isinstance(r.args[1], A.BinOp)
    c = body("x in 1..5")
    assert isinstance(c, A.Compare) and c.op == "in" and c.right.name == "range"


def test_several_fors_nest_the_later_inside_the_earlier():
    e = body("[x + y for x in a if x > 1 for y in b if y < x]")
    assert isinstance(e, A.Call) and e.name == "flatten"
    outer = e.args[0]
    assert (outer.var, outer.source.name, outer.cond.op) == ("x", "a", ">")
    inner = outer.element
    assert isinstance(inner, A.Comprehension)
    assert (inner.var, inner.source.name, inner.cond.op, inner.element.op) == ("y", "b", "<", "+")


def test_one_for_is_a_plain_comprehension():
    e = body("[x for x in a]")
    assert isinstance(e, A.Comprehension) and e.cond is None


def test_a_position_is_counted_from_the_end_named():
    (t,) = decls("turn:\n  move c to deck at 3 from bottom\n  move c to deck at 2\n"
                 "  move c to deck at 1 from top\n")
    ends = [(s.place, s.cell.value, s.end) for s in t.body]
    assert ends == [("cell", 3, "bottom"), ("cell", 2, None), ("cell", 1, "top")]


def test_bottom_stays_a_name_outside_a_move():
    (d,) = decls("def bottom(top: number) = top + 1\n")
    assert d.name == "bottom"
