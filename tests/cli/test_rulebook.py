"""`gamedsl rules`: a game file written out as a Markdown rulebook, from its syntax tree."""

import re
from pathlib import Path

import pytest

from gamedsl.syntax import ast as A
from gamedsl.cli.main import main
from gamedsl.pipeline import parse_with_extends
from gamedsl.rulebook import Rulebook, rulebook_of

ROOT = Path(__file__).resolve().parents[2]
GAMES = sorted(str(p.relative_to(ROOT)) for pattern in ("examples/*.game", "games/*.game", "tests/checker/good/*.game")
               for p in ROOT.glob(pattern))


@pytest.fixture(autouse=True)
def _in_root(monkeypatch):
    monkeypatch.chdir(ROOT)


def walk(node):
    """Every syntax node below `node` (attrs fields, tuples of nodes)."""
    yield node
    for field in getattr(type(node), "__attrs_attrs__", ()):
        value = getattr(node, field.name)
        for child in value if isinstance(value, tuple) else (value,):
            if hasattr(type(child), "__attrs_attrs__") and not isinstance(child, A.Span):
                yield from walk(child)


@pytest.mark.parametrize("path", GAMES)
def test_rulebook_names_every_rule_of_the_game(path):
    loaded = parse_with_extends(path)
    text = rulebook_of(path)
    nodes = list(walk(loaded.game))
    title = next(n for n in nodes if isinstance(n, A.GameDecl)).title
    assert text.startswith(f"# {title}\n")
    for option in (n for n in nodes if isinstance(n, A.OptionDecl)):
        assert re.search(rf"^\| `{option.name}` \| .* \| `[^`]+` \|", text, re.M), option.name
    for table in (n for n in nodes if isinstance(n, A.TableDecl)):
        header = "| " + " | ".join(c.name for c in table.columns) + " |"
        assert f"### {table.name}\n" in text and header in text
        assert text.count("\n| ") >= len(table.rows)
    for alt in (n for n in nodes if isinstance(n, A.Alternative)):
        assert f"*{alt.template or alt.name}*" in text
    for decl in (n for n in nodes if isinstance(n, (A.KindDecl, A.DefDecl, A.ProcDecl, A.ResultDecl, A.PublicDecl))):
        assert f"{decl.name}" in text
    for phase in (n for n in nodes if isinstance(n, A.PhaseDecl)):
        assert f"### Phase: {phase.name}" in text


def test_every_statement_is_said_in_words():
    """No statement of the file that uses every construct falls back to a bare quote of its code."""
    loaded = parse_with_extends("tests/checker/good/features.game")
    book = Rulebook(loaded.game, loaded.sources)
    quote = lambda e: f"`{book.src.text(e)}`"  # noqa: E731
    simple = [n for n in walk(loaded.game) if isinstance(n, (A.Let, A.Assign, A.CallStmt, A.Move, A.Draw, A.Shuffle,
                                                              A.NextTurn, A.EndGame, A.Say, A.Break, A.Return, A.Pass))]
    assert {type(n) for n in simple} >= {A.Let, A.Assign, A.CallStmt, A.Move, A.Draw, A.Shuffle, A.NextTurn,
                                         A.EndGame, A.Say, A.Break, A.Pass}
    for stmt in simple:
        words = book.simple(stmt, quote)
        assert words != quote(stmt) and words.endswith((".", ".**")), words


def test_high_card_rulebook_reads_as_rules():
    text = rulebook_of("examples/high_card.game")
    assert "| `target` | 10 to 50 | `20` |" in text
    assert "| 9 | 1 |" in text  # the ranks table, as a table
    assert "- Each player's **hand** (of card): seen by its player only; the others see how many; " \
           "kept sorted by `rank`." in text
    assert "    - *play {c}* (`c` from `current.hand`):\n        - Set `current.played` to `c.rank`." in text
    assert "- Set `start_player` to `winner`. *(The winner leads the next trick" in text  # the comment, as prose
    assert "**The game ends when this round is over.**" in text
    assert "A player's score is `p.points`" in text
    assert "- In **take_trick**, if `winner.points >= target`: the game ends when that round is over." in text


def test_variant_rulebook_merges_its_base():
    text = rulebook_of("examples/pearl_auction_variant.game")
    assert text.startswith("# Pearl auction: deep water\n")
    assert "| `ties` | auctioneer, discard | `discard` |" in text
    assert "| 6 or more | 15 |" in text  # the variant's payout table
    assert "Ties are broken by: most `p.coins`, then fewest `len(p.haul)`." in text
    assert "**Every `p` in `players` chooses secretly**" in text
    assert "- When phase **payout** ends." in text


def test_cli_prints_the_rulebook(capsys):
    assert main(["rules", "examples/tictactoe.game"]) == 0
    out = capsys.readouterr().out
    assert out == rulebook_of("examples/tictactoe.game")
    assert "**The game ends: `current` wins.**" in out
    assert "There is no score" in out
    assert "- On a turn, if `len(lines_of(current)) > 0`: the game ends and `current` wins.\n" \
           "- On a turn, otherwise if `len(empty_cells(board)) == 0`: the game ends at once." in out


def test_cli_writes_the_rulebook_to_a_file(tmp_path, capsys):
    out = tmp_path / "rules.md"
    assert main(["rules", "examples/high_card.game", "--out", str(out)]) == 0
    assert capsys.readouterr().out == ""
    assert out.read_text("utf-8") == rulebook_of("examples/high_card.game")


def test_cli_refuses_a_file_with_errors(capsys):
    assert main(["rules", "tests/checker/bad/syntax_character.game"]) == 1
    err = capsys.readouterr().err
    assert "error[E002]" in err and "Traceback" not in err


def test_cli_reports_an_unwritable_output(tmp_path, capsys):
    assert main(["rules", "examples/tictactoe.game", "-o", str(tmp_path / "no" / "such" / "dir.md")]) == 2
    assert "cannot write" in capsys.readouterr().err


def test_the_rulebook_uses_the_display_labels_and_leaves_bookkeeping_aside():
    text = rulebook_of(str(ROOT / "games" / "letter_tycoon.game"))
    kept = text.split("## What is kept track of")[1].split("\n## ")[0]
    assert "- `coins`" in kept and "- `built`" not in kept and "- `copy_word`" not in kept
    assert "never shown: `built`, `vowels`, `copy_word`, `s_word`, `failed`" in kept
    assert "**office** (“patents for sale” on the table)" in text
    assert "`word` on each (number): bookkeeping, not shown" in text
    assert "laid open for everyone when the game is over" in text
    assert "Tell `current` only: " in text
