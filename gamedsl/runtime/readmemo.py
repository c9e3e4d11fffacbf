"""A memo of a seat's score (or heuristic) across the states a search looks at, keyed by what
the score read: reused only where every part of the state it read holds the same values.

A search scores thousands of states that differ in a few places: the move tried changes
the mover's zones, and the other seats' scores, which read only their own, come out as
before. The first time a seat is scored, the state is read through a recorder that notes
each part read (a variable, a player's zone, a component's state, the whole of a zone of
the table...) with its value; the score is kept under those parts. A later state whose same
parts hold the same values gets the kept score without evaluating it. That is exact, not a
guess: an expression has no effects and reads nothing but the state, the seat and the
game's fixed facts (its components, tables, options), so the same values read give the same
evaluation, step by step, to the same result. A score that reads the state in a way the
recorder does not follow (any error while recording) is evaluated as always, and not kept.
"""

from __future__ import annotations

from typing import Callable, Dict, Optional, Tuple

# the parts of a state read through a second level: name -> a list by seat or component
_BY_INDEX = ("pvars", "cstate")
_BY_NAME = ("vars", "flow")


def _frozen(v):
    """A value as a key: lists as tuples, a grid as its (cell, component) pairs."""
    t = type(v)
    if t is list:
        return tuple([_frozen(x) if type(x) in (list, dict) else x for x in v])
    if t is dict:
        return frozenset((k, _frozen(x)) for k, x in v.items())
    return v


class _Log:
    __slots__ = ("reads", "per_player")

    def __init__(self, per_player):
        self.reads: Dict[tuple, object] = {}
        self.per_player = per_player

    def note(self, path: tuple, value):
        if path not in self.reads:
            self.reads[path] = _frozen(value)
        return value


class _Whole:
    """A container of the state that is only ever read whole (any use of it notes all of it)."""

    __slots__ = ("real", "path", "log")

    def __init__(self, real, path, log):
        self.real, self.path, self.log = real, path, log

    def _all(self):
        return self.log.note(self.path, self.real)

    def __len__(self):
        return len(self._all())

    def __iter__(self):
        return iter(self._all())

    def __contains__(self, k):
        return k in self._all()

    def get(self, k, default=None):
        return self._all().get(k, default)

    def keys(self):
        return self._all().keys()

    def values(self):
        return self._all().values()

    def items(self):
        return self._all().items()


class _Indexed(_Whole):
    """A list by seat or by component (a player's zones, a variable of each player, a state of
    each component, where each component lies): an item read notes that item only."""

    __slots__ = ()

    def __getitem__(self, i):
        return self.log.note(self.path + (i,), self.real[i])


class _Named(_Whole):
    """`vars`, `flow`, `pvars`, `cstate`, `zones`: a name read notes what it names."""

    __slots__ = ()

    def __getitem__(self, name):
        real = self.real[name]
        path = self.path + (name,)
        top = path[0]
        if top in _BY_INDEX or (top == "zones" and name in self.log.per_player):
            return _Indexed(real, path, self.log)
        return self.log.note(path, real)


class _State(_Whole):
    __slots__ = ()

    def __getitem__(self, k):
        real = self.real[k]
        if k == "zones" or k in _BY_INDEX or k in _BY_NAME:
            return _Named(real, (k,), self.log)
        if k == "where":
            return _Indexed(real, (k,), self.log)
        return self.log.note((k,), real)


# readers by the parts they read, shared by every memo: a search makes a memo per decision,
# and the parts its scores read recur from one decision to the next
_READERS: Dict[tuple, Callable] = {}
_MOST_READERS = 4096


