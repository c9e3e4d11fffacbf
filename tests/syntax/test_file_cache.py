"""Parsed files are kept between runs, like .pyc files: an unchanged file is not parsed again
(lark is not even imported), a changed one always is, and a bad cache never matters."""

import os
import subprocess
import sys
from pathlib import Path

import attrs
import pytest

from gamedsl.diagnostics import Span
from gamedsl.syntax import cache as ast_cache
from gamedsl.syntax import cache_store
from gamedsl.syntax import parser as syntax
from gamedsl.errors import GameError
from gamedsl.pipeline import load

ROOT = Path(__file__).resolve().parents[2]
GAME = (ROOT / "examples" / "tictactoe.game").read_text("utf-8")


@pytest.fixture
def cache_home(tmp_path, monkeypatch):
    home = tmp_path / "cache"
    monkeypatch.setenv("XDG_CACHE_HOME", str(home))
    return home


@pytest.fixture
def parses(monkeypatch):
    """The texts lark was asked to parse."""
    seen = []
    real = syntax.parse

    def counting(source, path="<text>", start="game_file"):
        seen.append(path)
        return real(source, path, start)
    monkeypatch.setattr(syntax, "parse", counting)
    return seen


def entries(home):
    return sorted((home / "gamedsl").glob("*.ast"))


def test_an_unchanged_file_is_parsed_once(cache_home, parses, tmp_path):
    game = tmp_path / "t.game"
    game.write_text(GAME, "utf-8")
    first, second = load(str(game)), load(str(game))
    assert parses == [str(game)]
    assert first.new_game(2, seed=1) == second.new_game(2, seed=1)
    assert first.legal_moves(first.new_game(2, seed=1)) == second.legal_moves(second.new_game(2, seed=1))
    assert len(entries(cache_home)) == 1


def test_a_changed_file_is_parsed_again_and_its_errors_are_reported(cache_home, parses, tmp_path):
    game = tmp_path / "t.game"
    game.write_text(GAME, "utf-8")
    load(str(game))
    game.write_text(GAME + "\nphase broken\n", "utf-8")
    with pytest.raises(GameError) as err:
        load(str(game))
    # (the new declaration alone, then the whole file for its diagnostics)
    assert len(parses) > 1 and set(parses) == {str(game)}
    assert any(d.is_error for d in err.value.diagnostics)


def test_the_same_text_at_another_path_is_its_own_entry(cache_home, parses, tmp_path):
    # Spans name the file, so a tree read from one path must not answer for another.
    (tmp_path / "a.game").write_text(GAME, "utf-8")
    (tmp_path / "b.game").write_text(GAME, "utf-8")
    a, b = load(str(tmp_path / "a.game")), load(str(tmp_path / "b.game"))
    assert len(parses) == 2
    assert a.path != b.path


def test_a_new_parser_misses_every_entry(cache_home, parses, monkeypatch):
    ast_cache.parse(GAME, "t.game")
    monkeypatch.setattr(ast_cache, "_parser_digest", b"another grammar")
    ast_cache.parse(GAME, "t.game")
    assert parses == ["t.game", "t.game"]


@pytest.mark.parametrize("damage", [b"", b"not a pickle", b"\x80\x05K\x01."])
def test_a_damaged_entry_is_a_miss(cache_home, parses, damage):
    tree, _ = ast_cache.parse(GAME, "t.game")
    (entry,) = entries(cache_home)
    entry.write_bytes(damage)
    # the file's declarations parsed one by one answer (gamedsl/syntax/decl_cache.py)...
    again, diags = ast_cache.parse(GAME, "t.game")
    assert again == tree and not diags
    assert parses == ["t.game"]
    # ... and when their record is damaged too, the file is parsed again
    (entry,) = entries(cache_home)
    entry.write_bytes(damage)
    (record,) = (cache_home / "gamedsl").glob("*.decls")
    record.write_bytes(damage)
    again, diags = ast_cache.parse(GAME, "t.game")
    assert again == tree and not diags
    assert parses == ["t.game", "t.game"]


def test_files_with_syntax_errors_are_not_kept(cache_home, parses):
    for _ in range(2):
        tree, diags = ast_cache.parse("phase broken\n", "bad.game")
        assert tree is None and diags[0].is_error
    assert parses == ["bad.game", "bad.game"] and not entries(cache_home)


def test_the_folder_keeps_a_bounded_number_of_entries(cache_home, monkeypatch):
    monkeypatch.setattr(cache_store, "MAX_ENTRIES", 6)
    for i in range(20):
        ast_cache.parse(GAME, f"t{i}.game")
        assert len(entries(cache_home)) <= 6
        assert 0 < len(list((cache_home / "gamedsl").glob("*.decls"))) <= 6
    # the newest entries stay
    again = []
    monkeypatch.setattr(syntax, "parse", lambda *a: again.append(a) or (None, []))
    ast_cache.parse(GAME, "t19.game")
    assert not again


def test_an_unchanged_file_is_checked_without_lark(tmp_path):
    env = dict(os.environ, XDG_CACHE_HOME=str(tmp_path), PYTHONPATH=str(ROOT))
    script = ("import sys; from gamedsl.cli import main\n"
              "try: main(['check', 'examples/tictactoe.game'])\n"
              "except SystemExit: pass\n"
              "print('lark' in sys.modules)")
    runs = [subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                           env=env, cwd=str(ROOT)) for _ in range(2)]
    assert [r.stdout.split()[-1] for r in runs] == ["True", "False"], [r.stderr for r in runs]


def spans_of(value) -> set:
    """The files every span in a tree (or diagnostics, or containers of them) names."""
    if isinstance(value, Span):
        return {value.file}
    if isinstance(value, (list, tuple)):
        return set().union(*map(spans_of, value)) if value else set()
    if attrs.has(type(value)):
        return set().union(*(spans_of(getattr(value, f.name)) for f in attrs.fields(type(value))))
    return set()


def test_a_file_named_by_another_path_finds_its_entries_and_names_that_path(cache_home, parses, tmp_path,
                                                                           monkeypatch):
    # A relative path, the absolute one, a path through a link: the same file, parsed once;
    # each tree's spans name the file as its command named it.
    game = tmp_path / "t.game"
    game.write_text(GAME, "utf-8")
    (tmp_path / "link").symlink_to(tmp_path)
    monkeypatch.chdir(tmp_path)
    tree, _ = ast_cache.parse(GAME, str(game))
    for path in ("t.game", "./t.game", str(tmp_path / "link" / "t.game")):
        again, diags = ast_cache.parse(GAME, path)
        assert spans_of(again) == {path} and not diags
    assert parses == [str(game)] and len(entries(cache_home)) == 1
    # An edit read through yet another path: only the edited declaration is parsed again
    # (its file's record of declarations is found), and every span names that path.
    edited = GAME.replace("copies 5 per player", "copies 6 per player")
    tree, diags = ast_cache.parse(edited, "link/t.game")
    assert spans_of(tree) == {"link/t.game"} and not diags
    assert parses[1:] == ["link/t.game"] and len(parses) == 2
