"""Scenario tests: a `.scenario` file plays moves in a game and checks what must follow.

    game "../tictactoe.game"

    scenario "a full row wins":
      move "place 0,0"
      move "place 0,1"
      ...
      expect over and winners == [p1]

Each scenario runs in a fresh game. Items run in order; the first that fails
ends the scenario, reported as ``path:line:col: reason``. Nothing a scenario
file says (a syntax error, an unknown game, a bad option, a rule that fails
while playing) escapes as a Python traceback: it is a failed scenario.
See docs/scenarios.md.
"""

from __future__ import annotations

import json
import os
import random
import re
import sys
from pathlib import Path
from typing import Dict, Iterable, List, Optional, TextIO, Tuple

import attrs

from gamedsl.syntax import ast as A
from gamedsl.diagnostics import Diagnostic, render_all
from gamedsl.errors import GameError
from gamedsl.files import FileRefused, read_bytes
from gamedsl.language import MAX_SOURCE_BYTES
from gamedsl.runtime.game import is_timeout_text
from gamedsl.errors import MoveError, RuleError
from gamedsl.syntax.cache import parse
from gamedsl.compiler.kinds import value_kind
from gamedsl.pipeline import load, parse_with_extends

SCENARIO_SUFFIX = ".scenario"
# Names an `expect` may use besides p1..pN and the game's own names.
RESULT_NAMES = ("over", "winners", "scores", "said", "timer", "moves", "outcome")
_WORDS = {A.ScMove: "move", A.ScRefuse: "refuse", A.ScExpect: "expect", A.ScGiven: "given",
          A.ScRandom: "play", A.ScPlayers: "players", A.ScSeed: "seed", A.ScOption: "option",
          A.ScView: "in view of"}


@attrs.define
class Result:
    """One scenario's outcome (or a whole file that could not be run: title is then the path)."""

    title: str
    passed: bool
    path: str
    line: int = 0
    col: int = 0
    reason: str = ""

    @property
    def where(self) -> str:
        return f"{self.path}:{self.line}:{self.col}" if self.line else self.path

    def __str__(self) -> str:
        head = f"{'PASS' if self.passed else 'FAIL'} {self.title}"
        if self.passed:
            return head
        body = "\n".join("    " + ln for ln in self.reason.splitlines()[1:])
        first = self.reason.splitlines()[0] if self.reason else "failed"
        return f"{head}\n  {self.where}: {first}" + (f"\n{body}" if body else "")


class _Failed(Exception):
    """A scenario item failed: where (a span) and why."""

    def __init__(self, span: Optional[A.Span], reason: str):
        super().__init__(reason)
        self.span, self.reason = span, reason


# ---------------------------------------------------------------- finding and loading


def find_files(paths: Iterable[str]) -> List[str]:
    """The scenario files named, or found (recursively, sorted) in the directories named."""
    out: List[str] = []
    for p in paths:
        path = Path(p)
        if path.is_dir():
            out.extend(str(f) for f in sorted(path.rglob("*" + SCENARIO_SUFFIX)) if f.is_file())
        else:
            out.append(str(path))
    return out


def _game_path(scenario_path: Path, name: str, span: A.Span) -> Path:
    """The game a scenario file names: relative to the scenario file ('..' allowed), an existing .game file."""
    rel = Path(name)
    if rel.is_absolute() or name.startswith("~") or "\\" in name:
        raise _Failed(span, f"'{name}': name the game by a path relative to this scenario file")
    resolved = Path(os.path.normpath(scenario_path.parent / rel))  # stays relative, for messages
    if resolved.suffix != ".game":
        raise _Failed(span, f"'{name}' is not a .game file")
    if not resolved.is_file():
        raise _Failed(span, f"no game file '{name}' (looked for {resolved})")
    return resolved


