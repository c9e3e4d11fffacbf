"""The docs cite the repository, and only the repository, and their citations stay true:

- a `path:line` in a page (a rule in a coverage excerpt, a failure in an example output) names
  a file of the repository and a line it has; a coverage excerpt's rule is on that line;
- nothing cites a rules file or an issue tracker the repository does not hold: each game's
  settled rules are its page under docs/games/, and a feature is named, not numbered.

docs/design.md is the integrator's to rewrite and is left out of the first check.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PAGES = sorted(p for p in (ROOT / "docs").rglob("*.md") if p.name != "design.md") + [ROOT / "README.md"]
CITED = re.compile(r"\b((?:games|examples|gamedsl|tests|tools|benchmarks|grammar|docs)/[\w./-]+"
                   r"\.(?:game|py|md|scenario|csv|lark)):(\d+)(:\d+)?(?:: (.*?))?(?:\s*\(\+\d+ more\))?`?$")


def citations():
    for page in PAGES:
        for n, line in enumerate(page.read_text("utf-8").splitlines(), 1):
            for part in re.split(r"(?<=[`|])|\s(?=(?:games|examples)/)", line):
                m = CITED.search(part.strip())
                if m:
                    yield page.relative_to(ROOT), n, m


@pytest.mark.parametrize("page, n, m", list(citations()), ids=lambda v: str(v) if isinstance(v, (Path, int)) else "")
def test_a_cited_line_exists_and_holds_what_is_cited(page, n, m):
    path, line, col, text = m.group(1), int(m.group(2)), m.group(3), m.group(4)
    target = ROOT / path
    assert target.is_file(), f"{page}:{n} cites {path}, which is not in the repository"
    lines = target.read_text("utf-8").splitlines()
    assert 1 <= line <= len(lines) and lines[line - 1].strip(), f"{page}:{n}: {path} has no line {line} with text"
    if text and not col and path.endswith(".game"):  # a coverage excerpt: "rule FILE:LINE: the statement"
        assert text.strip() in lines[line - 1], f"{page}:{n}: {path}:{line} is {lines[line - 1].strip()!r}"


def test_there_are_citations_to_check():
    assert len(list(citations())) >= 10


# Built from parts, so this file does not match itself.
OUTSIDE = re.compile("shared" + "/" + "|" + "RULES" + r"\.md" + "|" + "issue" + r" [0-9]")
SEARCHED = ["README.md", "docs", "games", "examples", "gamedsl", "tools", "benchmarks", "tests"]


def test_nothing_cites_files_or_issues_outside_the_repository():
    found = []
    for name in SEARCHED:
        base = ROOT / name
        for path in [base] if base.is_file() else sorted(base.rglob("*")):
            if not path.is_file() or path.suffix in (".gz", ".pyc", ".png") or "__pycache__" in path.parts:
                continue
            try:
                text = path.read_text("utf-8")
            except UnicodeDecodeError:
                continue
            for n, line in enumerate(text.splitlines(), 1):
                if OUTSIDE.search(line):
                    found.append(f"{path.relative_to(ROOT)}:{n}: {line.strip()[:100]}")
    assert not found, "\n".join(found)
