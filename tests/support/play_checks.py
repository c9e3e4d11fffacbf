"""The engine's promises, checked on a game while it is played at random.

Shared by tests/games/test_random_play.py (the examples) and tests/games/test_game_invariants.py
(the real games in games/). Each check takes the game, a state and a seeded
random.Random, and fails with an assertion saying which promise broke.
"""

from __future__ import annotations

import collections
import json
import random

import pytest

from gamedsl.errors import MoveError, RuleError

MAX_STEPS = 2000
SAMPLE_APPLY = 60   # legal moves tried at each step (all of them when there are no more)

# Typed lines no game can take as a move: empty, junk, unicode, a huge number, markup.
IMPOSSIBLE_TEXTS = ["", "   ", "zzqx qqqq", "ÿ☃\u200b𝔘", "9" * 400, "-1", "__import__('os')",
                    "open('/etc/passwd')", "{}", "\x00\x1b[2J"]


def dump(state) -> str:
    return json.dumps(state, sort_keys=True)


# ---------------------------------------------------------------- the checks


def check_legal_moves_apply(game, state, moves, rnd, sample_apply=SAMPLE_APPLY):
    sample = moves if len(moves) <= sample_apply else rnd.sample(moves, sample_apply)
    before = dump(state)
    for move in sample:
        game.apply(state, move)  # must not raise
    assert dump(state) == before, "apply() changed the state it was given"


def _changed(value, salt: int):
    """A value of the same shape that no legal move uses."""
    if isinstance(value, bool):
        return 10_000 + salt
    if isinstance(value, (int, float)):
        return value + 10_000 + salt
    if isinstance(value, list):
        return [_changed(v, salt) for v in value] if value else [10_000 + salt]
    if isinstance(value, str):
        return value + "_no_such_thing"
    return 10_000 + salt


def illegal_variants(game, state, moves, rnd):
    legal = moves
    out = []
    with_args = [m for m in moves if m["args"]]
    if with_args:
        m = rnd.choice(with_args)
        i = rnd.randrange(len(m["args"]))
        for salt in range(5):
            bad = {"seat": m["seat"], "alt": m["alt"], "args": list(m["args"])}
            bad["args"][i] = _changed(m["args"][i], salt)
            if bad not in legal:
                out.append(bad)
                break
        out.append({"seat": m["seat"], "alt": m["alt"], "args": m["args"] + [0]})  # one argument too many
    m = rnd.choice(moves)
    waiting = game.waiting_for(state)
    others = [s for s in range(state["n"]) if s not in waiting]
    if others:
        out.append({"seat": rnd.choice(others), "alt": m["alt"], "args": list(m["args"])})
    out.append({"seat": state["n"] + 3, "alt": m["alt"], "args": list(m["args"])})
    out.append({"seat": m["seat"], "alt": "no_such_alternative", "args": list(m["args"])})
    return out


def check_illegal_refused(game, state, moves, rnd):
    before = dump(state)
    for bad in illegal_variants(game, state, moves, rnd):
        with pytest.raises(MoveError):
            game.apply(state, bad)
        assert dump(state) == before, f"refusing {bad} changed the state"


def check_components(game, state, all_placed=False):
    """Every component in at most one place (exactly one with all_placed: for games whose
    components never leave the zones), and state['where'] says where."""
    seen = {}
    for info in game.info.zones:
        name = info.name
        z = state["zones"][name]
        parts = list(enumerate(z)) if info.per_player else [(-1, z)]
        for owner, part in parts:
            if isinstance(part, dict):
                cells_of = {}
                for key, comp in part.items():
                    cells_of.setdefault(comp, []).append(key)
                for comp, keys in cells_of.items():
                    assert comp not in seen, f"component {comp} is in {seen.get(comp)} and in {name}"
                    if len(keys) == 1 and not isinstance(state["where"][comp][2], list):
                        seen[comp] = [name, owner, keys[0]]
                    else:  # a piece with faces covers a cell per face; `where` lists them in face order
                        listed = state["where"][comp][2]
                        assert isinstance(listed, list) and sorted(listed) == sorted(keys), \
                            f"component {comp} covers {keys}, but where[{comp}] says {listed}"
                        seen[comp] = [name, owner, listed]
            else:
                for comp in part:
                    assert comp not in seen, f"component {comp} is in {seen.get(comp)} and in {name}"
                    seen[comp] = [name, owner, None]
    if all_placed:
        lost = [c for c in range(len(state["where"])) if c not in seen]
        assert not lost, f"components {lost} lie in no zone"
    for comp, where in enumerate(state["where"]):
        assert where == seen.get(comp), f"where[{comp}] is {where}, but it lies in {seen.get(comp)}"


