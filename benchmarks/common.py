"""What the benchmark scripts share: the line naming the machine and commit, and a timed
`gamedsl simulate` run."""

from __future__ import annotations

import os
import platform
import resource
import subprocess
import time
from pathlib import Path

from gamedsl.sim.simulate import SimSpec, run

ROOT = Path(__file__).resolve().parent.parent


def machine_line() -> str:
    commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=ROOT, capture_output=True,
                            text=True).stdout.strip() or "?"
    return (f"machine: {platform.machine()}, {os.cpu_count()} cores, {platform.python_implementation()} "
            f"{platform.python_version()}; {time.strftime('%Y-%m-%d %H:%M %Z')}; commit {commit}; "
            f"load average at start {os.getloadavg()[0]:.1f}")


def _children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def simulate_rate(path: str, seats: int, games: int, jobs: int) -> tuple:
    """`gamedsl simulate` of `games` games with random bots on `jobs` processes: games per
    second (wall) and CPU seconds per game of this process and its workers."""
    spec = SimSpec(path=path, seats=["random"] * seats, games=games, seed=1)
    cpu, kids = time.process_time(), _children_cpu()
    sim = run(spec, jobs)
    cpu = time.process_time() - cpu + _children_cpu() - kids
    if any(r["error"] for r in sim.records):
        raise SystemExit(f"{path}: a simulated game failed")
    return games / sim.seconds, cpu / games
