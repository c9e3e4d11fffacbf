"""Docs benchmarks: `python benchmarks/docs.py [FILE...]` prints a Markdown table.

For each game (default: every file in games/ and examples/, the tutorial's too): the
warm time of `gamedsl rules` (load + render the rulebook) and the rulebook's size; then
the wall time of `mkdocs build --strict` of the whole site (when mkdocs is installed).
"""

from __future__ import annotations

import glob
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from gamedsl.rulebook import rulebook_of  # noqa: E402


def rules_time(path: str, runs: int = 5) -> tuple:
    text = rulebook_of(path)
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        rulebook_of(path)
        times.append(time.perf_counter() - start)
    return statistics.median(times), len(text.splitlines())


def site_time() -> float:
    with tempfile.TemporaryDirectory() as site:
        start = time.perf_counter()
        done = subprocess.run([sys.executable, "-m", "mkdocs", "build", "--strict", "-q", "--site-dir", site],
                              cwd=ROOT, capture_output=True, text=True)
        elapsed = time.perf_counter() - start
    if done.returncode:
        raise SystemExit(f"mkdocs build failed:\n{done.stderr}")
    return elapsed


def main(argv) -> int:
    files = argv or sorted(glob.glob(str(ROOT / "games" / "**" / "*.game"), recursive=True)
                           + glob.glob(str(ROOT / "examples" / "**" / "*.game"), recursive=True))
    print("| game | `gamedsl rules` (warm) | rulebook lines |")
    print("|---|---|---|")
    for path in files:
        seconds, lines = rules_time(path)
        print(f"| {Path(path).relative_to(ROOT) if Path(path).is_relative_to(ROOT) else path} "
              f"| {seconds * 1000:.1f} ms | {lines} |")
    try:
        import mkdocs  # noqa: F401
    except ImportError:
        print("\nmkdocs is not installed: pip install -e '.[docs]'")
        return 0
    print(f"\n`mkdocs build --strict` of the whole site: {site_time():.2f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
