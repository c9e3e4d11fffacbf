"""Rule files are untrusted: a `.game` file cannot read files outside its folder (by an
absolute path, '..', '~' or a symbolic link leading out) through `extends`, `table ... from`
or `words ... from`, and cannot run Python: the language has no such construct, so what
looks like Python in a rule is just an unknown name with a diagnostic."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from gamedsl.errors import GameError
from gamedsl.pipeline import load

SECRET_ROWS = "a,b\n1,2\n"
SECRET_WORDS = "cat\ndog\n"

# One line of a rule file that names a file, with {f} for the file's name.
READERS = {
    "extends": 'extends "{f}"\n',
    "table": 'table t from "{f}"\n',
    "words": 'words w from "{f}"\n',
}
GAME = 'game "Reader"\nplayers 2\n{line}\nturn:\n  end game\n\nscore of p: 0\n'


@pytest.fixture
def folders(tmp_path):
    """A game's folder, and beside it (outside it) a folder of files it must not read."""
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "secret.csv").write_text(SECRET_ROWS)
    (outside / "secret.txt").write_text(SECRET_WORDS)
    (outside / "secret.game").write_text(GAME.format(line=""))
    game = tmp_path / "game"
    game.mkdir()
    return game, outside


def secret_name(reader: str) -> str:
    return {"extends": "secret.game", "table": "secret.csv", "words": "secret.txt"}[reader]


def codes_loading(folder: Path, line: str):
    path = folder / "g.game"
    path.write_text(GAME.format(line=line))
    with pytest.raises(GameError) as err:
        load(str(path))
    return [d.code for d in err.value.diagnostics if d.is_error]


@pytest.mark.parametrize("reader", sorted(READERS))
@pytest.mark.parametrize("how", ["absolute", "dotdot", "tilde", "dotdot_below"])
def test_a_path_out_of_the_folder_is_refused(folders, reader, how):
    game, outside = folders
    name = secret_name(reader)
    named = {"absolute": str(outside / name), "dotdot": f"../outside/{name}", "tilde": f"~/{name}",
             "dotdot_below": f"sub/../../outside/{name}"}[how]
    assert codes_loading(game, READERS[reader].format(f=named)) == ["E007"]


@pytest.mark.parametrize("reader", sorted(READERS))
@pytest.mark.parametrize("link", ["file", "folder"])
def test_a_symbolic_link_leading_out_of_the_folder_is_refused(folders, reader, link):
    game, outside = folders
    name = secret_name(reader)
    if link == "file":
        os.symlink(outside / name, game / name)
        named = name
    else:
        os.symlink(outside, game / "data")
        named = f"data/{name}"
    assert codes_loading(game, READERS[reader].format(f=named)) == ["E007"]


def test_a_link_inside_the_folder_and_a_game_reached_through_a_link_still_work(tmp_path):
    real = tmp_path / "real"
    (real / "data").mkdir(parents=True)
    (real / "data" / "rows.csv").write_text(SECRET_ROWS)
    os.symlink(real / "data" / "rows.csv", real / "rows.csv")   # a link that stays inside
    (real / "g.game").write_text(GAME.format(line='table t from "rows.csv"\n'))
    os.symlink(real, tmp_path / "alias")                         # the game's folder through a link
    assert load(str(tmp_path / "alias" / "g.game")).title == "Reader"
    assert load(str(real / "g.game")).title == "Reader"


def test_a_loop_of_links_is_a_diagnostic(folders):
    game, _ = folders
    os.symlink(game / "b.csv", game / "a.csv")
    os.symlink(game / "a.csv", game / "b.csv")
    codes = codes_loading(game, READERS["table"].format(f="a.csv"))
    assert codes in (["E007"], ["E001"])


# Python a rule might try, and the diagnostic it gets: an unknown function (E103), or a call
# of something that is not a named function or procedure (E003).
PYTHON_IN_RULES = [
    ('__import__("os").system("touch pwned")', "E003", "named function"),
    ('open("/etc/passwd")', "E103", "unknown function 'open'"),
    ('eval("1")', "E103", "unknown function 'eval'"),
    ('exec("import os")', "E103", "unknown function 'exec'"),
    ('os.system("touch pwned")', "E003", "named function"),
    ('socket("example.com", 80)', "E103", "unknown function 'socket'"),
]


@pytest.mark.parametrize("code, diagnostic, words", PYTHON_IN_RULES)
def test_python_in_a_rule_is_only_an_unknown_name(tmp_path, code, diagnostic, words, monkeypatch):
    monkeypatch.chdir(tmp_path)
    path = tmp_path / "g.game"
    path.write_text('game "Py"\nplayers 2\nvar x: number = 0\n\nturn:\n'
                    f'  x = {code}\n  end game\n\nscore of p: 0\n')
    with pytest.raises(GameError) as err:
        load(str(path))
    errors = [d for d in err.value.diagnostics if d.is_error]
    assert [(d.code, d.span.line) for d in errors] == [(diagnostic, 6)], errors
    assert words in errors[0].message
    assert not (tmp_path / "pwned").exists()


def test_texts_in_generated_code_stay_texts(tmp_path, monkeypatch):
    """Expressions also run as generated Python source (gamedsl/compiler/pysource.py): a rule's texts
    reach it only as values, never as code, whatever quotes they hold."""
    from gamedsl.compiler.pysource import SourceCompiler

    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(SourceCompiler, "warmup", 0)
    payload = "x'); __import__('os').system('touch pwned'); ('"
    path = tmp_path / "g.game"
    path.write_text('game "Py"\nplayers 2\n'
                    f'var said: text = "{payload}"\n'
                    "def echo(t: text) = [t + c for c in [\"'''\", \")\"] if len(t) > 0]\n"
                    "turn:\n  end game\n\nscore of p: len(echo(said)[0])\n")
    game = load(str(path))
    state = game.new_game(2)
    assert game.scores(state) == [len(payload) + 3] * 2
    source = game.snippets.source
    assert source.generated > 0 and source.give_ups == 0
    assert not any("touch" in text for text in source.sources.values())
    assert not (tmp_path / "pwned").exists()
