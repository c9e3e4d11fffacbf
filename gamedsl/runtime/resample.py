"""Sampling a full game state consistent with what one seat sees (for bots that search).

`determinize(machine, state, seat, rng)` returns a copy of `state` in which everything the
seat cannot see is redrawn from the bot's own generator, from the declared visibility
alone — no per-game code:

  * the components the seat cannot see (in `hidden` zones, in other players' `owner`
    zones, and in no zone at all) are dealt at random into the places they could be:
    every such zone keeps its count, a component only goes where one of its kind was,
    `sorted by` zones are sorted again;
  * declared `public` facts must keep their values, seat by seat: where a seat's facts differ
    from the real ones, the hidden places they read (as recorded while they are evaluated on
    the sample: gamedsl/runtime/readmemo.py) are dealt again from their own components, those
    of the places no fact reads and those in no zone, up to `tries` deals for that seat; a
    seat whose facts read a place so dealt is looked at again, and one that still differs
    keeps the last deal. A redeal draws only the seat's places: a component it takes from
    elsewhere changes places with one the seat gave up, so the rest stays in a random order;
  * other seats' `secret` player vars are redrawn (their own value or the declared start
    value, the values the seat can know), and their not-yet-revealed secret choices
    (`pending["got"]`) are replaced by random legal moves;
  * the state's random generator is reseeded, so future shuffles and draws are unknown.

The sample depends only on the seat's view and `rng`: the set of unseen components is the
complement of the seen ones, they are dealt in a fixed order, and what the facts read is
recorded on the sample, never on the real state, so two states that look the same to the
seat give the same samples. What the seat was shown (`show ... to`, the state's `known`)
stays where it lies: it is part of what the seat sees; what other seats
were shown is dropped from the sample, as the seat's view does not hold it. Limits, all
documented in docs/bots.md: the machine's stack (locals of the rule being run) is kept as
it is, as are component states of unseen components, and a seat remembers nothing it saw
earlier unless it was shown it.
"""

from __future__ import annotations

import random
from typing import Dict, List, Optional, Tuple

from gamedsl.runtime.ctx import Ctx
from gamedsl.runtime.program import zone_seen
from gamedsl.runtime.readmemo import read_parts
from gamedsl.runtime.rng import picks


def unseen_by(machine, zone: str, owner: int, seat: int) -> bool:
    """Whether `seat` sees only how many components lie in this zone (as `Game.view` decides)."""
    return not zone_seen(machine.p.zones[zone].visibility, owner, seat)


def _hidden_places(machine, state: dict, seat: int) -> List[Tuple[str, int, object]]:
    """(zone, owner, container) for every zone the seat cannot look into, in declaration order."""
    out = []
    for name, info in machine.p.zones.items():
        z = state["zones"][name]
        if info.per_player:
            out.extend((name, o, z[o]) for o in range(state["n"]) if unseen_by(machine, name, o, seat))
        elif unseen_by(machine, name, -1, seat):
            out.append((name, -1, z))
    return out


def determinize(machine, state: dict, seat: int, rng: random.Random, tries: int = 50,
                public_facts=None) -> dict:
    """A full state the seat cannot tell from `state`, drawn with `rng` (see the module doc)."""
    return Sampler(machine, state, seat, public_facts).draw(rng, tries)


class Sampler:
    """`determinize` of one state for one seat, sample after sample: what every sample of it
    shares (the places the seat cannot look into and what may fill them, the public facts'
    values) worked out with the first. For a state that does not change while it is used
    (a bot's decision)."""

    def __init__(self, machine, state: dict, seat: int, public_facts=None):
        self.machine, self.state, self.seat = machine, state, seat
        self.public_facts = public_facts
        self.wanted = None  # the public facts' values in `state`, seat by seat
        self.layout = None  # (see _Deal)

    def draw(self, rng: random.Random, tries: int = 50) -> dict:
        """A full state the seat cannot tell from the state, drawn with `rng`."""
        machine, state, seat = self.machine, self.state, self.seat
        sample = machine.clone(state)
        sample["said"] = []
        sample.pop("told", None)
        # What the seat was shown stays where it saw it; what others were shown, it does not know.
        mine = sample.pop("known", {}).get(str(seat), [])
        if mine:
            sample["known"] = {str(seat): mine}
        deal = _Deal(machine, sample, seat, set(mine), self.layout)
        self.layout = deal.layout
        deal.deal_all(rng)
        if machine.p.publics and self.public_facts:
            if self.wanted is None:
                self.wanted = self.public_facts(state)
            deal.match_facts(self.wanted, tries, rng)
        _redraw_secrets(machine, sample, seat, rng)
        sample["rng"] = rng.getrandbits(64)
        return sample


