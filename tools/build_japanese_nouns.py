"""Build Wordomino's Japanese noun lists from JMdict, filtered by SudachiDict.

Run from the repository root (one command; the build itself takes seconds):

    pip install -r tools/requirements-dictionaries.txt && python tools/build_japanese_nouns.py

Pinned sources (the script refuses other versions, so the output is
reproducible byte for byte):

- ``jamdict-data==1.5`` (PyPI): JMdict as an SQLite database, JMdict
  creation date 2021-04-17. JMdict is (c) the Electronic Dictionary Research
  and Development Group (EDRDG), CC BY-SA.
- ``sudachidict-core==20261015`` with ``sudachipy==0.7.0`` (PyPI):
  SudachiDict, (c) Works Applications, Apache-2.0. Used only as a filter.

Writes, in ``games/wordomino/``:

- ``nouns_common.txt.gz``: the ``common`` dictionary;
- ``nouns_full.txt.gz``: the ``full`` dictionary (no priority filter);
- ``DICTIONARY-LICENSE.md``: licence, attribution and derivation.

Each list holds one hiragana reading per line (katakana converted to
hiragana, the long-vowel mark ー kept), sorted by code point, deduplicated,
UTF-8, gzipped with mtime 0. A reading is kept when (docs/games/wordomino.md, "The dictionary"):

1. it belongs to a JMdict entry with a common-noun sense (``n``) that applies
   to it, and not every such sense is vulgar, derogatory, archaic or
   obsolete;
2. the reading itself is not marked as obsolete kana usage (``ok``) — the
   reading-level form of the "obsolete" rule;
3. SudachiDict lists one of the entry's written forms (a kanji form the
   reading belongs to, or the reading in hiragana or katakana) as a common
   noun (名詞-普通名詞) *with this reading*. JMdict tags place and country
   names as plain nouns; Sudachi calls them proper nouns, so とうきょう,
   にほん and あめりか fall out while がっこう stays. Tying the check to the
   written form matters: Sudachi has the common noun 頭胸 (トウキョウ), which
   must not let 東京 back in;
4. it is made of hiragana and ー only, at least two characters long;
5. for ``common`` only: the reading carries one of JMdict's "common" priority
   tags (news1, ichi1, spec1, spec2, gai1).

Nothing here is needed at run time: the game reads only the gzipped lists.
"""

from __future__ import annotations

import argparse
import gzip
import importlib.metadata
import io
import re
import sqlite3
import sys
import time
from collections import defaultdict
from pathlib import Path

PINNED = {
    "jamdict-data": "1.5",
    "sudachidict-core": "20261015",
    "sudachipy": "0.7.0",
}

ROOT = Path(__file__).resolve().parent.parent
OUT_DIR = ROOT / "games" / "wordomino"

COMMON_PRIORITIES = frozenset({"news1", "ichi1", "spec1", "spec2", "gai1"})
# jamdict stores JMdict's entity codes expanded to their descriptions.
NOUN_POS = "noun (common) (futsuumeishi)"
UNWANTED_MISC = frozenset({
    "vulgar expression or word",  # vulg
    "derogatory",  # derog
    "archaism",  # arch
    "obsolete term",  # obs
})
OBSOLETE_KANA = "out-dated or obsolete kana usage"  # ok (reading info)
JMDICT_VERSION_ENTRY = 9999999  # JMdict's own entry; its gloss has the date

KATAKANA_TO_HIRAGANA = {code: code - 0x60 for code in range(0x30A1, 0x30F7)}
READING_SHAPE = re.compile(r"[ぁ-ゖー]{2,}")


def to_hiragana(text: str) -> str:
    """Katakana → hiragana; ー and everything else unchanged."""
    return text.translate(KATAKANA_TO_HIRAGANA)


def check_pins() -> None:
    wrong = []
    for name, version in PINNED.items():
        try:
            found = importlib.metadata.version(name)
        except importlib.metadata.PackageNotFoundError:
            found = "not installed"
        if found != version:
            wrong.append(f"  {name}: need {version}, found {found}")
    if wrong:
        sys.exit(
            "build_japanese_nouns: the pinned packages are not installed:\n"
            + "\n".join(wrong)
            + "\nRun: pip install -r tools/requirements-dictionaries.txt"
        )


# ---------------------------------------------------------------- JMdict

class Entry:
    """One JMdict entry: written forms, readings and senses."""

    def __init__(self) -> None:
        self.kanji: list[str] = []
        # reading text -> (kana row id, nokanji flag)
        self.readings: dict[str, tuple[int, bool]] = {}
        # (parts of speech, misc tags, readings the sense is restricted to)
        self.senses: list[tuple[frozenset, frozenset, frozenset]] = []


def open_jmdict() -> sqlite3.Connection:
    import jamdict_data

    uri = Path(jamdict_data.JAMDICT_DB_PATH).as_uri() + "?mode=ro"
    return sqlite3.connect(uri, uri=True)


def jmdict_date(db: sqlite3.Connection) -> str:
    rows = db.execute(
        "SELECT g.text FROM SenseGloss g JOIN Sense s ON g.sid = s.ID"
        " WHERE s.idseq = ?", (JMDICT_VERSION_ENTRY,)).fetchall()
    for (text,) in rows:
        match = re.search(r"Creation Date: (\d{4}-\d\d-\d\d)", text)
        if match:
            return match.group(1)
    return "unknown"


def grouped(db: sqlite3.Connection, sql: str) -> dict[int, set[str]]:
    result: dict[int, set[str]] = defaultdict(set)
    for key, text in db.execute(sql):
        result[key].add(text)
    return result


