"""Fuzzing the rule language: whatever a rule file holds, `gamedsl check` ends in diagnostics
or success, and a game that checks plays without a Python error.

Three sources of files (tests/support/rulegen.py): random walks of grammar/gamedsl.lark, games
built from typed templates (mostly valid, so the engine runs them), and mutations of the
real files in games/ and examples/ (tokens, lines, bytes, huge numbers, deep nesting,
unicode). Each file is loaded, its diagnostics rendered, and a game it defines played for
a few random moves, under a timeout (rulegen.run_one). The seeds are fixed, so a failure
here is reproducible; tools/fuzz_long.py runs the same sources for as long as one likes.

Every crash found is kept in tests/fuzz/regressions/ with the code it must now end in.
"""

from __future__ import annotations

import json
import random
import re
import resource
import subprocess
import sys
from pathlib import Path

import pytest

from tests.support import rulegen
from tests.support.rulegen import Crash, run_one

ROOT = Path(__file__).resolve().parents[2]
REGRESSIONS = sorted((ROOT / "tests" / "fuzz" / "regressions").glob("*.game"))
REAL = rulegen.real_files()
DONORS = {str(p): p.read_text("utf-8") for p in REAL}
SOURCES = rulegen.sources(DONORS)


def _outcomes(source: str, count: int) -> dict:
    counts: dict = {}
    for seed in range(count):
        rng = random.Random(f"{source}-{seed}")
        path, text = SOURCES[source](rng)
        try:
            outcome = run_one(path, text, seed, moves=15).split()[0]
        except Crash as crash:
            pytest.fail(f"{source} seed {seed}: {crash.kind}\n{crash.detail}\n--- the file:\n{text[:3000]}")
        counts[outcome] = counts.get(outcome, 0) + 1
    return counts


def test_random_walks_of_the_grammar_end_in_diagnostics_or_a_game():
    counts = _outcomes("walk", 1000)
    assert sum(counts.values()) == 1000


def test_walks_reach_past_the_parser():
    """The walks are syntax the parser accepts: most of their diagnostics come from the checker."""
    from gamedsl.errors import GameError
    from gamedsl.pipeline import load

    parsed = 0
    for seed in range(60):
        try:
            load("walk.game", text=rulegen.grammar_walk(random.Random(seed)))
        except GameError as err:
            parsed += not any(d.code in ("E002", "E003", "E004", "E006") for d in err.diagnostics)
    assert parsed > 30


def test_typed_games_end_in_diagnostics_or_a_game_and_most_are_played():
    counts = _outcomes("typed", 200)
    assert counts.get("played", 0) + counts.get("rule", 0) > 40, counts


def test_mutants_of_every_real_file_end_in_diagnostics_or_a_game():
    counts = _outcomes("mutant", 1200)
    assert counts.get("played", 0) > 10, counts


def test_every_real_file_is_a_donor():
    """New games in games/ are fuzzed without editing this file."""
    names = {p.name for p in REAL}
    assert {"tictactoe.game", "letter_tycoon.game", "trade_tycoon.game"} <= names
    assert all(p.suffix == ".game" for p in REAL)


@pytest.mark.parametrize("path", REGRESSIONS, ids=[p.stem for p in REGRESSIONS])
def test_crash_found_by_fuzzing_stays_fixed(path):
    text = path.read_text("utf-8")
    expected = re.search(r"^# expect: (\w+)", text, re.M).group(1)
    outcome = run_one(str(path), text, moves=15, timeout=60)
    assert outcome.split()[-1] == expected, outcome


def test_every_regression_says_what_it_must_end_in():
    assert len(REGRESSIONS) >= 10
    for path in REGRESSIONS:
        head = path.read_text("utf-8").splitlines()[:2]
        # fuzz: found by the generators; review: found reading the code while fixing those
        assert head[0].startswith(("# fuzz: ", "# review: ")) and head[1].startswith("# expect: "), path.name


# ---------------------------------------------------------------- the command line


def _limit_memory():
    resource.setrlimit(resource.RLIMIT_AS, (2 * 1024 ** 3, 2 * 1024 ** 3))


def test_gamedsl_check_on_generated_files_ends_with_a_summary(tmp_path):
    """A few runs of the real command: exit 0 or 1, a summary line, no traceback, within
    a memory limit (the in-process tests above cannot bound memory)."""
    rng = random.Random(7)
    files = []
    for n in range(12):
        source = ["walk", "typed", "mutant"][n % 3]
        _, text = SOURCES[source](rng)
        path = tmp_path / f"f{n}.game"
        path.write_text(text, "utf-8", errors="surrogatepass")
        files.append(path)
    (tmp_path / "junk.game").write_bytes(bytes(random.Random(1).randrange(256) for _ in range(3000)))
    files.append(tmp_path / "junk.game")
    for chunk in (files[:1], files[1:5], files[5:]):
        done = subprocess.run([sys.executable, "-m", "gamedsl", "check", *map(str, chunk)], cwd=ROOT,
                              capture_output=True, text=True, timeout=120, preexec_fn=_limit_memory)
        assert done.returncode in (0, 1), done.stderr
        assert "Traceback" not in done.stderr and "internal error" not in done.stderr, done.stderr
        assert re.search(r"^(ok: \d+ files?|\d+ errors?, \d+ warnings? in \d+ files?)", done.stdout, re.M), done.stdout[-500:]


def test_the_long_run_tool_runs_its_sources_and_games_from_any_folder(tmp_path):
    """tools/fuzz_long.py, run for a moment from outside the repository: it finds the shared
    sources and checks, plays what it was asked to and says so in its summary."""
    out = tmp_path / "crashes"
    done = subprocess.run([sys.executable, str(ROOT / "tools" / "fuzz_long.py"), "--files", "12", "--games", "1",
                           "--only", "tictactoe", "--seed", "2", "--sources", "typed", "--lockstep",
                           "--out", str(out)],
                          cwd=tmp_path, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr[-2000:]
    summary = json.loads((out / "summary.json").read_text())
    assert summary["files"] == 12 and sum(summary["file_outcomes"].values()) == 12
    assert summary["file_outcomes"].get("in lockstep", 0) >= 3  # (typed files mostly play)
    assert summary["games"] == {"examples/tictactoe.game": summary["games"]["examples/tictactoe.game"]}
    assert summary["games"]["examples/tictactoe.game"] >= 1 and summary["moves"] > 0
    assert summary["crashes"] == 0


def test_the_long_runs_lockstep_reports_back_ends_that_differ(monkeypatch):
    """A file the two back ends play differently is a crash of kind "divergence": here the
    compiling back end is handed the rules with one number changed."""
    from tools import fuzz_long
    from gamedsl import pipeline

    text = (ROOT / "examples" / "tictactoe.game").read_text("utf-8")
    real_load = pipeline.load

    def load(path, text=None, max_steps=None, backend="compiled"):
        if backend == "compiled":
            text = text.replace("copies 5 per player", "copies 4 per player")
        return real_load(path, text=text, max_steps=max_steps, backend=backend)

    monkeypatch.setitem(fuzz_long._worker, "timeout", 60)
    assert fuzz_long._in_lockstep("tictactoe.game", text, 1) is None
    monkeypatch.setattr(pipeline, "load", load)
    kind, detail = fuzz_long._in_lockstep("tictactoe.game", text, 1)
    assert kind == "divergence" and "before the first move" in detail, detail
