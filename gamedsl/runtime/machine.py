"""The rule machine: runs compiled blocks over a plain-data state until a player must decide.

Where the rules stand is an explicit stack of frames in the state (plain dicts):
  {"k": "act", "env": {...}}          an activation (setup, a turn, a procedure): its locals
  {"k": "blk", "b": block, "i": n}    statement n of block b is next
  {"k": "for", "b": body, "var": x, "items": [...], "n": i}
  {"k": "while", "s": stmt} / {"k": "rep", "s": stmt, "left": n}
  {"k": "secret", "s": stmt, "todo": [[seat, move], ...]}
A `choose` stops the machine with state["pending"] set; apply() resumes it. No
Python generator or closure holds game state, so a state can be saved, loaded,
copied or replayed at any point mid-turn.
"""

from __future__ import annotations

from itertools import product
from typing import List, Optional

from gamedsl.runtime import program as P
from gamedsl.runtime import rng
from gamedsl.runtime.values import bounded, cell_key, check_cell, is_cell, is_number, plain, sized
from gamedsl.errors import RuleError
from gamedsl.language import DEFAULT_MAX_STEPS, DEFAULT_MAX_TURNS
from gamedsl.runtime.ctx import MAX_WORK, PLAIN_KEY_TYPES, WORK_PER_STEP, WRITTEN_KEY, Ctx, charge
from gamedsl.runtime.moves import NO_MOVES, Listed, Table
from gamedsl.runtime.state import clone

# The `alt` of the move a client sends when a timed choice's clock runs out: a move's name is
# a NAME of the rules, which never holds '@', so it cannot be mistaken for an alternative.
TIMEOUT = "@timeout"
# the choices reached whose tables are kept for checking a move (a search's path, a walk's depth)
REACHED = 16
MAX_MOVES = 100_000   # legal moves of one choice: more is a mistake, and would fill the memory
_LOOPS = ("for", "while", "rep")


