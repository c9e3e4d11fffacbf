"""benchmarks/lsp.py runs and prints its figures (a few keystrokes; no figure is asserted)."""

import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_the_keystroke_benchmark_runs():
    done = subprocess.run([sys.executable, "benchmarks/lsp.py", "--keys", "4", "examples/high_card.game"],
                          cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    assert re.search(r"in process \(median ms\): parse [\d.]+, whole check [\d.]+", done.stdout)
    assert re.search(r"keystroke to diagnostics: median [\d.]+ ms", done.stdout)