class _SortKeys(dict):
    """component -> where it goes in a sorted zone, worked out the first time it is asked
    (a sample deals the same components again and again)."""

    def __init__(self, zone, attrs):
        super().__init__()
        self.zone, self.attrs = zone, attrs

    def __missing__(self, c):
        key = self[c] = self.zone.sort_value(self.attrs[c])
        return key


class _Layout:
    """What every sample of one state for one seat shares (see _Deal): the places the seat
    cannot look into, by name and owner, their open slots and the kinds that fill them, the
    unseen components by kind; and, once public facts are redrawn, the places' indexes and
    the spots a redeal draws from."""

    def __init__(self, machine, sample: dict, seat: int, fixed: set, cat):
        self.program = machine.p
        places = _hidden_places(machine, sample, seat)
        self.places = [(name, owner) for name, owner, _ in places]
        self.cells: List[list] = []       # per grid: the cells of its open slots, in order
        self.shown: List[dict] = []       # per list zone: index -> a component the seat was shown
        self.kinds: List[List[str]] = []  # per place: the kinds of its open slots, in order
        unseen: Dict[str, List[int]] = {}
        kind_of = cat.kind
        for _, _, z in places:
            shown = {}
            if isinstance(z, dict):
                cells = [k for k in sorted(z) if z[k] not in fixed]
                comps = [z[k] for k in cells]
            else:
                cells = None
                if fixed:
                    shown = {k: c for k, c in enumerate(z) if c in fixed}
                comps = [c for c in z if c not in shown.values()] if shown else z
            kinds = [kind_of[c] for c in comps]
            for kind, c in zip(kinds, comps):
                unseen.setdefault(kind, []).append(c)
            self.cells.append(cells)
            self.shown.append(shown)
            self.kinds.append(kinds)
        for c, w in enumerate(sample["where"]):
            if w is None:
                unseen.setdefault(kind_of[c], []).append(c)
        self.pools = {kind: sorted(ids) for kind, ids in unseen.items()}
        # a zone's name -> its components' places in it when sorted (False: not a sorted zone)
        self.sort_keys: Dict[str, object] = {}
        self.spots = None  # (target, read) -> what `_Deal._spots` gives, once indexed

    def index(self, places) -> None:
        """What a redeal of public facts looks up, from a sample's `places`."""
        program = self.program
        self.every = frozenset(range(len(places)))
        self.open_keys = [cells if cells is not None else [k for k in range(len(z)) if k not in shown]
                          for cells, shown, (_, _, z) in zip(self.cells, self.shown, places)]
        zones = program.zones
        # per place: the keys of its open slots (None: a sorted zone), whether it is a grid
        self.slot_keys = [(None if zones[name].sorted_by is not None and not isinstance(z, dict) else keys,
                           isinstance(z, dict))
                          for (name, _, z), keys in zip(places, self.open_keys)]
        self.per_player = frozenset(name for name, info in zones.items() if info.per_player)
        self.place_of = {(name, owner): i for i, (name, owner, _) in enumerate(places)}
        self.of_zone: Dict[str, frozenset] = {}
        for i, (name, _, _) in enumerate(places):
            self.of_zone[name] = self.of_zone.get(name, frozenset()) | {i}
        self.unseen = frozenset(c for ids in self.pools.values() for c in ids)
        self.spots: Dict[tuple, tuple] = {}
        self.places_read: Dict[tuple, frozenset] = {}  # the parts facts read -> the places among them


