"""What a seat at the terminal sees: the game's table as its `display:` declares it.

A screen is drawn from `game.view(state, seat)` only (never the state): the header line
(the game's declared header, or the round and phase when it has none), whose turn it is and
who is being waited for, the table (shared zones and variables), each player's mat (their
variables, public facts and zones), and what happened since this seat last looked, as that
seat was told it. Bookkeeping the game hides (`display: hide ...`) is never drawn. What
changed since the seat's last screen is marked: a new component with "(new)" (on a grid, in
reverse video), a number with its change (`coins 5 (+2)`).
"""

from __future__ import annotations

from typing import Dict, List, Optional

from rich import box
from rich.console import Console
from rich.padding import Padding
from rich.table import Table
from rich.text import Text

from gamedsl.runtime.values import plain

NEW = " (new)"  # marks a component that was not there at this seat's last screen


def fmt(v) -> str:
    if isinstance(v, float) and not v.is_integer():
        return f"{v:g}"
    return plain(v)


def write(v, kind: str, shows: dict) -> str:
    """A value as a person reads it: players as P2, components by their `show`, lists spaced."""
    if isinstance(v, list):
        return " ".join(write(x, kind, shows) for x in v) if v else "-"
    if v is None:
        return "-"
    if kind == "player" and isinstance(v, int) and not isinstance(v, bool):
        return f"P{v + 1}"
    if kind == "component" and isinstance(v, int) and not isinstance(v, bool):
        return shows.get(str(v), "?")
    return fmt(v)


def _cell(v, kind: str, shows: dict) -> str:
    """A state in a table cell: a flag as yes or -, anything else as written."""
    if isinstance(v, bool):
        return "yes" if v else "-"
    return write(v, kind, shows)


def grid_table(value: dict, size, shows: dict, faces: Optional[dict], new, empty: str = "(empty)"):
    """A grid zone as a table of cells (x across, y down); the pieces in `new` stand out (a
    piece with faces shows its face on each cell)."""
    coords = []
    for key in value:
        try:
            coords.append(tuple(int(k) for k in str(key).split(",")))
        except ValueError:
            continue
    if size:
        xs, ys = range(size[0]), range(size[1])
    elif coords:
        xs = range(min(c[0] for c in coords), max(c[0] for c in coords) + 1)
        ys = range(min(c[1] for c in coords), max(c[1] for c in coords) + 1)
    else:
        return Text(empty, style="dim")
    table = Table(box=box.SQUARE, show_header=True, show_lines=True, pad_edge=True)
    table.add_column("", style="dim", justify="right")
    for x in xs:
        table.add_column(str(x), justify="center")
    for y in ys:
        row = [str(y)]
        for x in xs:
            key = f"{x},{y}"
            cid = value.get(key)
            if cid is None:
                row.append("·")
                continue
            shown = str((faces or {}).get(key, shows.get(str(cid), str(cid))))
            row.append(Text(shown, style="bold reverse") if cid in new else shown)  # (narrow cells: style only)
        table.add_row(*row)
    return table