def _game_span(path: str, text: str) -> A.Span:
    for n, line in enumerate(text.splitlines(), 1):
        stripped = line.strip()
        if stripped.startswith("game ") or stripped.startswith('game"'):
            col = len(line) - len(line.lstrip()) + 1
            return A.Span(path, n, col, n, len(line) + 1)
    return A.Span(path, 1, 1, 1, 1)


_GAMES: Dict[tuple, object] = {}  # loaded games, by path and modification time


def _load(path: Path, max_steps: Optional[int] = None):
    stat = path.stat()
    key = (str(path), stat.st_mtime_ns, stat.st_size, max_steps)
    if key not in _GAMES:
        _GAMES[key] = load(str(path), max_steps=max_steps)
    return _GAMES[key]


# ---------------------------------------------------------------- running


def run_file(path: str, text: Optional[str] = None, max_steps: Optional[int] = None) -> List[Result]:
    """Run every scenario of one file; a file that cannot be run at all is one failed Result.
    max_steps: the game's step budget (None: the engine's default)."""
    try:
        if text is None:  # (a regular file only, bounded: a FIFO would be waited on for ever)
            text = read_bytes(Path(path), MAX_SOURCE_BYTES).decode("utf-8")
    except FileRefused as err:
        return [Result(path, False, path, 0, 0, f"cannot read the scenario file: it {err}")]
    except (OSError, UnicodeDecodeError) as err:
        return [Result(path, False, path, 0, 0, f"cannot read the scenario file: {err}")]
    tree, diags = parse(text, path, start="scenario_file")
    errors = [d for d in diags if d.is_error]
    if tree is None or errors:
        return [_diag_result(path, path, errors or diags, {path: text})]
    if tree.game is None:
        return [Result(path, False, path, 1, 1,
                       'a scenario file begins with the game it tests: game "relative/path.game"')]
    span = _game_span(path, text)
    try:
        game = _load(_game_path(Path(path), tree.game, span), max_steps)
    except _Failed as err:
        return [Result(path, False, path, span.line, span.col, err.reason)]
    except GameError as err:
        sources = {}
        try:
            sources = parse_with_extends(str(_game_path(Path(path), tree.game, span))).sources
        except Exception:  # noqa: BLE001 - only for showing source lines
            pass
        shown = render_all(err.diagnostics, sources)
        return [Result(path, False, path, span.line, span.col,
                       f"the game '{tree.game}' has errors:\n{shown}")]
    if not tree.scenarios:
        return [Result(path, False, path, 1, 1, "this file has no scenarios")]
    runner = _Runner(game, path, text)
    return [runner.run(sc) for sc in tree.scenarios]


def _diag_result(title: str, path: str, diags: List[Diagnostic], sources: dict) -> Result:
    first = next((d for d in diags if d.span is not None), None)
    line, col = (first.span.line, first.span.col) if first else (0, 0)
    shown = render_all(diags, sources)
    # The rendered diagnostic repeats the location: keep only the message after it.
    lines = shown.splitlines()
    if first is not None and lines and lines[0].startswith(f"{first.span.file}:"):
        lines[0] = lines[0].split(": ", 1)[1]
    return Result(title, False, path, line, col, "\n".join(lines))


