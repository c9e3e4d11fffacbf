"""Every ```game example in docs/ is a rule file that `gamedsl check` accepts.

On a page, the first example that starts with `game "..."` is a whole game; every
later snippet on that page is checked as a variant of it (`extends`), so snippets
can stay short and still use the whole game's names.
"""

import gzip
import re
from pathlib import Path

import pytest

from gamedsl.loader import check_files

DOCS = Path(__file__).resolve().parent.parent / "docs"
FENCE = re.compile(r"^```game\n(.*?)^```", re.S | re.M)


def examples():
    for page in sorted(DOCS.glob("**/*.md")):
        blocks = FENCE.findall(page.read_text("utf-8"))
        base = None
        for n, block in enumerate(blocks, 1):
            whole = re.search(r'^game "', block, re.M) and "extends" not in block and base is None
            if whole:
                base = block
            yield pytest.param(page.name, block, None if whole else base, id=f"{page.stem}-{n}")


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


@pytest.mark.parametrize("page,block,base", list(examples()))
def test_doc_example_checks(tmp_path, page, block, base):
    path = tmp_path / "example.game"
    if base is None:
        path.write_text(block)
    else:
        (tmp_path / "base.game").write_text(base)
        path.write_text('extends "base.game"\n' + block)
    write_word_lists(tmp_path, (base or "") + block)
    diags, _ = check_files([str(path)])
    errors = [f"{d.span.line if d.span else '?'}: {d.code} {d.message}" for d in diags if d.is_error]
    assert not errors, f"{page}: an example does not check:\n{block}\n" + "\n".join(errors)


def test_language_reference_has_examples():
    assert len([p for p in examples() if p.values[0] == "language.md"]) >= 20
