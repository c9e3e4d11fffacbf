"""The language server as an editor sees it: `gamedsl lsp` started over stdio and driven by
pygls's LSP client, on the real games and examples."""

import re

import pytest
from lsprotocol import types as L

from tests.lsp.editor import ROOT, Editor, position_of

LETTER_TYCOON = ROOT / "games" / "letter_tycoon.game"
HIGH_CARD = ROOT / "examples" / "high_card.game"
PEARLS = ROOT / "examples" / "pearl_auction.game"
DEEP_WATER = ROOT / "examples" / "pearl_auction_variant.game"


@pytest.fixture(scope="module")
def editor():
    e = Editor()
    yield e
    e.close()


def lines_of(locations):
    return sorted(loc.range.start.line for loc in locations)


def hover_text(editor, uri, text, needle, occurrence=0, offset=1):
    pos = position_of(text, needle, occurrence, offset=offset)
    hover = editor.hover(uri, pos.line, pos.character)
    assert hover is not None, f"no hover on {needle!r}"
    return hover.contents.value


# ---------------------------------------------------------------- diagnostics as you type


def test_a_mistake_shows_as_it_is_typed_and_clears_when_fixed(editor):
    text = LETTER_TYCOON.read_text("utf-8")
    uri = editor.open(LETTER_TYCOON)
    assert editor.diagnostics_of(uri) == []  # the game checks clean

    # a typo in a player variable, deep in the file
    where = position_of(text, "current.coins", 0, offset=len("current."))
    typo = L.Range(where, L.Position(where.line, where.character + len("coins")))
    version = editor.change(uri, "cions", at=typo)
    (diag,) = editor.diagnostics_of(uri, version)
    assert diag.code == "E102" and "'cions'" in diag.message and "did you mean 'coins'?" in diag.message
    assert diag.severity == L.DiagnosticSeverity.Error
    assert diag.range == typo  # exactly the mistyped word

    # its quick fix makes the one change it suggests
    (action,) = editor.code_actions(uri, diag)
    assert action.kind == L.CodeActionKind.QuickFix and "coins" in action.title
    (edit,) = action.edit.changes[uri]
    assert edit.range == typo and edit.new_text == "coins"

    version = editor.change(uri, "coins", at=typo)
    assert editor.diagnostics_of(uri, version) == []
    editor.close_document(uri)


def test_keystroke_by_keystroke_a_syntax_error_comes_and_goes(editor):
    text = HIGH_CARD.read_text("utf-8")
    uri = editor.open(HIGH_CARD)
    assert editor.diagnostics_of(uri) == []
    # a new line in the setup, typed one character at a time
    end = position_of(text, "  shuffle deck", offset=len("  shuffle deck"))
    editor.change(uri, "\n", at=L.Range(end, end))
    line = end.line + 1
    typed = "  shuffle (deck"
    for i, ch in enumerate(typed):
        at = L.Position(line, i)
        version = editor.change(uri, ch, at=L.Range(at, at))
    errors = editor.diagnostics_of(uri, version)
    assert errors and all(d.code.startswith("E0") for d in errors)  # a bracket left open: syntax
    at = L.Position(line, len(typed))
    version = editor.change(uri, ")", at=L.Range(at, at))
    assert editor.diagnostics_of(uri, version) == []  # closed: the game checks again
    at = L.Position(line, len("  shuffle "))
    version = editor.change(uri, "x", at=L.Range(at, at))  # `shuffle x(deck)`: not a zone
    (diag,) = editor.diagnostics_of(uri, version)
    assert diag.range.start.line == line and diag.code.startswith("E")
    version = editor.change(uri, "", at=L.Range(end, L.Position(line, len(typed) + 2)))
    assert editor.diagnostics_of(uri, version) == []
    editor.close_document(uri)


def test_a_burst_of_changes_ends_with_the_diagnostics_of_the_last(editor):
    text = LETTER_TYCOON.read_text("utf-8")
    uri = editor.open(LETTER_TYCOON)
    at = position_of(text, "current.coins", 0, offset=len("current."))
    for i, ch in enumerate("cions"):  # sent at once, as a paste or a fast typist may
        version = editor.change(uri, ch, at=L.Range(L.Position(at.line, at.character + i),
                                                      L.Position(at.line, at.character + i)))
    (diag,) = editor.diagnostics_of(uri, version)
    assert "'cionscoins'" in diag.message
    editor.close_document(uri)


def test_a_changed_table_file_is_read_again(editor, tmp_path):
    for name in ("trade_tycoon.game", "trade_cards.csv"):
        (tmp_path / name).write_bytes((ROOT / "games" / name).read_bytes())
    uri = editor.open(tmp_path / "trade_tycoon.game")
    assert editor.diagnostics_of(uri) == []
    csv = tmp_path / "trade_cards.csv"
    csv.write_text(csv.read_text("utf-8").replace("region: region", "area: region", 1), "utf-8")
    seen = editor.published(uri)
    editor.files_changed(csv)
    diags = editor.next_diagnostics(uri, seen)
    assert diags and any("region" in d.message for d in diags)
    editor.close_document(uri)