class Screen:
    """Draws one seat's screens; remembers what the seat saw last, to mark what changed."""

    def __init__(self, game, console: Console):
        self.game = game
        self.console = console
        self.display = game.info.display
        self.zones = {z.name: z for z in game.info.zones}
        self.var_kinds = {v.name: v.kind for v in game.info.vars}
        self.state_kinds = dict(game.info.component_states)
        self.last: Dict[int, dict] = {}  # seat -> the view of its last screen

    # ------------------------------------------------------------ what is shown, in order
    def shown(self, names, mat: bool) -> List[str]:
        """The names a seat is shown: those the `table` (or `mat`) line lists, in its order, then
        the zones it does not list (a zone is cards on the table: leaving it out of the line
        does not hide it; `hide` does). Without the line, every variable too."""
        hidden = self.display.hidden
        line = self.display.mat if mat else self.display.table
        declared = [n for n, _ in line]
        rest = [n for n in names if n not in declared and n not in hidden
                and (not line or n in self.zones)]
        return [n for n in declared if n in names] + rest

    def label(self, name: str) -> str:
        return self.display.label(name)

    # ------------------------------------------------------------ pieces
    def _states(self, view: dict, cid, only=None) -> List[tuple]:
        """(label, (kind, value)) of each state of a component as the view shows them, bookkeeping left out (and,
        `only` given, the states its zone shows)."""
        hidden = self.display.hidden
        cstate = view.get("cstate", {})
        kinds = self.state_kinds
        if only is not None:  # the zone's own list: its order, its labels
            return [(label, (kinds.get(name, "value"), cstate[name][str(cid)])) for name, label in only
                    if str(cid) in cstate.get(name, {})]
        return [(name, (kinds.get(name, "value"), values[str(cid)])) for name, values in cstate.items()
                if str(cid) in values and name not in hidden]

    def _component(self, view: dict, cid, new: set, only=None) -> str:
        shows = view.get("shows", {})
        text = shows.get(str(cid), str(cid))
        extra = []
        for name, (kind, v) in self._states(view, cid, only):
            if isinstance(v, bool):
                if v:
                    extra.append(name)
            elif v not in (None, [], ""):
                extra.append(f"{name} {write(v, kind, shows)}")
        if extra:
            text += " (" + ", ".join(extra) + ")"
        return text + (NEW if cid in new else "")

    def _zone(self, view: dict, name: str, value, new: set, faces=None):
        """A zone's contents: a hidden count, a grid, a list, or (components with states that
        vary) a table, a component a row."""
        info = self.zones.get(name)
        if isinstance(value, dict) and set(value) == {"count"}:
            n = value["count"]
            return Text(f"{n} hidden" if n else "empty", style="dim")
        if isinstance(value, dict):
            return grid_table(value, info.size if info is not None else None, view.get("shows", {}), faces, new)
        if not value:
            return Text("empty", style="dim")
        only = self.display.states.get(name)
        states = []
        for c in value:
            states += [n for n, _ in self._states(view, c, only) if n not in states]
        if states and len(value) > 1:
            shows = view.get("shows", {})
            table = Table(box=box.SIMPLE_HEAD, show_header=True, show_edge=False, pad_edge=False,
                          padding=(0, 2, 0, 0))
            table.add_column("", no_wrap=True)
            for s in states:
                table.add_column(s, no_wrap=True)
            for c in value:
                got = dict(self._states(view, c, only))
                table.add_row(shows.get(str(c), str(c)) + (NEW if c in new else ""),
                              *(_cell(got[s][1], got[s][0], shows) if s in got else ""
                                for s in states))
            return Padding(table, (0, 0, 0, 4), expand=False)
        return Text("  ".join(self._component(view, c, new, only) for c in value))

    def _value(self, name: str, v, old, kind: str, shows: dict) -> str:
        text = write(v, kind, shows)
        if (isinstance(v, (int, float)) and isinstance(old, (int, float)) and not isinstance(v, bool)
                and not isinstance(old, bool) and v != old):
            d = v - old
            text += f" ({'+' if d > 0 else ''}{fmt(d)})"
        return text

    def _line(self, head: str, body) -> None:
        """A labelled line; a long one wraps under its own start, not under the label."""
        if isinstance(body, (Table, Padding)):
            self.console.print(Text(head, style="cyan"))
            self.console.print(body)
            return
        grid = Table.grid(padding=(0, 1))
        grid.add_column(no_wrap=True)
        grid.add_column()
        grid.add_row(Text(head, style="cyan"), body)
        self.console.print(grid)

    # ------------------------------------------------------------ a screen
    def header(self, view: dict) -> Text:
        line = self.game.title
        if view.get("header"):
            line += " · " + view["header"]
        else:
            line += f" · round {view['round']}"
            if view.get("phase") and self.game.info.declares_phases:
                line += f", phase {view['phase']}"
        return Text(line, style="bold")

    def turn_line(self, view: dict) -> Text:
        seat = view["seat"]

        def who(s):
            return f"P{s + 1}" + (" (you)" if s == seat else "")
        if view["over"]:
            return Text("The game is over.", style="bold")
        waiting = view.get("waiting_for", [])
        line = f"Turn of {who(view['current'])}"
        if waiting and waiting != [view["current"]]:
            line += "; waiting for " + ", ".join(who(s) for s in waiting)
        elif waiting == [seat]:
            line += ": your move"
        return Text(line, style="bold green" if seat in waiting else "bold")

    def draw(self, view: dict, log: List[tuple] = ()) -> None:
        """One seat's screen: header, whose turn, the table, each player's mat, what happened."""
        seat = view["seat"]
        before = self.last.get(seat)
        new = self._new(before, view)
        shows = view.get("shows", {})
        self.console.print(self.header(view))
        self.console.print(self.turn_line(view))
        # the table: shared zones and variables
        shared = [n for n, z in self.zones.items() if not z.per_player]
        on_table = self.shown(shared + list(view.get("vars", {})), mat=False)
        if on_table:
            self.console.print(Text("On the table", style="bold underline"))
        for name in on_table:
            if name in view["zones"]:
                self._line(f"  {self.label(name)}:", self._zone(view, name, view["zones"][name], new,
                                                                view.get("faces", {}).get(name)))
            elif name in view.get("vars", {}):
                old = (before or {}).get("vars", {}).get(name)
                self._line(f"  {self.label(name)}:", Text(self._value(name, view["vars"][name], old,
                                                                      self.var_kinds.get(name, "value"), shows)))
        # each player's mat
        pzones = [n for n, z in self.zones.items() if z.per_player]
        scalars = dict(view.get("pvars", {}))
        scalars.update(view.get("public") or {})
        names = self.shown(list(scalars) + pzones, mat=True)
        order = [seat] + [s for s in range(view["players"]) if s != seat]
        for s in order:
            mark = " (you)" if s == seat else ""
            turn = "  ◀ to move" if s in view.get("waiting_for", []) else ""
            if s in view.get("out", ()) and not view["over"]:
                turn += "  (out of the round)"
            facts = []
            for name in names:
                if name in scalars:
                    old = (before or {}).get("pvars", {}).get(name) or (before or {}).get("public", {}).get(name)
                    facts.append(f"{self.label(name)} " + self._value(name, scalars[name][s], old[s] if old else None,
                                                                      self.var_kinds.get(name, "value"), shows))
            self.console.print(Text(f"P{s + 1}{mark}", style="bold") + Text(("  " + " · ".join(facts)) if facts else "")
                               + Text(turn, style="green"))
            for name in names:
                if name in view["zones"]:
                    self._line(f"    {self.label(name)}:", self._zone(view, name, view["zones"][name][s], new))
        if new:
            got = self._got(before, view, new)
            if got:
                self.console.print(Text("You got: " + ", ".join(got), style="bold yellow"))
        if log:
            self.console.print(Text("What happened", style="bold underline"))
            for line, style in log:
                self.console.print(Text(line, style=style))
        self.last[seat] = view

    def _new(self, before: Optional[dict], view: dict) -> set:
        """The components in a zone now that were not in it at the seat's last screen."""
        if before is None:
            return set()
        out = set()
        for name, value in view["zones"].items():
            was = before["zones"].get(name)
            info = self.zones[name]
            pairs = list(zip(value, was)) if info.per_player else [(value, was)]
            for now, then in pairs:
                if not (isinstance(then, dict) and set(then) == {"count"}):  # (a hand laid open is not new)
                    out |= _ids(now) - _ids(then)
        return out

    def _got(self, before, view, new) -> List[str]:
        """The new components in this seat's own zones (a card drawn, a card passed to it)."""
        seat = view["seat"]
        out, had = [], set()
        for name, info in self.zones.items():
            if info.per_player and name in before["zones"]:
                had |= _ids(before["zones"][name][seat])
        for name, info in self.zones.items():
            if info.per_player and name not in self.display.hidden and name in view["zones"]:
                value = view["zones"][name][seat]
                if isinstance(value, list):  # (a card moved between one's own zones is not new)
                    out += [view["shows"].get(str(c), str(c)) for c in value if c in new and c not in had]
        return out


