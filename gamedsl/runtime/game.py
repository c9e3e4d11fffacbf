"""The engine API every client and bot uses: new_game, legal_moves, apply, view, is_over, results.

A state is one plain JSON-serialisable dict; apply() never changes the state it
is given (it works on a copy), so a refused move or a failing rule leaves the
caller's state exactly as it was. Nor does a caller change a state the engine
handed out in place (a copy from `clone`, or one read back from JSON, is the
caller's own): the engine keeps what it listed at the state's pending decision,
and checks a move made there against that listing.
"""

from __future__ import annotations

import re
from typing import Dict, List, Optional

from gamedsl.runtime.values import MAX_NUMBER, plain
from gamedsl.errors import MoveError, OptionError, RuleError, UsageError
from gamedsl.runtime.rng import check_key, deal_seed
from gamedsl.text import visible_line
from gamedsl.runtime.state import clone
from gamedsl.runtime.ctx import MAX_WORK, Ctx, memo_key
from gamedsl.language import DEFAULT_MAX_STEPS, DEFAULT_MAX_TURNS
from gamedsl.runtime.info import describe
from gamedsl.runtime.compiled import CompiledMachine
from gamedsl.runtime.machine import TIMEOUT, Machine
from gamedsl.runtime.readmemo import ScoreMemo, new_memo
from gamedsl.runtime.program import zone_seen
from gamedsl.runtime.resample import Sampler, determinize

TIMEOUT_TEXT = "time ran out"  # how the timeout move is written (logs, the terminal, scenarios)


_SLOT = re.compile(r"\{(\w+)\}")


def _quoted(text: str, most: int = 60) -> str:
    """What a person typed, as an error repeats it: on one line, control characters written
    out (a terminal shows the message), and not all of a long text."""
    text = "".join(c if c.isprintable() else repr(c)[1:-1] for c in " ".join(text.split()))
    return text if len(text) <= most else text[:most] + "…"


MAX_ARG_DEPTH = 16   # how deep a move's arguments may nest (a list of cells is 3)


_FLAT = frozenset({int, str, bool, float, type(None)})


def _too_deep(value, most: int = MAX_ARG_DEPTH) -> bool:
    """Whether lists or objects nest deeper than `most` (looked at without recursing)."""
    if most >= 2 and type(value) is list:
        for v in value:
            if type(v) not in _FLAT and not (type(v) is list and _FLAT.issuperset(map(type, v))):
                break
        else:
            return False  # (a move's usual arguments: values, and lists of them such as cells)
    todo = [(value, 0)]
    while todo:
        v, depth = todo.pop()
        if isinstance(v, (list, tuple, dict)):
            if depth >= most:
                return True
            todo.extend((x, depth + 1) for x in (v.values() if isinstance(v, dict) else v))
    return False


def _shown_move(text: str, most: int = 80) -> str:
    """A move a client sent, as a refusal repeats it: quoted, on one line (a newline or other
    control character is written as its escape, as repr does), and not all of a long one."""
    text = "".join(c if c.isprintable() else repr(c)[1:-1] for c in text)
    if len(text) > most:
        text = text[:most] + "…"
    return "'" + text.replace("'", "\\'") + "'"


# Full-width forms of ASCII (Japanese keyboards: １, ，, ＊, Ａ) and the ideographic space, as
# their ASCII letters: a move typed with them reads as typed in ASCII.
_HALFWIDTH = {**{c: c - 0xFEE0 for c in range(0xFF01, 0xFF5F)}, 0x3000: 0x20}


def halfwidth(text: str) -> str:
    """A typed text with full-width digits, signs and letters (and the ideographic space)
    read as their ASCII forms: `２，０` is `2,0`."""
    return text.translate(_HALFWIDTH)


def _normalise(text: str) -> str:
    return " ".join(re.sub(r"[(),]", " ", text.lower()).split())


def is_timeout_text(text: str) -> bool:
    """Whether a person or a scenario wrote the timeout move ("time ran out")."""
    return _normalise(text) == TIMEOUT_TEXT


