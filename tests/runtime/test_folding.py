"""Word lists whose letters fold: a `words` block's fold table, match letters and wild mark.

A made-up Latin list (tests/runtime/folding: accents fold to plain letters, "?" in a word stands for
a vowel, "*" being read matches any letter) checks each rule, and `readings` against a slow
scan of every span; the shipped Japanese list checks the folds Wordomino needs, with a fold
table written here (the engine knows no Japanese).
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from gamedsl.errors import MoveError
from gamedsl.pipeline import load
from gamedsl.runtime.wordlists import Folding, word_list

ROOT = Path(__file__).resolve().parents[2]
HERE = Path(__file__).resolve().parent / "folding"
LATIN_WORDS = HERE / "latin_words.txt"
LATIN = Folding((("é", "e"), ("è", "e"), ("ï", "i"), ("ç", "c"), ("Ö", "o")), (("?", "aeiou"),), "*")


def _expr(text: str):
    from gamedsl.syntax.parser import parse
    tree, errors = parse(f"score of p: {text}\n", "<expr>")
    assert not errors, errors
    return tree.decls[0].expr


@pytest.fixture(scope="module")
def game():
    return load(str(HERE / "latin.game"))


@pytest.fixture(scope="module")
def latin():
    return word_list(LATIN_WORDS, LATIN)


# ---------------------------------------------------------------- the rules, one by one


def test_fold_replaces_each_key_once_and_lower_cases(latin):
    assert latin.fold("Café") == "cafe"
    assert latin.fold("ÇÖ") == "co"            # keys and texts are compared in small letters
    once = word_list(LATIN_WORDS, Folding((("ë", "é"), ("é", "e"))))
    assert once.fold("ë") == "é"               # applied once: ë -> é, not on to e
    assert word_list(LATIN_WORDS).fold("Café") == "café"


def test_membership_folds_both_sides(latin):
    assert "cafe" in latin and "CAFÈ" in latin and "café" in latin
    assert "naive" in latin
    assert "cafes" not in latin and "caf" not in latin


def test_a_match_letter_in_a_word_matches_itself_or_any_of_its_set(latin):
    assert all(w in latin for w in ["cat", "cet", "cit", "cot", "cut", "c?t", "cét"])
    assert "cyt" not in latin and "ct" not in latin
    # only in the dictionary's words: "?" being read is a plain letter
    assert latin.matching(["z", "?", "o"]) == []


def test_the_wild_mark_matches_any_letter_being_read(latin):
    assert "caf*" in latin and "**o" in latin and "***" in latin
    assert "ca*" in latin                      # c?t: ? matches a, * matches t
    assert "zz*" not in latin and "*" not in latin
    assert latin.matching(["c", "*", "t"]) == ["c?t", "cut"]
    assert latin.matching(["*", "*"]) == ["t?"]


def test_matching_gives_the_words_as_spelt_sorted_once(latin):
    assert latin.matching(["C", "U", "T"]) == ["c?t", "cut"]
    assert latin.matching(list("cafe")) == ["café"]
    assert latin.matching(["t", "*"]) == ["t?"]     # reached through every vowel, listed once
    assert latin.matching(["c", "", "t"]) == [] and latin.matching(["c", None, "t"]) == []


def test_a_list_without_folding_is_as_before():
    plain = word_list(LATIN_WORDS)
    assert "café" in plain and "CAFÉ" in plain
    assert "cafe" not in plain and "cat" not in plain and "caf*" not in plain
    assert plain.matching(list("cut")) == ["cut"]
    assert plain.matching(["c", "*", "t"]) == []
    assert plain.formable(["t", "u", "c", "a"]) == ["cut", "tac"]


def test_the_cache_keeps_one_list_per_folding():
    assert word_list(LATIN_WORDS, LATIN) is word_list(LATIN_WORDS, LATIN)
    assert word_list(LATIN_WORDS, LATIN) is not word_list(LATIN_WORDS)
    assert word_list(LATIN_WORDS, Folding(LATIN.fold)) is not word_list(LATIN_WORDS, LATIN)


# ---------------------------------------------------------------- readings


def test_readings_on_a_line(latin):
    line = ["x", "c", "A", "f", "è", "*", "o", "o", "z", "e"]
    assert latin.readings(line, [2], 2, False) == [(1, 5, False, "café")]
    assert latin.readings(line, [6], 3, False) == [(5, 8, False, "zoo"), (6, 10, False, "ooze")]
    # backwards, "è * o o" reads "o o * è": ooze, the wild standing for z
    assert latin.readings(line, [7], 2, True) == [
        (4, 8, True, "ooze"), (5, 8, False, "zoo"), (6, 9, True, "zoo"), (6, 10, False, "ooze")]
    assert latin.readings(line, [5], 2, False) == [(5, 7, False, "t?"), (5, 8, False, "zoo")]
    assert latin.readings(line, [], 2, True) == []
    assert latin.readings(line, [0], 2, True) == []


def _slow_readings(words, fold, sets, line, placed, n, both_ways):
    """Every span of the line tried against every word, by the rules written plainly."""
    def same(d, x):
        if x == "*":
            return True
        if x is None or len(x) != 1:
            return False
        f = fold.get(x.lower(), x.lower())
        return fold.get(d, d) == f or f in sets.get(d, ())

    out = set()
    for start in range(len(line)):
        for end in range(start + n, len(line) + 1):
            if not any(start <= p < end for p in placed):
                continue
            for backwards in (False, True) if both_ways else (False,):
                cells = line[start:end][::-1] if backwards else line[start:end]
                out |= {(start, end, backwards, w) for w in words
                        if len(w) == len(cells) and all(same(d, x) for d, x in zip(w, cells))}
    return sorted(out)


def test_readings_agree_with_a_scan_of_every_span(latin):
    fold = {k.lower(): v for k, v in LATIN.fold}
    sets = {"?": {"?"} | set("aeiou")}
    letters = list("cafeztoou") + ["é", "è", "?", "*", "O", None]
    rng = random.Random(7)
    found = 0
    for _ in range(300):
        line = [rng.choice(letters) for _ in range(rng.randint(1, 12))]
        placed = rng.sample(range(len(line)), rng.randint(0, min(3, len(line))))
        n, both = rng.randint(1, 3), rng.random() < 0.7
        want = _slow_readings(latin.words, fold, sets, line, placed, n, both)
        assert latin.readings(line, placed, n, both) == want, (line, placed, n, both)
        found += len(want)
    assert found > 50  # the lines do hold words


# ---------------------------------------------------------------- the builtins in a game


@pytest.mark.parametrize("expr,value", [
    ('fold(latin, "CAFÉ")', "cafe"),
    ('matching(latin, ["c", "*", "t"])', ["c?t", "cut"]),
    ('matching(latin, letters_of("naive"))', ["naïve"]),
    ('reads(latin, "cut", ["c", "*", "t"])', True),
    ('reads(latin, "cat", ["c", "a", "t"])', True),     # c?t, its ? read as a
    ('reads(latin, "c?t", ["c", "a", "t"])', True),     # the word as the list spells it
    ('reads(latin, "cut", ["c", "a", "t"])', False),    # c?t is read from c a t, but not as cut
    ('reads(latin, "cet", ["c", "a", "t"])', False),
    ('reads(latin, "cyt", ["c", "*", "t"])', False),    # cyt is no word
    ('reads(latin, "café", ["c", "a", "f", "e"])', True),
    ('reads(latin, "cafe", ["c", "a", "f"])', False),
    ('"naive" in latin', True),
])
def test_builtins(game, expr, value):
    state = game.new_game(2)
    assert game.evaluate(state, _expr(expr)) == value


def test_a_typed_word_is_read_from_the_letters(game):
    state = game.new_game(2)
    assert game.legal_moves(state)[:2] == [{"seat": 0, "alt": "say_word", "args": ["c?t"]},
                                           {"seat": 0, "alt": "say_word", "args": ["cut"]}]
    state = game.apply(state, game.parse_move(state, "say CAT"))
    assert state["pvars"]["said"][0] == ["cat"]
    with pytest.raises(MoveError, match="not read from c"):
        game.apply(state, game.parse_move(state, "say cyt"))


# ---------------------------------------------------------------- the Japanese list


def _japanese_folding() -> Folding:
    voiced = "がかぎきぐくげけござじしずすぜせぞそだたぢちづつでてどとばはびひぶふべへぼほぱはぴひぷふぺへぽほ"
    small = "ぁあぃいぅうぇえぉおっつゃやゅゆょよゎわ"
    pairs = [(voiced[i], voiced[i + 1]) for i in range(0, len(voiced), 2)]
    pairs += [(small[i], small[i + 1]) for i in range(0, len(small), 2)]
    pairs += [("こ", "い"), ("へ", "く")]
    # folded once: ご and べ/ぺ go straight to the letter こ and へ count as
    pairs = [(k, {"こ": "い", "へ": "く"}.get(v, v)) for k, v in pairs]
    return Folding(tuple(pairs), (("ー", "あいうえお"),), "*")


@pytest.fixture(scope="module")
def nouns():
    return word_list(ROOT / "games" / "wordomino" / "nouns_common.txt.gz", _japanese_folding())


def test_japanese_folds(nouns):
    assert "かつこう" in nouns and "かついう" in nouns        # がっこう: voiced, small, こ = い
    assert "がっこう" in nouns.matching(list("かつこう"))
    assert "らーめん" in nouns.matching(list("らあめん"))      # ー matches a vowel being read
    assert "らーめん" in nouns.matching(list("ら*めん"))      # a wild cell
    assert "らかめん" not in nouns
    line = list("ねかつこうえ")
    assert (1, 5, False, "がっこう") in nouns.readings(line, [2], 3, True)
    assert nouns.readings(list("んめあら"), [0], 4, True) == [(0, 4, True, "らーめん")]


# ---------------------------------------------------------------- syntax


def test_the_block_words_stay_names_elsewhere_and_a_wrong_line_says_what_fits():
    from gamedsl.syntax.parser import parse
    _, errors = parse('players 2\ndef match(wild: number) = wild\nvar fold: number = 1\n'
                      'var as: number = 2\nturn:\n  end game\n', "x.game")
    assert errors == []
    _, errors = parse('players 2\nwords w from "w.txt":\n  fols t\n', "x.game")
    assert [e.code for e in errors] == ["E003"]
    assert "expected 'fold', 'match' or 'wild'" in errors[0].message


def test_several_fold_tables_apply_in_the_order_written(tmp_path):
    # katakana as hiragana, then voiced kana as plain: ガ -> が -> か, in either table's order of rows
    (tmp_path / "w.txt").write_text("かさ\nがざ\nかか\n", "utf-8")
    head = ('game "Kana"\nplayers 2\n'
            'table kana:\n  | letter | as |\n  | "ガ" | "が" |\n  | "サ" | "さ" |\n'
            'table voiced:\n  | letter | as |\n  | "が" | "か" |\n  | "ざ" | "さ" |\n')
    tail = 'turn:\n  end game\nscore of p: len(fold(w, "ガサ"))\n'

    def folded(folds):
        path = tmp_path / "kana.game"
        path.write_text(head + 'words w from "w.txt":\n' + "".join(f"  fold {t}\n" for t in folds) + tail, "utf-8")
        return load(str(path)).program.decls.word_lists["w"][1][None]

    both = folded(["kana", "voiced"])
    assert both.fold("ガサがざ") == "かさかさ"
    assert both.matching(list("ガサ")) == ["かさ", "がざ"]   # a word, folded, matches the letters folded
    # the other order: ガ becomes が only after the voiced table has looked, so it stays が
    assert folded(["voiced", "kana"]).fold("ガサがざ") == "がさかさ"
    assert folded(["kana"]).fold("ガサがざ") == "がさがざ"
