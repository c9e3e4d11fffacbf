"""A changed file is parsed again one declaration at a time: the tree and the diagnostics are
always those of parsing the whole file, and only what changed is parsed again."""

import random
import re
from pathlib import Path

import pytest

from gamedsl.syntax import cache as ast_cache
from gamedsl.syntax import decl_cache
from gamedsl.syntax import parser as syntax

ROOT = Path(__file__).resolve().parents[2]
FILES = sorted({*ROOT.glob("games/*.game"), *ROOT.glob("examples/**/*.game"), *ROOT.glob("tests/**/*.game")})
VERSION = b"test"


def whole(source, path):
    tree, diags = syntax.parse(source, path)
    return tree, [repr(d) for d in diags]


def by_declaration(folder, source, path):
    tree, diags = decl_cache.parse(str(folder), source, path, VERSION)
    return tree, [repr(d) for d in diags]


@pytest.mark.parametrize("path", FILES, ids=lambda p: str(p.relative_to(ROOT)))
def test_every_file_reads_as_it_does_whole(path, tmp_path):
    source = path.read_text("utf-8", errors="replace")
    expected = whole(source, str(path))
    assert by_declaration(tmp_path, source, str(path)) == expected  # nothing known yet
    assert by_declaration(tmp_path, source, str(path)) == expected  # every piece known


def _edit(source, rng):
    lines = source.split("\n")
    for _ in range(rng.randint(1, 3)):
        i = rng.randrange(len(lines))
        op = rng.randrange(6)
        if op == 0:
            lines[i] = re.sub(r"\d+", lambda m: str(int(m.group()) + 1), lines[i], count=1)
        elif op == 1:
            del lines[i]
        elif op == 2:
            lines.insert(i, lines[rng.randrange(len(lines))])
        elif op == 3:
            lines.insert(i, "")
        elif op == 4:
            lines[i] = lines[i][:rng.randrange(len(lines[i]) + 1)]
        else:
            lines[i] += rng.choice(["(", ")", "[", "]", "\\", '"', " # (", ": pass"])
    return "\n".join(lines)


@pytest.mark.parametrize("name", ["letter_tycoon", "legendary_inventors", "wordomino", "trade_tycoon"])
def test_an_edited_file_reads_as_it_does_whole(name, tmp_path):
    path = ROOT / "games" / f"{name}.game"
    source = path.read_text("utf-8")
    by_declaration(tmp_path, source, str(path))
    rng = random.Random(name)
    for _ in range(12):
        edited = _edit(source, rng)
        assert by_declaration(tmp_path, edited, str(path)) == whole(edited, str(path))


def test_only_the_changed_declaration_is_parsed_again(tmp_path, monkeypatch):
    path = ROOT / "games" / "trade_tycoon.game"
    source = path.read_text("utf-8")
    by_declaration(tmp_path, source, str(path))
    parsed = []
    real = syntax.parse
    monkeypatch.setattr(syntax, "parse", lambda text, p, start="game_file": parsed.append(text) or real(text, p, start))
    edited = source.replace("def turns_each() = 10", "def turns_each() = 12")
    tree, _ = by_declaration(tmp_path, edited, str(path))
    assert [t.strip() for t in parsed] == ["def turns_each() = 12"]
    assert tree == syntax.parse(edited, str(path))[0]


