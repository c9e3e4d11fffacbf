"""What an expression yields, for writing it to a person: a player, a component, a cell or a
plain value — from the checker's types where it inferred one, else from the expression's shape.
"""

from __future__ import annotations

from typing import Dict, Optional

from gamedsl.checker import types as T
from gamedsl.runtime import builtins as B
from gamedsl.syntax import ast as A


def named_constant(fn_decl):
    """The literal a def without parameters stands for (`def balance_value() = 7.5`), or
    None: such a def is read as its value, with no call (and no work charged for one)."""
    if not fn_decl.params and isinstance(fn_decl.body, (A.Number, A.Text, A.Bool)):
        return fn_decl.body
    return None


def is_enum(t) -> bool:

    return isinstance(t, T.Enum)


def enum_order(decls, t) -> Optional[dict]:
    """{word: place} when `t` is an enum's (or an option's words') type, or a list of them:
    its values compare and sort in the order declared, not as texts. None otherwise."""
    t = T.unwrap(t)
    if isinstance(t, T.List):
        t = T.unwrap(t.item)
    return decls.orders.get(t.name) if isinstance(t, T.Enum) else None


def kind_of_type(t) -> Optional[str]:
    """'player', 'component', 'cell' or 'value' for a checker type; None if unknown."""

    while isinstance(t, (T.List, T.Optional)):
        t = t.item if isinstance(t, T.List) else t.inner
    if t == T.PLAYER:
        return "player"
    if isinstance(t, (T.Kind, T.Zone)):
        return "component"
    if t == T.CELL:
        return "cell"
    if t is None or t == T.ANY:
        return None
    return "value"


def value_kind(e, decls, scope_kinds: Optional[Dict[str, str]] = None, _seen: frozenset = frozenset()) -> str:
    """What an expression yields, for writing it: 'player', 'component', 'cell' or 'value'.

    Used to render a choice's parameters ("play K", "give to P2"): the checker's
    types when it inferred one, else what the expression's shape says.
    """
    known = kind_of_type(decls.types.get(e)) if decls.types else None
    if known is not None:
        return known
    scope_kinds = scope_kinds or {}
    if isinstance(e, A.Name):
        if e.name in scope_kinds:
            return scope_kinds[e.name]
        if e.name in ("players", "current", "start_player", "in_round"):
            return "player"
        if e.name in decls.shared_zones or e.name in decls.kinds:
            return "component"
        if e.name in decls.global_vars:
            return decls.var_kinds.get(e.name, "value")
        return "value"
    if isinstance(e, A.Attribute):
        if e.name in decls.player_zones:
            return "component"
        return decls.var_kinds.get(e.name, "value")
    if isinstance(e, A.Call):
        spec = B.FUNCTIONS.get(e.name)
        if spec is not None and spec.yields:
            if spec.yields == "same" and e.args:
                return value_kind(e.args[0], decls, scope_kinds, _seen)
            return spec.yields
        if e.name in decls.defs and e.name not in _seen:
            return value_kind(decls.defs[e.name].body, decls, {}, _seen | {e.name})
        return "value"
    if isinstance(e, A.Index) and isinstance(e.obj, (A.Name, A.Attribute)) and e.obj.name in decls.families:
        return "component"  # one zone of a family
    if isinstance(e, A.Index):  # an item is what its list holds (a zone's: a component)
        return value_kind(e.obj, decls, scope_kinds, _seen)
    if isinstance(e, A.TupleExpr):
        return "cell"
    if isinstance(e, A.ListExpr):
        return value_kind(e.items[0], decls, scope_kinds, _seen) if e.items else "value"
    if isinstance(e, A.Comprehension):
        inner = dict(scope_kinds)
        inner[e.var] = value_kind(e.source, decls, scope_kinds, _seen)
        return value_kind(e.element, decls, inner, _seen)
    if isinstance(e, A.Sort):
        return value_kind(e.source, decls, scope_kinds, _seen)
    if isinstance(e, A.Conditional):
        return value_kind(e.then, decls, scope_kinds, _seen)
    if isinstance(e, A.BinOp) and e.op == "+":
        return value_kind(e.left, decls, scope_kinds, _seen)
    return "value"
