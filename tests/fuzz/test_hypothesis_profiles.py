"""The hypothesis tests cannot flip on luck: the suite runs them under the "ci" profile
(derandomized, a fixed number of examples, no example database, no constants gathered from
the modules imported so far), unless HYPOTHESIS_PROFILE=long asks for the long search."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.support import hypothesis_profiles

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.skipif(os.environ.get("HYPOTHESIS_PROFILE", "ci") != "ci", reason="the long search asked for")
def test_the_suite_runs_the_ci_profile():
    current = settings.default
    assert current.derandomize and current.database is None and current.max_examples == 25
    assert hypothesis_profiles.PINNED["done"], "hypothesis moved the hook: update pin_constants()"


def _draws(extra_imports: str) -> str:
    """The integers one derandomized test draws, in a fresh process that imported `extra_imports`
    first (as other tests would have)."""
    program = f"""
import sys
sys.path.insert(0, {str(ROOT)!r})
from tests.support.hypothesis_profiles import load_profile
load_profile("ci")
{extra_imports}
from hypothesis import given, strategies as st
seen = []
@given(st.integers(-10**9, 10**9), st.text(max_size=6))
def probe(n, t):
    seen.append((n, t))
probe()
print(seen)
"""
    done = subprocess.run([sys.executable, "-c", program], capture_output=True, text=True, cwd=ROOT, timeout=300)
    assert done.returncode == 0, done.stderr
    return done.stdout


def test_the_examples_do_not_depend_on_what_was_imported_before():
    bare = _draws("")
    assert bare == _draws("import gamedsl.cli.main, gamedsl.runtime.builtins, gamedsl.checker.signatures, "
                          "gamedsl.sim.report, gamedsl.rulebook")