def test_warnings_are_warnings_and_hints_are_shown(editor, tmp_path):
    game = tmp_path / "unused.game"
    source = (HIGH_CARD.read_text("utf-8") + "\nvar spare: number = 0\n")
    game.write_text(source, "utf-8")
    uri = editor.open(game)
    diags = editor.diagnostics_of(uri)
    assert [d.severity for d in diags] == [L.DiagnosticSeverity.Warning]
    assert diags[0].code == "W101" and "'spare' is never used" in diags[0].message
    assert "hint: use it or remove it" in diags[0].message


def test_an_unsaved_document_is_checked_too(editor):
    uri = "untitled:Untitled-1"
    editor.versions[uri] = 1
    editor.loop.call_soon_threadsafe(editor.client.text_document_did_open, L.DidOpenTextDocumentParams(
        L.TextDocumentItem(uri, "gamedsl", 1, 'game "x"\nplayers 2\nturn:\n  pas\n')))
    (diag,) = editor.diagnostics_of(uri)
    assert diag.code.startswith("E")


def test_closing_a_document_clears_its_diagnostics(editor, tmp_path):
    game = tmp_path / "broken.game"
    game.write_text('game "x"\nplayers 2\nturn:\n  let x = nothing_here\n', "utf-8")
    uri = editor.open(game)
    assert editor.diagnostics_of(uri)
    before = len(editor.diagnostics[uri])
    editor.close_document(uri)
    with editor.changed:
        assert editor.changed.wait_for(lambda: len(editor.diagnostics[uri]) > before, 120)
    assert editor.diagnostics[uri][-1][1] == []


# ---------------------------------------------------------------- hover


def test_hover_on_a_builtin_quotes_the_language_reference(editor):
    text = LETTER_TYCOON.read_text("utf-8")
    uri = editor.open(LETTER_TYCOON)
    shown = hover_text(editor, uri, text, "letters_of(")
    assert "letters_of(t)" in shown and "each a one-letter text" in shown
    shown = hover_text(editor, uri, text, "current.")
    assert "the player whose turn it is" in shown


def test_hover_on_a_def_shows_it_with_its_comment(editor):
    text = LETTER_TYCOON.read_text("utf-8")
    uri = editor.open(LETTER_TYCOON)
    shown = hover_text(editor, uri, text, "one_each(", occurrence=1)  # a use, not the declaration
    assert "def one_each(cards: list of card) =" in shown
    assert "One card of each letter (a choice among equal cards is one choice)." in shown


def test_hover_on_declarations_and_locals(editor):
    text = HIGH_CARD.read_text("utf-8")
    uri = editor.open(HIGH_CARD)
    assert "player var points: number = 0" in hover_text(editor, uri, text, "winner.points", 0, offset=8)
    shown = hover_text(editor, uri, text, "kind card:", 0, offset=5)
    assert "kind card:" in shown and "from ranks" in shown
    # a comprehension's variable: its type, as the checker inferred it
    assert "c: card" in hover_text(editor, uri, text, "c.rank for c in trick", 0, offset=0)


# ---------------------------------------------------------------- definition, references


def test_definition_of_zones_vars_defs_procedures_tables_and_phases(editor):
    text = PEARLS.read_text("utf-8")
    uri = editor.open(PEARLS)
    lines = text.split("\n")

    def definition_line(needle, occurrence, offset=1):
        pos = position_of(text, needle, occurrence, offset=offset)
        (loc,) = editor.definition(uri, pos.line, pos.character)
        assert loc.uri == uri
        return lines[loc.range.start.line]

    assert definition_line("to bag", 0, offset=4).startswith("zone bag of pearl")
    assert definition_line("p.coins", 0, offset=3).startswith("player var coins")
    assert definition_line("pearl_points(", 1).startswith("def pearl_points")
    assert definition_line("sell_lot(", 1).startswith("procedure sell_lot")
    assert definition_line("payout[count_of", 0).startswith("table payout")  # the table...
    pos = position_of(text, "then payout", 0, offset=len("then p"))
    (loc,) = editor.definition(uri, pos.line, pos.character)
    assert lines[loc.range.start.line] == "phase payout:"  # ...and the phase of the same name
    assert definition_line("bag of pearl", 0, offset=len("bag of p")).startswith("kind pearl")


def test_definition_in_the_file_a_variant_extends(editor):
    text = DEEP_WATER.read_text("utf-8")
    uri = editor.open(DEEP_WATER)
    assert editor.diagnostics_of(uri) == []
    pos = position_of(text, "start_coins")
    (loc,) = editor.definition(uri, pos.line, pos.character)
    assert loc.uri == uri  # the variant's own option
    # `payout` is the variant's; the references to it are in the base file, which it extends
    pos = position_of(text, "table payout", offset=len("table p"))
    refs = editor.references(uri, pos.line, pos.character)
    assert {r.uri for r in refs} == {uri, PEARLS.as_uri()}