class Game:
    """A loaded, checked and compiled game."""

    def __init__(self, program, path: str = "<text>", sources: Optional[dict] = None,
                 max_steps: int = DEFAULT_MAX_STEPS, snippets=None, blocks=None, listing=None, copier=None,
                 codes=None):
        self.program = program
        self.path = path
        self.sources = sources or {}
        # `blocks`: the factory of the game's generated block functions (the compiling back
        # end); without it the interpreter runs the rules. `listing`: the factory of its
        # choices' generated listings; `copier`: its generated copy of a state. `codes`: where
        # the code of what the game writes itself is compiled, and kept between runs (its
        # `compile_own(source, filename)`); without it, Python's `compile`.
        self._compile_code = codes.compile_own if codes is not None else None
        if blocks is not None:
            self._machine = CompiledMachine(program, blocks, max_steps=max_steps, listing=listing, copier=copier)
            self.backend = "compiled"
        else:
            self._machine = Machine(program, max_steps=max_steps)
            self.backend = "interpreter"
        self._templates: Dict[str, List[str]] = {}  # a move's template, split at its {slots}
        self.info = describe(program)
        # Compiles a scenario's expressions and statements against this game (given by the
        # pipeline, which keeps what the compile knew; the runtime never compiles).
        self.snippets = snippets
        self._parts = None  # (see _heuristic_parts: made on first need)

    # ------------------------------------------------------------ facts
    @property
    def title(self) -> str:
        return self.program.title

    @property
    def min_players(self) -> int:
        return self.program.min_players

    @property
    def max_players(self) -> int:
        return self.program.max_players

    def resolve_options(self, given: Optional[Dict[str, object]] = None) -> dict:
        """Defaults, overridden by `given` (values may be texts from a command line)."""
        specs = self.program.options
        out = {name: spec.default for name, spec in specs.items()}
        for name, raw in (given or {}).items():
            spec = specs.get(name)
            if spec is None:
                known = ", ".join(sorted(specs)) or "none"
                raise OptionError(f"unknown option '{name}' (this game's options: {known})")
            value = raw
            if isinstance(raw, str) and re.fullmatch(r"-?[0-9]+", raw.strip()):
                # (a number far past any option's range is refused as typed: Python would
                # not even read one of 5,000 digits)
                digits = raw.strip().lstrip("-")
                value = int(raw) if len(digits) <= 18 else None
            elif isinstance(raw, str):
                value = raw.strip()
            if value is None or not spec.accepts(value):
                shown = f"'{_quoted(raw, 24)}'" if isinstance(raw, str) else plain(raw)
                raise OptionError(f"option '{name}' cannot be {shown}: choose {spec.choices()}")
            out[name] = value
        return out

    # ------------------------------------------------------------ the API
    def new_game(self, players: int, seed: int = 0, options: Optional[dict] = None,
                 max_turns: int = DEFAULT_MAX_TURNS, key: Optional[str] = None) -> dict:
        """The state after setup. Without `key` the deal follows from `seed` alone (reproducible,
        and so guessable by anyone who knows or tries the seed); with a key (`new_key()`, 32 hex
        digits the host keeps) it follows from both, and no seat can rebuild it."""
        if not self.info.accepts_players(players):
            raise OptionError(f"{self.title} is for {self.info.players_text()} players, not {players}")
        resolved = self.resolve_options(options)
        if key is not None:
            try:
                key = check_key(key)
            except ValueError as err:
                raise OptionError(f"bad key: {err}") from None
        state = self._machine.new_state(players, deal_seed(seed, key), resolved, max_turns)
        self._machine.run(state)
        return state

    def is_over(self, state: dict) -> bool:
        return bool(state["flow"]["over"])

    def waiting_for(self, state: dict) -> List[int]:
        """The seats that must move now (several during a secret choice)."""
        pending = state["pending"]
        if pending is None or state["flow"]["over"]:
            return []
        got = pending.get("got")
        if not got:  # (nobody has chosen yet: every seat the choice waits for)
            return list(pending["players"])
        return [p for p in pending["players"] if str(p) not in got]

    def legal_moves(self, state: dict, seat: Optional[int] = None, suggestions: bool = True) -> List[dict]:
        """The legal moves of `seat` (of every waiting seat if None); without `suggestions`,
        none of a typed alternative's (a person types those; listing them is a bot's search)."""
        if seat is not None:  # (a fresh list already: no copy)
            return self._machine.moves_for(state, seat, suggestions=suggestions)
        out: List[dict] = []
        for s in self.waiting_for(state):
            out.extend(self._machine.moves_for(state, s, suggestions=suggestions))
        return out

    def move_table(self, state: dict, seat: int):
        """The legal moves of `seat` as a table, for a bot that picks one of many without a
        dict for each: `count`; `at(i)`, `legal_moves(state, seat)[i]` (a fresh dict);
        `moves()`, all of them (a fresh list); `keys()`, each move's (alternative,
        *arguments) in the same order."""
        return self._machine.move_table(state, seat)

    def move_count(self, state: dict, seat: int) -> int:
        """How many legal moves `seat` has: `len(legal_moves(state, seat))`, mostly without
        a move dict for each."""
        return self._machine.move_table(state, seat).count

    def move_at(self, state: dict, seat: int, i: int) -> dict:
        """`legal_moves(state, seat)[i]` (a fresh dict), mostly without listing the others."""
        return self._machine.move_table(state, seat).at(i)

    def random_move(self, state: dict, seat: int, rng) -> Optional[dict]:
        """A uniformly random legal move of `seat` drawn with `rng` (a random.Random), made
        without a dict per legal move; None if the seat has no move. Where the choice has
        typed parameters, their suggestions are checked only as they are drawn: a suggestion
        drawn that fails its condition is dropped and another drawn, so a word game's random
        move checks one or two words, not every word. The draw is the one
        `rng.choice(legal_moves(state, seat))` makes when every suggestion passes; a rule
        error in a suggestion never drawn is not met."""
        return self._machine.draw_move(state, seat, rng)

    def clone(self, state: dict) -> dict:
        """A copy of `state` that applying moves to in place (`apply_legal(in_place=True)`)
        never changes the original of. The values the rules hold (a list in a variable)
        are shared: the engine replaces a value, never changes one in place."""
        return self._machine.clone(state)

    def apply(self, state: dict, move: dict) -> dict:
        """The state after `move`; raises MoveError (state unchanged) if it is not legal."""
        move = self._checked(state, move)
        new = self._machine.clone(state)
        new["said"] = []
        new.pop("told", None)
        self._machine.submit(new, move)
        return new

    def is_legal(self, state: dict, move: dict) -> bool:
        """Whether `apply(state, move)` would take the move (found without applying it)."""
        try:
            self._checked(state, move)
        except MoveError:
            return False
        return True

    def _checked(self, state: dict, move: dict) -> dict:
        """The move as the machine takes it, or MoveError saying why it is refused."""
        if self.is_over(state):
            raise MoveError("the game is over", "game_over")
        if not (isinstance(move, dict) and isinstance(move.get("seat"), int) and isinstance(move.get("alt"), str)
                and isinstance(move.get("args", []), list)):
            raise MoveError("a move is {\"seat\": n, \"alt\": name, \"args\": [...]}", "malformed")
        move = {"seat": move["seat"], "alt": move["alt"], "args": list(move.get("args", []))}
        if _too_deep(move["args"]):
            # no move's arguments nest deeper than a list of cells: reading on would only recurse
            raise MoveError(f"a move's arguments are nested at most {MAX_ARG_DEPTH} deep", "malformed")
        if self._machine.listed_when_reached(state, move):
            return move  # (of the seat the decision waits for, listed there)
        waiting = self.waiting_for(state)
        if move["seat"] not in waiting:
            who = ", ".join(f"P{p + 1}" for p in waiting) or "nobody"
            seat = f"P{move['seat'] + 1}" if abs(move["seat"]) < 10**6 else "that seat"  # (not a 5,000-digit one)
            raise MoveError(f"{seat} cannot move now; waiting for {who}", "not_your_turn")
        if move["alt"] == TIMEOUT:
            self._check_timeout(state, move)
            return move
        machine = self._machine
        verdict = machine.typed_verdict(state, move) if machine.has_typed(state) else False
        if verdict is False and not self._machine.is_listed(state, move):
            raise MoveError(f"{_shown_move(self.move_text(state, move))} is not a legal move now", "illegal")
        if verdict:
            raise MoveError(f"{_shown_move(self.move_text(state, move))} is not a legal move now: "
                            f"{visible_line(verdict)[:80]}", "illegal")
        return move

    def timer(self, state: dict, seat: Optional[int] = None):
        """The seconds on the clock of the choice `seat` (by default the first seat waiting)
        must make now, as the rules set it when the choice was reached; None without a timer."""
        if seat is None:
            waiting = self.waiting_for(state)
            if not waiting:
                return None
            seat = waiting[0]
        if self.is_over(state):
            return None
        return self._machine.timer(state, seat)

    def timeout_move(self, state: dict, seat: Optional[int] = None) -> dict:
        """The move a client sends for `seat` (by default the first seat waiting) when the clock
        of its choice runs out. It is never among `legal_moves`; `apply` takes it only while
        that choice has a timer, and runs the choice's `on timeout:`."""
        if seat is None:
            waiting = self.waiting_for(state)
            seat = waiting[0] if waiting else state["flow"]["current"]
        return {"seat": seat, "alt": TIMEOUT, "args": []}

    def _check_timeout(self, state: dict, move: dict) -> None:
        if move["args"]:
            raise MoveError("the timeout move has no arguments", "malformed")
        if self.timer(state, move["seat"]) is None:
            raise MoveError(f"time cannot run out: P{move['seat'] + 1}'s choice has no timer", "illegal")

    def apply_legal(self, state: dict, move: dict, in_place: bool = False, quiet: bool = False,
                    scored_only: bool = False) -> dict:
        """`apply` for a move taken straight from `legal_moves(state)`: no legality check.

        For bots and simulations, which enumerate the moves themselves; a move from anywhere
        else must go through `apply`. With `in_place` the given state is advanced (no copy).
        With `quiet` the move's `say` messages are not written (nor their work counted): for
        a state no one is shown, such as a bot's playout. With `scored_only` (quiet too) the
        state is one a bot scores and never plays on: the `choose` it reaches is not looked
        at, neither listed for the `legal_moves` that usually follows nor checked to have a
        move. A choice there with no legal move, a mistake of the rules that stops a game with
        E503, is found when a game gets there, not while a bot weighs the move. (A secret
        choice's seats are still checked: a bot plays their moves.)
        """
        new = state if in_place else self._machine.clone(state)
        new["said"] = []
        new.pop("told", None)
        machine = self._machine
        before = machine.played_on, machine.says
        machine.played_on, machine.says = not scored_only, not (quiet or scored_only)
        try:
            machine.submit(new, move)
        finally:
            machine.played_on, machine.says = before
        return new

    def has_typed_moves(self, state: dict, seat: int) -> bool:
        """Whether the seat's pending choice has alternatives a person types (a word, a number):
        their suggestions may be a large search, worth listing once for many look-alike states."""
        return bool(self._machine.typed_alternatives(state, seat))

    # ------------------------------------------------------------ tools: search, coverage
    def resample(self, state: dict, seat: int, rng, tries: int = 50) -> dict:
        """A full state `seat` cannot tell from `state`: everything it cannot see redrawn with
        `rng` from the declared visibility (gamedsl/runtime/resample.py; docs/bots.md)."""
        return determinize(self._machine, state, seat, rng, tries, self.public_facts)

    def resampler(self, state: dict, seat: int) -> Sampler:
        """`resample` of one state for one seat, sample after sample: `draw(rng, tries=50)`
        gives what `resample(state, seat, rng, tries)` would, with what the samples share
        worked out once. For a state that does not change while it is used (a bot's decision)."""
        return Sampler(self._machine, state, seat, self.public_facts)

    def observe(self, observer) -> None:
        """From now on, tell `observer` (a gamedsl.runtime.observer.Observer, or None to stop)
        which statements run, phases begin, alternatives are taken, components move and table
        rows are looked up — what rule coverage counts."""
        self._machine.observe(observer)

    def catalogue(self, state: dict):
        """The components of the game `state` belongs to (fixed by its player count and
        options): `kind[c]`, `attrs[c]` and `show[c]` for component number c."""
        return self._machine.catalogue(state)

    def write_value(self, state: dict, value, kind: str = "value") -> str:
        """A value as a person reads it: `kind` "player" writes seats as P1.., "component"
        writes components by their `show`, "cell" as x,y; lists item by item."""
        return self.program.write(value, kind, self.catalogue(state))

    # ------------------------------------------------------------ snippets (scenarios, tools)
    def _snippets(self):
        if self.snippets is None:
            raise UsageError("this game was built without a snippet compiler: load it with gamedsl.load")
        return self.snippets

    def run_statements(self, state: dict, body: tuple, names: Optional[dict] = None) -> dict:
        """The state after running rule statements (a scenario's `given:`) outside any turn.

        `names` are extra local names (e.g. p1, p2 for the seats). The statements may not
        ask for a choice. Raises RuleError; the given state is never changed.
        """
        names = dict(names or {})
        snippet = self._snippets().block(body, names)
        machine = Machine(self.program, max_steps=self._machine.max_steps, snippet=snippet)
        new = clone(state)
        saved_pending, new["pending"] = new["pending"], None
        depth = len(new["stack"])
        was_over = new["flow"]["over"]
        new["flow"]["over"] = False
        new["stack"].append({"k": "act", "env": names})
        new["stack"].append({"k": "blk", "b": snippet.entry, "i": 0})
        machine.run(new, stop_depth=depth)
        if new["pending"] is not None:
            raise RuleError("E601", "these statements ask a player to choose; scenario set-ups cannot",
                            body[0].span if body else None)
        del new["stack"][depth:]
        new["pending"] = saved_pending
        new["flow"]["over"] = new["flow"]["over"] or was_over
        return new

    def evaluate(self, state: dict, expr, names: Optional[dict] = None):
        """The value of an expression in `state` (read-only), with extra local names."""
        names = dict(names or {})
        fn = self._snippets().expr(expr, names)
        ctx = Ctx(self.program, state, names, self._machine.catalogue(state), pure=True)
        return fn(ctx)

    # ------------------------------------------------------------ moves as text
    def move_text(self, state: dict, move: dict) -> str:
        if move.get("alt") == TIMEOUT:
            return TIMEOUT_TEXT
        stmt = self.program.stmts[state["pending"]["s"]] if state.get("pending") else None
        alt = None
        if stmt is not None:
            alt = next((a for a in stmt.alts if a.name == move.get("alt")), None)
        cat = self._machine.catalogue(state)
        if alt is None:
            return " ".join([str(move.get("alt"))] + [plain(a) for a in move.get("args", [])])
        written = {p.name: self._written(p, v, cat) for p, v in zip(alt.params, move["args"])}
        if alt.template:
            parts = self._templates.get(alt.template)
            if parts is None:
                parts = self._templates[alt.template] = _SLOT.split(alt.template)
            # (parts: text, slot name, text, slot name, ..., text)
            return "".join(part if i % 2 == 0 else written.get(part, "{" + part + "}")
                           for i, part in enumerate(parts))
        return " ".join([alt.name] + [written[p.name] for p in alt.params])

    def _written(self, param, value, cat) -> str:
        """A move's argument as a person reads it: an `or nobody` parameter's none is "nobody"."""
        if value is None and param.nobody:
            return "nobody"
        return self.program.write(value, param.kind, cat)

    def move_parts(self, state: dict, move: dict) -> tuple:
        """A move as a client groups it: its alternative's form with each parameter as
        <name> ("give <c> to <p>"), and each parameter's (name, value as written), in order."""
        if move.get("alt") == TIMEOUT:
            return TIMEOUT_TEXT, []
        stmt = self.program.stmts[state["pending"]["s"]] if state.get("pending") else None
        alt = None
        if stmt is not None:
            alt = next((a for a in stmt.alts if a.name == move.get("alt")), None)
        if alt is None:
            return str(move.get("alt")), [(str(i), plain(a)) for i, a in enumerate(move.get("args", []))]
        cat = self._machine.catalogue(state)
        parts = [(p.name, self._written(p, v, cat)) for p, v in zip(alt.params, move["args"])]
        template = alt.template or " ".join([alt.name] + ["{" + p.name + "}" for p in alt.params])
        return _SLOT.sub(lambda m: "<" + m.group(1) + ">", template), parts

    def move_told(self, before: dict, after: dict, move: dict, seat: int) -> str:
        """How `seat` is told of a move another seat made from `before` (giving `after`): its
        text, with every component the seat sees neither before nor after the move as "?"
        (a card passed face down to a third player stays unnamed); a secret choice is only
        "has chosen"."""
        if before.get("pending") and "got" in before["pending"] and move.get("seat") != seat:
            return "has chosen"
        stmt = self.program.stmts[before["pending"]["s"]] if before.get("pending") else None
        alt = next((a for a in (stmt.alts if stmt is not None else []) if a.name == move.get("alt")), None)
        if alt is None or not any(p.kind == "component" for p in alt.params):
            return self.move_text(before, move)
        visible = self.visible_components(before, seat) | self.visible_components(after, seat)
        args = [masked(a, visible) if p.kind == "component" else a for p, a in zip(alt.params, move["args"])]
        return self.move_text(before, dict(move, args=args))

    def moves_seen(self, state: dict, seat: int, moves: Optional[List[dict]] = None) -> List[dict]:
        """The seat's legal moves (or `moves`, taken from them) as the seat may be shown them,
        each with its `text`: an argument naming a component the seat cannot see is "?" (and
        written "?"), so a choice among face-down cards says where they lie, not which they are."""
        moves = self.legal_moves(state, seat) if moves is None else moves
        stmt = self.program.stmts[state["pending"]["s"]] if state.get("pending") else None
        alts = {a.name: a for a in (stmt.alts if stmt is not None else [])}
        visible = None
        out = []
        for m in moves:
            alt = alts.get(m.get("alt"))
            shown = m
            if alt is not None and any(p.kind == "component" for p in alt.params):
                if visible is None:
                    visible = self.visible_components(state, seat)
                args = [masked(a, visible) if p.kind == "component" else a for p, a in zip(alt.params, m["args"])]
                shown = dict(m, args=args)
            out.append(dict(shown, text=self.move_text(state, shown)))
        return out

    def parse_move(self, state: dict, text: str, seat: Optional[int] = None) -> dict:
        """The legal move a person typed (matched on its written form, ignoring case and punctuation)."""
        # A typed alternative's suggestions are not listed here: a text that names one is read
        # by its template below, the way apply() judges it, without the search that lists them
        # (in a word game, every placement on the table). Nor are they ever hinted to a person
        # (they would give the words away).
        seats = self.waiting_for(state) if seat is None else [seat]
        moves = self.legal_moves(state, seat, suggestions=False)
        texts = [self.move_text(state, m) for m in moves]
        text = halfwidth(text)
        want = _normalise(text)
        for m, written in zip(moves, texts):
            if _normalise(written) == want:
                return m
        typed = self._typed_move(state, text, seat)
        if typed is not None:
            return typed
        movers = [s for s in seats if self._machine.moves_for(state, s, first_only=True)]
        if not movers:
            raise MoveError("no move is possible for this seat now", "not_your_turn")
        for s in movers:  # a listed move its condition refuses, with the rules' reason ('else')
            try:
                refused = self._machine.refused_moves(state, s)
            except RuleError:
                refused = []
            for move, reason in refused:
                if _normalise(self.move_text(state, move)) == want:
                    raise MoveError(f"'{_quoted(text)}' is not possible: {reason}", "illegal")
        import difflib
        texts += self.typed_hints(state, movers[0])
        close = difflib.get_close_matches(text, texts, n=1, cutoff=0.5)
        hint = f" — did you mean '{close[0]}'?" if close else ""
        words = sorted({t.split()[0] for t in texts if t.split()})
        # how to type the typed moves, as their `help` says
        how = "".join(f" — {' · '.join(h.splitlines())}" for h in self.typed_help(state, movers[0]))
        raise MoveError(f"'{_quoted(text)}' is not a legal move{hint} (legal moves start with: {', '.join(words)}){how}")

    def typed_hints(self, state: dict, seat: int) -> List[str]:
        """How a person types the pending choice's typed moves: `build <t>` for `build {t}`."""
        out = []
        enums = self.program.decls.enums
        for alt in self._machine.typed_alternatives(state, seat):
            template = alt.template or " ".join([alt.name] + ["{" + p.name + "}" for p in alt.params])
            kinds = {p.name: t for p, t in zip(alt.params, alt.typed)}

            def slot(m):
                kind = kinds.get(m.group(1))
                if kind == "cell":
                    return "<x,y>"
                if kind in enums:
                    return "<" + "|".join(enums[kind]) + ">"
                if kind == "list of text":
                    return f"<{m.group(1)} ...>"
                return f"<{m.group(1)}>"
            out.append(re.sub(r"\{(\w+)\}", slot, template))
        return out

    def typed_help(self, state: dict, seat: int) -> List[str]:
        """What the pending choice's typed moves say of how to type them (their `help`)."""
        return [alt.help for alt in self._machine.typed_alternatives(state, seat) if alt.help]

    def is_suggestion(self, state: dict, move: dict) -> bool:
        """Is this legal move one of a typed alternative's suggestions (for bots: a person
        types such moves, and a word game does not show a person the words)?"""
        return any(a.name == move.get("alt") for a in self._machine.typed_alternatives(state, move.get("seat")))

    def _typed_move(self, state: dict, text: str, seat: Optional[int]) -> Optional[dict]:
        """A typed text read by an alternative's template whose parameters are typed
        (`build {w}`): the move, if its guard allows it; MoveError saying why if not."""
        seats = self.waiting_for(state) if seat is None else [seat]
        refused = None
        for s in seats:
            for alt in self._machine.typed_alternatives(state, s):
                args = match_template(alt, text, self.program.decls.enums)
                if args is None:
                    continue
                move = {"seat": s, "alt": alt.name, "args": args}
                verdict = self._machine.typed_verdict(state, move)
                if verdict is None:
                    return move
                refused = refused or f"'{_quoted(text)}' is not possible: {verdict}"
        if refused:
            raise MoveError(refused, "illegal")
        return None

    # ------------------------------------------------------------ what a seat may see
    def sees(self, zone: str, owner: int, seat: int) -> bool:
        """Whether `seat` sees the components in a zone (`owner` -1 for a shared zone), or
        only how many there are."""
        return zone_seen(self.program.zones[zone].visibility, owner, seat)

    def visible_components(self, state: dict, seat: int) -> set:
        """The components `seat` can see now: those in the zones it looks into, and those it was
        shown (`show ... to`) that have not moved since. The others (in hidden zones, in other
        players' own zones, in no zone) it knows only by their count."""
        out = set(self.known(state, seat))
        for name, info in self.program.zones.items():
            z = state["zones"][name]
            for owner, items in (enumerate(z) if info.per_player else [(-1, z)]):
                if self.sees(name, owner, seat):
                    out.update(items.values() if isinstance(items, dict) else items)
        return out

    def revealed(self, state: dict) -> List[str]:
        """The zones `reveal ... at end` lays open for every seat now: the declared ones once
        the game is over, else none."""
        return list(self.program.display.reveal) if state["flow"]["over"] else []

    def known(self, state: dict, seat: int) -> List[int]:
        """The components `seat` was shown (`show ... to`) that have not moved since: it still
        knows where they lie, though their zone is hidden from it."""
        return list(state.get("known", {}).get(str(seat), ()))

    def view(self, state: dict, seat: int) -> dict:
        p = self.program
        cat = self._machine.catalogue(state)
        flow = state["flow"]
        zones: Dict[str, object] = {}
        faces: Dict[str, Dict[str, object]] = {}
        revealed = self.revealed(state)
        visible = self.visible_components(state, seat)
        for name in revealed:
            z = state["zones"][name]
            for items in (z if p.zones[name].per_player else [z]):
                visible.update(items.values() if isinstance(items, dict) else items)

        known = set(self.known(state, seat))

        def show(name, owner, items):
            if name not in revealed and not self.sees(name, owner, seat):
                if known and any(c in known for c in (items.values() if isinstance(items, dict) else items)):
                    # a zone it cannot see, holding some it was shown: those, and "?" for the rest
                    if isinstance(items, dict):
                        return {k: masked(items[k], known) for k in sorted(items)}
                    return [masked(c, known) for c in items]
                return {"count": len(items)}
            if isinstance(items, dict):
                for k, c in items.items():
                    if cat.faces[c] is not None:  # what a piece shows on each of its cells
                        faces.setdefault(name, {})[k] = cat.faces[c][state["where"][c][2].index(k)]
                return {k: items[k] for k in sorted(items)}
            return list(items)

        for name, info in p.zones.items():
            if info.players is not None and state["n"] not in info.players:
                continue  # a zone of a family that has fewer zones with this many players (empty)
            z = state["zones"][name]
            zones[name] = [show(name, o, z[o]) for o in range(state["n"])] if info.per_player else show(name, -1, z)
        # A var naming a component the seat cannot see shows "?" in its place, as the zone it
        # lies in shows only a count: otherwise `next_card: 12` would name the deck's top card.
        held = {var.name for var in p.global_vars if var.kind == "component"}
        gvars = {name: masked(v, visible) if name in held else v for name, v in state["vars"].items()}
        pvars = {}
        for var in p.player_vars:
            values = state["pvars"][var.name]
            if var.kind == "component":
                values = [masked(v, visible) for v in values]
            pvars[var.name] = [v if (not var.secret or i == seat) else "?" for i, v in enumerate(values)]
        has = p.decls.comp_states
        cstate = {name: {str(c): v[c] for c in sorted(visible) if cat.kind[c] in has[name]}
                  for name, v in state["cstate"].items()}
        pending = state["pending"]
        mine = None
        if pending and "got" in pending and str(seat) in pending["got"]:
            mine = pending["got"][str(seat)]
        return {
            "seat": seat, "players": state["n"], "options": dict(state["options"]),
            "phase": p.phases[flow["phase"]].name if p.phases else None,
            "current": flow["current"], "start_player": flow["start"], "round": flow["round"],
            "out": list(flow.get("out") or []),
            "over": flow["over"], "waiting_for": self.waiting_for(state),
            "vars": gvars, "pvars": pvars, "zones": zones, "cstate": cstate,
            "shows": {str(c): cat.show[c] for c in sorted(visible)},
            "faces": {name: dict(sorted(cells.items())) for name, cells in faces.items()},
            "moved": [c for c in state.get("moved", []) if c in visible],
            "submitted": mine, "said": list(state["said"]),
            "public": self.public_facts(state),
            "told": [text for to, _, text in state.get("told", ()) if to == seat],
            "heard": self.heard(state, seat),
            "known": sorted(known),
            "header": self.header(state),
        }

    def heard(self, state: dict, seat: int) -> List[str]:
        """What the last move told `seat`, in order: every `say`, and the `say ... to` it was
        the one told (no other seat's)."""
        said = list(state["said"])
        mine = [(at, text) for to, at, text in state.get("told", ()) if to == seat]
        out, i = [], 0
        for k, text in enumerate(said):
            while i < len(mine) and mine[i][0] <= k:
                out.append(mine[i][1])
                i += 1
            out.append(text)
        out.extend(text for _, text in mine[i:])
        return out

    def header(self, state: dict) -> Optional[str]:
        """The declared `display` header line now (a text every seat sees), else the
        `counter` variable as "hand 3" (in place of the engine's round), else None."""
        fn = self.program.display.header
        if fn is None:
            counter = self.program.counter
            if counter is None:
                return None
            return f"{counter} {plain(state['vars'][counter])}"
        ctx = Ctx(self.program, state, {}, self._machine.catalogue(state), pure=True)
        return plain(fn(ctx))

    def tiebreaks(self, state: dict) -> List[list]:
        """Each seat's tie-break values (the `tiebreak of p:` keys, in order), as the result
        table shows what decided equal scores; [] per seat without a tiebreak."""
        p = self.program
        if p.tiebreak is None:
            return [[] for _ in range(state["n"])]
        var, fns = p.tiebreak
        ctx = Ctx(p, state, {}, self._machine.catalogue(state), pure=True)
        out = []
        for seat in range(state["n"]):
            ctx.env = {var: seat}
            out.append([f(ctx) for f, _ in fns])
        return out

    # ------------------------------------------------------------ the end
    def scores(self, state: dict, ctx: Optional[Ctx] = None) -> List[object]:
        if self.program.score is None:
            return [0] * state["n"]
        return self._each_seat(state, self.program.score, ctx)

    @property
    def lowest_wins(self) -> bool:
        """Whether the lowest score ranks first (`score of p: ..., lowest wins`)."""
        return self.program.lowest_wins

    def heuristics(self, state: dict, memo: Optional[ScoreMemo] = None) -> List[object]:
        """How well each seat is doing, for bots (higher is better): the declared `heuristic
        of p`, else the score (negated where the lowest score wins).

        With `memo` (from `heuristics_memo()`, kept for the states of one search), a seat's
        value is taken from an earlier state in which every part of the state it read then
        holds the same values (gamedsl/runtime/readmemo.py): the same values, worked out once."""
        program = self.program
        negated = program.heuristic is None and program.lowest_wins
        declared = program.heuristic or program.score
        if memo is None or declared is None:
            if program.heuristic is None:
                scores = self.scores(state)
                return [_negate(s, "a score") for s in scores] if negated else scores
            return self._each_seat(state, program.heuristic)
        made = memo.seats
        n, options = state["n"], state["options"]
        if made is None or made[0] != n or (made[1] is not options and made[1] != options):
            # (made for the memo's first state: a state of other players or options, which a
            # memo is not meant for, has its own catalogue)
            made = memo.seats = (n, options, self._memo_seats(state, memo, negated))
        return made[2](state)

    def _memo_seats(self, state: dict, memo: ScoreMemo, negated: bool):
        """The function giving every seat's heuristic of a state of `memo`'s search (states
        of one game: the same players and options, so the same catalogue), made once a memo."""
        program = self.program
        var, fn = program.heuristic or program.score
        cat = self._machine.catalogue(state)

        def evaluate(read, seat):
            ctx = Ctx(program, read, {var: seat}, cat, pure=True)
            ctx.memo = {}
            return fn(ctx)
        by_parts = self._parts
        if by_parts is None:
            by_parts = self._parts = self._heuristic_parts()
        scores = memo.scores
        seats = range(state["n"])
        if negated:
            return lambda s: [_negate(v, "a score") for v in scores(s, seats, evaluate, by_parts)]
        return lambda s: scores(s, seats, evaluate, by_parts)

    def _heuristic_parts(self):
        """The heuristic's def calls at its top (`Program.heuristic_parts`) as a ScoreMemo
        works them out one by one and the heuristic from them, or () where it has none."""
        program = self.program
        parts = program.heuristic_parts
        if not parts:
            return ()
        var, fn = program.heuristic or program.score
        catalogue = self._machine.catalogue

        def part(i, state, read, seat):
            # (a def call alone, with a memo of def values of its own: what it reads is all
            # its value depends on)
            ctx = Ctx(program, read, {var: seat}, catalogue(state), pure=True)
            ctx.memo = {}
            return parts[i][2](ctx), ctx.work

        summed = program.heuristic_summed

        def combine(state, read, seat, results):
            if summed:
                # (the sum of whole numbers, each partial sum within bounds, as the generated
                # `+` adds them; anything else is the heuristic's own to add up, below)
                total = 0
                for value, _ in results:
                    if type(value) is not int:
                        break
                    total += value
                    if not -MAX_NUMBER <= total <= MAX_NUMBER:
                        break
                else:
                    if sum(work for _, work in results) <= MAX_WORK - _SUM_SLACK:
                        return total
            # The heuristic with each def call at its top answered by the memo of def values,
            # as a def asked again is. Refused where the work the heuristic evaluated whole
            # charges could reach MAX_WORK: its calls of the parts charge no more than each
            # charged alone, with a memo of its own (a memo only spares work), so below that
            # the evaluation whole stops on no limit, and gives this value.
            ctx = Ctx(program, read, {var: seat}, catalogue(state), pure=True)
            ctx.memo = memo_of_defs = {}
            for (name, count, _), (value, _) in zip(parts, results):
                memo_of_defs[memo_key(name, [seat] * count)] = value
            value = fn(ctx)
            if ctx.work + sum(work for _, work in results) > MAX_WORK:
                raise RuleError("E501", "to be worked out whole")
            return value
        return (len(parts), part, combine, program.heuristic_closed)

    def heuristics_memo(self) -> ScoreMemo:
        """A memo for `heuristics(state, memo)` over the states of one search."""
        return new_memo(self.program, self._compile_code)

    def _each_seat(self, state: dict, declared, ctx: Optional[Ctx] = None) -> List[object]:
        """A declared `... of p: expr` evaluated for every seat."""
        var, fn = declared
        if ctx is None:
            ctx = Ctx(self.program, state, {}, self._machine.catalogue(state), pure=True)
            # as in results(): the state does not change while it is scored, so a def the
            # seats' scores share (or one a score asks again) is worked out once per arguments
            ctx.memo = {}
        out = []
        for seat in range(state["n"]):
            ctx.env = {var: seat}
            out.append(fn(ctx))
        return out

    # ------------------------------------------------------------ sides: teams, cooperative
    @property
    def cooperative(self) -> bool:
        """Whether the players win or lose together (`cooperative`), with one shared score."""
        return self.program.cooperative

    @property
    def seats_alone(self) -> bool:
        """Whether every seat is a side of its own (no teams, not cooperative): `sides` is
        then each seat alone, and a side's heuristic its seat's."""
        return not self.program.cooperative and self.program.team is None

    def sides(self, state: dict, ctx: Optional[Ctx] = None) -> List[List[int]]:
        """The seats that win or lose together, each list in seat order, the lists in the order
        of their first seats: every seat in one list in a cooperative game, the teams of a
        `team of p`, else each seat alone."""
        n = state["n"]
        if self.program.cooperative:
            return [list(range(n))]
        if self.program.team is None:
            return [[s] for s in range(n)]
        teams: Dict[str, List[int]] = {}
        for seat, value in enumerate(self._each_seat(state, self.program.team, ctx)):
            teams.setdefault(repr(plain(value)), []).append(seat)
        return list(teams.values())

    def side_heuristics(self, state: dict, sides: Optional[List[List[int]]] = None,
                        memo: Optional[ScoreMemo] = None) -> List[float]:
        """How well each side (`sides`) is doing, for bots: the sum of its seats' heuristics (or
        scores; `memo` as for `heuristics`), a cooperative game's shared `score:` once."""
        sides = self.sides(state) if sides is None else sides
        values = self.heuristics(state, memo)
        if self._shared_score() and self.program.heuristic is None:
            return [values[0]]
        # (a side of one seat: its value as sum() gives it, 0 + value)
        return [0 + values[side[0]] if len(side) == 1 else sum(values[s] for s in side) for side in sides]

    def _shared_score(self) -> bool:
        """Whether the score is a cooperative game's `score:`, one value for every seat."""
        return self.program.score is not None and self.program.score[0] is None

    def public_facts(self, state: dict) -> dict:
        """The game's declared `public` facts now, per player, as every view shows them."""
        return _written_per_player(self, state, self.program.publics)

    def results(self, state: dict) -> dict:
        """Scores, ranks (1 = first; equal players share a rank), winners and declared result fields."""
        p, n, flow = self.program, state["n"], state["flow"]
        ctx = Ctx(p, state, {}, self._machine.catalogue(state), pure=True)
        # The state does not change while its results are read: a def the score, the
        # tie-breaks and the result fields share is worked out once per arguments.
        ctx.memo = {}
        scores = self.scores(state, ctx)
        keys = []
        for seat in range(n):
            k = [1 if flow["winner"] == seat else 0,
                 _negate(scores[seat], "a score") if p.lowest_wins else scores[seat]]
            if p.tiebreak is not None:
                var, fns = p.tiebreak
                ctx.env = {var: seat}
                k.extend(f(ctx) if most else _negate(f(ctx)) for f, most in fns)
            keys.append(k)
        fields = _written_per_player(self, state, p.results, ctx)
        finished = bool(flow["over"]) and not flow["unfinished"]
        out = {"finished": finished, "unfinished": bool(flow["unfinished"]), "scores": scores}
        if p.cooperative:
            # one result for everyone: the rules' verdict (`end game won` / `lost`; none when
            # the game just ends) and the shared score
            outcome = flow.get("outcome") if finished else None
            out.update(ranks=[1] * n, winners=list(range(n)) if outcome == "won" else [],
                       cooperative=True, outcome=outcome,
                       shared_score=scores[0] if self._shared_score() else sum(scores))
        elif p.team is not None:
            # a team is ranked as one: its score and tie-break keys are its members' summed
            sides = self.sides(state, ctx)
            team_keys = [[max(keys[s][0] for s in side)] + [sum(keys[s][i] for s in side)
                                                            for i in range(1, len(keys[side[0]]))]
                         for side in sides]
            team_ranks = _ranks(team_keys)
            ranks = [0] * n
            for side, rank in zip(sides, team_ranks):
                for s in side:
                    ranks[s] = rank
            out.update(ranks=ranks, winners=[s for s in range(n) if ranks[s] == 1] if finished else [],
                       teams=sides, team_scores=[team_keys[i][1] for i in range(len(sides))],
                       team_ranks=team_ranks)
        else:
            ranks = _ranks(keys)
            out.update(ranks=ranks, winners=[s for s in range(n) if ranks[s] == 1] if finished else [])
        out.update(turns=flow["turns"], fields=fields)
        return out


