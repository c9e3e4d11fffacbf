"""mkdocs hooks: the parts of the docs site that are made from the repository.

- `.game` code blocks are highlighted by gamedsl's own Pygments lexer (registered by
  the package's entry point; registered here too when gamedsl runs from a checkout).
- Rulebooks: every `examples/*.game` and `games/**/*.game` gets a page written by
  `gamedsl rules` (examples/NAME.md, games/rules/NAME.md); a page may also embed one
  with the line `<!-- rulebook: games/NAME.game -->`.
- Navigation: mkdocs.yml lists the fixed pages; the hook adds the Games section
  (every docs/games/*.md, each followed by its generated rulebook), the Examples
  section, and any other page of docs/ that mkdocs.yml does not list yet — so a page
  added later appears without editing mkdocs.yml.
A game file that does not check fails the build (an error, so `--strict` or not).
"""

from __future__ import annotations

import logging
import re
import sys
from pathlib import Path
from typing import Dict, List

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

log = logging.getLogger("mkdocs.plugins.gamedsl")
EMBED = re.compile(r"^<!-- rulebook: (\S+) -->$", re.M)
# ```game excerpt, ```game planned, ```game error E102: the docs' tests read the words after
# the language; superfences would not see a fence there, so they become the block's title.
FENCE_WORDS = re.compile(r"^(?P<indent>[ \t]*)```(?P<lang>game|gamedsl)[ \t]+(?P<words>[\w ]+?)[ \t]*$", re.M)
TITLES = {"excerpt": "excerpt", "planned": "planned — not in the language yet", "error": "a mistake:"}


def _register_lexer() -> None:
    """Make `game`/`gamedsl` fences known to Pygments even when gamedsl is not installed."""
    from pygments.lexers import _mapping, get_lexer_by_name
    from pygments.util import ClassNotFound

    try:
        get_lexer_by_name("game")
    except ClassNotFound:
        _mapping.LEXERS["GameLexer"] = ("gamedsl.pygments_lexer", "gamedsl", ("game", "gamedsl"),
                                        ("*.game", "*.scenario"), ("text/x-gamedsl",))


def _rulebook(path: Path) -> str:
    from mkdocs.exceptions import PluginError

    from gamedsl.errors import GameError
    from gamedsl.diagnostics import render_all
    from gamedsl.rulebook import rulebook_of

    try:
        return rulebook_of(str(path))
    except GameError as err:
        raise PluginError(f"{path.relative_to(ROOT)} does not check:\n" + render_all(err.diagnostics, {})) from None


def _demote(markdown: str) -> str:
    """Headings one level down, to sit inside another page."""
    return re.sub(r"^(#+) ", r"#\1 ", markdown, flags=re.M)


def example_games() -> List[Path]:
    return sorted((ROOT / "examples").glob("*.game"))


def full_games() -> List[Path]:
    return sorted((ROOT / "games").glob("**/*.game")) if (ROOT / "games").is_dir() else []


def _title(markdown: str, fallback: str) -> str:
    m = re.search(r"^# (.+)$", markdown, re.M)
    return m.group(1).strip() if m else fallback


def _example_page(path: Path) -> str:
    rel = path.relative_to(ROOT).as_posix()
    source = path.read_text("utf-8")
    scenario = ROOT / "examples" / "scenarios" / f"{path.stem}.scenario"
    parts = [_rulebook(path).rstrip(), "",
             "## Play it", "", "```sh", f"gamedsl play {rel} --seats human,random", "```", ""]
    if scenario.exists():
        parts += [f"Its rules are pinned by `examples/scenarios/{scenario.name}` "
                  f"(`gamedsl test examples/scenarios/{scenario.name}`).", ""]
    parts += ["## The file", "", f"`{rel}`:", "", "```gamedsl", source.rstrip(), "```", ""]
    return "\n".join(parts)


# ------------------------------------------------------------------ hooks

_generated: Dict[str, str] = {}   # src_uri -> title, for the navigation
_games: List[tuple] = []          # (title, page src_uri or None, rulebook src_uri)


def on_config(config):
    _register_lexer()
    return config


def on_files(files, config):
    from mkdocs.structure.files import File

    _generated.clear()
    _games.clear()
    docs_dir = Path(config["docs_dir"])
    index = ["# Examples", "", "Small complete games that show the language. Each page is the game's rulebook, "
             "written by `gamedsl rules` from the file, then the file itself.", ""]
    for path in example_games():
        text = _example_page(path)
        uri = f"examples/{path.stem}.md"
        files.append(File.generated(config, uri, content=text))
        _generated[uri] = _title(text, path.stem)
        index.append(f"- [{_title(text, path.stem)}]({path.stem}.md) — `examples/{path.name}`")
    files.append(File.generated(config, "examples/index.md", content="\n".join(index) + "\n"))
    for path in full_games():
        text = _rulebook(path)
        uri = f"games/rules/{path.stem}.md"
        files.append(File.generated(config, uri, content=text))
        page = f"games/{path.stem}.md" if (docs_dir / "games" / f"{path.stem}.md").exists() else None
        _games.append((_title(text, path.stem), page, uri))
    config["nav"] = _navigation(config.get("nav") or [], docs_dir)
    return files


def _listed(nav) -> set:
    out = set()
    for item in nav:
        if isinstance(item, str):
            out.add(item)
        elif isinstance(item, dict):
            for value in item.values():
                out |= _listed(value) if isinstance(value, list) else {value}
    return out


def _navigation(nav: list, docs_dir: Path) -> list:
    """mkdocs.yml's pages, then Examples, Games, and any page it does not list yet."""
    nav = [item for item in nav if not (isinstance(item, dict) and set(item) & {"Examples", "Games", "More"})]
    examples = ["examples/index.md"] + [{title: uri} for uri, title in _generated.items()]
    games: list = ["games/index.md"] if (docs_dir / "games" / "index.md").exists() else []
    with_rulebook = set()
    for title, page, rules in _games:
        if page:
            with_rulebook.add(page)
            games.append({title: [page, {"Rulebook": rules}]})
        else:
            games.append({f"{title} (rulebook)": rules})
    games += sorted(p.relative_to(docs_dir).as_posix() for p in (docs_dir / "games").glob("*.md")
                    if p.name != "index.md" and p.relative_to(docs_dir).as_posix() not in with_rulebook)
    out = nav + [{"Examples": examples}]
    if games:
        out.append({"Games": games})
    listed = _listed(out)
    more = sorted(p.relative_to(docs_dir).as_posix() for p in docs_dir.glob("*.md")
                  if p.relative_to(docs_dir).as_posix() not in listed)
    if more:
        out.append({"More": more})
    return out


def on_page_markdown(markdown, page, config, files):
    from mkdocs.exceptions import PluginError

    def embed(m):
        path = ROOT / m.group(1)
        if not path.exists():
            raise PluginError(f"{page.file.src_uri}: no game file {m.group(1)} to embed")
        return _demote(_rulebook(path))
    return EMBED.sub(embed, fence_titles(markdown))


def fence_titles(markdown: str) -> str:
    def title(m):
        first, *rest = m.group("words").split()
        text = " ".join([TITLES.get(first, first), *rest])
        return f'{m.group("indent")}```{m.group("lang")} title="{text}"'
    return FENCE_WORDS.sub(title, markdown)
