"""benchmarks/cluster.py runs and prints its table and Dask's cost per task (tiny budgets: the
figures themselves are never asserted)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_cluster_benchmark_prints_both_ways_and_the_cost_per_task():
    done = subprocess.run([sys.executable, "benchmarks/cluster.py", "--games", "6", "--rounds", "1", "--tasks", "5",
                           "examples/high_card.game"], cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    rows = [line.split("|")[1:-1] for line in done.stdout.splitlines() if line.startswith("| examples/high_card")]
    assert len(rows) == 1 and len(rows[0]) == 8
    assert all(cell.strip() not in ("", "nan") for cell in rows[0])
    assert "Dask's cost per task on this machine" in done.stdout
