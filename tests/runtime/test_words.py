"""Word lists, texts and multisets, and moves a person types (typed parameters with suggest).

The games here are small and written in the tests; the word lists are written beside them
in a temporary folder, plain and gzipped, so the loader's rules (files beside the game,
the option in the file name) are exercised as a shipped game uses them.
"""

from __future__ import annotations

import gzip
import json

import pytest

from gamedsl.errors import GameError
from gamedsl.errors import MoveError, RuleError
from gamedsl.pipeline import load
from gamedsl.runtime.wordlists import ListError, WordList

GAME = '''
game "Word test"
players 2
option size: small | big = small
words dict from "words_{size}.txt.gz"
words plain from "plain.txt"
player var said: list of text = []
player var total: number = 0

turn:
  choose by current:
    say_word(w: text) "say {w}" suggest [upper(x) for x in formable(dict, ["C", "A", "T", "S"])] if lower(w) in dict else "'" + w + "' is not in the list":
      current.said = current.said + [upper(w)]
    add(n: number) "add {n}" if n > 0 and n < 10 else "from 1 to 9":
      current.total += n
    two(a: text, b: text) "pair {a} and {b}" suggest [("CAT", "ACT")] if a in plain and b in plain:
      current.said = current.said + [a, b]
  if len(current.said) >= 3:
    end game

score of p: len(p.said)
'''


def write_game(tmp_path, small=("cat", "act", "cats", "tea", "zoo", "Scat"), big=("cat", "tact")):
    (tmp_path / "words_small.txt.gz").write_bytes(gzip.compress("\n".join(small).encode()))
    (tmp_path / "words_big.txt.gz").write_bytes(gzip.compress("\n".join(big).encode()))
    (tmp_path / "plain.txt").write_text("# a comment line\ncat\nact\n")
    path = tmp_path / "w.game"
    path.write_text(GAME)
    return str(path)


@pytest.fixture
def game(tmp_path):
    return load(write_game(tmp_path))


# ---------------------------------------------------------------- word lists


def test_membership_ignores_case_and_the_state_holds_no_words(game):
    state = game.new_game(2)
    assert game.evaluate(state, _expr('"CAT" in dict')) is True
    assert game.evaluate(state, _expr('"dog" in dict')) is False
    assert game.evaluate(state, _expr('"cat" in plain')) is True
    assert "cat" not in json.dumps(state)


def test_the_option_picks_the_file(game):
    state = game.new_game(2, options={"size": "big"})
    assert game.evaluate(state, _expr('"tact" in dict')) is True
    assert game.evaluate(state, _expr('"tea" in dict')) is False


def test_formable_finds_every_word_of_a_sub_multiset(game):
    state = game.new_game(2)
    assert game.evaluate(state, _expr('formable(dict, ["T", "A", "C", "S", "X"])')) == \
        ["act", "cat", "cats", "scat"]
    # one letter used twice: ZO spells ZOO only with the double
    assert game.evaluate(state, _expr('formable(dict, ["Z", "O"])')) == []
    assert game.evaluate(state, _expr('formable(dict, ["Z", "O"], 1)')) == ["zoo"]


def _formable_by_definition(words, letters, doubles):
    """Each word whose letters the hand holds, or (with doubles) holds all but one more of a
    letter the hand has."""
    from collections import Counter
    have = Counter(x.lower() for x in letters)
    out = []
    for w in words:
        short = Counter(w) - have
        if not short or (doubles and len(short) == 1 and sum(short.values()) == 1
                         and have[next(iter(short))] > 0):
            out.append(w)
    return sorted(out)


def test_formable_is_every_word_the_hand_spells_with_one_double_at_most():
    import random
    rnd = random.Random(3)
    words = sorted({"".join(rnd.choice("aabcdeet") for _ in range(rnd.randint(1, 7))) for _ in range(400)})
    wl = WordList("x", lambda: "\n".join(words))
    for _ in range(200):
        hand = [rnd.choice("AABCDEETZ") for _ in range(rnd.randint(0, 8))]
        doubles = rnd.randint(0, 1)
        assert wl.formable(hand, doubles) == _formable_by_definition(words, hand, doubles), (hand, doubles)
    # letters of several characters (or none) are texts of the hand too
    assert WordList("x", lambda: "ab\nabc\nc").formable(["AB", "C"]) == ["ab", "abc", "c"]


def test_formable_refuses_too_many_letters():
    wl = WordList("x", lambda: "ab\n")
    with pytest.raises(ListError):
        wl.formable([chr(ord("a") + i) for i in range(20)], 1)