class _Runner:
    def __init__(self, game, path: str, text: str):
        self.game, self.path, self.lines = game, path, text.splitlines()

    def run(self, sc: A.Scenario) -> Result:
        try:
            self._run(sc)
        except _Failed as err:
            span = err.span or sc.span
            return Result(sc.title, False, self.path, span.line, span.col, err.reason)
        except RecursionError:
            return Result(sc.title, False, self.path, sc.span.line, sc.span.col, "the rules recursed too deeply")
        except Exception as err:  # noqa: BLE001 - a scenario never ends in a traceback
            return Result(sc.title, False, self.path, sc.span.line, sc.span.col,
                          f"internal error: {type(err).__name__}: {err}")
        return Result(sc.title, True, self.path, sc.span.line, sc.span.col)

    # -------------------------------------------------------- the scenario's game
    def _run(self, sc: A.Scenario) -> None:
        game = self.game
        players: Optional[int] = None
        players_span = sc.span
        seed = 0
        options: dict = {}
        state: Optional[dict] = None
        for item in sc.items:
            if isinstance(item, (A.ScPlayers, A.ScSeed, A.ScOption)):
                if state is not None:
                    raise _Failed(item.span, f"'{_WORDS[type(item)]}' must come before the scenario's "
                                  "first given/move/refuse/expect/play")
                if isinstance(item, A.ScPlayers):
                    players, players_span = item.count, item.span
                    if not game.min_players <= players <= game.max_players:
                        raise _Failed(item.span, f"{game.title} is for {game.info.players_text()} players, not {players}")
                elif isinstance(item, A.ScSeed):
                    seed = item.seed
                else:
                    options[item.name] = A.literal_value(item.value)
                    try:
                        game.resolve_options(options)
                    except ValueError as err:
                        raise _Failed(item.span, str(err)) from None
                continue
            if state is None:
                state = self._start(players if players is not None else game.min_players, seed, options,
                                    players_span)
                n = state["n"]
                self.names = {f"p{i + 1}": i for i in range(n)}
                self.rnd = random.Random(seed * 7919 + 17)
            state = self._item(item, state)
        if state is None:
            self._start(players if players is not None else game.min_players, seed, options, players_span)

    def _start(self, players: int, seed: int, options: dict, span: A.Span) -> dict:
        try:
            return self.game.new_game(players, seed, options)
        except RuleError as err:
            raise _Failed(span, f"the game's setup failed: {err}") from None
        except ValueError as err:
            raise _Failed(span, str(err)) from None

    def _item(self, item, state: dict) -> dict:
        game = self.game
        if isinstance(item, A.ScGiven):
            try:
                return game.run_statements(state, item.body, self.names)
            except RuleError as err:
                raise _rule_failed(self.path, item.span, "'given' failed: ", err) from None
        if isinstance(item, A.ScMove):
            seat = self._seat(item, state)
            waiting = game.waiting_for(state)
            if seat not in waiting:
                raise _Failed(item.span, f"move \"{item.text}\": {_not_waiting(game, state, seat)}")
            try:
                return game.apply(state, _read_move(game, state, item.text, seat))
            except MoveError as err:
                raise _Failed(item.span, f"move \"{item.text}\" by P{seat + 1} was refused: {err.message}") from None
            except RuleError as err:
                raise _Failed(item.span, f"move \"{item.text}\": the rules failed: {_rule_text(err)}") from None
        if isinstance(item, A.ScRefuse):
            return self._refuse(item, state)
        if isinstance(item, A.ScExpect):
            self._expect(item, state)
            return state
        if isinstance(item, A.ScView):
            self._view(item, state)
            return state
        if isinstance(item, A.ScRandom):
            for i in range(item.count):
                if game.is_over(state):
                    break
                moves = game.legal_moves(state)
                if not moves:
                    raise _Failed(item.span, f"after {i} random moves nobody can move, yet the game is not over")
                move = self.rnd.choice(moves)
                try:
                    state = game.apply(state, move)
                except RuleError as err:
                    raise _Failed(item.span, f"random move {i + 1} ('{game.move_text(state, move)}'): "
                                  f"the rules failed: {_rule_text(err)}") from None
            return state
        raise _Failed(item.span, f"unknown scenario item {type(item).__name__}")

    def _seat(self, item, state: dict) -> int:
        game = self.game
        word = _WORDS[type(item)]
        if item.by is not None:
            said = "'in view of'" if word == "in view of" else "'by'"
            seats = f"p1..p{state['n']}"
            by = item.by
            if isinstance(by, A.Name) and re.fullmatch(r"[pP][0-9]+", by.name) and by.name not in self.names \
                    and by.name not in game.info.names:
                more = (f"; for more, write 'players N' first ({game.title} is for "
                        f"{game.info.players_text()} players)" if state["n"] < game.max_players else "")
                raise _Failed(by.span, f"{said}: {by.name} is no seat here: the game has "
                              f"{state['n']} players ({seats}){more}")
            try:
                seat = game.evaluate(state, by, self.names)
            except RuleError as err:
                raise _rule_failed(self.path, by.span, said + ": ", err) from None
            if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < state["n"]:
                raise _Failed(by.span, f"{said} needs a player ({seats}), not {seat!r}")
            return seat
        waiting = game.waiting_for(state)
        if len(waiting) == 1:
            return waiting[0]
        if not waiting:
            if word == "refuse":
                return state["flow"]["current"]
            reason = "the game is over" if game.is_over(state) else "nobody is waiting to move"
            raise _Failed(item.span, f"{word} \"{item.text}\": {reason}")
        who = ", ".join(f"p{s + 1}" for s in waiting)
        raise _Failed(item.span, f"{word} \"{item.text}\": several players must move now ({who}); "
                      f"say which with 'by p{waiting[0] + 1}'")

    def _refuse(self, item: A.ScRefuse, state: dict) -> dict:
        game = self.game
        seat = self._seat(item, state)
        before = json.dumps(state, sort_keys=True)
        message = None
        try:
            waiting = game.waiting_for(state)
            if seat not in waiting:
                message = _not_waiting(game, state, seat)
            else:
                game.apply(state, _read_move(game, state, item.text, seat))
        except MoveError as err:
            message = err.message
        except RuleError as err:
            raise _Failed(item.span, f"refuse \"{item.text}\": the move was legal, and then the rules failed: "
                          f"{_rule_text(err)}") from None
        if json.dumps(state, sort_keys=True) != before:
            raise _Failed(item.span, f"refuse \"{item.text}\": refusing the move changed the state")
        if message is None:
            raise _Failed(item.span, f"\"{item.text}\" by P{seat + 1} should have been refused, but it is a legal move")
        if item.because is not None and item.because.lower() not in message.lower():
            raise _Failed(item.span, f"\"{item.text}\" was refused, but not because \"{item.because}\": "
                          f"the reason was: {message}")
        return state

    # -------------------------------------------------------- expect
    def _expect_names(self, expr, state: dict) -> Dict[str, object]:
        used = A.names_in(expr)
        names = dict(self.names)
        declared = self.game.info.names
        # The game's own names come first: a game with a variable `over` keeps it.
        wanted = [n for n in RESULT_NAMES if n in used and n not in names and n not in declared]
        if not wanted:
            return names
        game = self.game
        if "over" in wanted:
            names["over"] = game.is_over(state)
        if "said" in wanted:
            names["said"] = list(state.get("said", []))
        if "timer" in wanted:
            names["timer"] = game.timer(state)
        if "moves" in wanted:
            names["moves"] = [game.move_text(state, m) for m in game.legal_moves(state)]
        if "outcome" in wanted:
            names["outcome"] = state["flow"].get("outcome") if game.is_over(state) else None
        if "winners" in wanted or "scores" in wanted:
            try:
                res = game.results(state)
            except RuleError as err:
                raise _Failed(expr.span, f"the scores could not be computed: {_rule_text(err)}") from None
            names["winners"] = res["winners"]
            names["scores"] = res["scores"]
        return names

    def _expect(self, item: A.ScExpect, state: dict) -> None:
        expr = item.expr
        names = self._expect_names(expr, state)
        try:
            value = self.game.evaluate(state, expr, names)
        except RuleError as err:
            raise _rule_failed(self.path, item.span, f"expect {self._source(expr)}: ", err) from None
        if value is True:
            return
        reason = f"expected {self._source(expr)}"
        if not isinstance(value, bool):
            raise _Failed(item.span, f"{reason} to be true or false, but it is {self._write(state, value, expr)}")
        text = reason + ", but it is false"
        details = self._details(expr, state, names)
        if details:
            text += "\n" + "\n".join(details)
        raise _Failed(item.span, text)

    def _details(self, expr, state: dict, names: dict, indent: str = "") -> List[str]:
        """Why a false expectation is false: a comparison's two sides; each part of an
        `and` / `or` with its value (and, for a false comparison, its sides)."""
        out: List[str] = []
        if isinstance(expr, A.Compare):
            for side in (expr.left, expr.right):
                try:
                    v = self.game.evaluate(state, side, names)
                    out.append(f"{indent}{self._source(side)} is {self._write(state, v, side)}")
                except RuleError:
                    pass
        elif isinstance(expr, (A.And, A.Or)):
            parts, todo = [], [expr]
            while todo:  # a and b and c: the parts in the order written
                e = todo.pop(0)
                if type(e) is type(expr):
                    todo[:0] = [e.left, e.right]
                else:
                    parts.append(e)
            for part in parts:
                try:
                    v = self.game.evaluate(state, part, names)
                except RuleError as err:
                    out.append(f"{indent}{self._source(part)} fails: error[{err.code}]: {err.message}")
                    continue
                shown = ("true" if v else "false") if isinstance(v, bool) else self._write(state, v, part)
                out.append(f"{indent}{self._source(part)} is {shown}")
                if v is False:
                    out += self._details(part, state, names, indent + "  ")
                    if isinstance(expr, A.And):
                        break  # what follows was not looked at (it may need this part true)
        return out

    def _view(self, item: A.ScView, state: dict) -> None:
        """What a seat's view shows of a public fact or a player variable (one value per
        player), of a zone (its components as shown, or how many when the seat cannot see
        them), or of a component state (its value on each component the seat sees)."""
        game = self.game
        seat = self._seat(item, state)
        view = game.view(state, seat)
        if item.name in view["public"] or item.name in view["pvars"]:
            shown = view["public"].get(item.name, view["pvars"].get(item.name))
        elif item.name in view["zones"]:
            shown = _zone_shown(view, view["zones"][item.name])
        elif item.name in view["cstate"]:
            values = view["cstate"][item.name]
            shown = [values[str(c)] for c in _seen_in_order(view) if str(c) in values]
        else:
            known = ", ".join(sorted(set(view["public"]) | set(view["pvars"]))) or "none"
            raise _Failed(item.span, f"the view has no public fact or player variable '{item.name}', "
                          f"nor such a zone or component state (it has: {known})")
        try:
            want = game.evaluate(state, item.expected, self.names)
        except RuleError as err:
            raise _rule_failed(self.path, item.span, "in view of: ", err) from None
        if shown != want:
            raise _Failed(item.span, f"P{seat + 1}'s view shows {item.name} as {json.dumps(shown, ensure_ascii=False)}, "
                          f"not {self._write(state, want, item.expected)}")

    def _source(self, e) -> str:
        s = e.span
        try:
            if s.line == s.end_line:
                return self.lines[s.line - 1][s.col - 1:s.end_col - 1]
            parts = [self.lines[s.line - 1][s.col - 1:]] + self.lines[s.line:s.end_line - 1] + \
                [self.lines[s.end_line - 1][:s.end_col - 1]]
            return " ".join(p.strip() for p in parts)
        except IndexError:
            return "(expression)"

    def _write(self, state: dict, value, expr) -> str:
        """A value written for a person, players as P1.., components by their `show`."""
        game = self.game
        kinds = {name: "player" for name in self.names}
        kinds.update(winners="player", over="value", scores="value", said="value")
        return _written(game, state, value, value_kind(expr, game.program.decls, kinds))