def masked(value, visible: set):
    """A component-typed value with every component not in `visible` written as "?"."""
    if isinstance(value, int) and not isinstance(value, bool):
        return value if value in visible else "?"
    if isinstance(value, list):
        return [masked(v, visible) for v in value]
    return value


def _written_per_player(game: "Game", state: dict, facts: list, ctx: Optional[Ctx] = None) -> dict:
    """Declared per-player values (`result`, `public`): players and components written as text."""
    p = game.program
    if ctx is None:
        ctx = Ctx(p, state, {}, game.catalogue(state), pure=True)
    out = {}
    for name, var, fn, kind in facts:
        values = []
        for seat in range(state["n"]):
            ctx.env = {var: seat}
            v = fn(ctx)
            values.append(p.write(v, kind, ctx.cat) if kind in ("player", "component") else v)
        out[name] = values
    return out


def match_template(alt, text: str, enums: Optional[dict] = None) -> Optional[list]:
    """The values of an alternative's typed parameters read from a typed text by its template
    (`build {w}` reads `build quiz` as ["quiz"]); None if the text does not fit it. Words of
    the template match ignoring case and spacing; a number parameter takes a number, a cell
    `4,2` or `(4, 2)`, an enum one of its words, a list of texts words split by commas or spaces."""
    enums = enums or {}
    template = alt.template or " ".join([alt.name] + ["{" + p.name + "}" for p in alt.params])
    types = {p.name: t for p, t in zip(alt.params, alt.typed)}
    pattern, pos = "", 0
    for m in re.finditer(r"\{(\w+)\}", template):
        pattern += _loose(template[pos:m.start()])
        pattern += rf"(?P<{m.group(1)}>{_typed_pattern(types.get(m.group(1)), enums)})"
        pos = m.end()
    pattern += _loose(template[pos:])
    found = re.fullmatch(r"\s*" + pattern + r"\s*", text, re.I)
    if not found:
        return None
    return [_typed_value(t, found.group(p.name).strip(), enums) for p, t in zip(alt.params, alt.typed)]


