"""Every ```game example in docs/ is a rule file that `gamedsl check` accepts.

On a page, the first example that starts with `game "..."` is a whole game; every
later snippet on that page is checked as a variant of it (`extends`), so snippets
can stay short and still use the whole game's names. A block marked
`<!-- file: PATH -->` is that repository file, verbatim: it is checked where it lies
(so its `extends` and table files are found), and the snippets after it are checked
as variants of it; so are the snippets after a `<!-- base: PATH -->` line (a game
page quoting parts of its game file). A block fenced ```game error CODE is a deliberate mistake: it must
give that diagnostic. A ```game whole block is another whole game: the snippets after it
are variants of it. A ```game excerpt block (a piece of a game that names things
declared elsewhere) must parse; a ```game planned block uses syntax the language does
not have yet, and is not read.
"""

import gzip
import re
import shutil
from pathlib import Path

import pytest

from tests.support.docblocks import ROOT, blocks, pages

BASE = re.compile(r"^<!-- base: (\S+) -->$", re.M)
from gamedsl.pipeline import check_files


def examples(page_list=None):
    for page in page_list or pages():
        base = None
        bases = {page.read_text("utf-8").count("\n", 0, m.start()): ROOT / m.group(1)
                 for m in BASE.finditer(page.read_text("utf-8"))}
        for n, block in enumerate((b for b in blocks(page) if b.lang == "game"), 1):
            for line in sorted(bases):
                if line < block.line:
                    base = bases.pop(line)
            if block.words and block.words[0] not in ("error", "whole"):
                continue  # excerpt, planned
            whole = block.file is None and re.search(r'^game "', block.body, re.M) and "extends" not in block.body \
                and (base is None or block.words[:1] == ["whole"])
            if block.file and block.file.endswith(".game"):
                base = ROOT / block.file
            elif block.file:
                continue  # a scenario file: tests/docs/test_tutorial.py runs it
            elif whole:
                base = block.body
            yield pytest.param(block, None if whole or block.file else base, id=f"{page.stem}-{n}")


WORDS = re.compile(r'^words \w+ from "([^"]+)"', re.M)


def write_word_lists(folder: Path, text: str) -> None:
    """The files an example's `words` declarations read (a few words; every value of an
    option named in the file name), so the example checks as a game shipped with them."""
    for name in WORDS.findall(text):
        m = re.search(r"\{(\w+)\}", name)
        option = re.search(r"^option " + m.group(1) + r":(.*)=", text, re.M) if m else None
        values = [v.strip() for v in option.group(1).split("|")] if option else [""]
        for v in values:
            file = folder / (name.replace(m.group(0), v) if m else name)
            data = b"cat\nact\ntea\n"
            file.write_bytes(gzip.compress(data) if file.name.endswith(".gz") else data)


def diagnostics_of(tmp_path, block, base):
    if block.file:
        path = ROOT / block.file
        assert path.read_text("utf-8") == block.body, f"{block.where}: the block is not {block.file} verbatim"
    else:
        path = tmp_path / "example.game"
        if base is None:
            path.write_text(block.body)
            write_word_lists(tmp_path, block.body)
        elif isinstance(base, str):
            (tmp_path / "base.game").write_text(base)
            path.write_text('extends "base.game"\n' + block.body)
            write_word_lists(tmp_path, base + block.body)
        else:  # a repository file: a copy of its folder, so that what it reads is beside it
            folder = shutil.copytree(base.parent, tmp_path / "base")
            path = folder / "example.game"
            path.write_text(f'extends "{base.name}"\n' + block.body)
    diags, _ = check_files([str(path)])
    return [f"{d.span.line if d.span else '?'}: {d.code} {d.message}" for d in diags if d.is_error]


@pytest.mark.parametrize("block,base", list(examples()))
def test_doc_example_checks(tmp_path, block, base):
    errors = diagnostics_of(tmp_path, block, base)
    if block.words[:1] == ["error"]:
        (code,) = block.words[1:]
        assert any(e.split()[1] == code for e in errors), \
            f"{block.where}: a deliberate mistake should give {code}, but gives:\n" + "\n".join(errors)
    else:
        assert not errors, f"{block.where}: an example does not check:\n{block.body}\n" + "\n".join(errors)


def test_language_reference_has_examples():
    assert len([p for p in examples() if p.values[0].page.name == "language.md"]) >= 20


def test_excerpts_parse():
    from gamedsl.syntax.parser import parse
    excerpts = [b for page in pages() for b in blocks(page) if b.lang == "game" and b.words[:1] == ["excerpt"]]
    for block in excerpts:
        _, diags = parse(block.body, block.where)
        assert not diags, f"{block.where}: an excerpt does not parse: " + "; ".join(d.message for d in diags)


def test_every_game_block_is_checked_or_marked():
    """A ```game block either is checked above, or says why not (excerpt, planned)."""
    checked = {(p.values[0].page, p.values[0].line) for p in examples()}
    for page in pages():
        for block in blocks(page):
            if block.lang in ("game", "gamedsl") and (block.page, block.line) not in checked:
                assert block.words[:1] in (["excerpt"], ["planned"]) or (block.file or "").endswith(".scenario"), \
                    f"{block.where}: a ```{block.lang} block that no test checks"


def test_snippets_after_a_base_line_are_variants_of_that_file(tmp_path):
    page = tmp_path / "page.md"
    page.write_text("```game\nenum x: a\n```\n\n<!-- base: examples/high_card.game -->\n\n"
                    "```game\ndef trick_size() = len(trick)\n```\n\n"
                    "```game error E101\ndef trick_size() = len(tricks)\n```\n")
    params = [p.values for p in examples([page])]
    assert [base for _, base in params] == [None, ROOT / "examples" / "high_card.game",
                                            ROOT / "examples" / "high_card.game"]
    assert diagnostics_of(tmp_path / "a", *params[1]) == []
    assert [e.split()[1] for e in diagnostics_of(tmp_path / "b", *params[2])] == ["E101"]


def test_every_screen_on_a_game_page_is_what_the_client_prints():
    """A ```text block after `<!-- screen: GAME SEATS SEED MOVES -->` on a game page is the
    last screen `gamedsl play` shows after those moves (`;` between them): pages show the
    client as it is."""
    import io

    from gamedsl.cli.terminal import play_game
    from gamedsl.pipeline import load
    root = Path(__file__).resolve().parents[2]
    found = 0
    for page in sorted((root / "docs" / "games").glob("*.md")):
        text = page.read_text("utf-8")
        for m in re.finditer(r"<!-- screen: (\S+) (\S+) (\d+) (.*?) -->\n```text\n(.*?)```", text, re.S):
            name, seats, seed, typed, shown = m.groups()
            out = io.StringIO()
            moves = [t for t in typed.split(";") if t] + ["quit"]
            play_game(load(str(root / "games" / f"{name}.game")), seats.split(","), int(seed), out=out,
                      inp=io.StringIO("\n".join(moves) + "\n"), timers=False)
            printed = [line.rstrip() for line in out.getvalue().splitlines() if line.strip()]
            wanted = [line.rstrip() for line in shown.splitlines() if line.strip()]
            starts = [i for i, line in enumerate(printed) if line == wanted[0]]
            assert any(printed[i:i + len(wanted)] == wanted for i in starts), f"{page.name}: the screen changed"
            found += 1
    assert found >= 4
