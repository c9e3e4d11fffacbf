"""Rule coverage for simulations: which phases, choices, statements, components and table rows fired.

`Coverage(game)` observes one loaded game (`Game.observe`): the statements run, the phases
entered, the alternatives taken, the components moved and the rows of keyed tables looked
up, counted into plain dicts kept outside the game state. A simulation worker makes one per
process and looks away while a bot decides, so a search's tries are not counted as what the
games did; ordinary play has no observer.

`counts()` is plain data (merged across workers with `merge`); `never_fired(game, counts)`
lists what never happened in a whole run, for the designer's report.
"""

from __future__ import annotations

from collections import Counter
from contextlib import contextmanager
from typing import Dict

from gamedsl.runtime.observer import Observer
from gamedsl.runtime.program import CHOICES

_COUNTED = ("stmts", "alts", "phases", "comps", "rows")


class Coverage(Observer):
    def __init__(self, game):
        self.game = game
        self._stmts: Counter = Counter()  # statement id -> times run
        self.alts: Counter = Counter()    # "statement id:alternative" -> times chosen
        self.phases: Counter = Counter()  # phase index -> times entered
        self._comps: Counter = Counter()  # component id -> times moved during play or chosen
        self.rows: Counter = Counter()    # "table:row index" -> times looked up
        # The two events told most often (every statement run, every component moved) are
        # noted by a list's own append, with no Python call, and counted when asked for.
        self._ran: list = []
        self._moved: list = []
        self.statement = self._ran.append
        self.component_moved = self._moved.append
        game.observe(self)

    @property
    def stmts(self) -> Counter:
        return _folded(self._stmts, self._ran)

    @property
    def comps(self) -> Counter:
        return _folded(self._comps, self._moved)

    @contextmanager
    def looking_away(self):
        """Count nothing while this runs (a bot searching on copies of the game's state)."""
        self.game.observe(None)
        try:
            yield
        finally:
            self.game.observe(self)

    def phase(self, index: int) -> None:
        self.phases[index] += 1

    def alternative(self, choice: int, name: str, components: list) -> None:
        self.alts[f"{choice}:{name}"] += 1
        comps = self.comps  # (the components moved before, counted first, in order)
        for comp in components:
            comps[comp] += 1

    def table_row(self, table: str, index: int) -> None:
        self.rows[f"{table}:{index}"] += 1

    def counts(self) -> dict:
        return {name: {str(k): v for k, v in getattr(self, name).items()} for name in _COUNTED}

    def reset(self) -> None:
        for name in _COUNTED:
            getattr(self, name).clear()


def _folded(counts: Counter, noted: list) -> Counter:
    """`counts` with the events `noted` since added in (and no longer noted)."""
    if noted:
        counts.update(noted)
        noted.clear()
    return counts


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
