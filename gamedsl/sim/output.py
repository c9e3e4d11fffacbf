"""A simulation's folder (`--out`): results kept as games finish, a run marked partial until it ends.

`RunFolder.prepare(out, about)` runs before the first game: the folder must be one we can
write in (else a UsageError, exit 2, and no game is played), and files an earlier run left
there — results, report, plots, run.json — are removed, so two runs' files never mix.
It writes `run.json` with `"complete": false` and opens `results.jsonl`, to which `add`
appends each record as its game finishes (flushed: a run killed outright leaves every
finished game on disk, and run.json saying the run is partial). `finish` writes the
records again sorted by game; the caller then writes the report and plots, and `end` writes
run.json with how the run ended.
"""

from __future__ import annotations

import json
import os
import time
from pathlib import Path
from typing import List, Optional

from gamedsl.errors import UsageError

RUN_FILE = "run.json"
RESULTS = "results.jsonl"
_FIXED = (RUN_FILE, RESULTS, "report.json", "report.txt", "scores.png", "game_length.png")


def _ours(path: Path) -> bool:
    name = path.name
    return name in _FIXED or (name.startswith("win_rate_by_") and name.endswith(".png"))


def _why(err: OSError) -> str:
    return err.strerror or str(err)


class RunFolder:
    def __init__(self, out: Path, about: dict):
        self.out, self.about = out, about
        self.cleared: List[str] = []   # an earlier run's files removed from the folder
        self._results = None

    @classmethod
    def prepare(cls, out: Path, about: dict) -> "RunFolder":
        """Check `out` can hold the run, clear an earlier run's files, and mark the run begun."""
        if out.exists() and not out.is_dir():
            raise UsageError(f"--out {out} is a file, not a folder: name a folder for the results")
        for parent in out.parents:
            if parent.exists():
                if not parent.is_dir():
                    raise UsageError(f"--out {out}: {parent} is a file, not a folder")
                break
        try:
            out.mkdir(parents=True, exist_ok=True)
        except OSError as err:
            raise UsageError(f"cannot create the --out folder {out}: {_why(err)}") from None
        folder = cls(out, about)
        earlier = sorted(p.name for p in out.iterdir() if p.is_file() and _ours(p))
        for name in earlier:
            try:
                (out / name).unlink()
            except OSError as err:
                raise UsageError(f"--out {out} holds an earlier run's {name}, which cannot be removed: "
                                 f"{_why(err)}") from None
        folder.cleared = earlier
        try:
            folder._write_run_file(complete=False, games_done=0, ended=None)
            folder._results = open(out / RESULTS, "w", encoding="utf-8")
        except OSError as err:
            raise UsageError(f"cannot write in the --out folder {out}: {_why(err)}") from None
        return folder

    def _write_run_file(self, complete: bool, games_done: int, ended: Optional[str]) -> None:
        data = dict(self.about, complete=complete, games_done=games_done, ended=ended,
                    started=self.about.get("started") or time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()))
        self.about["started"] = data["started"]
        tmp = self.out / (RUN_FILE + ".tmp")
        tmp.write_text(json.dumps(data, indent=2, sort_keys=True) + "\n", encoding="utf-8")
        os.replace(tmp, self.out / RUN_FILE)

    def add(self, record: dict) -> None:
        """One finished game, kept at once (one line, flushed)."""
        self._results.write(json.dumps(record, sort_keys=True) + "\n")
        self._results.flush()

    def finish(self, records: List[dict]) -> Path:
        """Every record again, sorted by game (atomically replacing the streamed file)."""
        if self._results is not None:
            self._results.close()
            self._results = None
        tmp = self.out / (RESULTS + ".tmp")
        with open(tmp, "w", encoding="utf-8") as f:
            for r in records:
                f.write(json.dumps(r, sort_keys=True) + "\n")
        os.replace(tmp, self.out / RESULTS)
        return self.out / RESULTS

    def end(self, complete: bool, games_done: int, ended: str) -> Path:
        """run.json saying how the run ended: written last, so `complete: true` means every
        game was played and every file written."""
        self._write_run_file(complete=complete, games_done=games_done, ended=ended)
        return self.out / RUN_FILE

    def close(self) -> None:
        if self._results is not None:
            self._results.close()
            self._results = None

    def run_file(self) -> Path:
        return self.out / RUN_FILE


def about_run(spec, cluster: Optional[str]) -> dict:
    """What run.json says of a run besides how it ended."""
    return {"gamedsl_run": 1, "file": spec.path, "games": spec.games, "seed": spec.seed, "seats": spec.seats,
            "rotate": spec.rotate, "options": spec.options, "max_turns": spec.max_turns,
            "where": cluster or "local processes"}
