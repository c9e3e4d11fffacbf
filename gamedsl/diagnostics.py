"""Diagnostics: errors and warnings as values with stable codes, rendered once at the edge.

Codes are stable (documented in docs/diagnostics.md):
  E0xx  reading files and syntax        E1xx  names
  E2xx  types and arity                 E3xx  options and declarations
  E4xx  flow (phases, turns)            E5xx  runtime (rule errors while playing)
  E6xx  scenarios                       W1xx  warnings (unused, unreachable)
"""

from __future__ import annotations

import difflib
import json
from typing import Iterable, Optional

import attrs

DOCS_URL = "docs/diagnostics.md"


@attrs.frozen
class Span:
    """Where a node stands in its source file (1-based lines and columns)."""

    file: str
    line: int
    col: int
    end_line: int
    end_col: int

    def __str__(self) -> str:
        return f"{self.file}:{self.line}:{self.col}"


NO_SPAN = Span("<builtin>", 0, 0, 0, 0)


@attrs.frozen
class Diagnostic:
    code: str
    message: str
    span: Optional[Span] = None
    hint: Optional[str] = None

    @property
    def severity(self) -> str:
        return "warning" if self.code.startswith("W") else "error"

    @property
    def is_error(self) -> bool:
        return self.severity == "error"

    def to_json(self) -> dict:
        out = {"code": self.code, "severity": self.severity, "message": self.message}
        if self.span is not None:
            out.update(
                file=self.span.file, line=self.span.line, col=self.span.col,
                end_line=self.span.end_line, end_col=self.span.end_col,
            )
        if self.hint:
            out["hint"] = self.hint
        return out


def did_you_mean(word: str, candidates: Iterable[str]) -> Optional[str]:
    close = difflib.get_close_matches(word, sorted(set(candidates)), n=1, cutoff=0.6)
    return f"did you mean '{close[0]}'?" if close else None


def sort_key(d: Diagnostic):
    s = d.span
    return (s.file, s.line, s.col) if s else ("", 0, 0)


def render(d: Diagnostic, sources: dict) -> str:
    """``path:line:col: error[E101]: message`` + the source line + a caret + a hint."""
    where = f"{d.span.file}:{d.span.line}:{d.span.col}: " if d.span and d.span.line else (
        f"{d.span.file}: " if d.span else "")
    lines = [f"{where}{d.severity}[{d.code}]: {d.message}"]
    text = sources.get(d.span.file) if d.span else None
    if text is not None and d.span.line >= 1:
        src_lines = text.splitlines()
        if d.span.line <= len(src_lines):
            line = src_lines[d.span.line - 1].expandtabs(4)
            width = 1
            if d.span.end_line == d.span.line and d.span.end_col > d.span.col:
                width = d.span.end_col - d.span.col
            gutter = f"{d.span.line:>4} | "
            lines.append(gutter + line)
            lines.append(" " * (len(gutter) + d.span.col - 1) + "^" * max(1, width))
    if d.hint:
        lines.append(f"  hint: {d.hint}")
    lines.append(f"  see: {DOCS_URL}#{d.code.lower()}")
    return "\n".join(lines)


def render_all(diags: Iterable[Diagnostic], sources: dict) -> str:
    return "\n".join(render(d, sources) for d in sorted(diags, key=sort_key))


def to_json(diags: Iterable[Diagnostic]) -> str:
    return json.dumps([d.to_json() for d in sorted(diags, key=sort_key)], ensure_ascii=False, indent=2)