def read_jmdict(db: sqlite3.Connection) -> tuple[dict[int, Entry], dict, dict, dict]:
    """All entries, plus per-reading priorities, restrictions and info."""
    entries: dict[int, Entry] = defaultdict(Entry)
    for idseq, text in db.execute("SELECT idseq, text FROM Kanji ORDER BY ID"):
        entries[idseq].kanji.append(text)
    for row_id, idseq, text, nokanji in db.execute(
            "SELECT ID, idseq, text, nokanji FROM Kana ORDER BY ID"):
        entries[idseq].readings[text] = (row_id, bool(nokanji))
    priorities = grouped(db, "SELECT kid, text FROM KNP")
    restrictions = grouped(db, "SELECT kid, text FROM KNR")
    reading_info = grouped(db, "SELECT kid, text FROM KNI")

    pos = grouped(db, "SELECT sid, text FROM pos")
    misc = grouped(db, "SELECT sid, text FROM misc")
    stagr = grouped(db, "SELECT sid, text FROM stagr")
    previous_pos: dict[int, frozenset] = {}
    for sense_id, idseq in db.execute("SELECT ID, idseq FROM Sense ORDER BY ID"):
        # JMdict: a sense without <pos> takes the previous sense's.
        sense_pos = frozenset(pos.get(sense_id, ())) or previous_pos.get(idseq, frozenset())
        previous_pos[idseq] = sense_pos
        entries[idseq].senses.append(
            (sense_pos, frozenset(misc.get(sense_id, ())), frozenset(stagr.get(sense_id, ()))))
    return entries, priorities, restrictions, reading_info


def is_wanted_noun(entry: Entry, reading: str) -> bool:
    """A common-noun sense applies to the reading, and not all are unwanted."""
    noun_senses = [
        misc for (pos, misc, only_for) in entry.senses
        if NOUN_POS in pos and (not only_for or reading in only_for)
    ]
    return bool(noun_senses) and not all(misc & UNWANTED_MISC for misc in noun_senses)


def written_forms(entry: Entry, reading: str, nokanji: bool, restricted_to: set[str]) -> list[str]:
    if nokanji:
        kanji = []
    elif restricted_to:
        kanji = [k for k in entry.kanji if k in restricted_to]
    else:
        kanji = list(entry.kanji)
    katakana = reading.translate({v: k for k, v in KATAKANA_TO_HIRAGANA.items()})
    return kanji + [reading, to_hiragana(reading), katakana]


# ---------------------------------------------------------------- Sudachi

def sudachi_common_nouns() -> dict[str, set[str]]:
    """Written form -> hiragana readings of SudachiDict's common nouns."""
    from sudachipy import Dictionary

    dictionary = Dictionary(dict="core")
    nouns: dict[str, set[str]] = defaultdict(set)
    for morpheme in dictionary.entries():
        part = morpheme.part_of_speech()
        if part[0] == "名詞" and part[1] == "普通名詞":
            nouns[morpheme.surface()].add(to_hiragana(morpheme.reading_form()))
    return nouns


# ---------------------------------------------------------------- build

def build_lists() -> tuple[set[str], set[str], str]:
    db = open_jmdict()
    date = jmdict_date(db)
    entries, priorities, restrictions, reading_info = read_jmdict(db)
    sudachi = sudachi_common_nouns()

    full: set[str] = set()
    common: set[str] = set()
    for entry in entries.values():
        for reading, (row_id, nokanji) in entry.readings.items():
            word = to_hiragana(reading)
            if not READING_SHAPE.fullmatch(word):
                continue
            if OBSOLETE_KANA in reading_info.get(row_id, ()):
                continue
            if not is_wanted_noun(entry, reading):
                continue
            forms = written_forms(entry, reading, nokanji, restrictions.get(row_id, set()))
            if not any(word in sudachi.get(form, ()) for form in forms):
                continue
            full.add(word)
            if priorities.get(row_id, set()) & COMMON_PRIORITIES:
                common.add(word)
    return common, full, date


def gzipped_lines(words: set[str]) -> bytes:
    text = "".join(word + "\n" for word in sorted(words)).encode("utf-8")
    buffer = io.BytesIO()
    # filename="" and mtime=0: no name or timestamp in the header, so the
    # same words always give the same bytes.
    with gzip.GzipFile(filename="", mode="wb", fileobj=buffer, compresslevel=9, mtime=0) as out:
        out.write(text)
    return buffer.getvalue()


def licence_text(date: str, common: set[str], full: set[str]) -> str:
    template = (Path(__file__).with_name("japanese_nouns_license.md.in")).read_text(encoding="utf-8")
    return template.format(
        jmdict_date=date,
        jamdict_data=PINNED["jamdict-data"],
        sudachidict=PINNED["sudachidict-core"],
        sudachipy=PINNED["sudachipy"],
        common=f"{len(common):,}",
        full=f"{len(full):,}",
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=OUT_DIR, help="output folder (default: %(default)s)")
    args = parser.parse_args(argv)
    check_pins()
    started = time.perf_counter()
    common, full, date = build_lists()
    args.out.mkdir(parents=True, exist_ok=True)
    for name, words in (("nouns_common.txt.gz", common), ("nouns_full.txt.gz", full)):
        data = gzipped_lines(words)
        (args.out / name).write_bytes(data)
        three = sum(1 for word in words if len(word) >= 3)
        print(f"{name}: {len(words):,} readings ({three:,} with 3+ kana), {len(data):,} bytes gzipped")
    (args.out / "DICTIONARY-LICENSE.md").write_text(licence_text(date, common, full), encoding="utf-8")
    print(f"JMdict {date}; built in {time.perf_counter() - started:.1f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