def test_a_missing_list_or_a_path_outside_the_folder_is_a_diagnostic(tmp_path):
    path = write_game(tmp_path)
    (tmp_path / "words_big.txt.gz").unlink()
    with pytest.raises(GameError) as err:
        load(path)
    assert [d.code for d in err.value.diagnostics] == ["E001"]
    assert "words_big.txt.gz" in err.value.diagnostics[0].message
    (tmp_path / "w.game").write_text(GAME.replace('"plain.txt"', '"../plain.txt"'))
    write_game(tmp_path)
    (tmp_path / "w.game").write_text(GAME.replace('"plain.txt"', '"../plain.txt"'))
    with pytest.raises(GameError) as err:
        load(path)
    assert [d.code for d in err.value.diagnostics] == ["E007"]


def test_a_file_that_is_not_gzip_fails_when_read(tmp_path):
    path = write_game(tmp_path)
    (tmp_path / "words_small.txt.gz").write_bytes(b"cat\n")
    game = load(path)
    with pytest.raises(RuleError) as err:  # the first choice lists words from it
        game.new_game(2)
    assert err.value.code == "E504" and "not a gzip file" in str(err.value)


# ---------------------------------------------------------------- texts and multisets


@pytest.mark.parametrize("expr,value", [
    ('letters_of("cat")', ["c", "a", "t"]),
    ('upper("Cat")', "CAT"),
    ('lower("Cat")', "cat"),
    ('replace("a-b-c", "-", "")', "abc"),
    ('starts_with("quiz", "qu")', True),
    ('ends_with("quiz", "qu")', False),
    ('join(["a", "b"])', "ab"),
    ('join(["a", "b"], ", ")', "a, b"),
    ('split(" door +roomy + ", "+")', ["door", "roomy"]),
    ('split("E  T", " ")', ["E", "T"]),
    ('flatten([[1, 2], [], [3]])', [1, 2, 3]),
    ('covers(["a", "b", "a"], ["a", "a"])', True),
    ('covers(["a", "b"], ["a", "a"])', False),
    ('without(["a", "b", "a"], ["a", "c"])', ["b", "a"]),
    # equal values are taken out alike (2 and 2.0); a text, a truth and a list are no number
    ('without([1, 2, 2, "2", true], [2.0, 1 + 1, 1])', ["2", True]),
    ('without([[1, 2], [1, 2.5], [2]], [[1, 2.0]])', [[1, 2.5], [2]]),
    ('covers([1, "1"], [1.0, "1"])', True),
    ('covers([true, 2], [1])', False),
    ('counts(["a", 1, 1.0, "a", [1]])', [["a", 2], [1, 2], [[1], 1]]),
])
def test_text_and_multiset_builtins(game, expr, value):
    assert game.evaluate(game.new_game(2), _expr(expr)) == value


# ---------------------------------------------------------------- typed moves


def test_suggestions_are_the_legal_moves_bots_see(game):
    state = game.new_game(2)
    texts = [game.move_text(state, m) for m in game.legal_moves(state)]
    assert texts == ["say ACT", "say CAT", "say CATS", "say SCAT", "pair CAT and ACT"]


def test_a_typed_word_not_suggested_is_legal_when_the_guard_holds(game):
    state = game.new_game(2)
    move = game.parse_move(state, "say zoo")
    assert move == {"seat": 0, "alt": "say_word", "args": ["zoo"]}
    state = game.apply(state, move)
    assert state["pvars"]["said"][0] == ["ZOO"]


def test_a_refused_typed_move_says_why_and_changes_nothing(game):
    state = game.new_game(2)
    before = json.dumps(state)
    with pytest.raises(MoveError) as err:
        game.parse_move(state, "say dog")
    assert "'dog' is not in the list" in str(err.value)
    with pytest.raises(MoveError) as err:
        game.apply(state, {"seat": 0, "alt": "say_word", "args": ["dog"]})
    assert "not in the list" in str(err.value)
    with pytest.raises(MoveError):
        game.apply(state, {"seat": 0, "alt": "say_word", "args": [3]})
    assert json.dumps(state) == before


def test_typed_numbers_and_several_typed_parameters(game):
    state = game.new_game(2)
    assert game.parse_move(state, "add 7") == {"seat": 0, "alt": "add", "args": [7]}
    with pytest.raises(MoveError) as err:
        game.parse_move(state, "add 12")
    assert "from 1 to 9" in str(err.value)
    assert game.parse_move(state, "pair act and cat") == {"seat": 0, "alt": "two", "args": ["act", "cat"]}
    with pytest.raises(MoveError):
        game.parse_move(state, "pair act and dog")


def _expr(text: str):
    from gamedsl.syntax.parser import parse
    tree, errors = parse(f"score of p: {text}\n", "<expr>")
    assert not errors, errors
    return tree.decls[0].expr
