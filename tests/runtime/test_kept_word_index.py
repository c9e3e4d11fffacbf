"""formable's index of a word list (every word by its letters sorted, a quarter of a second
to build for a list of 100,000) is kept between runs by the digest of the list's text: a
process after the first reads it back and answers alike; an index of another text, or one
that cannot be read, is built again."""

from __future__ import annotations

import json
import marshal
import os
import subprocess
import sys
from pathlib import Path
from typing import Dict, Optional

from gamedsl.runtime.wordlists import WordList

ROOT = Path(__file__).resolve().parents[2]

WORDS = "\n".join(["ant", "tan", "nat", "tent", "net", "ten", "eat", "tea", "ate", "teen", "a", "at", "ta"])
HANDS = [(list("tane"), 0), (list("tnet"), 1), (["T", "E", "A"], 0), (["te", "n"], 0), ([], 2)]


class Keeper:
    """A `kept` that holds blobs in memory and counts what is asked of it."""

    def __init__(self):
        self.blobs: Dict[str, bytes] = {}
        self.gets = self.puts = 0

    def get(self, name: str) -> Optional[bytes]:
        self.gets += 1
        return self.blobs.get(name)

    def put(self, name: str, blob: bytes) -> None:
        self.puts += 1
        self.blobs[name] = blob


def answers(wl: WordList) -> list:
    return [wl.formable(letters, doubles) for letters, doubles in HANDS]


def test_a_kept_index_is_read_back_and_answers_alike():
    built = answers(WordList("x", lambda: WORDS))
    keeper = Keeper()
    first = WordList("x", lambda: WORDS, kept=keeper)
    assert answers(first) == built
    assert (keeper.gets, keeper.puts) == (1, 1)
    second = WordList("y", lambda: WORDS, kept=keeper)
    assert answers(second) == built
    assert (keeper.gets, keeper.puts) == (2, 1)  # found, not built and kept again


def test_an_index_of_another_text_is_not_used():
    keeper = Keeper()
    answers(WordList("x", lambda: WORDS, kept=keeper))
    other = WordList("x", lambda: WORDS + "\nneat", kept=keeper)
    assert other.formable(list("tane")) == sorted(["a", "ant", "at", "ate", "eat", "nat", "neat", "net",
                                                   "ta", "tan", "tea", "ten"])
    assert keeper.puts == 2


def test_a_kept_blob_that_is_no_index_is_built_again():
    built = answers(WordList("x", lambda: WORDS))
    keeper = Keeper()
    answers(WordList("x", lambda: WORDS, kept=keeper))
    (name,) = keeper.blobs
    for junk in (b"", b"\x00not marshal", b"\xe9\x01\x00\x00\x00", marshal.dumps({"a": 1})):
        keeper.blobs[name] = junk
        assert answers(WordList("x", lambda: WORDS, kept=keeper)) == built
        assert keeper.blobs[name] != junk  # (built, and kept in its place)


# Plays a game whose rules call formable, and prints whether the process built the index (a
# put) or found it (a get that answered).
PLAY = """
import json, sys
from gamedsl.syntax.cache_store import Kept
puts, found = [], []
get, put = Kept.get, Kept.put
Kept.put = lambda self, name, blob: (puts.append(name), put(self, name, blob))[1]
Kept.get = lambda self, name: (lambda b: (found.append(b is not None), b)[1])(get(self, name))
from gamedsl import load
import random
game = load(sys.argv[1])
state = game.new_game(2, seed=1)
rng = random.Random(1)
for _ in range(6):
    if game.is_over(state):
        break
    state = game.apply(state, game.random_move(state, game.waiting_for(state)[0], rng))
print(json.dumps({"puts": len(puts), "found": found}))
"""


def test_a_second_process_reads_the_index_the_first_kept(tmp_path):
    def play() -> dict:
        env = dict(os.environ, XDG_CACHE_HOME=str(tmp_path), PYTHONPATH=str(ROOT))
        done = subprocess.run([sys.executable, "-c", PLAY, str(ROOT / "games" / "letter_tycoon.game")],
                              capture_output=True, text=True, env=env, cwd=str(ROOT), timeout=300)
        assert done.returncode == 0, done.stderr
        return json.loads(done.stdout.splitlines()[-1])

    assert play() == {"puts": 1, "found": [False]}
    assert play() == {"puts": 0, "found": [True]}
    assert len(list((tmp_path / "gamedsl").glob("*.words"))) == 1
