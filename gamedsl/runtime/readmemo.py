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
        # (the value as it is: the state does not change while it is read; it is frozen into
        # a key once the evaluation is over)
        if path not in self.reads:
            self.reads[path] = value
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
        value = self.real[i]
        path = self.path + (i,)
        reads = self.log.reads
        if path not in reads:
            reads[path] = value
        return value


def _indexed(real, path: tuple, log) -> _Indexed:
    """An _Indexed made without a call of __init__ (a recorder makes several per evaluation)."""
    made = _Indexed.__new__(_Indexed)
    made.real, made.path, made.log = real, path, log
    return made


class _Unfollowed(Exception):
    """The state was read in a way the recorder does not follow."""


class _Named(dict):
    """The state, or one of `vars`, `flow`, `pvars`, `cstate`, `zones`: a name read notes what
    it names. It is a dict only so that a name read again is a plain lookup (the generated code
    reads `zones` and a zone's name for every zone it goes through): it holds the names read
    so far, each as what the first reading gave (a recorder one level down, or the value, noted
    then); any use of it but reading a name notes all of it, as `_Whole` does, and a use that
    would show or copy what it holds is refused."""

    __slots__ = ("real", "path", "log")

    def __missing__(self, name):
        real = self.real[name]
        path = self.path + (name,)
        if len(path) == 1:
            if name == "zones" or name in _BY_INDEX or name in _BY_NAME:
                value = _named(real, path, self.log)
            elif name == "where":
                value = _indexed(real, path, self.log)
            else:
                return self.log.note(path, real)
        elif path[0] in _BY_INDEX or (path[0] == "zones" and name in self.log.per_player):
            value = _indexed(real, path, self.log)
        else:
            return self.log.note(path, real)
        dict.__setitem__(self, name, value)
        return value

    _all = _Whole._all
    __len__, __iter__, __contains__ = _Whole.__len__, _Whole.__iter__, _Whole.__contains__
    get, keys, values, items = _Whole.get, _Whole.keys, _Whole.values, _Whole.items

    def _refused(self, *args, **kwargs):
        raise _Unfollowed

    __setitem__ = __delitem__ = __eq__ = __ne__ = __repr__ = __reversed__ = __or__ = __ror__ = __ior__ = _refused
    copy = setdefault = pop = popitem = update = clear = fromkeys = __reduce__ = __reduce_ex__ = _refused
    __hash__ = None


def _named(real, path: tuple, log) -> _Named:
    """`real` read through a recorder noting in `log` each part read."""
    made = _Named()
    made.real, made.path, made.log = real, path, log
    return made


# readers by the parts they read, shared by every memo: a search makes a memo per decision,
# and the parts its scores read recur from one decision to the next
_READERS: Dict[tuple, Tuple[Callable, Callable]] = {}
_MOST_READERS = 4096


def reader(paths: tuple, compile_code: Optional[Callable] = None) -> Tuple[Callable, Callable]:
    """Two functions of a state (each raising KeyError, IndexError or TypeError where the
    state has no such part): the tuple of the values at `paths`, and the same as a key, each
    list as a tuple (TypeError from hashing it if a list holds a list or a grid is read). One
    subscript per step of a path, the names kept as values (the functions' defaults), not as
    code. `compile_code(source, filename)`: compiles their source (by default `compile`); it
    must give a code object of their own (Python specialises a code object to the values it
    meets, and readers of one shape read values of different types)."""
    fns = _READERS.get(paths)
    if fns is not None:
        return fns
    names: list = []
    reads = []
    for path in paths:
        expr = "s"
        for k in path:
            expr += f"[k{len(names)}]"
            names.append(k)
        reads.append(expr)
    namespace = {"K": tuple(names)}
    defaults = "".join(f", k{i}=K[{i}]" for i in range(len(names)))
    values = "".join(f"{r}, " for r in reads)
    keyed = "".join(f"tuple(v) if type(v := {r}) is list else v, " for r in reads)
    source = (f"def read(s{defaults}):\n    return ({values})\n"
              f"def key(s{defaults}):\n    return ({keyed})\n")
    code = (compile_code(source, "<gamedsl reader>") if compile_code is not None
            else compile(source, "<gamedsl reader>", "exec"))
    exec(code, namespace)  # noqa: S102 - subscripts only
    if len(_READERS) >= _MOST_READERS:
        _READERS.clear()
    fns = _READERS[paths] = (namespace["read"], namespace["key"])
    return fns


def _as_key(values) -> tuple:
    """Values read as a key, as the reader's `key` writes them where it can."""
    key = tuple([tuple(v) if type(v) is list else v for v in values])
    try:
        hash(key)
    except TypeError:
        key = tuple([_frozen(v) for v in values])
    return key


