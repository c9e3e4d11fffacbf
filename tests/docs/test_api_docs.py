"""docs/api.md: its example runs and prints what the page says; it names every public Game method."""

import contextlib
import io

from tests.support.docblocks import DOCS, ROOT, blocks
from gamedsl.runtime.game import Game

PAGE = DOCS / "api.md"


def test_api_example_prints_what_the_page_shows(monkeypatch):
    found = list(blocks(PAGE))
    i = next(n for n, b in enumerate(found) if b.lang == "python" and b.note.startswith("runs"))
    code, shown = found[i].body, found[i + 1]
    assert shown.lang == "text"
    monkeypatch.chdir(ROOT)
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        exec(compile(code, str(PAGE), "exec"), {"__name__": "api_example"})
    assert out.getvalue() == shown.body


def test_api_page_names_every_public_game_method():
    text = PAGE.read_text("utf-8")
    public = [name for name in vars(Game) if not name.startswith("_") and name not in ("write",)]
    missing = [name for name in public if f"`{name}" not in text]
    assert not missing, f"docs/api.md does not describe Game.{missing}"