class _Deal:
    """The places of a sample the seat cannot look into, and the unseen components dealt into
    them: each place's open slots in a fixed order (a component the seat was shown keeps its
    own), each with the kind of component that may fill it."""

    def __init__(self, machine, sample: dict, seat: int, fixed: set, layout: Optional["_Layout"] = None):
        self.machine, self.sample = machine, sample
        self.cat = machine.catalogue(sample)
        if layout is None:
            layout = _Layout(machine, sample, seat, fixed, self.cat)
        self.layout = layout
        zones = sample["zones"]
        self.places = [(name, owner, zones[name] if owner < 0 else zones[name][owner])
                       for name, owner in layout.places]
        self.cells, self.shown, self.kinds, self.pools = layout.cells, layout.shown, layout.kinds, layout.pools
        self.held: List[List[int]] = [[] for _ in self.places]  # per place: the components now in its open slots
        self.spare: Dict[str, List[int]] = {}  # kind -> the unseen components in no zone
        self.sort_keys = layout.sort_keys
        self.publics = machine.p.publics
        self.ctx = Ctx(machine.p, sample, {}, self.cat, pure=True)  # (the public facts' evaluations')

    def deal_all(self, rng: random.Random) -> None:
        """Every unseen component dealt at random: each kind's in one random order, into the
        slots one after another; what is left lies in no zone."""
        dealt = {kind: iter([ids[j] for j in picks(rng, len(ids), len(ids))]) for kind, ids in self.pools.items()}
        for i, kinds in enumerate(self.kinds):
            self.put(i, [next(dealt[kind]) for kind in kinds])
        self._set_spare({kind: list(rest) for kind, rest in dealt.items()})

    def _set_spare(self, spare: Dict[str, List[int]]) -> None:
        where = self.sample["where"]
        for rest in spare.values():
            for c in rest:
                where[c] = None
        self.spare = spare

    def put(self, i: int, comps: List[int]) -> None:
        """Place i's open slots filled with `comps`, in order (a `sorted by` zone sorted again)."""
        name, owner, z = self.places[i]
        self.held[i] = comps
        where = self.sample["where"]
        if isinstance(z, dict):
            for key, c in zip(self.cells[i], comps):
                z[key] = c
                where[c] = [name, owner, key]
            return
        shown = self.shown[i]
        if shown:
            dealt = iter(comps)
            z[:] = [shown[k] if k in shown else next(dealt) for k in range(len(z))]
        else:
            z[:] = comps
        keys = self.sort_keys.get(name)
        if keys is None:
            zone = self.machine.p.zones[name]
            keys = self.sort_keys[name] = _SortKeys(zone, self.cat.attrs) if zone.sorted_by is not None else False
        if keys is not False:
            z.sort(key=keys.__getitem__)
        for c in z:
            where[c] = [name, owner, None]

    # ------------------------------------------------------------ declared public facts
    def match_facts(self, want: dict, tries: int, rng: random.Random) -> None:
        """Redraw until every seat's public facts have their values in `want`, seat by seat:
        a seat whose facts differ has the places they read redealt (with the places no fact
        reads and the components in no zone), up to `tries` deals in all; a seat whose facts read
        other places too is looked at again (see the module doc)."""
        n = self.sample["n"]
        names = [name for name, _, _, _ in self.machine.p.publics]
        wanted = [[want[name][o] for name in names] for o in range(n)]
        # (most facts read only what the seat sees, and hold at once: what they read is
        # recorded, which costs, only once a seat's facts differ)
        if all(self.facts(o, wanted[o], record=False)[0] for o in range(n)):
            return
        self._index()
        ok, reads = [False] * n, [frozenset()] * n
        for o in range(n):
            ok[o], reads[o] = self.facts(o, wanted[o])
        left = [max(0, tries - 1)] * n  # (the first deal is a try)
        while True:
            bad = next((o for o in range(n) if not ok[o] and left[o] and reads[o]), None)
            if bad is None:
                break
            left[bad] -= 1
            target = reads[bad]
            self.redraw(target, frozenset().union(*reads), rng)
            for o in range(n):
                if o == bad or reads[o] & target:
                    ok[o], reads[o] = self.facts(o, wanted[o])

    def _index(self) -> None:
        layout = self.layout
        if layout.spots is None:
            layout.index(self.places)
        self.every, self.open_keys, self.spots = layout.every, layout.open_keys, layout.spots
        self.per_player, self.place_of, self.of_zone, self.unseen = (
            layout.per_player, layout.place_of, layout.of_zone, layout.unseen)
        # per place, where a component swapped into its open slot k goes: (the container, the
        # zone's name, its owner, the key of each open slot (None: a sorted zone, sorted again
        # instead), whether it is a grid)
        self.slots = [(z, name, owner, keys, grid)
                      for (name, owner, z), (keys, grid) in zip(self.places, layout.slot_keys)]
        self.resort = set()
        self.places_read = layout.places_read

    def facts(self, o: int, wanted: list, record: bool = True):
        """Whether seat o's public facts in the sample, as every view writes them, are
        `wanted` (looked at in order, up to the first that is not), and (with `record`) the
        places the seat cannot look into that the facts looked at read (all of them where
        that is not known)."""
        publics, write, cat = self.publics, self.machine.p.write, self.cat

        def evaluate(read):
            # (each evaluation starts afresh, as a new context would)
            ctx = self.ctx
            ctx.state, ctx.depth, ctx.work, ctx.memo = read, 0, 0, None
            for (_, var, fn, kind), value in zip(publics, wanted):
                ctx.env = {var: o}
                v = fn(ctx)
                if (write(v, kind, cat) if kind in ("player", "component") else v) != value:
                    return False
            return True

        if not record:
            return evaluate(self.sample), None
        try:
            same, parts = read_parts(self.sample, evaluate, self.per_player)
        except Exception:  # noqa: BLE001 - read in a way not followed: every place counts
            return evaluate(self.sample), self.every
        places = self.places_read.get(parts)
        if places is None:
            places = self.places_read[parts] = self._places_read(parts)
        return same, places

    def _places_read(self, parts) -> frozenset:
        out = frozenset()
        for part in parts:
            top = part[0]
            if top == "zones":
                if len(part) == 3:
                    i = self.place_of.get((part[1], part[2]))
                    if i is not None:
                        out |= {i}
                elif len(part) == 2:
                    out |= self.of_zone.get(part[1], frozenset())
                else:
                    return self.every
            elif top == "where" and (len(part) == 1 or part[1] in self.unseen):
                return self.every
        return out

    def redraw(self, target: frozenset, read: frozenset, rng: random.Random) -> None:
        """The places `target` dealt again at random from the components in them, in the
        places not `read` and in no zone; a component taken from a place not read or from no
        zone changes places with one the targets gave up, at random: those places stay in a
        random order, and keep their counts of each kind."""
        targets, spots = self._spots(target, read)
        held, slots = self.held, self.slots
        where = self.sample["where"]
        dealt: Dict[str, list] = {}
        for kind, (mine, at) in spots.items():
            picked = picks(rng, len(at), mine)
            # (a target's own slots come first: a pick past them takes a component from
            # elsewhere, whose spot gets one the targets gave up)
            comps = []
            given_up = None
            for j in picked:
                i, k = at[j]
                if j < mine:
                    comps.append(held[i][k])
                    continue
                if given_up is None:
                    kept = set(picked)
                    given_up = iter([held[i][k] for j, (i, k) in enumerate(at[:mine]) if j not in kept])
                c = next(given_up)
                if i is None:  # (from no zone: the given-up component lies in none)
                    rest = self.spare[kind]
                    comps.append(rest[k])
                    rest[k] = c
                    where[c] = None
                    continue
                held_there = held[i]
                comps.append(held_there[k])
                held_there[k] = c
                z, name, owner, keys, grid = slots[i]
                if keys is None:  # (a sorted zone: sorted again once the targets are dealt)
                    self.resort.add(i)
                    continue
                key = keys[k]
                z[key] = c
                where[c] = [name, owner, key if grid else None]
            dealt[kind] = comps
        if len(targets) == 1 and len(dealt) == 1:  # (one place of one kind: the picks in order)
            (comps,) = dealt.values()
            self.put(targets[0], comps)
        else:
            dealt_in_order = {kind: iter(comps) for kind, comps in dealt.items()}
            for i in targets:
                self.put(i, [next(dealt_in_order[kind]) for kind in self.kinds[i]])
        resort = self.resort
        if resort:
            for i in resort:
                self.put(i, held[i])
            resort.clear()

    def _spots(self, target: frozenset, read: frozenset):
        """The places `target` in order, and per kind they need: how many, and every spot to
        draw from — their open slots first, then those of the places not `read` (place, open
        slot) and no zone's (None, index)."""
        found = self.spots.get((target, read))
        if found is not None:
            return found
        targets = sorted(target)
        free = [i for i in range(len(self.places)) if i not in read]
        at: Dict[str, List[tuple]] = {}
        for i in targets:
            for k, kind in enumerate(self.kinds[i]):
                at.setdefault(kind, []).append((i, k))
        mine = {kind: len(spots) for kind, spots in at.items()}
        for i in free:
            for k, kind in enumerate(self.kinds[i]):
                if kind in mine:
                    at[kind].append((i, k))
        for kind, rest in self.spare.items():
            if kind in mine:
                at[kind].extend((None, k) for k in range(len(rest)))
        found = self.spots[target, read] = (targets, {kind: (mine[kind], spots) for kind, spots in at.items()})
        return found


def _redraw_secrets(machine, sample: dict, seat: int, rng: random.Random) -> None:
    """Other seats' secret vars and unrevealed secret choices, redrawn."""
    program = machine.p
    secret_vars = [v for v in program.player_vars if v.secret]
    if secret_vars:
        ctx = machine.ctx(sample, {}, pure=True)
        for var in secret_vars:
            values = sample["pvars"][var.name]
            known = [values[seat], var.init(ctx)]
            for other in range(sample["n"]):
                if other != seat:
                    values[other] = rng.choice(known)
    pending = sample["pending"]
    if pending and "got" in pending:
        got = pending["got"]
        others = [int(s) for s in sorted(got, key=int) if int(s) != seat]
        for other in others:
            del got[str(other)]
        for other in others:
            moves = machine.moves_for(sample, other)
            if moves:
                got[str(other)] = rng.choice(moves)