class ScoreMemo:
    """The scores of one seat-scoring function (`score of p` or `heuristic of p`) kept for
    the states of one search: states of one game, so of the same players and options (on
    which the game's fixed facts depend). `per_player`: the names of the per-player zones."""

    def __init__(self, per_player, compile_code: Optional[Callable] = None):
        self.per_player = frozenset(per_player)
        self.compile_code = compile_code  # (what compiles the readers: see reader())
        # seat -> the parts read (one tuple of paths per way the evaluation went) -> (their
        # readers, their values as a key -> score)
        self.kept: Dict[int, Dict[tuple, Tuple[Callable, Callable, Dict[tuple, object]]]] = {}
        # seat -> for each of the score's parts, its values as `_keep_part` keeps them
        self.parts_kept: Dict[int, list] = {}
        self.hits = self.misses = 0
        self.part_hits = 0  # (parts found in scores not found whole)
        self.held = False
        # (players, options, the function the game scores the seats of this search's states
        # with): made by gamedsl/runtime/game.py on the first score, as the states of a
        # search share their players and options
        self.seats = None

    def hold_judgement(self, held: bool) -> None:
        """While held, a score not found does not count against keeping: for the states of a
        search that no kept score could match yet (each in a new world), kept for the states
        after them (the same worlds played again)."""
        self.held = held

    def score(self, state: dict, seat: int, evaluate, parts=None) -> object:
        """`evaluate(state_to_read, seat)` for `seat`, from the memo when the parts it read
        before hold the same values in `state`; else evaluated through a recorder and kept.

        `parts`, for a score made of parts each kept under its own reads (the def calls at the
        top of `score of p: a(p) + b(p)`): `(count, part, combine, closed)`, where `part(i,
        state, state_to_read, seat)` works out part i (any value, kept as it is) and
        `combine(state, state_to_read, seat, results)` the score from the parts' results, or
        raises where the score must be evaluated whole (as it then is); `closed`: the score
        reads nothing but its parts (it is then combined from the state itself). A score not
        kept whole is made of its parts: those whose reads hold the same values are found, the
        others worked out; the score is then kept whole under all the parts' reads and the
        combination's."""
        return self.scores(state, (seat,), evaluate, parts)[0]

    def scores(self, state: dict, seats, evaluate, parts=None) -> list:
        """`score` of each of `seats` in `state`, in order."""
        out = []
        every = self.kept
        for seat in seats:
            if self.misses >= GIVE_UP_AFTER and self.hits * 2 < self.misses:
                # (a score that reads most of the state rarely meets the same values again: its
                # recording costs more than the evaluations it saves, so it is evaluated as always)
                out.append(evaluate(state, seat))
                continue
            # (a kept score looked up: most of what a search pays for a score found)
            found = _NONE
            kept = every.get(seat)
            if kept is not None:
                for read, key, by_values in kept.values():
                    try:
                        found = by_values.get(key(state), _NONE)
                    except (KeyError, IndexError, TypeError):
                        # (a part the state lacks: nothing kept matches; or a value that is not
                        # hashable as the key writes it: frozen all the way down)
                        try:
                            values = read(state)
                        except (KeyError, IndexError, TypeError):
                            continue
                        found = by_values.get(_as_key(values), _NONE)
                    if found is not _NONE:
                        self.hits += 1
                        break
            out.append(found if found is not _NONE else self._unkept(state, seat, evaluate, parts))
        return out

    def _unkept(self, state: dict, seat: int, evaluate, parts) -> object:
        """The score of `seat` in `state`, not kept yet: made of its parts, or evaluated
        through a recorder, and kept (see `score`)."""
        if not self.held:
            self.misses += 1
        log = _Log(self.per_player)
        if parts:
            value = self._by_parts(state, seat, parts, log)
            if value is not _NONE:
                return value
            log = _Log(self.per_player)
        try:
            value = evaluate(_named(state, (), log), seat)
        except Exception:  # noqa: BLE001 - read in a way not followed: evaluated as always
            return evaluate(state, seat)
        if value is None:
            return value
        _keep(self.kept.setdefault(seat, {}), log.reads, value, self.compile_code)
        return value

    def _by_parts(self, state: dict, seat: int, parts, log: _Log):
        """The score of `seat` made of its parts (see `score`), each part read into `log` as
        well as its own, or _NONE where it must be evaluated whole."""
        count, part, combine, closed = parts
        kept = self.parts_kept.get(seat)
        if kept is None:
            kept = self.parts_kept[seat] = [{} for _ in range(count)]
        reads = log.reads
        results = []
        for i in range(count):
            found = _find(kept[i], state, self.compile_code)
            if found is not None:
                paths, read, result = found
                self.part_hits += 1
                # (the state does not change while it is scored: a part read again by
                # another is read alike)
                reads.update(zip(paths, read(state)))
            else:
                own = _Log(self.per_player)
                try:
                    result = part(i, state, _named(state, (), own), seat)
                except Exception:  # noqa: BLE001 - as a score: evaluated whole, as always
                    return _NONE
                _keep_part(kept[i], own.reads, result)
                reads.update(own.reads)
            results.append(result)
        try:
            value = combine(state, state if closed else _named(state, (), log), seat, results)
        except Exception:  # noqa: BLE001 - refused, or an error the score evaluated whole gives
            return _NONE
        if value is not None:
            _keep(self.kept.setdefault(seat, {}), reads, value, self.compile_code)
        return value


