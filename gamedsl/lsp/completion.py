"""Completion: after `x.` the attributes x may have (a player's variables and zones, a
component's attributes, a row's columns); elsewhere the names in scope at the cursor (its
declaration's locals above it, the game's names, the built-ins) and the keywords."""

from __future__ import annotations

import re
from typing import Dict, List, Optional

import attrs

from gamedsl.checker import types as T
from gamedsl.checker.signatures import BUILTIN_NAMES, BUILTINS
from gamedsl.lsp.hover import target_label
from gamedsl.lsp.index import Index, Target, builtin
from gamedsl.lsp.reference import builtin_doc
from gamedsl.pygments_lexer import CONSTANTS, KEYWORDS, WORD_OPERATORS
from gamedsl.syntax import ast as A


@attrs.frozen
class Item:
    label: str
    what: str  # a Target's what, or "keyword"
    detail: str = ""
    doc: str = ""


_ATTRIBUTE = re.compile(r"(\w+)\s*\.\s*(\w*)$")


def complete(index: Optional[Index], fallback: Optional[Index], file: str, line: int, before: str) -> List[Item]:
    """The items for a cursor on 1-based `line`, `before` being the text left of it. `index`
    is the file as it is now (perhaps without the declaration being typed, which does not
    parse yet), `fallback` the last index of a file that parsed whole."""
    indexes = [i for i in (index, fallback) if i is not None]
    if not indexes:
        return _keywords() + _builtins()
    here = next((i for i in indexes if i.declaration_at(file, line) is not None), indexes[-1])
    m = _ATTRIBUTE.search(before)
    if m:
        return _members(here, indexes[0], file, line, m.group(1))
    if before.lstrip().startswith("#"):
        return []
    items: Dict[str, Item] = {}
    for t in here.locals_at(file, line)[::-1]:  # the innermost first
        items.setdefault(t.name, Item(t.name, t.what, target_label(t)))
    decl = here.declaration_at(file, line)
    if isinstance(decl, A.KindDecl):  # a kind's own attributes, written bare inside it
        for name, t in here.members.get(decl.name, {}).items():
            items.setdefault(name, Item(name, t.what, target_label(t)))
    # the file now first; then the last whole one's, for the names a half-typed bracket hides
    for i in indexes:
        for source in (i.globals, i.words):
            for name, t in source.items():
                items.setdefault(name, Item(name, t.what, target_label(t)))
    for item in _builtins() + _keywords():
        items.setdefault(item.label, item)
    return list(items.values())


def _members(here: Index, index: Index, file: str, line: int, obj: str) -> List[Item]:
    target = next((t for t in here.locals_at(file, line)[::-1] if t.name == obj), None)
    if target is None:
        target = index.globals.get(obj) or builtin(obj)
    if target is not None and target.what in ("zone", "player zone", "table", "kind"):
        return []  # a zone is a list, a table is asked with rows(T) or T[key]: no attributes
    t = _type_of(target, index)
    player = [g for g in index.globals.values() if g.what in ("player var", "player zone")]
    members: List[Target] = []
    if t == T.PLAYER:
        members = player
    elif t is not None and T.kinds_of(t):
        for k in sorted(T.kinds_of(t)):
            members += list(index.members.get(k, {}).values())
    elif isinstance(t, T.Row):
        members = list(index.columns.get(t.table, {}).values())
    else:  # not known: anything that may follow a dot
        members = player + [m for ms in index.members.values() for m in ms.values()]
    out: Dict[str, Item] = {}
    for m in members:
        out.setdefault(m.name, Item(m.name, m.what, target_label(m)))
    return list(out.values())


def _type_of(target: Optional[Target], index: Index):
    """A value's type, from the checker or as written (a parameter's `p: player`)."""
    if target is None or target.type is None:
        return None
    if isinstance(target.type, str):
        if target.type == "player":
            return T.PLAYER
        return T.kind(target.type) if target.type in index.members else None
    return T.unwrap(target.type)


def _builtins() -> List[Item]:
    out = []
    for name in list(BUILTIN_NAMES) + list(BUILTINS):
        doc = builtin_doc(name)
        what = "built-in name" if name in BUILTIN_NAMES else "built-in function"
        out.append(Item(name, what, doc.usage if doc else what, doc.text if doc else ""))
    return out


def _keywords() -> List[Item]:
    return [Item(k, "keyword") for k in sorted(set(KEYWORDS) | set(WORD_OPERATORS) | set(CONSTANTS))]
