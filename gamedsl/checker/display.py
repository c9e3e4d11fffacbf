"""The `display` declaration: what a player sees. It names things the game declares (vars,
zones, component states, public facts) and its header is a text; no rule reads it."""

from __future__ import annotations

from typing import List

from gamedsl.syntax import ast as A
from gamedsl.checker import types as T
from gamedsl.checker.exprs import expect_type
from gamedsl.checker.scope import Env, Globals
from gamedsl.diagnostics import Diagnostic, did_you_mean

# Which declared things each display line may name: a line puts them in one place.
_PLACES = {
    "hide": ("var", "player var", "zone", "player zone", "state"),
    "table": ("var", "zone"),
    "mat": ("player var", "player zone", "public"),
    "reveal": ("zone", "player zone"),
}
_SAID = {"var": "a variable", "player var": "a player variable", "zone": "a shared zone",
         "player zone": "a player zone", "state": "a component state", "public": "a public fact"}


def _declared(g: Globals) -> dict:
    """Each name a display line may name, with what it is."""
    out = {}
    for kind in g.kinds.values():
        for m in kind.members.values():
            if m.what == "state":
                out.setdefault(m.name, "state")
    for d in g.of(A.PublicDecl):
        out[d.name] = "public"
    for name, sym in g.symbols.items():
        if sym.what in ("var", "player var", "zone", "player zone"):
            out[name] = sym.what
    return out


def check_display(g: Globals) -> List[Diagnostic]:
    diags: List[Diagnostic] = []
    decls = g.of(A.DisplayDecl)
    if not decls:
        return diags
    for extra in decls[1:]:
        diags.append(Diagnostic("E301", f"a second 'display' (the first is at line {decls[0].span.line})",
                                extra.span, "put every display line in one block"))
    d = decls[0]
    known = _declared(g)
    if d.header is not None:
        expect_type(d.header, Env(g, diags, pure="in a display 'header'"), T.TEXT, "a display header")
    for word, entries in (("hide", d.hidden), ("table", d.table), ("mat", d.mat), ("reveal", d.reveal)):
        allowed = _PLACES[word]
        seen = set()
        for e in entries:
            what = known.get(e.name)
            if what is None:
                near = did_you_mean(e.name, [n for n, w in known.items() if w in allowed])
                diags.append(Diagnostic("E320", f"'{word}' names '{e.name}', which the game does not declare"
                                        + (f" ({near})" if near else ""), e.span))
            elif what not in allowed:
                places = ", ".join(_SAID[a] for a in allowed)
                diags.append(Diagnostic("E320", f"'{word}' cannot name '{e.name}': it is {_SAID[what]} "
                                        f"('{word}' names {places})", e.span))
            elif e.name in seen:
                diags.append(Diagnostic("E320", f"'{word}' names '{e.name}' twice", e.span))
            elif word == "reveal" and g.zones.get(e.name) is not None and zone_visibility(g.zones[e.name]) == "public":
                diags.append(Diagnostic("E320", f"'reveal' names '{e.name}', which every seat sees already",
                                        e.span, "reveal names a hidden, owner or others zone"))
            seen.add(e.name)
    for e in d.table + d.mat:
        if e.states is not None and known.get(e.name) not in ("zone", "player zone", None):
            diags.append(Diagnostic("E320", f"'{e.name}' is not a zone: only a zone's entry names the "
                                    "states shown in it", e.span))
        for st in e.states or ():
            if known.get(st.name) != "state":
                diags.append(Diagnostic("E320", f"'{st.name}' is not a component state", st.span))
    hidden = {e.name for e in d.hidden}
    for e in d.table + d.mat:
        if e.name in hidden:
            diags.append(Diagnostic("E320", f"'{e.name}' is hidden and shown", e.span,
                                    "a hidden name is never shown: drop it from 'hide' or from this line"))
    return diags


def zone_visibility(z: A.ZoneDecl) -> str:
    """The zone's declared visibility word: public (by default), hidden, owner or others."""
    words = [f.word for f in z.flags if f.word in ("public", "hidden", "owner", "others")]
    return words[0] if words else "public"
