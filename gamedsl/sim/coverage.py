"""Rule coverage for simulations: which phases, choices, statements, components and table rows fired.

`Coverage(game)` instruments one loaded game's machine in place — its statement handlers,
phase entry, alternative entry and component moves — and the row matchers of its keyed
tables, counting into plain dicts kept outside the game state. Nothing is instrumented until
a Coverage is made, so ordinary play pays nothing; a simulation worker makes one per process.

`counts()` is plain data (merged across workers with `merge`); `never_fired(game, counts)`
lists what never happened in a whole run, for the designer's report.
"""

from __future__ import annotations

from collections import Counter
from typing import Dict

from gamedsl.runtime.program import CHOICES

_COUNTED = ("stmts", "alts", "phases", "comps", "rows")


class Coverage:
    def __init__(self, game):
        self.game = game
        self.stmts: Counter = Counter()   # statement id -> times run
        self.alts: Counter = Counter()    # "statement id:alternative" -> times chosen
        self.phases: Counter = Counter()  # phase index -> times entered
        self.comps: Counter = Counter()   # component id -> times moved during play or chosen
        self.rows: Counter = Counter()    # "table:row index" -> times looked up
        self._instrument()

    def _instrument(self) -> None:
        machine, program = self.game.machine, self.game.program
        stmts = self.stmts
        machine.interpret_only()  # (generated code would run statements past the handlers)

        def counted(handler):
            def run(state, ctx, s):
                stmts[s.sid] += 1
                handler(state, ctx, s)
            return run

        machine.handlers = {kind: counted(h) for kind, h in machine.handlers.items()}

        enter_phase = machine._enter_phase

        def entering(state, index):
            if index < len(program.phases):
                self.phases[index] += 1
            enter_phase(state, index)

        machine._enter_phase = entering

        owner_of = {}
        for st in program.stmts:
            if isinstance(st, CHOICES):
                owner_of[id(st.alts)] = st.sid
        enter_alt = machine.enter_alternative

        def choosing(state, alts, move):
            self.alts[f"{owner_of.get(id(alts), -1)}:{move['alt']}"] += 1
            alt = next((a for a in alts if a.name == move["alt"]), None)
            if alt is not None:
                for param, value in zip(alt.params, move["args"]):
                    if param.kind == "component" and isinstance(value, int):
                        self.comps[value] += 1
            enter_alt(state, alts, move)

        machine.enter_alternative = choosing

        put = machine._put

        def putting(state, comp, *rest):
            if state["flow"]["stage"] not in ("new", "setup"):
                self.comps[comp] += 1
            put(state, comp, *rest)

        machine._put = putting

        for table in program.tables.values():
            if table.key is None:
                continue
            table.matchers = [self._row_matcher(table.name, i, m) for i, m in enumerate(table.matchers)]

    def _row_matcher(self, name: str, index: int, match):
        rows, key = self.rows, f"{name}:{index}"

        def matched(k):
            hit = match(k)
            if hit:
                rows[key] += 1
            return hit
        return matched

    def counts(self) -> dict:
        return {name: {str(k): v for k, v in getattr(self, name).items()} for name in _COUNTED}

    def reset(self) -> None:
        for name in _COUNTED:
            getattr(self, name).clear()


def merge(total: dict, part: dict) -> dict:
    """Add one worker's counts into a running total (both plain dicts)."""
    for name in _COUNTED:
        into = total.setdefault(name, {})
        for k, v in part.get(name, {}).items():
            into[k] = into.get(k, 0) + v
    return total


# ---------------------------------------------------------------- what never fired


def _where(span) -> str:
    return f"{span.file}:{span.line}"


def never_fired(game, counts: dict, players: int, options: dict) -> Dict[str, list]:
    """Phases, choices, statements, components and table rows a run never used.

    Statements are reported once per run of consecutive unrun statements in a block, and not
    inside a statement that itself never ran or an alternative never chosen, so one dead branch
    is one line of the report.
    """
    program = game.program
    stmts = counts.get("stmts", {})
    alts = counts.get("alts", {})
    out: Dict[str, list] = {"phases": [], "choices": [], "rules": [], "components": [], "table_rows": []}
    for i, phase in enumerate(program.phases):
        if not counts.get("phases", {}).get(str(i)):
            out["phases"].append({"phase": phase.name, "at": _where(phase.span)})
    inside_dead = set()
    for st in program.stmts:
        if not stmts.get(str(st.sid)):
            inside_dead.update(st.nested_blocks())
        elif isinstance(st, CHOICES):  # an alternative never chosen is reported as a choice
            inside_dead.update(a.body for a in st.alts if not alts.get(f"{st.sid}:{a.name}"))
            if not st.secret and st.timeout is not None:
                inside_dead.add(st.timeout)  # bots never let time run out: `on timeout` is not news
    # A block inside a dead statement is dead with it; so are blocks nested in those.
    changed = True
    while changed:
        changed = False
        for b in list(inside_dead):
            for st in program.blocks[b]:
                for inner in st.nested_blocks():
                    if inner not in inside_dead:
                        inside_dead.add(inner)
                        changed = True
    for b, block in enumerate(program.blocks):
        if b in inside_dead:
            continue
        run = []
        for st in list(block) + [None]:
            if st is not None and not stmts.get(str(st.sid)):
                run.append(st)
                continue
            if run:
                out["rules"].append({"at": _where(run[0].span), "statement": run[0].keyword,
                                     "statements": len(run), "text": _source_line(game, run[0].span)})
                run = []
    for st in program.stmts:
        if not isinstance(st, CHOICES) or not stmts.get(str(st.sid)):
            continue  # a choice never reached is reported as a rule
        for alt in st.alts:
            if not alts.get(f"{st.sid}:{alt.name}"):
                out["choices"].append({"alternative": alt.name, "at": _where(alt.span)})
    cat = program.catalogue(players, options)
    moved = counts.get("comps", {})
    by_show: Dict[tuple, list] = {}
    for cid, kind in enumerate(cat.kind):
        by_show.setdefault((kind, cat.show[cid]), []).append(cid)
    for (kind, show), ids in by_show.items():
        if not any(moved.get(str(c)) for c in ids):
            out["components"].append({"kind": kind, "component": show, "copies": len(ids)})
    rows = counts.get("rows", {})
    for name, table in program.tables.items():
        if table.key is None:
            continue
        for i, row in enumerate(table.rows):
            if not rows.get(f"{name}:{i}"):
                out["table_rows"].append({"table": name, "row": i + 1,
                                          table.key: row.get(table.key), "values": _plain_row(row)})
    return out


def _plain_row(row: dict) -> dict:
    return {k: v for k, v in row.items() if isinstance(v, (int, float, str, bool)) or v is None}


def _source_line(game, span) -> str:
    text = game.sources.get(span.file) if isinstance(game.sources, dict) else None
    if text is None:
        try:
            with open(span.file, encoding="utf-8") as f:
                text = f.read()
        except OSError:
            return ""
    lines = text.splitlines()
    return lines[span.line - 1].strip() if 0 < span.line <= len(lines) else ""
