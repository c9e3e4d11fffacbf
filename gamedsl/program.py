"""Program: a compiled game — its declarations as tables, its rules as numbered blocks.

A Program is immutable once built and holds no game state; the component
catalogue (which depends on the player count and options) is built on demand
and cached.
"""

from __future__ import annotations

from typing import Callable, Dict, List, Optional, Tuple

import attrs

from .builtins import plain
from .compiler import Catalogue, Decls, KindInfo, OptionSpec, Phase, Stmt, Table, VarInfo, ZoneInfo
from .errors import RuleError
from .exprs import Ctx


@attrs.define(eq=False)
class Program:
    title: str
    min_players: int
    max_players: int
    options: Dict[str, OptionSpec]
    decls: Decls
    tables: Dict[str, Table]
    kinds: Dict[str, KindInfo]
    zones: Dict[str, ZoneInfo]
    global_vars: List[VarInfo]
    player_vars: List[VarInfo]
    blocks: List[tuple]
    stmts: List[Stmt]
    procs: Dict[str, tuple]
    setup: Optional[int]
    phases: List[Phase]
    score: Optional[Tuple[str, Callable]]
    tiebreak: Optional[Tuple[str, list]]
    results: list
    publics: list
    heuristic: Optional[Tuple[str, Callable]] = None   # `heuristic of p:` (bots), else None
    _catalogues: dict = attrs.Factory(dict)
    _last_catalogue: Optional[tuple] = None
    compiler: object = None

    def grid_size(self, zone: str):
        return self.zones[zone].size

    def phase_index(self, name: str) -> int:
        for i, ph in enumerate(self.phases):
            if ph.name == name:
                return i
        raise RuleError("E403", f"unknown phase '{name}'")

    # ------------------------------------------------------------ components
    def catalogue(self, n: int, options: dict) -> Catalogue:
        # Asked on every expression context: the last answer is kept aside, so the common case
        # (the same player count and options again) costs one dict comparison, not a sorted key.
        last = self._last_catalogue
        if last is not None and last[0] == n and last[1] == options:
            return last[2]
        key = (n, tuple(sorted(options.items())))
        cat = self._catalogues.get(key)
        if cat is None:
            cat = self._catalogues[key] = self._build_catalogue(n, options)
        self._last_catalogue = (n, dict(options), cat)
        return cat

    def _build_catalogue(self, n: int, options: dict) -> Catalogue:
        cat = Catalogue([], [], [], {})
        state = {"n": n, "options": options, "flow": {"current": 0, "start": 0, "round": 1},
                 "vars": {}, "pvars": {}, "zones": {}, "cstate": {}, "where": []}
        ctx = Ctx(self, state, {}, cat, pure=True)
        for kind in self.kinds.values():
            cat.by_kind[kind.name] = []
            rows = [dict(r) for r in kind.table.rows] if kind.table else [{}]
            owners = range(n) if kind.per_player else [None]
            for owner in owners:
                for row in rows:
                    base = dict(row)
                    if owner is not None:
                        base["owner"] = owner
                    ctx.env = base
                    copies = kind.copies(ctx) if kind.copies else 1
                    for name, fn in kind.attrs:
                        base[name] = fn(ctx)
                    if not isinstance(copies, int) or isinstance(copies, bool) or copies < 0 or copies > 100_000:
                        raise RuleError("E507", f"kind '{kind.name}': copies must be a whole number "
                                        f"from 0 to 100000, not {plain(copies)}")
                    for _ in range(copies):
                        cid = len(cat.kind)
                        cat.kind.append(kind.name)
                        cat.attrs.append(base)
                        cat.by_kind[kind.name].append(cid)
                        cat.show.append(None)
                        cat.faces.append([base.get(f) for f in kind.faces] if kind.faces else None)
        for cid, kind_name in enumerate(cat.kind):
            kind = self.kinds[kind_name]
            if kind.show is not None:
                ctx.env = cat.attrs[cid]
                cat.show[cid] = self.write(kind.show(ctx), "value", cat)
            else:
                cat.show[cid] = f"{kind_name}{cid}"
        return cat

    # ------------------------------------------------------------ writing values
    def write(self, v, kind: str, cat: Catalogue) -> str:
        """A value as a person reads it: players as P1.., components by their `show`."""
        if v is None:
            return "none"
        if isinstance(v, list):
            if kind == "cell" and len(v) == 2 and not isinstance(v[0], list):
                return f"{plain(v[0])},{plain(v[1])}"
            return " ".join(self.write(x, kind, cat) for x in v)
        if isinstance(v, bool):
            return plain(v)
        if kind == "player" and isinstance(v, int):
            return f"P{v + 1}"
        if kind == "component" and isinstance(v, int) and 0 <= v < len(cat.show):
            return cat.show[v]
        return plain(v)
