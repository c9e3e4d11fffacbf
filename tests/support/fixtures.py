"""Small helpers several test modules use: the `gamedsl` command run in-process, what its
error output must look like, a file's diagnostic codes, and a small game's text."""

from __future__ import annotations

import io
import sys

from gamedsl.checker.checker import check
from gamedsl.cli.main import main
from gamedsl.pipeline import parse_with_extends


def run(capsys, monkeypatch, argv, stdin=""):
    """main(argv) in-process: (exit code, stdout, stderr)."""
    monkeypatch.setattr(sys, "stdin", io.StringIO(stdin))
    code = main(argv)
    out, err = capsys.readouterr()
    assert "Traceback" not in out + err
    return code, out, err


def assert_one_error_line(err: str):
    """Exit 2's stderr: argparse's usage block may come first, then exactly one error line."""
    lines = err.strip().splitlines()
    errors = [ln for ln in lines if ln.startswith("gamedsl: error:")]
    assert len(errors) == 1 and lines[-1] == errors[0], err
    assert all(ln.startswith(("usage:", " ")) for ln in lines[:-1]), err


def diagnose(text: str, path: str = "test.game"):
    """What `gamedsl check` reports: read (with variants and table files), then check."""
    loaded = parse_with_extends(path, text)
    diags, result = list(loaded.diagnostics), None
    if loaded.game is not None:
        result = check(loaded.game, loaded.sources)
        diags += result.diagnostics
    return diags, result


def codes(text: str):
    return sorted(d.code for d in diagnose(text)[0])


COUNTER = '''
game "Counter"
players 2..3
option target: 1..20 = 5
player var total: number = 0

turn:
  choose by current:
    add(n in [1, 2]) "add {n}":
      current.total += n
    hold "hold":
      pass
  if current.total >= target:
    end game winner current

score of p: p.total
'''