def _values(v):
    """Every number, text or bool inside a value (lists and rows opened)."""
    if isinstance(v, list):
        for x in v:
            yield from _values(x)
    elif isinstance(v, dict):
        for x in v.values():
            yield from _values(x)
    else:
        yield v


def check_declared_values(game, state):
    """What the rules declare bounds for stays within them. The language declares no bounds
    on variables (a `number` is any number), so this is what can be checked of every game:
    options keep values their declaration allows; a variable of players or components holds
    only seats and components that exist (or none); every number is finite and within the
    engine's ±MAX_NUMBER; whose turn it is and who starts are seats."""
    from gamedsl.language import MAX_NUMBER
    from gamedsl.runtime.values import is_number

    n, components = state["n"], len(state["where"])
    for spec in game.info.options:
        assert spec.accepts(state["options"][spec.name]), f"option {spec.name} is {state['options'][spec.name]!r}"
    assert 0 <= state["flow"]["current"] < n and 0 <= state["flow"]["start"] < n, "the turn is at no seat"
    pvars = state["pvars"]
    for var in game.info.vars:
        per_player = var.per_player
        value = pvars[var.name] if per_player else state["vars"][var.name]
        if per_player:
            assert isinstance(value, list) and len(value) == n, f"player var {var.name} is not one per player"
        for x in _values(value):
            if var.kind == "player":
                assert x is None or isinstance(x, int) and 0 <= x < n, f"{var.name} holds {x!r}, no seat"
            elif var.kind == "component":
                assert x is None or isinstance(x, int) and 0 <= x < components, f"{var.name} holds {x!r}, no component"
            elif is_number(x):
                assert -MAX_NUMBER <= x <= MAX_NUMBER, f"{var.name} holds {x!r}"


def unseen_parts(game, state, seat):
    """(zone, owner) pairs whose contents `seat` may not see (a zone the game reveals at the
    end, `display: reveal ... at end`, every seat sees once the game is over)."""
    out = []
    revealed = game.program.display.reveal if state["flow"]["over"] else ()
    for info in game.info.zones:
        name = info.name
        if name in revealed:
            continue
        if info.visibility == "hidden":
            out.extend((name, o) for o in (range(state["n"]) if info.per_player else [-1]))
        elif info.visibility == "owner" and info.per_player:
            out.extend((name, o) for o in range(state["n"]) if o != seat)
    return out


def _hidden_changed(game, state, seat, rnd, across_zones):
    """A copy of the state differing only in what `seat` cannot see: the components of its
    unseen zones permuted (kind for kind, so the rules could reach that state; across those
    zones, or only within each) and other seats' secret vars changed."""
    kind_of = game.catalogue(state).kind
    changed = json.loads(json.dumps(state))
    lists = []
    for name, owner in unseen_parts(game, state, seat):
        z = changed["zones"][name] if owner < 0 else changed["zones"][name][owner]
        if isinstance(z, list):
            lists.append(z)
    groups = [lists] if across_zones else [[z] for z in lists]
    for group in groups:
        pools = {}
        for z in group:
            for c in z:
                pools.setdefault(kind_of[c], []).append(c)
        for pool in pools.values():
            rnd.shuffle(pool)
        for z in group:
            z[:] = [pools[kind_of[c]].pop() for c in z]
    for var in game.info.vars:
        if var.per_player and var.secret:
            values = changed["pvars"][var.name]
            for other in range(state["n"]):
                if other != seat:
                    values[other] = 1 if values[other] is None else _changed(values[other], other)
    return changed


