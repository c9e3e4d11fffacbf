"""Sampling a full game state consistent with what one seat sees (for bots that search).

`determinize(machine, state, seat, rng)` returns a copy of `state` in which everything the
seat cannot see is redrawn from the bot's own generator, from the declared visibility
alone — no per-game code:

  * the components the seat cannot see (in `hidden` zones, in other players' `owner`
    zones, and in no zone at all) are dealt at random into the places they could be:
    every such zone keeps its count, a component only goes where one of its kind was,
    `sorted by` zones are sorted again;
  * declared `public` facts must keep their values: a sample whose facts differ from the
    real ones is drawn again (up to `tries` times; then the closest sample is kept);
  * other seats' `secret` player vars are redrawn (their own value or the declared start
    value, the values the seat can know), and their not-yet-revealed secret choices
    (`pending["got"]`) are replaced by random legal moves;
  * the state's random generator is reseeded, so future shuffles and draws are unknown.

The sample depends only on the seat's view and `rng`: the set of unseen components is the
complement of the seen ones, and they are dealt in a fixed order, so two states that look
the same to the seat give the same samples. What the seat was shown (`show ... to`, the
state's `known`) stays where it lies: it is part of what the seat sees; what other seats
were shown is dropped from the sample, as the seat's view does not hold it. Limits, all
documented in docs/bots.md: the machine's stack (locals of the rule being run) is kept as
it is, as are component states of unseen components, and a seat remembers nothing it saw
earlier unless it was shown it.
"""

from __future__ import annotations

import random
from typing import Dict, List, Tuple

from gamedsl.runtime.program import zone_seen
from gamedsl.runtime.state import clone


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
    sample = machine.clone(state)
    sample["said"] = []
    sample.pop("told", None)
    # What the seat was shown stays where it saw it; what others were shown, it does not know.
    mine = sample.pop("known", {}).get(str(seat), [])
    if mine:
        sample["known"] = {str(seat): mine}
    fixed = set(mine)
    cat = machine.catalogue(sample)
    places = _hidden_places(machine, sample, seat)
    nowhere = [c for c, w in enumerate(sample["where"]) if w is None]
    # Slots, in a fixed order, each with the kind of component that may fill it.
    slot_kinds: List[str] = []
    unseen: Dict[str, List[int]] = {}
    for _, _, z in places:
        comps = [z[k] for k in sorted(z)] if isinstance(z, dict) else z
        for c in comps:
            if c in fixed:
                slot_kinds.append(None)
                continue
            slot_kinds.append(cat.kind[c])
            unseen.setdefault(cat.kind[c], []).append(c)
    for c in nowhere:
        unseen.setdefault(cat.kind[c], []).append(c)
    pools = {kind: sorted(ids) for kind, ids in unseen.items()}
    publics = machine.p.publics
    want = public_facts(state) if publics and public_facts else None
    best, best_misses = None, None
    for _ in range(max(1, tries)):
        deal = {kind: rng.sample(ids, len(ids)) for kind, ids in pools.items()}
        _fill(machine, sample, places, slot_kinds, deal, cat)
        if want is None:
            break
        got = public_facts(sample)
        misses = sum(1 for name in want for a, b in zip(want[name], got[name]) if a != b)
        if misses == 0:
            best = None
            break
        if best_misses is None or misses < best_misses:
            best, best_misses = (clone(sample["zones"]), list(sample["where"])), misses
    if best is not None:
        sample["zones"], sample["where"] = best
    _redraw_secrets(machine, sample, seat, rng)
    sample["rng"] = rng.getrandbits(64)
    return sample


def _fill(machine, sample: dict, places, slot_kinds: List[str], deal: Dict[str, List[int]], cat) -> None:
    """Deal the shuffled components into the hidden slots (the rest stay in no zone); a slot
    whose kind is None holds a component the seat was shown, and keeps it."""
    where = sample["where"]
    # (each kind's components in their dealt order, taken one after another)
    dealt = {kind: iter(ids) for kind, ids in deal.items()}
    kinds = iter(slot_kinds)
    for name, owner, z in places:
        if isinstance(z, dict):
            for key in sorted(z):
                kind = next(kinds)
                if kind is not None:  # (None: a component the seat was shown stays)
                    c = z[key] = next(dealt[kind])
                    where[c] = [name, owner, key]
            continue
        for k in range(len(z)):
            kind = next(kinds)
            if kind is not None:
                z[k] = next(dealt[kind])
        zone = machine.p.zones[name]
        if zone.sorted_by is not None:
            z.sort(key=lambda c: zone.sort_value(cat.attrs[c]))
        for c in z:
            where[c] = [name, owner, None]
    for rest in dealt.values():
        for c in rest:
            where[c] = None


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
