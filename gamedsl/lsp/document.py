"""An open document: its text, the diagnostics of its last check, and the index of its names.

Each edit re-checks the file as `gamedsl check` would (parse, check, compile), parsing only
the declarations whose text changed: the file's declarations are kept in memory between
edits (gamedsl.syntax.decl_cache.InMemory). The index (for hover, definitions, completion)
is built when first asked after an edit, so typing waits for the diagnostics only.
"""

from __future__ import annotations

from pathlib import Path
from typing import List, Optional, Tuple

from gamedsl.diagnostics import Diagnostic
from gamedsl.lsp.index import Index
from gamedsl.pipeline import Checked, check_text
from gamedsl.syntax import ast as A
from gamedsl.syntax.cache import parse
from gamedsl.syntax.decl_cache import InMemory, Parsed


class Document:
    def __init__(self, uri: str, path: str):
        self.uri = uri
        self.path = str(Path(path))  # as spans name it
        self.text = ""
        self.checked: Optional[Checked] = None
        self._parser = InMemory(self.path)
        self._parsed: Optional[Parsed] = None
        self._index: Optional[Index] = None
        self.last_whole: Optional[Index] = None  # of the last text that parsed whole

    def update(self, text: str) -> List[Tuple[Diagnostic, Optional[A.Span]]]:
        """Check the new text; its diagnostics, each with where it shows in this file."""
        self.text = text
        self._parsed = None
        self._index = None
        if self.path.endswith(".scenario"):
            # a scenario is checked against its game when run (`gamedsl test`); as it is
            # typed, its syntax
            _, diags = parse(text, self.path, "scenario_file")
            self.checked = Checked(None, {self.path: text}, list(diags))
        else:
            self.checked = check_text(self.path, text, self._parse)
        return [(d, self.shown_at(d)) for d in self.checked.diagnostics]

    def _parse(self, source: str, path: str):
        self._parsed = self._parser.parse(source)
        return self._parsed.tree, self._parsed.diagnostics

    def shown_at(self, d: Diagnostic) -> Optional[A.Span]:
        """Where a diagnostic shows in this file: its own span, or (one in a file this one
        extends, or of the whole file) the first line, where the file is named."""
        if d.span is not None and d.span.file == self.path and d.span.line >= 1:
            return d.span
        return None

    @property
    def index(self) -> Optional[Index]:
        if self._index is None and self.checked is not None:
            c = self.checked
            if c.game is not None and c.result is not None:
                self._index = self.last_whole = Index(c.game.decls, c.sources, c.result.types)
            elif self._parsed is not None:
                self._index = Index(self._parsed.decls, {self.path: self.text})
        return self._index

    def lines(self, file: str) -> List[str]:
        if file == self.path:
            return self.text.split("\n")
        sources = self.checked.sources if self.checked is not None else {}
        return sources.get(file, "").split("\n")