def check_views_hide(game, state, rnd):
    """No seat's view depends on what it cannot see. A game may declare `public` facts about
    hidden things (how many cards of a secret hand are low): when moving components between
    unseen zones changes a declared fact, that state is told apart by design, so the check
    falls back to permuting each unseen zone's contents in place."""
    for seat in range(state["n"]):
        original = game.view(state, seat)
        changed = _hidden_changed(game, state, seat, rnd, across_zones=True)
        if game.view(changed, seat)["public"] != original["public"]:
            changed = _hidden_changed(game, state, seat, rnd, across_zones=False)
        if changed != state:
            assert game.view(changed, seat) == original, f"P{seat + 1}'s view shows what it may not see"


def check_typed_text_refused(game, state, rnd):
    """Text that cannot be a move is refused with MoveError (by parse_move, or by apply
    when it parses to a typed move), and the state is left as it was."""
    before = dump(state)
    seat = rnd.choice(game.waiting_for(state))
    for text in IMPOSSIBLE_TEXTS:
        try:
            move = game.parse_move(state, text, seat)
        except MoveError:
            continue
        with pytest.raises(MoveError):
            game.apply(state, move)
    assert dump(state) == before, "refusing typed text changed the state"


def check_written_moves_read_back(game, state, moves, rnd, sample=3):
    """A legal move's written text, typed by a person, is that move (when no other legal
    move is written the same): parse_move gives a move that leads to the same state.
    A typed alternative's suggestions are read by its template, not looked up in a listing."""
    texts = [game.move_text(state, m) for m in moves]
    times = collections.Counter(texts)
    unique = [(m, t) for m, t in zip(moves, texts) if times[t] == 1]
    for move, text in rnd.sample(unique, min(sample, len(unique))):
        read = game.parse_move(state, text, move["seat"])
        assert dump(game.apply(state, read)) == dump(game.apply(state, move)), \
            f"'{text}' typed is not the move {move}"


def check_json_round_trip(game, state, move):
    copy = json.loads(json.dumps(state))
    assert copy == state
    assert dump(game.apply(copy, move)) == dump(game.apply(state, move))


def play(game, players, seed, checks=True, options=None, check_every=1, sample_apply=SAMPLE_APPLY, typed=False,
         all_placed=False):
    rnd = random.Random(seed * 1000 + players)
    state = game.new_game(players, seed, options)
    start = dump(state)
    played = []
    components = len(state["where"])
    for step in range(MAX_STEPS):
        checking = checks and step % check_every == 0
        assert len(state["where"]) == components, "components appeared or vanished"
        if checking:
            check_components(game, state, all_placed)
            check_views_hide(game, state, rnd)
            check_declared_values(game, state)
        if game.is_over(state):
            break
        moves = game.legal_moves(state)
        assert moves, "nobody can move, yet the game is not over"
        if checking:
            check_legal_moves_apply(game, state, moves, rnd, sample_apply)
            check_illegal_refused(game, state, moves, rnd)
            if typed:
                check_typed_text_refused(game, state, rnd)
                check_written_moves_read_back(game, state, moves, rnd)
        move = rnd.choice(moves)
        if checking:
            check_json_round_trip(game, state, move)
        state = game.apply(state, move)
        played.append(move)
    else:
        pytest.fail(f"no end after {MAX_STEPS} moves")
    with pytest.raises(MoveError):
        game.apply(state, played[-1])
    return start, played, state




def check_replay(game, players, seed, start, played, final):
    """Replaying the moves from the same seed gives the identical game, from the first state on."""
    state = game.new_game(players, seed)
    assert dump(state) == start
    for move in played:
        state = game.apply(state, move)
    assert dump(state) == dump(final)


def memo_and_fresh_heuristics(game, state: dict, memo):
    """`game.heuristics(state, memo)` and the heuristics worked out afresh, as a pair; None
    where working them out fails, once the memo was checked to fail with the same error."""
    try:
        fresh = game.heuristics(state)
    except RuleError as err:
        with pytest.raises(RuleError) as again:
            game.heuristics(state, memo)
        assert str(again.value) == str(err)
        return None
    return game.heuristics(state, memo), fresh
