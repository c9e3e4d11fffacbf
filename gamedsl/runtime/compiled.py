"""The machine of the compiling back end: the interpreter's run loop, with every block run by
its generated function (gamedsl.compiler.backend) instead of statement by statement.

Everything else is the interpreter's, inherited: the flow of setup, phases and turns, the
loop frames (`for`, `while`, `repeat`, the secret choices' moves), the effects, listing and
submitting moves. The state and its frames are the interpreter's exactly, so the two engines
can be compared whole-state after every move, and each resumes the other's saves.
"""

from __future__ import annotations

from typing import Optional

from gamedsl.errors import RuleError
from gamedsl.language import DEFAULT_MAX_STEPS
from gamedsl.runtime.ctx import MAX_WORK, charge
from gamedsl.runtime.machine import Machine
from gamedsl.runtime.values import MAX_NUMBER, bounded, is_number, plain, sized


class CompiledMachine(Machine):
    # what generated code calls besides the machine's own methods
    helpers = (sized, bounded, is_number, RuleError, plain)
    # ... and what its effects and arithmetic written out read: the work limit's check and its
    # diagnostic, the bound on numbers
    effect_helpers = (charge, MAX_WORK, MAX_NUMBER)

    def __init__(self, program, make, max_steps: int = DEFAULT_MAX_STEPS, listing=None, copier=None):
        super().__init__(program, max_steps=max_steps)
        self.make = make
        self.fns = self.plain_fns = make(self)
        self.block_sizes = [len(b) for b in self.blocks]
        self.watched = None  # (an observer, the functions telling it)
        # each choice's generated listing (gamedsl.compiler.listing), by statement; the
        # game's copier of states (gamedsl.compiler.copier)
        if listing is not None:
            self.listers = listing(self.listing_helpers())
        if copier is not None:
            self.clone = copier

    def observe(self, observer) -> None:
        """While an observer looks, the blocks run as functions generated to tell it of
        every statement (kept for that observer, as a simulation looks only at the moves
        played and not at its bots' searches, and so switches it on and off at every move)."""
        super().observe(observer)
        if observer is None:
            self.fns = self.plain_fns
            return
        if self.watched is None or self.watched[0] is not observer:
            self.watched = (observer, self.make(self, observed=True))
        self.fns = self.watched[1]

    def run(self, state: dict, stop_depth: Optional[int] = None) -> None:
        fns = self.fns
        if fns is None or stop_depth is not None:
            super().run(state, stop_depth)
            return
        steps = 0
        stack = state["stack"]
        flow = state["flow"]
        max_steps = self.max_steps
        env_of = self.env
        sizes = self.block_sizes
        # one context for the run: each block's function gives it the block's local names,
        # and each statement starts its work count afresh
        ctx = self.run_context(state)
        while state["pending"] is None and not flow["over"]:
            if not stack:
                self.advance_flow(state)
                continue
            frame = stack[-1]
            k = frame["k"]
            if k == "blk":
                if frame["i"] >= sizes[frame["b"]]:
                    # (a block whose last statement asked a player: its function would only
                    # pop its frame)
                    stack.pop()
                    continue
                # the locals of the innermost activation (Machine.env, written out)
                j = len(stack) - 2
                while j >= 0 and stack[j]["k"] != "act":
                    j -= 1
                ctx.env = stack[j]["env"] if j >= 0 else {}
                try:
                    steps = fns[frame["b"]](state, frame, stack, ctx, steps)
                except RuleError as err:
                    if err.span is None:  # (as the interpreter: the line of the statement it came from)
                        err.span = self.statement_under_way(state).span
                    raise
            elif k == "act":
                stack.pop()
            elif k == "for":
                if frame["n"] < len(frame["items"]):
                    env_of(state)[frame["var"]] = frame["items"][frame["n"]]
                    frame["n"] += 1
                    stack.append({"k": "blk", "b": frame["b"], "i": 0})
                else:
                    stack.pop()
            elif k == "while":
                stmt = self.stmts[frame["s"]]
                steps += 1
                if steps + self.run_work // self.work_per_step > max_steps:
                    self.runaway(state, stmt)
                self.run_work += ctx.work
                ctx.env, ctx.work, ctx.depth = env_of(state), 0, 0
                if stmt.cond(ctx):
                    stack.append({"k": "blk", "b": stmt.body, "i": 0})
                else:
                    stack.pop()
            elif k == "rep":
                stmt = self.stmts[frame["s"]]
                steps += 1
                if steps + self.run_work // self.work_per_step > max_steps:
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
                    env_of(state)[stmt.var] = seat
                    self.enter_alternative(state, stmt, stmt.alts, move)
                else:
                    stack.pop()