def _ids(value) -> set:
    if isinstance(value, list):
        return set(value)
    if isinstance(value, dict) and set(value) != {"count"}:
        return set(value.values())
    return set()


def _best(scores: list, lowest: bool = False):
    """The best of the scores: the lowest where the lowest score wins."""
    return (min if lowest else max)(scores) if scores else None


def _equal_top(result: dict, lowest: bool = False) -> bool:
    """Whether the best score is shared: the tie-break decided who won."""
    scores = result["scores"]
    best = _best(scores, lowest)
    return sum(1 for v in scores if v == best) > 1


def tie_note(result: dict, tiebreaks: List[list], lowest: bool = False) -> Optional[str]:
    """How the tie-break decided equal top scores, in a sentence; None if it did not."""
    if not _equal_top(result, lowest) or not any(tiebreaks):
        return None
    best = _best(result["scores"], lowest)
    tied = [s for s, v in enumerate(result["scores"]) if v == best]
    values = ", ".join(f"P{s + 1} {' '.join(fmt(v) for v in tiebreaks[s])}" for s in tied)
    return f"{' and '.join(f'P{s + 1}' for s in tied)} tie on {fmt(best)}: the tie-break decides ({values})."


def make_console(out, width: Optional[int] = None) -> Console:
    """A console for the screens: a terminal's width, or 100 columns written to a file."""
    tty = hasattr(out, "isatty") and out.isatty()
    return Console(file=out, highlight=False, markup=False, emoji=False, soft_wrap=False,
                   width=width or (None if tty else 100))