def _written(game, state: dict, value, kind: str) -> str:
    if isinstance(value, list) and not (kind == "cell" and len(value) == 2 and not isinstance(value[0], list)):
        return "[" + ", ".join(_written(game, state, v, kind) for v in value) + "]"
    if isinstance(value, str) and kind == "value":
        return json.dumps(value, ensure_ascii=False)
    return game.write_value(state, value, kind)



def _read_move(game, state: dict, text: str, seat: int) -> dict:
    """The move a scenario's text names: a move of the rules, else "time ran out" (the move
    a client sends when a timed choice's clock runs out; `apply` says if there is no clock)."""
    try:
        return game.parse_move(state, text, seat)
    except MoveError:
        if not is_timeout_text(text):
            raise
        return game.timeout_move(state, seat)


def _not_waiting(game, state: dict, seat: int) -> str:
    if game.is_over(state):
        return "the game is over"
    waiting = game.waiting_for(state)
    who = ", ".join(f"P{p + 1}" for p in waiting) or "nobody"
    return f"P{seat + 1} cannot move now; waiting for {who}"


def _rule_text(err: RuleError) -> str:
    return str(err)


def _rule_failed(path: str, span: A.Span, prefix: str, err: RuleError) -> "_Failed":
    """A rule error as a scenario failure: at the error's own place when it is in the scenario
    file (a `given:` statement, an `expect` expression), else at the item, naming the rule's place."""
    if err.span is not None and err.span.file == path and err.span.line:
        return _Failed(err.span, f"{prefix}error[{err.code}]: {err.message}")
    return _Failed(span, prefix + str(err))