def test_references_of_a_def_are_every_use_and_its_declaration(editor):
    text = LETTER_TYCOON.read_text("utf-8")
    uri = editor.open(LETTER_TYCOON)
    pos = position_of(text, "def typed_words", offset=len("def t"))
    refs = editor.references(uri, pos.line, pos.character)
    expected = [i for i, line in enumerate(text.split("\n"))
                for _ in re.finditer(r"\btyped_words\b", line.split("#")[0])]
    assert lines_of(refs) == expected
    without = editor.references(uri, pos.line, pos.character, declaration=False)
    assert len(without) == len(refs) - 1


def test_references_of_a_local_stay_in_its_scope(editor):
    text = HIGH_CARD.read_text("utf-8")
    uri = editor.open(HIGH_CARD)
    pos = position_of(text, "c.rank for c in trick", offset=len("c.rank for "))
    refs = editor.references(uri, pos.line, pos.character)
    assert len(refs) == 2 and len({r.range.start.line for r in refs}) == 1


# ---------------------------------------------------------------- completion


def test_completion_after_a_dot_offers_a_players_variables_and_zones(editor):
    text = HIGH_CARD.read_text("utf-8")
    uri = editor.open(HIGH_CARD)
    pos = position_of(text, "winner.points", offset=len("winner."))
    labels = {i.label for i in editor.completion(uri, pos.line, pos.character)}
    assert labels == {"points", "played", "hand"}
    pos = position_of(text, "c.rank for c in trick", offset=len("c."))
    labels = {i.label for i in editor.completion(uri, pos.line, pos.character)}
    assert "rank" in labels and "points" not in labels


def test_completion_of_names_in_scope_and_keywords_while_a_line_is_half_typed(editor):
    text = PEARLS.read_text("utf-8")
    uri = editor.open(PEARLS)
    # in the auction's turn, after `let tied = ...`, a new line is being typed
    at = position_of(text, "    if len(tied) == 1")
    version = editor.change(uri, "    let x = ti\n", at=L.Range(at, at))
    assert editor.diagnostics_of(uri, version)  # half typed: not a game yet
    items = {i.label: i for i in editor.completion(uri, at.line, len("    let x = ti"))}
    assert {"tied", "top", "bag", "sell_lot", "len", "current", "choose", "while"} <= set(items)
    assert items["len"].kind == L.CompletionItemKind.Function
    assert items["choose"].kind == L.CompletionItemKind.Keyword
    assert "the number of items" in items["len"].documentation.value
    editor.change(uri, text)


def test_completion_inside_a_kind_offers_its_attributes(editor):
    text = HIGH_CARD.read_text("utf-8")
    uri = editor.open(HIGH_CARD)
    pos = position_of(text, "  show text(rank)", offset=len("  show "))
    labels = {i.label for i in editor.completion(uri, pos.line, pos.character)}
    assert "rank" in labels and "hand_size" in labels  # its column, and the game's names


# ---------------------------------------------------------------- outline


def test_outline_lists_tables_kinds_zones_and_phases(editor):
    uri = editor.open(PEARLS)
    symbols = {s.name: s for s in editor.symbols(uri)}
    assert symbols["pearls"].kind == L.SymbolKind.Struct
    assert {c.name for c in symbols["pearls"].children} >= {"colour"}
    assert symbols["pearl"].kind == L.SymbolKind.Class
    assert symbols["bag"].kind == L.SymbolKind.Array
    assert symbols["auction"].kind == L.SymbolKind.Event and symbols["auction"].detail == "phase"
    assert symbols["sell_lot"].kind == L.SymbolKind.Method
    names = [s.name for s in editor.symbols(uri)]
    assert names.index("pearls") < names.index("pearl") < names.index("auction")  # in file order


def test_a_scenario_file_is_read_as_a_scenario(editor):
    scenario = next((ROOT / "games" / "scenarios").glob("*.scenario"))
    text = scenario.read_text("utf-8")
    uri = editor.open(scenario)
    assert editor.diagnostics_of(uri) == []
    version = editor.change(uri, text + "\nscenario oops\n")
    (diag,) = editor.diagnostics_of(uri, version)
    assert diag.code.startswith("E0")
    editor.close_document(uri)


def test_positions_count_utf16_units_as_lsp_says(editor, tmp_path):
    game = tmp_path / "emoji.game"
    source = HIGH_CARD.read_text("utf-8") + '\ndef label(p: player) = "😀 é" + text(p.points)\n'
    game.write_text(source, "utf-8")
    uri = editor.open(game)
    assert [d.code for d in editor.diagnostics_of(uri)] == ["W101"]  # label is never used
    line_text = source.split("\n")[-2]
    line = len(source.split("\n")) - 2
    before = line_text[:line_text.index("p.points") + 2]
    utf16 = len(before.encode("utf-16-le")) // 2  # the emoji is two units
    assert utf16 == len(before) + 1
    hover = editor.hover(uri, line, utf16 + 1)
    assert "player var points" in hover.contents.value
    assert (hover.range.start.character, hover.range.end.character) == (utf16, utf16 + len("points"))
    (loc,) = editor.definition(uri, line, utf16 + 1)
    assert source.split("\n")[loc.range.start.line].startswith("player var points")
