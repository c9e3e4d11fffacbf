"""Quick fixes: a diagnostic whose message or hint names exactly one fix ("did you mean
'hand'?") becomes an edit that makes it."""

from __future__ import annotations

import re
from typing import List, Optional

import attrs

from gamedsl.diagnostics import Diagnostic
from gamedsl.syntax import ast as A

_DID_YOU_MEAN = re.compile(r"did you mean '([^']+)'\?")


@attrs.frozen
class Fix:
    title: str
    span: A.Span  # what to replace (one line)
    new_text: str


def fix_for(diag: Diagnostic, lines: List[str]) -> Optional[Fix]:
    """The one fix a diagnostic suggests, if it suggests exactly one: the wrong name (the
    first quoted in the message) replaced, where it stands in the diagnostic's span."""
    if diag.span is None or diag.span.line < 1:
        return None
    texts = [diag.message] + ([diag.hint] if diag.hint else [])
    suggested = {m for t in texts for m in _DID_YOU_MEAN.findall(t)}
    wrong = re.search(r"'([^']+)'", diag.message)
    if len(suggested) != 1 or wrong is None:
        return None
    new, old = suggested.pop(), wrong.group(1)
    span = diag.span
    if span.line > len(lines):
        return None
    line = lines[span.line - 1]
    end = span.end_col - 1 if span.end_line == span.line else len(line)
    m = re.compile(r"(?<!\w)" + re.escape(old) + r"(?!\w)").search(line, span.col - 1, max(end, span.col - 1 + len(old)))
    if m is None:
        return None
    where = A.Span(span.file, span.line, m.start() + 1, span.line, m.end() + 1)
    return Fix(f"Change '{old}' to '{new}'", where, new)
