"""The checker on kinds made from a product, ordered enums, positions in a zone and first(L, n)."""

from tests.support.fixtures import diagnose

BASE = '''game "g"
players 2
enum colour: red, yellow, blue
enum shape: circle, square
option speed: slow | fast = slow
kind card:
  for colour in colour, value in 2..5
  copies 2 if value == 5 else 1
  show text(colour) + text(value)
zone deck of card: hidden
zone pile of card: public, sorted by colour
zone board of card: grid 3 by 3
player zone hand of card: owner

setup:
  move card to deck
'''


def errors(extra: str):
    diags, _ = diagnose(BASE + extra + ("" if "turn:" in extra else "turn:\n  pass\n"))
    return [(d.code, d.span.line, d.message) for d in diags if d.code.startswith("E")]


def line(extra_line: int) -> int:
    return BASE.count("\n") + extra_line


def test_the_example_base_is_clean():
    assert errors("") == []


def test_a_product_kind_has_typed_attributes():
    assert errors("def v(c: card) = c.value + 1\ndef k(c: card) = c.colour == blue\n") == []
    [(code, at, message)] = errors("def w(c: card) = c.colour + 1\n")
    assert (code, at) == ("E202", line(1)) and "colour" in message


def test_a_for_in_a_kind_needs_a_list():
    text = BASE.replace("value in 2..5", "value in 7")
    diags, _ = diagnose(text + "turn:\n  pass\n")
    [d] = [d for d in diags if d.code.startswith("E")]
    assert (d.code, d.span.line) == ("E211", 7) and "'value'" in d.message


def test_a_for_list_sees_the_names_before_it_not_after():
    ok = BASE.replace("for colour in colour, value in 2..5", "for high in 0..3, low in 0..high") \
        .replace("show text(colour) + text(value)", "show text(high) + text(low)") \
        .replace("copies 2 if value == 5 else 1", "copies 1").replace(", sorted by colour", "")
    ok += "turn:\n  pass\n"
    assert [d for d in diagnose(ok)[0] if d.code.startswith("E")] == []
    bad = ok.replace("for high in 0..3, low in 0..high", "for low in 0..high, high in 0..3")
    assert [(d.code, d.span.line) for d in diagnose(bad)[0] if d.code.startswith("E")] == [("E101", 7)]


def test_a_for_name_may_not_be_a_column_too():
    text = BASE.replace("kind card:\n", "table extra:\n  | value |\n  | 1     |\nkind card:\n  from extra\n")
    diags, _ = diagnose(text + "turn:\n  pass\n")
    assert [(d.code, "'value'" in d.message) for d in diags if d.code.startswith("E")] == [("E301", True)]


def test_an_enum_name_is_the_list_of_its_values():
    assert errors("def n() = len(colour)\ndef all_but(k: colour) = [x for x in colour if x != k]\n") == []
    [(code, _, message)] = errors("def m() = colour + 1\n")
    assert code == "E202" and "list of colour" in message


def test_enum_values_compare_in_order_but_not_across_enums_or_with_texts():
    assert errors("def a() = red < blue and max([red, blue]) == blue and sorted(colour) == colour\n"
                  "def b(c: card) = sort d in deck by most d.colour, then fewest d.value\n"
                  "def o() = slow < fast\n") == []
    assert [c for c, _, _ in errors("def x() = red < circle\n")] == ["E205"]
    assert [c for c, _, _ in errors('def y() = red < "blue"\n')] == ["E205"]
    assert [c for c, _, _ in errors("def z() = max(colour) + 1\n")] == ["E202"]


def test_first_and_last_take_a_count():
    assert errors("def f() = len(first(deck, 2)) + len(last(colour, 1))\n") == []
    [(code, _, message)] = errors('def g() = first(deck, "two")\n')
    assert code == "E201" and "number" in message
    [(code, _, _)] = errors("def h() = first(deck, 1, 2)\n")
    assert code == "E204"


def test_a_position_is_a_number_on_a_zone_that_is_a_list():
    assert errors("turn:\n  move first(deck) to deck at 2 from bottom\n  move first(deck) to deck at 0\n") == []
    [(code, at, message)] = errors("turn:\n  move first(deck) to deck at (1, 2)\n")
    assert (code, at) == ("E213", line(2)) and "not a grid" in message
    [(code, at, message)] = errors("turn:\n  move first(deck) to pile at 1 from top\n")
    assert (code, at) == ("E213", line(2)) and "sorted by colour" in message
    [(code, _, message)] = errors("turn:\n  move first(deck) to board at (1, 1) from bottom\n")
    assert code == "E213" and "is a grid" in message


def test_a_local_named_like_a_function_does_not_hide_a_range_or_several_fors():
    assert errors("def f(range: number, flatten: number) = [a + b for a in 1..range for b in 1..flatten]\n") == []
