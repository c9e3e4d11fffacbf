"""Wordomino's shipped data: the tile set and the Japanese noun lists (docs/games/wordomino.md: the rules and the dictionary)."""

from __future__ import annotations

import csv
import gzip
import importlib.metadata
import importlib.util
import re
import unicodedata
from collections import Counter
from functools import cache
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
DATA = ROOT / "games" / "wordomino"
LISTS = {"common": DATA / "nouns_common.txt.gz", "full": DATA / "nouns_full.txt.gz"}

# The dictionary's rules (docs/games/wordomino.md) give ~13,700 / ~57,000 readings (~44 KB
# gzipped) without the loanwords spelled with ー; keeping those (as they also ask) adds
# ~1,700 / ~8,500.
EXPECTED = {
    # name: (readings, readings with 3+ kana, gzipped bytes), each (low, high)
    "common": ((13_000, 17_000), (12_000, 16_000), (38_000, 62_000)),
    "full": ((55_000, 75_000), (53_000, 73_000), (170_000, 290_000)),
}
READING = re.compile(r"[ぁ-ゖー]+")


@cache
def words(name: str) -> tuple[str, ...]:
    text = gzip.decompress(LISTS[name].read_bytes()).decode("utf-8")
    assert text.endswith("\n"), f"{name}: last line is not terminated"
    return tuple(text[:-1].split("\n"))