class Machine:
    work_per_step = WORK_PER_STEP  # (read by the generated code of the compiling back end)
    # a copy of a state that nothing done to it changes (the compiling back end's copies
    # only what the rules change)
    clone = staticmethod(clone)

    def __init__(self, program, max_steps: int = DEFAULT_MAX_STEPS, snippet=None):
        self.p = program
        # the blocks and statements this machine runs: the game's, and a scenario snippet's
        # after them (numbered so), which never join the Program itself
        self.blocks, self.stmts = program.blocks, program.stmts
        if snippet is not None:
            self.blocks, self.stmts = program.blocks + snippet.blocks, program.stmts + snippet.stmts
        self.max_steps = max_steps
        self._drawn = 0   # components drawn in the current run(), counted against max_steps
        # The moves a `choose` listed to know it is not stuck, kept for the one listing of the
        # same decision that nearly always follows (a bot's, a client's): (state, its pending,
        # seat, moves). Handed out once, so the caller owns the list.
        self._listed = None
        # The tables listed when choices were reached, the last REACHED of them, by the
        # state's id: id(state) -> (state, its pending, seat, table). A move checked on the
        # same state, at the same decision, is found in its table without working the
        # parameters' lists out again (callers never change a state the engine made in
        # place: Game's docstring). Each entry holds its state, so no other state can
        # take its id meanwhile.
        self._reached: dict = {}
        self._looks_of = None   # (catalogue, each component's look, those with copies): see one_of_each
        self._positions: dict = {}  # id(an alternative) -> (it, its component parameters' places)
        self._table_positions: dict = {}  # id(a choice's alternatives) -> (them, their places)
        self._facts: dict = {}  # a choice statement's index -> what _choice_facts keeps of it
        # a choice statement's index -> its alternatives by name: (the alternative, its
        # parameters' names, its body)
        self._entries: dict = {}
        # Whether the state the run leaves is played on (the usual case: a `choose` reached
        # lists its moves, kept for the listing that nearly always follows) or only scored by
        # a bot (no choice looked at); and whether `say` writes its messages (not in a state
        # no one is shown: a bot's playout, a state it scores).
        self.played_on = True
        self.says = True
        self._last_catalogue = None
        self._statement_ctx = None
        self.run_work = 0    # values gone through by the current run()'s statements (WORK_PER_STEP a step)
        # (the list of what moved, and the same as a set: a move of 100,000 components must not
        # search the list once per component)
        self._moved_seen = (None, set())
        self.observer = None  # an Observer (gamedsl/runtime/observer.py), or None
        # each statement's generated listing of its choice's moves, or None (none: the
        # interpreter lists every choice)
        self.listers: list = []
        # each kind of statement record -> the method carrying it out
        self.handlers = {
            P.LetStmt: self._do_let, P.AssignStmt: self._do_assign, P.CallStmt: self._do_call,
            P.MoveStmt: self._do_move, P.DrawStmt: self._do_draw, P.ShuffleStmt: self._do_shuffle,
            P.NextTurnStmt: self._do_next_turn, P.EndStmt: self._do_end, P.SayStmt: self._do_say,
            P.ShowStmt: self._do_show, P.LeaveStmt: self._do_leave, P.EndRoundStmt: self._do_end_round,
            P.BreakStmt: self._do_break, P.ReturnStmt: self._do_return, P.PassStmt: self._do_pass,
            P.IfStmt: self._do_if, P.ForStmt: self._do_for, P.WhileStmt: self._do_while,
            P.RepeatStmt: self._do_repeat, P.ChooseStmt: self._do_choose, P.SecretStmt: self._do_secret,
        }

    def observe(self, observer) -> None:
        """Tell `observer` (an Observer, or None to stop) what the rules do from now on."""
        self.observer = observer
        self._statement_ctx = None  # a kept context would not know the observer


    # ------------------------------------------------------------ state helpers
    def ctx(self, state, env=None, pure=False) -> Ctx:
        if env is None:
            env = self.env(state)
        # (made for nearly every statement: the catalogue of the state's own options object,
        # which nothing changes after the game begins, is kept aside)
        last = self._last_catalogue
        if last is not None and last[0] is state["options"] and last[1] == state["n"]:
            cat = last[2]
        else:
            cat = self.catalogue(state)
        if pure:
            return Ctx(self.p, state, env, cat, True, self.observer)
        # A statement's context: one object, reset for each statement (a statement asks for
        # one context, and nothing keeps it once the statement is done). The work it counted
        # is added to the run's, which the step budget bounds.
        # (kept from state to state too: a search applies each move to a copy, and one run
        # is under way at a time)
        ctx = self._statement_ctx
        if ctx is not None:
            self.run_work += ctx.work
        if ctx is None or ctx.cat is not cat:
            ctx = self._statement_ctx = Ctx(self.p, state, env, cat, False, self.observer)
            return ctx
        ctx.state, ctx.env, ctx.depth, ctx.work, ctx.memo, ctx.pure = state, env, 0, 0, None, False
        return ctx

    def catalogue(self, state):
        cat = self.p.catalogue(state["n"], state["options"])
        self._last_catalogue = (state["options"], state["n"], cat)
        return cat

    @staticmethod
    def env(state) -> dict:
        for frame in reversed(state["stack"]):
            if frame["k"] == "act":
                return frame["env"]
        return {}

    def statement_under_way(self, state: dict):
        """The statement the innermost block frame is running (its index is already past it)."""
        frame = next(f for f in reversed(state["stack"]) if f["k"] == "blk")
        return self.blocks[frame["b"]][frame["i"] - 1]

    def run_context(self, state) -> Ctx:
        """A run's start: `start_budget`, and the statements' context (`ctx`) with no local
        names yet."""
        self.start_budget()
        ctx, last = self._statement_ctx, self._last_catalogue
        if (ctx is not None and last is not None and last[0] is state["options"] and last[1] == state["n"]
                and ctx.cat is last[2]):
            # (`ctx` for the kept context of the state's own catalogue, written out)
            ctx.state, ctx.env, ctx.depth, ctx.memo, ctx.pure = state, {}, 0, None, False
            return ctx
        return self.ctx(state, {})

    def start_budget(self) -> None:
        """A run's step budget starts afresh: no statement run, no work counted."""
        self.run_work = 0
        self._drawn = 0
        if self._statement_ctx is not None:
            self._statement_ctx.work = 0

    # ------------------------------------------------------------ the run loop
    def run(self, state: dict, stop_depth: Optional[int] = None) -> None:
        """Run until a decision is pending or the game is over (or the stack is back to stop_depth)."""
        steps = 0
        self.start_budget()
        stack = state["stack"]
        flow = state["flow"]
        blocks, handlers, max_steps, observer = self.blocks, self.handlers, self.max_steps, self.observer
        while state["pending"] is None and not flow["over"]:
            if stop_depth is not None and len(stack) <= stop_depth:
                return
            if not stack:
                self.advance_flow(state)
                continue
            frame = stack[-1]
            k = frame["k"]
            if k == "blk":
                # the block's statements one after another, while none of them has pushed a
                # frame, popped this one, or stopped the run
                block = blocks[frame["b"]]
                n = len(block)
                i = frame["i"]
                while i < n:
                    stmt = block[i]
                    i += 1
                    frame["i"] = i
                    steps += 1
                    if steps + self.run_work // WORK_PER_STEP > max_steps:
                        self.runaway(state, stmt)
                    if observer is not None:
                        observer.statement(stmt.sid)
                    try:
                        handlers[stmt.__class__](state, self.ctx(state), stmt)
                    except RuleError as err:
                        # (one raised where no line is known, a word list's file read on first
                        # use: the statement's)
                        if err.span is None:
                            err.span = stmt.span
                        raise
                    if not stack or stack[-1] is not frame or state["pending"] is not None or flow["over"]:
                        break
                else:
                    stack.pop()
            elif k == "act":
                stack.pop()
            elif k == "for":
                if frame["n"] < len(frame["items"]):
                    self.env(state)[frame["var"]] = frame["items"][frame["n"]]
                    frame["n"] += 1
                    stack.append({"k": "blk", "b": frame["b"], "i": 0})
                else:
                    stack.pop()
            elif k == "while":
                stmt = self.stmts[frame["s"]]
                steps += 1
                if steps + self.run_work // WORK_PER_STEP > max_steps:
                    self.runaway(state, stmt)
                if stmt.cond(self.ctx(state)):
                    stack.append({"k": "blk", "b": stmt.body, "i": 0})
                else:
                    stack.pop()
            elif k == "rep":
                stmt = self.stmts[frame["s"]]
                steps += 1
                if steps + self.run_work // WORK_PER_STEP > max_steps:
                    self.runaway(state, stmt)
                if frame["left"] != 0:
                    if frame["left"] > 0:
                        frame["left"] -= 1
                    stack.append({"k": "blk", "b": stmt.body, "i": 0})
                else:
                    stack.pop()
            elif k == "secret":
                if frame["todo"]:
                    seat, move = frame["todo"].pop(0)
                    stmt = self.stmts[frame["s"]]
                    self.env(state)[stmt.var] = seat
                    self.enter_alternative(state, stmt, stmt.alts, move)
                else:
                    stack.pop()

    def runaway(self, state, stmt):
        """The step budget is spent: blame the innermost loop (or the procedure calling itself)."""
        culprit = stmt
        for frame in reversed(state["stack"]):
            if frame["k"] in _LOOPS:
                culprit = self.stmts[frame["s"]]
                break
        self.budget_spent(culprit)

    def budget_spent(self, culprit):
        """The step budget is spent, in loop (or statement) `culprit`: E501 at its line."""
        raise RuleError("E501", f"the rules ran {self.max_steps} steps without waiting for a player "
                        f"(a statement is a step, and so are {WORK_PER_STEP} values gone through): "
                        "this loop never ends?", culprit.span,
                        "check the loop's condition, or raise the step budget (--max-steps)")

    # ------------------------------------------------------------ flow: setup, phases, turns
    def advance_flow(self, state: dict) -> None:
        flow, p = state["flow"], self.p
        stage = flow["stage"]
        if stage == "new":
            flow["stage"] = "setup"
            if p.setup is not None:
                self._activate(state, p.setup, {})
            return
        if stage == "setup":
            self._enter_phase(state, 0)
            return
        phase = p.phases[flow["phase"]]
        if stage == "begin":
            if phase.turn is None:
                self._end_phase(state)
            else:
                self._start_turn(state, flow["start"])
            return
        # a turn has ended
        if flow["turns"] >= flow["max_turns"]:
            flow["over"], flow["unfinished"] = True, True
            return
        # Who plays next, and whether that begins a new round, is settled before `end when`
        # is asked, so `end when round > 3` ends the phase after exactly three rounds.
        nxt, new_round = self.next_player(state)
        if new_round:
            if flow["after_round"]:
                flow["over"] = True
                return
            flow["round"] += 1
        if phase.end_when is not None and phase.end_when(self.ctx(state, {})):
            self._end_phase(state)
            return
        self._start_turn(state, nxt)

    def next_player(self, state: dict):
        """Who plays after this turn, and whether a new round begins with them. A round ends
        when the turn comes back to `start_player`; in a game whose rules say `leave round`,
        only once every player has left it. `end round` ends it either way; then everyone is
        back in and `start_player` (or the player named by `next turn`) plays."""
        flow, n = state["flow"], state["n"]
        named, flow["next"] = flow["next"], None
        out = flow.get("out") or []
        if flow.pop("end_round", False) or len(out) >= n:
            flow.pop("out", None)
            return (flow["start"] if named is None else named), True
        nxt = (flow["current"] + 1) % n if named is None else named
        while nxt in out:
            nxt = (nxt + 1) % n
        return nxt, nxt == flow["start"] and not self.p.leaving

    def _enter_phase(self, state, index: int) -> None:
        flow = state["flow"]
        if index >= len(self.p.phases):
            flow["over"] = True
            return
        flow.update(phase=index, stage="begin", round=1)
        flow.pop("out", None)
        flow.pop("end_round", None)
        if self.observer is not None:
            self.observer.phase(index)
        phase = self.p.phases[index]
        if phase.begin is not None:
            self._activate(state, phase.begin, {})

    def _end_phase(self, state) -> None:
        phase = self.p.phases[state["flow"]["phase"]]
        if phase.then is None:
            state["flow"]["over"] = True
        else:
            self._enter_phase(state, self.p.phase_index(phase.then))

    def _start_turn(self, state, player: int) -> None:
        flow = state["flow"]
        flow["current"], flow["stage"] = player, "turn"
        flow["turns"] += 1
        self._activate(state, self.p.phases[flow["phase"]].turn, {})

    def _activate(self, state, block: int, env: dict) -> None:
        state["stack"].append({"k": "act", "env": env})
        state["stack"].append({"k": "blk", "b": block, "i": 0})

    # ------------------------------------------------------------ statements
    def _do_let(self, state, ctx, s):
        value = s.value(ctx)
        if isinstance(value, (str, list)):
            sized(value, s.span)
        self.env(state)[s.name] = value

    def _do_pass(self, state, ctx, s):
        pass

    def _slot(self, state, ctx, target, span):
        """The container and key an assignment target names (an item: of a fresh copy of its
        list, so a list shared with another name or component never changes under it)."""
        where, name, obj = target
        if where == "local":
            return ctx.env, name
        if where == "global":
            return state["vars"], name
        if where == "start":
            return state["flow"], "start"
        if where == "pvar":
            p = obj(ctx)
            if not (type(p) is int and 0 <= p < state["n"]):  # (unchecked: a scenario's given:)
                raise RuleError("E504", f"'.{name}' needs a player, not {plain(p)}", span)
            return state["pvars"][name], p
        if where == "item":
            container, key = self._slot(state, ctx, name, span)
            seq, i = container[key], obj(ctx)
            if not isinstance(seq, list):
                raise RuleError("E504", f"only an item of a list can change, not of {plain(seq)}", span)
            if not (is_number(i) and int(i) == i and -len(seq) <= i < len(seq)):
                raise RuleError("E504", f"position {plain(i)} is outside this list of {len(seq)}", span)
            container[key] = seq = list(seq)
            return seq, int(i)
        comp = obj(ctx)  # a component's state
        if comp is None or ctx.cat.kind[comp] not in self.p.decls.comp_states[name]:
            raise RuleError("E504", f"this component has no state '{name}'", span)
        return state["cstate"][name], comp

    def _do_assign(self, state, ctx, s):
        where, op = s.target[0], s.op
        value = s.value(ctx)
        container, key = self._slot(state, ctx, s.target, s.span)
        if op != "=":
            old = container[key]
            if not (is_number(old) and is_number(value)):
                raise RuleError("E504", f"'{op}' needs numbers, not {plain(old)} and {plain(value)}", s.span)
            value = bounded(old + value if op == "+=" else old - value if op == "-=" else old * value, s.span)
        if isinstance(value, (str, list)):
            sized(value, s.span)  # a text or list grown in steps (replace, flatten...) stops here
        if where == "start" and not (isinstance(value, int) and 0 <= value < state["n"]):
            raise RuleError("E504", "start_player must be a player", s.span)
        container[key] = value

    def _do_call(self, state, ctx, s):
        names, block = self.p.procs[s.proc]
        stack = state["stack"]
        # (each activation is a frame: a short stack cannot hold 100 of them)
        if len(stack) > 100 and sum(1 for f in stack if f["k"] == "act") > 100:
            raise RuleError("E502", f"procedure '{s.proc}' calls itself more than 100 deep", s.span)
        if s.args:
            env = {name: a(ctx) for name, a in zip(names, s.args)}
        else:
            env = {}
        self._activate(state, block, env)

    def _do_if(self, state, ctx, s):
        for cond, block in s.branches:
            if cond(ctx):
                state["stack"].append({"k": "blk", "b": block, "i": 0})
                return
        if s.orelse is not None:
            state["stack"].append({"k": "blk", "b": s.orelse, "i": 0})

    def _do_for(self, state, ctx, s):
        items = s.items(ctx)
        if not isinstance(items, list):
            raise RuleError("E504", f"'for' needs a list, not {plain(items)}", s.span)
        state["stack"].append({"k": "for", "s": s.sid, "b": s.body, "var": s.var, "items": list(items), "n": 0})

    def _do_while(self, state, ctx, s):
        state["stack"].append({"k": "while", "s": s.sid})

    def _do_repeat(self, state, ctx, s):
        left = -1
        if s.count is not None:
            n = s.count(ctx)
            if not is_number(n):
                raise RuleError("E504", f"'repeat' needs a number, not {plain(n)}", s.span)
            left = max(0, int(n))
        state["stack"].append({"k": "rep", "s": s.sid, "left": left})

    def _do_break(self, state, ctx, s):
        stack = state["stack"]
        while stack and stack[-1]["k"] not in _LOOPS:
            if stack[-1]["k"] == "act":
                raise RuleError("E404", "'break' outside a loop", s.span)
            stack.pop()
        if stack:
            stack.pop()

    def _do_return(self, state, ctx, s):
        stack = state["stack"]
        while stack and stack[-1]["k"] != "act":
            stack.pop()
        if stack:
            stack.pop()

    def _do_end(self, state, ctx, s):
        flow = state["flow"]
        if s.outcome is not None:
            # (only then: the flow of a game that never says it is the same as before)
            flow["outcome"] = s.outcome
        if s.after_round:
            flow["after_round"] = True
            return
        if s.winner is not None:
            winner = s.winner(ctx)
            if not (isinstance(winner, int) and 0 <= winner < state["n"]):
                raise RuleError("E504", "the winner must be a player", s.span)
            flow["winner"] = winner
        flow["over"] = True
        state["stack"].clear()

    def _do_leave(self, state, ctx, s):
        flow = state["flow"]
        p = flow["current"] if s.player is None else s.player(ctx)
        if not (isinstance(p, int) and 0 <= p < state["n"]):
            raise RuleError("E504", f"'leave round' needs a player, not {plain(p)}", s.span)
        out = flow.get("out") or []
        if p not in out:
            flow["out"] = sorted(out + [p])

    def _do_end_round(self, state, ctx, s):
        state["flow"]["end_round"] = True

    def _do_next_turn(self, state, ctx, s):
        p = s.player(ctx)
        if not (isinstance(p, int) and 0 <= p < state["n"]):
            raise RuleError("E504", "'next turn' needs a player", s.span)
        state["flow"]["next"] = p

    def _do_say(self, state, ctx, s):
        if not self.says:
            return
        value = s.message(ctx)
        if isinstance(value, list):
            sized(value, s.span)  # measured before it is written out
        if s.to is None:
            state["said"].append(self.p.write(value, s.kind, ctx.cat))
            return
        # `say ... to P`: only P is told; kept apart from `said` (which every seat sees), with
        # how many public messages came before it, so a view can tell them in order
        p = s.to(ctx)
        if not (isinstance(p, int) and not isinstance(p, bool) and 0 <= p < state["n"]):
            raise RuleError("E504", "'say ... to' needs a player", s.span)
        state.setdefault("told", []).append([p, len(state["said"]), self.p.write(value, s.kind, ctx.cat)])

    def _do_show(self, state, ctx, s):
        value = s.what(ctx)
        if isinstance(value, dict):  # a grid zone: its components
            value = sorted(set(value.values()))
        items = value if isinstance(value, list) else [value]
        for c in items:
            if not (isinstance(c, int) and not isinstance(c, bool) and 0 <= c < len(ctx.cat.kind)):
                raise RuleError("E504", f"only components can be shown, not {plain(c)}", s.span)
        p = s.to(ctx)
        if not (isinstance(p, int) and not isinstance(p, bool) and 0 <= p < state["n"]):
            raise RuleError("E504", "'show ... to' needs a player", s.span)
        # What the seat was shown, as plain data in the state (saves keep it): it knows these
        # components while they stay in the zone they lie in (see `_take`, `_do_shuffle`).
        known = state.setdefault("known", {}).setdefault(str(p), [])
        known.extend(c for c in items if c not in known and state["where"][c] is not None)
        known.sort()

    # zones ---------------------------------------------------------------
    def _zone_list(self, state, zone, span):
        name, owner = zone
        z = state["zones"][name]
        if owner >= 0:
            if not (isinstance(owner, int) and 0 <= owner < state["n"]):
                raise RuleError("E504", "a player's zone needs a player", span)
            z = z[owner]
        return z

    def _take(self, state, comp, ctx=None, span=None):
        """Remove a component from where it lies (counting, with a context, the work of taking
        it out of a long list: the items after it move up)."""
        where = state["where"][comp]
        if where is None:
            return
        known = state.get("known")
        if known:  # a seat shown it forgets it once it moves (docs/language.md, "show")
            for seen in known.values():
                if comp in seen:
                    seen.remove(comp)
        name, owner, cell = where
        z = state["zones"][name]
        if owner >= 0:
            z = z[owner]
        if isinstance(cell, list):  # a piece with faces: one key per cell
            for key in cell:
                del z[key]
        elif cell is not None:
            del z[cell]
        else:
            if ctx is not None:
                charge(ctx, 1 + len(z) // 64, span)
            z.remove(comp)
        state["where"][comp] = None

    def _put(self, state, comp, zone, place, cell, span, ctx):
        """Put a component in a zone, each component put counting as work of the statement."""
        cat = ctx.cat
        charge(ctx, 1, span)
        name, owner = zone
        if self.observer is not None and state["flow"]["stage"] not in ("new", "setup"):
            self.observer.component_moved(comp)
        info = self.p.zones[name]
        if cat.kind[comp] not in info.kinds:
            raise RuleError("E504", f"zone '{name}' does not hold a {cat.kind[comp]}", span)
        z = self._zone_list(state, zone, span)
        if info.grid:
            if cell is None:
                raise RuleError("E504", f"'{name}' is a grid: say where, with 'at (x, y)'", span)
            faces = cat.faces[comp]
            if cell == []:
                raise RuleError("E504", "'at' was given an empty list of cells", span)
            many = isinstance(cell, list) and isinstance(cell[0], list)
            cells = cell if many else [cell]
            if faces is None and many:
                raise RuleError("E504", f"a {cat.kind[comp]} covers one cell (its kind has no faces)", span)
            if faces is not None and len(cells) != len(faces):
                raise RuleError("E504", f"a {cat.kind[comp]} has {len(faces)} faces: it needs "
                                f"{len(faces)} cells, not {len(cells)}", span)
            keys = []
            for c in cells:
                key = cell_key(check_cell(c, span))
                if info.size is not None:
                    x, y = (int(v) for v in c)
                    if not (0 <= x < info.size[0] and 0 <= y < info.size[1]):
                        raise RuleError("E504", f"cell {key} is outside the {info.size[0]} by {info.size[1]} grid", span)
                if (key in z and z[key] != comp) or key in keys:
                    raise RuleError("E504", f"cell {key} of '{name}' is taken", span)
                keys.append(key)
            self._take(state, comp, ctx, span)
            for key in keys:
                z[key] = comp
            state["where"][comp] = [name, owner, keys if faces is not None else keys[0]]
            self._moved(state, comp)
            return
        if info.capacity is not None and len(z) >= info.capacity and comp not in z:
            raise RuleError("E504", f"zone '{name}' is full: it holds at most {info.capacity}", span)
        self._take(state, comp, ctx, span)
        if info.sorted_by is not None:
            comp_attrs, key = cat.attrs, info.sort_value
            k = key(comp_attrs[comp])
            pos = len(z)
            for i, other in enumerate(z):
                if key(comp_attrs[other]) > k:
                    pos = i
                    break
            charge(ctx, pos, span)  # (the items looked at)
            z.insert(pos, comp)
        elif place == "top":
            charge(ctx, len(z) // 64, span)
            z.insert(0, comp)
        else:
            z.append(comp)
        state["where"][comp] = [name, owner, None]
        self._moved(state, comp)

    # (what the compiling back end's generated moves hand on: the cases they do not write out)
    put = _put

    def _moved(self, state, comp) -> None:
        # what the last move moved, for clients to point out (a state saved before this
        # was kept has no list)
        moved = state.get("moved")
        if moved is None:
            return
        seen = self.moved_seen(moved)
        if comp not in seen:
            seen.add(comp)
            moved.append(comp)

    def moved_seen(self, moved: list) -> set:
        """The components in `moved` (the state's list of what the last move moved), as a
        set kept for the list: whoever appends to the list adds to the set."""
        listed, seen = self._moved_seen
        if listed is not moved:
            seen = set(moved)
            self._moved_seen = (moved, seen)
        return seen

    def _components(self, value, cat, span) -> List[int]:
        items = value if isinstance(value, list) else [value]
        for c in items:
            if not (isinstance(c, int) and not isinstance(c, bool) and 0 <= c < len(cat.kind)):
                raise RuleError("E504", f"only components can be moved, not {plain(c)}", span)
        return items

    def _do_move(self, state, ctx, s):
        comps = self._components(s.what(ctx), ctx.cat, s.span)
        zone = s.dest(ctx)
        cell = s.cell(ctx) if s.cell is not None else None
        if cell is not None and not self.p.zones[zone[0]].grid:
            self._put_at(state, comps, zone, cell, s.end or "top", s.span, ctx)
            return
        if s.place == "top":
            comps = list(reversed(comps))  # the first named ends on top
        if len(comps) > 1 and cell is not None:
            raise RuleError("E504", "only one component fits on a cell", s.span)
        for comp in comps:
            self._put(state, comp, zone, s.place, cell, s.span, ctx)

    def _put_at(self, state, comps, zone, pos, end, span, ctx):
        """`move X to Z at N from top|bottom`: the components, in the order named, as one block
        with N components of Z above it (from the top) or below it (from the bottom)."""
        name = zone[0]
        if self.p.zones[name].sorted_by is not None:
            raise RuleError("E504", f"'{name}' is kept sorted: a position in it would not stay", span)
        if not (is_number(pos) and pos == int(pos) and pos >= 0):
            raise RuleError("E504", f"a position in '{name}' is a whole number from 0, not {plain(pos)}", span)
        z = self._zone_list(state, zone, span)
        moving = set(comps)
        others = len(z) - sum(1 for c in z if c in moving)
        pos = int(pos)
        if pos > others:
            raise RuleError("E504", f"there is no position {pos} from the {end} of '{name}': it holds "
                            f"{others} other components (positions 0 to {others})", span)
        for comp in comps:
            self._put(state, comp, zone, "end", None, span, ctx)
        z = self._zone_list(state, zone, span)
        block = z[others:]
        at = pos if end == "top" else others - pos
        charge(ctx, len(z) // 64, span)
        z[at:] = block + z[at:others]

    def _do_draw(self, state, ctx, s):
        n = s.count(ctx)
        if not is_number(n):
            raise RuleError("E504", f"'draw' needs a number, not {plain(n)}", s.span)
        src, dst = s.source(ctx), s.dest(ctx)
        info = self.p.zones[src[0]]
        if info.grid:  # (the checker refuses it in rules; a scenario's given: is not checked)
            raise RuleError("E504", f"cannot draw from '{src[0]}': it is a grid", s.span)
        for _ in range(max(0, int(min(n, self.max_steps + 1)))):
            # Each component drawn is a step: a zone refilled from the one it is drawn to would
            # otherwise go round for ever within one statement (or one per loop step).
            if self.count_drawn() > self.max_steps:
                self.drew_too_many(s.span)
            pile = self._zone_list(state, src, s.span)
            if not pile and info.refill:
                pile = self.refill(state, ctx, s.span, src)
            if not pile:
                break
            self._put(state, pile[0], dst, "end", None, s.span, ctx)

    def drew_too_many(self, span):
        raise RuleError("E501", f"the rules drew more than {self.max_steps} components without "
                        "waiting for a player (the step budget)", span,
                        "draw fewer, or raise the step budget (--max-steps)")

    def count_drawn(self) -> int:
        """One more component drawn in this run: how many now (the step budget bounds them)."""
        self._drawn += 1
        return self._drawn

    def refill(self, state, ctx, span, src) -> list:
        """An empty pile `src` (zone name, owner) refilled from its `refill` zone and shuffled."""
        info = self.p.zones[src[0]]
        refill = (info.refill, src[1] if self.p.zones[info.refill].per_player else -1)
        for comp in list(self._zone_list(state, refill, span)):
            self._put(state, comp, src, "end", None, span, ctx)
        rng.shuffle(state, self._zone_list(state, src, span))
        return self._zone_list(state, src, span)

    def _do_shuffle(self, state, ctx, s):
        zone = s.zone(ctx)
        z = self._zone_list(state, zone, s.span)
        if isinstance(z, dict):
            raise RuleError("E504", "a grid cannot be shuffled", s.span)
        known = state.get("known")
        if known:  # shuffled: where a shown component now lies is not known
            for seat, seen in known.items():
                known[seat] = [c for c in seen if c not in z]
        rng.shuffle(state, z)

    # choices -------------------------------------------------------------
    def _do_choose(self, state, ctx, s):
        player = s.player(ctx)
        if not (isinstance(player, int) and 0 <= player < state["n"]):
            raise RuleError("E504", f"'choose by' needs a player, not {plain(player)}", s.span)
        state["pending"] = {"s": s.sid, "players": [player]}
        if s.timer is not None:
            seconds = s.timer(ctx)
            if not (is_number(seconds) and seconds > 0):
                state["pending"] = None
                raise RuleError("E504", f"a timer needs a number of seconds above 0, not {plain(seconds)}",
                                s.span)
            state["pending"]["timer"] = seconds
        if not self.played_on:
            return
        if self._choice_facts(s.sid)[0]:
            # a typed move's suggestions may be a bot's whole search: the first one will do
            listed = self.has_move(state, player)
        else:
            try:
                table = self.listing(state, player)
                if table is None:
                    table = Listed(self.moves_for(state, player))
            except RuleError:
                # a listing that fails says so where the moves are asked for, as it always has
                listed = self.moves_for(state, player, first_only=True)
            else:
                listed = table.count
                self._listed = (state, state["pending"], player, table)
                if type(table) is Table:
                    reached = self._reached
                    if len(reached) >= REACHED and id(state) not in reached:
                        del reached[next(iter(reached))]
                    reached[id(state)] = self._listed
        if not listed:
            state["pending"] = None
            self._listed = None
            raise RuleError("E503", f"P{player + 1} has no legal move here", s.span,
                            "add an alternative that is always possible (e.g. pass)")

    def _do_secret(self, state, ctx, s):
        players = s.players(ctx)
        if not isinstance(players, list) or not all(isinstance(p, int) and 0 <= p < state["n"] for p in players):
            raise RuleError("E504", "'choose secretly by each' needs a list of players", s.span)
        if not players:
            return
        state["pending"] = {"s": s.sid, "players": list(dict.fromkeys(players)), "got": {}}
        for p in state["pending"]["players"]:
            if not self.has_move(state, p):
                state["pending"] = None
                raise RuleError("E503", f"P{p + 1} has no legal move here", s.span)

    def _choice_for(self, state, seat: int):
        """(alternatives, local names they see) of the choice `seat` must make now, or None
        when it has none (nothing pending, not theirs, or a secret choice already made)."""
        pending = state["pending"]
        if pending is None or seat not in pending["players"] or str(seat) in pending.get("got", {}):
            return None
        stmt = self.stmts[pending["s"]]
        env = dict(self.env(state))
        if stmt.secret:
            env[stmt.var] = seat
        return stmt.alts, env

    def moves_for(self, state, seat: int, first_only: bool = False, suggestions: bool = True) -> list:
        """Every legal move of `seat` at the pending decision, in the rules' order (with
        `first_only`, the first one found: enough to know the choice is not stuck; without
        `suggestions`, none of a typed alternative's, which may be a word game's whole search)."""
        listed = self._listed
        if listed is not None and listed[0] is state:
            self._listed = None
            # (the same decision, not changed since: a submitted move makes a new pending)
            if listed[1] is state["pending"] and listed[2] == seat and not first_only:
                return listed[3].moves()
        if not first_only:
            table = self.listing(state, seat)
            if table is not None:
                return table.moves(kept=False)
        choice = self._choice_for(state, seat)
        if choice is None:
            return []
        alts, env = choice
        if not suggestions:
            alts = [a for a in alts if a.typed is None]
        ctx = self.ctx(state, env, pure=True)
        ctx.memo = {}
        out: list = []
        if first_only:
            alts = self._choice_facts(state["pending"]["s"])[2]  # (cheapest first)
            if not suggestions:
                alts = [a for a in alts if a.typed is None]
        for alt in alts:
            if alt.fixed:
                self._product(ctx, alt, seat, out, first_only)
            else:
                self._enumerate(ctx, alt, 0, [], seat, out, first_only)
            if out and first_only:
                break
        if not first_only and len(out) > 1:
            return self.one_of_each(state, seat, alts, out)
        return out

    def one_of_each(self, state, seat: int, alts, moves: list) -> list:
        """The moves with those that differ only by which of several indistinguishable
        components they use (same kind, attributes, faces, states, zone, owner and cell, and
        the same text) listed once: the first of them. A component a variable names is told
        apart from its copies (the rules can tell them), and so is one `seat` cannot see (in a
        hidden zone, another's own): merging those would tell it how many differ. The others
        stay legal moves: `apply` takes a move naming any copy, as it always has (logs and
        saves name the copy played)."""
        positions = self._component_positions(alts)
        if not any(positions.values()):
            return moves
        def canon(value, seen):
            # a component as its look, numbered by first use within the move: (a, b) and (b, a)
            # of two copies are one move, (a, a) another
            if type(value) is int:
                k = look(value)
                used = seen.setdefault(k, [])
                if value not in used:
                    used.append(value)
                return k, used.index(value)
            if isinstance(value, list):
                return tuple(canon(v, seen) for v in value)
            return repr(value)

        # no two of the components named look alike (the usual case): nothing to merge
        named_here = set()
        for move in moves:
            comps = positions.get(move["alt"])
            if comps:
                args = move["args"]
                for i in comps:
                    a = args[i]
                    if type(a) is int:
                        named_here.add(a)
                    else:
                        named_here.add(-1)  # (a list of components: looked at below)
        alike = None if -1 in named_here else self._alike(state, named_here)
        if alike == []:
            return moves
        looks: dict = {}
        look = self._look(state, seat, looks)
        if alike is not None and all(len({look(c) for c in group}) == len(group) for group in alike):
            return moves
        out, listed = [], set()
        for move in moves:
            comps = positions.get(move["alt"])
            if not comps:
                out.append(move)
                continue
            key = [move["alt"]]
            cs = []
            for i, a in enumerate(move["args"]):
                if i not in comps:
                    key.append(a if type(a) in (int, str) else repr(a))
                elif type(a) is int:
                    key.append(looks.get(a) or look(a))
                    cs.append(a)
                else:
                    key.append(canon(a, {}))
            if len(cs) > 1:
                # which of the move's components are the same one: (a, b) and (b, a) of two
                # copies are one move, (a, a) another
                key.append(tuple([cs.index(c) for c in cs]))
            key = tuple(key)
            if key not in listed:
                listed.add(key)
                out.append(move)
        return out

    def _component_positions(self, alts) -> dict:
        """Per listed alternative, the places of its parameters that are components (kept per
        alternative: the program's, fixed)."""
        known = self._positions
        out = {}
        for alt in alts:
            if alt.typed is None:
                got = known.get(id(alt))
                if got is None or got[0] is not alt:
                    got = known[id(alt)] = (alt, frozenset(
                        i for i, param in enumerate(alt.params) if param.kind == "component"))
                out[alt.name] = got[1]
        return out

    def _look(self, state, seat: int, looks: dict):
        """A component's look as `seat` sees it (see one_of_each), remembered in `looks`."""
        statics = self._looks(self.catalogue(state))
        where, cstates = state["where"], list(state["cstate"].values())
        named = self._named_components(state)
        zones = self.p.zones

        def sees(at) -> bool:
            vis = zones[at[0]].visibility
            return not (vis == "hidden" or (vis == "owner" and at[1] != seat))

        def look(c):
            k = looks.get(c)
            if k is None:
                if c in named or not 0 <= c < len(statics) or (where[c] is not None and not sees(where[c])):
                    k = ("#", c)
                else:
                    k = (statics[c], repr([v[c] for v in cstates]) if cstates else "", repr(where[c]))
                looks[c] = k
            return k
        return look

    def one_of_each_table(self, state, seat: int, alts, table):
        """`one_of_each` of a generated listing's table, keeping its blocks: an alternative
        whose moves are every combination of its lists, with one component among them, keeps
        the first of each look in that list (the first of each look-alike move, in the same
        order); any other block with components is listed and merged move by move."""
        if table.count < 2:
            return table
        # (the choice's places of components, kept per statement's alternatives: a listing
        # always hands its statement's own list)
        got = self._table_positions.get(id(alts))
        if got is None or got[0] is not alts:
            got = self._table_positions[id(alts)] = (alts, self._component_positions(alts))
        positions = got[1]
        if not any(positions.values()):
            return table
        # Nothing to merge when every block naming components is a product of lists of
        # components no two of which are alike in kind, attributes, faces and text (as
        # one_of_each finds for the moves listed): the usual case, found without a look.
        copies = self._copies(state)
        statics = self._looks_of[1]
        n = len(statics)
        ints = _INTS
        named: set = set()
        for name, domains, listed in table.blocks:
            comps = positions.get(name)
            if comps:
                if domains is None:
                    break
                for i in comps:  # (_no_copies of each list, written out: once per listing)
                    d = domains[i]
                    if d and not (set(map(type, d)) <= ints and min(d) >= 0 and max(d) < n):
                        break
                    named.update(d)
                else:
                    continue
                break
        else:
            if copies.isdisjoint(named) or len(set(map(statics.__getitem__, named))) == len(named):
                return table
        looks: dict = {}
        made = []

        def look(c):  # (the look of each component, worked out only if a block needs it)
            if not made:
                made.append(self._look(state, seat, looks))
            return made[0](c)
        blocks, total, changed = [], 0, False
        for block in table.blocks:
            name, domains, listed = block
            comps = positions.get(name)
            if comps and domains is not None and len(comps) == 1:
                (i,) = comps
                if self._alike(state, domains[i]) == []:
                    blocks.append(block)
                    total += _size(domains)
                    continue
                # (the first of each look of its component, with every value of the other
                # lists: the merge's moves, unless another list holds a value twice, whose
                # moves the merge would take as one)
                if all(type(c) is int for c in domains[i]) and \
                        all(len(set(map(repr, d))) == len(d) for j, d in enumerate(domains) if j != i):
                    firsts, seen = [], set()
                    for c in domains[i]:
                        k = look(c)
                        if k not in seen:
                            seen.add(k)
                            firsts.append(c)
                    if len(firsts) < len(domains[i]):
                        domains = domains[:i] + [firsts] + domains[i + 1:]
                        block, changed = (name, domains, None), True
                    blocks.append(block)
                    total += _size(domains)
                    continue
            if comps and domains is not None and all(type(c) is int for i in comps for c in domains[i]) \
                    and self._alike(state, {c for i in comps for c in domains[i]}) == []:
                blocks.append(block)  # (no two of its components alike: nothing to merge)
                total += _size(domains)
                continue
            if comps:
                moves = Table(table.seat, [block], 0).moves() if domains is not None else listed
                merged = self.one_of_each(state, seat, alts, moves)
                if len(merged) < len(moves) or domains is not None:
                    block, changed = (name, None, merged), True
                blocks.append(block)
                total += len(merged)
                continue
            blocks.append(block)
            total += len(listed) if domains is None else _size(domains)
        return Table(table.seat, blocks, total) if changed else table

    def _alike(self, state, comps):
        """The groups of `comps` (components) alike in kind, attributes, faces and text, two or
        more to a group: only those may merge, whatever their states and places, so those
        are worked out for them alone; None when some item is not a component."""
        statics = self._looks(self.catalogue(state))
        n = len(statics)
        if _no_copies(comps, self._looks_of[2], n):
            return []
        groups: dict = {}
        for c in comps:
            if type(c) is not int or not 0 <= c < n:
                return None
            groups.setdefault(statics[c], []).append(c)
        return [g for g in groups.values() if len(g) > 1]

    def _looks(self, cat) -> list:
        """Per component, a number shared by the components alike in kind, attributes, faces
        and text (fixed for a game: kept with its catalogue)."""
        cached = self._looks_of
        if cached is not None and cached[0] is cat:
            return cached[1]
        ids: dict = {}
        looks = [ids.setdefault((cat.kind[c], repr(cat.attrs[c]), cat.show[c],
                                 repr(cat.faces[c]) if cat.faces else None), len(ids))
                 for c in range(len(cat.kind))]
        # the components that have a look-alike: only those can ever merge
        sizes: dict = {}
        for k in looks:
            sizes[k] = sizes.get(k, 0) + 1
        copied = frozenset(c for c, k in enumerate(looks) if sizes[k] > 1)
        self._looks_of = (cat, looks, copied)
        return looks

    def _copies(self, state) -> frozenset:
        """The components that have a look-alike (see `_looks`): only those can ever merge."""
        last, cached = self._last_catalogue, self._looks_of
        if last is not None and cached is not None and last[2] is cached[0] \
                and last[0] is state["options"] and last[1] == state["n"]:
            return cached[2]  # (the catalogue the state's own options gave last)
        self._looks(self.catalogue(state))
        return self._looks_of[2]

    def _named_components(self, state) -> set:
        """The components the game's variables name now (a var of a component or a list of
        them), and the local names of the rules under way that may hold one."""
        out: set = set()

        def add(v):
            if isinstance(v, int) and not isinstance(v, bool):
                out.add(v)
            elif isinstance(v, list):
                for x in v:
                    add(x)
        for var in self.p.global_vars:
            if var.kind == "component":
                add(state["vars"][var.name])
        for var in self.p.player_vars:
            if var.kind == "component":
                add(state["pvars"][var.name])
        local = self.p.component_locals
        if local:
            for frame in state["stack"]:
                if frame["k"] == "act":
                    for name in local.intersection(frame["env"]):
                        add(frame["env"][name])
        return out

    def listing(self, state, seat: int):
        """The seat's moves at the pending decision as a table, by the choice's generated
        listing (the compiling back end's `listers`), or None where the interpreter lists them."""
        pending = state["pending"]
        if pending is None:
            return None
        sid = pending["s"]
        fn = self.listers[sid] if sid < len(self.listers) else None
        if fn is None:
            return None
        choice = self._choice_for(state, seat)
        if choice is None:
            return NO_MOVES
        ctx = self.ctx(state, choice[1], pure=True)
        ctx.memo = {}
        return self.one_of_each_table(state, seat, choice[0], fn(ctx, seat))

    def has_move(self, state, seat: int) -> bool:
        """Whether `seat` has a legal move at the pending decision: `moves_for` with
        `first_only`, by the choice's generated search for a first move where it has one."""
        sid = state["pending"]["s"]
        fn = self.listers[sid] if sid < len(self.listers) else None
        if fn is None:
            return bool(self.moves_for(state, seat, first_only=True))
        choice = self._choice_for(state, seat)
        if choice is None:
            return False
        ctx = self.ctx(state, choice[1], pure=True)
        ctx.memo = {}
        return fn.any(ctx, seat)

    def listing_helpers(self) -> tuple:
        """What a generated listing calls: the errors' class and writer, the most moves of a
        choice, the table, the interpreter's listing of an alternative's moves one by one, what
        its check of one move looks for an argument with, the interpreter's moves of a product
        of lists with a condition, and the most work of a listing."""
        return (RuleError, plain, MAX_MOVES, Table, self._product, self._enumerate, listed_value, MISSING,
                self._passing, MAX_WORK)

    def move_table(self, state, seat: int):
        """The seat's legal moves as a table (gamedsl/runtime/moves.py): how many, the i-th.
        The decision's listing made when the choice was reached is used, not taken: the
        table's moves are handed out as copies."""
        listed = self._listed
        if listed is not None and listed[0] is state and listed[1] is state["pending"] and listed[2] == seat:
            return listed[3]
        table = self.listing(state, seat)
        return table if table is not None else Listed(self.moves_for(state, seat))

    @staticmethod
    def _product(ctx, alt, seat, out, first_only=False, before=0):
        """The moves of an alternative whose choices do not depend on one another: each
        parameter's list is computed once (not once per value of the parameters before it),
        in order, stopping at an empty one as the step-by-step listing would. (`before`: the
        moves of the choice counted but not in `out`, as a table of moves keeps them.)"""
        domains = []
        count = 1
        for param in alt.params:
            domain = param.domain(ctx)
            if not isinstance(domain, list):
                raise RuleError("E504", f"the choices for '{param.name}' must be a list, not {plain(domain)}",
                                alt.span)
            if not domain:
                return
            domains.append(domain)
            count *= len(domain)
        Machine._passing(ctx, alt, domains, count, seat, out, first_only, before)

    @staticmethod
    def _passing(ctx, alt, domains, count, seat, out, first_only=False, before=0):
        """The moves of `_product` once its lists are known (`count`: their combinations)."""
        name, guard = alt.name, alt.guard
        if guard is None:
            if first_only:
                out.append({"seat": seat, "alt": name, "args": [d[0] for d in domains]})
                return
            if before + len(out) + count > MAX_MOVES:
                raise RuleError("E504", f"a choice of more than {MAX_MOVES:,} moves", alt.span,
                                "narrow its parameters' lists, or ask in two steps")
            if len(domains) == 1:  # (a choice of one thing: no tuples to unpack)
                out += [{"seat": seat, "alt": name, "args": [v]} for v in domains[0]]
            else:
                out += [{"seat": seat, "alt": name, "args": [*args]} for args in product(*domains)]
            return
        # (only where the combinations are few enough to list at once: more would make more
        # moves than a choice may have, which the loop below stops at, in bounded memory)
        if alt.filter is not None and not first_only and count <= MAX_MOVES:
            work = ctx.work
            passed = alt.filter(ctx, domains, count)
            if passed is not None:
                if before + len(out) + len(passed) <= MAX_MOVES:
                    out.extend({"seat": seat, "alt": name, "args": args} for args in passed)
                    return
                ctx.work = work  # too many moves: the loop below says so where it stops
        env, names = ctx.env, [param.name for param in alt.params]
        # each combination tried counts as work, as in the step-by-step listing
        work_left = MAX_WORK - ctx.work
        for args in product(*domains):
            work_left -= 1
            if work_left < 0:
                raise RuleError("E501", f"listing the moves of this choice tried more than {MAX_WORK:,} "
                                "combinations of its parameters", alt.span)
            for n, v in zip(names, args):
                env[n] = v
            if guard(ctx):
                out.append({"seat": seat, "alt": name, "args": list(args)})
                if first_only:
                    break
                if before + len(out) > MAX_MOVES:
                    raise RuleError("E504", f"a choice of more than {MAX_MOVES:,} moves", alt.span,
                                    "narrow its parameters' lists, or ask in two steps")
        ctx.work = MAX_WORK - work_left
        for n in names:
            env.pop(n, None)

    def _enumerate(self, ctx, alt, i, args, seat, out, first_only=False, before=0):
        if alt.typed is not None:
            self._suggestions(ctx, alt, seat, out, first_only)
            return
        if first_only and out:
            return
        if i == len(alt.params):
            if alt.guard is None or alt.guard(ctx):
                out.append({"seat": seat, "alt": alt.name, "args": list(args)})
            return
        param = alt.params[i]
        domain = param.domain(ctx)
        if not isinstance(domain, list):
            raise RuleError("E504", f"the choices for '{param.name}' must be a list, not {plain(domain)}", alt.span)
        if i == len(alt.params) - 1:
            # The last parameter: one loop instead of a call per value (the hot spot of listing moves).
            # Each combination tried counts as work: parameters over long lists multiply.
            ctx.work += len(domain)
            if ctx.work > MAX_WORK:
                raise RuleError("E501", f"listing the moves of this choice tried more than {MAX_WORK:,} "
                                "combinations of its parameters", alt.span)
            name, guard = param.name, alt.guard
            for value in domain:
                ctx.env[name] = value
                if guard is None or guard(ctx):
                    out.append({"seat": seat, "alt": alt.name, "args": args + [value]})
                    if first_only:
                        break
                    if before + len(out) > MAX_MOVES:
                        raise RuleError("E504", f"a choice of more than {MAX_MOVES:,} moves", alt.span,
                                        "narrow its parameters' lists, or ask in two steps")
            ctx.env.pop(name, None)
            return
        for value in domain:
            ctx.env[param.name] = value
            args.append(value)
            self._enumerate(ctx, alt, i + 1, args, seat, out, first_only, before)
            args.pop()
        ctx.env.pop(param.name, None)

    def _suggestions(self, ctx, alt, seat, out, first_only=False):
        """An alternative with typed parameters lists its suggestions that pass its guard."""
        guard, name, env, params = alt.guard, alt.name, ctx.env, alt.params
        one = params[0].name if len(params) == 1 else None
        for args in self._candidates(ctx, alt):
            if guard is not None:
                # (`_passes_guard`, written out: this runs for every word a word game suggests)
                if one is not None:
                    env[one] = args[0]
                else:
                    for param, value in zip(params, args):
                        env[param.name] = value
                if not guard(ctx):
                    continue
            out.append({"seat": seat, "alt": name, "args": args})
            if first_only:
                break
        for param in params:
            env.pop(param.name, None)

    def _candidates(self, ctx, alt):
        """An alternative with typed parameters: its suggestions of its parameters' types, as
        argument lists, each once, in order; its guard not yet asked."""
        if alt.suggest is None:
            return
        values = alt.suggest(ctx)
        if not isinstance(values, list):
            raise RuleError("E504", f"'suggest' must give a list, not {plain(values)}", alt.span)
        many = len(alt.params) > 1
        one = len(alt.params) == 1
        checks = [self._typed_check(t) for t in alt.typed]
        seen = set()
        for v in values:
            args = list(v) if many and isinstance(v, list) else [v]
            # (a suggestion suggested again is tried once: values of the plain types are
            # their own key, as they are equal exactly when written alike; others written)
            if one and type(v) in PLAIN_KEY_TYPES:
                key = v
            elif all(type(x) in PLAIN_KEY_TYPES for x in args):
                key = tuple(args)
            else:
                key = (WRITTEN_KEY, repr(args))
            if key in seen or not _passes(checks, args):
                continue
            seen.add(key)
            yield args

    def draw_move(self, state, seat: int, rng):
        """A uniformly random legal move of `seat`, or None: see `Game.random_move`. A choice
        with typed parameters draws among its moves listed and its suggestions not yet
        checked, and checks only a suggestion drawn, until one passes; any other choice
        draws from its table, as `rng.choice` draws from its moves."""
        pending = state["pending"]
        # (move_table's first look, made before the choice's facts are: the usual random move
        # is on a choice listed when it was reached, and this look is the cheapest way to it)
        reached = self._listed
        if reached is not None and reached[0] is state and reached[1] is pending and reached[2] == seat:
            table = reached[3]  # (listed when the choice was reached: never one with typed parameters)
        elif pending is None or not self._choice_facts(pending["s"])[0]:
            table = self.move_table(state, seat)
        else:
            return self._draw_typed(state, seat, rng)
        return table.at(rng.randrange(table.count)) if table.count else None

    def _draw_typed(self, state, seat: int, rng):
        """`draw_move` on a choice with typed parameters: its moves listed and its
        suggestions, each suggestion checked only once it is drawn."""
        choice = self._choice_for(state, seat)
        if choice is None:
            return None
        alts, env = choice
        ctx = self.ctx(state, env, pure=True)
        ctx.memo = {}
        listed: list = []
        blocks: list = []  # in the rules' order: (None, moves listed) or (alternative, its candidates)
        for alt in alts:
            if alt.typed is not None:
                blocks.append((alt, list(self._candidates(ctx, alt))))
                continue
            out: list = []
            if alt.fixed:
                self._product(ctx, alt, seat, out, before=len(listed))
            else:
                self._enumerate(ctx, alt, 0, [], seat, out, before=len(listed))
            listed += out
            blocks.append((None, out))
        total = sum(len(items) for _, items in blocks)
        if total > MAX_MOVES:
            # (so many that the listing may be too long a choice: it says so, or draws)
            moves = self.moves_for(state, seat)
            return moves[rng.randrange(len(moves))] if moves else None
        if len(listed) > 1:
            merged = self.one_of_each(state, seat, alts, listed)
            if len(merged) < len(listed):
                kept = {id(m) for m in merged}
                blocks = [(alt, items if alt is not None else [m for m in items if id(m) in kept])
                          for alt, items in blocks]
                total = sum(len(items) for _, items in blocks)
        try:
            while total:
                i = rng.randrange(total)
                for alt, items in blocks:
                    if i < len(items):
                        break
                    i -= len(items)
                if alt is None:
                    m = items[i]
                    return {"seat": seat, "alt": m["alt"], "args": list(m["args"])}
                args = items[i]
                if alt.guard is None or _passes_guard(ctx, ctx.env, alt.params, args, alt.guard):
                    return {"seat": seat, "alt": alt.name, "args": list(args)}
                # (dropped: each candidate left is as likely as before to be drawn next)
                items[i] = items[-1]
                items.pop()
                total -= 1
            return None
        finally:
            for alt, _ in blocks:
                if alt is not None:
                    for param in alt.params:
                        ctx.env.pop(param.name, None)

    def _typed_ok(self, alt, args) -> bool:
        if len(args) != len(alt.params):
            return False
        return all(self._typed_value_ok(t, v) for t, v in zip(alt.typed, args))

    def _typed_value_ok(self, t: str, v) -> bool:
        return self._typed_check(t)(v)

    def _typed_check(self, t: str):
        """Whether a value is of typed parameter type `t`, as a function of the value."""
        if t == "text":
            return _is_text
        if t == "number":
            return is_number
        if t == "cell":
            return is_cell
        if t == "list of text":
            return _is_texts
        if t in self.p.decls.enums:
            return self.p.decls.enums[t].__contains__
        return _anything

    def is_listed(self, state: dict, move: dict) -> bool:
        """Whether `move` (of an alternative without typed parameters) is among
        `moves_for(state, move["seat"])`, found without listing them all: each argument must
        be in its parameter's choices (computed with the earlier arguments bound, as the
        listing does) and the guard must pass."""
        choice = self._choice_for(state, move["seat"])
        if choice is None:
            return False
        alts, env = choice
        # (the generated listing's checks of one move, by alternative, once it has been made)
        sid = state["pending"]["s"]
        checks = getattr(self.listers[sid], "checks", None) if sid < len(self.listers) else None
        ctx = None
        args = move["args"]
        for j, alt in enumerate(alts):
            if alt.name != move["alt"] or alt.typed is not None or len(alt.params) != len(args):
                continue
            if ctx is None:
                ctx = self.ctx(state, env, pure=True)
                ctx.memo = {}
            check = checks[j] if checks is not None else None
            if check(ctx, args) if check is not None else self._allows(ctx, alt, args):
                return True
        return False

    def listed_when_reached(self, state: dict, move: dict) -> bool:
        """Whether `move` is among the moves of the table listed when the state's pending
        choice was reached (False says nothing: the move may still be legal, e.g. naming a
        look-alike copy the table lists once): its arguments in the lists of an alternative
        without a condition, or the move among those listed. Those are what the check would
        work out again from the same state; no caller holds them (a table hands out copies)."""
        entry = self._reached.get(id(state))
        if entry is None or entry[0] is not state or entry[1] is not state["pending"] or entry[2] != move["seat"]:
            return False
        name, args = move["alt"], move["args"]
        for alt, domains, listed in entry[3].blocks:
            if alt != name:
                continue
            if domains is None:
                # (the moves its condition let through: one equal to it, truths apart from numbers)
                for m in listed:
                    if m["args"] == args and all((type(x) is bool) == (type(y) is bool)
                                                 for x, y in zip(m["args"], args)):
                        return True
            elif len(domains) == len(args):
                for d, a in zip(domains, args):
                    if listed_value(d, a) is MISSING:
                        break
                else:
                    return True
        return False

    @staticmethod
    def _allows(ctx, alt, args) -> bool:
        env = ctx.env
        try:
            for param, arg in zip(alt.params, args):
                domain = param.domain(ctx)
                if not isinstance(domain, list):
                    raise RuleError("E504", f"the choices for '{param.name}' must be a list, not {plain(domain)}",
                                    alt.span)
                # bind the listed value equal to the argument, as the listing would
                value = listed_value(domain, arg)
                if value is MISSING:
                    return False
                env[param.name] = value
            return alt.guard is None or bool(alt.guard(ctx))
        finally:
            for param in alt.params:
                env.pop(param.name, None)

    def typed_verdict(self, state: dict, move: dict):
        """For a move of an alternative with typed parameters: None if its guard allows it,
        else why not (the alternative's `else` text, or a plain refusal). Not such a move: False."""
        choice = self._choice_for(state, move["seat"])
        if choice is None:
            return False
        alts, env = choice
        alt = next((a for a in alts if a.name == move["alt"] and a.typed is not None), None)
        if alt is None:
            return False
        if not self._typed_ok(alt, move["args"]):
            return "this move needs " + ", ".join(alt.typed)
        ctx = self.ctx(state, env, pure=True)
        ctx.memo = {}
        for param, value in zip(alt.params, move["args"]):
            ctx.env[param.name] = value
        if alt.guard is None or alt.guard(ctx):
            return None
        if alt.refusal is not None:
            return plain(alt.refusal(ctx))
        return "the rules do not allow it now"

    def refused_moves(self, state: dict, seat: int, limit: int = 2000) -> list:
        """(move, reason) for the moves of listed alternatives with `if ... else REASON` that
        the condition refuses now: what a person who types one is told (at most `limit`)."""
        choice = self._choice_for(state, seat)
        if choice is None:
            return []
        alts, env = choice
        ctx = self.ctx(state, env, pure=True)
        ctx.memo = {}
        out: list = []

        def walk(alt, args):
            if len(out) >= limit:
                return
            if len(args) == len(alt.params):
                if not alt.guard(ctx):
                    out.append(({"seat": seat, "alt": alt.name, "args": list(args)}, plain(alt.refusal(ctx))))
                return
            param = alt.params[len(args)]
            domain = param.domain(ctx)
            for value in domain if isinstance(domain, list) else ():
                ctx.env[param.name] = value
                walk(alt, args + [value])

        for alt in alts:
            if alt.typed is None and alt.guard is not None and alt.refusal is not None:
                walk(alt, [])
        return out

    def has_typed(self, state: dict) -> bool:
        """Whether the pending choice has an alternative with typed parameters at all."""
        pending = state["pending"]
        return pending is not None and self._choice_facts(pending["s"])[0]

    def _choice_facts(self, sid: int) -> tuple:
        """Of choice statement `sid`, kept: (whether an alternative has typed parameters, its
        alternatives by name, in the order a search for a first move tries them)."""
        facts = self._facts.get(sid)
        if facts is None:
            alts = self.stmts[sid].alts
            by_name: dict = {}
            for a in alts:
                by_name.setdefault(a.name, a)
            first = cheapest_first(alts)
            facts = self._facts[sid] = (any(a.typed is not None for a in alts), by_name, first)
        return facts

    def typed_alternatives(self, state: dict, seat: int) -> list:
        """The pending choice's alternatives whose parameters a person types."""
        pending = state["pending"]
        if pending is None or seat not in pending["players"]:
            return []
        return [a for a in self.stmts[pending["s"]].alts if a.typed is not None]

    def timer(self, state: dict, seat: int):
        """The seconds on the clock of the choice `seat` must make now; None if it has none."""
        if self._choice_for(state, seat) is None:
            return None
        return state["pending"].get("timer")

    def submit(self, state: dict, move: dict) -> None:
        """Carry out a legal move (already validated) and run on."""
        pending = state["pending"]
        stmt = self.stmts[pending["s"]]
        if move["alt"] == TIMEOUT:
            state["pending"] = None
            state["stack"].append({"k": "blk", "b": stmt.timeout, "i": 0})
        elif not stmt.secret:
            state["pending"] = None
            self.enter_alternative(state, stmt, stmt.alts, move)
        else:
            pending["got"][str(move["seat"])] = move
            if len(pending["got"]) < len(pending["players"]):
                # a secret choice only records the move: what moved last stays as it was, so
                # the other seats' views do not change
                return
            todo = [[p, pending["got"][str(p)]] for p in pending["players"]]
            state["pending"] = None
            state["stack"].append({"k": "secret", "s": stmt.sid, "todo": todo})
        state["moved"] = []
        self.run(state)

    def enter_alternative(self, state, choice, alts, move):
        if alts is choice.alts:
            entries = self._entries.get(choice.sid)
            if entries is None:
                entries = self._entries[choice.sid] = {
                    name: (a, tuple(p.name for p in a.params), a.body)
                    for name, a in self._choice_facts(choice.sid)[1].items()}
            alt, names, body = entries[move["alt"]]
        else:
            alt = next(a for a in alts if a.name == move["alt"])
            names, body = tuple(p.name for p in alt.params), alt.body
        if self.observer is not None:
            self.observer.alternative(choice.sid, alt.name, [
                v for p, v in zip(alt.params, move["args"]) if p.kind == "component" and isinstance(v, int)])
        stack = state["stack"]
        if names:
            # the parameters are locals of the innermost activation (`env`, written out)
            for frame in reversed(stack):
                if frame["k"] == "act":
                    frame["env"].update(zip(names, move["args"]))
                    break
        stack.append({"k": "blk", "b": body, "i": 0})

    # ------------------------------------------------------------ a new game
    def new_state(self, n: int, seed: int, options: dict, max_turns: int = DEFAULT_MAX_TURNS) -> dict:
        cat = self.p.catalogue(n, options)
        state = {
            "n": n, "options": dict(options), "rng": rng.seed_state(seed),
            "vars": {}, "pvars": {}, "zones": {}, "cstate": {},
            "where": [None] * len(cat.kind),
            "flow": {"stage": "new", "phase": 0, "current": 0, "start": 0, "round": 1, "turns": 0,
                     "next": None, "after_round": False, "over": False, "winner": None,
                     "unfinished": False, "max_turns": max_turns},
            "stack": [], "pending": None, "said": [], "moved": [],
        }
        for name, info in self.p.zones.items():
            empty = (lambda: {}) if info.grid else list
            state["zones"][name] = [empty() for _ in range(n)] if info.per_player else empty()
        ctx = Ctx(self.p, state, {}, cat, pure=False)
        for var in self.p.global_vars:
            state["vars"][var.name] = _first_value(var, ctx)
        for var in self.p.player_vars:
            state["pvars"][var.name] = [_first_value(var, ctx) for _ in range(n)]
        for kind in self.p.kinds.values():
            for name, init in kind.states:
                values = state["cstate"].setdefault(name, [None] * len(cat.kind))
                for cid in cat.by_kind[kind.name]:
                    ctx.env = cat.attrs[cid]
                    values[cid] = init(ctx)
        return state


MISSING = object()


def cheapest_first(alts) -> list:
    """A choice's alternatives in the order a search for its first move tries them: one
    with nothing to choose and no condition is a move at once; a typed move's suggestions
    may be a bot's whole search."""
    return sorted(alts, key=lambda a: 2 if a.typed is not None else (0 if not a.params and a.guard is None else 1))


def listed_value(domain: list, arg):
    """The first value of `domain` equal to `arg` and of the same kind (false == 0 in Python,
    not in the rules), or MISSING."""
    try:
        i = domain.index(arg)  # (the first equal one, or the very same object)
    except ValueError:
        return MISSING
    value = domain[i]
    if value == arg and (type(value) is bool) == (type(arg) is bool):
        return value
    for value in domain[i + 1:]:  # (true found for 1, or a value not equal to itself)
        if value == arg and (type(value) is bool) == (type(arg) is bool):
            return value
    return MISSING


def _is_text(v) -> bool:
    return isinstance(v, str)


def _is_texts(v) -> bool:
    return isinstance(v, list) and all(isinstance(x, str) for x in v)


def _anything(v) -> bool:
    return True


def _passes_guard(ctx, env, params, args, guard) -> bool:
    """Whether a typed alternative's guard passes with its parameters bound to `args`."""
    for param, value in zip(params, args):
        env[param.name] = value
    return bool(guard(ctx))


def _passes(checks: list, args: list) -> bool:
    """Whether each of `args` passes its check (as many of each)."""
    if len(args) != len(checks):
        return False
    for check, v in zip(checks, args):
        if not check(v):
            return False
    return True


def _first_value(var, ctx):
    """A variable's first value; the variables get theirs in the order declared, so one read
    before it has a value (its own, or a later one's) is the rules' mistake, said as such."""
    try:
        return var.init(ctx)
    except KeyError as err:
        raise RuleError("E504", f"the first value of '{var.name}' reads the variable {err}, which has "
                        "no value yet: variables get their first values in the order they are declared") from None


_INTS = frozenset({int})


def _no_copies(items, copies: frozenset, n: int) -> bool:
    """Whether `items` are all components (of the `n`) and none of them is in `copies`."""
    kinds = set(map(type, items))
    if not kinds:
        return True
    return kinds <= _INTS and min(items) >= 0 and max(items) < n and copies.isdisjoint(items)


def _size(domains) -> int:
    size = 1
    for d in domains:
        size *= len(d)
    return size
