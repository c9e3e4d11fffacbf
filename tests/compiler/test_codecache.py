"""The generated code is kept between runs: the generator writes the same text for the same
rules in every process, whatever was played first and whatever Python's hash seed, so a
second process finds every source's code in the cache and compiles nothing; the game it
plays is the same; an entry that was tampered with is a miss, never an error or code run."""

from __future__ import annotations

import json
import os
import pickle
import random
import subprocess
import sys
from pathlib import Path

import pytest

from gamedsl import load
from gamedsl.compiler import codecache
from gamedsl.compiler.codecache import CodeCache

ROOT = Path(__file__).resolve().parents[2]
GAME = str(ROOT / "games" / "trade_tycoon.game")

# Plays `games` random games from `seed`, then prints what the process compiled and found,
# the games' last states (their digest) and the text of every block and choice listing,
# written after the games (before any game is played when there are none).
PLAY = """
import hashlib, json, random, sys
from gamedsl import load
from gamedsl.compiler import backend, codecache, listing
path, seed, games = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
game = load(path)
program = game.program

def texts():
    return backend.generate(program) + "".join(
        listing.generate_choice(st) for st in program.stmts if listing.listed_here(st))

before = texts() if games == 0 else ""
rng = random.Random(seed)
last = []
for s in range(seed, seed + games):
    state = game.new_game(game.min_players, seed=s)
    while not game.is_over(state):
        state = game.apply(state, rng.choice(game.legal_moves(state)))
    last.append(state)
cache = codecache.for_game(path)
print(json.dumps({"hits": cache.hits, "misses": cache.misses,
                  "states": hashlib.sha256(json.dumps(last, sort_keys=True).encode()).hexdigest(),
                  "texts": hashlib.sha256((before or texts()).encode()).hexdigest()}))
"""


def run(script: str, home: Path, *args: str, hash_seed: str = "0", game: str = GAME, cwd: Path = ROOT) -> dict:
    """What `script`, run in a process of its own with the cache folder `home` and the game
    named by `game` from the folder `cwd`, printed."""
    env = dict(os.environ, XDG_CACHE_HOME=str(home), PYTHONPATH=str(ROOT), PYTHONHASHSEED=hash_seed)
    done = subprocess.run([sys.executable, "-c", script, game, *args], capture_output=True,
                          text=True, env=env, cwd=str(cwd), timeout=300)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


def play(home: Path, seed: int, games: int = 2, hash_seed: str = "0", game: str = GAME, cwd: Path = ROOT) -> dict:
    return run(PLAY, home, str(seed), str(games), hash_seed=hash_seed, game=game, cwd=cwd)


def test_a_second_process_compiles_nothing_and_plays_the_same_game(tmp_path):
    first = play(tmp_path / "home", seed=1)
    assert first["misses"] > 10 and first["hits"] == 0
    again = play(tmp_path / "home", seed=1, hash_seed="12345")
    assert again["misses"] == 0 and again["hits"] == first["misses"]
    assert again["states"] == first["states"]
    assert list((tmp_path / "home" / "gamedsl").glob("*.code"))


def test_a_game_named_by_another_path_finds_the_code_kept_for_it(tmp_path):
    # (the places of the rules, part of some names, are named by the file's real path)
    first = play(tmp_path / "home", seed=1, game="games/trade_tycoon.game")
    again = play(tmp_path / "home", seed=1, game="trade_tycoon.game", cwd=ROOT / "games")
    assert first["misses"] > 10 and again["misses"] == 0 and again["hits"] == first["misses"]
    assert again["states"] == first["states"] and again["texts"] == first["texts"]


def test_the_generated_text_does_not_depend_on_what_was_played_first(tmp_path):
    """Blocks and listings written before any game and after different games, under
    different hash seeds, in processes with caches of their own: the same text."""
    first = play(tmp_path / "a", seed=1, games=0, hash_seed="1")
    one = play(tmp_path / "b", seed=1, games=1, hash_seed="2")
    other = play(tmp_path / "c", seed=50, games=3, hash_seed="3")
    assert one["states"] != other["states"]
    assert first["texts"] == one["texts"] == other["texts"]


def test_expressions_get_the_same_source_whatever_came_first(tmp_path):
    """Two loads of one game in one process, warmed up in different orders: each expression's
    generated function, where both wrote it, has the same name and text."""
    sources = []
    for seed, games in ((3, 1), (70, 4)):
        game = load(GAME)
        rng = random.Random(seed)
        for s in range(seed, seed + games):
            state = game.new_game(game.min_players, seed=s)
            while not game.is_over(state):
                state = game.apply(state, rng.choice(game.legal_moves(state)))
        sources.append(dict(game.snippets.source.sources))
    common = set(sources[0]) & set(sources[1])
    assert len(common) > 5
    assert all(sources[0][name] == sources[1][name] for name in common)