def test_declarations_below_an_added_line_are_moved_not_parsed(tmp_path, monkeypatch):
    path = ROOT / "games" / "letter_tycoon.game"
    source = path.read_text("utf-8")
    by_declaration(tmp_path, source, str(path))
    lines = source.split("\n")
    at = next(i for i in range(len(lines) // 2, len(lines)) if lines[i].startswith("def "))
    edited = "\n".join(lines[:at] + ["def added() = 1", ""] + lines[at:])
    expected = whole(edited, str(path))
    parsed = []
    real = syntax.parse
    monkeypatch.setattr(syntax, "parse", lambda text, p, start="game_file": parsed.append(text) or real(text, p, start))
    assert by_declaration(tmp_path, edited, str(path)) == expected
    assert [t.strip() for t in parsed] == ["def added() = 1"]  # the rest moved two lines down


def test_a_mistake_is_reported_as_the_whole_file_reports_it(tmp_path):
    path = ROOT / "games" / "trade_tycoon.game"
    source = path.read_text("utf-8")
    by_declaration(tmp_path, source, str(path))
    broken = source.replace("def turns_each() = 10", "def turns_each() = (10")
    tree, diags = by_declaration(tmp_path, broken, str(path))
    assert diags and (tree, diags) == whole(broken, str(path))
    assert tree.unparsed  # the declarations below the mistake are read all the same


@pytest.mark.parametrize("source,first_lines", [
    ("# a game\n\ngame \"g\"\nplayers 2\n", [1, 4]),             # comments go with what follows
    ("def f() = (\n1 + 2)\ndef g() = 1\n", [1, 3]),              # inside brackets: no cut
    ("def f() = 1 + \\\n2\ndef g() = 1\n", [1, 3]),              # a continued line: no cut
    ('def f() = "(["\ndef g() = 1\n', [1, 2]),                   # brackets in a text do not count
    ("def f() = 1  # (\ndef g() = 1\n", [1, 2]),                 # nor in a comment
    ('def f() = "a\ndef g() = 1\n', [1]),                        # a text left open: no cut below
    ("turn:\n  pass\n# done\n\nscore of p: 1", [1, 5]),
])
def test_a_file_is_cut_only_where_a_declaration_must_begin(source, first_lines):
    pieces = decl_cache.declarations(source)
    assert [line for line, _ in pieces] == first_lines
    assert "".join(text for _, text in pieces) == source


def test_check_after_an_edit_uses_the_record(tmp_path, monkeypatch):
    # through the cache of whole files: a miss there is answered piece by piece
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    source = (ROOT / "games" / "trade_tycoon.game").read_text("utf-8")
    ast_cache.parse(source, "t.game")
    assert list((tmp_path / "gamedsl").glob("*" + decl_cache.SUFFIX))
    edited = source.replace("def turns_each() = 10", "def turns_each() = 11")
    tree, diags = ast_cache.parse(edited, "t.game")
    assert tree == syntax.parse(edited, "t.game")[0]


# ---------------------------------------------------------------- kept in memory (an editor's server)


@pytest.mark.parametrize("name", ["letter_tycoon", "wordomino"])
def test_in_memory_edits_read_as_the_whole_file_does(name):
    path = ROOT / "games" / f"{name}.game"
    source = path.read_text("utf-8")
    memory = decl_cache.InMemory(str(path))
    rng = random.Random(name + " in memory")
    for edited in [source] + [_edit(source, rng) for _ in range(12)] + [source]:
        got = memory.parse(edited)
        tree, diags = whole(edited, str(path))
        assert (got.tree, [repr(d) for d in got.diagnostics]) == (tree, diags)
        if tree is not None:
            assert got.decls == tree.decls


def test_in_memory_a_keystroke_parses_one_declaration(monkeypatch):
    path = ROOT / "games" / "trade_tycoon.game"
    source = path.read_text("utf-8")
    memory = decl_cache.InMemory(str(path))
    memory.parse(source)
    parsed = []
    real = syntax.parse
    monkeypatch.setattr(syntax, "parse", lambda text, p, start="game_file": parsed.append(text) or real(text, p, start))
    edited = source.replace("def turns_each() = 10", "def turns_each() = 12")
    assert memory.parse(edited).tree == real(edited, str(path))[0]
    assert [t.strip() for t in parsed] == ["def turns_each() = 12"]


def test_in_memory_a_half_typed_line_keeps_the_other_declarations():
    path = ROOT / "games" / "trade_tycoon.game"
    source = path.read_text("utf-8")
    memory = decl_cache.InMemory(str(path))
    whole_decls = memory.parse(source).decls
    broken = source.replace("def turns_each() = 10", "def turns_each() = 10 +")
    got = memory.parse(broken)
    assert any(d.is_error for d in got.diagnostics)
    # (the whole file's tree, when the parser recovers past the error, leaves the broken declaration out)
    assert got.tree is None or "turns_each" not in [getattr(d, "name", None) for d in got.tree.decls]
    names = [getattr(d, "name", None) for d in got.decls]
    assert "turns_each" not in names
    assert len(got.decls) == len(whole_decls) - 1
    # a file opened broken: each declaration is tried on its own
    fresh = decl_cache.InMemory(str(path)).parse(broken)
    assert [getattr(d, "name", None) for d in fresh.decls] == names
