"""Regenerate games/english_standard.txt.gz and games/english_large.txt.gz from SCOWL.

Source: the Debian package `scowl` (pinned below), read with `apt-get download` and
`dpkg -x` -- nothing needs the package at run time. Only the ordinary-word files
(`*-words.N`) of the English spellings are read; the proper-name, abbreviation,
contraction and upper-case files are not. Kept: `[a-z]{2,15}`, minus vowel-less junk
(cs, ms, kb ...), except the real vowel-less words listed in KEEP_VOWELLESS.

    python tools/make_english.py              # downloads the pinned .deb into a temp dir
    python tools/make_english.py --deb FILE   # or reads a .deb you already have

`standard` is size level <= 70, `large` <= 80 (docs/games/letter_tycoon.md, "The dictionary"). The copyright file of
the package is copied verbatim to games/english_COPYRIGHT.txt.
"""

from __future__ import annotations

import argparse
import gzip
import re
import shutil
import subprocess
import tempfile
from pathlib import Path

PACKAGE = "scowl"
VERSION = "2020.12.07-2"
SPELLINGS = ("english", "american", "british", "british_z", "canadian", "australian")
LEVELS = {"standard": 70, "large": 80}
KEEP_VOWELLESS = {"hmm", "hmmm", "nth", "tsk", "tsks", "tsktsk", "tsktsks", "cwm", "cwms", "crwth",
                  "crwths", "brr", "brrr", "pfft", "psst", "shh", "sh", "pst", "zzz", "grr", "mm"}
WORD = re.compile(r"[a-z]{2,15}")
VOWELS = set("aeiouy")
GAMES = Path(__file__).resolve().parent.parent / "games"


def unpack(deb: Path, into: Path) -> Path:
    subprocess.run(["dpkg", "-x", str(deb), str(into)], check=True)
    return into / "usr" / "share"


def download(into: Path) -> Path:
    subprocess.run(["apt-get", "download", f"{PACKAGE}={VERSION}"], cwd=into, check=True)
    return next(into.glob(f"{PACKAGE}_*.deb"))


def words_up_to(scowl: Path, level: int) -> list:
    out = set()
    for f in scowl.iterdir():
        spelling, _, size = f.name.rpartition(".")
        if not size.isdigit() or int(size) > level:
            continue
        if spelling not in {s + "-words" for s in SPELLINGS}:
            continue
        for line in f.read_text("utf-8", errors="replace").split("\n"):
            w = line.strip()
            if WORD.fullmatch(w) and (set(w) & VOWELS or w in KEEP_VOWELLESS):
                out.add(w)
    return sorted(out)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--deb", type=Path, help="the scowl .deb (else apt-get download it)")
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        tmp = Path(tmp)
        deb = args.deb.resolve() if args.deb else download(tmp)
        share = unpack(deb, tmp / "x")
        scowl = share / "dict" / "scowl"
        for name, level in LEVELS.items():
            words = words_up_to(scowl, level)
            data = ("\n".join(words) + "\n").encode("ascii")
            # mtime=0: the same words give the same bytes, so the file only changes in git
            # when the list does.
            with open(GAMES / f"english_{name}.txt.gz", "wb") as raw:
                with gzip.GzipFile(filename="", mode="wb", fileobj=raw, mtime=0, compresslevel=9) as gz:
                    gz.write(data)
            print(f"english_{name}.txt.gz: {len(words)} words (size <= {level})")
        shutil.copyfile(share / "doc" / PACKAGE / "copyright", GAMES / "english_COPYRIGHT.txt")


if __name__ == "__main__":
    main()