def test_a_tampered_entry_is_a_miss(tmp_path):
    home = tmp_path / "home"
    first = play(home, seed=1)
    marker = tmp_path / "ran"
    for entry in (home / "gamedsl").glob("*.code"):
        entry.write_bytes(b"\0" * 32 + pickle.dumps((os.system, (f"touch {marker}",))))
    again = play(home, seed=1)
    assert again["misses"] == first["misses"] and again["hits"] == 0
    assert again["states"] == first["states"] and not marker.exists()


def test_a_cache_kept_nowhere_compiles_each_source_once():
    cache = CodeCache()
    source = "def f():\n    return 41 + 1\n"
    code = cache.compile(source, "<test>")
    assert cache.compile(source, "<test>") is code and (cache.hits, cache.misses) == (1, 1)
    namespace: dict = {}
    exec(code, namespace)
    assert namespace["f"]() == 42
    with pytest.raises(SyntaxError):
        cache.compile("def (", "<test>")


def test_a_game_loaded_again_in_a_process_finds_its_code():
    path = str(ROOT / "examples" / "tictactoe.game")
    cache = codecache.for_game(path)
    seen = []
    for _ in range(2):
        game = load(path)
        state = game.new_game(2, seed=4)
        while not game.is_over(state):
            state = game.apply(state, game.legal_moves(state)[0])
        seen.append((cache.hits, cache.misses))
    (hits, misses), (hits_again, misses_again) = seen
    assert misses_again == misses and hits_again > hits


# A few decisions of a greedy seat: its score's generated code and its memo's readers (3 of
# them by the 12th move).
GREEDY = """
import builtins, json, sys
compiled = []
def counted(source, filename, *args, **kwargs):
    if filename.startswith("<gamedsl"):
        compiled.append(filename.split()[1])
    return python_compile(source, filename, *args, **kwargs)
python_compile, builtins.compile = builtins.compile, counted
from gamedsl import load
from gamedsl.bots.registry import make_bot
from gamedsl.compiler import codecache
path = sys.argv[1]
game = load(path)
state = game.new_game(3, seed=5)
bot = make_bot("greedy", game, 0, 5)
moves = []
for _ in range(12):
    move = bot.choose(state) if game.waiting_for(state) == [0] else game.legal_moves(state)[0]
    moves.append(move)
    state = game.apply(state, move)
cache = codecache.for_game(path)
print(json.dumps({"hits": cache.hits, "misses": cache.misses, "moves": moves, "compiled": compiled}))
"""


def test_a_searching_seat_finds_its_code_kept_too(tmp_path):
    first, again = run(GREEDY, tmp_path), run(GREEDY, tmp_path)
    assert first["misses"] > 0 and again["misses"] == 0 and again["hits"] >= first["misses"]
    assert "reader>" in first["compiled"] and again["compiled"] == []
    assert again["moves"] == first["moves"]


def test_an_entry_grown_too_big_keeps_the_code_used_last(tmp_path, monkeypatch):
    """Each edit of a draft adds its own sources to the game's entry: past the bound, the
    sources compiled or found last are kept, the oldest let go."""
    monkeypatch.setattr(codecache, "MAX_CODES", 3)
    key = str(tmp_path / "draft.game")
    sources = [f"x = {n}\n" for n in range(5)]
    first = CodeCache(key)
    for source in sources:
        first.compile(source, "<test>")
    first.save()
    again = CodeCache(key)
    for source in reversed(sources):
        again.compile(source, "<test>")
    assert (again.hits, again.misses) == (3, 2)
    again.save()
    last = CodeCache(key)  # (the last three met: 2 found, then 1 and 0 compiled)
    for source in sources:
        last.compile(source, "<test>")
    assert (last.hits, last.misses) == (3, 2)
    last.save()
    kept = CodeCache(key)
    for source in sources[2:]:
        kept.compile(source, "<test>")
    assert (kept.hits, kept.misses) == (3, 0)


def test_code_is_written_where_its_entry_was_read(tmp_path, monkeypatch):
    """A process whose cache folder changes while it runs (a test suite's, put back when it
    ends) writes what it compiled beside the entry it read, not into the folder it ends in."""
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "first"))
    cache = CodeCache(str(tmp_path / "game.game"))
    cache.compile("x = 1\n", "<test>")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "later"))
    cache.save()
    assert list((tmp_path / "first" / "gamedsl").glob("*.code"))
    assert not (tmp_path / "later").exists()
