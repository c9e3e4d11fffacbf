"""Word lists that fold letters: load + index time, and WordList.readings() per line.

    python benchmarks/word_readings.py [--list games/wordomino/nouns_full.txt.gz]

Lines are 15 letters made of listed words and random letters (a fixed seed), read both
ways with n = 2; the figures are CPU time (the minimum of several rounds, steadier than wall
clock on a loaded machine), per line. The fold table is the one Wordomino needs (voiced
and small kana, こ = い, へ = く, ー matching a vowel, * wild), written here: the engine
knows none of it.
"""

from __future__ import annotations

import argparse
import random
import time
from pathlib import Path

from gamedsl.runtime.wordlists import Folding, WordList, read_list_text

VOICED = "がかぎきぐくげけござじしずすぜせぞそだたぢちづつでてどとばはびひぶふべへぼほぱはぴひぷふぺへぽほ"
SMALL = "ぁあぃいぅうぇえぉおっつゃやゅゆょよゎわ"


def folding() -> Folding:
    pairs = [(VOICED[i], VOICED[i + 1]) for i in range(0, len(VOICED), 2)]
    pairs += [(SMALL[i], SMALL[i + 1]) for i in range(0, len(SMALL), 2)] + [("こ", "い"), ("へ", "く")]
    pairs = [(k, {"こ": "い", "へ": "く"}.get(v, v)) for k, v in pairs]
    return Folding(tuple(pairs), (("ー", "あいうえお"),), "*")


def per_line(wl, lines, placed, rounds=7):
    best = float("inf")
    for _ in range(rounds):
        t = time.process_time()
        for line, marks in zip(lines, placed):
            wl.readings(line, marks, 2, True)
        best = min(best, time.process_time() - t)
    return best / len(lines) * 1e6


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--list", default="games/wordomino/nouns_full.txt.gz")
    args = ap.parse_args()
    path = Path(args.list)
    t = time.process_time()
    wl = WordList(str(path), lambda: read_list_text(path), folding())
    wl.words
    t_read = time.process_time() - t
    wl.trie
    t_trie = time.process_time() - t - t_read
    print(f"{len(wl.words)} words: read {t_read:.2f} s, trie {t_trie:.2f} s (CPU)")
    rng = random.Random(1)
    kana = [chr(c) for c in range(ord("ぁ"), ord("ゖ"))]
    words = sorted(wl.words)

    def line():
        s = ""
        while len(s) < 15:
            s += rng.choice(words) if rng.random() < .5 else rng.choice(kana)
        return list(s[:15])
    lines = [line() for _ in range(300)]
    wild = [ln[:5] + ["*"] + ln[6:] for ln in lines]
    two = [[7, 8]] * len(lines)
    every = [range(15)] * len(lines)
    found = sum(len(wl.readings(ln, [7, 8], 2, True)) for ln in lines) / len(lines)
    print(f"a tile placed (cells 7, 8): {per_line(wl, lines, two):6.1f} µs/line ({found:.0f} readings)")
    print(f"every cell placed:          {per_line(wl, lines, every):6.1f} µs/line")
    print(f"a wild at 5, tile at 7, 8:  {per_line(wl, wild, two):6.1f} µs/line")
    print(f"a wild at 5, every cell:    {per_line(wl, wild, every):6.1f} µs/line")


if __name__ == "__main__":
    main()
