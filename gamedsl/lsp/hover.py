"""What hover shows for a name: its declaration as written, with the designer's comment
above it, or a built-in's entry in the language reference; for a local value, its type."""

from __future__ import annotations

from typing import List, Optional

from gamedsl.lsp.index import Index, Occurrence, Target, type_text
from gamedsl.lsp.reference import builtin_doc
from gamedsl.syntax import ast as A

MAX_LINES = 12  # a longer declaration (a kind, a table) is shown cut, with its size

LOCAL_WHAT = {"parameter", "let", "loop variable", "choice parameter", "comprehension variable",
              "sort variable", "chooser", "player"}


def hover_text(index: Index, occ: Occurrence) -> Optional[str]:
    """Markdown for the name at `occ`."""
    t = occ.target
    if t.what in ("built-in name", "built-in function"):
        doc = builtin_doc(t.name)
        if doc is None:
            return None
        kind = "built-in name" if t.what == "built-in name" else "built-in function"
        return f"```gamedsl\n{doc.usage}\n```\n{kind}" + (f": {doc.text}" if doc.text else "")
    if t.what in LOCAL_WHAT:
        type_ = type_text(index.types.get(occ.node)) if occ.node is not None else None
        type_ = type_ or type_text(t.type)
        what = {"player": "the player scored"}.get(t.what, t.what)
        return f"```gamedsl\n{t.name}" + (f": {type_}" if type_ else "") + f"\n```\n{what}"
    if t.what in ("column", "attribute", "state", "owner"):
        type_ = type_text(index.types.get(occ.node)) if occ.node is not None else None
        type_ = type_ or type_text(t.type)
        of = "table" if t.what == "column" else "kind"
        head = f"```gamedsl\n{t.name}" + (f": {type_}" if type_ else "") + "\n```\n"
        body = f"{t.what} of {of} `{t.owner}`"
        if t.span is not None and t.what != "column":
            body += "\n\n" + _code(_declaration_lines(index, t.decl.span, limit=3))
        return head + body
    if t.what == "value":
        return f"```gamedsl\n{t.name}\n```\na value of `{t.owner}`\n\n" + _code(
            _declaration_lines(index, t.decl.span, limit=1))
    if t.span is None or t.decl is None:
        return None
    return _code(_declaration_lines(index, t.decl.span)) + _comment(index, t.decl.span)


def _declaration_lines(index: Index, span: A.Span, limit: int = MAX_LINES) -> List[str]:
    extent = index.extent(span)
    lines = index.lines(span.file)[extent.line - 1:extent.end_line]
    if len(lines) > limit:
        rest = len(lines) - limit
        lines = lines[:limit] + [f"  # ... {rest} more line" + ("s" if rest > 1 else "")]
    return lines


def _code(lines: List[str]) -> str:
    return "```gamedsl\n" + "\n".join(lines) + "\n```"


def _comment(index: Index, span: A.Span) -> str:
    """The comment lines right above a declaration (the designer's own documentation)."""
    lines = index.lines(span.file)
    n = span.line - 2
    comment: List[str] = []
    while n >= 0 and lines[n].lstrip().startswith("#"):
        comment.insert(0, lines[n].strip().lstrip("#").strip())
        n -= 1
    return ("\n\n" + "\n".join(comment)) if comment else ""


def target_label(t: Target) -> str:
    """A one-line description of what a name is, for completion."""
    if t.what in ("column", "attribute", "state", "owner"):
        return f"{t.what} of {t.owner}" + (f": {type_text(t.type)}" if type_text(t.type) else "")
    if t.what == "value":
        return f"value of {t.owner}"
    if t.type is not None and type_text(t.type):
        return f"{t.what}: {type_text(t.type)}"
    return t.what