# a typed number has at most 16 digits each side of the point: longer is no move (and Python
# would refuse to read an int of thousands of digits)
_NUMBER = r"-?[0-9]{1,16}(?:\.[0-9]{1,16})?"
_LIST_SEPARATORS = r"[\s,、，]+"  # commas (also the Japanese ones) or spaces between typed texts


def _typed_pattern(kind: str, enums: dict) -> str:
    if kind == "number":
        return _NUMBER
    if kind == "cell":
        return r"\(?\s*-?[0-9]{1,16}\s*,\s*-?[0-9]{1,16}\s*\)?"
    if kind in enums:
        return "|".join(re.escape(w) for w in sorted(enums[kind], key=len, reverse=True))
    if kind == "list of text":
        return r".*?"  # none typed is a list too: the rules then say why it is not enough
    return r".+?"


def _typed_value(kind: str, raw: str, enums: dict):
    if kind == "number":
        return float(raw) if "." in raw else int(raw)
    if kind == "cell":
        return [int(v) for v in re.findall(r"-?[0-9]+", raw)]
    if kind in enums:
        return next(w for w in enums[kind] if w.lower() == raw.lower())
    if kind == "list of text":
        return [w for w in re.split(_LIST_SEPARATORS, raw) if w]
    return raw


def _loose(literal: str) -> str:
    """A template's fixed words as a pattern: any run of spaces matches any other."""
    return r"\s*" + r"\s*".join(re.escape(part) for part in literal.split()) + r"\s*"


