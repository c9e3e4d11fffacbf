"""What a game is, as its clients see it: players, options, zones and who may look into them,
variables, phases and kinds of component — the description a tool reads instead of the
compiled program (OpenSpiel's GameType/GameInfo play this part there).
"""

from __future__ import annotations

from typing import Optional, Tuple

import attrs


@attrs.frozen
class OptionInfo:
    name: str
    default: object
    words: Tuple[str, ...]           # the words it may be
    ranges: Tuple[Tuple[int, int], ...]  # the ranges of whole numbers it may be (both ends included)

    def accepts(self, value) -> bool:
        if isinstance(value, str):
            return value in self.words
        if isinstance(value, bool):
            return False
        return any(lo <= value <= hi for lo, hi in self.ranges)

    def choices(self) -> str:
        """As a person reads them: "classic | quick | 1..20"."""
        return " | ".join(list(self.words) + [f"{lo}..{hi}" for lo, hi in self.ranges])


@attrs.frozen
class ZoneInfo:
    name: str
    per_player: bool                 # one zone per player, or one shared
    visibility: str                  # "public", "hidden" (nobody looks in), "owner" (its owner only) or "others" (all but its owner)
    kinds: Tuple[str, ...]           # the kinds of component it may hold
    grid: bool = False
    size: Optional[Tuple[int, int]] = None
    sorted_by: Optional[str] = None
    capacity: Optional[int] = None   # `capacity N`: the most it holds (None: no limit)
    family: Optional[str] = None     # one zone of a family (`row[2]` of `row`), else None
    players: Optional[Tuple[int, ...]] = None  # a family's zone: the player counts it exists for (None: all)


@attrs.frozen
class VarInfo:
    name: str
    per_player: bool
    secret: bool                     # another player's value is hidden in views
    kind: str                        # "player", "component", "cell" or "value": how it is written


@attrs.frozen
class GameInfo:
    title: str
    min_players: int
    max_players: int
    options: Tuple[OptionInfo, ...]
    zones: Tuple[ZoneInfo, ...]
    vars: Tuple[VarInfo, ...]
    phases: Tuple[str, ...]
    kinds: Tuple[str, ...]
    names: frozenset                 # the names the game declares that stand alone in a rule (not p.x)
    component_states: Tuple[Tuple[str, str], ...] = ()  # (state, how its value is written), of every kind
    declares_phases: bool = True     # False for a plain `turn:` (run as one phase a player need not be told of)
    display: object = None           # the game's `display:` (what a player is shown; labels, hidden names)

    def players_text(self) -> str:
        """"2 to 4", or "2" when the count is fixed."""
        if self.min_players == self.max_players:
            return f"{self.min_players}"
        return f"{self.min_players} to {self.max_players}"

    def accepts_players(self, n: object) -> bool:
        return isinstance(n, int) and not isinstance(n, bool) and self.min_players <= n <= self.max_players

    def zone(self, name: str) -> ZoneInfo:
        return next(z for z in self.zones if z.name == name)

    def var(self, name: str) -> VarInfo:
        return next(v for v in self.vars if v.name == name)


def describe(program) -> GameInfo:
    """The description of a compiled program."""
    return GameInfo(
        title=program.title,
        min_players=program.min_players,
        max_players=program.max_players,
        options=tuple(program.options.values()),
        zones=tuple(ZoneInfo(z.name, z.per_player, z.visibility, tuple(z.kinds), z.grid,
                             tuple(z.size) if z.size else None, z.sorted_by, z.capacity, z.family,
                             tuple(sorted(z.players)) if z.players is not None else None)
                    for z in program.zones.values()),
        vars=tuple([VarInfo(v.name, False, False, v.kind) for v in program.global_vars]
                   + [VarInfo(v.name, True, v.secret, v.kind) for v in program.player_vars]),
        phases=tuple(p.name for p in program.phases),
        kinds=tuple(program.kinds),
        names=frozenset(_declared_names(program.decls)),
        component_states=tuple(sorted(program.decls.state_kinds.items())),
        declares_phases=not _only_a_turn(program.phases),
        display=program.display,
    )


def _only_a_turn(phases) -> bool:
    return (len(phases) == 1 and phases[0].name == "main" and phases[0].begin is None
            and phases[0].end_when is None and phases[0].then is None)


def _declared_names(d) -> set:
    return (d.global_vars | d.shared_zones | d.kinds | d.options | d.words
            | set(d.tables) | set(d.defs) | set(d.procs))
