"""The mkdocs site: it builds with --strict, game pages and rulebooks appear by themselves,
and fences with words after the language get a title instead of breaking."""

import importlib.util
import shutil

import pytest
from mkdocs.commands.build import build
from mkdocs.config import load_config

from tests.support.docblocks import ROOT

spec = importlib.util.spec_from_file_location("mkdocs_hooks", ROOT / "tools" / "mkdocs_hooks.py")
hooks = importlib.util.module_from_spec(spec)
spec.loader.exec_module(hooks)


def test_fence_words_become_titles():
    text = "```game excerpt\nx\n```\n  ```game error E102\n```game\n```gamedsl planned\n"
    assert hooks.fence_titles(text) == ('```game title="excerpt"\nx\n```\n  ```game title="a mistake: E102"\n'
                                        '```game\n```gamedsl title="planned — not in the language yet"\n')


def test_lexer_is_found_by_its_alias():
    from pygments import highlight
    from pygments.formatters import HtmlFormatter
    from pygments.lexers import get_lexer_by_name

    hooks._register_lexer()
    html = highlight("turn:\n  choose by current:\n", get_lexer_by_name("game"), HtmlFormatter())
    assert '<span class="k">choose</span>' in html


def test_a_game_that_does_not_check_stops_the_build():
    from mkdocs.exceptions import PluginError
    with pytest.raises(PluginError, match="does not check"):
        hooks._rulebook(ROOT / "tests" / "bad" / "syntax_character.game")


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    """The site of a copy of the repository with one more game, its page and a new page."""
    root = tmp_path_factory.mktemp("repo")
    for name in ("docs", "examples", "tools"):
        shutil.copytree(ROOT / name, root / name, ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copy(ROOT / "mkdocs.yml", root / "mkdocs.yml")
    (root / "games").mkdir(exist_ok=True)
    shutil.copy(ROOT / "examples" / "tictactoe.game", root / "games" / "noughts.game")
    (root / "docs" / "games").mkdir(exist_ok=True)
    (root / "docs" / "games" / "noughts.md").write_text(
        "# Noughts\n\nThe rules in plain words.\n\n<!-- rulebook: games/noughts.game -->\n")
    (root / "docs" / "later.md").write_text("# A page added later\n")
    config = load_config(config_file=str(root / "mkdocs.yml"), site_dir=str(root / "site"), strict=True)
    build(config)
    return root / "site"


def test_site_has_every_page(site):
    for page in ("index.html", "tutorial/index.html", "language/index.html", "diagnostics/index.html",
                 "scenarios/index.html", "cli/index.html", "api/index.html", "design/index.html",
                 "examples/index.html", "examples/high_card/index.html", "examples/pearl_auction_variant/index.html"):
        assert (site / page).exists(), page


def test_game_pages_and_rulebooks_appear_in_the_navigation(site):
    home = (site / "index.html").read_text("utf-8")
    assert 'href="games/noughts/"' in home and 'href="games/rules/noughts/"' in home
    assert 'href="later/"' in home  # a page mkdocs.yml does not list yet
    rulebook = (site / "games" / "rules" / "noughts" / "index.html").read_text("utf-8")
    assert "The game ends: " in rulebook and "place {c}" in rulebook


def test_a_game_page_embeds_its_rulebook(site):
    page = (site / "games" / "noughts" / "index.html").read_text("utf-8")
    assert "The rules in plain words." in page
    assert 'id="a-turn"' in page and "<code>empty_cells(board)</code>" in page


def test_game_code_is_highlighted(site):
    tutorial = (site / "tutorial" / "index.html").read_text("utf-8")
    assert '<span class="k">choose</span>' in tutorial
    design = (site / "design" / "index.html").read_text("utf-8")
    assert "```game" not in design.replace("<code>```game", "")  # every fence was read as a fence