# (what the heuristic's own `+`s could charge besides its parts, kept clear of MAX_WORK)
_SUM_SLACK = 1000


def _negate(v, what: str = "a 'fewest' tiebreak"):
    if isinstance(v, bool):
        return -int(v)
    if isinstance(v, (int, float)):
        return -v
    raise RuleError("E504", f"{what} needs a number, not {plain(v)}")


def _ranks(keys: list) -> list:
    """Each key's rank: 1 + how many keys are greater (equal keys share a rank)."""
    try:
        return [1 + [other > mine for other in keys].count(True) for mine in keys]
    except TypeError:
        raise RuleError("E504", "tiebreak keys must be numbers or bools") from None


# The module-level API, in the spirit of OpenSpiel / boardgame.io.
def new_game(game: Game, players: int, seed: int = 0, options: Optional[dict] = None,
             key: Optional[str] = None) -> dict:
    return game.new_game(players, seed, options, key=key)


def legal_moves(game: Game, state: dict) -> List[dict]:
    return game.legal_moves(state)


def apply(game: Game, state: dict, move: dict) -> dict:
    return game.apply(state, move)


def view(game: Game, state: dict, seat: int) -> dict:
    return game.view(state, seat)


def is_over(game: Game, state: dict) -> bool:
    return game.is_over(state)


def results(game: Game, state: dict) -> dict:
    return game.results(state)