def reader(paths: tuple) -> Callable:
    """A function giving the tuple of the values at `paths` in a state (KeyError, IndexError
    or TypeError where the state has no such part): one subscript per step of a path, the
    names kept as values, not as code."""
    fn = _READERS.get(paths)
    if fn is not None:
        return fn
    names: list = []
    reads = []
    for path in paths:
        expr = "s"
        for k in path:
            expr += f"[K[{len(names)}]]"
            names.append(k)
        reads.append(expr + ",")
    namespace = {"K": tuple(names)}
    source = f"def read(s, K=K):\n    return ({' '.join(reads)})\n"
    exec(compile(source, "<gamedsl reader>", "exec"), namespace)  # noqa: S102 - subscripts only
    if len(_READERS) >= _MOST_READERS:
        _READERS.clear()
    fn = _READERS[paths] = namespace["read"]
    return fn


class ScoreMemo:
    """The scores of one seat-scoring function (`score of p` or `heuristic of p`) kept for
    the states of one search: states of one game, so of the same players and options (on
    which the game's fixed facts depend). `per_player`: the names of the per-player zones."""

    def __init__(self, per_player):
        self.per_player = frozenset(per_player)
        # seat -> the parts read (one tuple of paths per way the evaluation went) -> (their
        # reader, their values -> score)
        self.kept: Dict[int, Dict[tuple, Tuple[Callable, Dict[tuple, object]]]] = {}
        self.hits = self.misses = 0
        self.held = False

    def hold_judgement(self, held: bool) -> None:
        """While held, a score not found does not count against keeping: for the states of a
        search that no kept score could match yet (each in a new world), kept for the states
        after them (the same worlds played again)."""
        self.held = held

    def get(self, state: dict, seat: int):
        """The kept score of `seat` in `state`, or None."""
        for read, by_values in self.kept.get(seat, {}).values():
            try:
                values = read(state)
            except (KeyError, IndexError, TypeError):
                continue
            # (most parts read are numbers, texts and lists of components: a list as a tuple
            # as it is; a list of lists is not hashable so, and is frozen all the way down)
            key = tuple([tuple(v) if type(v) is list else v for v in values])
            try:
                found = by_values.get(key, _NONE)
            except TypeError:
                found = by_values.get(tuple([_frozen(v) for v in values]), _NONE)
            if found is not _NONE:
                self.hits += 1
                return found
        return None

    def score(self, state: dict, seat: int, evaluate) -> object:
        """`evaluate(state_to_read)` for `seat`, from the memo when the parts it read before
        hold the same values in `state`; else evaluated through a recorder and kept."""
        if self.misses >= GIVE_UP_AFTER and self.hits * 2 < self.misses:
            # (a score that reads most of the state rarely meets the same values again: its
            # recording costs more than the evaluations it saves, so it is evaluated as always)
            return evaluate(state)
        found = self.get(state, seat)
        if found is not None:
            return found
        if not self.held:
            self.misses += 1
        log = _Log(self.per_player)
        try:
            value = evaluate(_State(state, (), log))
        except Exception:  # noqa: BLE001 - read in a way not followed: evaluated as always
            return evaluate(state)
        if value is None:
            return value
        paths = tuple(log.reads)
        kept = self.kept.setdefault(seat, {})
        if paths not in kept:
            kept[paths] = (reader(paths), {})
        kept[paths][1][tuple(log.reads.values())] = value
        return value


_NONE = object()
# a memo that has found fewer than one kept score in three states by then stops keeping
GIVE_UP_AFTER = 8


def new_memo(program) -> Optional[ScoreMemo]:
    return ScoreMemo(name for name, info in program.zones.items() if info.per_player)


class _Paths(_Log):
    """A log of the parts read, without their values."""

    __slots__ = ()

    def note(self, path: tuple, value):
        self.reads[path] = None
        return value


def read_parts(state: dict, evaluate, per_player) -> tuple:
    """`evaluate(state_to_read)` and the parts of `state` it read, as the memo names them
    (`("zones", name, owner)` for a player's zone, `("zones", name)` for a zone of the table,
    `("where", c)`, `("n",)`...). `per_player`: the names of the per-player zones. An error
    of the evaluation (or of a way of reading the recorder does not follow) is raised."""
    log = _Paths(per_player)
    value = evaluate(_State(state, (), log))
    return value, tuple(log.reads)