def _find(kept: dict, state: dict, compile_code: Optional[Callable]):
    """(the parts read, their reader, the value kept) of the part's value in `kept` (the parts
    read -> [their readers, the values kept by the values read, the look-ups so far or None],
    as `_keep_part` keeps them) whose parts hold the same values in `state`, or None."""
    for paths, entry in kept.items():
        read, key, by_values, looks = entry
        if looks is not None:
            looks[0] += 1
            if looks[0] > _READ_BEFORE_WRITING:
                read, key = reader(paths, compile_code)
                entry[0], entry[1], entry[3] = read, key, None
        try:
            found = by_values.get(key(state), _NONE)
        except (KeyError, IndexError, TypeError):
            # (a part the state lacks: nothing kept matches; or a value that is not
            # hashable as the key writes it: frozen all the way down)
            try:
                values = read(state)
            except (KeyError, IndexError, TypeError):
                continue
            found = by_values.get(_as_key(values), _NONE)
        if found is not _NONE:
            return paths, read, found
    return None


def _keep(kept: dict, reads: dict, value, compile_code: Optional[Callable]) -> None:
    """`value` kept in `kept` (as `ScoreMemo.scores` reads it) under `reads`, the parts read ->
    their values."""
    paths = tuple(reads)
    entry = kept.get(paths)
    if entry is None:
        entry = kept[paths] = (*reader(paths, compile_code), {})
    entry[2][_as_key(reads.values())] = value


# A part's reader is written (a `compile`, ~140 µs) once its parts have been looked up this
# often, read step by step until then (~1 µs more a look-up): many sets of parts a part of a
# score reads are looked up a few times only.
_READ_BEFORE_WRITING = 100
_LOOKS: Dict[tuple, list] = {}  # the parts read -> [look-ups so far], till written


def _keep_part(kept: dict, reads: dict, value) -> None:
    """`value` kept in `kept` (as `_find` reads it) under `reads`, the parts read -> their
    values."""
    paths = tuple(reads)
    entry = kept.get(paths)
    if entry is None:
        fns = _READERS.get(paths)
        if fns is not None:
            entry = kept[paths] = [*fns, {}, None]
        else:
            looks = _LOOKS.get(paths)
            if looks is None:
                if len(_LOOKS) >= _MOST_READERS:
                    _LOOKS.clear()
                looks = _LOOKS[paths] = [0]
            entry = kept[paths] = [*_stepwise(paths), {}, looks]
    entry[2][_as_key(reads.values())] = value


def _stepwise(paths: tuple) -> Tuple[Callable, Callable]:
    """`reader(paths)`'s two functions, reading each path step by step (nothing compiled)."""
    def read(s):
        values = []
        for path in paths:
            v = s
            for k in path:
                v = v[k]
            values.append(v)
        return tuple(values)

    def key(s):
        return tuple([tuple(v) if type(v) is list else v for v in read(s)])
    return read, key


_NONE = object()
# a memo that has found fewer than one kept score in three states by then stops keeping
GIVE_UP_AFTER = 8


def new_memo(program, compile_code: Optional[Callable] = None) -> Optional[ScoreMemo]:
    return ScoreMemo((name for name, info in program.zones.items() if info.per_player), compile_code)


def read_parts(state: dict, evaluate, per_player) -> tuple:
    """`evaluate(state_to_read)` and the parts of `state` it read, as the memo names them
    (`("zones", name, owner)` for a player's zone, `("zones", name)` for a zone of the table,
    `("where", c)`, `("n",)`...). `per_player`: the names of the per-player zones. An error
    of the evaluation (or of a way of reading the recorder does not follow) is raised."""
    log = _Log(per_player)
    value = evaluate(_named(state, (), log))
    return value, tuple(log.reads)
