"""Files beside a game are read with bounds and checked as opened: a word list or its folding
that would fill the memory is a rule error at its line, a table of many keys is checked in
seconds, a FIFO is refused instead of waited on, and a file swapped for a link between its
check and its reading is not read."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from gamedsl import files
from gamedsl.errors import GameError, RuleError
from gamedsl.pipeline import checked_beside, load, read_text
from gamedsl.runtime import wordlists

ROOT = Path(__file__).resolve().parents[2]


def words_game(words_line: str, use: str) -> str:
    return (f'game "Words"\nplayers 2\n{words_line}\nvar ok: bool = false\nsetup:\n  ok = {use}\n'
            "turn:\n  end game\nscore of p: 0\n")


def test_a_match_letter_that_would_make_a_huge_tree_is_a_rule_error_at_its_line(tmp_path, monkeypatch):
    # '?' matches any of 26 letters, ten times in a word: 26^10 branches (it filled the memory)
    monkeypatch.setattr(wordlists, "MAX_TRIE_NODES", 50_000)
    (tmp_path / "w.txt").write_text("??????????\n")
    text = words_game('words w from "w.txt":\n  match "?" as "abcdefghijklmnopqrstuvwxyz"', '"abc" in w')
    (tmp_path / "g.game").write_text(text)
    g = load(str(tmp_path / "g.game"))
    with pytest.raises(RuleError) as err:
        g.new_game(2, 0)
    assert err.value.code == "E504" and "letters to search" in err.value.message
    assert "ok = " in text.splitlines()[err.value.span.line - 1]


def test_a_word_list_too_large_is_a_rule_error_and_never_read_whole(tmp_path, monkeypatch):
    monkeypatch.setattr(wordlists, "MAX_LIST_BYTES", 1000)
    (tmp_path / "w.txt").write_text("word\n" * 1000)
    (tmp_path / "g.game").write_text(words_game('words w from "w.txt"', 'len(matching(w, ["a"])) > 0'))
    g = load(str(tmp_path / "g.game"))
    with pytest.raises(RuleError) as err:
        g.new_game(2, 0)
    assert err.value.code == "E504" and "larger than" in err.value.message and err.value.span is not None


def test_a_table_of_many_keys_is_checked_in_seconds(tmp_path):
    rows = "".join(f"{i},{i % 7}\n" for i in range(60_000))
    (tmp_path / "big.csv").write_text("id,points\n" + rows + "17,3\n")  # one key twice, at the end
    (tmp_path / "g.game").write_text('game "Big"\nplayers 2\ntable t by id from "big.csv"\nturn:\n  end game\n'
                                     "score of p: t[3].points\n")
    start = time.monotonic()
    with pytest.raises(GameError) as err:
        load(str(tmp_path / "g.game"))
    assert time.monotonic() - start < 20
    (dup,) = [d for d in err.value.diagnostics if d.code == "E308"]
    assert "key 17 is already in table t (line 19)" in dup.message


def test_overlapping_range_keys_are_still_found(tmp_path):
    from tests.support.fixtures import codes

    text = ('game "Keys"\nplayers 2\ntable t by k:\n  | k | v |\n  | 1 | 1 |\n  | 3..5 | 2 |\n  | 4 | 3 |\n'
            "  | 6+ | 4 |\n  | 9..10 | 5 |\n  | 2 | 6 |\nturn:\n  end game\nscore of p: 0\n")
    assert codes(text).count("E308") == 2


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs here")
def test_a_fifo_is_refused_not_waited_on(tmp_path):
    fifo = tmp_path / "g.game"
    os.mkfifo(fifo)
    done = subprocess.run([sys.executable, "-m", "gamedsl", "check", str(fifo)], capture_output=True, text=True,
                          cwd=ROOT, timeout=60, env=dict(os.environ, PYTHONPATH=str(ROOT)))
    assert done.returncode == 1 and "is not a regular file" in done.stdout + done.stderr


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs here")
def test_a_fifo_named_as_a_table_is_refused(tmp_path):
    os.mkfifo(tmp_path / "t.csv")
    (tmp_path / "g.game").write_text('game "T"\nplayers 2\ntable t from "t.csv"\nturn:\n  end game\nscore of p: 0\n')
    with pytest.raises(GameError) as err:
        load(str(tmp_path / "g.game"))
    assert any("is not a regular file" in d.message for d in err.value.diagnostics)


@pytest.mark.skipif(os.name != "posix", reason="symbolic links")
def test_a_file_swapped_for_a_link_after_its_check_is_not_read(tmp_path):
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "secret.csv").write_text("a,b\n1,2\n")
    folder = tmp_path / "game"
    folder.mkdir()
    (folder / "t.csv").write_text("a,b\n3,4\n")
    base = folder / "g.game"
    path, checked = checked_beside(base, "t.csv", None)
    # the race: between the check and the opening, the file becomes a link leading out
    (folder / "t.csv").unlink()
    (folder / "t.csv").symlink_to(outside / "secret.csv")
    with pytest.raises(GameError) as err:
        read_text(path, None, checked)
    assert "changed between its check and its reading" in err.value.diagnostics[0].message


@pytest.mark.skipif(os.name != "posix", reason="symbolic links")
def test_a_word_list_swapped_for_a_link_after_its_check_is_not_read(tmp_path):
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "secret.txt").write_text("secret\n")
    folder = tmp_path / "game"
    folder.mkdir()
    (folder / "w.txt").write_text("cat\n")
    (folder / "g.game").write_text(words_game('words w from "w.txt"', '"secret" in w'))
    g = load(str(folder / "g.game"))  # checked here; read on first use
    (folder / "w.txt").unlink()
    (folder / "w.txt").symlink_to(outside / "secret.txt")
    with pytest.raises(RuleError) as err:
        g.new_game(2, 0)
    assert "changed between its check and its reading" in err.value.message


def test_the_opened_file_must_lie_in_the_folder(tmp_path):
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "x.csv").write_text("a\n")
    inside = tmp_path / "game"
    inside.mkdir()
    if not Path("/proc/self/fd").exists():
        pytest.skip("where an opened file lies is not shown here")
    with pytest.raises(files.FileRefused):
        files.read_bytes(outside / "x.csv", 100, inside=inside.resolve())
    assert files.read_bytes(outside / "x.csv", 100, inside=outside.resolve()) == b"a\n"


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs here")
def test_a_fifo_named_as_a_scenario_file_is_refused(tmp_path):
    os.mkfifo(tmp_path / "s.scenario")
    done = subprocess.run([sys.executable, "-m", "gamedsl", "test", str(tmp_path / "s.scenario")],
                          capture_output=True, text=True, cwd=ROOT, timeout=60,
                          env=dict(os.environ, PYTHONPATH=str(ROOT)))
    assert done.returncode == 1 and "is not a regular file" in done.stdout + done.stderr
