"""Syntax highlighting: the Pygments lexer reads every rule file without an error token,
and the editors' TextMate grammar is valid and knows every keyword of the grammar."""

import json
import re
import tomllib
from pathlib import Path

import pytest
from pygments.token import Error

from gamedsl.pygments_lexer import GameLexer

ROOT = Path(__file__).resolve().parents[2]
RULE_FILES = sorted(
    p for pattern in ("examples/**/*.game", "examples/**/*.scenario", "games/**/*.game", "games/**/*.scenario",
                      "tests/checker/good/*.game")
    for p in ROOT.glob(pattern)
)
FENCE = re.compile(r"^```game[^\n]*\n(.*?)^```", re.S | re.M)


def grammar_keywords():
    """Every word the grammar spells out in quotes ("choose", "secretly", ...)."""
    text = (ROOT / "grammar" / "gamedsl.lark").read_text("utf-8")
    return sorted(set(re.findall(r'"([a-z_]+)"', text)))


def error_tokens(text):
    return [value for token, value in GameLexer().get_tokens(text) if token is Error]


def test_there_are_rule_files_to_highlight():
    assert len([p for p in RULE_FILES if p.suffix == ".game"]) >= 4


@pytest.mark.parametrize("path", RULE_FILES, ids=lambda p: str(p.relative_to(ROOT)))
def test_lexer_reads_every_rule_file(path):
    assert error_tokens(path.read_text("utf-8")) == []


def test_lexer_reads_every_docs_example():
    blocks = [b for page in sorted((ROOT / "docs").glob("**/*.md")) for b in FENCE.findall(page.read_text("utf-8"))]
    assert len(blocks) > 20
    assert [b for b in blocks if error_tokens(b)] == []


def test_lexer_marks_a_stray_character_as_an_error():
    assert error_tokens("turn:\n  say 'hi'\n") == ["'", "'"]


def test_lexer_knows_every_grammar_keyword():
    from pygments.token import Keyword, Operator
    for word in grammar_keywords():
        (token, value), *_ = GameLexer().get_tokens(word)
        assert value == word and (token in Keyword or token is Operator.Word), word


def test_lexer_is_registered_as_an_entry_point():
    project = tomllib.loads((ROOT / "pyproject.toml").read_text("utf-8"))["project"]
    target = project["entry-points"]["pygments.lexers"]["gamedsl"]
    module, _, name = target.partition(":")
    import importlib
    lexer = getattr(importlib.import_module(module), name)
    assert {"game", "gamedsl"} <= set(lexer.aliases)


def tm_grammar():
    return json.loads((ROOT / "editors" / "gamedsl.tmLanguage.json").read_text("utf-8"))


def test_textmate_grammar_is_generated_from_the_lexer():
    from tools.textmate_grammar import text
    assert (ROOT / "editors" / "gamedsl.tmLanguage.json").read_text("utf-8") == text(), \
        "editors/gamedsl.tmLanguage.json is out of date: run python tools/textmate_grammar.py --write"


def test_textmate_grammar_covers_every_grammar_keyword():
    repo = tm_grammar()["repository"]
    patterns = [re.compile(repo[name]["match"]) for name in ("keyword", "constant", "word-operator")]
    missing = [w for w in grammar_keywords() if not any(p.fullmatch(w) for p in patterns)]
    assert missing == []


def test_textmate_grammar_patterns_compile_and_are_used():
    grammar = tm_grammar()
    repo = grammar["repository"]
    assert grammar["scopeName"] == "source.gamedsl"
    assert {p["include"].lstrip("#") for p in grammar["patterns"]} == set(repo)
    for rule in repo.values():
        for key in ("match", "begin", "end"):
            if key in rule:
                re.compile(rule[key])


def test_vscode_extension_points_at_the_grammar():
    manifest = json.loads((ROOT / "editors" / "package.json").read_text("utf-8"))
    (grammar,) = manifest["contributes"]["grammars"]
    assert (ROOT / "editors" / grammar["path"]).exists()
    assert grammar["scopeName"] == tm_grammar()["scopeName"]
    (language,) = manifest["contributes"]["languages"]
    assert (ROOT / "editors" / language["configuration"]).exists()
    json.loads((ROOT / "editors" / language["configuration"]).read_text("utf-8"))
    assert ".game" in language["extensions"]