# ---------------------------------------------------------------- the command line


def run_paths(paths: List[str], out: TextIO = sys.stdout, max_steps: Optional[int] = None) -> Tuple[int, int]:
    """Run every scenario file in `paths` (directories are searched); print results; (passed, failed)."""
    passed = failed = 0
    files = find_files(paths)
    if not files:
        print(f"no {SCENARIO_SUFFIX} files in {', '.join(paths) or 'nothing'}", file=out)
    for path in files:
        if not Path(path).exists():
            result = Result(path, False, path, 0, 0, "no such file")
            print(result, file=out)
            failed += 1
            continue
        print(f"{path}", file=out)
        for result in run_file(path, max_steps=max_steps):
            print(str(result), file=out)
            if result.passed:
                passed += 1
            else:
                failed += 1
    print(f"{passed} passed, {failed} failed", file=out)
    return passed, failed


def main(argv: Optional[List[str]] = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    if not args:
        print("usage: python -m gamedsl.scenario FILE_OR_DIR...", file=sys.stderr)
        return 2
    _, failed = run_paths(args)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())


def _zone_shown(view: dict, value):
    """A zone as a view shows it: its components' shown texts (a grid's in cell order), or
    how many there are when the seat cannot see them (but "?" in place of those unseen when it
    was shown some); a player zone, one such value a player."""
    if isinstance(value, list) and value and all(isinstance(v, (list, dict)) for v in value):
        return [_zone_shown(view, v) for v in value]
    if isinstance(value, dict):
        if set(value) == {"count"}:
            return value["count"]
        # a grid: each component once (a piece with faces covers several cells)
        return [view["shows"].get(str(c), "?") for c in dict.fromkeys(value.values())]
    # ("?": a component in a zone the seat cannot see, among some it was shown)
    return [view["shows"].get(str(c), "?") for c in value]


def _seen_in_order(view: dict) -> list:
    """The components a seat sees, zone by zone as the game declares them, each zone in order
    (each component once: a piece with faces covers several cells of a grid)."""
    out = []

    def add(v):
        if isinstance(v, dict):
            if set(v) != {"count"}:
                out.extend(v.values())
        else:
            out.extend(v)

    for value in view["zones"].values():
        if isinstance(value, list) and value and all(isinstance(v, (list, dict)) for v in value):
            for v in value:
                add(v)
        else:
            add(value)
    return list(dict.fromkeys(out))
