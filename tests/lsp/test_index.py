"""The server's pieces without a server: the index of names on every real file, the
built-ins' documentation, quick fixes."""

from pathlib import Path

import pytest

from gamedsl.checker.signatures import BUILTIN_NAMES, BUILTINS
from gamedsl.diagnostics import Diagnostic, Span
from gamedsl.lsp.fixes import fix_for
from gamedsl.lsp.index import Index
from gamedsl.lsp.outline import outline
from gamedsl.lsp.reference import builtin_docs, docs_of
from gamedsl.pipeline import check_text

ROOT = Path(__file__).resolve().parents[2]
FILES = sorted({*ROOT.glob("games/*.game"), *ROOT.glob("examples/**/*.game"),
                ROOT / "tests" / "checker" / "good" / "features.game"})


def index_of(path: Path) -> Index:
    checked = check_text(str(path))
    assert checked.game is not None, checked.diagnostics
    return Index(checked.game.decls, checked.sources, checked.result.types)


@pytest.mark.parametrize("path", FILES, ids=lambda p: str(p.relative_to(ROOT)))
def test_every_name_found_is_where_the_index_says(path):
    index = index_of(path)
    assert index.occurrences
    for o in index.occurrences:
        line = index.lines(o.span.file)[o.span.line - 1]
        assert line[o.span.col - 1:o.span.end_col - 1] == o.target.name, (o.span, o.target.what)
    for t in list(index.globals.values()) + list(index.phases.values()):
        assert t.span in [o.span for o in index.references(t)]  # its declaration is one of its own


@pytest.mark.parametrize("path", FILES, ids=lambda p: str(p.relative_to(ROOT)))
def test_every_name_a_rule_uses_is_known(path):
    """Each bare name in an expression means something the index knows (the files check
    clean, so nothing is unknown)."""
    from gamedsl.syntax import ast as A

    index = index_of(path)
    known = {(o.span.file, o.span.line, o.span.col) for o in index.occurrences}
    flags = {f.span for d in index.decls if isinstance(d, A.VarDecl) for f in d.flags}  # `secret`
    for decl in index.decls:
        for node in A.walk(decl):
            if isinstance(node, A.Name) and node.span.file in index.sources and node.span not in flags:
                assert (node.span.file, node.span.line, node.span.col) in known, (node.name, node.span)


def test_the_outline_is_the_files_own_declarations_in_order():
    index = index_of(ROOT / "examples" / "pearl_auction_variant.game")
    names = [s.name for s in outline(index, str(ROOT / "examples" / "pearl_auction_variant.game"))]
    assert names[:4] == ['game "Pearl auction: deep water"', "start_coins", "ties", "payout"]
    assert "pearl" not in names  # declared in the file it extends


def test_the_language_reference_documents_every_builtin():
    docs = builtin_docs()
    assert set(BUILTINS) | set(BUILTIN_NAMES) <= set(docs)
    assert docs["range"].usage == "range(a, b)" and "both ends included" in docs["range"].text
    # a row naming several functions with no text of its own takes the signatures' summary
    assert docs["ceil"].usage == "abs(n), ceil(n), floor(n)" and docs["ceil"].text


def test_reference_rows_are_read_from_the_two_tables_only():
    page = ("## Intro\n| `nope(x)` | not a built-in |\n### Built-in names\n| name | value |\n|---|---|\n"
            "| `current` | whose turn |\n### Built-in functions\n| f | r |\n|---|---|\n| `len(L)` | how many |\n")
    assert {n: d.text for n, d in docs_of(page).items()} == {"current": "whose turn", "len": "how many"}


def test_a_did_you_mean_is_a_fix_and_two_suggestions_are_not():
    lines = ["turn:", "  current.pionts += 1"]
    d = Diagnostic("E102", "unknown player variable or zone 'pionts' (did you mean 'points'?)",
                   Span("g.game", 2, 11, 2, 17))
    fix = fix_for(d, lines)
    assert fix.new_text == "points" and (fix.span.line, fix.span.col, fix.span.end_col) == (2, 11, 17)
    # the wrong name found inside a wider span
    wide = Diagnostic("E101", "unknown function 'lenn' (did you mean 'len'?)", Span("g.game", 2, 3, 2, 21))
    assert fix_for(wide, ["", "  x = lenn(y)"]).span.col == 7
    # a hint with the suggestion counts too; no suggestion, or two, is no fix
    assert fix_for(Diagnostic("E101", "unknown name 'pionts'", d.span, "did you mean 'points'?"), lines)
    assert fix_for(Diagnostic("E101", "unknown name 'pionts'", d.span), lines) is None
    two = Diagnostic("E101", "unknown name 'pionts' (did you mean 'points'?)", d.span, "did you mean 'pints'?")
    assert fix_for(two, lines) is None