def load_build_script():
    spec = importlib.util.spec_from_file_location(
        "build_japanese_nouns", ROOT / "tools" / "build_japanese_nouns.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


# ---------------------------------------------------------------- word lists

@pytest.mark.parametrize("name", sorted(LISTS))
def test_list_is_sorted_unique_hiragana(name):
    listed = words(name)
    assert list(listed) == sorted(set(listed)), f"{name}: not sorted or has duplicates"
    odd = [word for word in listed if not READING.fullmatch(word)]
    assert not odd, f"{name}: readings that are not hiragana/ー: {odd[:10]}"


@pytest.mark.parametrize("name", sorted(LISTS))
def test_list_sizes_in_expected_range(name):
    (low, high), (low3, high3), (low_gz, high_gz) = EXPECTED[name]
    listed = words(name)
    three = sum(1 for word in listed if len(word) >= 3)
    size = LISTS[name].stat().st_size
    assert low <= len(listed) <= high
    assert low3 <= three <= high3
    assert low_gz <= size <= high_gz


@pytest.mark.parametrize("name", sorted(LISTS))
def test_lists_are_gzipped_without_timestamp_or_name(name):
    header = LISTS[name].read_bytes()[:10]
    assert header[:3] == b"\x1f\x8b\x08"
    assert header[3] & 0x08 == 0, "FNAME set: the file name is stored in the header"
    assert header[4:8] == b"\0\0\0\0", "mtime is not 0: rebuilds would differ"


@pytest.mark.parametrize("word", ["ねこ", "りんご", "がっこう", "でんしゃ", "こーひー"])
def test_everyday_nouns_are_in_the_common_list(word):
    assert word in set(words("common"))


@pytest.mark.parametrize("word", ["とうきょう", "にほん", "あめりか"])
def test_place_and_country_names_are_in_neither_list(word):
    assert word not in set(words("common"))
    assert word not in set(words("full"))


def test_loanwords_keep_the_long_vowel_mark():
    with_mark = [word for word in words("common") if "ー" in word]
    assert len(with_mark) > 1_000
    assert not any(word.startswith("ー") for word in with_mark)


def test_common_list_is_a_subset_of_the_full_list():
    missing = set(words("common")) - set(words("full"))
    assert not missing, sorted(missing)[:10]
    assert len(words("full")) > 3 * len(words("common"))


# ---------------------------------------------------------------- tiles

def read_tiles() -> list[dict[str, str]]:
    with (DATA / "tiles.csv").open(encoding="utf-8", newline="") as handle:
        return list(csv.DictReader(handle))


def test_tile_set_matches_rules():
    tiles = read_tiles()
    assert [int(tile["id"]) for tile in tiles] == list(range(1, 109))
    assert Counter(tile["level"] for tile in tiles) == {"1": 54, "2": 36, "3": 18}
    for tile in tiles:
        wilds = [tile["cell1"], tile["cell2"]].count("*")
        assert wilds == (1 if tile["level"] == "3" else 0), tile
        for cell in (tile["cell1"], tile["cell2"]):
            assert cell == "*" or re.fullmatch("[ぁ-ゖ]", cell), tile


# The letter equivalences of docs/games/wordomino.md that do not need the game: small kana
# are large kana, dakuten/handakuten forms are their plain kana, い ≡ こ and
# く ≡ へ (a rotated tile), and ー stands for a vowel (any of あいうえお).
SMALL_TO_LARGE = str.maketrans("ぁぃぅぇぉっゃゅょゎゕゖ", "あいうえおつやゆよわかけ")
ROTATED = {"い": "こ", "こ": "い", "く": "へ", "へ": "く"}


def plain_kana(kana: str) -> str:
    return unicodedata.normalize("NFD", kana.translate(SMALL_TO_LARGE))[0]


def test_every_common_word_of_three_kana_can_be_spelled_with_tile_faces():
    """No word needs a kana that no tile face shows (nor its rotation), so no
    word depends on wild cells alone."""
    faces = {tile[cell] for tile in read_tiles() for cell in ("cell1", "cell2")} - {"*"}
    unspellable = []
    for word in words("common"):
        if len(word) < 3:
            continue
        for kana in word:
            plain = "あ" if kana == "ー" else plain_kana(kana)
            if plain not in faces and ROTATED.get(plain) not in faces:
                unspellable.append(word)
                break
    assert not unspellable, unspellable[:20]


# ---------------------------------------------------------------- licence

def test_licence_file_credits_sources_and_matches_the_lists():
    text = (DATA / "DICTIONARY-LICENSE.md").read_text(encoding="utf-8")
    for needed in ("CC BY-SA 4.0", "Electronic Dictionary Research and Development Group",
                   "JMdict", "created 2021-04-17", "Apache License, Version 2.0", "SudachiDict"):
        assert needed in text, needed
    assert f"{len(words('common')):,} readings in the common list" in text
    assert f"{len(words('full')):,} in the full list" in text


# ---------------------------------------------------------------- build script

def test_build_script_converts_katakana_and_keeps_long_vowel_mark():
    build = load_build_script()
    assert build.to_hiragana("コーヒー") == "こーひー"
    assert build.to_hiragana("ヴァイオリン") == "ゔぁいおりん"
    assert build.READING_SHAPE.fullmatch("こーひー")
    assert not build.READING_SHAPE.fullmatch("ね")
    assert not build.READING_SHAPE.fullmatch("えーびー・しー")


def test_build_script_drops_entries_whose_noun_senses_are_all_unwanted():
    build = load_build_script()
    noun = frozenset({build.NOUN_POS})
    verb = frozenset({"Ichidan verb"})

    def entry(*senses):
        made = build.Entry()
        made.senses = [(pos, frozenset(misc), frozenset(only)) for pos, misc, only in senses]
        return made

    archaic = entry((noun, {"archaism"}, ()), (noun, {"vulgar expression or word"}, ()))
    assert not build.is_wanted_noun(archaic, "ねこま")
    mixed = entry((noun, {"archaism"}, ()), (noun, (), ()))
    assert build.is_wanted_noun(mixed, "ねこ")
    not_a_noun = entry((verb, (), ()))
    assert not build.is_wanted_noun(not_a_noun, "たべる")
    # A sense restricted to another reading does not count for this one.
    restricted = entry((noun, (), {"にっぽん"}), (noun, {"obsolete term"}, ()))
    assert build.is_wanted_noun(restricted, "にっぽん")
    assert not build.is_wanted_noun(restricted, "にほん")


def test_build_script_output_does_not_depend_on_input_order():
    build = load_build_script()
    one = build.gzipped_lines({"ねこ", "いぬ", "こーひー"})
    other = build.gzipped_lines({"こーひー", "ねこ", "いぬ"})
    assert one == other
    assert gzip.decompress(one).decode("utf-8") == "いぬ\nこーひー\nねこ\n"


def pinned_packages_installed() -> bool:
    build = load_build_script()
    try:
        return all(importlib.metadata.version(name) == version
                   for name, version in build.PINNED.items())
    except importlib.metadata.PackageNotFoundError:
        return False


@pytest.mark.skipif(not pinned_packages_installed(),
                    reason="pinned dictionary packages not installed "
                           "(pip install -r tools/requirements-dictionaries.txt)")
def test_rebuilding_gives_the_shipped_files_byte_for_byte(tmp_path):
    build = load_build_script()
    assert build.main(["--out", str(tmp_path)]) == 0
    for name in ("nouns_common.txt.gz", "nouns_full.txt.gz", "DICTIONARY-LICENSE.md"):
        assert (tmp_path / name).read_bytes() == (DATA / name).read_bytes(), name
