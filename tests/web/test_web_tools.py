"""The web table's tools: the smoke test CI runs in a non-editable install, and the
screenshots every game's docs page shows."""

from __future__ import annotations

import importlib.util
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def tool(name: str):
    spec = importlib.util.spec_from_file_location(name, ROOT / "tools" / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_web_smoke_serves_the_page_and_files(capsys):
    assert tool("web_smoke").main(str(ROOT / "examples" / "tictactoe.game")) == 0
    assert "serves its page and files" in capsys.readouterr().out


def test_every_game_page_shows_its_screenshot():
    games = tool("screenshots").GAMES
    pages = sorted(p.stem for p in (ROOT / "docs" / "games").glob("*.md") if p.stem != "index")
    assert sorted(games) == pages
    for name in games:
        image = ROOT / "docs" / "images" / f"web_{name}.png"
        assert image.is_file() and image.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
        assert f"(../images/web_{name}.png)" in (ROOT / "docs" / "games" / f"{name}.md").read_text("utf-8")
    assert "(images/web_trade_tycoon.png)" in (ROOT / "docs" / "web.md").read_text("utf-8")
