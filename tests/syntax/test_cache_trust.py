"""The cache folder is trusted only as far as it must be: an entry is unpickled only once its
signature (an HMAC under the user's own key) is verified, so an entry planted by someone else
never runs; a folder others may write into is not used at all (files are still parsed)."""

from __future__ import annotations

import os
import pickle
import stat
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
GAMES = [str(ROOT / "examples" / "tictactoe.game"), str(ROOT / "examples" / "high_card.game")]


class Planted:
    """A pickle that runs a command when it is loaded."""

    def __init__(self, marker: Path):
        self.marker = marker

    def __reduce__(self):
        return (os.system, (f"touch {self.marker}",))


def check(cache_home: Path) -> subprocess.CompletedProcess:
    env = dict(os.environ, XDG_CACHE_HOME=str(cache_home), PYTHONPATH=str(ROOT))
    return subprocess.run([sys.executable, "-m", "gamedsl", "check", *GAMES], capture_output=True,
                          text=True, env=env, cwd=str(ROOT), timeout=120)


def entries(folder: Path):
    return [p for p in folder.iterdir() if p.name != "key"]


def test_a_planted_entry_is_never_unpickled(tmp_path):
    home = tmp_path / "home"
    assert check(home).returncode == 0
    folder = home / "gamedsl"
    kept = entries(folder)
    assert any(p.name.startswith("grammar-") for p in kept) and any(p.suffix == ".ast" for p in kept)
    marker = tmp_path / "ran"
    payload = pickle.dumps(Planted(marker))
    for p in kept:  # as written by someone without the key: bare, and behind a made-up signature
        p.write_bytes(payload if p.suffix == ".ast" else b"\0" * 32 + payload)
    result = check(home)
    assert result.returncode == 0 and "ok: 2 files" in result.stdout, result.stderr
    assert not marker.exists()


def test_the_key_is_the_users_alone(tmp_path):
    home = tmp_path / "home"
    assert check(home).returncode == 0
    key = home / "gamedsl" / "key"
    assert stat.S_IMODE(key.stat().st_mode) == 0o600 and len(key.read_bytes()) == 32


def test_a_key_others_may_read_turns_the_cache_off(tmp_path):
    home = tmp_path / "home"
    assert check(home).returncode == 0
    folder = home / "gamedsl"
    (folder / "key").chmod(0o644)
    marker = tmp_path / "ran"
    for p in entries(folder):
        p.write_bytes(pickle.dumps(Planted(marker)))
    result = check(home)
    assert result.returncode == 0 and "ok: 2 files" in result.stdout, result.stderr
    assert not marker.exists()


def test_a_folder_others_may_write_is_not_used(tmp_path):
    home = tmp_path / "home"
    folder = home / "gamedsl"
    folder.mkdir(parents=True)
    folder.chmod(0o770)  # group-writable
    result = check(home)
    assert result.returncode == 0 and "ok: 2 files" in result.stdout, result.stderr
    assert list(folder.iterdir()) == []
    folder.chmod(0o707)  # world-writable
    result = check(home)
    assert result.returncode == 0 and list(folder.iterdir()) == []


def test_entries_written_by_the_user_are_read_back(tmp_path, monkeypatch):
    from gamedsl.syntax import cache_store

    folder = tmp_path / "gamedsl"
    folder.mkdir(mode=0o700)
    entry = cache_store.entry_file(str(folder), "some key", ".ast")
    cache_store.store(str(folder), entry, ("a", [1, 2]))
    assert cache_store.load(entry) == ("a", [1, 2])
    data = Path(entry).read_bytes()
    Path(entry).write_bytes(data[:-1] + bytes([data[-1] ^ 1]))  # one bit changed
    assert cache_store.load(entry) is None
