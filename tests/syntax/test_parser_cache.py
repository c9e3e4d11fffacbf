"""The built parser is kept between runs in a private folder, and a bad cache never matters."""

import os
import stat
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
GAME = str(ROOT / "examples" / "tictactoe.game")


def check(cache_home) -> subprocess.CompletedProcess:
    env = dict(os.environ, XDG_CACHE_HOME=str(cache_home), PYTHONPATH=str(ROOT))
    return subprocess.run([sys.executable, "-m", "gamedsl", "check", GAME], capture_output=True,
                          text=True, env=env, cwd=str(ROOT))


def test_the_parser_is_cached_in_a_private_folder(tmp_path):
    assert check(tmp_path).returncode == 0
    folder = tmp_path / "gamedsl"
    (cache,) = folder.glob("grammar-*.cache")
    assert stat.S_IMODE(folder.stat().st_mode) == 0o700
    assert check(tmp_path).returncode == 0  # read back
    cache.write_bytes(b"not a parser")
    result = check(tmp_path)
    assert result.returncode == 0 and "ok: 1 file" in result.stdout, result.stderr


def test_no_usable_cache_folder_still_parses(tmp_path):
    not_a_folder = tmp_path / "file"
    not_a_folder.write_text("")
    result = check(not_a_folder)
    assert result.returncode == 0 and "ok: 1 file" in result.stdout, result.stderr
