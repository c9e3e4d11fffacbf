"""The outline of a game file (document symbols): its tables, kinds, zones, phases and the
other declarations, in file order, a kind with its attributes and a table with its columns."""

from __future__ import annotations

from typing import List, Optional

import attrs

from gamedsl.lsp.index import Index, Target
from gamedsl.syntax import ast as A


@attrs.frozen
class Symbol:
    name: str
    what: str  # as Target.what, or "setup", "turn", "score", ...
    span: A.Span  # the whole declaration
    name_span: A.Span
    children: tuple = ()


_UNNAMED = {A.SetupDecl: "setup", A.TurnDecl: "turn", A.ScoreDecl: "score", A.TiebreakDecl: "tiebreak",
            A.HeuristicDecl: "heuristic", A.GameDecl: "game", A.PlayersDecl: "players",
            A.CooperativeDecl: "cooperative", A.TeamDecl: "team"}


def outline(index: Index, file: str) -> List[Symbol]:
    out: List[Symbol] = []
    for decl in index.decls:
        if decl.span.file != file:
            continue  # declared in a file this one extends
        names = index.phases if isinstance(decl, A.PhaseDecl) else index.globals
        target: Optional[Target] = names.get(getattr(decl, "name", None) or "")
        if target is not None and target.decl is decl:
            out.append(Symbol(decl.name, target.what, index.extent(decl.span), target.span, _children(index, decl)))
        elif type(decl) in _UNNAMED:
            what = _UNNAMED[type(decl)]
            name = f'game "{decl.title}"' if isinstance(decl, A.GameDecl) else what
            head = A.Span(decl.span.file, decl.span.line, decl.span.col, decl.span.line,
                          decl.span.col + len(what))
            out.append(Symbol(name, what, index.extent(decl.span), head))
    return out


def _children(index: Index, decl) -> tuple:
    if isinstance(decl, A.KindDecl):
        members = [m for m in index.members.get(decl.name, {}).values()
                   if m.what in ("attribute", "state") and m.span is not None]
        return tuple(Symbol(m.name, m.what, index.extent(m.decl.span), m.span) for m in members)
    if isinstance(decl, A.TableDecl):
        cols = [c for c in index.columns.get(decl.name, {}).values() if c.decl.span.file == decl.span.file]
        return tuple(Symbol(c.name, "column", c.span, c.span) for c in cols)
    return ()
